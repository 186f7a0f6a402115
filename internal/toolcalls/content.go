package toolcalls

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/apierr"
)

var (
	modelSlugRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	fieldNameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
)

func required(field, s string) error {
	if s == "" {
		return apierr.ArgumentError(field, "is empty")
	}
	return nil
}

func maxLen(field, s string, n int) error {
	if l := utf8.RuneCountInString(s); l > n {
		return apierr.ArgumentError(field, fmt.Sprintf("has %d characters; at most %d", l, n))
	}
	return nil
}

// pattern checks a required slug or name: 1 to n characters matching re.
func pattern(field, s string, n int, re *regexp.Regexp, want string) error {
	if err := cmp.Or(required(field, s), maxLen(field, s, n)); err != nil {
		return err
	}
	if !re.MatchString(s) {
		return apierr.ArgumentError(field, fmt.Sprintf("%s is not %s", apierr.Quote(s), want))
	}
	return nil
}

func oneOf[T ~string](field string, v T, want string, ok ...T) error {
	if slices.Contains(ok, v) {
		return nil
	}
	return apierr.ArgumentError(field, fmt.Sprintf("%s is not %s", apierr.Quote(string(v)), want))
}

// batch checks a batch's size: 1 to most items, refused (not split)
// beyond.
func batch(field string, n, most int, what string) error {
	switch {
	case n == 0:
		return apierr.ArgumentError(field, fmt.Sprintf("is empty; want 1 to %d %s", most, what))
	case n > most:
		return apierr.ArgumentError(field, fmt.Sprintf("has %d %s; at most %d per call", n, what, most))
	}
	return nil
}

// checkValues checks custom field values: named, and each encodes to
// JSON (the request would fail later, less clearly, otherwise).
func checkValues(field string, m map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(m)) { // the same error every time
		v := m[name]
		if name == "" {
			return apierr.ArgumentError(field, "has a field with an empty name")
		}
		if _, err := json.Marshal(v); err != nil {
			return apierr.ArgumentError(fmt.Sprintf("%s[%q]", field, name), fmt.Sprintf("does not encode to JSON: %v", err))
		}
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// trueOrNil sends a flag only when it is set.
func trueOrNil(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

// confirm calls a tool that only confirms ({deleted: true, ok: true} and
// the like); an explicit ok: false is an unexpected answer, not a success.
func confirm(ctx context.Context, c Caller, tool string, args any) error {
	var w struct{ OK *bool }
	if _, err := call(ctx, c, tool, args, &w); err != nil {
		return err
	}
	if w.OK != nil && !*w.OK {
		return fmt.Errorf("partner: tool %s: %w: the result says ok: false", tool, apierr.ErrUnexpectedResponse)
	}
	return nil
}

// written is the answer of the tools that write one entry, model or
// field: the record written, and a warning.
type written struct {
	Entry, Model, Field json.RawMessage
	Warn                flexText
}

// write calls a tool that answers with the record it wrote, the member
// what ("entry", "model" or "field"), and decodes that with from; an
// answer without it is unexpected. It returns the answer's warning too.
func write[T any](ctx context.Context, c Caller, tool string, args any, what string, from func(string, json.RawMessage) T) (*T, string, error) {
	var w written
	if _, err := call(ctx, c, tool, args, &w); err != nil {
		return nil, "", err
	}
	raw := map[string]json.RawMessage{"entry": w.Entry, "model": w.Model, "field": w.Field}[what]
	if !isObject(raw) {
		return nil, "", fmt.Errorf("partner: tool %s: %w: the result has no %s", tool, apierr.ErrUnexpectedResponse, what)
	}
	v := from(tool, raw)
	return &v, string(w.Warn), nil
}

func isObject(raw json.RawMessage) bool {
	t := bytes.TrimLeft(raw, " \t\r\n")
	return len(t) > 0 && t[0] == '{'
}

// flexText decodes a string, or keeps any other JSON value as its
// compact text; null leaves it empty. It never fails.
type flexText string

func (f *flexText) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*f = flexText(s)
		return nil
	}
	b = bytes.TrimSpace(b)
	if string(b) == "null" {
		return nil
	}
	var c bytes.Buffer
	if json.Compact(&c, b) == nil {
		*f = flexText(c.String())
	}
	return nil
}

// errText decodes an item's error: a string, or an object's message
// (message, msg or error), or else the JSON text. It never fails.
type errText string

func (e *errText) UnmarshalJSON(b []byte) error {
	var o struct{ Message, Msg, Error string }
	if json.Unmarshal(b, &o) != nil {
		o = struct{ Message, Msg, Error string }{}
	}
	var t flexText
	_ = t.UnmarshalJSON(b)
	*e = errText(cmp.Or(o.Message, o.Msg, o.Error, string(t)))
	return nil
}

// fieldValues decodes custom field values (cfv) to text: strings as they
// are, other values as JSON text; nulls are left out. It never fails.
type fieldValues map[string]string

func (f *fieldValues) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil || m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, raw := range m {
		if string(bytes.TrimSpace(raw)) == "null" {
			continue
		}
		var t flexText
		_ = t.UnmarshalJSON(raw)
		out[k] = string(t)
	}
	*f = out
	return nil
}

// flexCount decodes a count sent as a number, or as the list it counts.
// It never fails.
type flexCount int

func (f *flexCount) UnmarshalJSON(b []byte) error {
	var n int
	if json.Unmarshal(b, &n) == nil {
		*f = flexCount(n)
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(b, &items) == nil {
		*f = flexCount(len(items))
	}
	return nil
}
