package formats_test

import (
	"errors"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// A file saved in Latin-1 (or any other encoding that is not UTF-8) is
// refused with the line and, where the format tells, the key of the
// first byte that is not UTF-8 on each line: read as it is, the byte
// would be published as U+FFFD.
func TestNotUTF8Refused(t *testing.T) {
	tests := []struct {
		name   string
		format locales.Format
		data   string
		line   int
		key    string
	}{
		{"JSON text", locales.JSON{}, "{\n  \"nav\": {\n    \"cafe\": \"Caf\xe9\"\n  }\n}\n", 3, "nav.cafe"},
		{"JSON key", locales.JSON{}, "{\n  \"ok\": \"x\",\n  \"caf\xe9\": \"y\"\n}\n", 3, "caf\ufffd"},
		{"ARB", formats.ARB{}, "{\n  \"@@locale\": \"de\",\n  \"cafe\": \"Caf\xe9\"\n}\n", 3, "cafe"},
		{"ARB metadata", formats.ARB{}, "{\n  \"cafe\": \"Cafe\",\n  \"@cafe\": {\"description\": \"Caf\xe9\"}\n}\n", 3, "@cafe"},
		{"gotext", formats.GoText{}, "{\n  \"language\": \"de\",\n  \"messages\": [\n    {\"id\": \"a\", \"translation\": \"x\"},\n    {\"id\": \"cafe\", \"translation\": \"Caf\xe9\"}\n  ]\n}\n", 5, "cafe"},
		{"xcstrings", formats.XCStrings{}, "{\n  \"sourceLanguage\": \"en\",\n  \"strings\": {\n    \"cafe\": {\"localizations\": {\"en\": {\"stringUnit\": {\"state\": \"translated\", \"value\": \"Caf\xe9\"}}}}\n  }\n}\n", 4, "cafe"},
		{"PO", formats.PO{}, "msgid \"a\"\nmsgstr \"x\"\n\n#. Caf\xe9\nmsgid \"cafe\"\nmsgstr \"\"\n\"Caf\xe9\"\n", 4, "cafe"},
		{"PO Latin-1 header", formats.PO{}, "msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"cafe\"\nmsgstr \"Caf\xe9\"\n", 5, "cafe"},
		{"Android text", formats.Android{}, "<resources>\n  <string name=\"cafe\">Caf\xe9</string>\n</resources>\n", 2, ""},
		{"Android comment", formats.Android{}, "<resources>\n  <!-- Caf\xe9 -->\n  <string name=\"cafe\">Cafe</string>\n</resources>\n", 2, ""},
		{"XLIFF comment", formats.XLIFF{}, "<xliff version=\"1.2\">\n<file source-language=\"en\"><body>\n<!-- Caf\xe9 -->\n<trans-unit id=\"a\"><source>x</source></trans-unit>\n</body></file></xliff>\n", 3, ""},
		{"XLIFF text", formats.XLIFF{}, "<xliff version=\"1.2\">\n<file source-language=\"en\"><body>\n<trans-unit id=\"a\"><source>Caf\xe9</source></trans-unit>\n</body></file></xliff>\n", 3, ""},
		{".strings", formats.AppleStrings{}, "/* Menu */\n\"a\" = \"x\";\n\"cafe\" = \"Caf\xe9\";\n", 3, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msgs, _, err := tt.format.Decode(locales.File{}, []byte(tt.data))
			var ie *locales.InputError
			if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
				t.Fatalf("read %+v, %v; want an *InputError", msgs, err)
			}
			p := ie.Problems[0]
			if p.Line != tt.line || p.Key != tt.key || !strings.Contains(p.Message, "not UTF-8") {
				t.Errorf("problems %+v; want line %d, key %q, saying not UTF-8", ie.Problems, tt.line, tt.key)
			}
			// Every format but the service's JSON writes over the old file.
			if _, ok := tt.format.(locales.JSON); !ok {
				if _, err := tt.format.Encode(locales.File{Language: "de", Old: []byte(tt.data)}, nil); !errors.As(err, &ie) {
					t.Errorf("writing over the file: %v; want an *InputError", err)
				}
			}
		})
	}
}

// A PO file that says it is Latin-1 is told how to convert it.
func TestPOInAnotherCharsetNamesIt(t *testing.T) {
	_, _, err := formats.PO{}.Decode(locales.File{}, []byte("msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=ISO-8859-1\\n\"\n\nmsgid \"cafe\"\nmsgstr \"Caf\xe9\"\n"))
	if err == nil || !strings.Contains(err.Error(), "charset=ISO-8859-1") || !strings.Contains(err.Error(), "msgconv") {
		t.Errorf("error %v; want one naming the charset and msgconv", err)
	}
}

// U+FFFD written as UTF-8 is a character like any other.
func TestReplacementCharacterInUTF8Reads(t *testing.T) {
	msgs, _, err := locales.JSON{}.Decode(locales.File{}, []byte("{\"a\": \"Caf\ufffd\"}"))
	if err != nil || len(msgs) != 1 || msgs[0].Text != "Caf\ufffd" {
		t.Errorf("read %+v, %v", msgs, err)
	}
}

// Load names the file, the line and the key, and every line at fault.
func TestLoadRefusesFileNotUTF8(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{
		"en.json": `{"cafe": "Cafe", "tea": "Tea"}`,
		"de.json": "{\n  \"cafe\": \"Caf\xe9\",\n  \"tea\": \"T\xe9e \xe9\"\n}\n",
	})
	_, err := locales.Load(dir, locales.Layout{})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("Load: %v; want an *InputError", err)
	}
	var got []string
	for _, p := range ie.Problems {
		got = append(got, p.String())
	}
	want := []string{
		`de.json:2: key "cafe": byte 0xE9 (column 15) is not UTF-8; save the file as UTF-8`,
		`de.json:3: key "tea": byte 0xE9 (column 12) is not UTF-8; save the file as UTF-8`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A file in another encoding is not a problem per line without end.
func TestNotUTF8ProblemsBounded(t *testing.T) {
	data := "{\n" + strings.Repeat("\"k\xe9\": \"v\",\n", 10000) + "\"z\": \"v\"}\n"
	_, _, err := locales.JSON{}.Decode(locales.File{}, []byte(data))
	var ie *locales.InputError
	if !errors.As(err, &ie) || len(ie.Problems) > 101 || !strings.Contains(ie.Problems[len(ie.Problems)-1].Message, "more lines") {
		t.Fatalf("%d problems, %v", len(ie.Problems), err)
	}
}
