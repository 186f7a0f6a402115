package locales_test

import (
	"errors"
	"github.com/locsvc/partner-go/translations"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
)

func TestJSONDecode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []locales.Message
		kf   translations.KeyFormat
	}{
		{"nested", "{\n  \"nav\": {\n    \"home\": \"Home\"\n  },\n  \"title\": \"Hi\"\n}\n",
			[]locales.Message{{Key: "nav.home", Text: "Home", Line: 3}, {Key: "title", Text: "Hi", Line: 5}}, translations.Nested},
		{"flat", "{\"nav.home\": \"Home\", \"title\": \"Hi\"}",
			[]locales.Message{{Key: "nav.home", Text: "Home", Line: 1}, {Key: "title", Text: "Hi", Line: 1}}, translations.Flat},
		{"neither", `{"title": "Hi"}`, []locales.Message{{Key: "title", Text: "Hi", Line: 1}}, ""},
		{"empty object passed over", `{"a": {}, "b": "x"}`, []locales.Message{{Key: "b", Text: "x", Line: 1}}, translations.Nested},
		{"text kept as is", `{"a": "<b>é</b> \"q\"\n"}`, []locales.Message{{Key: "a", Text: "<b>é</b> \"q\"\n", Line: 1}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, file, err := locales.JSON{}.Decode(locales.File{}, []byte(tt.in))
			kf := file.Keys
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if kf != tt.kf {
				t.Errorf("key format %q, want %q", kf, tt.kf)
			}
		})
	}
}

// Each bad file is refused with the line and key of each problem.
func TestJSONDecodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []locales.Problem // Message checked by substring
	}{
		{"duplicate member", "{\n\"a\": \"x\",\n\"a\": \"y\"\n}", []locales.Problem{{Line: 3, Key: "a", Message: "duplicate key"}}},
		{"duplicate object member", "{\"a\": {\"b\": \"x\"},\n\"a\": {\"c\": \"y\"}}", []locales.Problem{{Line: 2, Key: "a", Message: "duplicate key"}}},
		{"duplicate once joined", "{\"a\": {\"b\": \"x\"},\n\"a.b\": \"y\"}", []locales.Problem{{Line: 2, Key: "a.b", Message: "also on line 1"}}},
		{"empty key", "{\"\": \"x\"}", []locales.Problem{{Line: 1, Message: "empty key"}}},
		{"empty level", "{\"a\": {\"\": \"x\"}, \"b..c\": \"y\"}", []locales.Problem{{Line: 1, Key: "a.", Message: "empty level"}, {Line: 1, Key: "b..c", Message: "empty level"}}},
		{"number", "{\n\"n\": 1}", []locales.Problem{{Line: 2, Key: "n", Message: "is a number"}}},
		{"array", "{\"n\": [\"a\", {\"b\": 1}]}", []locales.Problem{{Line: 1, Key: "n", Message: "is an array"}}},
		{"not an object", "[1]", []locales.Problem{{Line: 1, Message: "an array; want a JSON object"}}},
		{"malformed", "{\n\"a\": \"x\",\n\"b\" \"y\"}", []locales.Problem{{Line: 3, Key: "b", Message: "malformed JSON"}}},
		{"cut short", "{\"a\": {\"b\": \"x\"", []locales.Problem{{Line: 1, Key: "a", Message: "ends early"}}},
		{"trailing", "{}\n{}", []locales.Problem{{Line: 2, Message: "more JSON"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := locales.JSON{}.Decode(locales.File{}, []byte(tt.in))
			var ie *locales.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			if !errors.Is(err, partner.ErrInvalidArgument) {
				t.Errorf("errors.Is(err, ErrInvalidArgument) = false")
			}
			if len(ie.Problems) != len(tt.want) {
				t.Fatalf("problems %v, want %d", ie.Problems, len(tt.want))
			}
			for i, w := range tt.want {
				g := ie.Problems[i]
				if g.Line != w.Line || g.Key != w.Key || !strings.Contains(g.Message, w.Message) {
					t.Errorf("problem %d = %+v, want line %d key %q message with %q", i, g, w.Line, w.Key, w.Message)
				}
			}
		})
	}
}

func TestJSONEncode(t *testing.T) {
	msgs := []locales.Message{{Key: "nav.home", Text: "Home"}, {Key: "a-b", Text: "<&>"}, {Key: "nav.about", Text: "é\n\u2028"}, {Key: "a", Text: "A"}}
	nested := "{\n  \"a\": \"A\",\n  \"a-b\": \"<&>\",\n  \"nav\": {\n    \"about\": \"é\\n\\u2028\",\n    \"home\": \"Home\"\n  }\n}\n"
	flat := "{\n  \"a\": \"A\",\n  \"a-b\": \"<&>\",\n  \"nav.about\": \"é\\n\\u2028\",\n  \"nav.home\": \"Home\"\n}\n"
	for kf, want := range map[translations.KeyFormat]string{translations.Nested: nested, translations.Flat: flat} {
		got, err := locales.JSON{}.Encode(locales.File{Keys: kf}, msgs)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("%s:\n%s\nwant\n%s", kf, got, want)
		}
		back, _, err := locales.JSON{}.Decode(locales.File{}, got)
		if err != nil {
			t.Fatal(err)
		}
		again, _ := locales.JSON{}.Encode(locales.File{Keys: kf}, back)
		if string(again) != want {
			t.Errorf("%s: a second write differs:\n%s", kf, again)
		}
	}
	// "a.b" sorts after "a-b" as a key, but nested "a" sorts before.
	got, _ := locales.JSON{}.Encode(locales.File{Keys: translations.Nested}, []locales.Message{{Key: "a.b", Text: "1"}, {Key: "a-b", Text: "2"}})
	if want := "{\n  \"a\": {\n    \"b\": \"1\"\n  },\n  \"a-b\": \"2\"\n}\n"; string(got) != want {
		t.Errorf("nested order:\n%s\nwant\n%s", got, want)
	}
	if _, err := (locales.JSON{}).Encode(locales.File{Keys: translations.Nested}, []locales.Message{{Key: "a", Text: "1"}, {Key: "a.b", Text: "2"}}); err == nil {
		t.Error("a text that is also a parent encoded nested without an error")
	}
	if got, _ := (locales.JSON{}).Encode(locales.File{Keys: translations.Nested}, nil); string(got) != "{}\n" {
		t.Errorf("no messages: %q", got)
	}
}

// FuzzJSONDecode: the reader never panics; what it reads, the writer
// writes, and reading that gives the same messages.
func FuzzJSONDecode(f *testing.F) {
	for _, s := range []string{`{"a":{"b":"x"},"c":"y"}`, `{"a.b":"x"}`, `{"a":"x","a":"y"}`, `{"":1}`, `[`, `{"a":{"b":{"c":["d"]}}}`, "{\"\\u2028\":\"\\ud800\"}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs, _, err := locales.JSON{}.Decode(locales.File{}, data)
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) || len(ie.Problems) == 0 {
				t.Fatalf("error %v is not an *InputError with problems", err)
			}
			return
		}
		for _, kf := range []translations.KeyFormat{translations.Flat, translations.Nested} {
			out, err := locales.JSON{}.Encode(locales.File{Keys: kf}, msgs)
			if err != nil {
				continue // a text and a parent cannot be nested
			}
			back, _, err := locales.JSON{}.Decode(locales.File{}, out)
			if err != nil {
				t.Fatalf("reading what was written (%s): %v\n%s", kf, err, out)
			}
			if len(back) != len(msgs) {
				t.Fatalf("%s: %d messages written, %d read back", kf, len(msgs), len(back))
			}
			got := map[string]string{}
			for _, m := range back {
				got[m.Key] = m.Text
			}
			for _, m := range msgs {
				if want := strings.ToValidUTF8(m.Text, "\uFFFD"); got[m.Key] != want && got[m.Key] != m.Text {
					t.Fatalf("%s: key %q reads back %q, want %q", kf, m.Key, got[m.Key], m.Text)
				}
			}
		}
	})
}
