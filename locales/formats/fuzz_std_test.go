package formats_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// fuzzFormat checks a reader on any input: it fails only with an
// *InputError; what it reads, written over the input and as a new file,
// reads back as the same texts.
func fuzzFormat(f *testing.F, format locales.Format, seeds ...string) {
	for _, c := range formatCases {
		if c.format.Ext() == format.Ext() {
			data, err := filepathRead(c.fixture)
			if err == nil {
				f.Add(data)
			}
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := locales.File{Language: "de", SourceLanguage: "en"}
		msgs, _, err := format.Decode(file, data)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) || len(ie.Problems) == 0 {
				t.Fatalf("error %v is not an *InputError with problems", err)
			}
			return
		}
		file.Source = msgs
		for _, old := range [][]byte{data, nil} {
			file.Old = old
			out, err := format.Encode(file, msgs)
			if err != nil {
				var ie *locales.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("writing: %v", err)
				}
				return // a text this format cannot write, refused
			}
			back, _, err := format.Decode(file, out)
			if err != nil {
				t.Fatalf("reading what was written: %v\n%q", err, out)
			}
			if diff := cmp.Diff(texts(msgs), texts(back)); diff != "" {
				t.Fatalf("read back (-read +again):\n%s\n%q", diff, out)
			}
		}
	})
}

func filepathRead(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("testdata", "formats", name))
}

func FuzzARB(f *testing.F) {
	fuzzFormat(f, formats.ARB{}, `{"a":"x","@a":{"description":"d"},"@@locale":"de"}`, `{"a":1}`, `{"@a":"x"}`)
}

func FuzzAndroid(f *testing.F) {
	fuzzFormat(f, formats.Android{}, `<resources><string name="a">x</string><plurals name="p"><item quantity="other">y</item></plurals></resources>`,
		`<resources><string-array name="a"><item>x</item></string-array><!-- c --></resources>`, `<resources><string name="a"/></resources>`)
}

func FuzzAppleStrings(f *testing.F) {
	fuzzFormat(f, formats.AppleStrings{}, `"a" = "b\U00e9\n";`, "/* c */\na = b;\n", `"a" = "\UD83D\UDE00";`)
}

func FuzzPO(f *testing.F) {
	fuzzFormat(f, formats.PO{}, "msgid \"a\"\nmsgstr \"b\"\n", "msgctxt \"c\"\nmsgid \"a\"\nmsgstr \"\\x41\\101\"\n",
		"msgid \"\"\nmsgstr \"Plural-Forms: nplurals=2; plural=(n > 1);\\n\"\n\nmsgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"x\"\nmsgstr[1] \"y\"\n")
}

func FuzzGoText(f *testing.F) {
	fuzzFormat(f, formats.GoText{}, `{"language":"de","messages":[{"id":"a","message":"a","translation":"b"}]}`,
		`{"language":"de","messages":[{"id":["a"],"message":"a","translation":{"select":{"feature":"plural","arg":"N","cases":{"=0":"none","other":{"msg":"{N}"}}}}}]}`)
}

func FuzzXLIFF(f *testing.F) {
	fuzzFormat(f, formats.XLIFF{}, `<xliff version="1.2"><file target-language="de"><body><trans-unit id="a"><source>x</source><target>y</target></trans-unit></body></file></xliff>`,
		`<xliff version="2.0" srcLang="en"><file id="f"><unit id="a"><segment><source>x &amp; <ph id="1"/></source></segment></unit></file></xliff>`)
}

func FuzzXCStrings(f *testing.F) {
	if data, err := filepathRead("Localizable.xcstrings"); err == nil {
		f.Add(data)
	}
	f.Add([]byte(`{"sourceLanguage":"en","strings":{"a":{},"b":{"localizations":{"de":{"stringUnit":{"state":"new","value":"x"}}}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {

		source, all, err := decodeAll(data)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) || len(ie.Problems) == 0 {
				t.Fatalf("error %v is not an *InputError with problems", err)
			}
			return
		}
		for _, old := range [][]byte{data, nil} {
			out, err := encodeAll(old, source, all)
			if err != nil {
				var ie *locales.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("writing: %v", err)
				}
				return
			}
			_, back, err := decodeAll(out)
			if err != nil {
				t.Fatalf("reading what was written: %v\n%s", err, out)
			}
			for lang, msgs := range all {
				if diff := cmp.Diff(texts(msgs), texts(back[lang])); diff != "" {
					t.Fatalf("%s read back (-read +again):\n%s\n%s", lang, diff, out)
				}
			}
		}
	})
}
