package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// Xcode's own order (not byte order: "about" before "Zoom"), no final
// newline, a needs_review and a new target, a source unit in state new,
// a key not to translate.
const xcCatalog = `{
  "sourceLanguage" : "en",
  "strings" : {
    "about" : {
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "needs_review",
            "value" : "Über"
          }
        },
        "en" : {
          "stringUnit" : {
            "state" : "new",
            "value" : "About"
          }
        },
        "fr" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "À propos"
          }
        }
      }
    },
    "CFBundleName" : {
      "shouldTranslate" : false
    },
    "Zoom" : {
      "comment" : "A menu item",
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "new",
            "value" : "Zoom"
          }
        }
      }
    }
  },
  "version" : "1.0"
}`

// Xcode's new and needs_review states of a target language read as
// untranslated; of the source language they say nothing; a key with
// shouldTranslate false is no key to translate.
func TestXCStringsUntranslated(t *testing.T) {
	msgs, _, err := formats.XCStrings{}.Decode(locales.File{}, []byte(xcCatalog))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range msgs {
		got[m.Language+"/"+m.Key] = m.Untranslated
	}
	want := map[string]bool{"de/about": true, "en/about": false, "fr/about": false, "de/Zoom": true, "en/Zoom": false}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("untranslated by language/key (-want +got):\n%s", diff)
	}
}

// A pull changes only the bytes of what changed: a translation the
// service holds clears its state, a changed value is written in place,
// a new localization goes in its place; the order, the missing final
// newline, and what the service lacks (untranslated, not to translate,
// only in the file) stay.
func TestXCStringsPullChangesOnlyWhatChanged(t *testing.T) {
	f := locales.File{SourceLanguage: "en", Old: []byte(xcCatalog)}
	out, err := formats.XCStrings{}.Encode(f, []locales.Message{
		{Language: "de", Key: "about", Text: "Über"}, // now a translation
		{Language: "de", Key: "Zoom", Text: "Zoom", Untranslated: true},
		{Language: "en", Key: "about", Text: "About"},
		{Language: "en", Key: "Zoom", Text: "Zoom"},
		{Language: "es", Key: "about", Text: "Acerca de"}, // new
		{Language: "fr", Key: "about", Text: "A propos"},  // changed
	})
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		"\"state\" : \"needs_review\",\n            \"value\" : \"Über\"", "\"state\" : \"translated\",\n            \"value\" : \"Über\"",
		`"value" : "À propos"`, `"value" : "A propos"`,
		"        \"fr\" : {", "        \"es\" : {\n          \"stringUnit\" : {\n            \"state\" : \"translated\",\n            \"value\" : \"Acerca de\"\n          }\n        },\n        \"fr\" : {",
	).Replace(xcCatalog)
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}
