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

// page is what pages reads of a page of a listing.
type page struct {
	more  bool     // the service says another page follows
	total int      // the items that match, as the first page counts them; 0 when not said
	ids   []string // an identity for each item on the page
}

// Bounds of a listing that pages follows.
const (
	// unknownTotalPages is how many pages a listing whose first page gives
	// no total may run to, plus the margin: a million keys at 100 a page.
	unknownTotalPages = 10_000
	// maxTotalPages caps the pages a claimed total allows: a hundred
	// million keys at 100 a page.
	maxTotalPages = 1_000_000
)

// pages iterates over every page of the listing tool, from the first,
// until one says no more follow or holds no items; an error, check's
// included, ends it after it is yielded. check runs each time the
// iteration starts, so that it checks what the requests then send (the
// options' slices are the caller's). limit is the page size asked for.
//
// Every listing ends, whatever the service answers. The first page's total
// bounds it: after ceil(total/limit) pages plus a margin (2 pages and a
// tenth more), or once the items seen pass the total by that margin, a page
// that still says more follow ends the listing with ErrUnexpectedResponse;
// the margin leaves room for items added while it runs. A first page
// without a total (0) bounds it at unknownTotalPages pages plus the margin.
// A page whose items all appeared on earlier pages (a repeated page) ends
// it with ErrUnexpectedResponse, before it is yielded.
func pages[P any](tool string, limit int, check func() error, fetch func(page int) (*P, error), of func(*P) page) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		if err := check(); err != nil {
			yield(nil, err)
			return
		}
		seen := map[string]struct{}{}
		var total, maxPages, maxItems, items int
		for n := 1; ; n++ {
			p, err := fetch(n)
			if err != nil {
				yield(nil, err)
				return
			}
			pg := of(p)
			if n == 1 {
				size := limit
				if pg.more && len(pg.ids) > 0 && len(pg.ids) < limit { // the service pages by fewer
					size = len(pg.ids)
				}
				total = pg.total
				maxPages, maxItems = listingBound(total, size)
			}
			fresh := 0
			for _, id := range pg.ids {
				if _, ok := seen[id]; !ok {
					seen[id] = struct{}{}
					fresh++
				}
			}
			if len(pg.ids) > 0 && fresh == 0 {
				yield(nil, fmt.Errorf("partner: tool %s: %w: page %d repeats the items of earlier pages", tool, apierr.ErrUnexpectedResponse, n))
				return
			}
			items += len(pg.ids)
			// An empty page that claims more would loop forever.
			if !yield(p, nil) || !pg.more || len(pg.ids) == 0 {
				return
			}
			if n >= maxPages || items > maxItems {
				what := fmt.Sprintf("a total of %d", total)
				if total <= 0 {
					what = "no total"
				}
				yield(nil, fmt.Errorf("partner: tool %s: %w: more pages after %d pages and %d items, though the first page gave %s",
					tool, apierr.ErrUnexpectedResponse, n, items, what))
				return
			}
		}
	}
}

// listingBound returns how many pages, and items, a listing may run to
// whose first page gives total (0: none) with size items a page.
func listingBound(total, size int) (maxPages, maxItems int) {
	n := unknownTotalPages
	if total > 0 {
		n = min((total+size-1)/size, maxTotalPages)
	}
	margin := 2 + n/10
	if total <= 0 || total > n*size {
		total = n * size
	}
	return n + margin, total + margin*size
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
