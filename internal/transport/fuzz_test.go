package transport

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
)

// FuzzList: any answer either lists valid JSON elements or fails with
// ErrUnexpectedResponse; it never panics.
func FuzzList(f *testing.F) {
	for _, s := range []string{`[]`, `[{"id":1}]`, `{"data":[{"id":"a"}]}`, `{"a":[1],"b":[2]}`, `{"x":{}}`, `null`, ``, `[`, `{"items":"no"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := List("GET", "/p", data, "data", "items")
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

type fuzzRecord struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type fuzzLoose struct {
	ID   FlexString `json:"id"`
	Name string     `json:"name"`
}

// FuzzTolerant: the fast and the loose decoder agree with encoding/json
// about what is valid, and never panic.
func FuzzTolerant(f *testing.F) {
	for _, s := range []string{`{"id":"a","name":"n"}`, `{"id":12,"name":"n"}`, `{"id":null}`, `{"id":true}`, `{}`, ` `, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var fast fuzzRecord
		_, err := Tolerant[fuzzLoose]("GET", "/p", data, &fast)
		if err != nil && !errors.Is(err, apierr.ErrUnexpectedResponse) {
			t.Fatalf("error %v is not ErrUnexpectedResponse", err)
		}
		if err == nil && !json.Valid(data) {
			t.Fatalf("accepted invalid JSON %q", data)
		}
	})
}

// FuzzRetryAfter: any header value gives a delay between 0 and a day, or
// none.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "7", "-1", "99999999999999999999", "Sat, 01 Jan 2000 00:00:09 GMT", "soon", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := RetryAfter(v)
		if !ok {
			return
		}
		if d < 0 || d > 24*time.Hour && !isDate(v) {
			t.Fatalf("RetryAfter(%q) = %v", v, d)
		}
	})
}

func isDate(v string) bool {
	_, err := time.Parse(time.RFC1123, v)
	return err == nil
}

// FuzzPathParam: an accepted parameter escapes to one path segment.
func FuzzPathParam(f *testing.F) {
	for _, s := range []string{"p1", "a b", "a/b", "..", "%2F", "p?q#r", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		esc, err := PathParam("id", v)
		if err != nil {
			if !errors.Is(err, apierr.ErrInvalidArgument) {
				t.Fatalf("error %v is not ErrInvalidArgument", err)
			}
			return
		}
		for _, c := range []byte(esc) {
			if c == '/' || c == '?' || c == '#' || c < ' ' {
				t.Fatalf("PathParam(%q) = %q escapes its segment", v, esc)
			}
		}
		if esc == "." || esc == ".." {
			t.Fatalf("PathParam(%q) = %q", v, esc)
		}
	})
}
