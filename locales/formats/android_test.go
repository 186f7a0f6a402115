package formats_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

const androidSource = `<?xml version="1.0" encoding="utf-8"?>
<!-- License header -->
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">

    <!-- The app's name. -->
    <string name="app_name">Calculator</string>
    <string name="const_pi" translatable = "false">π</string>
    <string name="greeting">Hello, <xliff:g id="name">%s</xliff:g>!</string>
    <string name="cancel">Cancel</string>
    <color name="accent">#ff0000</color>
</resources>
`

const androidTarget = `<?xml version="1.0" encoding="UTF-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" msgid="123">"Calculadora"</string>
    <string name="cancel" msgid="456">"Cancelar"</string>
    <string name="legacy">"Only here"</string>
</resources>
`

// translatable="false" entries are no keys to translate: not read as
// messages, and kept byte for byte by a write.
func TestAndroidNotTranslatable(t *testing.T) {
	msgs, _, err := formats.Android{}.Decode(locales.File{Namespace: "strings"}, []byte(androidSource))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"app_name": "Calculator", "greeting": `Hello, <xliff:g id="name">%s</xliff:g>!`, "cancel": "Cancel"}
	if diff := cmp.Diff(want, texts(msgs)); diff != "" {
		t.Fatalf("messages (-want +got):\n%s", diff)
	}
	out, err := formats.Android{}.Encode(locales.File{Namespace: "strings", Old: []byte(androidSource)}, msgs)
	if err != nil || string(out) != androidSource {
		t.Fatalf("written over the source file (%v):\n%s", err, out)
	}
}

// A file named donottranslate*.xml holds no message, and a write keeps it.
func TestAndroidDoNotTranslateFile(t *testing.T) {
	f := locales.File{Namespace: "donottranslate-cldr"}
	msgs, _, err := formats.Android{}.Decode(f, []byte(androidSource))
	if err != nil || len(msgs) != 0 {
		t.Fatalf("messages %v (%v); want none", msgs, err)
	}
	f.Old = []byte(androidSource)
	out, err := formats.Android{}.Encode(f, []locales.Message{{Key: "app_name", Text: "X"}})
	if err != nil || string(out) != androidSource {
		t.Fatalf("written (%v):\n%s", err, out)
	}
}

// A pull into a target file changes only the texts that changed, in the
// file's own style (AOSP's quoted texts), keeps what only the file has,
// and puts a new entry after the one that precedes it in the source
// file.
func TestAndroidPullChangesOnlyChangedTexts(t *testing.T) {
	f := locales.File{Language: "pt-BR", Namespace: "strings", Old: []byte(androidTarget), SourceFile: []byte(androidSource)}
	out, err := formats.Android{}.Encode(f, []locales.Message{
		{Key: "app_name", Text: "Calculadora"},
		{Key: "cancel", Text: "Cancelar agora"},
		{Key: "greeting", Text: `Olá, <xliff:g id="name">%s</xliff:g>!`},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="UTF-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" msgid="123">"Calculadora"</string>
    <string name="greeting">Olá, <xliff:g id="name">%s</xliff:g>!</string>
    <string name="cancel" msgid="456">"Cancelar agora"</string>
    <string name="legacy">"Only here"</string>
</resources>
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("written (-want +got):\n%s", diff)
	}
}

// A new target file carries only the strings to translate, in the
// source file's order, under the source file's <resources> tag (its
// namespaces, which the markup needs).
func TestAndroidNewFileCarriesOnlyTranslatableStrings(t *testing.T) {
	f := locales.File{Language: "de", Namespace: "strings", SourceFile: []byte(androidSource)}
	out, err := formats.Android{}.Encode(f, []locales.Message{
		{Key: "app_name", Text: "Rechner"},
		{Key: "cancel", Text: "Abbrechen"},
		{Key: "greeting", Text: `Hallo, <xliff:g id="name">%s</xliff:g>!`},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := `<?xml version="1.0" encoding="utf-8"?>
<!-- License header -->
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name">Rechner</string>
    <string name="greeting">Hallo, <xliff:g id="name">%s</xliff:g>!</string>
    <string name="cancel">Abbrechen</string>
</resources>
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("new file (-want +got):\n%s", diff)
	}
	if strings.Contains(string(out), "const_pi") {
		t.Fatal("a string not to translate was written")
	}
}
