package formats_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

func poPluralFile(lang, forms string, n int) string {
	var b strings.Builder
	b.WriteString("msgid \"\"\nmsgstr \"\"\n\"Language: " + lang + "\\n\"\n\"Plural-Forms: " + forms + "\\n\"\n\nmsgid \"%d file\"\nmsgid_plural \"%d files\"\n")
	for i := range n {
		b.WriteString("msgstr[" + string(rune('0'+i)) + "] \"f" + string(rune('0'+i)) + "\"\n")
	}
	return b.String()
}

// A file's Plural-Forms spelled otherwise than the common headers reads
// as its language's forms when it gives every count the same form.
func TestPOReadsPluralFormsSpelledOtherwise(t *testing.T) {
	uk := "nplurals=3; plural=(n%10==1 && n%100!=11) ? 0 : ((n%10 >= 2 && n%10 <= 4 && (n%100 < 10 || n%100 >= 20)) ? 1 : 2);"
	got := decodePO(t, locales.File{Language: "uk", SourceLanguage: "en"}, poPluralFile("uk", uk, 3))
	want := []locales.Message{{Key: "%d file", Text: "{count, plural, one {f0} few {f1} many {f2}}"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// Plural forms that are not the language's, or not an expression gettext
// reads, are refused as not known, and a hostile one too.
func TestPORefusesPluralFormsNotTheLanguages(t *testing.T) {
	for _, forms := range []string{
		"nplurals=3; plural=(n%10==1 && n%100!=11) ? 0 : n%10>=2 ? 1 : 2;", // not Ukrainian's
		"nplurals=3; plural=n ? ;",
		"nplurals=3; plural=" + strings.Repeat("(", 10000) + "n" + strings.Repeat(")", 10000) + ";",
		"nplurals=3; plural=n/0;",
	} {
		_, _, err := formats.PO{}.Decode(locales.File{Language: "uk", SourceLanguage: "en"}, []byte(poPluralFile("uk", forms, 3)))
		var ie *locales.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "not known") {
			t.Errorf("%.60s: error %v; want forms not known", forms, err)
		}
	}
}
