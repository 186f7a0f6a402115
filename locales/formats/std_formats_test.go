package formats_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// formatCase is a format with a fixture written in its platform's own
// style and every text the fixture holds.
type formatCase struct {
	name    string
	format  locales.Format
	fixture string // under testdata/formats
	lang    string
	want    map[string]string
}

var formatCases = []formatCase{
	{"ARB", formats.ARB{}, "app_de.arb", "de", map[string]string{
		"appTitle":          "Meine Einkaufsliste",
		"itemCount":         "{count, plural, =0 {Keine Artikel} one {Ein Artikel} other {{count} Artikel}}",
		"greeting":          "Hallo {name}!",
		"settings.language": "Sprache",
	}},
	{"Android", formats.Android{}, "strings.xml", "de", map[string]string{
		"welcome":       `Willkommen, <xliff:g id="user" example="Ana">%1$s</xliff:g>!`,
		"quote":         `Sag "Hallo" & <b>lächle</b>`,
		"empty":         "",
		"items_left":    "{count, plural, one {Noch %d Artikel} other {Noch %d Artikel übrig}}",
		"sort_orders.0": "Name",
		"sort_orders.1": "Datum",
		"sort_orders.2": "Preis",
	}},
	{"AppleStrings UTF-8", formats.AppleStrings{}, "Localizable.strings", "de", appleStringsWant},
	{"AppleStrings UTF-16", formats.AppleStrings{}, "Localizable-utf16.strings", "de", appleStringsWant},
	{"PO", formats.PO{}, "de.po", "de", map[string]string{
		"Shopping cart":                       "Warenkorb",
		"%(count)d item":                      "{count, plural, one {%(count)d Artikel} other {%(count)d Artikel}}",
		"menu\x04Open":                        "Öffnen",
		"shop status\x04Open":                 "Geöffnet",
		"Need help? Write to us\nor call us.": "Brauchen Sie Hilfe? Schreiben Sie uns\noder rufen Sie an.",
		// "Checkout" (fuzzy) and "New arrivals" (empty msgstr) are untranslated
	}},
	{"GoText", formats.GoText{}, "messages.gotext.json", "de", map[string]string{
		"Hello {City}!":       "Hallo {City}!",
		"{N} files remaining": "{N, plural, one {Noch eine Datei} other {Noch {N} Dateien}}",
	}},
	{"XLIFF 1.2", formats.XLIFF{}, "messages.de.xlf", "de", xliffWant("greeting", `Hi <x id="INTERPOLATION" equiv-text="{{ name }}"/>, &amp; willkommen`)},
	{"XLIFF 2.0", formats.XLIFF{Version: "2.0", Extension: ".xliff"}, "messages.de.xliff", "de", xliffWant("cart.total", `Summe: <ph id="0" equiv="PH" disp="total"/>`)},
}

var appleStringsWant = map[string]string{
	"main.title":   "Einkaufsliste",
	"add_item":     `Artikel "hinzufügen"`,
	"multi":        "Zeile 1\nZeile 2\tTab",
	"unquoted_key": "Wert",
}

func xliffWant(k, v string) map[string]string {
	return map[string]string{"introductionHeader": "Hallo i18n!", k: v}
}

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "formats", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A fixture in each platform's own style reads without loss: every text
// is read, and writing the texts back over the file gives the file byte
// for byte (comments, metadata, other entries and layout kept).
func TestFormatFixtureReadsWithoutLoss(t *testing.T) {
	for _, c := range formatCases {
		t.Run(c.name, func(t *testing.T) {
			data := fixture(t, c.fixture)
			f := locales.File{Language: c.lang}
			msgs, _, err := c.format.Decode(f, data)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(c.want, translatedTexts(msgs)); diff != "" {
				t.Fatalf("texts (-want +got):\n%s", diff)
			}
			f.Old = data
			out, err := c.format.Encode(f, msgs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(data), string(out)); diff != "" {
				t.Fatalf("writing the same texts over the fixture changed it (-fixture +written):\n%s", diff)
			}
		})
	}
}

// Each format: read, write a new file, read again gives the same texts;
// the file written is byte-stable on a second write over it; a changed
// text and a new key written over the fixture read back as written,
// and the fixture's other texts stay.
func TestFormatRoundTrip(t *testing.T) {
	for _, c := range formatCases {
		t.Run(c.name, func(t *testing.T) {
			f := locales.File{Language: c.lang, SourceLanguage: "en"}
			msgs, _, err := c.format.Decode(f, fixture(t, c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			f.Source = msgs // a source text for each key
			out, err := c.format.Encode(f, msgs)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := c.format.Decode(f, out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if diff := cmp.Diff(texts(msgs), texts(back)); diff != "" {
				t.Fatalf("read again (-first +again):\n%s\n%s", diff, out)
			}
			f.Old = out
			again, err := c.format.Encode(f, back)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != string(out) {
				t.Fatalf("second write differs:\n%s\n---\n%s", out, again)
			}

			changed := texts(msgs)
			var first string
			for k, v := range c.want {
				if !strings.HasPrefix(v, "{") && (first == "" || k < first) {
					first = k
				}
			}
			changed[first] = "Geändert"
			changed["zz_new"] = "Neu"
			var in []locales.Message
			for k, v := range changed {
				in = append(in, locales.Message{Key: k, Text: v})
			}
			in = sortMsgs(in)
			f.Old, f.Source = fixture(t, c.fixture), in
			out, err = c.format.Encode(f, in)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err = c.format.Decode(f, out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if diff := cmp.Diff(changed, texts(back)); diff != "" {
				t.Fatalf("changed and new texts read back (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

func sortMsgs(msgs []locales.Message) []locales.Message {
	for i := range msgs {
		for j := i + 1; j < len(msgs); j++ {
			if msgs[j].Key < msgs[i].Key {
				msgs[i], msgs[j] = msgs[j], msgs[i]
			}
		}
	}
	return msgs
}

// A plural case's text that holds ICU's special characters and
// apostrophes reads back as it was: PO keeps each case as plain text, and
// the ICU plural the SDK makes of them quotes what needs quoting.
func TestPluralCaseTextsWithQuotesRoundTrip(t *testing.T) {
	for _, text := range []string{"#'#", "#'a", "'#", "#'", "{'}", "it's #1", "''", "a''#b", "#''#"} {
		po := "msgid \"\"\nmsgstr \"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"\n\nmsgid \"k\"\nmsgid_plural \"ks\"\nmsgstr[0] \"" +
			strings.ReplaceAll(text, `"`, `\"`) + "\"\nmsgstr[1] \"x\"\n"
		msgs, _, err := formats.PO{}.Decode(locales.File{}, []byte(po))
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		out, err := formats.PO{}.Encode(locales.File{Language: "de"}, msgs)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !strings.Contains(string(out), "msgstr[0] \""+text+"\"") {
			t.Errorf("case text %q written as:\n%s", text, out)
		}
	}
}

// Input a format cannot map is refused with the line and key of each
// problem, before anything is written.
func TestFormatRefusesWhatItCannotMap(t *testing.T) {
	for _, c := range []struct {
		name   string
		format locales.Format
		data   string
		want   string
	}{
		{"ARB text not a string", formats.ARB{}, `{"a": 1}`, "not a string"},
		{"Android plain text reads as plural", formats.Android{}, `<resources><string name="a">{count, plural, one {x} other {y}}</string></resources>`, "reads as an ICU plural"},
		{"Android string named like an array item", formats.Android{}, `<resources><string name="a.0">x</string></resources>`, "item of a <string-array>"},
		{"Android name twice", formats.Android{}, "<resources>\n<string name=\"a\">x</string>\n<plurals name=\"a\"><item quantity=\"other\">y</item></plurals></resources>", "twice"},
		{"PO unknown plural forms", formats.PO{}, "msgid \"\"\nmsgstr \"Plural-Forms: nplurals=2; plural=n%7;\\n\"\n\nmsgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"x\"\nmsgstr[1] \"y\"\n", "not known"},
		{"PO second header", formats.PO{}, "msgid \"\"\nmsgstr \"\"\n\nmsgid \"\"\nmsgstr \"x\"\n", "second entry with an empty msgid"},
		{"PO msgstr without msgid", formats.PO{}, "msgstr \"x\"\n", "without a msgid"},
		{"PO msgid_plural without msgid", formats.PO{}, "msgid \"\"\nmsgstr \"\"\n\nmsgid_plural \"as\"\nmsgstr[0] \"x\"\n", "msgid_plural without"},
		{"PO msgstr twice", formats.PO{}, "msgid \"a\"\nmsgstr \"x\"\nmsgstr \"y\"\n", "after msgstr"},
		{"PO msgid_plural with plain msgstr", formats.PO{}, "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr \"x\"\n", "msgid_plural goes with msgstr[n]"},
		{"XLIFF unit id twice", formats.XLIFF{}, `<xliff version="1.2"><file target-language="de"><body><trans-unit id="a"><source>x</source></trans-unit><trans-unit id="a"><source>y</source></trans-unit></body></file></xliff>`, "twice"},
		{"XLIFF 2.0 several segments", formats.XLIFF{}, `<xliff version="2.0" trgLang="de"><file><unit id="a"><segment><source>x</source></segment><segment><source>y</source></segment></unit></file></xliff>`, "several segments"},
		{"xcstrings device variation", formats.XCStrings{}, `{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"variations":{"device":{}}}}}}}`, "device"},
		{"xcstrings substitution", formats.XCStrings{}, `{"sourceLanguage":"en","strings":{"a":{"localizations":{"en":{"stringUnit":{"state":"new","value":"%#@n@"},"substitutions":{}}}}}}`, "substitutions"},
		{"gotext unknown field", formats.GoText{}, `{"language":"de","messages":[{"id":"a","translation":"b","extra":1}]}`, "unknown field"},
		{".strings without ;", formats.AppleStrings{}, `"a" = "b"`, "want ';'"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := c.format.Decode(locales.File{}, []byte(c.data))
			var ie *locales.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want an *InputError saying %q", err, c.want)
			}
		})
	}
}

// Texts a format cannot write are refused before any file is written.
func TestFormatRefusesTextsItCannotWrite(t *testing.T) {
	for _, c := range []struct {
		name   string
		format locales.Format
		msgs   []locales.Message
		want   string
	}{
		{"Android key no resource name", formats.Android{}, []locales.Message{{Key: "common:a", Text: "x"}}, "resource name"},
		{"Android array with a gap", formats.Android{}, []locales.Message{{Key: "a.0", Text: "x"}, {Key: "a.2", Text: "y"}}, "without gaps"},
		{"Android plural case =0", formats.Android{}, []locales.Message{{Key: "a", Text: "{count, plural, =0 {none} other {some}}"}}, "no case =0"},
		{"PO plural cases not the file's forms", formats.PO{}, []locales.Message{{Key: "a", Text: "{count, plural, one {x} few {y} other {z}}"}}, "plural"},
		{"XLIFF target without source", formats.XLIFF{}, []locales.Message{{Key: "a", Text: "x"}}, "no source text"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.format.Encode(locales.File{Language: "de", SourceLanguage: "en"}, c.msgs)
			var ie *locales.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v; want an *InputError saying %q", err, c.want)
			}
		})
	}
}

// The string catalog holds every language of a table in one file: read
// all, write over the fixture unchanged, and a changed translation is
// written as Xcode writes it.
func TestXCStringsFixture(t *testing.T) {

	data := fixture(t, "Localizable.xcstrings")
	source, all, err := decodeAll(data)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]map[string]string{
		"en": {"%lld items": "{count, plural, one {%lld item} other {%lld items}}", "Cancel": "Cancel", "welcome_message": "Welcome back, %@!"},
		"de": {"%lld items": "{count, plural, one {%lld Artikel} other {%lld Artikel}}", "Cancel": "Abbrechen", "welcome_message": "Willkommen zurück, %@!"},
	}
	got := map[string]map[string]string{}
	for lang, msgs := range all {
		got[lang] = texts(msgs)
	}
	if source != "en" {
		t.Errorf("source %q; want en", source)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("texts (-want +got):\n%s", diff)
	}
	out, err := encodeAll(data, source, all)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(data), string(out)); diff != "" {
		t.Fatalf("written over the fixture (-fixture +written):\n%s", diff)
	}
	all["de"] = append(all["de"][:0:0], locales.Message{Key: "%lld items", Text: "{count, plural, one {%lld Sache} other {%lld Sachen}}"}, locales.Message{Key: "Cancel", Text: "Abbruch"}, locales.Message{Key: "welcome_message", Text: "Willkommen zurück, %@!", Untranslated: true})
	out, err = encodeAll(data, source, all)
	if err != nil {
		t.Fatal(err)
	}
	_, back, err := decodeAll(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(back["de"]); got["Cancel"] != "Abbruch" || got["%lld items"] != "{count, plural, one {%lld Sache} other {%lld Sachen}}" {
		t.Fatalf("de read back %v", got)
	}
	if !strings.Contains(string(out), `"state" : "needs_review"`) || !strings.Contains(string(out), `"comment" : "Number of items in the cart"`) {
		t.Fatalf("states or comments not kept:\n%s", out)
	}
	again, err := encodeAll(out, source, back)
	if err != nil || string(again) != string(out) {
		t.Fatalf("second write differs (%v):\n%s", err, again)
	}
}

// decodeAll reads a string catalog's source language and its texts by
// language.
func decodeAll(data []byte) (string, map[string][]locales.Message, error) {
	msgs, f, err := formats.XCStrings{}.Decode(locales.File{}, data)
	if err != nil {
		return "", nil, err
	}
	all := map[string][]locales.Message{}
	for _, m := range msgs {
		all[m.Language] = append(all[m.Language], m)
	}
	return f.SourceLanguage, all, nil
}

// encodeAll writes texts by language as a string catalog over old (nil
// for a new one) of source language source.
func encodeAll(old []byte, source string, all map[string][]locales.Message) ([]byte, error) {
	var msgs []locales.Message
	for _, lang := range slices.Sorted(maps.Keys(all)) {
		for _, m := range all[lang] {
			m.Language = lang
			msgs = append(msgs, m)
		}
	}
	return formats.XCStrings{}.Encode(locales.File{SourceLanguage: source, Old: old}, msgs)
}

// A string catalog without its source language is refused with what to
// add, not only what is missing.
func TestXCStringsWithoutSourceLanguageSaysWhatToDo(t *testing.T) {
	_, _, err := formats.XCStrings{}.Decode(locales.File{}, []byte(`{"strings": {}, "version": "1.0"}`))
	ps := inputProblems(t, err)
	if len(ps) != 1 || !strings.Contains(ps[0].Message, `"sourceLanguage"`) || !strings.Contains(ps[0].Message, "add") {
		t.Fatalf("problems %+v; want one saying to add \"sourceLanguage\"", ps)
	}
}
