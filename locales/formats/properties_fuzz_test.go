package formats_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// Written over itself with the texts it holds, a file comes back byte
// for byte; with texts changed and a key added, it reads back as them.
func FuzzPropertiesOverOld(f *testing.F) {
	for _, s := range []string{
		"a=b\n! c\nd : e\\\n  f\n", "k=\\u00e9${x}\n", "a b\r\nc\\\r\n d\r\n", "caf\xe9=\xe9\n", "\ufeffa=\\\n",
		"k\\\nx=y", "a\\ b\\:c=d\\u00e9\\t", "# c\n\n  x  =  y  \n",
	} {
		f.Add([]byte(s), "x")
	}
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		text = strings.ToValidUTF8(text, "?") // the service's texts are UTF-8
		file := locales.File{Language: "de", Keys: translations.Flat}
		msgs, _, err := formats.Properties{}.Decode(file, data)
		if err != nil {
			return
		}
		file.Old = data
		out, err := formats.Properties{}.Encode(file, msgs)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("writing: %v", err)
			}
			return
		}
		if string(out) != string(data) {
			t.Fatalf("written over with its own texts:\n%q\nwant\n%q", out, data)
		}
		want := texts(msgs)
		for i, m := range msgs {
			if i%2 == 0 {
				want[m.Key] = m.Text + text
			}
		}
		want["new."+text] = text
		changed := sortedMessages(want)
		out, err = formats.Properties{}.Encode(file, changed)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("writing: %v", err)
			}
			return
		}
		back, _, err := formats.Properties{}.Decode(file, out)
		if err != nil {
			t.Fatalf("reading what was written: %v\n%q", err, out)
		}
		if diff := cmp.Diff(want, texts(back)); diff != "" {
			t.Fatalf("read back (-want +got):\n%s\n%q", diff, out)
		}
	})
}
