package input

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReadJSONObject: on any input ReadJSONObject returns; on a JSON
// object it reads every member and value as json.Unmarshal does, in
// the document's order and at their places, and on anything else it
// says what is wrong.
func FuzzReadJSONObject(f *testing.F) {
	for _, s := range []string{
		`{"a":{"b":"x"},"c":"y"}`, "{\n  \"a\" : \"\\u00e9\\\"\",\n\t\"b\":[1,{\"c\":[]}],\"d\":null,\"e\":-1.5e3,\"f\":true}\n",
		`{"a":"x","a":"y"}`, `{"\\":"\\\\"}`, `[1]`, `{"a":1}{}`, `{"a": "x"`, `{"a":"\ud800"}`, "{\"a\":\"\xff\"}",
		`{"a":{"b":{"c":{}}}}`, `{"a":0000}`, `{"a" "b"}`, ` `, `{} x`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const depth = 3
		o, err := ReadJSONObject(data, depth)
		var v any
		jsonErr := json.Unmarshal(data, &v)
		if err != nil {
			if _, ok := err.(*JSONError); !ok {
				t.Fatalf("error %T %v is not a *JSONError", err, err)
			}
			if _, isObject := v.(map[string]any); jsonErr == nil && isObject && objectDepth(v) <= depth {
				t.Fatalf("%q: %v; encoding/json reads it", data, err)
			}
			return
		}
		if jsonErr != nil {
			t.Fatalf("%q reads; encoding/json: %v", data, jsonErr)
		}
		checkObject(t, data, o, v)
	})
}

// objectDepth returns how deep objects nest in v, outside arrays: 0 for
// an object of strings.
func objectDepth(v any) int {
	o, ok := v.(map[string]any)
	if !ok {
		return -1
	}
	d := 0
	for _, m := range o {
		d = max(d, objectDepth(m)+1)
	}
	return d
}

func checkObject(t *testing.T, data []byte, o *JSONObject, v any) {
	t.Helper()
	want, ok := v.(map[string]any)
	if !ok || o.Cut || data[o.Open] != '{' || data[o.Close] != '}' {
		t.Fatalf("%q: object at %d-%d (cut %v) for %v", data, o.Open, o.Close, o.Cut, v)
	}
	got := map[string]*JSONMember{}
	for _, m := range o.Members {
		got[m.Name] = m // the last one, as json.Unmarshal keeps it
		var name string
		if err := json.Unmarshal(data[m.NameStart:m.ValueStart-len(m.Colon)], &name); err != nil || name != m.Name {
			t.Fatalf("%q: name %q at %d reads as %q (%v)", data, m.Name, m.NameStart, name, err)
		}
		if strings.Trim(m.Lead, " \t\r\n") != "" || strings.Trim(m.Colon, " \t\r\n") != ":" {
			t.Fatalf("%q: member %q: lead %q, colon %q", data, m.Name, m.Lead, m.Colon)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%q: %d names, want %d", data, len(got), len(want))
	}
	for name, w := range want {
		m := got[name]
		if m == nil || m.Cut {
			t.Fatalf("%q: member %q missing or cut", data, name)
		}
		var span any
		if err := json.Unmarshal(data[m.ValueStart:m.ValueEnd], &span); err != nil || !cmp.Equal(span, w) {
			t.Fatalf("%q: %q's value %q reads %v (%v), want %v", data, name, data[m.ValueStart:m.ValueEnd], span, err, w)
		}
		switch tok := m.Value.(type) {
		case json.Delim:
			if tok == '{' {
				checkObject(t, data, m.Object, w)
			}
		case json.Number:
			if n, ok := w.(float64); !ok || string(tok) != string(data[m.ValueStart:m.ValueEnd]) || n != mustFloat(tok) {
				t.Fatalf("%q: %q is %v, want %v", data, name, tok, w)
			}
		case string:
			if got, ok := JSONString(data[m.ValueStart:m.ValueEnd]); !ok || got != tok || got != w {
				t.Fatalf("%q: %q is %q, JSONString %q (%v), want %q", data, name, tok, got, ok, w)
			}
		default:
			if !cmp.Equal(tok, w) {
				t.Fatalf("%q: %q is %#v, want %#v", data, name, tok, w)
			}
		}
	}
}

func mustFloat(n json.Number) float64 {
	f, _ := n.Float64()
	return f
}
