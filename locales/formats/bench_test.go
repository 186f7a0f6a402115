package formats_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/magiconair/properties"
	"go.yaml.in/yaml/v3"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// benchSizes are the files' key counts: a ratio of 10 between their
// times per file says the work is linear in the keys.
var benchSizes = []int{4000, 40000}

// benchMessages returns n texts with Rails-like keys: 40 keys a group,
// 10 groups a section.
func benchMessages(n int) []locales.Message {
	msgs := make([]locales.Message, n)
	for i := range msgs {
		msgs[i] = locales.Message{
			Key:  fmt.Sprintf("section%03d.group%02d.key%05d", i/400, i/40%10, i),
			Text: fmt.Sprintf("Grüß dich, {0}: Text Nummer %d, mit Umlauten und einem Satz von etwa sechzig Zeichen.", i),
		}
	}
	return msgs
}

// benchProperties returns a .properties file of n keys as people write
// them: a comment every 40 keys, escapes, a continued line now and then.
func benchProperties(n int) []byte {
	var b bytes.Buffer
	for i, m := range benchMessages(n) {
		if i%40 == 0 {
			fmt.Fprintf(&b, "\n# Group %d\n", i/40)
		}
		text := strings.ReplaceAll(m.Text, "ü", `\u00fc`)
		if i%50 == 0 {
			text = strings.Replace(text, ", mit", ", \\\n    mit", 1)
		}
		fmt.Fprintf(&b, "%s = %s\n", m.Key, text)
	}
	return b.Bytes()
}

// Reading a .properties file, against the library's own Load of the
// same bytes (which Decode calls, and adds the keys' lines to).
func BenchmarkPropertiesRead(b *testing.B) {
	for _, n := range benchSizes {
		data := benchProperties(n)
		b.Run(fmt.Sprintf("keys=%d/Decode", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				msgs, _, err := formats.Properties{}.Decode(data)
				if err != nil || len(msgs) != n {
					b.Fatal(len(msgs), err)
				}
			}
		})
		b.Run(fmt.Sprintf("keys=%d/baseline-library-Load", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			l := &properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}
			for b.Loop() {
				p, err := l.LoadBytes(data)
				if err != nil || p.Len() != n {
					b.Fatal(err)
				}
			}
		})
	}
}

// Writing a Rails YAML file, new and over the file with every tenth
// text changed, against go.yaml.in/yaml/v3's encoding of the same
// document's nodes (and its parsing and encoding, which writing over a
// file adds to).
func BenchmarkYAMLWrite(b *testing.B) {
	y := formats.YAML{Rails: true}
	for _, n := range benchSizes {
		msgs := benchMessages(n)
		file := locales.File{Language: "de"}
		data, err := y.EncodeFile(file, msgs, locales.NestedKeys)
		if err != nil {
			b.Fatal(err)
		}
		changed := make([]locales.Message, n)
		for i, m := range msgs {
			if i%10 == 0 {
				m.Text += " (neu)"
			}
			changed[i] = m
		}
		b.Run(fmt.Sprintf("keys=%d/new", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := y.EncodeFile(file, msgs, locales.NestedKeys); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("keys=%d/over-old", n), func(b *testing.B) {
			b.ReportAllocs()
			over := locales.File{Language: "de", Old: data}
			for b.Loop() {
				if _, err := y.EncodeFile(over, changed, locales.NestedKeys); err != nil {
					b.Fatal(err)
				}
			}
		})
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			b.Fatal(err)
		}
		encode := func(doc *yaml.Node) {
			var out bytes.Buffer
			enc := yaml.NewEncoder(&out)
			enc.SetIndent(2)
			if err := enc.Encode(doc); err != nil {
				b.Fatal(err)
			}
			enc.Close()
		}
		b.Run(fmt.Sprintf("keys=%d/baseline-library-encode", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				encode(&doc)
			}
		})
		b.Run(fmt.Sprintf("keys=%d/baseline-library-parse-encode", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var doc yaml.Node
				if err := yaml.Unmarshal(data, &doc); err != nil {
					b.Fatal(err)
				}
				encode(&doc)
			}
		})
	}
}
