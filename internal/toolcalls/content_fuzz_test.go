package toolcalls_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/toolcalls"
)

// contentSeeds are the content answers FuzzResults starts from.
func contentSeeds() []string {
	var seeds []string
	for _, tc := range contentCases() {
		seeds = append(seeds, tc.answer)
	}
	return append(seeds,
		`{"items": [1, "x", null, {"mdl": 3, "cfv": [1], "tr": {"de": 5}, "vers": [{"by": "me"}]}], "tot": "many"}`,
		`{"pub": {"n": 1}, "fail": [{"idx": "one", "err": null}], "entries": ["e-1", 2]}`,
		`{"mdls": [{"flds": 3}, {"flds": [null, 7, {"opts": {"ev": "x"}, "fc": []}]}]}`,
	)
}

// fuzzContent feeds one answer to every content decoder: none may panic,
// and a result that keeps the whole answer keeps it unchanged.
func fuzzContent(t *testing.T, answer string) {
	c := callerFunc(func(context.Context, string, any) ([]byte, error) { return []byte(answer), nil })
	ctx := context.Background()
	whole := func(raw []byte) {
		if !bytes.Equal(raw, []byte(answer)) {
			t.Fatalf("Raw = %q, want the whole answer", raw)
		}
	}
	if p, err := toolcalls.ListEntries(ctx, c, "a/b", content.ListOptions{}, 1); err == nil {
		whole(p.Raw)
	}
	if r, err := toolcalls.BulkPublish(ctx, c, "a/b", []string{"e"}); err == nil {
		whole(r.Raw)
	}
	if r, err := toolcalls.BulkCreate(ctx, c, "a/b", "m", []content.NewEntry{{Title: "T", Slug: "t"}}); err == nil {
		whole(r.Raw)
	}
	if r, err := toolcalls.BulkUpdate(ctx, c, "a/b", []content.EntryChange{{ID: "e", EntryUpdate: content.EntryUpdate{Title: "T"}}}); err == nil {
		whole(r.Raw)
	}
	if e, err := toolcalls.GetEntry(ctx, c, "a/b", "e", content.GetOptions{}); err == nil {
		whole(e.Raw)
	}
	if m, err := toolcalls.GetModel(ctx, c, "a/b", "m"); err == nil {
		whole(m.Raw)
	}
	toolcalls.ListModels(ctx, c, "a/b")
	toolcalls.CreateEntry(ctx, c, "a/b", content.NewEntry{Model: "m", Title: "T", Slug: "t"})
	toolcalls.DuplicateEntry(ctx, c, "a/b", "e", "")
	toolcalls.CreateModel(ctx, c, "a/b", content.NewModel{Slug: "m", DisplayName: "M"})
	toolcalls.AddField(ctx, c, "a/b", "m", content.NewField{Name: "f", DisplayName: "F"})
	toolcalls.DeleteEntry(ctx, c, "a/b", "e")
}
