package formats_test

import (
	"bytes"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// FuzzXLIFFNewFile checks that a new target file is written as the
// source language's file with the target language added, written over:
// for any source file, Encode of a new file gives the bytes of Encode
// over the file it starts from (Encode of no messages), or the same
// error.
func FuzzXLIFFNewFile(f *testing.F) {
	f.Add([]byte(xliff12NoTarget))
	f.Add([]byte(xliff20NoTarget))
	f.Add([]byte(`<xliff version="1.2"><file><body><trans-unit id="a"><source>x</source></trans-unit>
<file></file></body></file></xliff>`))
	f.Add([]byte(`<xliff version="1.2"><file target-language=''><body><trans-unit id="a"><source>x &amp; <x id="1"/></source></trans-unit></body></file><file a='1'/></xliff>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		src, _, err := formats.XLIFF{}.Decode(locales.File{Language: "en", SourceLanguage: "en"}, data)
		if err != nil {
			return
		}
		file := locales.File{Language: "de", SourceLanguage: "en", SourceFile: data, Source: src}
		var msgs []locales.Message
		for i, m := range src {
			switch i % 3 {
			case 0:
				msgs = append(msgs, locales.Message{Key: m.Key, Text: m.Text + " (de)"})
			case 1:
				msgs = append(msgs, locales.Message{Key: m.Key, Text: m.Text, Untranslated: true})
			}
			if i%4 == 3 {
				// The source text changed in more than spaces.
				file.Source[i].Text += " (new)"
			}
		}
		file.Source = append(file.Source, locales.Message{Key: "new", Text: "New"})
		msgs = append(msgs, locales.Message{Key: "new", Text: "Neu"})
		got, gotErr := formats.XLIFF{}.Encode(file, msgs)
		start, err := formats.XLIFF{}.Encode(file, nil)
		if err != nil {
			t.Fatalf("a new file of no messages: %v", err)
		}
		over := file
		over.Old = start
		want, wantErr := formats.XLIFF{}.Encode(over, msgs)
		if (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Fatalf("new file: error %v; over its start: %v", gotErr, wantErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("new file:\n%s\nover its start:\n%s", got, want)
		}
	})
}

const xliff12NoTarget = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="a.txt">
    <body>
      <trans-unit id="a">
        <source>Apple</source>
        <note>a fruit</note>
      </trans-unit>
      <trans-unit id="b">
        <source>Bread
          and butter</source>
      </trans-unit>
      <trans-unit id="c">
        <source>Cheese</source>
      </trans-unit>
      <trans-unit id="d">
        <source>Dates</source>
      </trans-unit>
    </body>
  </file>
  <file source-language="en" datatype="plaintext" original="b.txt">
    <body>
    </body>
  </file>
</xliff>
`

const xliff20NoTarget = `<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
  <file id="f">
    <unit id="a">
      <segment state="initial">
        <source>Apple <ph id="1"/></source>
      </segment>
    </unit>
    <unit id="b">
      <segment>
        <source>Bread</source>
      </segment>
    </unit>
    <unit id="c">
      <segment>
        <source>Cheese</source>
      </segment>
    </unit>
    <unit id="d">
      <segment>
        <source>Dates</source>
      </segment>
    </unit>
  </file>
</xliff>
`
