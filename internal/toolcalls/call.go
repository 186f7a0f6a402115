package toolcalls

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
)

// Caller calls one tool and returns the JSON text of its result's first
// text block. *mcpsession.Session implements it.
type Caller interface {
	Call(ctx context.Context, tool string, args any) ([]byte, error)
}

// Call calls any tool with args and decodes its JSON result into out
// (nil to skip), leniently. It returns the result's text as sent.
func Call(ctx context.Context, c Caller, tool string, args, out any) (json.RawMessage, error) {
	if tool == "" {
		return nil, apierr.ArgumentError("tool name", "is empty")
	}
	return call(ctx, c, tool, args, out)
}

func call(ctx context.Context, c Caller, tool string, args, w any) (json.RawMessage, error) {
	text, err := c.Call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	if w == nil {
		return text, nil
	}
	if err := decode(tool, text, w); err != nil {
		return nil, err
	}
	return text, nil
}

// result calls tool, decodes its answer into a W and returns what to
// maps it to, given the answer's text as well.
func result[W, R any](ctx context.Context, c Caller, tool string, args any, to func(*W, json.RawMessage) *R) (*R, error) {
	var w W
	raw, err := call(ctx, c, tool, args, &w)
	if err != nil {
		return nil, err
	}
	return to(&w, raw), nil
}

// each returns f of every element of ts, or nil when there are none.
func each[T, U any](ts []T, f func(T) U) []U {
	var us []U
	for _, t := range ts {
		us = append(us, f(t))
	}
	return us
}

// eachValue returns m with f of every value, or nil when m is nil.
func eachValue[K comparable, V, U any](m map[K]V, f func(V) U) map[K]U {
	if m == nil {
		return nil
	}
	out := make(map[K]U, len(m))
	for k, v := range m {
		out[k] = f(v)
	}
	return out
}

// records decodes every record of a list with from.
func records[T any](tool string, raws []json.RawMessage, from func(string, json.RawMessage) T) []T {
	return each(raws, func(raw json.RawMessage) T { return from(tool, raw) })
}

// nonNil returns s, or an empty slice for nil: a page's list is never nil.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// pages iterates over every page, from the first, until more says there
// are no more; an error, check's included, ends it after it is yielded.
// check runs each time the iteration starts, so that it checks what the
// requests then send (the options' slices are the caller's).
func pages[P any](check func() error, fetch func(page int) (*P, error), more func(*P) bool) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		if err := check(); err != nil {
			yield(nil, err)
			return
		}
		for page := 1; ; page++ {
			p, err := fetch(page)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(p, nil) || !more(p) {
				return
			}
		}
	}
}

// items iterates over every item of every page of ps.
func items[P, T any](ps iter.Seq2[*P, error], of func(*P) []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for p, err := range ps {
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, it := range of(p) {
				if !yield(it, nil) {
					return
				}
			}
		}
	}
}

func checkPage(page int) error {
	if page < 1 {
		return apierr.ArgumentError("page", fmt.Sprintf("is %d; pages count from 1", page))
	}
	return nil
}

// decode unmarshals a tool's JSON text into v leniently: a field whose
// JSON type does not fit is left as it is and the rest is decoded
// (encoding/json goes on after an UnmarshalTypeError). Text that is not a
// JSON value of the expected kind is ErrUnexpectedResponse.
func decode(tool string, text []byte, v any) error {
	if len(bytes.TrimSpace(text)) == 0 {
		return fmt.Errorf("partner: tool %s: %w: empty result", tool, apierr.ErrUnexpectedResponse)
	}
	err := json.Unmarshal(text, v)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil || errors.As(err, &te) && te.Field != "":
		return nil
	case te != nil: // JSON, but not the kind of value the tool answers
		return fmt.Errorf("partner: tool %s: %w: the result is a JSON %s", tool, apierr.ErrUnexpectedResponse, te.Value)
	}
	return fmt.Errorf("partner: tool %s: %w: the result is not JSON: %v", tool, apierr.ErrUnexpectedResponse, err)
}

// checkProject checks an "org/project" name: exactly one '/' between two
// non-empty parts, as the tools name projects.
func checkProject(project string) error {
	org, name, ok := strings.Cut(project, "/")
	switch {
	case project == "":
		return apierr.ArgumentError("project", `is empty; want "org/project"`)
	case !ok || org == "" || name == "" || strings.Contains(name, "/"):
		return apierr.ArgumentError("project", fmt.Sprintf(`%q is not "org/project"`, project))
	case strings.TrimSpace(project) != project || strings.ContainsAny(project, " \t\r\n"):
		return apierr.ArgumentError("project", fmt.Sprintf("%q contains white space", project))
	}
	return nil
}

func nonEmpty(field string, ss []string) error {
	for i, s := range ss {
		if s == "" {
			return apierr.ArgumentError(fmt.Sprintf("%s[%d]", field, i), "is empty")
		}
	}
	return nil
}

// between checks 0 (unset) or lo..hi.
func between(field string, v, lo, hi int) error {
	if v != 0 && (v < lo || v > hi) {
		return apierr.ArgumentError(field, fmt.Sprintf("is %d; want %d to %d", v, lo, hi))
	}
	return nil
}

// search is a search argument: one term as a string (the advertised
// schema), several as an array (also accepted: any term matches).
func search(terms []string) any {
	switch len(terms) {
	case 0:
		return nil
	case 1:
		return terms[0]
	}
	return terms
}

// flexStrings decodes a list of strings; elements that are objects are
// taken by their id, key or name field, or else kept as JSON text. It never
// fails, so one odd element does not lose the list.
type flexStrings []string

func (f *flexStrings) UnmarshalJSON(b []byte) error {
	var items []json.RawMessage
	if json.Unmarshal(b, &items) != nil {
		return nil
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		var s string
		if json.Unmarshal(it, &s) == nil {
			out = append(out, s)
			continue
		}
		var o struct{ ID, KeyID, K, Name, Nm, Message, Msg string } // names match case-insensitively
		if json.Unmarshal(it, &o) == nil {
			if v := cmp.Or(o.ID, o.KeyID, o.K, o.Name, o.Nm, o.Message, o.Msg); v != "" {
				out = append(out, v)
				continue
			}
		}
		out = append(out, string(bytes.TrimSpace(it)))
	}
	*f = out
	return nil
}

// flexTime decodes an RFC 3339 string or Unix milliseconds; anything else
// (null, another format) leaves it zero instead of failing the decode.
type flexTime struct{ time.Time }

func (t *flexTime) UnmarshalJSON(b []byte) error {
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
