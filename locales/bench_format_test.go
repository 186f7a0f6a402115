package locales

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/locsvc/partner-go/internal/benchcmp"

	"github.com/locsvc/partner-go/translations"
)

// jsonBenchTexts are the German texts of the generated JSON files: short
// labels and sentences, some with an i18next placeholder, some not
// ASCII.
var jsonBenchTexts = []string{
	"Speichern", "Abbrechen", "Einstellungen", "Über uns", "Schließen",
	"Willkommen zurück, {{name}}! Sie haben neue Nachrichten.",
	"Die Datei {{name}} konnte nicht geöffnet werden, weil sie zu groß ist.",
	"Möchten Sie diesen Eintrag wirklich löschen? Das lässt sich nicht rückgängig machen.",
	"Zuletzt geändert von {{name}}",
	"Alle Preise inkl. MwSt. – Versand ab 4,95 €.",
}

// BenchmarkFormatJSON: a nested JSON locale file of 4,000 and 40,000
// keys (a section of 400 keys, groups of 40), read, written new and
// written over with every tenth text changed, against encoding/json
// into and from map[string]any (written indented by two, no HTML
// escapes, as JSON writes). JSON reads and splices with encoding/json's
// tokens, so the ratio is its wrapper's overhead. Goal (issue 35):
// within 2x, ten times the keys ten times the time. The same rows as
// the formats module's BenchmarkFormat*.
func BenchmarkFormatJSON(b *testing.B) {
	for _, n := range []int{4000, 40000} {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			msgs := make([]Message, n)
			for i := range msgs {
				msgs[i] = Message{
					Key:  fmt.Sprintf("section%03d.group%02d.key%05d", i/400, i/40%10, i),
					Text: jsonBenchTexts[i%len(jsonBenchTexts)],
				}
			}
			file := File{Language: "de", Keys: translations.Nested}
			data, err := JSON{}.Encode(file, msgs)
			if err != nil {
				b.Fatal(err)
			}
			changed := slices.Clone(msgs)
			for i := range changed {
				if i%10 == 0 {
					changed[i].Text += " (neu)"
				}
			}
			over := file
			over.Old = data
			check := func(err error) {
				if err != nil {
					b.Fatal(err)
				}
			}
			read := func() map[string]any {
				var v map[string]any
				check(json.Unmarshal(data, &v))
				return v
			}
			write := func(v map[string]any) {
				var out bytes.Buffer
				enc := json.NewEncoder(&out)
				enc.SetIndent("", "  ")
				enc.SetEscapeHTML(false)
				check(enc.Encode(v))
			}
			value := read()

			var r, w, wo benchcmp.Against
			b.Run("read/baseline", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				r.Baseline(b, func() { read() })
			})
			b.Run("read/Decode", func(b *testing.B) {
				b.SetBytes(int64(len(data)))
				r.Row(b, func() {
					got, _, err := JSON{}.Decode(file, data)
					check(err)
					if len(got) != n {
						b.Fatal(len(got))
					}
				})
			})
			b.Run("write/baseline", func(b *testing.B) {
				w.Baseline(b, func() { write(value) })
			})
			b.Run("write/Encode", func(b *testing.B) {
				w.Row(b, func() { _, err := JSON{}.Encode(file, msgs); check(err) })
			})
			b.Run("write-over/baseline", func(b *testing.B) {
				wo.Baseline(b, func() { write(read()) })
			})
			b.Run("write-over/Encode", func(b *testing.B) {
				wo.Row(b, func() {
					out, err := JSON{}.Encode(over, changed)
					check(err)
					if !bytes.Contains(out[:200], []byte("(neu)")) {
						b.Fatal("the changed text is not written")
					}
				})
			})
		})
	}
}
