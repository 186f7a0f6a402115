// Package formats holds the locale file formats package locales reads
// and writes besides the service's own JSON: ARB, Android strings.xml,
// Apple .strings and .xcstrings, gettext PO, Go's messages.gotext.json,
// XLIFF 1.2 and 2.0, YAML (Rails and i18next, with go.yaml.in/yaml/v3)
// and Java .properties (with github.com/magiconair/properties). It is
// a module of its own so that the core module depends on none of their
// parsers.
//
// Every format is a locales.Format and plugs into locales.Layout.Format;
// All lists them with locales.JSON, for DetectFormat and FormatByExt.
package formats

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// All returns every format: locales.JSON and the formats of this
// package, XLIFF and YAML under both their extensions.
func All() []locales.Format {
	return []locales.Format{locales.JSON{}, ARB{}, Android{}, AppleStrings{}, XCStrings{}, PO{}, GoText{},
		XLIFF{}, XLIFF{Extension: ".xliff"}, YAML{}, YAML{Extension: ".yaml"}, Properties{}}
}

// FormatByExt returns the format of formats whose extension ends the
// file name name, the longest when several do ("messages.gotext.json"
// is GoText, not JSON), and whether there is one.
func FormatByExt(name string, formats []locales.Format) (locales.Format, bool) {
	var best locales.Format
	for _, f := range formats {
		if strings.HasSuffix(name, f.Ext()) && (best == nil || len(f.Ext()) > len(best.Ext())) {
			best = f
		}
	}
	return best, best != nil
}

// DetectFormat returns the format of the locale tree under dir: the one
// format of formats whose extension its files (at the top and one
// folder down, as locales.ListFiles lists them) have. A tree with files
// of two formats is refused as a *locales.InputError naming a file of
// each: choose one with Layout.Format.
func DetectFormat(dir string, formats []locales.Format) (locales.Format, error) {
	files, err := locales.ListFiles(dir)
	if err != nil {
		return nil, err
	}
	found := map[string]string{} // Ext -> first file
	byExt := map[string]locales.Format{}
	for _, name := range files {
		if strings.Count(name, "/") > 1 {
			continue // the top and one folder down
		}
		if f, ok := FormatByExt(path.Base(name), formats); ok {
			if _, seen := found[f.Ext()]; !seen {
				found[f.Ext()] = name
				byExt[f.Ext()] = f
			}
		}
	}
	exts := slices.Sorted(maps.Keys(found))
	switch len(exts) {
	case 0:
		var all []string
		for _, f := range formats {
			all = append(all, f.Ext())
		}
		return nil, lineError(0, "no locale files in %s (none ends in %s)", dir, strings.Join(all, ", "))
	case 1:
		return byExt[exts[0]], nil
	}
	var names []string
	for _, e := range exts {
		names = append(names, found[e])
	}
	return nil, &locales.InputError{Problems: []locales.Problem{{File: found[exts[0]], Message: fmt.Sprintf(
		"the tree mixes locale formats (%s); keep one format per tree or choose one with Layout.Format", strings.Join(names, ", "))}}}
}

// notUTF8 returns a problem for each line of data holding bytes that
// are not UTF-8, or nil (see input.NotUTF8); keyOf may be nil.
func notUTF8(data []byte, keyOf func(off int) input.Where) []locales.Problem {
	return problems(input.NotUTF8(data, keyOf))
}

// jsonNotUTF8 is notUTF8 for a JSON document (see input.JSONNotUTF8).
func jsonNotUTF8(data []byte, keyOf func(path []string) input.Where) []locales.Problem {
	return problems(input.JSONNotUTF8(data, keyOf))
}

// firstNotUTF8 returns the problem of data's first line that is not
// UTF-8, for the formats whose parser stops there.
func firstNotUTF8(data []byte) error {
	return &locales.InputError{Problems: notUTF8(data, nil)[:1]}
}

// lineError is an *locales.InputError of one problem at line (0 when
// the format cannot tell).
func lineError(line int, format string, args ...any) error {
	return &locales.InputError{Problems: []locales.Problem{{Line: line, Message: fmt.Sprintf(format, args...)}}}
}

// byKey maps each message's key to its text.
func byKey(msgs []locales.Message) map[string]string {
	m := make(map[string]string, len(msgs))
	for _, msg := range msgs {
		m[msg.Key] = msg.Text
	}
	return m
}

func problems(bad []input.Bad) []locales.Problem {
	var ps []locales.Problem
	for _, b := range bad {
		ps = append(ps, locales.Problem{Line: b.Line, Language: b.Language, Key: b.Key, Message: b.Message})
	}
	return ps
}
