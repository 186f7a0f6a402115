package formats_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// Written over itself with the messages it holds, a file comes back
// byte for byte; with texts changed, nulls translated and keys added,
// it reads back as them.
func FuzzYAMLOverOld(f *testing.F) {
	for _, s := range []string{
		"de:\n  a: [x, y]\n  b: {c: 'z'}\n", "a: b\n", "---\nde:\n  a:\n  b: ~\n  c: |\n    x\n  d: >-\n    y\n    z\n",
		"a: 'x' # c\nb:\n    c: \"d\"\n    e: f\n      g\n", "# only a comment", "de:\n  - a\n  -\n", "a: {b: , c: d}",
	} {
		f.Add([]byte(s), "x")
	}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		text = strings.ToValidUTF8(text, "?")
		y := formats.YAML{Rails: true}
		file := locales.File{Language: "de"}
		msgs, got, err := y.Decode(file, data)
		if err != nil {
			return
		}
		file.Old, file.Keys = data, got.Keys
		out, err := y.Encode(file, msgs)
		if err != nil {
			t.Fatalf("writing its own messages: %v", err)
		}
		if string(out) != string(data) {
			t.Fatalf("written over with its own messages:\n%q\nwant\n%q", out, data)
		}
		want := map[string]string{}
		var changed []locales.Message
		for i, m := range msgs {
			if i%2 == 0 {
				m = locales.Message{Key: m.Key, Text: m.Text + text}
			}
			want[m.Key] = m.Text
			changed = append(changed, m)
		}
		changed = append(changed, locales.Message{Key: "zz" + strings.ReplaceAll(text, ".", ""), Text: text})
		changed = sortedByKey(changed)
		out, err = y.Encode(file, changed)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("writing: %v", err)
			}
			return
		}
		back, _, err := y.Decode(file, out)
		if err != nil {
			t.Fatalf("reading what was written: %v\n%q", err, out)
		}
		for _, m := range changed {
			want[m.Key] = yamlReadsAs(y, m.Text)
		}
		if diff := cmp.Diff(want, texts(back)); diff != "" {
			t.Fatalf("read back (-want +got):\n%s\n%q", diff, out)
		}
	})
}
