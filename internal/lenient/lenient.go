// Package lenient holds the JSON types that decode the tools' answers
// forgivingly: each takes the shapes the servers are seen to send for one
// field and never fails, so one odd value does not lose the rest of an
// answer. Packages keys, translations and content use them in their
// UnmarshalJSON methods.
package lenient

import (
	"bytes"
	"cmp"
	"encoding/json"
	"time"
)

// Get decodes the member name of the JSON object b into a T, leniently:
// a missing member, or one of another type, leaves T zero.
func Get[T any](b []byte, name string) T {
	var m map[string]json.RawMessage
	var v T
	if json.Unmarshal(b, &m) == nil && m[name] != nil {
		_ = json.Unmarshal(m[name], &v)
	}
	return v
}

// Strings decodes a list of strings; elements that are objects are taken
// by their id, keyId, k, name, nm, message or msg field, or else kept as
// JSON text.
type Strings []string

// UnmarshalJSON never fails; anything but a list leaves s as it is.
func (s *Strings) UnmarshalJSON(b []byte) error {
	var items []json.RawMessage
	if json.Unmarshal(b, &items) != nil {
		return nil
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		var str string
		if json.Unmarshal(it, &str) == nil {
			out = append(out, str)
			continue
		}
		var o struct{ ID, KeyID, K, Name, Nm, Message, Msg string } // keys match case-insensitively
		if json.Unmarshal(it, &o) == nil {
			if v := cmp.Or(o.ID, o.KeyID, o.K, o.Name, o.Nm, o.Message, o.Msg); v != "" {
				out = append(out, v)
				continue
			}
		}
		out = append(out, string(bytes.TrimSpace(it)))
	}
	*s = out
	return nil
}

// Time decodes an RFC 3339 string or Unix milliseconds; anything else
// (null, another format) leaves it zero.
type Time struct{ time.Time }

// UnmarshalJSON never fails.
func (t *Time) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		if v, err := time.Parse(time.RFC3339Nano, s); err == nil {
			t.Time = v
		}
		return nil
	}
	var ms int64
	if json.Unmarshal(b, &ms) == nil {
		t.Time = time.UnixMilli(ms).UTC()
	}
	return nil
}

// Count decodes a count sent as a number, or as the list it counts.
type Count int

// UnmarshalJSON never fails.
func (c *Count) UnmarshalJSON(b []byte) error {
	var n int
	if json.Unmarshal(b, &n) == nil {
		*c = Count(n)
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(b, &items) == nil {
		*c = Count(len(items))
	}
	return nil
}

// Text decodes a string, or keeps any other JSON value as its compact
// text; null leaves it empty.
type Text string

// UnmarshalJSON never fails.
func (t *Text) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = Text(s)
		return nil
	}
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var c bytes.Buffer
	if json.Compact(&c, b) == nil {
		*t = Text(c.String())
	}
	return nil
}

// Present returns raw, or nil when it is absent or null.
func Present(raw json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	return raw
}
