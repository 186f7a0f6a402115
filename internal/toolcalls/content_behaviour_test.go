package toolcalls_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/toolcalls"
)

func TestContentBadArgumentsFailBeforeAnyRequest(t *testing.T) {
	srv, sess := serve(t, map[string]string{})
	ctx := t.Context()
	ids := func(n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint("e-", i)
		}
		return s
	}
	entries := func(n int) []content.NewEntry {
		es := make([]content.NewEntry, n)
		for i := range es {
			es[i] = content.NewEntry{Title: "T", Slug: fmt.Sprint("s-", i)}
		}
		return es
	}
	changes := func(n int) []content.EntryChange {
		cs := make([]content.EntryChange, n)
		for i := range cs {
			cs[i] = content.EntryChange{ID: "e", EntryUpdate: content.EntryUpdate{Status: content.StatusPublished}}
		}
		return cs
	}
	neg := -1
	long := strings.Repeat("x", 201)
	enum := make([]content.EnumValue, content.MaxEnumValues+1)
	for i := range enum {
		enum[i] = content.EnumValue{Label: "L", Value: "v"}
	}
	for _, tc := range []struct {
		name, field string
		call        func() error
	}{
		{"bad project", "project", func() error { _, err := toolcalls.ListModels(ctx, sess, "acme"); return err }},
		{"no model slug", "model", func() error { _, err := toolcalls.GetModel(ctx, sess, "acme/web", ""); return err }},
		{"model slug pattern", "Slug", func() error {
			_, err := toolcalls.CreateModel(ctx, sess, "acme/web", content.NewModel{Slug: "Blog Post", DisplayName: "B"})
			return err
		}},
		{"model without display name", "DisplayName", func() error {
			_, err := toolcalls.CreateModel(ctx, sess, "acme/web", content.NewModel{Slug: "blog"})
			return err
		}},
		{"model kind", "Kind", func() error {
			_, err := toolcalls.CreateModel(ctx, sess, "acme/web", content.NewModel{Slug: "blog", DisplayName: "B", Kind: "many"})
			return err
		}},
		{"field name pattern", "Fields[1].Name", func() error {
			_, err := toolcalls.CreateModel(ctx, sess, "acme/web", content.NewModel{Slug: "blog", DisplayName: "B",
				Fields: []content.NewField{{Name: "ok", DisplayName: "OK"}, {Name: "9lives", DisplayName: "X"}}})
			return err
		}},
		{"field type", "field.Type", func() error {
			_, err := toolcalls.AddField(ctx, sess, "acme/web", "blog", content.NewField{Name: "a", DisplayName: "A", Type: "string"})
			return err
		}},
		{"field position", "field.Position", func() error {
			_, err := toolcalls.AddField(ctx, sess, "acme/web", "blog", content.NewField{Name: "a", DisplayName: "A", Position: &neg})
			return err
		}},
		{"too many enum values", "field.Options.EnumValues", func() error {
			_, err := toolcalls.AddField(ctx, sess, "acme/web", "blog", content.NewField{Name: "a", DisplayName: "A", Type: content.FieldEnum,
				Options: &content.FieldOptions{EnumValues: enum}})
			return err
		}},
		{"enum label too long", "field.Options.EnumValues[0].Label", func() error {
			_, err := toolcalls.AddField(ctx, sess, "acme/web", "blog", content.NewField{Name: "a", DisplayName: "A", Type: content.FieldEnum,
				Options: &content.FieldOptions{EnumValues: []content.EnumValue{{Label: long, Value: "v"}}}})
			return err
		}},
		{"empty model update", "update", func() error {
			_, err := toolcalls.UpdateModel(ctx, sess, "acme/web", "blog", content.ModelUpdate{})
			return err
		}},
		{"empty field update", "update", func() error {
			_, err := toolcalls.UpdateField(ctx, sess, "acme/web", "blog", "a", content.FieldUpdate{})
			return err
		}},
		{"no field name", "field name", func() error { return toolcalls.RemoveField(ctx, sess, "acme/web", "blog", "") }},
		{"no field order", "field names", func() error { return toolcalls.ReorderFields(ctx, sess, "acme/web", "blog", nil) }},
		{"entry without model", "Model", func() error {
			_, err := toolcalls.CreateEntry(ctx, sess, "acme/web", content.NewEntry{Title: "T", Slug: "t"})
			return err
		}},
		{"entry without slug", "Slug", func() error {
			_, err := toolcalls.CreateEntry(ctx, sess, "acme/web", content.NewEntry{Model: "blog", Title: "T"})
			return err
		}},
		{"entry created archived", "Status", func() error {
			_, err := toolcalls.CreateEntry(ctx, sess, "acme/web", content.NewEntry{Model: "blog", Title: "T", Slug: "t", Status: content.StatusArchived})
			return err
		}},
		{"field value that is not JSON", `Fields["n"]`, func() error {
			_, err := toolcalls.CreateEntry(ctx, sess, "acme/web", content.NewEntry{Model: "blog", Title: "T", Slug: "t", Fields: map[string]any{"n": make(chan int)}})
			return err
		}},
		{"empty translation", `Translations["de"]`, func() error {
			_, err := toolcalls.CreateEntry(ctx, sess, "acme/web", content.NewEntry{Model: "blog", Title: "T", Slug: "t",
				Translations: map[string]content.LanguageValues{"de": {}}})
			return err
		}},
		{"no entry id", "entry id", func() error { _, err := toolcalls.PublishEntry(ctx, sess, "acme/web", ""); return err }},
		{"unknown status", "Status", func() error {
			_, err := toolcalls.UpdateEntry(ctx, sess, "acme/web", "e", content.EntryUpdate{Status: "live"})
			return err
		}},
		{"update that changes nothing", "update", func() error {
			_, err := toolcalls.UpdateEntry(ctx, sess, "acme/web", "e", content.EntryUpdate{})
			return err
		}},
		{"language with translations", "Language", func() error {
			_, err := toolcalls.UpdateEntry(ctx, sess, "acme/web", "e", content.EntryUpdate{Language: "de", Title: "T",
				Translations: map[string]content.LanguageValues{"fr": {Title: "F"}}})
			return err
		}},
		{"language without text", "Language", func() error {
			_, err := toolcalls.UpdateEntry(ctx, sess, "acme/web", "e", content.EntryUpdate{Language: "de", Status: content.StatusDraft})
			return err
		}},
		{"duplicate slug pattern", "new slug", func() error {
			_, err := toolcalls.DuplicateEntry(ctx, sess, "acme/web", "e", "Hello World")
			return err
		}},
		{"page size", "PageSize", func() error {
			_, err := toolcalls.ListEntries(ctx, sess, "acme/web", content.ListOptions{PageSize: content.MaxPageSize + 1}, 1)
			return err
		}},
		{"body without model", "SearchBody", func() error {
			_, err := toolcalls.ListEntries(ctx, sess, "acme/web", content.ListOptions{SearchBody: true}, 1)
			return err
		}},
		{"list status", "Statuses[1]", func() error {
			_, err := toolcalls.ListEntries(ctx, sess, "acme/web", content.ListOptions{Statuses: []content.Status{content.StatusDraft, "live"}}, 1)
			return err
		}},
		{"sort", "Sort", func() error {
			_, err := toolcalls.ListEntries(ctx, sess, "acme/web", content.ListOptions{Sort: "slug"}, 1)
			return err
		}},
		{"page 0", "page", func() error {
			_, err := toolcalls.ListEntries(ctx, sess, "acme/web", content.ListOptions{}, 0)
			return err
		}},
		{"bulk create over the limit", "entries", func() error {
			_, err := toolcalls.BulkCreate(ctx, sess, "acme/web", "blog", entries(content.MaxBulkCreate+1))
			return err
		}},
		{"bulk create of another model", "entries[0].Model", func() error {
			_, err := toolcalls.BulkCreate(ctx, sess, "acme/web", "blog", []content.NewEntry{{Model: "page", Title: "T", Slug: "t"}})
			return err
		}},
		{"bulk create with source language", "entries[0].SourceLanguage", func() error {
			_, err := toolcalls.BulkCreate(ctx, sess, "acme/web", "blog", []content.NewEntry{{Title: "T", Slug: "t", SourceLanguage: "en"}})
			return err
		}},
		{"bulk create without title", "entries[1].Title", func() error {
			_, err := toolcalls.BulkCreate(ctx, sess, "acme/web", "blog", []content.NewEntry{{Title: "T", Slug: "t"}, {Slug: "u"}})
			return err
		}},
		{"bulk update over the limit", "entries", func() error {
			_, err := toolcalls.BulkUpdate(ctx, sess, "acme/web", changes(content.MaxBulkUpdate+1))
			return err
		}},
		{"bulk update without id", "entries[0].ID", func() error {
			_, err := toolcalls.BulkUpdate(ctx, sess, "acme/web", []content.EntryChange{{EntryUpdate: content.EntryUpdate{Title: "T"}}})
			return err
		}},
		{"bulk update that changes nothing", "entries[0]", func() error {
			_, err := toolcalls.BulkUpdate(ctx, sess, "acme/web", []content.EntryChange{{ID: "e"}})
			return err
		}},
		{"bulk publish over the limit", "ids", func() error {
			_, err := toolcalls.BulkPublish(ctx, sess, "acme/web", ids(content.MaxBulkPublish+1))
			return err
		}},
		{"bulk publish of nothing", "ids", func() error { _, err := toolcalls.BulkPublish(ctx, sess, "acme/web", nil); return err }},
		{"bulk publish of an empty id", "ids[1]", func() error {
			_, err := toolcalls.BulkPublish(ctx, sess, "acme/web", []string{"e", ""})
			return err
		}},
	} {
		err := tc.call()
		if !errors.Is(err, apierr.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: err = %v, want ErrInvalidArgument naming %s", tc.name, err, tc.field)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for bad arguments, want none", n)
	}
	// The limits themselves are accepted.
	for _, err := range []error{
		func() error {
			_, err := toolcalls.BulkPublish(ctx, sess, "acme/web", ids(content.MaxBulkPublish))
			return err
		}(),
		func() error {
			_, err := toolcalls.BulkCreate(ctx, sess, "acme/web", "blog", entries(content.MaxBulkCreate))
			return err
		}(),
		func() error {
			_, err := toolcalls.BulkUpdate(ctx, sess, "acme/web", changes(content.MaxBulkUpdate))
			return err
		}(),
	} {
		if errors.Is(err, apierr.ErrInvalidArgument) {
			t.Errorf("a batch at the limit was refused: %v", err)
		}
	}
	// The iterator reports the bad argument as its only element.
	n := 0
	for _, err := range toolcalls.AllEntries(ctx, sess, "acme/web", content.ListOptions{PageSize: -1}) {
		n++
		if !errors.Is(err, apierr.ErrInvalidArgument) {
			t.Errorf("AllEntries: err = %v", err)
		}
	}
	if n != 1 {
		t.Errorf("AllEntries yielded %d times for a bad argument, want 1", n)
	}
}

func TestAllEntriesWalksEveryPage(t *testing.T) {
	srv := mcptest.NewServer(t, mcptest.Tool{Name: "listContentEntries", Run: func(args json.RawMessage) (string, bool) {
		var a struct{ Page int }
		json.Unmarshal(args, &a)
		return fmt.Sprintf(`{"items": [{"id": "e-%d.a", "st": "draft"}, {"id": "e-%d.b", "st": "published"}], "tot": 6, "more": %t}`,
			a.Page, a.Page, a.Page < 3), false
	}})
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var got []string
	for e, err := range toolcalls.AllEntries(t.Context(), sess, "acme/web", content.ListOptions{Model: "blog"}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.ID+":"+string(e.Status))
	}
	want := "e-1.a:draft e-1.b:published e-2.a:draft e-2.b:published e-3.a:draft e-3.b:published"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("entries = %s, want %s", s, want)
	}
	calls := srv.Calls("listContentEntries")
	if len(calls) != 3 {
		t.Fatalf("%d listContentEntries calls, want 3", len(calls))
	}
	jsonEqual(t, calls[2], `{"project":"acme/web","modelSlug":"blog","page":3,"limit":50}`)

	// Stopping early fetches no further page.
	for range toolcalls.AllEntries(t.Context(), sess, "acme/web", content.ListOptions{}) {
		break
	}
	if n := len(srv.Calls("listContentEntries")); n != 4 {
		t.Errorf("%d calls after an early break, want 4", n)
	}
}

// A page that claims more but is empty ends the listing instead of
// asking forever.
func TestEntryPagesStopsAtAnEmptyPage(t *testing.T) {
	var calls atomic.Int32
	c := callerFunc(func(context.Context, string, any) ([]byte, error) {
		calls.Add(1)
		return []byte(`{"items": [], "tot": 9, "more": true}`), nil
	})
	for _, err := range toolcalls.EntryPages(t.Context(), c, "acme/web", content.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestContentWriteAnswersThatSayNothing(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		call         func(toolcalls.Caller) error
	}{
		{"create without entry", `{"created": true}`, func(c toolcalls.Caller) error {
			_, err := toolcalls.CreateEntry(t.Context(), c, "acme/web", content.NewEntry{Model: "m", Title: "T", Slug: "t"})
			return err
		}},
		{"publish with a null entry", `{"published": true, "entry": null}`, func(c toolcalls.Caller) error {
			_, err := toolcalls.PublishEntry(t.Context(), c, "acme/web", "e")
			return err
		}},
		{"model create without model", `{"created": true, "model": "blog"}`, func(c toolcalls.Caller) error {
			_, err := toolcalls.CreateModel(t.Context(), c, "acme/web", content.NewModel{Slug: "blog", DisplayName: "B"})
			return err
		}},
		{"add field without field", `{"created": true}`, func(c toolcalls.Caller) error {
			_, err := toolcalls.AddField(t.Context(), c, "acme/web", "blog", content.NewField{Name: "a", DisplayName: "A"})
			return err
		}},
		{"delete that says ok false", `{"deleted": false, "ok": false}`, func(c toolcalls.Caller) error {
			return toolcalls.DeleteEntry(t.Context(), c, "acme/web", "e")
		}},
		{"reorder that is not JSON", `Done.`, func(c toolcalls.Caller) error {
			return toolcalls.ReorderFields(t.Context(), c, "acme/web", "blog", []string{"a"})
		}},
	} {
		c := callerFunc(func(context.Context, string, any) ([]byte, error) { return []byte(tc.answer), nil })
		if err := tc.call(c); !errors.Is(err, apierr.ErrUnexpectedResponse) {
			t.Errorf("%s: err = %v, want ErrUnexpectedResponse", tc.name, err)
		}
	}
}

func TestContentToolFailuresAreTypedErrors(t *testing.T) {
	srv := mcptest.NewServer(t,
		mcptest.Tool{Name: "getContentEntry", Run: func(json.RawMessage) (string, bool) { return "Entry not found", true }},
		mcptest.Tool{Name: "createContentModel", Run: func(json.RawMessage) (string, bool) {
			return `Validation error: String must contain at least 1 character(s)`, true
		}},
	)
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	_, err = toolcalls.GetEntry(t.Context(), sess, "acme/web", "e-1", content.GetOptions{})
	var te *apierr.ToolError
	if !errors.As(err, &te) || te.Kind != apierr.ToolNotFound || te.Tool != "getContentEntry" {
		t.Errorf("get: err = %#v, want a not-found ToolError", err)
	}
	_, err = toolcalls.CreateModel(t.Context(), sess, "acme/web", content.NewModel{Slug: "blog", DisplayName: "B"})
	if !errors.As(err, &te) || te.Kind != apierr.ToolValidation {
		t.Errorf("create: err = %#v, want a validation ToolError", err)
	}
}

// A content read is sent again after the connection broke; a write that
// may have run is not, and reports ErrTemporary. The server marks no
// tool read-only: the session goes by mcp-tools.md's kinds.
func TestContentReadsRetriedWritesNot(t *testing.T) {
	srv := mcptest.NewServer(t,
		mcptest.Tool{Name: "listContentEntries", Run: func(json.RawMessage) (string, bool) { return `{"items": [], "tot": 0, "more": false}`, false }},
		mcptest.Tool{Name: "createContentEntry", Run: func(json.RawMessage) (string, bool) { return `{"created": true, "entry": {"id": "e-1"}}`, false }},
	)
	// The first call of each tool loses its connection.
	var mu sync.Mutex
	dropped := map[string]bool{}
	srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		mu.Lock()
		defer mu.Unlock()
		if r.Method != "tools/call" || dropped[r.Tool] {
			return mcptest.Fault{}
		}
		dropped[r.Tool] = true
		return mcptest.Fault{Drop: true}
	})
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	if _, err := toolcalls.ListEntries(t.Context(), sess, "acme/web", content.ListOptions{}, 1); err != nil {
		t.Errorf("list after a dropped connection: %v", err)
	}
	if n := len(srv.Calls("listContentEntries")); n != 2 {
		t.Errorf("listContentEntries sent %d times, want 2", n)
	}
	_, err = toolcalls.CreateEntry(t.Context(), sess, "acme/web", content.NewEntry{Model: "m", Title: "T", Slug: "t"})
	if !errors.Is(err, apierr.ErrTemporary) {
		t.Errorf("create after a dropped connection: err = %v, want ErrTemporary", err)
	}
	if n := len(srv.Calls("createContentEntry")); n != 1 {
		t.Errorf("createContentEntry sent %d times, want 1", n)
	}
}
