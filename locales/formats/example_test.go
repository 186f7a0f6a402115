package formats_test

import (
	"fmt"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// A gettext PO file's plural entry reads as one ICU plural text, the form
// every format maps plurals to; messages come in the file's order.
func ExamplePO() {
	po := []byte(`msgid ""
msgstr ""
"Language: de\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: src/inbox.go:12
msgid "Inbox"
msgstr "Posteingang"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d Datei"
msgstr[1] "%d Dateien"
`)
	msgs, _, err := formats.PO{}.Decode(locales.File{}, po)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range msgs {
		fmt.Printf("%s => %s\n", m.Key, m.Text)
	}
	// Output:
	// Inbox => Posteingang
	// %d file => {count, plural, one {%d Datei} other {%d Dateien}}
}

// Formats picks a file's format by its extension; a tree that mixes
// formats is refused by DetectFormat.
func ExampleFormatByExt() {
	for _, name := range []string{"de.arb", "strings.xml", "de.po", "Localizable.xcstrings", "de.txt"} {
		f, ok := formats.FormatByExt(name, formats.All())
		if !ok {
			fmt.Printf("%s: no format\n", name)
			continue
		}
		fmt.Printf("%s: %T\n", name, f)
	}
	// Output:
	// de.arb: formats.ARB
	// strings.xml: formats.Android
	// de.po: formats.PO
	// Localizable.xcstrings: formats.XCStrings
	// de.txt: no format
}
