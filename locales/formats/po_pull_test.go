package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// poTarget is a German file of poTemplate that lacks "Archive" and the
// plural, wraps a line as msgmerge does, and holds an entry of its own
// and an obsolete one.
const poTarget = `# German translation of mail.
msgid ""
msgstr ""
"Project-Id-Version: mail 2.1\n"
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: src/main.c:10
msgid "Inbox"
msgstr "Posteingang"

#: src/main.c:20
#, c-format
msgid "%s: Snoozed until %s"
msgstr ""
"%s: Zurückgestellt "
"bis %s"

#: src/main.c:40
msgctxt "folder"
msgid "Spam"
msgstr "Spam"

# Only in this file.
msgid "Drafts"
msgstr "Entwürfe"

#~ msgid "Old"
#~ msgstr "Alt"
`

// A pull touches only the texts that changed: other entries keep their
// bytes (comments, wrapping, order), an entry only the file has stays,
// and a new entry goes after the entry that precedes it in the
// template, with the template's comments and flags.
func TestPOPullTouchesOnlyChangedTexts(t *testing.T) {
	f := locales.File{Language: "de", SourceLanguage: "en", Old: []byte(poTarget), SourceFile: []byte(poTemplate), Source: poTemplateTexts}
	msgs := []locales.Message{
		{Key: "%s: Snoozed until %s", Text: "%s: Zurückgestellt bis %s"}, // as the file has it, wrapped
		{Key: "Archive", Text: "Archiv"},
		{Key: "Inbox", Text: "Eingang"},
		{Key: "%d file", Text: "{count, plural, one {%d Datei} other {%d Dateien}}"},
		{Key: "folder\x04Spam", Text: "Spam"},
		{Key: "Zebra", Text: "Zebra"}, // in no template
	}
	out, err := formats.PO{}.Encode(f, sortMsgs(msgs))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(poTarget, `msgstr "Posteingang"`, `msgstr "Eingang"`, 1)
	want = strings.Replace(want, "\"bis %s\"\n", `"bis %s"

#: src/main.c:30
msgid "Archive"
msgstr "Archiv"

#: src/list.c:5
#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"
`, 1)
	want = strings.Replace(want, "msgstr \"Entwürfe\"\n", "msgstr \"Entwürfe\"\n\nmsgid \"Zebra\"\nmsgstr \"Zebra\"\n", 1)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}

// Without a template, a new entry goes at the end of the entries,
// before the obsolete ones; with one whose first entry is new, too.
func TestPOPullNewEntryAtTheEnd(t *testing.T) {
	for _, tmpl := range [][]byte{nil, []byte("msgid \"Aaa\"\nmsgstr \"\"\n\nmsgid \"Inbox\"\nmsgstr \"\"\n")} {
		f := locales.File{Language: "de", SourceLanguage: "en", Old: []byte(poTarget), SourceFile: tmpl}
		out, err := formats.PO{}.Encode(f, []locales.Message{{Key: "Aaa", Text: "Aaa!"}})
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Replace(poTarget, "msgstr \"Entwürfe\"\n", "msgstr \"Entwürfe\"\n\nmsgid \"Aaa\"\nmsgstr \"Aaa!\"\n", 1)
		if diff := cmp.Diff(want, string(out)); diff != "" {
			t.Fatalf("written (-want +got):\n%s", diff)
		}
	}
}

// Entries without blank lines between them: a new entry goes in after
// its predecessor even where the next entry's fuzzy flag is cleared.
func TestPOPullEntriesWithoutBlankLines(t *testing.T) {
	old := "msgid \"a\"\nmsgstr \"A\"\n#, fuzzy\nmsgid \"c\"\nmsgstr \"C?\"\n"
	tmpl := "msgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\"\n\nmsgid \"c\"\nmsgstr \"\"\n"
	f := locales.File{Language: "de", SourceLanguage: "en", Old: []byte(old), SourceFile: []byte(tmpl)}
	out, err := formats.PO{}.Encode(f, []locales.Message{{Key: "a", Text: "A"}, {Key: "b", Text: "B"}, {Key: "c", Text: "C"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "msgid \"a\"\nmsgstr \"A\"\n\nmsgid \"b\"\nmsgstr \"B\"\nmsgid \"c\"\nmsgstr \"C\"\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}
