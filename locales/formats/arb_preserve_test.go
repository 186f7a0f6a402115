package formats_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// arbTemplate is a template as gen-l10n reads it: metadata beside its
// messages, two spaces.
const arbTemplate = `{
  "@@locale": "en",
  "title": "Shop",
  "@title": {
    "description": "The app's title"
  },
  "items": "{count, plural, one{1 item} other{{count} items}}",
  "@items": {
    "placeholders": {
      "count": {"type": "int"}
    }
  },
  "hello": "Hello {name}",
  "@hello": {
    "placeholders": {
      "name": {}
    }
  }
}
`

// arbTarget is a target file as a translation tool wrote it: four
// spaces, no metadata, a message only the targets have, no final
// newline.
const arbTarget = "{\n    \"hello\": \"Hallo {name}\",\n    \"title\": \"Laden\",\n    \"Only in targets\": \"Nur hier\"\n}"

func arbDecode(t *testing.T, data string) []locales.Message {
	t.Helper()
	msgs, _, err := formats.ARB{}.Decode(locales.File{}, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	return msgs
}

func arbEncode(t *testing.T, a formats.ARB, f locales.File, msgs []locales.Message) string {
	t.Helper()
	out, err := a.Encode(f, msgs)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// ARB keys are message names: taken whole.
func TestARBKeysAreOpaque(t *testing.T) {
	if !(formats.ARB{}).OpaqueKeys() {
		t.Error("OpaqueKeys() = false")
	}
	msgs := arbDecode(t, `{"Loading...": "Lädt …", "a": "A", "a.b": "AB", "CRANE": "KRAN"}`)
	if len(msgs) != 4 {
		t.Errorf("messages %v, want 4", msgs)
	}
}

// A pull whose texts did not change gives the file back byte for byte,
// the template's and the targets' alike.
func TestARBEncodeOverOldKeepsBytes(t *testing.T) {
	for _, in := range []string{arbTemplate, arbTarget, "{}", "{\r\n\t\"a\": \"A\"\r\n}\r\n"} {
		f := locales.File{Language: "de", Old: []byte(in), SourceFile: []byte(arbTemplate)}
		if got := arbEncode(t, formats.ARB{}, f, arbDecode(t, in)); got != in {
			t.Errorf("got\n%q\nwant\n%q", got, in)
		}
	}
}

// A pull keeps the messages only the target files have, and changes
// only the bytes of a changed text.
func TestARBEncodeOverOldKeepsTargetOnlyMessages(t *testing.T) {
	f := locales.File{Language: "de", Old: []byte(arbTarget), SourceFile: []byte(arbTemplate)}
	got := arbEncode(t, formats.ARB{}, f, []locales.Message{{Key: "hello", Text: "Servus {name}"}, {Key: "title", Text: "Laden"}})
	if want := strings.Replace(arbTarget, "Hallo", "Servus", 1); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// A new message goes after the one before it in the template, in the
// file's indentation; the template's "@key" comes with it when the file
// holds metadata.
func TestARBEncodeOverOldAddsInTemplateOrder(t *testing.T) {
	msgs := []locales.Message{{Key: "hello", Text: "Hallo {name}"}, {Key: "items", Text: "{count, plural, one{1 Ding} other{{count} Dinge}}"}, {Key: "title", Text: "Laden"}}
	f := locales.File{Language: "de", Old: []byte(arbTarget), SourceFile: []byte(arbTemplate)}
	got := arbEncode(t, formats.ARB{}, f, msgs)
	want := "{\n    \"hello\": \"Hallo {name}\",\n    \"title\": \"Laden\",\n    \"items\": \"{count, plural, one{1 Ding} other{{count} Dinge}}\",\n    \"Only in targets\": \"Nur hier\"\n}"
	if got != want {
		t.Errorf("no metadata in the file:\n%s\nwant\n%s", got, want)
	}
	withMeta := "{\n  \"title\": \"Laden\",\n  \"@title\": {\n    \"description\": \"The app's title\"\n  }\n}\n"
	f.Old = []byte(withMeta)
	got = arbEncode(t, formats.ARB{}, f, msgs)
	want = "{\n  \"title\": \"Laden\",\n  \"@title\": {\n    \"description\": \"The app's title\"\n  }," +
		"\n  \"items\": \"{count, plural, one{1 Ding} other{{count} Dinge}}\",\n  \"@items\": {\n    \"placeholders\": {\n      \"count\": {\"type\": \"int\"}\n    }\n  }," +
		"\n  \"hello\": \"Hallo {name}\",\n  \"@hello\": {\n    \"placeholders\": {\n      \"name\": {}\n    }\n  }\n}\n"
	if got != want {
		t.Errorf("metadata in the file:\n%s\nwant\n%s", got, want)
	}
}

// A new target file starts with "@@locale" as its name spells the
// language, follows the template's order and indentation, and carries
// the template's metadata unless the tree's targets carry none.
func TestARBEncodeNewFileAfterTemplate(t *testing.T) {
	// The template indented by four spaces.
	lines := strings.Split(arbTemplate, "\n")
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		lines[i] = strings.Repeat(" ", 2*(len(l)-len(trimmed))) + trimmed
	}
	tmpl := strings.Join(lines, "\n")
	msgs := []locales.Message{{Key: "hello", Text: "Olá {name}"}, {Key: "title", Text: "Loja"}, {Key: "zeta", Text: "Z"}}
	f := locales.File{Language: "pt_BR", SourceFile: []byte(tmpl)}
	got := arbEncode(t, formats.ARB{}, f, msgs)
	want := "{\n    \"@@locale\": \"pt_BR\",\n    \"title\": \"Loja\",\n    \"@title\": {\n        \"description\": \"The app's title\"\n    }," +
		"\n    \"hello\": \"Olá {name}\",\n    \"@hello\": {\n        \"placeholders\": {\n            \"name\": {}\n        }\n    },\n    \"zeta\": \"Z\"\n}\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	got = arbEncode(t, formats.ARB{BareTargets: true}, f, msgs)
	want = "{\n    \"@@locale\": \"pt_BR\",\n    \"title\": \"Loja\",\n    \"hello\": \"Olá {name}\",\n    \"zeta\": \"Z\"\n}\n"
	if got != want {
		t.Errorf("BareTargets: got\n%s\nwant\n%s", got, want)
	}
	// Without a template, messages are sorted.
	f.SourceFile = nil
	got = arbEncode(t, formats.ARB{}, f, msgs)
	want = "{\n  \"@@locale\": \"pt_BR\",\n  \"hello\": \"Olá {name}\",\n  \"title\": \"Loja\",\n  \"zeta\": \"Z\"\n}\n"
	if got != want {
		t.Errorf("no template: got\n%s\nwant\n%s", got, want)
	}
}

// A key ARB would read as metadata is refused, not written.
func TestARBEncodeRefusesMetadataKey(t *testing.T) {
	_, err := formats.ARB{}.Encode(locales.File{Language: "de"}, []locales.Message{{Key: "@x", Text: "y"}})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v, want an *InputError", err)
	}
}

// FuzzARBEncodeOverOld: writing a file's own messages over it gives its
// bytes back; a changed text reads back changed and the rest as it was.
func FuzzARBEncodeOverOld(f *testing.F) {
	for _, s := range []string{arbTemplate, arbTarget, `{"a":"x","@a":{"description":"d"},"@@locale":"de"}`} {
		f.Add([]byte(s), "x")
	}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		msgs, _, err := formats.ARB{}.Decode(locales.File{}, data)
		if err != nil {
			return
		}
		file := locales.File{Language: "de", Old: data, SourceFile: []byte(arbTemplate)}
		out, err := formats.ARB{}.Encode(file, msgs)
		if err != nil {
			t.Fatalf("writing a file's own messages: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("written over itself:\n%q\nwant\n%q", out, data)
		}
		// A changed text, or a new one from the template.
		changed := []locales.Message{{Key: "title"}}
		if len(msgs) > 0 {
			changed = append([]locales.Message(nil), msgs...)
		}
		changed[0].Text = strings.ToValidUTF8(text, "?")
		out, err = formats.ARB{}.Encode(file, changed)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := formats.ARB{}.Decode(locales.File{}, out)
		if err != nil {
			t.Fatalf("reading what was written: %v\n%q", err, out)
		}
		if diff := cmp.Diff(texts(changed), texts(back)); diff != "" {
			t.Fatalf("read back (-written +read):\n%s\n%q", diff, out)
		}
	})
}

// An empty file shows no indentation: what a pull adds takes the
// template's.
func TestARBEncodeOverEmptyFileTakesTemplateIndent(t *testing.T) {
	tmpl := "{\n\t\"title\": \"Shop\"\n}\n"
	got := arbEncode(t, formats.ARB{}, locales.File{Language: "de", Old: []byte("{}\n"), SourceFile: []byte(tmpl)}, []locales.Message{{Key: "title", Text: "Laden"}})
	if want := "{\n\t\"title\": \"Laden\"\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A null message is not translated yet, as in JSON: read with no text,
// kept where the service has no text for it.
func TestARBNullIsUntranslated(t *testing.T) {
	in := "{\n  \"a\": null,\n  \"b\": null\n}\n"
	msgs := arbDecode(t, in)
	want := []locales.Message{{Key: "a", Line: 2, Untranslated: true}, {Key: "b", Line: 3, Untranslated: true}}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	got := arbEncode(t, formats.ARB{}, locales.File{Language: "de", Old: []byte(in)}, []locales.Message{{Key: "b", Text: "B"}})
	if want := "{\n  \"a\": null,\n  \"b\": \"B\"\n}\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
