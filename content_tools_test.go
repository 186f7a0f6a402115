package partner_test

// What is the content tools' own (Config.ContentMCPURL), against
// partnertest's content server: flows as users run them through c.Content,
// with the webhooks they cause received by a webhook.NewHandler receiver,
// the checks of their arguments and a missing content:publish scope. What
// both MCP servers share is in mcp_test.go.

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// noSuchEntry is a well-formed entry id no entry has.
const noSuchEntry = "00000000-0000-4000-8000-000000000000"

// postModel is the model the content tests write entries of: a localized
// text field "summary" and a shared number "rank".
var postModel = content.NewModel{Slug: "post", DisplayName: "Post", Fields: []content.NewField{
	{Name: "summary", DisplayName: "Summary", Localized: true},
	{Name: "rank", DisplayName: "Rank", Type: content.FieldNumber},
}}

// contentInbox is a webhook receiver made with webhook.NewHandler on
// loopback (partnertest delivers webhooks with a real HTTP client): it
// keeps every content event it verified.
type contentInbox struct {
	mu     sync.Mutex
	events []*webhook.Event
}

// newContentInbox starts a receiver subscribed to every event of the
// project and returns it; it stops when the test ends.
func newContentInbox(t *testing.T, srv *partnertest.Server, projectID string) *contentInbox {
	t.Helper()
	in := &contentInbox{}
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(projectID, "http://"+rcv.Listener.Addr().String()+"/hooks")
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		in.mu.Lock()
		defer in.mu.Unlock()
		in.events = append(in.events, ev)
		return nil
	})
	rcv.Start()
	t.Cleanup(rcv.Close)
	return in
}

// take returns the events received since the last take, ordered by their
// own data.timestamp (deliveries may arrive in any order), and fails the
// test for an event that did not decode to its content struct.
func (in *contentInbox) take(t *testing.T) []*webhook.Event {
	t.Helper()
	in.mu.Lock()
	evs := in.events
	in.events = nil
	in.mu.Unlock()
	for _, ev := range evs {
		contentMeta(t, ev)
	}
	slices.SortStableFunc(evs, func(a, b *webhook.Event) int {
		return contentMeta(t, a).Timestamp.Compare(contentMeta(t, b).Timestamp)
	})
	return evs
}

// contentMeta returns the shared fields of a content event, failing the
// test unless webhook.Parse (which webhook.NewHandler runs) decoded the
// event into the struct its type documents.
func contentMeta(t *testing.T, ev *webhook.Event) *webhook.ContentMeta {
	t.Helper()
	var m *webhook.ContentMeta
	var want webhook.EventType
	switch d := ev.Data.(type) {
	case *webhook.EntryCreated:
		m, want = &d.ContentMeta, webhook.EventEntryCreated
	case *webhook.EntryUpdated:
		m, want = &d.ContentMeta, webhook.EventEntryUpdated
	case *webhook.EntryPublished:
		m, want = &d.ContentMeta, webhook.EventEntryPublished
	case *webhook.EntryUnpublished:
		m, want = &d.ContentMeta, webhook.EventEntryUnpublished
	case *webhook.EntryDeleted:
		m, want = &d.ContentMeta, webhook.EventEntryDeleted
	case *webhook.EntriesBulkPublished:
		m, want = &d.ContentMeta, webhook.EventEntriesBulkPublished
	case *webhook.EntriesBulkUpdated:
		m, want = &d.ContentMeta, webhook.EventEntriesBulkUpdated
	case *webhook.ModelCreated:
		m, want = &d.ContentMeta, webhook.EventModelCreated
	case *webhook.ModelUpdated:
		m, want = &d.ContentMeta, webhook.EventModelUpdated
	case *webhook.ModelDeleted:
		m, want = &d.ContentMeta, webhook.EventModelDeleted
	case *webhook.FieldAdded:
		m, want = &d.ContentMeta, webhook.EventFieldAdded
	case *webhook.FieldUpdated:
		m, want = &d.ContentMeta, webhook.EventFieldUpdated
	case *webhook.FieldDeleted:
		m, want = &d.ContentMeta, webhook.EventFieldDeleted
	default:
		t.Fatalf("event %s %s decoded to %T, not a content struct: %s", ev.ID, ev.Type, ev.Data, ev.RawData())
	}
	if ev.Type != want || m.Event != ev.Type || m.Timestamp.IsZero() {
		t.Fatalf("event %s of type %s decoded to %T with event %q at %v", ev.ID, ev.Type, ev.Data, m.Event, m.Timestamp)
	}
	return m
}

// contentRig is a rig with a webhook receiver.
type contentRig struct {
	*rig
	in *contentInbox
}

func newContentRig(t *testing.T, opts ...rigOption) *contentRig {
	t.Helper()
	r := &contentRig{rig: newRig(t, opts...)}
	r.in = newContentInbox(t, r.srv, r.p.ID)
	return r
}

func eventTypes(evs []*webhook.Event) []webhook.EventType {
	out := make([]webhook.EventType, len(evs))
	for i, ev := range evs {
		out[i] = ev.Type
	}
	return out
}

// entryOf returns the entry and languages of a single-entry event.
func entryOf(t *testing.T, ev *webhook.Event) *webhook.EntryChange {
	t.Helper()
	switch d := ev.Data.(type) {
	case *webhook.EntryCreated:
		return &d.EntryChange
	case *webhook.EntryUpdated:
		return &d.EntryChange
	case *webhook.EntryPublished:
		return &d.EntryChange
	case *webhook.EntryUnpublished:
		return &d.EntryChange
	case *webhook.EntryDeleted:
		return &d.EntryChange
	}
	t.Fatalf("%s is not a single-entry event", ev.Type)
	return nil
}

func status(s *webhook.EntryStatus) string {
	if s == nil {
		return "null"
	}
	return string(*s)
}

// TestContentFlow: a model with a localized field, entries created,
// edited, published one by one and in bulk (with an id that fails, listed
// in the result), unpublished by an edit, duplicated and deleted; each
// call's result, and the events the receiver verified in the order of
// their timestamps.
func TestContentFlow(t *testing.T) {
	r := newContentRig(t)
	ctx := t.Context()
	org := r.g.Organizations[0].Slug

	m, err := r.c.Content.Models.Create(ctx, r.project, postModel)
	if err != nil {
		t.Fatal(err)
	}
	if m.Slug != "post" || m.ID == "" || len(m.Fields) != 2 || m.Fields[0].Name != "summary" || !m.Fields[0].Localized ||
		m.Fields[1].Type != content.FieldNumber || m.Fields[1].Localized {
		t.Fatalf("Models.Create = %+v", m)
	}

	hello, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "Hello", Slug: "hello",
		Fields:       map[string]any{"summary": "A greeting", "rank": 1},
		Translations: map[string]content.LanguageValues{"de": {Title: "Hallo", Fields: map[string]any{"summary": "Ein Gruß"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if hello.ID == "" || hello.Slug != "hello" || hello.Status != content.StatusDraft || hello.Model != "post" ||
		!slices.Equal(hello.Languages, []string{"de", "en"}) || hello.Fields["summary"] != "A greeting" || hello.Fields["rank"] != "1" ||
		!hello.PublishedAt.IsZero() {
		t.Fatalf("Entries.Create = %+v", hello)
	}
	bye, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "Goodbye", Slug: "bye"})
	if err != nil {
		t.Fatal(err)
	}

	if _, err := r.c.Content.Entries.Update(ctx, r.project, hello.ID, content.EntryUpdate{Language: "de", Title: "Hallo Welt"}); err != nil {
		t.Fatal(err)
	}
	got, err := r.c.Content.Entries.Get(ctx, r.project, hello.ID, content.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if de := got.Translations["de"]; de.Title != "Hallo Welt" || de.Fields["summary"] != "Ein Gruß" || got.Title != "Hello" ||
		got.Translations["en"].Fields["summary"] != "A greeting" || len(got.Versions) == 0 {
		t.Fatalf("Entries.Get after the German edit = %+v", got)
	}

	pub, err := r.c.Content.Entries.Publish(ctx, r.project, hello.ID)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Status != content.StatusPublished || pub.PublishedAt.IsZero() {
		t.Fatalf("Entries.Publish = %+v", pub)
	}

	bulk, err := r.c.Content.Entries.BulkPublish(ctx, r.project, []string{hello.ID, noSuchEntry, bye.ID})
	if err != nil {
		t.Fatal(err)
	}
	if bulk.Count != 2 || len(bulk.Failed) != 1 {
		t.Fatalf("BulkPublish = %+v, want 2 published and 1 failure", bulk)
	}
	if f := bulk.Failed[0]; f.ID != noSuchEntry || f.Index != 1 || f.Error == "" {
		t.Errorf("BulkPublish failure %+v, want the unknown id at index 1 with its reason", f)
	}

	un, err := r.c.Content.Entries.Update(ctx, r.project, bye.ID, content.EntryUpdate{Status: content.StatusDraft})
	if err != nil {
		t.Fatal(err)
	}
	if un.Status != content.StatusDraft || !un.PublishedAt.IsZero() {
		t.Errorf("unpublished by Update = %+v", un)
	}

	dup, err := r.c.Content.Entries.Duplicate(ctx, r.project, hello.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	if dup.ID == "" || dup.ID == hello.ID || dup.Slug != "hello-copy" || dup.Status != content.StatusDraft ||
		!slices.Equal(dup.Languages, []string{"de", "en"}) {
		t.Errorf("Duplicate = %+v", dup)
	}
	_, err = r.c.Content.Entries.Duplicate(ctx, r.project, hello.ID, "")
	var te *partner.ToolError
	if !errors.As(err, &te) || te.Tool != "duplicateContentEntry" {
		t.Errorf("a second copy with the same slug: %v, want a *ToolError", err)
	}

	if err := r.c.Content.Entries.Delete(ctx, r.project, bye.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.c.Content.Entries.Get(ctx, r.project, bye.ID, content.GetOptions{}); !errors.As(err, &te) || te.Kind != partner.ToolNotFound {
		t.Errorf("Get of the deleted entry: %v, want a *ToolError of kind %s", err, partner.ToolNotFound)
	}

	evs := r.in.take(t)
	want := []webhook.EventType{
		webhook.EventModelCreated,
		webhook.EventEntryCreated, webhook.EventEntryCreated,
		webhook.EventEntryUpdated,
		webhook.EventEntryPublished,
		webhook.EventEntryPublished, webhook.EventEntryPublished, webhook.EventEntriesBulkPublished,
		webhook.EventEntryUnpublished,
		webhook.EventEntryCreated,
		webhook.EventEntryDeleted,
	}
	if !slices.Equal(eventTypes(evs), want) {
		t.Fatalf("events %v,\nwant %v", eventTypes(evs), want)
	}
	for _, ev := range evs {
		meta := contentMeta(t, ev)
		if meta.Org != org || meta.Project != "web" || meta.Model == nil || *meta.Model != "post" ||
			meta.Actor == nil || meta.Actor.Via != webhook.ViaMCP || meta.Actor.UserID != partnertest.ContentAgentPrefix+r.g.ID {
			t.Errorf("%s: shared fields %+v (actor %+v)", ev.Type, meta, meta.Actor)
		}
	}
	check := func(i int, id, prev, st string, changed []string) *webhook.EntryChange {
		t.Helper()
		ch := entryOf(t, evs[i])
		if ch.Entry.ID != id || status(ch.Entry.PreviousStatus) != prev || status(ch.Entry.Status) != st ||
			!slices.Equal(ch.ChangedLanguages, changed) || (changed != nil && ch.ChangedLanguages == nil) {
			t.Errorf("event %d %s: entry %+v %s -> %s, changed %v; want %s %s -> %s, changed %v", i, evs[i].Type,
				ch.Entry, status(ch.Entry.PreviousStatus), status(ch.Entry.Status), ch.ChangedLanguages, id, prev, st, changed)
		}
		if (st == "published") != (ch.Entry.PublishedAt != nil) {
			t.Errorf("event %d %s: publishedAt %v with status %s", i, evs[i].Type, ch.Entry.PublishedAt, st)
		}
		return ch
	}
	check(1, hello.ID, "null", "draft", []string{"de", "en"})
	check(2, bye.ID, "null", "draft", []string{"en"})
	check(3, hello.ID, "draft", "draft", []string{"de"})
	check(4, hello.ID, "draft", "published", []string{})
	check(5, hello.ID, "published", "published", []string{}) // a re-publish
	check(6, bye.ID, "draft", "published", []string{})
	roll := evs[7].Data.(*webhook.EntriesBulkPublished)
	if roll.Count != 2 || len(roll.Entries) != 2 || roll.Entries[0].ID != hello.ID || roll.Entries[1].ID != bye.ID ||
		status(roll.Entries[0].PreviousStatus) != "published" || status(roll.Entries[1].PreviousStatus) != "draft" ||
		status(roll.Entries[1].Status) != "published" || !slices.Equal(roll.Languages, []string{"de", "en"}) {
		t.Errorf("bulkPublished = %+v", roll.BulkChange)
	}
	check(8, bye.ID, "published", "draft", []string{})
	check(9, dup.ID, "null", "draft", []string{"de", "en"})
	del := check(10, bye.ID, "null", "null", nil)
	if del.Entry.Slug != "bye" || del.Entry.SourceLanguageCode != nil || del.Entry.PublishedAt != nil {
		t.Errorf("deleted = %+v", del.Entry)
	}
	for _, d := range r.srv.Deliveries() {
		if d.Err != nil {
			t.Errorf("delivery %s (%s): %v", d.EventID, d.EventType, d.Err)
		}
	}
}

// TestContentBulkPartialFailures: rows a bulk call could not write are
// listed in Failed with their position and reason, next to the rows it
// wrote; the written rows send their events, the failed ones none.
func TestContentBulkPartialFailures(t *testing.T) {
	r := newContentRig(t)
	ctx := t.Context()
	if _, err := r.c.Content.Models.Create(ctx, r.project, postModel); err != nil {
		t.Fatal(err)
	}
	created, err := r.c.Content.Entries.BulkCreate(ctx, r.project, "post", []content.NewEntry{
		{Title: "A", Slug: "a"}, {Title: "B", Slug: "b", Fields: map[string]any{"rank": "not a number"}}, {Title: "A again", Slug: "a"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if created.Count != 1 || len(created.Entries) != 1 || created.Entries[0].Slug != "a" || created.Entries[0].ID == "" || len(created.Failed) != 2 {
		t.Fatalf("BulkCreate = %+v", created)
	}
	for i, f := range created.Failed {
		if want := []int{1, 2}[i]; f.Index != want || f.Slug != []string{"b", "a"}[i] || f.Error == "" {
			t.Errorf("BulkCreate failure %d = %+v, want index %d with its reason", i, f, want)
		}
	}
	a := created.Entries[0].ID

	updated, err := r.c.Content.Entries.BulkUpdate(ctx, r.project, []content.EntryChange{
		{ID: noSuchEntry, EntryUpdate: content.EntryUpdate{Title: "X"}},
		{ID: a, EntryUpdate: content.EntryUpdate{Language: "fr", Title: "A (fr)", Status: content.StatusArchived}},
		{ID: a, EntryUpdate: content.EntryUpdate{Fields: map[string]any{"rank": true}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Count != 1 || len(updated.Entries) != 1 || updated.Entries[0].ID != a || updated.Entries[0].Status != content.StatusArchived {
		t.Fatalf("BulkUpdate = %+v", updated)
	}
	if len(updated.Failed) != 2 || updated.Failed[0].Index != 0 || updated.Failed[0].ID != noSuchEntry ||
		updated.Failed[1].Index != 2 || updated.Failed[1].ID != a || !strings.Contains(updated.Failed[1].Error, "rank") {
		t.Errorf("BulkUpdate failures %+v", updated.Failed)
	}

	evs := r.in.take(t)
	want := []webhook.EventType{webhook.EventModelCreated, webhook.EventEntryCreated, webhook.EventEntryUnpublished, webhook.EventEntriesBulkUpdated}
	if !slices.Equal(eventTypes(evs), want) {
		t.Fatalf("events %v, want %v", eventTypes(evs), want)
	}
	// draft -> archived is unpublished (partnertest's documented reading).
	if ch := entryOf(t, evs[2]); status(ch.Entry.PreviousStatus) != "draft" || status(ch.Entry.Status) != "archived" ||
		!slices.Equal(ch.ChangedLanguages, []string{"fr"}) || !slices.Equal(ch.Languages, []string{"en", "fr"}) {
		t.Errorf("unpublished = %+v, languages %v, changed %v", ch.Entry, ch.Languages, ch.ChangedLanguages)
	}
	if roll := evs[3].Data.(*webhook.EntriesBulkUpdated); roll.Count != 1 || len(roll.Entries) != 1 || roll.Entries[0].Slug != "a" {
		t.Errorf("bulkUpdated = %+v", roll.BulkChange)
	}

	// A batch where every row fails: no Go error, every row listed, no
	// event.
	none, err := r.c.Content.Entries.BulkPublish(ctx, r.project, []string{noSuchEntry})
	if err != nil || none.Count != 0 || len(none.Failed) != 1 || none.Failed[0].Index != 0 {
		t.Errorf("BulkPublish of an unknown id: %+v, %v", none, err)
	}
	if evs := r.in.take(t); len(evs) != 0 {
		t.Errorf("a bulk call that wrote nothing sent %v", eventTypes(evs))
	}
}

// TestContentEntryListingPages: 23 entries listed 10 a page come in 3
// pages, every entry once, one listContentEntries call per page; breaking
// out of the loop stops the listing.
func TestContentEntryListingPages(t *testing.T) {
	r := newRig(t)
	ctx := t.Context()
	if _, err := r.c.Content.Models.Create(ctx, r.project, postModel); err != nil {
		t.Fatal(err)
	}
	var batch []content.NewEntry
	for i := range 23 {
		batch = append(batch, content.NewEntry{Title: fmt.Sprintf("Entry %d", i), Slug: fmt.Sprintf("e%02d", i), Fields: map[string]any{"rank": i}})
	}
	if res, err := r.c.Content.Entries.BulkCreate(ctx, r.project, "post", batch); err != nil || res.Count != 23 || len(res.Failed) != 0 {
		t.Fatalf("BulkCreate = %+v, %v", res, err)
	}
	calls := func() int { return r.srv.ContentMCPCounts().ToolCalls["listContentEntries"] }

	before := calls()
	seen := map[string]int{}
	for e, err := range r.c.Content.Entries.All(ctx, r.project, content.ListOptions{Model: "post", PageSize: 10, Sort: content.SortTitle, Order: content.Ascending}) {
		if err != nil {
			t.Fatal(err)
		}
		if e.ID == "" || e.Model != "post" || !strings.HasPrefix(e.Title, "Entry ") || e.Status != content.StatusDraft || e.Fields["rank"] == "" {
			t.Errorf("entry %+v", e)
		}
		seen[e.Slug]++
	}
	if len(seen) != 23 {
		t.Errorf("All listed %d distinct entries, want 23", len(seen))
	}
	for slug, n := range seen {
		if n != 1 {
			t.Errorf("All listed %s %d times", slug, n)
		}
	}
	if n := calls() - before; n != 3 {
		t.Errorf("All made %d listContentEntries calls, want 3", n)
	}

	var sizes []int
	for p, err := range r.c.Content.Entries.Pages(ctx, r.project, content.ListOptions{PageSize: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 23 || p.Number != len(sizes)+1 || p.HasMore != (p.Number < 3) {
			t.Errorf("page %d: total %d, more %v", p.Number, p.Total, p.HasMore)
		}
		sizes = append(sizes, len(p.Entries))
	}
	if !slices.Equal(sizes, []int{10, 10, 3}) {
		t.Errorf("page sizes %v, want [10 10 3]", sizes)
	}

	// Filters reach the tool: only the published one.
	if _, err := r.c.Content.Entries.Publish(ctx, r.project, firstID(t, r)); err != nil {
		t.Fatal(err)
	}
	n := 0
	for e, err := range r.c.Content.Entries.All(ctx, r.project, content.ListOptions{Statuses: []content.Status{content.StatusPublished}}) {
		if err != nil || e.Status != content.StatusPublished {
			t.Fatalf("published only: %+v, %v", e, err)
		}
		n++
	}
	if n != 1 {
		t.Errorf("%d published entries listed, want 1", n)
	}

	before = calls()
	for range r.c.Content.Entries.All(ctx, r.project, content.ListOptions{PageSize: 10}) {
		break
	}
	if n := calls() - before; n != 1 {
		t.Errorf("a loop left after the first entry made %d listContentEntries calls, want 1", n)
	}
}

func firstID(t *testing.T, r *rig) string {
	t.Helper()
	for e, err := range r.c.Content.Entries.All(t.Context(), r.project, content.ListOptions{PageSize: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		return e.ID
	}
	t.Fatal("no entry")
	return ""
}

// TestContentArgumentsCheckedBeforeAnyRequest: what the SDK can check
// fails with ErrInvalidArgument naming the field, and sends nothing (not
// even a token request).
func TestContentArgumentsCheckedBeforeAnyRequest(t *testing.T) {
	r := newRig(t)
	assertRefusedBeforeAnyRequest(t, r, []badArgument{
		{"Create without model", "Model", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Title: "T", Slug: "s"})
			return err
		}},
		{"Create without title", "Title", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Slug: "s"})
			return err
		}},
		{"Create archived", "Status", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "T", Slug: "s", Status: content.StatusArchived})
			return err
		}},
		{"Create in a project without org", "project", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Create(ctx, "web", content.NewEntry{Model: "post", Title: "T", Slug: "s"})
			return err
		}},
		{"Update that changes nothing", "update", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Update(ctx, r.project, noSuchEntry, content.EntryUpdate{})
			return err
		}},
		{"Update with Language and Translations", "Language", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Update(ctx, r.project, noSuchEntry, content.EntryUpdate{Language: "de", Title: "T",
				Translations: map[string]content.LanguageValues{"fr": {Title: "T"}}})
			return err
		}},
		{"Update to an unknown status", "Status", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Update(ctx, r.project, noSuchEntry, content.EntryUpdate{Status: "live"})
			return err
		}},
		{"Publish without id", "entry id", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Publish(ctx, r.project, "")
			return err
		}},
		{"Duplicate to a bad slug", "new slug", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.Duplicate(ctx, r.project, noSuchEntry, "Not A Slug")
			return err
		}},
		{"BulkPublish of 501 ids", "ids", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.BulkPublish(ctx, r.project, uuids(content.MaxBulkPublish+1))
			return err
		}},
		{"BulkPublish of none", "ids", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.BulkPublish(ctx, r.project, nil)
			return err
		}},
		{"BulkUpdate of 201", "entries", func(ctx context.Context) error {
			cs := make([]content.EntryChange, content.MaxBulkUpdate+1)
			for i, id := range uuids(len(cs)) {
				cs[i] = content.EntryChange{ID: id, EntryUpdate: content.EntryUpdate{Title: "T"}}
			}
			_, err := r.c.Content.Entries.BulkUpdate(ctx, r.project, cs)
			return err
		}},
		{"BulkUpdate row without id", "entries[1].ID", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.BulkUpdate(ctx, r.project, []content.EntryChange{
				{ID: noSuchEntry, EntryUpdate: content.EntryUpdate{Title: "T"}}, {EntryUpdate: content.EntryUpdate{Title: "T"}}})
			return err
		}},
		{"BulkCreate of another model", "entries[0].Model", func(ctx context.Context) error {
			_, err := r.c.Content.Entries.BulkCreate(ctx, r.project, "post", []content.NewEntry{{Model: "page", Title: "T", Slug: "s"}})
			return err
		}},
		{"page size over the limit", "PageSize", func(ctx context.Context) error {
			for _, err := range r.c.Content.Entries.All(ctx, r.project, content.ListOptions{PageSize: content.MaxPageSize + 1}) {
				return err
			}
			return nil
		}},
		{"Models.Create without slug", "Slug", func(ctx context.Context) error {
			_, err := r.c.Content.Models.Create(ctx, r.project, content.NewModel{DisplayName: "Post"})
			return err
		}},
	})
}

// TestContentMissingPublishScope: a grant without content:publish may
// write entries but not publish them, however it asks: a
// *MissingScopeError naming the scope, and nothing published.
func TestContentMissingPublishScope(t *testing.T) {
	scopes := slices.DeleteFunc(partnertest.AllScopes(), func(s string) bool { return s == partnertest.ScopeContentPublish })
	r := newContentRig(t, withGrant(partnertest.WithScopes(scopes...)))
	ctx := t.Context()
	if _, err := r.c.Content.Models.Create(ctx, r.project, postModel); err != nil {
		t.Fatal(err)
	}
	e, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "T", Slug: "t"})
	if err != nil {
		t.Fatalf("a draft without content:publish: %v", err)
	}
	r.in.take(t)
	for name, call := range map[string]func() error{
		"Entries.Publish": func() error { _, err := r.c.Content.Entries.Publish(ctx, r.project, e.ID); return err },
		"Entries.BulkPublish": func() error {
			_, err := r.c.Content.Entries.BulkPublish(ctx, r.project, []string{e.ID})
			return err
		},
		"Entries.Update to published": func() error {
			_, err := r.c.Content.Entries.Update(ctx, r.project, e.ID, content.EntryUpdate{Status: content.StatusPublished})
			return err
		},
		"Entries.Create published": func() error {
			_, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "U", Slug: "u", Status: content.StatusPublished})
			return err
		},
	} {
		err := call()
		var mse *partner.MissingScopeError
		if !errors.As(err, &mse) || mse.Required != partnertest.ScopeContentPublish || !errors.Is(err, partner.ErrMissingScope) {
			t.Errorf("%s: %v, want a *MissingScopeError with Required %q", name, err, partnertest.ScopeContentPublish)
		}
		if errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("%s: a missing scope matches ErrReauthorizationRequired", name)
		}
	}
	if evs := r.in.take(t); len(evs) != 0 {
		t.Errorf("refused calls sent %v", eventTypes(evs))
	}
	for _, ce := range r.srv.ContentEntries(r.p.ID) {
		if ce.Status != "draft" {
			t.Errorf("entry %s is %s", ce.Slug, ce.Status)
		}
	}
	// The grant still does what it may.
	if _, err := r.c.Content.Entries.Update(ctx, r.project, e.ID, content.EntryUpdate{Status: content.StatusArchived}); err != nil {
		t.Errorf("archiving without content:publish: %v", err)
	}
}
