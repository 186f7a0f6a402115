package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

const xliff12 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" target-language="fr" datatype="plaintext">
    <body>
      <trans-unit id="a">
        <source>Apple</source>
        <target state="translated">Pomme</target>
      </trans-unit>
      <trans-unit id="b">
        <source>Bread</source>
        <target state="new">Bread</target>
        <note>keep me</note>
      </trans-unit>
      <trans-unit id="c">
        <source>Cheese</source>
      </trans-unit>
      <trans-unit id="d">
        <source>Dates</source>
        <target state="needs-adaptation">Dattes</target>
      </trans-unit>
      <trans-unit id="e">
        <source>Eggs</source>
        <target state="needs-review-translation">Oeufs ?</target>
      </trans-unit>
    </body>
  </file>
</xliff>
`

const xliff20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en" trgLang="fr">
  <file id="f">
    <unit id="a">
      <segment>
        <source>Apple</source>
        <target>Pomme</target>
      </segment>
    </unit>
    <unit id="b">
      <segment state="initial">
        <source>Bread</source>
        <target>Bread</target>
      </segment>
    </unit>
    <unit id="c">
      <segment>
        <source>Cheese</source>
      </segment>
    </unit>
  </file>
</xliff>
`

// XLIFF's pre-translation states and a unit without a target read as
// untranslated, keeping the text the file has; translated states and
// states about non-text adaptation read as translations.
func TestXLIFFUntranslatedStates(t *testing.T) {
	for _, c := range []struct {
		name, data string
		want       map[string]string
	}{
		{"1.2", xliff12, map[string]string{"b": "Bread", "c": "", "e": "Oeufs ?"}},
		{"2.0", xliff20, map[string]string{"b": "Bread", "c": ""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			msgs, _, err := formats.XLIFF{}.Decode(locales.File{Language: "fr"}, []byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, untranslated(msgs)); diff != "" {
				t.Fatalf("untranslated (-want +got):\n%s", diff)
			}
			if got := texts(msgs)["a"]; got != "Pomme" {
				t.Fatalf("a = %q", got)
			}
		})
	}
}

// A pull writes a translation the service holds over an untranslated
// unit and marks it translated; units the service lacks (untranslated
// or only in the target file) stay byte for byte.
func TestXLIFFPullClearsMarkerAndKeepsTheRest(t *testing.T) {
	for _, c := range []struct {
		name, data, marked, cleared string
	}{
		{"1.2", xliff12, `<target state="new">Bread</target>`, `<target state="translated">Pain</target>`},
		{"2.0", xliff20, "<segment state=\"initial\">\n        <source>Bread</source>\n        <target>Bread</target>", "<segment state=\"translated\">\n        <source>Bread</source>\n        <target>Pain</target>"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := locales.File{Language: "fr", SourceLanguage: "en", Old: []byte(c.data),
				Source: []locales.Message{{Key: "a", Text: "Apple"}, {Key: "b", Text: "Bread"}}}
			// The service holds a and b; c, d and e are not on it.
			out, err := formats.XLIFF{}.Encode(f, []locales.Message{{Key: "a", Text: "Pomme"}, {Key: "b", Text: "Pain"}})
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(c.data, c.marked, c.cleared, 1)
			if diff := cmp.Diff(want, string(out)); diff != "" {
				t.Fatalf("written (-want +got):\n%s", diff)
			}
			// The file's own untranslated texts, handed back as such, change nothing.
			msgs, _, _ := formats.XLIFF{}.Decode(f, []byte(c.data))
			out, err = formats.XLIFF{}.Encode(f, msgs)
			if err != nil || string(out) != c.data {
				t.Fatalf("writing the file's own messages changed it (%v):\n%s", err, out)
			}
		})
	}
}

// A target file whose <source> a tool indented differently keeps it:
// only a changed source text is written.
func TestXLIFFTargetKeepsReindentedSource(t *testing.T) {
	data := strings.Replace(xliff12, "<source>Apple</source>", "<source>\n          Apple\n        </source>", 1)
	f := locales.File{Language: "fr", SourceLanguage: "en", Old: []byte(data), Source: []locales.Message{{Key: "a", Text: "Apple"}}}
	out, err := formats.XLIFF{}.Encode(f, []locales.Message{{Key: "a", Text: "Pomme"}})
	if err != nil || string(out) != data {
		t.Fatalf("(%v):\n%s", err, out)
	}
}

// A new unit goes after the unit that precedes it in the source file;
// one that nothing precedes goes at the end.
func TestXLIFFNewUnitAfterItsPredecessor(t *testing.T) {
	src := `<xliff version="1.2"><file source-language="en"><body>
<trans-unit id="z"><source>Zucchini</source></trans-unit>
<trans-unit id="a"><source>Apple</source></trans-unit>
<trans-unit id="a2"><source>Avocado</source></trans-unit>
<trans-unit id="b"><source>Bread</source></trans-unit>
</body></file></xliff>
`
	f := locales.File{Language: "fr", SourceLanguage: "en", Old: []byte(xliff12), SourceFile: []byte(src),
		Source: []locales.Message{{Key: "a", Text: "Apple"}, {Key: "a2", Text: "Avocado"}, {Key: "b", Text: "Bread"}, {Key: "z", Text: "Zucchini"}}}
	out, err := formats.XLIFF{}.Encode(f, []locales.Message{{Key: "a", Text: "Pomme"}, {Key: "a2", Text: "Avocat"}, {Key: "z", Text: "Courgette"}})
	if err != nil {
		t.Fatal(err)
	}
	a2 := strings.Index(string(out), `id="a2"`)
	if a2 < strings.Index(string(out), `id="a"`) || a2 > strings.Index(string(out), `id="b"`) {
		t.Fatalf("a2 not between a and b:\n%s", out)
	}
	if z := strings.Index(string(out), `id="z"`); z < strings.Index(string(out), `id="e"`) {
		t.Fatalf("z not at the end:\n%s", out)
	}
	msgs, _, err := formats.XLIFF{}.Decode(f, out)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(msgs); got["a2"] != "Avocat" || got["z"] != "Courgette" || got["d"] != "Dattes" {
		t.Fatalf("read back %v", got)
	}
}

// A new target file is the source file with the target language: its
// version, files, notes and inline markup, and a target per translated
// unit.
func TestXLIFFNewFileTakesTheSourceFile(t *testing.T) {
	src := `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
  <file id="ngi18n" original="ng.template">
    <unit id="hi">
      <notes>
        <note category="description">A greeting</note>
      </notes>
      <segment>
        <source>Hi <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>!</source>
      </segment>
    </unit>
    <unit id="bye">
      <segment>
        <source>Bye</source>
      </segment>
    </unit>
  </file>
</xliff>
`
	f := locales.File{Language: "fr", SourceLanguage: "en", SourceFile: []byte(src), Source: []locales.Message{{Key: "bye", Text: "Bye"}, {Key: "hi", Text: `Hi <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>!`}}}
	out, err := formats.XLIFF{}.Encode(f, []locales.Message{{Key: "hi", Text: `Salut <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/> !`}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(`srcLang="en">`, `srcLang="en" trgLang="fr">`,
		`<source>Hi <ph id="0" equiv="INTERPOLATION" disp="{{ name }}"/>!</source>`,
		"<source>Hi <ph id=\"0\" equiv=\"INTERPOLATION\" disp=\"{{ name }}\"/>!</source>\n        <target>Salut <ph id=\"0\" equiv=\"INTERPOLATION\" disp=\"{{ name }}\"/> !</target>").Replace(src)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("new file (-want +got):\n%s", diff)
	}
}
