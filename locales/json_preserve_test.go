package locales_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/translations"
)

// A JSON null is i18next's "not translated yet": the file is read, the
// entry is untranslated with no text.
func TestJSONNullIsUntranslated(t *testing.T) {
	in := "{\n  \"nav\": {\n    \"home\": null,\n    \"about\": \"About\"\n  },\n  \"title\": null\n}\n"
	msgs, file, err := locales.JSON{}.Decode(locales.File{}, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Key: "nav.home", Line: 3, Untranslated: true},
		{Key: "nav.about", Text: "About", Line: 4},
		{Key: "title", Line: 6, Untranslated: true},
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if file.Keys != translations.Nested {
		t.Errorf("keys %q, want nested", file.Keys)
	}
}

// A pull writes the texts the service holds over the nulls it has, and
// keeps a null the service has no text for.
func TestJSONEncodeKeepsNullWithoutText(t *testing.T) {
	old := "{\n  \"a\": null,\n  \"b\": null\n}\n"
	got, err := locales.JSON{}.Encode(locales.File{Old: []byte(old), Keys: translations.Nested}, []locales.Message{{Key: "b", Text: "B"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": null,\n  \"b\": \"B\"\n}\n"; string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A new file writes an untranslated message as null.
	got, err = locales.JSON{}.Encode(locales.File{Keys: translations.Flat}, []locales.Message{{Key: "a", Untranslated: true}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": null\n}\n"; string(got) != want {
		t.Errorf("new file: got %q, want %q", got, want)
	}
}

// preservedJSON are files as people and tools write them: what a pull
// keeps byte for byte when it changes nothing.
var preservedJSON = map[string]string{
	"four spaces":    "{\n    \"title\": \"Hi\",\n    \"nav\": {\n        \"home\": \"Home\"\n    }\n}\n",
	"tabs":           "{\n\t\"b\": \"B\",\n\t\"a\": {\n\t\t\"x\": \"X\"\n\t}\n}\n",
	"no final line":  "{\n  \"z\": \"Z\",\n  \"a\": \"A\"\n}",
	"escapes":        "{\n  \"q\": \"caf\\u00e9 \\/ \\\"x\\\"\",\n  \"n\": \"a\\nb\"\n}\n",
	"one line":       `{"b":"B","a":{"c":"C"}}`,
	"crlf":           "{\r\n  \"a\": \"A\",\r\n  \"b\": \"B\"\r\n}\r\n",
	"empty":          "{}",
	"empty object":   "{\n  \"a\": {},\n  \"b\": \"B\"\n}\n",
	"null":           "{\n  \"a\": null,\n  \"b\": \"B\"\n}\n",
	"space in colon": "{ \"b\" : \"B\" , \"a\" : \"A\" }\n",
}

// A pull whose texts did not change gives the file's bytes back: order,
// indentation, escapes, final newline.
func TestJSONEncodeOverOldKeepsBytes(t *testing.T) {
	for name, in := range preservedJSON {
		t.Run(name, func(t *testing.T) {
			msgs, file, err := locales.JSON{}.Decode(locales.File{}, []byte(in))
			if err != nil {
				t.Fatal(err)
			}
			for _, kf := range []translations.KeyFormat{file.Keys, translations.Flat, translations.Nested} {
				got, err := locales.JSON{}.Encode(locales.File{Old: []byte(in), Keys: kf}, msgs)
				if err != nil {
					t.Fatal(err)
				}
				if string(got) != in {
					t.Errorf("keys %q: got\n%q\nwant\n%q", kf, got, in)
				}
			}
		})
	}
}

// A changed text replaces only that string's bytes.
func TestJSONEncodeOverOldChangesOnlyTheText(t *testing.T) {
	old := "{\n    \"z\": \"caf\\u00e9\",\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    }\n}"
	msgs := []locales.Message{{Key: "z", Text: "café"}, {Key: "nav.home", Text: "Start \"page\""}, {Key: "nav.about", Text: "About"}}
	got, err := locales.JSON{}.Encode(locales.File{Old: []byte(old), Keys: translations.Nested}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(old, `"Home"`, `"Start \"page\""`, 1)
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A new key goes after the key before it in the source file, in the
// file's indentation; without one, at the end of its object. A key only
// the target file has stays.
func TestJSONEncodeOverOldAddsInSourceOrder(t *testing.T) {
	source := "{\n  \"title\": \"Hi\",\n  \"nav\": {\n    \"home\": \"Home\",\n    \"about\": \"About\",\n    \"help\": \"Help\"\n  },\n  \"footer\": {\n    \"legal\": \"Legal\"\n  }\n}\n"
	old := "{\n\t\"nav\": {\n\t\t\"home\": \"Start\",\n\t\t\"mine\": \"Only here\"\n\t},\n\t\"title\": \"Hallo\"\n}"
	msgs := []locales.Message{
		{Key: "footer.legal", Text: "Impressum"},
		{Key: "nav.about", Text: "Über"},
		{Key: "nav.help", Text: "Hilfe"},
		{Key: "nav.home", Text: "Start"},
		{Key: "title", Text: "Hallo"},
		{Key: "zzz", Text: "Z"},
	}
	got, err := locales.JSON{}.Encode(locales.File{Old: []byte(old), SourceFile: []byte(source), Keys: translations.Nested}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	// footer.legal follows nav.help in the source: it goes after nav.
	want := "{\n\t\"nav\": {\n\t\t\"home\": \"Start\",\n\t\t\"about\": \"Über\",\n\t\t\"help\": \"Hilfe\",\n\t\t\"mine\": \"Only here\"\n\t},\n\t\"footer\": {\n\t\t\"legal\": \"Impressum\"\n\t},\n\t\"title\": \"Hallo\",\n\t\"zzz\": \"Z\"\n}"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Flat keys: a new key is one member.
	got, err = locales.JSON{}.Encode(locales.File{Old: []byte(`{"b.x": "1"}`), Keys: translations.Flat}, []locales.Message{{Key: "a.y", Text: "2"}, {Key: "b.x", Text: "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"b.x": "1","a.y": "2"}`; string(got) != want {
		t.Errorf("flat: got %s, want %s", got, want)
	}
}

// Without a source file, f.Source (sorted) places a new key.
func TestJSONEncodeOverOldAddsAfterSourceKey(t *testing.T) {
	old := "{\n  \"c\": \"C\",\n  \"a\": \"A\"\n}\n"
	msgs := []locales.Message{{Key: "a", Text: "A"}, {Key: "b", Text: "B"}, {Key: "c", Text: "C"}}
	got, err := locales.JSON{}.Encode(locales.File{Old: []byte(old), Source: msgs, Keys: translations.Flat}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"c\": \"C\",\n  \"a\": \"A\",\n  \"b\": \"B\"\n}\n"; string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A new key that the file holds as a parent, or under a text, is
// refused in nested keys.
func TestJSONEncodeOverOldTextAndParent(t *testing.T) {
	for _, tt := range []struct{ old, key string }{
		{`{"a": {"b": "x"}}`, "a"},
		{`{"a": "x"}`, "a.b"},
	} {
		_, err := locales.JSON{}.Encode(locales.File{Old: []byte(tt.old), Keys: translations.Nested}, []locales.Message{{Key: tt.key, Text: "y"}})
		if err == nil || !strings.Contains(err.Error(), "both a text and a parent") {
			t.Errorf("%s + %q: err = %v", tt.old, tt.key, err)
		}
	}
}

// A file that does not read is refused with its problems, not written
// over.
func TestJSONEncodeOverOldRefusesBadFile(t *testing.T) {
	_, err := locales.JSON{}.Encode(locales.File{Old: []byte(`{"a": 1}`)}, []locales.Message{{Key: "a", Text: "x"}})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want an *InputError", err)
	}
}

// A new target file takes the source file's indentation, member order
// and final newline; without one, members are sorted.
func TestJSONEncodeNewFileAfterSource(t *testing.T) {
	source := "{\n    \"title\": \"Hi\",\n    \"nav\": {\n        \"home\": \"Home\",\n        \"about\": \"About\"\n    },\n    \"extra\": \"Extra\"\n}"
	msgs := []locales.Message{{Key: "a", Text: "Mine"}, {Key: "nav.about", Text: "Über"}, {Key: "nav.home", Text: "Start"}, {Key: "title", Text: "Hallo"}}
	got, err := locales.JSON{}.Encode(locales.File{SourceFile: []byte(source), Keys: translations.Nested}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n    \"title\": \"Hallo\",\n    \"nav\": {\n        \"home\": \"Start\",\n        \"about\": \"Über\"\n    },\n    \"a\": \"Mine\"\n}"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got, err = locales.JSON{}.Encode(locales.File{SourceFile: []byte(source), Keys: translations.Flat}, msgs)
	if err != nil {
		t.Fatal(err)
	}
	want = "{\n    \"title\": \"Hallo\",\n    \"nav.home\": \"Start\",\n    \"nav.about\": \"Über\",\n    \"a\": \"Mine\"\n}"
	if string(got) != want {
		t.Errorf("flat: got\n%s\nwant\n%s", got, want)
	}
	if _, err := (locales.JSON{}).Encode(locales.File{SourceFile: []byte(source), Keys: translations.Nested}, []locales.Message{{Key: "a", Text: "1"}, {Key: "a.b", Text: "2"}}); err == nil {
		t.Error("a text that is also a parent encoded nested without an error")
	}
}

// FuzzJSONEncodeOverOld: writing a file's own messages over it gives its
// bytes back, and a changed text reads back changed, the rest as it was.
func FuzzJSONEncodeOverOld(f *testing.F) {
	for _, s := range preservedJSON {
		f.Add([]byte(s), "x")
	}
	f.Add([]byte(`{"a":{"b":"x"},"c":"y"}`), "\u2028\"")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		msgs, file, err := locales.JSON{}.Decode(locales.File{}, data)
		if err != nil {
			return
		}
		out, err := locales.JSON{}.Encode(locales.File{Old: data, Keys: file.Keys}, msgs)
		if err != nil {
			t.Fatalf("writing a file's own messages: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("written over itself:\n%q\nwant\n%q", out, data)
		}
		if len(msgs) == 0 {
			return
		}
		changed := append([]locales.Message(nil), msgs...)
		// encoding/json writes a byte that is not UTF-8 as U+FFFD.
		changed[0] = locales.Message{Key: msgs[0].Key, Text: strings.ToValidUTF8(text, "?")}
		out, err = locales.JSON{}.Encode(locales.File{Old: data, Keys: file.Keys}, changed)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := locales.JSON{}.Decode(locales.File{}, out)
		if err != nil {
			t.Fatalf("reading what was written: %v\n%q", err, out)
		}
		if diff := cmp.Diff(texts(changed), texts(back)); diff != "" {
			t.Fatalf("read back (-written +read):\n%s\n%q", diff, out)
		}
	})
}

func texts(msgs []locales.Message) map[string]string {
	m := map[string]string{}
	for _, msg := range msgs {
		m[msg.Key] = fmt.Sprintf("%q %v", msg.Text, msg.Untranslated)
	}
	return m
}

// BenchmarkJSONEncodeOverOld writes a pull of a 2,000-key nested file
// (four spaces, i18next's shape) with 20 changed texts and 10 new keys
// over the file, beside the same messages written as a new, sorted file
// (the baseline, what Encode did before it kept the file's bytes).
func BenchmarkJSONEncodeOverOld(b *testing.B) {
	var msgs []locales.Message
	for i := range 2000 {
		msgs = append(msgs, locales.Message{Key: fmt.Sprintf("section%d.group%d.key%d", i/200, i/20, i), Text: fmt.Sprintf("The text of key number %d, with {{count}} and <b>markup</b>", i)})
	}
	old, err := locales.JSON{}.Encode(locales.File{Keys: translations.Nested}, msgs)
	if err != nil {
		b.Fatal(err)
	}
	old = []byte(strings.ReplaceAll(string(old), "  ", "    "))
	pulled := append([]locales.Message(nil), msgs...)
	for i := 0; i < len(pulled); i += 100 {
		pulled[i].Text += " (changed)"
	}
	for i := range 10 {
		pulled = append(pulled, locales.Message{Key: fmt.Sprintf("section%d.group%d.new%d", i, i*10, i), Text: "A new text"})
	}
	slices.SortFunc(pulled, func(x, y locales.Message) int { return strings.Compare(x.Key, y.Key) })
	fresh := locales.File{Keys: translations.Nested}
	over := locales.File{Old: old, Source: pulled, Keys: translations.Nested}
	for _, bb := range []struct {
		name string
		file locales.File
	}{{"new", fresh}, {"over-old", over}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(old)))
			for b.Loop() {
				if _, err := (locales.JSON{}).Encode(bb.file, pulled); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// both alternates the two in one loop, so that a busy machine
	// slows both alike: over-old/new is the ratio of their times.
	b.Run("both", func(b *testing.B) {
		b.ReportAllocs()
		var tNew, tOver time.Duration
		for b.Loop() {
			start := time.Now()
			if _, err := (locales.JSON{}).Encode(fresh, pulled); err != nil {
				b.Fatal(err)
			}
			mid := time.Now()
			if _, err := (locales.JSON{}).Encode(over, pulled); err != nil {
				b.Fatal(err)
			}
			tNew, tOver = tNew+mid.Sub(start), tOver+time.Since(mid)
		}
		b.ReportMetric(float64(tOver)/float64(tNew), "over-old/new")
	})
}

// An empty file shows no indentation: what a pull adds to it takes the
// source file's, and the file's own end.
func TestJSONEncodeOverEmptyFileTakesSourceIndent(t *testing.T) {
	source := "{\n\t\"a\": \"A\"\n}\n"
	got, err := locales.JSON{}.Encode(locales.File{Old: []byte("{}"), SourceFile: []byte(source), Keys: translations.Flat}, []locales.Message{{Key: "a", Text: "Ä"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n\t\"a\": \"Ä\"\n}"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
