// Package formats adds to package locales the locale file formats whose
// parsers are other modules, so that the core module depends on none of
// them: YAML (Rails and i18next) with go.yaml.in/yaml/v3, and Java
// .properties with github.com/magiconair/properties.
//
// Every format plugs into locales.Layout.Format; All lists them with
// the core module's own, for DetectFormat and FormatByExt.
package formats

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
)

// All returns the formats of package locales and of this package.
func All() []locales.Format {
	return append(locales.Formats(), YAML{}, YAML{Extension: ".yaml"}, Properties{})
}

// notUTF8 returns the problem of data's first byte that is not UTF-8.
func notUTF8(data []byte) error {
	i := 0
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	line := 1 + bytes.Count(data[:i], []byte("\n"))
	column := i - (bytes.LastIndexByte(data[:i], '\n') + 1) + 1
	return &locales.InputError{Problems: []locales.Problem{{Line: line, Message: fmt.Sprintf("byte 0x%02X (column %d) is not UTF-8; save the file as UTF-8", data[min(i, len(data)-1)], column)}}}
}
