package formats_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/magiconair/properties"
	"go.yaml.in/yaml/v3"

	"github.com/locsvc/partner-go/internal/benchcmp"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// The BenchmarkFormat* benchmarks weigh reading and writing each format
// against the cost of its data (issue 35): on the same generated file of
// 4,000 and 40,000 keys, each row runs after its baseline in the same
// run, taking turns with it (benchcmp.Against), and reports x-time,
// x-cpu and x-bytes: its time, CPU time and B/op over the baseline's. The rows of a size:
//
//	read/baseline, read/Decode            the file's bytes to a value, to messages
//	write/baseline, write/Encode          that value, the messages, to a new file
//	write-over/baseline, write-over/Encode   the baseline's read and write again;
//	                                      Encode over the file (File.Old) with
//	                                      every tenth text changed, as a pull does
//
// Goal: within 2x of the baseline, and ten times the keys ten times the
// time.

// A fmtBaseline reads a file's bytes into the natural Go value of a
// general-purpose library and writes that value back.
type fmtBaseline struct {
	read  func(data []byte) (any, error)
	write func(v any) ([]byte, error)
}

// A fmtFile is the generated file of a benchmark: its bytes as a tree
// holds them and the File that Encode is given to write it (Language,
// Keys, Source...).
type fmtFile struct {
	file locales.File
	data []byte
}

// benchFormat runs the read, write and write-over rows of format for each
// of benchSizes, on the file gen makes, against base.
func benchFormat(b *testing.B, format locales.Format, base fmtBaseline, gen func(b *testing.B, n int) fmtFile) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			benchFormatFile(b, format, base, gen(b, n), n)
		})
	}
}

func benchFormatFile(b *testing.B, format locales.Format, base fmtBaseline, ff fmtFile, n int) {
	file, data := ff.file, ff.data
	msgs, _, err := format.Decode(file, data)
	if err != nil {
		b.Fatal(err)
	}
	slices.SortFunc(msgs, func(x, y locales.Message) int {
		return cmp2(x.Language, y.Language, x.Key, y.Key)
	})
	changed := slices.Clone(msgs)
	for i := range changed {
		if i%10 == 0 && !strings.HasPrefix(changed[i].Text, "{count, plural") {
			changed[i].Text += " (neu)"
		}
	}
	value, err := base.read(data)
	if err != nil {
		b.Fatal(err)
	}
	over := file
	over.Old = data
	check := func(err error) {
		if err != nil {
			b.Fatal(err)
		}
	}
	// What write-over measures writes the changes: it reads back as
	// changed.
	out, err := format.Encode(over, changed)
	check(err)
	back, _, err := format.Decode(file, out)
	check(err)
	if want, got := textsByLanguage(changed), textsByLanguage(back); !maps.Equal(want, got) {
		b.Fatalf("written over, the file reads back as %d texts, %d as changed; want them all", len(got), countEqual(want, got))
	}

	var read, write, writeOver benchcmp.Against
	b.Run("read/baseline", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		read.Baseline(b, func() { _, err := base.read(data); check(err) })
	})
	b.Run("read/Decode", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		read.Row(b, func() {
			got, _, err := format.Decode(file, data)
			check(err)
			if len(got) != len(msgs) {
				b.Fatalf("%d messages; want %d", len(got), len(msgs))
			}
		})
	})
	b.Run("write/baseline", func(b *testing.B) {
		write.Baseline(b, func() { _, err := base.write(value); check(err) })
	})
	b.Run("write/Encode", func(b *testing.B) {
		write.Row(b, func() { _, err := format.Encode(file, msgs); check(err) })
	})
	b.Run("write-over/baseline", func(b *testing.B) {
		writeOver.Baseline(b, func() {
			v, err := base.read(data)
			check(err)
			_, err = base.write(v)
			check(err)
		})
	})
	b.Run("write-over/Encode", func(b *testing.B) {
		writeOver.Row(b, func() { _, err := format.Encode(over, changed); check(err) })
	})
}

// textsByLanguage maps each message's language and key to its text.
func textsByLanguage(msgs []locales.Message) map[[2]string]string {
	m := make(map[[2]string]string, len(msgs))
	for _, msg := range msgs {
		m[[2]string{msg.Language, msg.Key}] = msg.Text
	}
	return m
}

func countEqual(want, got map[[2]string]string) int {
	n := 0
	for k, v := range want {
		if got[k] == v {
			n++
		}
	}
	return n
}

func cmp2(a1, b1, a2, b2 string) int {
	if c := strings.Compare(a1, b1); c != 0 {
		return c
	}
	return strings.Compare(a2, b2)
}

// A benchStyle is how a format writes a placeholder: arg for a named
// argument, count for the count in a plural's branch ("" when the
// format has no plurals).
type benchStyle struct {
	arg   string
	count string
}

// The texts of the generated files, English (the source) and German: half
// short labels, the rest sentences, a tenth plurals where the format has
// them; %s is an argument and %d the count, which benchStyle replaces.
var (
	benchLabels = [][2]string{
		{"Save", "Speichern"}, {"Cancel", "Abbrechen"}, {"Settings", "Einstellungen"},
		{"About us", "Über uns"}, {"Close", "Schließen"}, {"Search results", "Suchergebnisse"},
		{"Delete", "Löschen"}, {"Sign in", "Anmelden"}, {"Size", "Größe"},
	}
	benchSentences = [][2]string{
		{"Welcome back, %s! You have new messages.", "Willkommen zurück, %s! Sie haben neue Nachrichten."},
		{"The file %s could not be opened because it is too large.", "Die Datei %s konnte nicht geöffnet werden, weil sie zu groß ist."},
		{"Are you sure you want to delete this item? This cannot be undone.", "Möchten Sie diesen Eintrag wirklich löschen? Das lässt sich nicht rückgängig machen."},
		{"Last changed by %s", "Zuletzt geändert von %s"},
		{"Prices include VAT – shipping from 4.95 €.", "Alle Preise inkl. MwSt. – Versand ab 4,95 €."},
		{"Your changes were saved.", "Ihre Änderungen wurden gespeichert."},
	}
	benchPlurals = [][4]string{
		{"%d file", "%d files", "%d Datei", "%d Dateien"},
		{"%d new message", "%d new messages", "%d neue Nachricht", "%d neue Nachrichten"},
	}
)

// A benchText is the i-th text of a generated file.
type benchText struct {
	en, de string // the source and the translation, a plural as ICU
	label  string // the English text, its "one" case for a plural: for keys made of it
	plural bool
}

func benchTexts(n int, st benchStyle) []benchText {
	texts := make([]benchText, n)
	for i := range texts {
		var t benchText
		switch k := i % 10; {
		case k < 5:
			l := benchLabels[i%len(benchLabels)]
			t = benchText{en: l[0], de: l[1]}
		case k == 9 && st.count != "":
			p := benchPlurals[i%len(benchPlurals)]
			c := func(s string) string { return strings.ReplaceAll(s, "%d", st.count) }
			t = benchText{
				en:     fmt.Sprintf("{count, plural, one {%s} other {%s}}", c(p[0]), c(p[1])),
				de:     fmt.Sprintf("{count, plural, one {%s} other {%s}}", c(p[2]), c(p[3])),
				plural: true,
			}
			t.label = p[0]
		default:
			s := benchSentences[i%len(benchSentences)]
			t = benchText{en: strings.ReplaceAll(s[0], "%s", st.arg), de: strings.ReplaceAll(s[1], "%s", st.arg)}
		}
		if t.label == "" {
			t.label = t.en
		}
		texts[i] = t
	}
	return texts
}

// benchSourceAndTarget returns the n source messages and their
// translations, sorted by key, keys made by key from the text's index
// and its English label.
func benchSourceAndTarget(n int, st benchStyle, key func(i int, t benchText) string) (src, msgs []locales.Message) {
	for i, t := range benchTexts(n, st) {
		k := key(i, t)
		src = append(src, locales.Message{Key: k, Text: t.en})
		msgs = append(msgs, locales.Message{Key: k, Text: t.de})
	}
	byKey := func(x, y locales.Message) int { return strings.Compare(x.Key, y.Key) }
	slices.SortFunc(src, byKey)
	slices.SortFunc(msgs, byKey)
	return src, msgs
}

// Keys as each platform spells them.
func dottedKey(i int, _ benchText) string {
	return fmt.Sprintf("section%03d.group%02d.key%05d", i/400, i/40%10, i)
}

func camelKey(i int, _ benchText) string {
	return fmt.Sprintf("section%03dGroup%02dKey%05d", i/400, i/40%10, i)
}

func snakeKey(i int, _ benchText) string {
	return fmt.Sprintf("section%03d_group%02d_key%05d", i/400, i/40%10, i)
}

// sourceKey is the English text as the key (gettext msgids, Apple's
// keys), made unique by the index.
func sourceKey(i int, t benchText) string { return fmt.Sprintf("%s (%d)", t.label, i) }

// encoded returns the file format writes for msgs, new, in f.
func encoded(b *testing.B, format locales.Format, f locales.File, msgs []locales.Message) fmtFile {
	data, err := format.Encode(f, msgs)
	if err != nil {
		b.Fatal(err)
	}
	return fmtFile{file: f, data: data}
}

// jsonBaseline decodes into a new value of what new returns and encodes
// it indented by two spaces, with no HTML escapes, as the formats write.
func jsonBaseline[T any]() fmtBaseline {
	return fmtBaseline{
		read: func(data []byte) (any, error) {
			var v T
			err := json.Unmarshal(data, &v)
			return &v, err
		},
		write: func(v any) ([]byte, error) {
			var out bytes.Buffer
			enc := json.NewEncoder(&out)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			err := enc.Encode(v)
			return out.Bytes(), err
		},
	}
}

// xmlBaseline decodes into a new value of T and encodes it indented by
// four spaces.
func xmlBaseline[T any]() fmtBaseline {
	return fmtBaseline{
		read: func(data []byte) (any, error) {
			var v T
			err := xml.Unmarshal(data, &v)
			return &v, err
		},
		write: func(v any) ([]byte, error) {
			var out bytes.Buffer
			out.WriteString(xml.Header)
			enc := xml.NewEncoder(&out)
			enc.Indent("", "    ")
			err := enc.Encode(v)
			return out.Bytes(), err
		},
	}
}

// lineScan is the baseline of the formats parsed by hand (PO, .strings):
// a bufio.Scanner over the lines, each split at the first sep into a
// key and a value, no escapes; writing is the pairs joined again.
func lineScan(sep string) fmtBaseline {
	type pair struct{ k, v string }
	return fmtBaseline{
		read: func(data []byte) (any, error) {
			var pairs []pair
			sc := bufio.NewScanner(bytes.NewReader(data))
			for sc.Scan() {
				if k, v, ok := strings.Cut(sc.Text(), sep); ok {
					pairs = append(pairs, pair{strings.TrimSpace(k), strings.TrimSpace(v)})
				}
			}
			return pairs, sc.Err()
		},
		write: func(v any) ([]byte, error) {
			var out bytes.Buffer
			for _, p := range v.([]pair) {
				out.WriteString(p.k)
				out.WriteString(sep)
				out.WriteString(p.v)
				out.WriteByte('\n')
			}
			return out.Bytes(), nil
		},
	}
}

// BenchmarkFormatARB: an .arb file, against encoding/json into and from
// map[string]any. ARB reads and splices with encoding/json's tokens, so
// the ratio is its wrapper's overhead.
func BenchmarkFormatARB(b *testing.B) {
	benchFormat(b, formats.ARB{}, jsonBaseline[map[string]any](), func(b *testing.B, n int) fmtFile {
		_, msgs := benchSourceAndTarget(n, benchStyle{arg: "{name}", count: "{count}"}, camelKey)
		return encoded(b, formats.ARB{}, locales.File{Language: "de"}, msgs)
	})
}

// xcstringsFile is an .xcstrings catalog as encoding/json reads it.
type xcstringsFile struct {
	SourceLanguage string                     `json:"sourceLanguage"`
	Strings        map[string]xcstringsString `json:"strings"`
	Version        string                     `json:"version"`
}

type xcstringsString struct {
	ExtractionState string                   `json:"extractionState,omitempty"`
	Localizations   map[string]xcstringsLocz `json:"localizations,omitempty"`
}

type xcstringsLocz struct {
	StringUnit *xcstringsUnit `json:"stringUnit,omitempty"`
	Variations *struct {
		Plural map[string]struct {
			StringUnit xcstringsUnit `json:"stringUnit"`
		} `json:"plural"`
	} `json:"variations,omitempty"`
}

type xcstringsUnit struct {
	State string `json:"state"`
	Value string `json:"value"`
}

// BenchmarkFormatXCStrings: a string catalog of English and German,
// against encoding/json into and from the struct of its shape. The
// format reads and splices with encoding/json's tokens, so the ratio is
// its wrapper's overhead.
func BenchmarkFormatXCStrings(b *testing.B) {
	benchFormat(b, formats.XCStrings{}, jsonBaseline[xcstringsFile](), func(b *testing.B, n int) fmtFile {
		src, msgs := benchSourceAndTarget(n, benchStyle{arg: "%@", count: "%lld"}, sourceKey)
		var all []locales.Message
		for _, m := range msgs {
			m.Language = "de"
			all = append(all, m)
		}
		for _, m := range src {
			m.Language = "en"
			all = append(all, m)
		}
		slices.SortFunc(all, func(x, y locales.Message) int { return cmp2(x.Language, y.Language, x.Key, y.Key) })
		return encoded(b, formats.XCStrings{}, locales.File{Namespace: "Localizable", SourceLanguage: "en"}, all)
	})
}

// gotextFile is a messages.gotext.json file as encoding/json reads it
// (golang.org/x/text/message/pipeline's Messages).
type gotextFile struct {
	Language string `json:"language"`
	Messages []struct {
		ID          string `json:"id"`
		Message     string `json:"message"`
		Translation any    `json:"translation"`
		Fuzzy       bool   `json:"fuzzy,omitempty"`
	} `json:"messages"`
}

// BenchmarkFormatGoText: a messages.gotext.json file, against
// encoding/json into and from the struct of its shape. GoText reads its
// fields with encoding/json, so the ratio is its wrapper's overhead.
func BenchmarkFormatGoText(b *testing.B) {
	benchFormat(b, formats.GoText{}, jsonBaseline[gotextFile](), func(b *testing.B, n int) fmtFile {
		src, msgs := benchSourceAndTarget(n, benchStyle{arg: "{Name}", count: "{Count}"}, sourceKey)
		return encoded(b, formats.GoText{}, locales.File{Language: "de", Namespace: "messages", Source: src}, msgs)
	})
}

// androidResources is a strings.xml file as encoding/xml reads it.
type androidResources struct {
	XMLName xml.Name `xml:"resources"`
	Strings []struct {
		Name string `xml:"name,attr"`
		Text string `xml:",chardata"`
	} `xml:"string"`
	Plurals []struct {
		Name  string `xml:"name,attr"`
		Items []struct {
			Quantity string `xml:"quantity,attr"`
			Text     string `xml:",chardata"`
		} `xml:"item"`
	} `xml:"plurals"`
}

// BenchmarkFormatAndroid: a strings.xml file, against encoding/xml into
// and from a struct mirroring it. Android scans the file with
// encoding/xml's tokens, so the ratio is its wrapper's overhead.
func BenchmarkFormatAndroid(b *testing.B) {
	benchFormat(b, formats.Android{}, xmlBaseline[androidResources](), func(b *testing.B, n int) fmtFile {
		_, msgs := benchSourceAndTarget(n, benchStyle{arg: "%1$s", count: "%d"}, snakeKey)
		return encoded(b, formats.Android{}, locales.File{Language: "de"}, msgs)
	})
}

// xliffFile is an XLIFF 1.2 file as encoding/xml reads it.
type xliffFile struct {
	XMLName xml.Name `xml:"urn:oasis:names:tc:xliff:document:1.2 xliff"`
	Version string   `xml:"version,attr"`
	Files   []struct {
		SourceLanguage string `xml:"source-language,attr"`
		TargetLanguage string `xml:"target-language,attr,omitempty"`
		Original       string `xml:"original,attr"`
		Datatype       string `xml:"datatype,attr"`
		Units          []struct {
			ID     string `xml:"id,attr"`
			Source string `xml:"source"`
			Target string `xml:"target,omitempty"`
		} `xml:"body>trans-unit"`
	} `xml:"file"`
}

// BenchmarkFormatXLIFF: an XLIFF 1.2 target file, against encoding/xml
// into and from a struct mirroring it. XLIFF scans the file with
// encoding/xml's tokens, so the ratio is its wrapper's overhead.
func BenchmarkFormatXLIFF(b *testing.B) {
	benchFormat(b, formats.XLIFF{}, xmlBaseline[xliffFile](), func(b *testing.B, n int) fmtFile {
		src, msgs := benchSourceAndTarget(n, benchStyle{arg: "{name}"}, dottedKey)
		en := encoded(b, formats.XLIFF{}, locales.File{Language: "en", SourceLanguage: "en"}, src)
		return encoded(b, formats.XLIFF{}, locales.File{Language: "de", SourceLanguage: "en", Source: src, SourceFile: en.data}, msgs)
	})
}

// BenchmarkFormatPO: a gettext .po file, against a line scan of the same
// bytes (split at the first space: keyword and string). PO is parsed by
// hand: the ratio is what its unescaping, plurals and header cost over
// reading the lines.
func BenchmarkFormatPO(b *testing.B) {
	benchFormat(b, formats.PO{}, lineScan(" "), func(b *testing.B, n int) fmtFile {
		src, msgs := benchSourceAndTarget(n, benchStyle{arg: "%s", count: "%d"}, sourceKey)
		return encoded(b, formats.PO{}, locales.File{Language: "de", SourceLanguage: "en", Source: src}, msgs)
	})
}

// BenchmarkFormatAppleStrings: an Apple .strings file, against a line
// scan of the same bytes (split at " = "). The format is parsed by hand:
// the ratio is what its quoting and comments cost over reading the
// lines.
func BenchmarkFormatAppleStrings(b *testing.B) {
	benchFormat(b, formats.AppleStrings{}, lineScan(" = "), func(b *testing.B, n int) fmtFile {
		src, msgs := benchSourceAndTarget(n, benchStyle{arg: "%@"}, sourceKey)
		return encoded(b, formats.AppleStrings{}, locales.File{Language: "de", Source: src}, msgs)
	})
}

// BenchmarkFormatProperties: a .properties file as people write them
// (benchProperties: comments, \u escapes, continued lines), against
// magiconair/properties' Load and Write of the same bytes. Properties
// reads with that library (and adds the keys' lines) and writes by
// hand.
func BenchmarkFormatProperties(b *testing.B) {
	base := fmtBaseline{
		read: func(data []byte) (any, error) {
			l := &properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}
			return l.LoadBytes(data)
		},
		write: func(v any) ([]byte, error) {
			var out bytes.Buffer
			_, err := v.(*properties.Properties).Write(&out, properties.UTF8)
			return out.Bytes(), err
		},
	}
	benchFormat(b, formats.Properties{}, base, func(b *testing.B, n int) fmtFile {
		return fmtFile{file: locales.File{Language: "de"}, data: benchProperties(n)}
	})
}

// BenchmarkFormatYAML: a YAML file in two shapes, Rails (nested, a
// section of 400 keys under the language) and i18next with flat keys
// (every key in one mapping), against go.yaml.in/yaml/v3's Unmarshal
// into a yaml.Node and encoding of that node, indented by two. YAML
// reads and writes through those nodes, so the ratio is its wrapper's
// overhead.
func BenchmarkFormatYAML(b *testing.B) {
	base := fmtBaseline{
		read: func(data []byte) (any, error) {
			var doc yaml.Node
			err := yaml.Unmarshal(data, &doc)
			return &doc, err
		},
		write: func(v any) ([]byte, error) {
			var out bytes.Buffer
			enc := yaml.NewEncoder(&out)
			enc.SetIndent(2)
			if err := enc.Encode(v); err != nil {
				return nil, err
			}
			err := enc.Close()
			return out.Bytes(), err
		},
	}
	shapes := []struct {
		name   string
		format formats.YAML
		keys   translations.KeyFormat
		style  benchStyle
	}{
		{"rails-nested", formats.YAML{Rails: true}, translations.Nested, benchStyle{arg: "%{name}", count: "%'{'count'}'"}},
		{"i18next-flat", formats.YAML{}, translations.Flat, benchStyle{arg: "{{name}}"}},
	}
	for _, shape := range shapes {
		b.Run(shape.name, func(b *testing.B) {
			benchFormat(b, shape.format, base, func(b *testing.B, n int) fmtFile {
				_, msgs := benchSourceAndTarget(n, shape.style, dottedKey)
				return encoded(b, shape.format, locales.File{Language: "de", Keys: shape.keys}, msgs)
			})
		})
	}
}
