package formats

import "github.com/locsvc/partner-go/locales"

// ByName maps each format's name, as partner.yaml and the command's
// --format spell it (json, arb, android, applestrings, xcstrings, po,
// gotext, xliff, yaml, properties), to the format.
func ByName() map[string]locales.Format {
	panic("base31: not built yet")
}

// Name returns f's name in ByName, or "" for a format it lacks.
func Name(f locales.Format) string {
	panic("base31: not built yet")
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
