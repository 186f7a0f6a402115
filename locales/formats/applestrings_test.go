package formats_test

import (
	"bytes"
	"encoding/binary"
	"testing"
	"unicode/utf16"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

const stringsSource = `/* Title */
"title" = "Updates";

/* Body */
"body" = "A new version is available.";

"Later" = "Later";
`

const stringsTarget = `/* Title */
"title"="Aktualisierungen" ;

/* Only here */
"legacy" = "Alt";
// the end
`

// A pull into a .strings file changes a value's bytes only, keeps the
// entries the messages lack, and puts a new entry after the one that
// precedes it in the source file.
func TestAppleStringsPullChangesOnlyChangedValues(t *testing.T) {
	f := locales.File{Language: "de", Namespace: "Localizable", Old: []byte(stringsTarget), SourceFile: []byte(stringsSource)}
	out, err := formats.AppleStrings{}.Encode(f, []locales.Message{
		{Key: "Later", Text: "Später"},
		{Key: "body", Text: "Eine \"neue\" Version."},
		{Key: "title", Text: "Updates!"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `/* Title */
"title"="Updates!" ;
"body" = "Eine \"neue\" Version.";
"Later" = "Später";

/* Only here */
"legacy" = "Alt";
// the end
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
	f.Old = out
	again, err := formats.AppleStrings{}.Encode(f, []locales.Message{{Key: "title", Text: "Updates!"}})
	if err != nil || string(again) != want {
		t.Fatalf("writing the same text again changed the file (%v):\n%s", err, again)
	}
}

func utf16LE(s string) []byte {
	data := []byte{0xFF, 0xFE}
	for _, u := range utf16.Encode([]rune(s)) {
		data = binary.LittleEndian.AppendUint16(data, u)
	}
	return data
}

// A new .strings file is written in the source file's encoding: UTF-16
// with its byte order mark when the source is.
func TestAppleStringsNewFileTakesTheSourceEncoding(t *testing.T) {
	f := locales.File{Language: "de", Namespace: "Localizable", SourceFile: utf16LE(stringsSource)}
	out, err := formats.AppleStrings{}.Encode(f, []locales.Message{{Key: "title", Text: "Aktualisierungen"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := utf16LE("\"title\" = \"Aktualisierungen\";\n"); !bytes.Equal(out, want) {
		t.Fatalf("new file % x; want % x", out, want)
	}
}
