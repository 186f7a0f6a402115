package partnertest_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// contentFixture is a server with one grant, a project "org-1/web"
// (source en, targets de and fr), a session with the content tools, and a
// webhook receiver that verifies every delivery.
type contentFixture struct {
	srv   *partnertest.Server
	g     partnertest.Grant
	p     partnertest.Project
	token string
	cs    *mcp.ClientSession
	rcv   *eventLog
}

// eventLog is a webhook receiver that verifies and decodes what it gets.
type eventLog struct {
	mu  sync.Mutex
	evs []*webhook.Event
}

// take returns the events received since the last take, in the order of
// their data's own timestamp (deliveries may arrive in any order).
func (l *eventLog) take(t testing.TB) []*webhook.Event {
	t.Helper()
	l.mu.Lock()
	evs := l.evs
	l.evs = nil
	l.mu.Unlock()
	slices.SortStableFunc(evs, func(a, b *webhook.Event) int { return eventTime(t, a).Compare(eventTime(t, b)) })
	return evs
}

// eventTime is a content event's own timestamp (data.timestamp).
func eventTime(t testing.TB, ev *webhook.Event) time.Time {
	var d struct{ Timestamp time.Time }
	if err := json.Unmarshal(ev.RawData(), &d); err != nil {
		t.Fatalf("%s: %v", ev.Type, err)
	}
	return d.Timestamp
}

func newContentFixture(t testing.TB, opts ...partnertest.GrantOption) *contentFixture {
	t.Helper()
	srv := newServer(t)
	g := srv.NewGrant(opts...)
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}, {Code: "fr", Name: "French"}}})
	tok := srv.IssueInstallationToken(g.ID)
	f := &contentFixture{srv: srv, g: g, p: p, token: tok, cs: connectTo(t, srv, srv.ContentMCPURL, tok), rcv: &eventLog{}}
	h := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(p.ID, "http://"+h.Listener.Addr().String())
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	h.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		f.rcv.mu.Lock()
		defer f.rcv.mu.Unlock()
		f.rcv.evs = append(f.rcv.evs, ev)
		return nil
	})
	h.Start()
	t.Cleanup(h.Close)
	return f
}

// types returns the events' types.
func types(evs []*webhook.Event) []webhook.EventType {
	var out []webhook.EventType
	for _, ev := range evs {
		out = append(out, ev.Type)
	}
	return out
}

// entryMin is EntryMin of mcp-tools.md section 8.
type entryMin struct {
	ID    string                        `json:"id"`
	Sl    string                        `json:"sl"`
	St    string                        `json:"st"`
	PubAt *string                       `json:"pub_at"`
	CAt   string                        `json:"c_at"`
	UAt   string                        `json:"u_at"`
	Slang string                        `json:"slang"`
	Langs []string                      `json:"langs"`
	Mdl   struct{ Sl, Dn, Kind string } `json:"mdl"`
	Cfv   map[string]*string            `json:"cfv"`
}

// blogModel makes the model "post" with a localized text field "summary",
// a number "rank" and an enum "tone", through createContentModel.
func (f *contentFixture) blogModel(t testing.TB) {
	t.Helper()
	callOK(t, f.cs, "createContentModel", map[string]any{"project": project, "slug": "post", "displayName": "Post", "fields": []any{
		map[string]any{"name": "summary", "displayName": "Summary", "localized": true},
		map[string]any{"name": "rank", "displayName": "Rank", "type": "number"},
		map[string]any{"name": "tone", "displayName": "Tone", "type": "enum", "options": map[string]any{"enumValues": []any{
			map[string]string{"label": "Calm", "value": "calm"}, map[string]string{"label": "Loud", "value": "loud"}}}},
	}}, new(map[string]any))
}

func (f *contentFixture) create(t testing.TB, slug string, extra map[string]any) entryMin {
	t.Helper()
	args := map[string]any{"project": project, "modelSlug": "post", "title": "Title " + slug, "slug": slug}
	for k, v := range extra {
		args[k] = v
	}
	var out struct {
		Created bool     `json:"created"`
		Entry   entryMin `json:"entry"`
	}
	callOK(t, f.cs, "createContentEntry", args, &out)
	if !out.Created || !uuidLike(out.Entry.ID) {
		t.Fatalf("createContentEntry = %+v", out)
	}
	return out.Entry
}

// checkEntryEvent checks a single-entry event's typed data.
func checkEntryEvent(t testing.TB, ev *webhook.Event, typ webhook.EventType, id string, status, prev string, changed []string) webhook.EntryChange {
	t.Helper()
	if ev.Type != typ {
		t.Fatalf("event %s, want %s", ev.Type, typ)
	}
	var ch webhook.EntryChange
	switch d := ev.Data.(type) {
	case *webhook.EntryCreated:
		ch = d.EntryChange
	case *webhook.EntryUpdated:
		ch = d.EntryChange
	case *webhook.EntryPublished:
		ch = d.EntryChange
	case *webhook.EntryUnpublished:
		ch = d.EntryChange
	case *webhook.EntryDeleted:
		ch = d.EntryChange
	default:
		t.Fatalf("%s decoded to %T", ev.Type, ev.Data)
	}
	str := func(s *webhook.EntryStatus) string {
		if s == nil {
			return ""
		}
		return string(*s)
	}
	if ch.Entry.ID != id || str(ch.Entry.Status) != status || str(ch.Entry.PreviousStatus) != prev {
		t.Errorf("%s: entry %s status %q previous %q, want %s status %q previous %q", typ, ch.Entry.ID, str(ch.Entry.Status), str(ch.Entry.PreviousStatus), id, status, prev)
	}
	if changed != nil && !slices.Equal(ch.ChangedLanguages, changed) {
		t.Errorf("%s: changedLanguages %q, want %q", typ, ch.ChangedLanguages, changed)
	}
	if ch.Event != typ || ch.Org != "org-1" || ch.Project != "web" || ch.Model == nil || *ch.Model != "post" ||
		ch.Actor == nil || ch.Actor.Via != webhook.ViaMCP || ch.Actor.UserID != partnertest.ContentAgentPrefix+"grant_1" {
		t.Errorf("%s: shared fields %+v actor %+v", typ, ch.ContentMeta, ch.Actor)
	}
	if published := str(ch.Entry.Status) == "published"; published != (ch.Entry.PublishedAt != nil) {
		t.Errorf("%s: status %s with publishedAt %v", typ, str(ch.Entry.Status), ch.Entry.PublishedAt)
	}
	return ch
}

// TestContentEntryLifecycle: each entry tool's event follows the spec's
// transition table, with the shared fields.
func TestContentEntryLifecycle(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	if evs := f.rcv.take(t); !slices.Equal(types(evs), []webhook.EventType{webhook.EventModelCreated}) {
		t.Fatalf("createContentModel sent %v", types(evs))
	}
	e := f.create(t, "hello", map[string]any{"customFields": map[string]any{"summary": "Sum", "rank": 3}})
	if e.St != "draft" || e.PubAt != nil || e.Slang != "en" || !slices.Equal(e.Langs, []string{"en"}) || e.Mdl.Sl != "post" ||
		*e.Cfv["summary"] != "Sum" || *e.Cfv["rank"] != "3" || e.Cfv["tone"] != nil {
		t.Errorf("created entry %+v", e)
	}
	ch := checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryCreated, e.ID, "draft", "", []string{"en"})
	if ch.Entry.SourceLanguageCode == nil || *ch.Entry.SourceLanguageCode != "en" || !slices.Equal(ch.Languages, []string{"en"}) {
		t.Errorf("created: %+v", ch)
	}

	var upd struct {
		Updated bool     `json:"updated"`
		Entry   entryMin `json:"entry"`
	}
	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "languageCode": "DE",
		"title": "Hallo", "customFields": map[string]any{"summary": "Zus"}}, &upd)
	if !upd.Updated || !slices.Equal(upd.Entry.Langs, []string{"de", "en"}) || *upd.Entry.Cfv["summary"] != "Sum" {
		t.Errorf("update in de: %+v", upd)
	}
	ch = checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryUpdated, e.ID, "draft", "draft", []string{"de"})
	if !slices.Equal(ch.Languages, []string{"de", "en"}) {
		t.Errorf("languages %v", ch.Languages)
	}

	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "published",
		"translations": map[string]any{"fr": map[string]any{"title": "Salut"}}}, &upd)
	evs := f.rcv.take(t)
	if len(evs) != 1 {
		t.Fatalf("an edit with a status change sent %v, want one published", types(evs))
	}
	ch = checkEntryEvent(t, evs[0], webhook.EventEntryPublished, e.ID, "published", "draft", []string{"fr"})
	if upd.Entry.PubAt == nil || *upd.Entry.PubAt != ch.Entry.PublishedAt.UTC().Format("2006-01-02T15:04:05.000Z07:00") {
		t.Errorf("pub_at %v, event publishedAt %v", upd.Entry.PubAt, ch.Entry.PublishedAt)
	}

	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "published", "slug": "hello-world"}, &upd)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryUpdated, e.ID, "published", "published", []string{"de", "en", "fr"})

	var pub struct {
		Published bool     `json:"published"`
		Entry     entryMin `json:"entry"`
	}
	callOK(t, f.cs, "publishContentEntry", map[string]any{"project": project, "entryId": e.ID}, &pub)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryPublished, e.ID, "published", "published", []string{})

	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "draft"}, &upd)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryUnpublished, e.ID, "draft", "published", []string{})
	if upd.Entry.PubAt != nil {
		t.Errorf("pub_at %v after unpublishing", *upd.Entry.PubAt)
	}
	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "archived"}, &upd)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryUnpublished, e.ID, "archived", "draft", []string{})
	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "published"}, &upd)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryPublished, e.ID, "published", "archived", []string{})
	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "archived"}, &upd)
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryUnpublished, e.ID, "archived", "published", []string{})

	var full struct {
		Tr map[string]struct {
			Lc, T string
			Cfv   map[string]*string
		} `json:"tr"`
		Vers []struct {
			V   int    `json:"v"`
			Lc  string `json:"lc"`
			Chg string `json:"chg"`
		} `json:"vers"`
	}
	callOK(t, f.cs, "getContentEntry", map[string]any{"project": project, "entryId": e.ID}, &full)
	if full.Tr["de"].T != "Hallo" || *full.Tr["de"].Cfv["summary"] != "Zus" || full.Tr["fr"].T != "Salut" || len(full.Vers) == 0 || full.Vers[0].Chg != "unpublished" {
		t.Errorf("getContentEntry: %+v", full)
	}

	var del struct{ Deleted, OK bool }
	callOK(t, f.cs, "deleteContentEntry", map[string]any{"project": project, "entryId": e.ID}, &del)
	if !del.Deleted || !del.OK {
		t.Errorf("deleteContentEntry = %+v", del)
	}
	evs = f.rcv.take(t)
	ch = checkEntryEvent(t, evs[0], webhook.EventEntryDeleted, e.ID, "", "", nil)
	if ch.Entry.Slug != "hello-world" || ch.Entry.PublishedAt != nil || ch.Entry.SourceLanguageCode != nil || ch.ChangedLanguages != nil {
		t.Errorf("deleted: %+v", ch)
	}
	var raw map[string]json.RawMessage
	json.Unmarshal(evs[0].RawData(), &raw)
	var entry map[string]json.RawMessage
	json.Unmarshal(raw["entry"], &entry)
	if _, ok := raw["changedLanguages"]; ok {
		t.Errorf("deleted event has changedLanguages: %s", evs[0].RawData())
	}
	for _, k := range []string{"status", "previousStatus", "publishedAt", "sourceLanguageCode"} {
		if string(entry[k]) != "null" {
			t.Errorf("deleted event: entry.%s = %s, want null", k, entry[k])
		}
	}
	if got := f.srv.ContentEntries(f.p.ID); len(got) != 0 {
		t.Errorf("entries after the delete: %+v", got)
	}
	if text := callErr(t, f.cs, "getContentEntry", map[string]any{"project": project, "entryId": e.ID}); text != "Entry not found" {
		t.Errorf("get after delete: %q", text)
	}
}

// TestContentCreatePublished: an entry created published goes through
// draft: created (draft), then published (previous draft).
func TestContentCreatePublished(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	f.rcv.take(t)
	e := f.create(t, "live", map[string]any{"status": "published"})
	if e.St != "published" || e.PubAt == nil {
		t.Errorf("entry %+v", e)
	}
	evs := f.rcv.take(t)
	if len(evs) != 2 {
		t.Fatalf("events %v", types(evs))
	}
	checkEntryEvent(t, evs[0], webhook.EventEntryCreated, e.ID, "draft", "", []string{"en"})
	checkEntryEvent(t, evs[1], webhook.EventEntryPublished, e.ID, "published", "draft", []string{})
	if !eventTime(t, evs[0]).Before(eventTime(t, evs[1])) {
		t.Errorf("timestamps %v, %v do not order the events", eventTime(t, evs[0]), eventTime(t, evs[1]))
	}

	var dup struct {
		Duplicated bool     `json:"duplicated"`
		Entry      entryMin `json:"entry"`
	}
	callOK(t, f.cs, "duplicateContentEntry", map[string]any{"project": project, "entryId": e.ID}, &dup)
	if !dup.Duplicated || dup.Entry.Sl != "live-copy" || dup.Entry.St != "draft" || dup.Entry.ID == e.ID {
		t.Errorf("duplicate: %+v", dup)
	}
	checkEntryEvent(t, f.rcv.take(t)[0], webhook.EventEntryCreated, dup.Entry.ID, "draft", "", []string{"en"})
	if text := callErr(t, f.cs, "duplicateContentEntry", map[string]any{"project": project, "entryId": e.ID}); !strings.Contains(text, "already exists") {
		t.Errorf("second duplicate: %q", text)
	}
}

// TestContentBulk: bulk tools report per-item failures in the result and
// send one rollup plus one event per affected entry.
func TestContentBulk(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	var bc struct {
		Created int `json:"created"`
		Entries []struct{ ID, Sl, St string }
		Failed  []struct {
			Idx int
			Sl  string
			Err string
		}
		Warn string
	}
	callOK(t, f.cs, "bulkCreateEntries", map[string]any{"project": project, "modelSlug": "post", "entries": []any{
		map[string]any{"title": "A", "slug": "a", "bodyMarkdown": "# A\ntext"},
		map[string]any{"title": "B", "slug": "b", "status": "published"},
		map[string]any{"title": "A again", "slug": "a"},
		map[string]any{"title": "C", "slug": "c", "customFields": `{"tone":"shouty"}`},
		map[string]any{"title": "D", "slug": "d", "customFields": `{"tone":"calm"}`},
	}}, &bc)
	if bc.Created != 3 || len(bc.Entries) != 3 || len(bc.Failed) != 2 || bc.Failed[0].Idx != 2 || bc.Failed[0].Sl != "a" ||
		!strings.Contains(bc.Failed[0].Err, "already exists") || bc.Failed[1].Idx != 3 || !strings.Contains(bc.Failed[1].Err, `"shouty"`) ||
		!strings.HasPrefix(bc.Warn, "Body starts with # H1 heading in: a (en)") || bc.Entries[1].St != "published" {
		t.Fatalf("bulkCreateEntries = %+v", bc)
	}
	a, b, d := bc.Entries[0].ID, bc.Entries[1].ID, bc.Entries[2].ID
	if got := types(f.rcv.take(t)); !slices.Equal(got, []webhook.EventType{webhook.EventModelCreated, webhook.EventEntryCreated,
		webhook.EventEntryCreated, webhook.EventEntryPublished, webhook.EventEntryCreated}) {
		t.Errorf("bulkCreateEntries sent %v (no rollup)", got)
	}

	missing := "00000000-0000-4000-8000-000000000000"
	var bp struct {
		Pub  int `json:"pub"`
		Fail []struct{ ID, Err string }
	}
	callOK(t, f.cs, "bulkPublishEntries", map[string]any{"project": project, "entryIds": []string{a, b, missing}}, &bp)
	if bp.Pub != 2 || len(bp.Fail) != 1 || bp.Fail[0].ID != missing || bp.Fail[0].Err != "Entry not found" {
		t.Errorf("bulkPublishEntries = %+v", bp)
	}
	evs := f.rcv.take(t)
	if len(evs) != 3 {
		t.Fatalf("bulk publish sent %v", types(evs))
	}
	checkEntryEvent(t, evs[0], webhook.EventEntryPublished, a, "published", "draft", []string{})
	checkEntryEvent(t, evs[1], webhook.EventEntryPublished, b, "published", "published", []string{})
	roll, ok := evs[2].Data.(*webhook.EntriesBulkPublished)
	if !ok || roll.Count != 2 || len(roll.Entries) != 2 || roll.Entries[1].ID != b || *roll.Entries[1].PreviousStatus != "published" ||
		*roll.Entries[0].PreviousStatus != "draft" || roll.Actor.Via != webhook.ViaMCP || !slices.Equal(roll.Languages, []string{"en"}) {
		t.Errorf("rollup %+v", evs[2].Data)
	}

	var bu struct {
		Updated int `json:"updated"`
		Entries []struct{ ID, St string }
		Failed  []struct {
			Idx     int
			ID, Err string
		}
	}
	callOK(t, f.cs, "bulkUpdateEntries", map[string]any{"project": project, "entries": []any{
		map[string]any{"entryId": a, "status": "draft"},
		map[string]any{"entryId": b, "languageCode": "de", "title": "B de"},
		map[string]any{"entryId": d, "status": "published"},
		map[string]any{"entryId": missing, "title": "x"},
		map[string]any{"entryId": d, "languageCode": "it", "title": "x"},
	}}, &bu)
	if bu.Updated != 3 || len(bu.Failed) != 2 || bu.Failed[0].Idx != 3 || bu.Failed[0].Err != "Entry not found" ||
		bu.Failed[1].Idx != 4 || !strings.Contains(bu.Failed[1].Err, `"it"`) || bu.Entries[0].St != "draft" {
		t.Errorf("bulkUpdateEntries = %+v", bu)
	}
	evs = f.rcv.take(t)
	if len(evs) != 4 {
		t.Fatalf("bulk update sent %v", types(evs))
	}
	checkEntryEvent(t, evs[0], webhook.EventEntryUnpublished, a, "draft", "published", []string{})
	checkEntryEvent(t, evs[1], webhook.EventEntryUpdated, b, "published", "published", []string{"de"})
	checkEntryEvent(t, evs[2], webhook.EventEntryPublished, d, "published", "draft", []string{})
	ru, ok := evs[3].Data.(*webhook.EntriesBulkUpdated)
	if !ok || ru.Count != 3 || *ru.Entries[0].Status != "draft" || *ru.Entries[1].Status != "published" || *ru.Entries[2].PreviousStatus != "draft" ||
		!slices.Equal(ru.Languages, []string{"de", "en"}) {
		t.Errorf("rollup %+v", evs[3].Data)
	}
}

// TestContentToolErrors: bad input gets the validator's texts, and
// service failures their messages, with nothing changed.
func TestContentToolErrors(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	f.srv.AddContentModel(f.p.ID, partnertest.ContentModel{Slug: "req", Fields: []partnertest.ContentField{{Name: "must", Required: true}}})
	e := f.create(t, "e", nil)
	f.rcv.take(t)
	missing := "00000000-0000-4000-8000-000000000000"
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       string // prefix
	}{
		{"no title", "createContentEntry", map[string]any{"modelSlug": "post", "slug": "x"}, "Validation error: Required"},
		{"empty slug", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": ""}, "Validation error: String must contain at least 1 character(s)"},
		{"create archived", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "status": "archived"}, "Validation error: Invalid enum value. Expected 'draft' | 'published', received 'archived'"},
		{"unknown model", "createContentEntry", map[string]any{"modelSlug": "nope", "title": "X", "slug": "x"}, `Model "nope" not found`},
		{"taken slug", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "e"}, `An entry with slug "e" already exists in model "post"`},
		{"unknown field", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "customFields": map[string]any{"nope": 1}}, `Unknown field "nope" in model "post"`},
		{"number as string", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "customFields": map[string]any{"rank": "3"}}, `Invalid value for field "rank": expected a number, received string`},
		{"customFields not JSON", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "customFields": "{rank"}, "Validation error: customFields must be a JSON object"},
		{"required field missing", "createContentEntry", map[string]any{"modelSlug": "req", "title": "X", "slug": "x"}, `Field "must" is required`},
		{"language not in the project", "createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "translations": map[string]any{"it": map[string]any{"title": "X"}}}, `Language "it" is not enabled`},
		{"bad entry id", "updateContentEntry", map[string]any{"entryId": "ent_1"}, "Validation error: Invalid uuid"},
		{"unknown entry", "publishContentEntry", map[string]any{"entryId": missing}, "Entry not found"},
		{"bad status", "updateContentEntry", map[string]any{"entryId": e.ID, "status": "live"}, "Validation error: Invalid enum value"},
		{"bad new slug", "duplicateContentEntry", map[string]any{"entryId": e.ID, "newSlug": "Bad Slug"}, "Validation error: Invalid"},
		{"too many to publish", "bulkPublishEntries", map[string]any{"entryIds": make([]string, 501)}, "Validation error:"},
		{"no entries", "bulkCreateEntries", map[string]any{"modelSlug": "post", "entries": []any{}}, "Validation error: Array must contain at least 1 element(s)"},
		{"bad model slug", "createContentModel", map[string]any{"slug": "Blog Post", "displayName": "X"}, "Validation error: Invalid"},
		{"duplicate model", "createContentModel", map[string]any{"slug": "post", "displayName": "X"}, `A model with slug "post" already exists`},
		{"reserved model", "createContentModel", map[string]any{"slug": "users", "displayName": "X"}, `Model slug "users" is reserved`},
		{"bad field name", "addField", map[string]any{"modelSlug": "post", "name": "Title", "displayName": "T"}, "Validation error: Invalid"},
		{"bad field type", "addField", map[string]any{"modelSlug": "post", "name": "t", "displayName": "T", "type": "color"}, "Validation error: Invalid enum value"},
		{"existing field", "addField", map[string]any{"modelSlug": "post", "name": "rank", "displayName": "T"}, `Field "rank" already exists in model "post"`},
		{"unknown field to update", "updateField", map[string]any{"modelSlug": "post", "fieldName": "nope"}, `Field "nope" not found in model "post"`},
		{"reorder unknown", "reorderFields", map[string]any{"modelSlug": "post", "fieldNames": []string{"nope"}}, `Field "nope" not found`},
		{"short block slug", "registerBlock", map[string]any{"slug": "h", "displayName": "H", "jsonSchema": map[string]any{}}, "Validation error: String must contain at least 2 character(s)"},
		{"block without schema", "registerBlock", map[string]any{"slug": "hero", "displayName": "H"}, "Validation error: Required"},
		{"bad preview url", "registerBlock", map[string]any{"slug": "hero", "displayName": "H", "jsonSchema": map[string]any{}, "previewUrl": "nope"}, "Validation error: Invalid url"},
		{"unknown block", "getBlock", map[string]any{"slug": "hero"}, "Block not found"},
	} {
		tt.args["project"] = project
		if text := callErr(t, f.cs, tt.tool, tt.args); !strings.HasPrefix(text, tt.want) {
			t.Errorf("%s: %q, want it to start with %q", tt.name, text, tt.want)
		}
	}
	if got := f.srv.ContentEntries(f.p.ID); len(got) != 1 {
		t.Errorf("failed calls left %d entries", len(got))
	}
	if evs := f.rcv.take(t); len(evs) != 0 {
		t.Errorf("failed calls sent %v", types(evs))
	}
}

// TestContentScopes: reads need content:read, writes content:write, and
// anything that publishes content:publish, which DefaultScopes lacks.
func TestContentScopes(t *testing.T) {
	f := newContentFixture(t, partnertest.WithScopes(partnertest.DefaultScopes()...))
	f.blogModel(t)
	e := f.create(t, "e", nil)
	for _, tt := range []struct {
		tool string
		args map[string]any
	}{
		{"publishContentEntry", map[string]any{"entryId": e.ID}},
		{"bulkPublishEntries", map[string]any{"entryIds": []string{e.ID}}},
		{"updateContentEntry", map[string]any{"entryId": e.ID, "status": "published"}},
		{"createContentEntry", map[string]any{"modelSlug": "post", "title": "X", "slug": "x", "status": "published"}},
		{"bulkUpdateEntries", map[string]any{"entries": []any{map[string]any{"entryId": e.ID, "status": "published"}}}},
	} {
		tt.args["project"] = project
		if text := callErr(t, f.cs, tt.tool, tt.args); !strings.Contains(text, "missing_scope") || !strings.Contains(text, partnertest.ScopeContentPublish) {
			t.Errorf("%s without %s: %q", tt.tool, partnertest.ScopeContentPublish, text)
		}
	}
	callOK(t, f.cs, "updateContentEntry", map[string]any{"project": project, "entryId": e.ID, "status": "archived"}, new(map[string]any))
	if st := f.srv.ContentEntries(f.p.ID)[0].Status; st != "archived" {
		t.Errorf("status %s", st)
	}

	g := f.srv.NewGrant(partnertest.WithOrganizations(f.g.Organizations...), partnertest.WithScopes(partnertest.ScopeContentRead))
	cs := connectTo(t, f.srv, f.srv.ContentMCPURL, f.srv.IssueInstallationToken(g.ID))
	callOK(t, cs, "listContentEntries", map[string]any{"project": project}, new(map[string]any))
	if text := callErr(t, cs, "deleteContentEntry", map[string]any{"project": project, "entryId": e.ID}); !strings.Contains(text, partnertest.ScopeContentWrite) {
		t.Errorf("delete with content:read only: %q", text)
	}
	g = f.srv.NewGrant(partnertest.WithOrganizations(f.g.Organizations...), partnertest.WithScopes(partnertest.ScopeContentWrite))
	cs = connectTo(t, f.srv, f.srv.ContentMCPURL, f.srv.IssueInstallationToken(g.ID))
	if text := callErr(t, cs, "getContentEntry", map[string]any{"project": project, "entryId": e.ID}); !strings.Contains(text, partnertest.ScopeContentRead) {
		t.Errorf("get with content:write only: %q", text)
	}
}

// TestContentListEntries: filters, sorting and pages of
// listContentEntries.
func TestContentListEntries(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	f.srv.AddContentModel(f.p.ID, partnertest.ContentModel{Slug: "page"})
	for i, slug := range []string{"alpha", "beta", "gamma", "delta", "epsilon"} {
		extra := map[string]any{"customFields": map[string]any{"tone": []string{"calm", "loud"}[i%2]}}
		if i < 2 {
			extra["translations"] = map[string]any{"de": map[string]any{"title": "DE " + slug}}
		}
		if i == 4 {
			extra["status"] = "published"
		}
		f.create(t, slug, extra)
	}
	callOK(t, f.cs, "createContentEntry", map[string]any{"project": project, "modelSlug": "page", "title": "About", "slug": "about"}, new(map[string]any))

	type item struct {
		ID, Sl, St, T string
		Langs         []string
		Mdl           *struct{ Sl string }
		Body          *string
	}
	list := func(args map[string]any) ([]string, int, bool) {
		t.Helper()
		args["project"] = project
		var out struct {
			Items []item
			Tot   int
			More  bool
		}
		callOK(t, f.cs, "listContentEntries", args, &out)
		var slugs []string
		for _, it := range out.Items {
			slugs = append(slugs, it.Sl)
		}
		return slugs, out.Tot, out.More
	}
	for _, tt := range []struct {
		name string
		args map[string]any
		want []string
		tot  int
		more bool
	}{
		{"default: newest update first", map[string]any{}, []string{"about", "epsilon", "delta", "gamma", "beta", "alpha"}, 6, false},
		{"a model", map[string]any{"modelSlug": "page"}, []string{"about"}, 1, false},
		{"by title ascending, a page", map[string]any{"modelSlug": "post", "sort": "title", "order": "asc", "limit": 2, "page": 2}, []string{"delta", "epsilon"}, 5, true},
		{"status", map[string]any{"status": "published"}, []string{"epsilon"}, 1, false},
		{"statuses", map[string]any{"status": []string{"published", "archived"}}, []string{"epsilon"}, 1, false},
		{"has a language", map[string]any{"language": "de"}, []string{"beta", "alpha"}, 2, false},
		{"lacks a language", map[string]any{"missingLanguage": "de", "modelSlug": "post"}, []string{"epsilon", "delta", "gamma"}, 3, false},
		{"all languages", map[string]any{"language": []string{"de", "en"}, "languageMode": "all", "sort": "createdAt", "order": "asc"}, []string{"alpha", "beta"}, 2, false},
		{"where", map[string]any{"modelSlug": "post", "where": map[string]string{"tone": "loud"}}, []string{"delta", "beta"}, 2, false},
		{"search in titles", map[string]any{"search": "DE ALP"}, []string{"alpha"}, 1, false},
		{"search in other locales only", map[string]any{"search": "DE ALP", "searchLocales": []string{"en"}}, nil, 0, false},
		{"search, several terms", map[string]any{"search": []string{"gam", "about"}}, []string{"about", "gamma"}, 2, false},
		{"slugs", map[string]any{"slugs": []string{"beta", "nope"}}, []string{"beta"}, 1, false},
	} {
		got, tot, more := list(tt.args)
		if !slices.Equal(got, tt.want) || tot != tt.tot || more != tt.more {
			t.Errorf("%s: %v tot %d more %v, want %v tot %d more %v", tt.name, got, tot, more, tt.want, tt.tot, tt.more)
		}
	}
	var compact struct{ Items []map[string]any }
	callOK(t, f.cs, "listContentEntries", map[string]any{"project": project, "compact": true, "limit": 1}, &compact)
	if len(compact.Items) != 1 || len(compact.Items[0]) != 5 {
		t.Errorf("compact: %+v", compact.Items)
	}
	var users struct {
		Items []item
		Tot   int
	}
	callOK(t, f.cs, "listContentEntries", map[string]any{"project": project, "modelSlug": "users"}, &users)
	if users.Tot != 1 || users.Items[0].ID != f.g.User.ID {
		t.Errorf("users: %+v", users)
	}
	if text := callErr(t, f.cs, "listContentEntries", map[string]any{"project": project, "limit": 51}); text != "Validation error: Number must be less than or equal to 50" {
		t.Errorf("limit 51: %q", text)
	}
}
