package formats_test

import (
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"runtime"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

func inputProblems(t *testing.T, err error) []locales.Problem {
	t.Helper()
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v; want an *InputError", err)
	}
	return ie.Problems
}

// Each key's line is the line of its definition (the last, for a key
// written twice, as its text is the last), whatever keys begin alike,
// escapes and continued lines.
func TestPropertiesKeyLines(t *testing.T) {
	data := "ab = 1\n" + // 1
		"a = 2\n" + // 2
		"# a = 3\n" + // 3
		"  key\\ with\\:escapes = x\n" + // 4
		"multi = one \\\n" + // 5
		"  a = two\n" + // 6
		"caf\\u00e9 = 3\n" + // 7
		"\n" + // 8
		"ab = 4\n" // 9
	msgs, _, err := formats.Properties{}.Decode(locales.File{}, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range msgs {
		got[m.Key] = m.Line
	}
	want := map[string]int{"ab": 9, "a": 2, "key with:escapes": 4, "multi": 5, "café": 7}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lines %v; want %v", got, want)
	}
}

// Reading a .properties file allocates in proportion to the file: ten
// times the keys, about ten times the bytes (reading each key's line
// from the top made it a hundred).
func TestPropertiesReadIsLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		data := benchProperties(n)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, _, err := (formats.Properties{}).Decode(locales.File{}, data); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(1000), allocated(10000)
	if ratio := float64(large) / float64(small); ratio > 20 {
		t.Errorf("10,000 keys allocate %.0f times what 1,000 do (%d and %d bytes); want about 10", ratio, large, small)
	}
}

// A UTF-8 byte order mark is not part of the first key, and a file
// written over comes back with it, byte for byte.
func TestPropertiesUTF8BOM(t *testing.T) {
	data := []byte("\ufeff# Grüße\ngreeting = Hallo\nbye = Tschüss\n")
	msgs, _, err := formats.Properties{}.Decode(locales.File{}, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Key != "greeting" || msgs[0].Line != 2 {
		t.Fatalf("read %+v; want greeting on line 2 and bye", msgs)
	}
	out, err := formats.Properties{}.Encode(locales.File{Language: "de", Old: data, Keys: translations.Flat}, msgs)
	if err != nil || string(out) != string(data) {
		t.Fatalf("written back %q, %v; want %q", out, err, data)
	}
	msgs = append(msgs, locales.Message{Key: "new", Text: "Neu"})
	out, err = formats.Properties{}.Encode(locales.File{Language: "de", Old: data, Keys: translations.Flat}, msgs)
	if err != nil || !strings.HasPrefix(string(out), "\ufeff# Grüße\n") || strings.Count(string(out), "\ufeff") != 1 {
		t.Fatalf("with a new key %q, %v; want the mark once, first", out, err)
	}
}

// Java reads a .properties file as UTF-8 or ISO-8859-1, never UTF-16:
// a UTF-16 file, with a byte order mark or without (its NULs read as
// keys), is refused, as is a NUL anywhere, with its line; a byte order
// mark before bytes that are not UTF-8 is a contradiction, refused.
func TestPropertiesRefusesUTF16AndNUL(t *testing.T) {
	utf16 := func(s string, big bool) string {
		var b strings.Builder
		for _, c := range []byte(s) {
			if big {
				b.WriteByte(0)
			}
			b.WriteByte(c)
			if !big {
				b.WriteByte(0)
			}
		}
		return b.String()
	}
	for name, tt := range map[string]struct {
		data string
		line int
		msg  string
	}{
		"UTF-16LE with mark": {"\xff\xfe" + utf16("greeting=Hallo\n", false), 1, "UTF-16"},
		"UTF-16BE with mark": {"\xfe\xff" + utf16("greeting=Hallo\n", true), 1, "UTF-16"},
		"UTF-16LE":           {utf16("greeting=Hallo\n", false), 1, "NUL"},
		"UTF-16BE":           {utf16("greeting=Hallo\n", true), 1, "NUL"},
		"NUL in a text":      {"a=b\nc=d\x00e\n", 2, "NUL"},
		"mark, then Latin-1": {"\ufeffa=b\nc=Caf\xe9\n", 2, "not UTF-8"},
	} {
		t.Run(name, func(t *testing.T) {
			msgs, _, err := formats.Properties{}.Decode(locales.File{}, []byte(tt.data))
			if err == nil {
				t.Fatalf("read %+v; want an error", msgs)
			}
			ps := inputProblems(t, err)
			if len(ps) != 1 || ps[0].Line != tt.line || !strings.Contains(ps[0].Message, tt.msg) {
				t.Errorf("problems %+v; want one on line %d saying %q", ps, tt.line, tt.msg)
			}
			if _, err := (formats.Properties{}).Encode(locales.File{Old: []byte(tt.data), Keys: translations.Flat}, nil); err == nil {
				t.Error("written over; want the same error")
			}
		})
	}
}

// A file that is not UTF-8 is ISO-8859-1, as documented (older Java),
// and is written back so.
func TestPropertiesLatin1(t *testing.T) {
	data := []byte("caf\xe9 = Caf\xe9\n")
	msgs, _, err := formats.Properties{}.Decode(locales.File{}, data)
	if err != nil || len(msgs) != 1 || msgs[0].Key != "café" || msgs[0].Text != "Café" {
		t.Fatalf("read %+v, %v", msgs, err)
	}
	out, err := formats.Properties{}.Encode(locales.File{Old: data, Keys: translations.Flat}, msgs)
	if err != nil || string(out) != string(data) {
		t.Fatalf("written back %q, %v; want %q", out, err, data)
	}
}

// go.yaml.in/yaml/v3 refuses bytes that are not UTF-8 (YAML is
// Unicode): the file is refused with its line, nothing read as U+FFFD.
func TestYAMLRefusesNotUTF8(t *testing.T) {
	for _, data := range []string{
		"de:\n  a: x\n  cafe: Caf\xe9\n",
		"de:\n  a: x\n  # Caf\xe9\n  b: y\n",
		"de:\n  a: x\n  caf\xe9: y\n",
	} {
		msgs, _, err := formats.YAML{Rails: true}.Decode(locales.File{Language: "de"}, []byte(data))
		if err == nil {
			t.Errorf("%q: read %+v; want an error", data, msgs)
			continue
		}
		ps := inputProblems(t, err)
		if ps[0].Line != 3 {
			t.Errorf("%q: problems %+v; want line 3", data, ps)
		}
	}
}
