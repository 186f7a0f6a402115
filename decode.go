package partner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/apierr"
)

// decode unmarshals a 2xx body into v. An empty body or invalid JSON is
// ErrUnexpectedResponse naming the endpoint.
func decode(method, path string, data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("partner: %s %s: %w: empty body where a record was expected", method, path, apierr.ErrUnexpectedResponse)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("partner: %s %s: %w: %v", method, path, apierr.ErrUnexpectedResponse, err)
	}
	return nil
}

// decodeList returns the elements of a list answer: a bare JSON array, or an
// object holding the array under one of keys (tried in order) or as its
// only array-valued field.
func decodeList(method, path string, data []byte, keys ...string) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if isArray(data) {
		return items, decode(method, path, data, &items)
	}
	var obj map[string]json.RawMessage
	if err := decode(method, path, data, &obj); err != nil {
		return nil, err
	}
	for _, k := range keys {
		if isArray(obj[k]) && json.Unmarshal(obj[k], &items) == nil {
			return items, nil
		}
	}
	n := 0
	for _, v := range obj {
		var list []json.RawMessage
		if isArray(v) && json.Unmarshal(v, &list) == nil {
			items, n = list, n+1
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("partner: %s %s: %w: no list in the answer", method, path, apierr.ErrUnexpectedResponse)
	}
	return items, nil
}

func isArray(data []byte) bool { return bytes.HasPrefix(bytes.TrimSpace(data), []byte("[")) }

// pathParam checks and escapes a path parameter: it must be non-empty and
// hold no '/', '\' or "..", so that it can only name one path segment.
func pathParam(field, v string) (string, error) {
	switch {
	case v == "":
		return "", apierr.ArgumentError(field, "is empty")
	case strings.ContainsAny(v, `/\`) || strings.Contains(v, "..") || v == ".":
		return "", apierr.ArgumentError(field, fmt.Sprintf("%q must not contain '/', '\\' or '..'", v))
	case strings.IndexFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0:
		return "", apierr.ArgumentError(field, "contains control characters")
	}
	return url.PathEscape(v), nil
}

// flexString decodes a JSON string or number as a string, so an id the
// service sends as a number still decodes. null decodes as "".
type flexString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *flexString) UnmarshalJSON(b []byte) error {
	if text, ok := plain(b); ok {
		*s = flexString(text)
		return nil
	}
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, (*string)(s))
	}
	var n json.Number // null is ""
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("expected a string or number, got %.20s", b)
	}
	*s = flexString(n)
	return nil
}

// plain returns the text of a JSON string without escapes, which needs
// no decoding: the common case, which spares a nested json.Unmarshal.
func plain(b []byte) (string, bool) {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' || bytes.IndexByte(b, '\\') >= 0 || !utf8.Valid(b) {
		return "", false
	}
	return string(b[1 : len(b)-1]), true
}

// envelope returns the object held under the first of keys in a JSON
// object (an answer such as {"project": {...}}), or nil.
func envelope(data []byte, keys ...string) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return nil
	}
	for _, k := range keys {
		if inner := bytes.TrimSpace(obj[k]); len(inner) > 0 && inner[0] == '{' {
			return inner
		}
	}
	return nil
}
