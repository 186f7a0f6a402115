package toolcalls

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/lenient"
)

// This file holds what the content tools share: argument checks and the
// answers of the tools that write or confirm.

// Patterns the content tools check.
var (
	modelSlugRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	fieldNameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
)

// limit is a text's most characters, for maxLen.
type limit struct {
	field string
	s     *string // nil: not sent
	most  int
}

// maxLen checks that each text has at most its number of characters.
func maxLen(ls ...limit) error {
	for _, l := range ls {
		if l.s == nil {
			continue
		}
		if n := utf8.RuneCountInString(*l.s); n > l.most {
			return apierr.ArgumentError(l.field, fmt.Sprintf("has %d characters; at most %d", n, l.most))
		}
	}
	return nil
}

// pattern checks a required slug or name: 1 to n characters matching re.
func pattern(field, s string, n int, re *regexp.Regexp, want string) error {
	if err := cmp.Or(required(field, s), maxLen(limit{field, &s, n})); err != nil {
		return err
	}
	if !re.MatchString(s) {
		return apierr.ArgumentError(field, fmt.Sprintf("%s is not %s", apierr.Quote(s), want))
	}
	return nil
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
	for name, v := range m {
		if name == "" {
			return apierr.ArgumentError(field, "has a field with an empty name")
		}
		if _, err := json.Marshal(v); err != nil {
			return apierr.ArgumentError(fmt.Sprintf("%s[%q]", field, name), fmt.Sprintf("does not encode to JSON: %v", err))
		}
	}
	return nil
}

// confirm calls a tool that only confirms ({deleted: true, ok: true} and
// the like); an explicit ok: false is an unexpected answer, not a
// success.
func confirm(ctx context.Context, c Caller, tool string, args any) error {
	var w struct {
		OK *bool `json:"ok"`
	}
	if _, err := call(ctx, c, tool, args, &w); err != nil {
		return err
	}
	if w.OK != nil && !*w.OK {
		return fmt.Errorf("partner: tool %s: %w: the result says ok: false", tool, apierr.ErrUnexpectedResponse)
	}
	return nil
}

// write calls a tool that answers with what it wrote, the object named
// what ("model", "field", "entry"), and decodes that into a new T; an
// answer without it is unexpected. It returns the answer too.
func write[T any](ctx context.Context, c Caller, what, tool string, args any) (*T, json.RawMessage, error) {
	var w map[string]json.RawMessage
	text, err := call(ctx, c, tool, args, &w)
	if err != nil {
		return nil, nil, err
	}
	if t := bytes.TrimLeft(w[what], " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, nil, fmt.Errorf("partner: tool %s: %w: the result has no %s", tool, apierr.ErrUnexpectedResponse, what)
	}
	v := new(T)
	_ = json.Unmarshal(w[what], v)
	return v, text, nil
}

// errText decodes an item's error: a string, or an object's message
// (message, msg or error), or else the JSON text. It never fails.
type errText string

func (e *errText) UnmarshalJSON(b []byte) error {
	var o struct{ Message, Msg, Error string }
	if json.Unmarshal(b, &o) != nil {
		o.Message, o.Msg, o.Error = "", "", ""
	}
	var t lenient.Text
	_ = t.UnmarshalJSON(b)
	*e = errText(cmp.Or(o.Message, o.Msg, o.Error, string(t)))
	return nil
}
