package formats_test

import (
	"bytes"
	"fmt"
	"github.com/locsvc/partner-go/translations"
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
				msgs, _, err := formats.Properties{}.Decode(locales.File{}, data)
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

// Writing a YAML file, new and over the file with every tenth text
// changed, against go.yaml.in/yaml/v3's encoding of the same document's
// nodes (and its parsing and encoding, which writing over a file adds
// to). Two shapes: Rails, nested (400 keys a section), and i18next with
// flat keys (every key in one mapping).
func BenchmarkYAMLWrite(b *testing.B) {
	shapes := []struct {
		name   string
		format formats.YAML
		keys   translations.KeyFormat
	}{
		{"rails-nested", formats.YAML{Rails: true}, translations.Nested},
		{"i18next-flat", formats.YAML{}, translations.Flat},
	}
	for _, shape := range shapes {
		for _, n := range benchSizes {
			benchYAMLWrite(b, fmt.Sprintf("%s/keys=%d", shape.name, n), shape.format, shape.keys, benchMessages(n))
		}
	}
}

func benchYAMLWrite(b *testing.B, name string, y formats.YAML, keys translations.KeyFormat, msgs []locales.Message) {
	file := locales.File{Language: "de"}
	data, err := y.Encode(keyed(file, keys), msgs)
	if err != nil {
		b.Fatal(err)
	}
	changed := make([]locales.Message, len(msgs))
	for i, m := range msgs {
		if i%10 == 0 {
			m.Text += " (neu)"
		}
		changed[i] = m
	}
	b.Run(name+"/new", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := y.Encode(keyed(file, keys), msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(name+"/over-old", func(b *testing.B) {
		b.ReportAllocs()
		over := locales.File{Language: "de", Old: data}
		for b.Loop() {
			if _, err := y.Encode(keyed(over, keys), changed); err != nil {
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
	b.Run(name+"/baseline-library-encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			encode(&doc)
		}
	})
	b.Run(name+"/baseline-library-parse-encode", func(b *testing.B) {
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
