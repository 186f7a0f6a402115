package toolcalls

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

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
	if out == nil {
		return c.Call(ctx, tool, args)
	}
	return call(ctx, c, tool, args, out)
}

// call calls tool and decodes its result into w.
func call(ctx context.Context, c Caller, tool string, args, w any) (json.RawMessage, error) {
	text, err := c.Call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	if err := decode(tool, text, w); err != nil {
		return nil, err
	}
	return text, nil
}

// fill calls tool, checks that its result is a JSON object, decodes it
// into v leniently (the result types decode the tools' fields themselves
// and never fail) and keeps the text as sent in *raw.
func fill(ctx context.Context, c Caller, tool string, args, v any, raw *json.RawMessage) error {
	text, err := call(ctx, c, tool, args, &struct{}{})
	if err != nil {
		return err
	}
	_ = json.Unmarshal(text, v) // a field of another type is left zero
	*raw = text
	return nil
}

// result is fill for a result that needs nothing more: it returns r.
func result[T any](ctx context.Context, c Caller, tool string, args any, r *T, raw *json.RawMessage) (*T, error) {
	if err := fill(ctx, c, tool, args, r, raw); err != nil {
		return nil, err
	}
	return r, nil
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
	if err == nil || errors.As(err, &te) && te.Field != "" {
		return nil
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

// required checks that values are set; nameValues are pairs of a field's
// name and its value.
func required(nameValues ...string) error {
	for i := 0; i+1 < len(nameValues); i += 2 {
		if nameValues[i+1] == "" {
			return apierr.ArgumentError(nameValues[i], "is empty")
		}
	}
	return nil
}

// nonEmpty checks that every element of ss is set; field names the list.
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
func search[T any](terms []T) any {
	switch len(terms) {
	case 0:
		return nil
	case 1:
		return terms[0]
	}
	return terms
}

// checkPage checks a page number: pages count from 1.
func checkPage(page int) error {
	if page < 1 {
		return apierr.ArgumentError("page", fmt.Sprintf("is %d; pages count from 1", page))
	}
	return nil
}

// pages iterates over the pages list returns, from the first, while more
// says another follows; an empty page ends it too (one that claims more
// would loop forever). A failed check, or the first error, is yielded and
// ends the iteration.
func pages[P any](check error, list func(page int) (P, error), more func(P) bool) iter.Seq2[P, error] {
	return func(yield func(P, error) bool) {
		var zero P
		if check != nil {
			yield(zero, check)
			return
		}
		for page := 1; ; page++ {
			p, err := list(page)
			if err != nil {
				yield(zero, err)
				return
			}
			if !yield(p, nil) || !more(p) {
				return
			}
		}
	}
}

// items iterates over the items of every page of ps.
func items[P, T any](ps iter.Seq2[P, error], of func(P) []T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for p, err := range ps {
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, x := range of(p) {
				if !yield(x, nil) {
					return
				}
			}
		}
	}
}
