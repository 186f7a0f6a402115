package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// poMarkers is a German file with one entry of each kind: translated,
// fuzzy (with c-format and a previous msgid), empty, a plural missing a
// form, and a fuzzy entry the service will not hold.
const poMarkers = `# German translation.
#, fuzzy
msgid ""
msgstr ""
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: src/main.c:10
msgid "Inbox"
msgstr "Posteingang"

# Translator: keep it short
#: src/main.c:20
#, fuzzy, c-format
#| msgid "Snoozed until %s"
msgid "%s: Snoozed until %s"
msgstr "%s: Zurückgestellt bis %s"

#: src/main.c:30
msgid "Archive"
msgstr ""

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] ""

#, fuzzy
msgid "Spam"
msgstr "Spam-Ordner"
`

func decodePO(t *testing.T, f locales.File, data string) []locales.Message {
	t.Helper()
	msgs, _, err := formats.PO{}.Decode(f, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	for i := range msgs {
		msgs[i].Line = 0
	}
	return msgs
}

// Fuzzy entries and empty msgstrs are untranslated, with the text the
// file holds; the header entry is no message.
func TestPOFuzzyAndEmptyAreUntranslated(t *testing.T) {
	got := decodePO(t, locales.File{Language: "de", SourceLanguage: "en"}, poMarkers)
	want := []locales.Message{
		{Key: "Inbox", Text: "Posteingang"},
		{Key: "%s: Snoozed until %s", Text: "%s: Zurückgestellt bis %s", Untranslated: true},
		{Key: "Archive", Text: "", Untranslated: true},
		{Key: "%d file", Text: "{count, plural, one {%d Datei} other {}}", Untranslated: true},
		{Key: "Spam", Text: "Spam-Ordner", Untranslated: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("messages (-want +got):\n%s", diff)
	}
}

// A translation the service holds clears "fuzzy" (keeping c-format) and
// the previous msgid that goes with it, and writes the msgstr; a text
// the service holds for an empty entry fills it; an untranslated entry
// the service lacks stays as it was; every other byte stays.
func TestPOEncodeClearsFuzzyOfTranslations(t *testing.T) {
	f := locales.File{Language: "de", SourceLanguage: "en", Old: []byte(poMarkers)}
	out, err := formats.PO{}.Encode(f, []locales.Message{
		{Key: "%s: Snoozed until %s", Text: "%s: Zurückgestellt bis %s"}, // reviewed as it was
		{Key: "Archive", Text: "Archiv"},
		{Key: "Inbox", Text: "Posteingang"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(poMarkers, "#, fuzzy, c-format\n#| msgid \"Snoozed until %s\"\n", "#, c-format\n", 1)
	want = strings.Replace(want, "msgid \"Archive\"\nmsgstr \"\"\n", "msgid \"Archive\"\nmsgstr \"Archiv\"\n", 1)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}

// A changed translation of a fuzzy entry replaces its msgstr and the
// flag goes; a flag line of fuzzy alone goes whole.
func TestPOEncodeChangedFuzzyText(t *testing.T) {
	f := locales.File{Language: "de", SourceLanguage: "en", Old: []byte(poMarkers)}
	out, err := formats.PO{}.Encode(f, []locales.Message{{Key: "Spam", Text: "Werbung"}})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(poMarkers, "#, fuzzy\nmsgid \"Spam\"\nmsgstr \"Spam-Ordner\"\n", "msgid \"Spam\"\nmsgstr \"Werbung\"\n", 1)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}

// Untranslated messages written back as read leave the file as it is,
// and written into a new file read back untranslated.
func TestPOUntranslatedRoundTrip(t *testing.T) {
	f := locales.File{Language: "de", SourceLanguage: "en"}
	msgs := decodePO(t, f, poMarkers)
	f.Old = []byte(poMarkers)
	out, err := formats.PO{}.Encode(f, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != poMarkers {
		t.Fatalf("written over itself, the file changed:\n%s", out)
	}
	f.Old = nil
	out, err = formats.PO{}.Encode(f, msgs)
	if err != nil {
		t.Fatal(err)
	}
	back := decodePO(t, f, string(out))
	sortMsgs(msgs)
	if diff := cmp.Diff(msgs, sortMsgs(back)); diff != "" {
		t.Fatalf("a new file read back (-want +got):\n%s\n%s", diff, out)
	}
}
