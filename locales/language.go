package locales

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/text/language"
)

// This file maps a language as a platform spells it in a file name to
// the project's code and back. A spelling is parsed to a BCP 47 tag by
// golang.org/x/text/language, without canonicalisation (Android's "iw"
// stays "iw", Tagalog's "tl" is not made Filipino): only case and
// separators change. The project's code is the tag lowercased, as the
// service spells languages ("pt-br", "zh-hans", "sr-latn").

// A langForm is how a pattern's language placeholder spells a language.
type langForm int

const (
	formLanguage langForm = iota // {language}: BCP 47, "pt-BR"
	formLocale                   // {locale}: '_' for '-', "pt_BR"
	formAndroid                  // {android}: "pt-rBR", "b+sr+Latn", "de"
)

// langForms are the language placeholders by name.
var langForms = map[string]langForm{"language": formLanguage, "locale": formLocale, "android": formAndroid}

// errNotLanguage says a spelling is not a language at all (Android's
// "night" or "sw600dp", Apple's "Base"): the file is not a locale file.
var errNotLanguage = errors.New("not a language")

// maxSpelling bounds a spelling, so that no name costs the parser much.
const maxSpelling = 64

// spellingByte reports whether c may be part of a language's spelling
// in a file name: letters, digits, '-', '_', '@' (gettext's modifier)
// and '+' (Android's b+ form).
func spellingByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '@' || c == '+'
}

// gettextModifiers are the '@' modifiers of gettext's locale names that
// BCP 47 says with a script or a variant subtag.
var gettextModifiers = map[string]string{
	"latin":      "Latn",
	"cyrillic":   "Cyrl",
	"devanagari": "Deva",
	"arabic":     "Arab",
	"valencia":   "valencia",
}

// parseSpelling returns the project's code of language spelling s as a
// placeholder of form reads it: any case, '-' or '_' ("pt-BR", "pt_br";
// {locale} also reads gettext's "sr@latin" as sr-Latn; {android} reads
// "pt-rBR", "b+sr+Latn" and "de"). The error is errNotLanguage when s
// is not a language at all, and says why when s looks like one the
// rules do not know ("cn"), which Group.Languages maps.
func parseSpelling(form langForm, s string) (string, error) {
	if len(s) == 0 || len(s) > maxSpelling {
		return "", errNotLanguage
	}
	for i := range len(s) {
		if !spellingByte(s[i]) {
			return "", errNotLanguage
		}
	}
	var tag string
	var err error
	if form == formAndroid {
		tag, err = parseAndroid(s)
	} else {
		tag, err = parseTag(s)
	}
	if err != nil {
		return "", err
	}
	return strings.ToLower(tag), nil
}

// parseTag parses a BCP 47 tag spelled with '-' or '_', in any case,
// with gettext's "@modifier" after it, and returns it in BCP 47's
// casing ("zh-Hans-CN").
func parseTag(s string) (string, error) {
	base, mod, hasMod := strings.Cut(s, "@")
	if strings.ContainsAny(base, "+") || strings.Contains(mod, "@") {
		return "", errNotLanguage
	}
	t, err := bcp47(strings.ReplaceAll(base, "_", "-"))
	if err != nil || !hasMod {
		return t, err
	}
	sub, ok := gettextModifiers[strings.ToLower(mod)]
	if !ok {
		return "", fmt.Errorf("%s has the modifier @%s, which no BCP 47 subtag says", quote(s), mod)
	}
	// The script or variant goes after the language (and any script):
	// "sr@latin" is sr-Latn, "ca_ES@valencia" ca-ES-valencia.
	lang, rest, _ := strings.Cut(t, "-")
	if len(sub) == 4 {
		if rest != "" {
			return bcp47(lang + "-" + sub + "-" + rest)
		}
		return bcp47(lang + "-" + sub)
	}
	return bcp47(t + "-" + sub)
}

// parseAndroid parses an Android resource qualifier's language: "de",
// "pt-rBR" (language and an 'r' region), "b+sr+Latn" (BCP 47, '+' for
// '-'). Android reads "car" as a UI mode, not Carib.
func parseAndroid(s string) (string, error) {
	if rest, ok := strings.CutPrefix(s, "b+"); ok {
		if strings.ContainsAny(rest, "-_@") {
			return "", errNotLanguage
		}
		return bcp47(strings.ReplaceAll(rest, "+", "-"))
	}
	lang, region, hasRegion := strings.Cut(s, "-r")
	if len(lang) < 2 || len(lang) > 3 || !isAlpha(lang) || strings.EqualFold(lang, "car") {
		return "", errNotLanguage
	}
	if !hasRegion {
		return bcp47(lang)
	}
	if len(region) != 2 || !isAlpha(region) {
		return "", errNotLanguage
	}
	return bcp47(lang + "-" + region)
}

// bcp47 parses a BCP 47 tag without canonicalising it and returns it
// in BCP 47's casing: errNotLanguage when it is not well-formed or
// names no language ("und", private use only), an error saying so when
// it is well-formed but a subtag is unknown.
func bcp47(s string) (string, error) {
	t, err := language.Raw.Parse(s)
	var unknown language.ValueError
	switch {
	case errors.As(err, &unknown):
		return "", fmt.Errorf("%s is not a language the BCP 47 registry knows (subtag %s)", quote(s), quote(unknown.Subtag()))
	case err != nil:
		return "", errNotLanguage
	}
	out := t.String()
	if out == "und" || strings.HasPrefix(out, "und-") || strings.HasPrefix(out, "x-") {
		return "", errNotLanguage
	}
	return out, nil
}

// spellLanguage returns how a placeholder of form spells the project's
// language code: pt-br is "pt-BR" ({language}), "pt_BR" ({locale}),
// "pt-rBR" ({android}); sr-latn is "b+sr+Latn" ({android}).
func spellLanguage(form langForm, code string) (string, error) {
	t, err := bcp47(strings.ReplaceAll(code, "_", "-"))
	if err != nil {
		return "", fmt.Errorf("language %s is not a BCP 47 language tag, so a file name cannot spell it; map it with the group's languages", quote(code))
	}
	switch form {
	case formLocale:
		return strings.ReplaceAll(t, "-", "_"), nil
	case formAndroid:
		lang, region, _ := strings.Cut(t, "-")
		simple := len(lang) <= 3 && !strings.EqualFold(lang, "car") && (region == "" || len(region) == 2 && isAlpha(region))
		if !simple {
			return "b+" + strings.ReplaceAll(t, "-", "+"), nil
		}
		if region != "" {
			return lang + "-r" + region, nil
		}
		return lang, nil
	}
	return t, nil
}

// fileLanguage returns the language a format is told a file of form is
// in: the spelling itself, except Android's qualifier, which no file
// holds, in BCP 47 ("b+sr+Latn" is "sr-Latn").
func fileLanguage(form langForm, spelling, code string) string {
	if form != formAndroid {
		return spelling
	}
	if t, err := parseAndroid(spelling); err == nil {
		return t
	}
	return code
}
