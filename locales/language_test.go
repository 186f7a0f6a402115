package locales

import (
	"errors"
	"strings"
	"testing"
)

// Each placeholder reads a language as its platform spells it, in any
// case and with '-' or '_', to the project's code (BCP 47 lowercased,
// as the service spells it), and passes over what is no language.
func TestParseSpelling(t *testing.T) {
	const not, unknown = "not a language", "unknown"
	tests := []struct {
		form     langForm
		spelling string
		want     string
	}{
		{formLanguage, "pt-BR", "pt-br"},
		{formLanguage, "pt_br", "pt-br"},
		{formLanguage, "PT-br", "pt-br"},
		{formLanguage, "zh-Hans", "zh-hans"},
		{formLanguage, "zh_Hant_TW", "zh-hant-tw"},
		{formLanguage, "es-419", "es-419"},
		{formLanguage, "iw", "iw"}, // not made "he": the project says which
		{formLanguage, "tl", "tl"}, // not made Filipino
		{formLanguage, "Base", not},
		{formLanguage, "English", not},
		{formLanguage, "und", not},
		{formLanguage, "root", not},
		{formLanguage, "x-private", not},
		{formLanguage, "de.json", not},
		{formLanguage, "cn", unknown},
		{formLocale, "pt_BR", "pt-br"},
		{formLocale, "sr@latin", "sr-latn"},
		{formLocale, "sr_RS@latin", "sr-latn-rs"},
		{formLocale, "uz@cyrillic", "uz-cyrl"},
		{formLocale, "ca@valencia", "ca-valencia"},
		{formLocale, "en@quot", not},
		{formLocale, "sr@latin@x", not},
		{formAndroid, "de", "de"},
		{formAndroid, "pt-rBR", "pt-br"},
		{formAndroid, "zh-rCN", "zh-cn"},
		{formAndroid, "b+sr+Latn", "sr-latn"},
		{formAndroid, "b+es+419", "es-419"},
		{formAndroid, "b+zh+Hans+CN", "zh-hans-cn"},
		{formAndroid, "sw", "sw"}, // Swahili
		{formAndroid, "sw600dp", not},
		{formAndroid, "night", not},
		{formAndroid, "land", not},
		{formAndroid, "car", not}, // a UI mode
		{formAndroid, "v21", not},
		{formAndroid, "de-land", not},
		{formAndroid, "pt-BR", not},
		{formAndroid, "xx", unknown},
	}
	for _, tt := range tests {
		got, err := parseSpelling(tt.form, tt.spelling)
		switch {
		case tt.want == not:
			if !errors.Is(err, errNotLanguage) {
				t.Errorf("parseSpelling(%d, %q) = %q, %v; want it passed over", tt.form, tt.spelling, got, err)
			}
		case tt.want == unknown:
			if err == nil || errors.Is(err, errNotLanguage) {
				t.Errorf("parseSpelling(%d, %q) = %q, %v; want an unknown language", tt.form, tt.spelling, got, err)
			}
		case err != nil || got != tt.want:
			t.Errorf("parseSpelling(%d, %q) = %q, %v; want %q", tt.form, tt.spelling, got, err, tt.want)
		}
	}
}

// A new file spells the project's code as its platform does.
func TestSpellLanguage(t *testing.T) {
	tests := []struct {
		form langForm
		code string
		want string
	}{
		{formLanguage, "pt-br", "pt-BR"},
		{formLanguage, "zh-hans", "zh-Hans"},
		{formLanguage, "sr-latn", "sr-Latn"},
		{formLanguage, "de", "de"},
		{formLocale, "pt-br", "pt_BR"},
		{formLocale, "zh-hant-tw", "zh_Hant_TW"},
		{formAndroid, "de", "de"},
		{formAndroid, "pt-br", "pt-rBR"},
		{formAndroid, "sr-latn", "b+sr+Latn"},
		{formAndroid, "es-419", "b+es+419"},
		{formAndroid, "car", "b+car"},
	}
	for _, tt := range tests {
		if got, err := spellLanguage(tt.form, tt.code); err != nil || got != tt.want {
			t.Errorf("spellLanguage(%d, %q) = %q, %v; want %q", tt.form, tt.code, got, err, tt.want)
		}
	}
	if got, err := spellLanguage(formLanguage, "cn"); err == nil {
		t.Errorf("spellLanguage(cn) = %q; want an error", got)
	}
}

// A language read from a file name is written back under the same
// code, whatever the spelling it was read from.
func FuzzLanguage(f *testing.F) {
	for _, s := range []string{"pt-BR", "pt_br", "sr@latin", "b+sr+Latn", "pt-rBR", "zh-Hans", "es-419", "en-u-ca-gregory", "ca_ES@valencia", "b+car", "de-DE-1996"} {
		for form := range 3 {
			f.Add(uint8(form), s)
		}
	}
	f.Fuzz(func(t *testing.T, form uint8, s string) {
		fm := langForm(form % 3)
		code, err := parseSpelling(fm, s)
		if err != nil {
			return
		}
		if code != strings.ToLower(code) {
			t.Fatalf("parseSpelling(%d, %q) = %q, not lowercase", fm, s, code)
		}
		spelled, err := spellLanguage(fm, code)
		if err != nil {
			t.Fatalf("spellLanguage(%d, %q) (read from %q): %v", fm, code, s, err)
		}
		back, err := parseSpelling(fm, spelled)
		if err != nil || back != code {
			t.Fatalf("%q is %q, spelled %q, read back as %q, %v", s, code, spelled, back, err)
		}
	})
}
