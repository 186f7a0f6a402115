package formats_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

const gotextCatalog = `{
    "language": "de",
    "messages": [
        {
            "id": "Hello",
            "message": "Hello",
            "translation": "Hallo"
        },
        {
            "id": "Bye",
            "message": "Bye",
            "translation": "Tschüss?",
            "fuzzy": true
        },
        {
            "id": "Later",
            "message": "Later",
            "translation": ""
        },
        {
            "id": "Old",
            "message": "Old",
            "translation": "Alt"
        }
    ]
}
`

// gotext's fuzzy flag and a missing translation read as untranslated.
func TestGoTextUntranslated(t *testing.T) {
	msgs, _, err := formats.GoText{}.Decode(locales.File{Language: "de"}, []byte(gotextCatalog))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"Bye": "Tschüss?", "Later": ""}, untranslated(msgs)); diff != "" {
		t.Fatalf("untranslated (-want +got):\n%s", diff)
	}
}

// A pull clears fuzzy for a translation the service holds and keeps the
// messages it lacks, the file's own only too.
func TestGoTextPullKeepsWhatTheServiceLacks(t *testing.T) {
	f := locales.File{Language: "de", Old: []byte(gotextCatalog), Source: []locales.Message{{Key: "Bye", Text: "Bye"}, {Key: "Hello", Text: "Hello"}, {Key: "Later", Text: "Later"}}}
	out, err := formats.GoText{}.Encode(f, []locales.Message{{Key: "Bye", Text: "Tschüss"}, {Key: "Hello", Text: "Hallo"}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, _, err := formats.GoText{}.Decode(f, out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"Hello": "Hallo", "Bye": "Tschüss", "Later": "", "Old": "Alt"}, texts(msgs)); diff != "" {
		t.Fatalf("texts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[string]string{"Later": ""}, untranslated(msgs)); diff != "" {
		t.Fatalf("untranslated (-want +got):\n%s", diff)
	}
}

// A new message goes after the one that precedes it in the source
// language's file.
func TestGoTextNewMessageAfterItsPredecessor(t *testing.T) {
	src := `{"language": "en", "messages": [{"id": "Hello", "message": "Hello", "translation": "Hello"}, {"id": "Soon", "message": "Soon", "translation": "Soon"}, {"id": "Bye", "message": "Bye", "translation": "Bye"}]}`
	f := locales.File{Language: "de", Old: []byte(gotextCatalog), SourceFile: []byte(src), Source: []locales.Message{{Key: "Bye", Text: "Bye"}, {Key: "Hello", Text: "Hello"}, {Key: "Soon", Text: "Soon"}}}
	out, err := formats.GoText{}.Encode(f, []locales.Message{{Key: "Soon", Text: "Bald"}})
	if err != nil {
		t.Fatal(err)
	}
	msgs, _, err := formats.GoText{}.Decode(f, out)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range msgs {
		keys = append(keys, m.Key)
	}
	if diff := cmp.Diff([]string{"Hello", "Soon", "Bye", "Later", "Old"}, keys); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
}
