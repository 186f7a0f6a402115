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
	// SourceLanguage is the source language when the tree names it
	// (Detect); "" when it does not, for the caller to fill in
	// (Layout.SourceLanguage, Config.SourceLanguage).
	SourceLanguage string
}

// Presets returns every platform's preset, with the patterns its tooling
// uses by default: Android Studio's app module, Xcode's .lproj folders
// and string catalogs, gen-l10n's lib/l10n/app_<locale>.arb, gettext's
// po/<locale>.po and locale/<locale>/LC_MESSAGES/<domain>.po, Angular's
// src/locale/messages.xlf, Rails' config/locales, i18next's
// locales/<lang>/<ns>.json (and next-i18next's public/locales), Spring
// Boot's messages.properties, gotext's locales and the service's own
// two JSON layouts. Detect fits them to a tree.
func Presets() []Preset {
	json := locales.JSON{}
	return []Preset{
		{Name: "android", Groups: []locales.Group{{
			Translation: "app/src/main/res/values-{android}/{namespace}.xml",
			Source:      "app/src/main/res/values/{namespace}.xml",
			DefaultName: "strings", Format: Android{},
		}}},
		{Name: "apple-strings", Groups: []locales.Group{{
			Translation: "{language}.lproj/{namespace}.strings",
			Source:      "Base.lproj/{namespace}.strings",
			DefaultName: "Localizable", Format: AppleStrings{},
		}}},
		{Name: "xcstrings", Groups: []locales.Group{{
			Translation: "**/{namespace}.xcstrings", DefaultName: "Localizable", Format: XCStrings{},
		}}},
		{Name: "flutter", Groups: []locales.Group{{Translation: "lib/l10n/app_{locale}.arb", Format: ARB{}}}},
		{Name: "gettext", Groups: []locales.Group{
			{Translation: "po/{locale}.po", Format: PO{}},
			{Translation: "locale/{locale}/LC_MESSAGES/{namespace}.po", Source: "locale/{namespace}.pot", Format: PO{}},
		}},
		{Name: "angular", Groups: []locales.Group{{
			Translation: "src/locale/messages.{language}.xlf", Source: "src/locale/messages.xlf", Format: XLIFF{},
		}}},
		{Name: "rails", Groups: []locales.Group{
			{Translation: "config/locales/**/{namespace}.{language}.yml", Format: YAML{}},
			{Translation: "config/locales/{language}.yml", Format: YAML{}},
		}},
		{Name: "i18next", Groups: []locales.Group{
			{Translation: "locales/{language}/**/{namespace}.json", DefaultName: "translation", Format: json},
			{Translation: "public/locales/{language}/**/{namespace}.json", DefaultName: "translation", Format: json},
		}},
		{Name: "properties", Groups: []locales.Group{{
			Translation: "src/main/resources/messages_{locale}.properties",
			Source:      "src/main/resources/messages.properties", Format: Properties{},
		}}},
		{Name: "gotext", Groups: []locales.Group{{Translation: "locales/{language}/messages.gotext.json", Format: GoText{}}}},
		{Name: "json", Groups: []locales.Group{
			{Translation: "{language}.json", Format: json},
			{Translation: "{language}/{namespace}.json", Format: json},
		}},
	}
}
