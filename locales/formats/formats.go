// Package formats adds to package locales the locale file formats whose
// parsers are other modules, so that the core module depends on none of
// them: YAML (Rails and i18next) with go.yaml.in/yaml/v3, and Java
// .properties with github.com/magiconair/properties.
//
// Every format plugs into locales.Layout.Format; All lists them with
// the core module's own, for DetectFormat and FormatByExt.
package formats

import (
	"github.com/locsvc/partner-go/locales"
)

// All returns the formats of package locales and of this package.
func All() []locales.Format {
	return append(locales.Formats(), YAML{}, YAML{Extension: ".yaml"}, Properties{})
}
