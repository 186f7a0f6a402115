package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// poTemplate is a .pot as xgettext writes it.
const poTemplate = `# SOME DESCRIPTIVE TITLE.
# Copyright (C) YEAR THE PACKAGE'S COPYRIGHT HOLDER
#
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: mail 2.1\n"
"Report-Msgid-Bugs-To: https://example.org/mail/issues\n"
"POT-Creation-Date: 2024-05-01 10:00+0200\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\n"
"Language-Team: LANGUAGE <LL@li.org>\n"
"Language: \n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=CHARSET\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"

#: src/main.c:10
msgid "Inbox"
msgstr ""

#: src/main.c:20
#, c-format
msgid "%s: Snoozed until %s"
msgstr ""

#: src/main.c:30
msgid "Archive"
msgstr ""

#: src/list.c:5
#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

#: src/main.c:40
msgctxt "folder"
msgid "Spam"
msgstr ""
`

var poTemplateTexts = []locales.Message{
	{Key: "Inbox", Text: "Inbox"},
	{Key: "%s: Snoozed until %s", Text: "%s: Snoozed until %s"},
	{Key: "Archive", Text: "Archive"},
	{Key: "%d file", Text: "{count, plural, one {%d file} other {%d files}}"},
	{Key: "folder\x04Spam", Text: "Spam"},
}

// A template's messages are the source texts: each msgid, and for a
// plural entry the ICU plural of msgid and msgid_plural; none is
// untranslated, and the header is no message.
func TestPOTemplateGivesSourceTexts(t *testing.T) {
	for _, f := range []locales.File{{}, {Language: "en", SourceLanguage: "en"}} {
		got := decodePO(t, f, poTemplate)
		if diff := cmp.Diff(poTemplateTexts, got); diff != "" {
			t.Fatalf("%+v: messages (-want +got):\n%s", f, diff)
		}
	}
}

// A target file read as the source language gives its msgids as the
// source texts, whatever its msgstrs; a source-language file's own
// translation (an en.po whose msgid is an identifier) is its text.
func TestPOFileReadAsSourceLanguage(t *testing.T) {
	src := locales.File{Language: "en", SourceLanguage: "en"}
	got := texts(decodePO(t, src, poMarkers))
	want := map[string]string{
		"Inbox":                "Inbox",
		"%s: Snoozed until %s": "%s: Snoozed until %s",
		"Archive":              "Archive",
		"%d file":              "{count, plural, one {%d file} other {%d files}}",
		"Spam":                 "Spam",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("de.po read as English (-want +got):\n%s", diff)
	}
	en := "msgid \"app.title\"\nmsgstr \"Mail\"\n\nmsgid \"Archive\"\nmsgstr \"\"\n"
	got = texts(decodePO(t, src, en))
	if diff := cmp.Diff(map[string]string{"app.title": "Mail", "Archive": "Archive"}, got); diff != "" {
		t.Fatalf("en.po (-want +got):\n%s", diff)
	}
	f := src
	f.Old = []byte(en)
	out, err := formats.PO{}.Encode(f, []locales.Message{{Key: "Archive", Text: "Archive"}, {Key: "app.title", Text: "Mail app"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(en, `"Mail"`, `"Mail app"`, 1); string(out) != want {
		t.Fatalf("en.po written:\n%s\nwant:\n%s", out, want)
	}
}

// A template written with its own texts is unchanged; a source text
// that differs from its msgid is not written into it (its msgids are its
// texts); a new key goes in with an empty msgstr.
func TestPOTemplateWritten(t *testing.T) {
	f := locales.File{Old: []byte(poTemplate), SourceFile: []byte(poTemplate)}
	msgs := append([]locales.Message{{Key: "Inbox", Text: "Inbox!"}}, poTemplateTexts[1:]...)
	msgs = append(msgs, locales.Message{Key: "Zebra", Text: "Zebra"})
	out, err := formats.PO{}.Encode(f, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if want := poTemplate + "\nmsgid \"Zebra\"\nmsgstr \"\"\n"; string(out) != want {
		t.Fatalf("template written:\n%s", out)
	}
}
