package formats_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// propertiesOver decodes old, sets the texts of change (a key missing
// from old is added) and encodes over old.
func propertiesOver(t *testing.T, file locales.File, old string, change map[string]string) string {
	t.Helper()
	msgs, _, err := formats.Properties{}.Decode(file, []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	texts := texts(msgs)
	for k, v := range change {
		texts[k] = v
	}
	file.Old, file.Keys = []byte(old), translations.Flat
	out, err := formats.Properties{}.Encode(file, sortedMessages(texts))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// Keys are identifiers: "a" beside "a.b" and a key ending in "..." are
// keys like any other.
func TestPropertiesOpaqueKeys(t *testing.T) {
	o, ok := locales.Format(formats.Properties{}).(interface{ OpaqueKeys() bool })
	if !ok || !o.OpaqueKeys() {
		t.Fatal("Properties has no OpaqueKeys method returning true")
	}
}

// A pull changes a file's bytes only where a text changed: each
// separator style, comments, blank lines, continued lines and the
// missing final line end stay.
func TestPropertiesWriteChangesOnlyChangedValues(t *testing.T) {
	old := "# Shop\n" +
		"a=eins\n" +
		"b = zwei\n" +
		"\n" +
		"! legacy comment\n" +
		"c: drei\n" +
		"d\tvier\n" +
		"multi = erste \\\n" +
		"    zweite\n" +
		"last=ende"
	for _, tt := range []struct {
		key, text, want string
	}{
		{"a", "EINS", "# Shop\na=EINS\nb = zwei\n\n! legacy comment\nc: drei\nd\tvier\nmulti = erste \\\n    zweite\nlast=ende"},
		{"b", "ZWEI", "# Shop\na=eins\nb = ZWEI\n\n! legacy comment\nc: drei\nd\tvier\nmulti = erste \\\n    zweite\nlast=ende"},
		{"c", "DREI", "# Shop\na=eins\nb = zwei\n\n! legacy comment\nc: DREI\nd\tvier\nmulti = erste \\\n    zweite\nlast=ende"},
		{"d", "VIER", "# Shop\na=eins\nb = zwei\n\n! legacy comment\nc: drei\nd\tVIER\nmulti = erste \\\n    zweite\nlast=ende"},
		{"multi", "eins\nzwei", "# Shop\na=eins\nb = zwei\n\n! legacy comment\nc: drei\nd\tvier\nmulti = eins\\n\\\n    zwei\nlast=ende"},
		{"last", "Ende", "# Shop\na=eins\nb = zwei\n\n! legacy comment\nc: drei\nd\tvier\nmulti = erste \\\n    zweite\nlast=Ende"},
	} {
		if got := propertiesOver(t, locales.File{Language: "de"}, old, map[string]string{tt.key: tt.text}); got != tt.want {
			t.Errorf("%s changed: got\n%q\nwant\n%q", tt.key, got, tt.want)
		}
	}
	if got := propertiesOver(t, locales.File{Language: "de"}, old, nil); got != old {
		t.Errorf("same texts: got\n%q\nwant the file as it was", got)
	}
	crlf := "a=eins\r\nb=zwei\r\n"
	if got, want := propertiesOver(t, locales.File{Language: "de"}, crlf, map[string]string{"b": "ZWEI", "c": "drei"}), "a=eins\r\nb=ZWEI\r\nc=drei\r\n"; got != want {
		t.Errorf("CRLF file: got %q; want %q", got, want)
	}
}

// Texts are what a translator reads: escapes are undone on reading and
// done again on writing, non-ASCII characters as the file writes them.
func TestPropertiesEscapes(t *testing.T) {
	msgs, _, err := formats.Properties{}.Decode(locales.File{}, []byte("k = Gr\\u00fc\\u00DFe\\tTab\\nZeile \\\\ C\\:\\\\x\\=y\\ \n"))
	if err != nil || len(msgs) != 1 || msgs[0].Text != "Grüße\tTab\nZeile \\ C:\\x=y " {
		t.Fatalf("read %+v, %v", msgs, err)
	}
	const text = " Grüße\tA\\B\n한국어"
	for _, tt := range []struct {
		name, old, want string
	}{
		{"UTF-8 file", "a=Tschüss\nk=x\n", "a=Tschüss\nk=\\ Grüße\\tA\\\\B\\n한국어\n"},
		{"ASCII file with \\u escapes", "a=Tsch\\u00fcss\nk=x\n", "a=Tsch\\u00fcss\nk=\\ Gr\\u00FC\\u00DFe\\tA\\\\B\\n\\uD55C\\uAD6D\\uC5B4\n"},
		{"ISO-8859-1 file", "a=Tsch\xfcss\nk=x\n", "a=Tsch\xfcss\nk=\\ Gr\xfc\xdfe\\tA\\\\B\\n\\uD55C\\uAD6D\\uC5B4\n"},
		{"file escaping separators", "url=http\\://x\nk=x\n", "url=http\\://x\nk=\\ Grüße\\tA\\\\B\\n한국어\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := propertiesOver(t, locales.File{}, tt.old, map[string]string{"k": text})
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			back, _, err := formats.Properties{}.Decode(locales.File{}, []byte(got))
			if err != nil || texts(back)["k"] != text {
				t.Errorf("read back %q, %v", texts(back)["k"], err)
			}
		})
	}
	got := propertiesOver(t, locales.File{}, "url=http\\://x\nk=x\n", map[string]string{"k": "a:b=c"})
	if want := "url=http\\://x\nk=a\\:b\\=c\n"; got != want {
		t.Errorf("a file escaping ':' and '=': got %q; want %q", got, want)
	}
}

// A new key goes after the key before it in the source file; a key
// the source file lacks, or whose predecessors the file lacks, at the
// end; a key only this file has stays.
func TestPropertiesNewKeyAfterItsPredecessor(t *testing.T) {
	source := "first=First\nsecond=Second\nthird=Third\nfourth=Fourth\n"
	old := "# German\nsecond = Zweite\n\nfourth = Vierte\nonly.here = Nur hier"
	file := locales.File{Language: "de", SourceFile: []byte(source)}
	got := propertiesOver(t, file, old, map[string]string{"first": "Erste", "third": "Dritte", "zzz": "Z"})
	want := "# German\nsecond = Zweite\nthird = Dritte\n\nfourth = Vierte\nonly.here = Nur hier\nfirst = Erste\nzzz = Z"
	if got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// A new file follows the source file: its separator, its order, its
// encoding; with no source file, key=value in key order, UTF-8.
func TestPropertiesNewFile(t *testing.T) {
	msgs := []locales.Message{{Key: "a", Text: "Ä"}, {Key: "b", Text: "B"}}
	for _, tt := range []struct {
		name, source, want string
	}{
		{"no source file", "", "a=Ä\nb=B\n"},
		{"source file with \\u escapes", "# English\nb : B\\u00e9\na : A\n", "b : B\na : \\u00C4\n"},
		{"source file in UTF-8", "b: Bé\na: A\n", "b: B\na: Ä\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := locales.File{Language: "de", Keys: translations.Flat}
			if tt.source != "" {
				file.SourceFile = []byte(tt.source)
			}
			out, err := formats.Properties{}.Encode(file, msgs)
			if err != nil || string(out) != tt.want {
				t.Errorf("got %q, %v; want %q", out, err, tt.want)
			}
		})
	}
}

// sortedMessages returns the messages of texts, sorted by key.
func sortedMessages(texts map[string]string) []locales.Message {
	msgs := make([]locales.Message, 0, len(texts))
	for _, k := range slices.Sorted(maps.Keys(texts)) {
		msgs = append(msgs, locales.Message{Key: k, Text: texts[k]})
	}
	return msgs
}
