package formats_test

import (
	"bytes"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// A PO file or template written over itself with the messages read from
// it comes back byte for byte, read as a target language, as the source
// language and as a template.
func FuzzPOSameBytes(f *testing.F) {
	for _, s := range []string{poMarkers, poTemplate, poTarget, "msgid \"a\"\nmsgstr \"\"\n\n#~ msgid \"b\"\n#~ msgstr \"c\"\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, file := range []locales.File{{Language: "de", SourceLanguage: "en"}, {Language: "en", SourceLanguage: "en"}, {}} {
			msgs, _, err := formats.PO{}.Decode(file, data)
			if err != nil {
				return
			}
			file.Old, file.SourceFile = data, data
			out, err := formats.PO{}.Encode(file, msgs)
			if err != nil {
				t.Fatalf("%+v: writing what was read: %v", file, err)
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("%+v: written over itself:\n%q\nbecame\n%q", file, data, out)
			}
		}
	})
}
