package formats

import (
	"reflect"
	"strings"

	"github.com/locsvc/partner-go/locales"
)

// ByName maps each format's name, as partner.yaml and the command's
// --format spell it (json, arb, android, applestrings, xcstrings, po,
// gotext, xliff, yaml, properties), to the format.
// The formats with options (XLIFF's extension, YAML's Rails) are there
// with none: a group's file names come from its patterns, and a new
// file takes its shape from its source file (locales.File.SourceFile).
func ByName() map[string]locales.Format {
	m := make(map[string]locales.Format)
	for _, f := range All() {
		if n := typeName(f); m[n] == nil {
			m[n] = f
		}
	}
	return m
}

// Name returns f's name in ByName, or "" for a format it lacks. A
// format of one of ByName's types with other options
// (XLIFF{Extension: ".xliff"}, YAML{Rails: true}) has its type's name.
func Name(f locales.Format) string {
	if f == nil {
		return ""
	}
	n := typeName(f)
	if g := ByName()[n]; g == nil || reflect.TypeOf(g) != reflect.TypeOf(f) {
		return ""
	}
	return n
}

// typeName is a format's name: its type's name in lower case.
func typeName(f locales.Format) string {
	return strings.ToLower(reflect.TypeOf(f).Name())
}

// A Preset is the layout a platform's own tooling writes: its name
// ("android", "apple-strings", "xcstrings", "flutter", "gettext",
// "angular", "rails", "i18next", "properties", "gotext", "json") and its
// file groups.
type Preset struct {
	Name   string
	Groups []locales.Group
}

// Presets returns every platform's preset, with the patterns its tooling
// uses by default.
func Presets() []Preset {
	panic("base31: not built yet")
}

// Detect returns the preset of the tree under dir, its groups fitted to
// what the tree has (Flutter's l10n.yaml arb-dir and template file, the
// gettext domain, the folder a Rails or i18next tree keeps its files
// in). A tree that matches no preset, or several, is refused as a
// *locales.InputError listing what it found.
func Detect(dir string) (Preset, error) {
	panic("base31: not built yet")
}
