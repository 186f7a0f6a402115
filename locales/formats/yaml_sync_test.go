package formats_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// yamlOver decodes old, sets the texts of change (a key missing from
// old is added) and encodes over old.
func yamlOver(t *testing.T, file locales.File, old string, change map[string]string) string {
	t.Helper()
	y := formats.YAML{Rails: true}
	msgs, got, err := y.Decode(file, []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	for i := range msgs {
		if text, ok := change[msgs[i].Key]; ok {
			msgs[i] = locales.Message{Key: msgs[i].Key, Text: text}
			delete(change, msgs[i].Key)
		}
	}
	for k, v := range change {
		msgs = append(msgs, locales.Message{Key: k, Text: v})
	}
	msgs = sortedByKey(msgs)
	file.Old, file.Keys = []byte(old), got.Keys
	out, err := y.Encode(file, msgs)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// A null (no value, ~, null) is a text not translated yet; written over
// with the service's texts, a null the service has no text for stays.
func TestYAMLNullIsUntranslated(t *testing.T) {
	old := "de:\n  a:\n  b: ~\n  c: null # todo\n  d: NULL\n  days:\n  - Mo\n  -\n  e: Text\n"
	file := locales.File{Language: "de"}
	msgs, _, err := formats.YAML{Rails: true}.Decode(file, []byte(old))
	if err != nil {
		t.Fatal(err)
	}
	untranslated := map[string]bool{}
	for _, m := range msgs {
		if m.Untranslated {
			untranslated[m.Key] = m.Text == ""
		}
	}
	if len(untranslated) != 5 || !untranslated["a"] || !untranslated["b"] || !untranslated["c"] || !untranslated["d"] || !untranslated["days.1"] {
		t.Fatalf("untranslated %v; want a, b, c, d and days.1 with no text", untranslated)
	}
	file.Old, file.Keys = []byte(old), translations.Nested
	for name, in := range map[string][]locales.Message{
		"the file's own messages":  msgs,
		"only the service's texts": {{Key: "days.0", Text: "Mo"}, {Key: "e", Text: "Text"}},
	} {
		out, err := formats.YAML{Rails: true}.Encode(file, in)
		if err != nil || string(out) != old {
			t.Errorf("%s: written %q, %v; want the file as it was", name, out, err)
		}
	}
	got := yamlOver(t, locales.File{Language: "de"}, old, map[string]string{"a": "A", "c": "C", "days.1": "Di"})
	if want := "de:\n  a: A\n  b: ~\n  c: C # todo\n  d: NULL\n  days:\n  - Mo\n  - Di\n  e: Text\n"; got != want {
		t.Errorf("translated: got\n%s\nwant\n%s", got, want)
	}
}

// A pull changes the bytes of the texts that changed and nothing else:
// the --- marker, comments, quoting, folded and literal blocks, flow
// mappings, indentation and the missing final line end stay; a text
// the old style cannot hold is double-quoted.
func TestYAMLWriteChangesOnlyChangedTexts(t *testing.T) {
	old := "---\n" +
		"# Deutsch\n" +
		"de:\n" +
		"    plain: Hallo Welt # greeting\n" +
		"    single: 'Gruß'\n" +
		"    double: \"Tschüss\"\n" +
		"    folded: >\n" +
		"        Ein langer\n" +
		"        Satz.\n" +
		"\n" +
		"    literal: |-\n" +
		"        Zeile 1\n" +
		"        Zeile 2\n" +
		"    multi: eins\n" +
		"        zwei\n" +
		"    flow: {a: x, b: 'y'}\n" +
		"    last: Ende"
	for _, tt := range []struct{ key, text, was, now string }{
		{"plain", "Hallo", "plain: Hallo Welt #", "plain: Hallo #"},
		{"plain", "on", "plain: Hallo Welt #", "plain: \"on\" #"},
		{"plain", "a: b", "plain: Hallo Welt #", "plain: \"a: b\" #"},
		{"single", "It's", "single: 'Gruß'", "single: 'It''s'"},
		{"single", "a\nb", "single: 'Gruß'", "single: \"a\\nb\""},
		{"double", "Tschö \"du\"", "double: \"Tschüss\"", "double: \"Tschö \\\"du\\\"\""},
		{"folded", "Kurz\nNeu\n", "folded: >\n        Ein langer\n        Satz.", "folded: >\n        Kurz\n\n        Neu"},
		{"literal", "A\nB\nC", "literal: |-\n        Zeile 1\n        Zeile 2", "literal: |-\n        A\n        B\n        C"},
		{"literal", "A\n", "literal: |-\n        Zeile 1\n        Zeile 2", "literal: |\n        A"},
		{"multi", "drei", "multi: eins\n        zwei", "multi: drei"},
		{"flow.a", "x, y", "{a: x, b:", "{a: \"x, y\", b:"},
		{"flow.b", "z", "b: 'y'}", "b: 'z'}"},
		{"last", "Schluss", "last: Ende", "last: Schluss"},
	} {
		got := yamlOver(t, locales.File{Language: "de"}, old, map[string]string{tt.key: tt.text})
		if want := strings.Replace(old, tt.was, tt.now, 1); got != want {
			t.Errorf("%s = %q: got\n%s\nwant\n%s", tt.key, tt.text, got, want)
		}
	}
}

// A new key goes after the key before it in the source file's order,
// in its mapping's indentation, else at the end of its mapping; keys
// only the file has stay.
func TestYAMLNewKeyAfterItsPredecessor(t *testing.T) {
	source := "en:\n  nav:\n    home: Home\n    shop: Shop\n    about: About\n  cart:\n    title: Cart\n    empty: Empty\n  footer: Footer\n"
	old := "de:\n" +
		"    nav:\n" +
		"        home: Start\n" +
		"        # the team\n" +
		"        about: Über uns\n" +
		"    only_here: Nur hier\n" +
		"    footer: Fuß"
	file := locales.File{Language: "de", SourceLanguage: "en", SourceFile: []byte(source)}
	got := yamlOver(t, file, old, map[string]string{"nav.shop": "Laden", "cart.title": "Korb", "cart.empty": "Leer", "zzz": "Z"})
	want := "de:\n" +
		"    nav:\n" +
		"        home: Start\n" +
		"        shop: Laden\n" +
		"        # the team\n" +
		"        about: Über uns\n" +
		"    cart:\n" +
		"        title: Korb\n" +
		"        empty: Leer\n" +
		"    only_here: Nur hier\n" +
		"    footer: Fuß\n" +
		"    zzz: Z"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A new file has the source file's language root, spelled as the
// file's language, its --- marker and its order; words a YAML 1.1
// reader takes for booleans, nulls or numbers are quoted, keys too.
func TestYAMLNewFile(t *testing.T) {
	msgs := sortedByKey([]locales.Message{
		{Key: "b", Text: "on"}, {Key: "a.on", Text: "ON"}, {Key: "a.n", Text: "1.5"}, {Key: "days.0", Text: "So"}, {Key: "days.1", Text: "Mo"},
		{Key: "c", Text: "%{count} Dinge"}, {Key: "d", Text: ":sym"}, {Key: "e", Text: "2024-01-01"}, {Key: "f", Text: "No"}, {Key: "g", Text: "Zeile 1\nZeile 2"},
	})
	for _, tt := range []struct {
		name string
		y    formats.YAML
		file locales.File
		want string
	}{
		{"Rails source", formats.YAML{}, locales.File{Language: "pt-BR", SourceLanguage: "en",
			SourceFile: []byte("---\nen:\n  b: x\n  days:\n  - Sun\n  - Mon\n  a:\n    on: x\n")},
			"---\npt-BR:\n  b: \"on\"\n  days:\n    - So\n    - Mo\n  a:\n    \"on\": \"ON\"\n    \"n\": \"1.5\"\n  c: \"%{count} Dinge\"\n  d: \":sym\"\n  e: \"2024-01-01\"\n  f: \"No\"\n  g: \"Zeile 1\\nZeile 2\"\n"},
		{"i18next source", formats.YAML{}, locales.File{Language: "de", SourceLanguage: "en", SourceFile: []byte("b: x\na:\n  on: x\n")},
			"b: \"on\"\na:\n  \"on\": \"ON\"\n  \"n\": \"1.5\"\nc: \"%{count} Dinge\"\nd: \":sym\"\ndays:\n  \"0\": So\n  \"1\": Mo\ne: \"2024-01-01\"\nf: \"No\"\ng: \"Zeile 1\\nZeile 2\"\n"},
		{"no source file, Rails", formats.YAML{Rails: true}, locales.File{Language: "no"},
			"\"no\":\n  a:\n    \"n\": \"1.5\"\n    \"on\": \"ON\"\n  b: \"on\"\n  c: \"%{count} Dinge\"\n  d: \":sym\"\n  days:\n    \"0\": So\n    \"1\": Mo\n  e: \"2024-01-01\"\n  f: \"No\"\n  g: \"Zeile 1\\nZeile 2\"\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, err := tt.y.Encode(tt.file, msgs)
			if err != nil || string(out) != tt.want {
				t.Fatalf("got %v\n%s\nwant\n%s", err, out, tt.want)
			}
			back, _, err := tt.y.Decode(locales.File{Language: tt.file.Language}, out)
			if err != nil || len(back) != len(msgs) {
				t.Fatalf("read back %v, %v", back, err)
			}
			rubyReads(t, out, strings.Contains(tt.want, tt.file.Language+":\n"))
		})
	}
}

// rubyReads checks, when Ruby is installed, that Ruby's YAML reader
// reads every key and text of data as a string.
func rubyReads(t *testing.T, data []byte, root bool) {
	t.Helper()
	if _, err := exec.LookPath("ruby"); err != nil {
		t.Log("ruby is not installed: not checked with Ruby's reader")
		return
	}
	script := `require "yaml"
def check(v, path)
  case v
  when Hash then v.each { |k, x| raise "key #{k.inspect} at #{path}" unless k.is_a?(String); check(x, path + [k]) }
  when Array then v.each_with_index { |x, i| check(x, path + [i]) }
  when String then nil
  else raise "#{path.join(".")}: #{v.inspect} is not a string"
  end
end
check(YAML.unsafe_load(STDIN.read), [])`
	cmd := exec.Command("ruby", "-e", script)
	cmd.Stdin = strings.NewReader(string(data))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("Ruby reads it otherwise: %v\n%s", err, out)
	}
}

func sortedByKey(msgs []locales.Message) []locales.Message {
	texts := map[string]locales.Message{}
	for _, m := range msgs {
		texts[m.Key] = m
	}
	out := sortedMessages(nil)
	for _, m := range sortedMessages(textsOf(texts)) {
		out = append(out, texts[m.Key])
	}
	return out
}

func textsOf(msgs map[string]locales.Message) map[string]string {
	out := map[string]string{}
	for k, m := range msgs {
		out[k] = m.Text
	}
	return out
}

// A file with CRLF line ends gets new lines with CRLF line ends.
func TestYAMLKeepsCRLF(t *testing.T) {
	old := "de:\r\n  a: |\r\n    x\r\n  b: y\r\n"
	got := yamlOver(t, locales.File{Language: "de"}, old, map[string]string{"a": "1\n2\n", "c": "z"})
	if want := "de:\r\n  a: |\r\n    1\r\n    2\r\n  b: y\r\n  c: z\r\n"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

// A literal block that begins with an empty line keeps its content's
// indentation when its text changes.
func TestYAMLBlockAfterEmptyLine(t *testing.T) {
	old := "de:\n    a: |\n\n        x\n    b: y\n"
	got := yamlOver(t, locales.File{Language: "de"}, old, map[string]string{"a": "neu\n"})
	if want := "de:\n    a: |\n        neu\n    b: y\n"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

// A key longer than YAML's readers take (1,024 characters) is refused
// with the key named, in a new file and over an old one, rather than
// written as a file that no longer reads.
func TestYAMLRefusesAKeyTooLongToRead(t *testing.T) {
	y := formats.YAML{Rails: true}
	long := "k" + strings.Repeat("é", 600)
	file := locales.File{Language: "de"}
	old := []byte("de:\n  a: A\n")
	for _, f := range []locales.File{file, {Language: "de", Old: old}} {
		_, err := y.Encode(f, []locales.Message{{Key: "a", Text: "A"}, {Key: long, Text: "x"}})
		var ie *locales.InputError
		if !errors.As(err, &ie) || ie.Problems[0].Key != long || !strings.Contains(ie.Problems[0].Message, "1,024") {
			t.Errorf("Encode (old %q) of a %d-byte key: %v; want an *InputError naming the key", f.Old, len(long), err)
		}
	}
}
