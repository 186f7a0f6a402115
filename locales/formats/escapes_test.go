package formats_test

import (
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// The same text read from an Android file and from an Apple .strings
// file is the same string: each format's escapes are its own, and the
// service sees what a translator reads.
func TestAndroidAndAppleReadTheSameText(t *testing.T) {
	for _, c := range []struct{ want, android, apple string }{
		{`Can't say "hi"`, `Can\'t say \"hi\"`, `Can't say \"hi\"`},
		{"Line 1\nLine 2\tTab", `Line 1\nLine 2\tTab`, `Line 1\nLine 2\tTab`},
		{`Tom & Jerry <3`, `Tom &amp; Jerry &lt;3`, `Tom & Jerry <3`},
		{`@home? \ done`, `\@home? \\ done`, `@home? \\ done`},
		{`?`, `\?`, `?`},
		{"  two  spaces ", `"  two  spaces "`, `  two  spaces `},
		{"It's “quoted”", `"It's “quoted”"`, `It's “quoted”`},
		{"x² ñ", `x\u00B2 ñ`, `x\U00B2 \U00f1`},
		{"wrapped text", "wrapped\n        text", `wrapped text`},
	} {
		a := `<resources><string name="k">` + c.android + `</string></resources>`
		am, _, err := formats.Android{}.Decode(locales.File{}, []byte(a))
		if err != nil {
			t.Fatal(err)
		}
		s := `"k" = "` + c.apple + `";`
		sm, _, err := formats.AppleStrings{}.Decode(locales.File{}, []byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if am[0].Text != c.want || sm[0].Text != c.want {
			t.Errorf("Android %q read %q, Apple %q read %q; want %q", c.android, am[0].Text, c.apple, sm[0].Text, c.want)
		}
	}
}

// A text is written with the format's escapes and reads back as it
// was, whatever it holds.
func TestEscapedTextsRoundTrip(t *testing.T) {
	texts := []string{`Can't say "hi"`, "a\nb\tc\\d", "@ref", "?attr", "Tom & Jerry <3 >", "  lead", "trail ", "a  b",
		`<b>bold</b> & <i>it's</i>`, `<xliff:g id="n" example="&quot;x&quot;">%1$s</xliff:g>`, "<b>not closed", "]]>", "\x01", "😀 ü"}
	for _, format := range []locales.Format{formats.Android{}, formats.AppleStrings{}} {
		for _, text := range texts {
			out, err := format.Encode(locales.File{Language: "de"}, []locales.Message{{Key: "k", Text: text}})
			if err != nil {
				t.Fatalf("%T %q: %v", format, text, err)
			}
			back, _, err := format.Decode(locales.File{Language: "de"}, out)
			if err != nil || len(back) != 1 || back[0].Text != text {
				t.Errorf("%T %q read back as %v (%v):\n%s", format, text, back, err, out)
			}
		}
	}
	out, _ := formats.Android{}.Encode(locales.File{}, []locales.Message{{Key: "k", Text: `@It's "x" & y`}})
	if !strings.Contains(string(out), `>\@It\'s \"x\" &amp; y</string>`) {
		t.Errorf("Android escapes:\n%s", out)
	}
}
