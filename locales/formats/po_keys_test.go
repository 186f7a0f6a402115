package formats_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// PO keys are msgids taken whole: a colon, a final "." or "...", a key
// beside its own dotted extension are ordinary keys, and the format says
// so (OpaqueKeys) for the catalog.
func TestPOKeysAreMsgidsWhole(t *testing.T) {
	var format locales.Format = formats.PO{}
	o, ok := format.(interface{ OpaqueKeys() bool })
	if !ok || !o.OpaqueKeys() {
		t.Fatal("PO does not report opaque keys")
	}
	po := `msgid "%s: Snoozed until %s"
msgstr "%s: Zurückgestellt bis %s"

msgid "Loading..."
msgstr "Wird geladen …"

msgid "The file was saved."
msgstr "Die Datei wurde gespeichert."

msgid "button.remove"
msgstr "Entfernen"

msgid "button.remove.cancel"
msgstr "Nicht entfernen"

msgctxt "menu"
msgid "Open"
msgstr "Öffnen"

msgctxt "shop status"
msgid "Open"
msgstr "Geöffnet"
`
	got := texts(decodePO(t, locales.File{Language: "de", SourceLanguage: "en"}, po))
	want := map[string]string{
		"%s: Snoozed until %s": "%s: Zurückgestellt bis %s",
		"Loading...":           "Wird geladen …",
		"The file was saved.":  "Die Datei wurde gespeichert.",
		"button.remove":        "Entfernen",
		"button.remove.cancel": "Nicht entfernen",
		"menu\x04Open":         "Öffnen",
		"shop status\x04Open":  "Geöffnet",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("keys (-want +got):\n%s", diff)
	}
}
