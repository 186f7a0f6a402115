package partner

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/projects"
)

// FuzzList: any answer either lists valid JSON elements or fails with
// ErrUnexpectedResponse; it never panics.
func FuzzList(f *testing.F) {
	for _, s := range []string{`[]`, `[{"id":1}]`, `{"data":[{"id":"a"}]}`, `{"a":[1],"b":[2]}`, `{"x":{}}`, `null`, ``, `[`, `{"items":"no"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := decodeList("GET", "/p", data, "data", "items")
		if err != nil {
			if !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Fatalf("error %v is not ErrUnexpectedResponse", err)
			}
			return
		}
		for _, it := range items {
			if !json.Valid(it) {
				t.Fatalf("invalid element %q", it)
			}
		}
	})
}

// FuzzPathParam: an accepted parameter escapes to one path segment.
func FuzzPathParam(f *testing.F) {
	for _, s := range []string{"p1", "a b", "a/b", "..", "%2F", "p?q#r", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		esc, err := pathParam("id", v)
		if err != nil {
			if !errors.Is(err, apierr.ErrInvalidArgument) {
				t.Fatalf("error %v is not ErrInvalidArgument", err)
			}
			return
		}
		for _, c := range []byte(esc) {
			if c == '/' || c == '?' || c == '#' || c < ' ' {
				t.Fatalf("pathParam(%q) = %q escapes its segment", v, esc)
			}
		}
		if esc == "." || esc == ".." {
			t.Fatalf("pathParam(%q) = %q", v, esc)
		}
	})
}

// FuzzPlainString: a JSON string decodes to the same text through the
// shortcut for strings without escapes (flexString, projects.Language) as
// through encoding/json.
func FuzzPlainString(f *testing.F) {
	for _, s := range []string{`"p1"`, `"a\"b"`, `"\u00e9"`, "\"\xff\"", `"pt-br"`, `""`, `12`, `"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want string
		if len(data) == 0 || data[0] != '"' || json.Unmarshal(data, &want) != nil {
			return
		}
		var got struct {
			ID   flexString
			Lang projects.Language
		}
		doc := append(append(append(append([]byte(`{"ID":`), data...), `,"Lang":`...), data...), '}')
		if err := json.Unmarshal(doc, &got); err != nil {
			t.Fatalf("%q: %v", data, err)
		}
		if string(got.ID) != want || got.Lang.Code != want {
			t.Fatalf("%q: flexString %q, Language %q, encoding/json %q", data, got.ID, got.Lang.Code, want)
		}
	})
}
