package partner_test

// A property test of the content events: random sequences of entry
// operations through c.Content against partnertest, and the events a
// webhook.NewHandler receiver verified, checked against a model of the
// spec's transition table kept here, independent of partnertest's state.

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// The rules the model follows, from the spec's "States and transitions"
// and "Content CMS events" and, where they are silent, partnertest's
// documented decisions (marked *):
//
//	create                     created: draft, previousStatus null, publishedAt null,
//	                           changedLanguages = the entry's languages
//	create as published      * created, then published (previousStatus draft)
//	duplicate                * created (the copy, a draft, the source's languages)
//	edit, status unchanged     updated: previousStatus == status, changedLanguages =
//	                           the languages written (a slug change: all of them*)
//	edit to published          published: publishedAt set
//	edit from published        unpublished: previousStatus published, to draft or archived
//	edit draft <-> archived  * unpublished with the old previousStatus
//	publish                    published: publishedAt set; a re-publish* keeps
//	                           previousStatus published; changedLanguages []
//	delete                     deleted: status, previousStatus, publishedAt,
//	                           sourceLanguageCode null; no changedLanguages
//	bulk publish / update      one event per entry written, then* the rollup
//	                           (bulkPublished, bulkUpdated) with a row per entry
//
// publishedAt is the time of the last publish while the entry is published,
// and null otherwise*. Events are ordered by their own data.timestamp*.

// mEntry is the model's entry.
type mEntry struct {
	id, slug, status string
	langs            []string // sorted
}

// wantEvent is an event the model expects.
type wantEvent struct {
	op      int    // the operation that causes it
	what    string // the operation, for messages
	typ     webhook.EventType
	id      string
	slug    string
	prev    string // "" for null
	status  string // "" for null
	langs   []string
	changed []string // nil: absent (deleted)
	rows    []wantEvent
}

// contentModel is the test's model of the project's entries.
type contentModel struct {
	live  map[string]*mEntry // by id
	order []string           // live ids, oldest first
	dead  []string           // ids of deleted entries
	wants []wantEvent
}

func (m *contentModel) bySlug(slug string) *mEntry {
	for _, e := range m.live {
		if e.slug == slug {
			return e
		}
	}
	return nil
}

func (m *contentModel) add(e *mEntry) {
	m.live[e.id] = e
	m.order = append(m.order, e.id)
}

func (m *contentModel) remove(id string) {
	delete(m.live, id)
	m.order = slices.DeleteFunc(m.order, func(x string) bool { return x == id })
	m.dead = append(m.dead, id)
}

func addLangs(langs []string, more ...string) []string {
	for _, l := range more {
		if !slices.Contains(langs, l) {
			langs = append(langs, l)
		}
	}
	slices.Sort(langs)
	return langs
}

// entryEvent is the event of e as it is now.
func entryEvent(typ webhook.EventType, e *mEntry, prev string, changed []string) wantEvent {
	w := wantEvent{typ: typ, id: e.id, slug: e.slug, prev: prev, status: e.status, langs: slices.Clone(e.langs), changed: changed}
	if typ == webhook.EventEntryDeleted {
		w.prev, w.status, w.changed = "", "", nil
	}
	return w
}

// edit applies an edit to e: the languages it writes, a new slug ("" for
// none) and a status ("" for none); it returns the entry's event.
func edit(e *mEntry, wrote []string, slug string, to content.Status) wantEvent {
	e.langs = addLangs(e.langs, wrote...)
	changed := addLangs([]string{}, wrote...)
	if slug != "" && slug != e.slug {
		e.slug = slug
		changed = slices.Clone(e.langs)
	}
	prev := e.status
	typ := webhook.EventEntryUpdated
	switch {
	case to == "" || string(to) == prev:
	case to == content.StatusPublished:
		typ, e.status = webhook.EventEntryPublished, string(to)
	default:
		typ, e.status = webhook.EventEntryUnpublished, string(to)
	}
	return entryEvent(typ, e, prev, changed)
}

// editOp is a random edit: the EntryUpdate, the languages it writes, its
// new slug and whether the service refuses it (a value of the wrong
// type, or a slug another entry has).
type editOp struct {
	u     content.EntryUpdate
	wrote []string
	slug  string
	bad   bool
	what  string
}

var contentLangs = []string{"de", "en", "fr"}

func randomEdit(r *rand.Rand, m *contentModel, e *mEntry, slugs []string, i int) editOp {
	var o editOp
	lang := contentLangs[r.IntN(len(contentLangs))]
	switch r.IntN(8) {
	case 0:
		o.u.Title, o.wrote, o.what = fmt.Sprint("Title ", i), []string{"en"}, "title"
	case 1:
		o.u.Fields, o.wrote, o.what = map[string]any{"rank": i}, []string{"en"}, "rank"
	case 2:
		o.u.Fields, o.wrote, o.what = map[string]any{"summary": fmt.Sprint("summary ", i)}, []string{"en"}, "summary"
	case 3:
		o.u.Language, o.u.Title, o.wrote, o.what = lang, fmt.Sprint(lang, " title ", i), []string{lang}, lang+" title"
	case 4:
		o.u.Language, o.u.Fields, o.wrote, o.what = lang, map[string]any{"summary": fmt.Sprint(lang, " summary ", i)}, []string{lang}, lang+" summary"
	case 5:
		o.u.Translations = map[string]content.LanguageValues{"de": {Title: "de " + strconv.Itoa(i)}, "fr": {Fields: map[string]any{"summary": "fr"}}}
		o.wrote, o.what = []string{"de", "fr"}, "de and fr"
	case 6:
		o.slug = slugs[r.IntN(len(slugs))]
		if o.slug == e.slug {
			o.slug += "-x"
		}
		o.u.Slug, o.what = o.slug, "slug "+o.slug
		if other := m.bySlug(o.slug); other != nil && other != e {
			o.bad = true
		}
	case 7: // the status alone: nothing written
		o.u.Status = []content.Status{content.StatusDraft, content.StatusPublished, content.StatusArchived}[r.IntN(3)]
		o.what = "status " + string(o.u.Status)
		return o
	}
	if r.IntN(20) == 0 { // a value of the wrong type: refused, nothing written
		o.u.Fields, o.bad, o.what = map[string]any{"rank": "many"}, true, o.what+" and a bad rank"
	}
	if r.IntN(3) == 0 {
		o.u.Status = []content.Status{content.StatusDraft, content.StatusPublished, content.StatusArchived}[r.IntN(3)]
		o.what += " status " + string(o.u.Status)
	}
	return o
}

// contentSeed is the seed of TestContentEventsProperty: PARTNER_CONTENT_SEED
// when set, to replay a failure, or else the time.
func contentSeed(t *testing.T) uint64 {
	if s := os.Getenv("PARTNER_CONTENT_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("PARTNER_CONTENT_SEED: %v", err)
		}
		return n
	}
	return uint64(time.Now().UnixNano())
}

// TestContentEventsProperty drives 1,000 random entry operations through
// c.Content and checks every event the receiver verified, in the order
// of the events' timestamps, against the model. Replay a failure with
// PARTNER_CONTENT_SEED=<seed>.
func TestContentEventsProperty(t *testing.T) {
	seed := contentSeed(t)
	t.Logf("seed %d (replay with PARTNER_CONTENT_SEED=%d)", seed, seed)
	r := rand.New(rand.NewPCG(seed, 0))
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d: %s", seed, fmt.Sprintf(format, args...))
	}

	rig := newContentRig(t)
	ctx := t.Context()
	if _, err := rig.c.Content.Models.Create(ctx, rig.project, postModel); err != nil {
		t.Fatal(err)
	}
	rig.in.take(t) // content.model.created

	m := &contentModel{live: map[string]*mEntry{}}
	slugs := []string{"a", "b", "c", "d", "e", "f"}
	pick := func() string { // mostly a live entry; sometimes one gone or never made
		switch n := r.IntN(12); {
		case n == 0 || len(m.order) == 0 && len(m.dead) == 0:
			return noSuchEntry
		case n == 1 && len(m.dead) > 0 || len(m.order) == 0:
			return m.dead[r.IntN(len(m.dead))]
		}
		return m.order[r.IntN(len(m.order))]
	}
	// refused checks that a call the model says fails was refused by the
	// service, whole.
	refused := func(i int, what string, err error) {
		t.Helper()
		var te *partner.ToolError
		if !errors.As(err, &te) || errors.Is(err, partner.ErrTemporary) {
			fail("op %d %s: %v, want a *ToolError", i, what, err)
		}
	}
	expect := func(i int, what string, ws ...wantEvent) {
		for _, w := range ws {
			w.op, w.what = i, what
			for k := range w.rows {
				w.rows[k].op, w.rows[k].what = i, what
			}
			m.wants = append(m.wants, w)
		}
	}

	const ops = 1000
	for i := range ops {
		switch n := r.IntN(100); {
		case n < 14 && len(m.live) < 8: // create
			slug := slugs[r.IntN(len(slugs))]
			ne := content.NewEntry{Model: "post", Title: "T " + slug, Slug: slug, Fields: map[string]any{"rank": i}}
			langs := []string{"en"}
			if r.IntN(2) == 0 {
				ne.Translations = map[string]content.LanguageValues{"de": {Title: "DE " + slug}}
				langs = addLangs(langs, "de")
			}
			if r.IntN(3) == 0 {
				ne.Status = content.StatusPublished
			}
			what := fmt.Sprintf("create %s %s %v", slug, ne.Status, langs)
			got, err := rig.c.Content.Entries.Create(ctx, rig.project, ne)
			if m.bySlug(slug) != nil {
				refused(i, what, err)
				continue
			}
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			e := &mEntry{id: got.ID, slug: slug, status: "draft", langs: langs}
			m.add(e)
			expect(i, what, entryEvent(webhook.EventEntryCreated, e, "", slices.Clone(langs)))
			if ne.Status == content.StatusPublished {
				e.status = "published"
				expect(i, what, entryEvent(webhook.EventEntryPublished, e, "draft", []string{}))
			}
			if got.Status != content.Status(e.status) || !slices.Equal(got.Languages, e.langs) {
				fail("op %d %s: Create gave %s %v, the model has %+v", i, what, got.Status, got.Languages, *e)
			}

		case n < 50: // edit: texts, fields, one or several languages, the slug, the status
			id := pick()
			e := m.live[id]
			if e == nil {
				_, err := rig.c.Content.Entries.Update(ctx, rig.project, id, content.EntryUpdate{Title: "gone"})
				refused(i, "edit of an entry not there", err)
				continue
			}
			o := randomEdit(r, m, e, slugs, i)
			what := fmt.Sprintf("edit %s: %s", e.slug, o.what)
			got, err := rig.c.Content.Entries.Update(ctx, rig.project, id, o.u)
			if o.bad {
				refused(i, what, err)
				continue
			}
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			expect(i, what, edit(e, o.wrote, o.slug, o.u.Status))
			if got.Status != content.Status(e.status) || got.Slug != e.slug || !slices.Equal(got.Languages, e.langs) {
				fail("op %d %s: Update gave %s %s %v, the model has %+v", i, what, got.Slug, got.Status, got.Languages, *e)
			}

		case n < 62: // publish
			id := pick()
			e := m.live[id]
			got, err := rig.c.Content.Entries.Publish(ctx, rig.project, id)
			if e == nil {
				refused(i, "publish of an entry not there", err)
				continue
			}
			what := "publish " + e.slug
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			prev := e.status
			e.status = "published"
			expect(i, what, entryEvent(webhook.EventEntryPublished, e, prev, []string{}))
			if got.Status != content.StatusPublished || got.PublishedAt.IsZero() {
				fail("op %d %s: Publish gave %s at %v", i, what, got.Status, got.PublishedAt)
			}

		case n < 74: // bulk update: distinct entries, and rows that fail
			var cs []content.EntryChange
			var failIdx []int
			var ws []wantEvent
			roll := wantEvent{typ: webhook.EventEntriesBulkUpdated}
			used := map[string]bool{}
			what := "bulk update"
			for range 1 + r.IntN(4) {
				id := pick()
				e := m.live[id]
				if used[id] && e != nil {
					continue
				}
				used[id] = true
				if e == nil {
					failIdx = append(failIdx, len(cs))
					cs = append(cs, content.EntryChange{ID: id, EntryUpdate: content.EntryUpdate{Title: "gone"}})
					what += " (not there)"
					continue
				}
				o := randomEdit(r, m, e, slugs, i)
				what += fmt.Sprintf(" (%s: %s)", e.slug, o.what)
				if o.bad {
					failIdx = append(failIdx, len(cs))
				} else {
					w := edit(e, o.wrote, o.slug, o.u.Status)
					ws = append(ws, w)
					roll.rows = append(roll.rows, w)
				}
				cs = append(cs, content.EntryChange{ID: id, EntryUpdate: o.u})
			}
			res, err := rig.c.Content.Entries.BulkUpdate(ctx, rig.project, cs)
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			checkBulk(t, seed, i, what, res, len(roll.rows), failIdx)
			if len(roll.rows) > 0 {
				expect(i, what, append(ws, rollup(m, roll))...)
			}

		case n < 84: // bulk publish: an id may come twice, or be unknown
			var ids []string
			var failIdx []int
			var ws []wantEvent
			roll := wantEvent{typ: webhook.EventEntriesBulkPublished}
			done := map[string]bool{}
			for range 1 + r.IntN(4) {
				id := pick()
				ids = append(ids, id)
				e := m.live[id]
				switch {
				case e == nil:
					failIdx = append(failIdx, slices.Index(ids, id)) // the position of its first mention
				case done[id]: // published once
				default:
					done[id] = true
					prev := e.status
					e.status = "published"
					w := entryEvent(webhook.EventEntryPublished, e, prev, []string{})
					ws = append(ws, w)
					roll.rows = append(roll.rows, w)
				}
			}
			what := fmt.Sprintf("bulk publish of %d ids, %d entries", len(ids), len(roll.rows))
			res, err := rig.c.Content.Entries.BulkPublish(ctx, rig.project, ids)
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			checkBulk(t, seed, i, what, res, len(roll.rows), failIdx)
			if len(roll.rows) > 0 {
				expect(i, what, append(ws, rollup(m, roll))...)
			}

		case n < 92 && len(m.live) < 8: // duplicate
			id := pick()
			e := m.live[id]
			newSlug := ""
			if r.IntN(2) == 0 {
				newSlug = slugs[r.IntN(len(slugs))]
			}
			got, err := rig.c.Content.Entries.Duplicate(ctx, rig.project, id, newSlug)
			if e == nil {
				refused(i, "duplicate of an entry not there", err)
				continue
			}
			slug := newSlug
			if slug == "" {
				slug = e.slug + "-copy"
			}
			what := fmt.Sprintf("duplicate %s as %s", e.slug, slug)
			if m.bySlug(slug) != nil {
				refused(i, what, err)
				continue
			}
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			c := &mEntry{id: got.ID, slug: slug, status: "draft", langs: slices.Clone(e.langs)}
			m.add(c)
			expect(i, what, entryEvent(webhook.EventEntryCreated, c, "", slices.Clone(c.langs)))
			if got.Slug != slug || got.Status != content.StatusDraft || got.ID == e.id {
				fail("op %d %s: Duplicate gave %s %s %s", i, what, got.ID, got.Slug, got.Status)
			}

		default: // delete
			id := pick()
			e := m.live[id]
			err := rig.c.Content.Entries.Delete(ctx, rig.project, id)
			if e == nil {
				refused(i, "delete of an entry not there", err)
				continue
			}
			what := "delete " + e.slug
			if err != nil {
				fail("op %d %s: %v", i, what, err)
			}
			m.remove(id)
			expect(i, what, entryEvent(webhook.EventEntryDeleted, e, "", nil))
		}
	}

	evs := rig.in.take(t)
	checkStream(t, seed, rig, evs, m.wants)
	t.Logf("%d operations, %d events, %d entries at the end", ops, len(evs), len(m.live))
}

// rollup completes a rollup's expectation: its count, and languages as
// the union of its entries' languages.
func rollup(m *contentModel, roll wantEvent) wantEvent {
	langs := []string{}
	for _, w := range roll.rows {
		langs = addLangs(langs, m.live[w.id].langs...)
	}
	roll.langs = langs
	return roll
}

// checkBulk checks a bulk result: the count of entries written, and every
// failed row listed with its position, none dropped.
func checkBulk(t *testing.T, seed uint64, op int, what string, res *content.BulkResult, written int, failIdx []int) {
	t.Helper()
	var got []int
	for _, f := range res.Failed {
		if f.Error == "" {
			t.Fatalf("seed %d: op %d %s: failure %+v without a reason", seed, op, what, f)
		}
		got = append(got, f.Index)
	}
	if res.Count != written || !slices.Equal(got, failIdx) {
		t.Fatalf("seed %d: op %d %s: count %d, failed rows %v; the model says %d written, rows %v failed",
			seed, op, what, res.Count, got, written, failIdx)
	}
}

// checkStream checks the events, in the order of their timestamps,
// against the model's expectations.
func checkStream(t *testing.T, seed uint64, rig *contentRig, evs []*webhook.Event, wants []wantEvent) {
	t.Helper()
	var last time.Time
	publishedAt := map[string]time.Time{} // by entry id, while published
	for k, ev := range evs {
		meta := contentMeta(t, ev)
		if k >= len(wants) {
			t.Fatalf("seed %d: %d events, the model expects %d; the first extra is %s at %v", seed, len(evs), len(wants), ev.Type, meta.Timestamp)
		}
		w := wants[k]
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d: event %d (%s at %v) of op %d (%s): %s", seed, k, ev.Type, meta.Timestamp, w.op, w.what, fmt.Sprintf(format, args...))
		}
		if ev.Type != w.typ {
			fail("want %s", w.typ)
		}
		if !meta.Timestamp.After(last) {
			fail("timestamp %v not after the previous event's %v", meta.Timestamp, last)
		}
		last = meta.Timestamp
		if meta.Org != rig.g.Organizations[0].Slug || meta.Project != "web" || meta.Model == nil || *meta.Model != "post" ||
			meta.Actor == nil || meta.Actor.Via != webhook.ViaMCP || meta.Actor.UserID != partnertest.ContentAgentPrefix+rig.g.ID {
			fail("shared fields %+v, actor %+v", meta, meta.Actor)
		}
		str := func(s *webhook.EntryStatus) string {
			if s == nil {
				return ""
			}
			return string(*s)
		}
		if w.rows != nil {
			var b *webhook.BulkChange
			switch d := ev.Data.(type) {
			case *webhook.EntriesBulkPublished:
				b = &d.BulkChange
			case *webhook.EntriesBulkUpdated:
				b = &d.BulkChange
			}
			if b.Count != len(w.rows) || len(b.Entries) != len(w.rows) || !slices.Equal(b.Languages, w.langs) {
				fail("rollup count %d, %d rows, languages %v; want %d rows, languages %v", b.Count, len(b.Entries), b.Languages, len(w.rows), w.langs)
			}
			for j, row := range b.Entries {
				want := w.rows[j]
				if row.ID != want.id || row.Slug != want.slug || str(row.PreviousStatus) != want.prev || str(row.Status) != want.status {
					fail("row %d %s %s %s -> %s, want %s %s %s -> %s", j, row.ID, row.Slug, str(row.PreviousStatus), str(row.Status),
						want.id, want.slug, want.prev, want.status)
				}
				if w.typ == webhook.EventEntriesBulkPublished && want.status != "published" {
					fail("row %d of a bulk publish is %s", j, want.status)
				}
			}
			continue
		}
		ch := entryOf(t, ev)
		e := ch.Entry
		if e.ID != w.id || e.Slug != w.slug || str(e.PreviousStatus) != w.prev || str(e.Status) != w.status {
			fail("entry %s %s %s -> %s, want %s %s %s -> %s", e.ID, e.Slug, str(e.PreviousStatus), str(e.Status), w.id, w.slug, w.prev, w.status)
		}
		if !slices.Equal(ch.Languages, w.langs) {
			fail("languages %v, want %v", ch.Languages, w.langs)
		}
		if (ch.ChangedLanguages == nil) != (w.changed == nil) || !slices.Equal(ch.ChangedLanguages, w.changed) {
			fail("changedLanguages %#v, want %#v", ch.ChangedLanguages, w.changed)
		}
		// The spec's shared rules of each type, whatever the model says.
		switch ev.Type {
		case webhook.EventEntryCreated:
			if str(e.Status) != "draft" || e.PreviousStatus != nil || e.PublishedAt != nil {
				fail("created is not a new draft: %+v", e)
			}
		case webhook.EventEntryUpdated:
			if str(e.PreviousStatus) != str(e.Status) {
				fail("updated with a status change")
			}
		case webhook.EventEntryPublished:
			if str(e.Status) != "published" || e.PublishedAt == nil || !e.PublishedAt.Equal(meta.Timestamp) {
				fail("published %s, publishedAt %v at %v", str(e.Status), e.PublishedAt, meta.Timestamp)
			}
			publishedAt[e.ID] = *e.PublishedAt
		case webhook.EventEntryUnpublished:
			if str(e.Status) == "published" || e.PreviousStatus == nil || str(e.PreviousStatus) == str(e.Status) {
				fail("unpublished %s -> %s", str(e.PreviousStatus), str(e.Status))
			}
			delete(publishedAt, e.ID)
		case webhook.EventEntryDeleted:
			if e.Status != nil || e.PreviousStatus != nil || e.PublishedAt != nil || e.SourceLanguageCode != nil || ch.ChangedLanguages != nil {
				fail("deleted with %+v, changedLanguages %v", e, ch.ChangedLanguages)
			}
			delete(publishedAt, e.ID)
		}
		if ev.Type != webhook.EventEntryDeleted {
			if e.SourceLanguageCode == nil || *e.SourceLanguageCode != "en" {
				fail("sourceLanguageCode %v", e.SourceLanguageCode)
			}
			at, live := publishedAt[e.ID]
			switch {
			case str(e.Status) == "published" && (e.PublishedAt == nil || !live || !e.PublishedAt.Equal(at)):
				fail("publishedAt %v of a published entry, last published at %v", e.PublishedAt, at)
			case str(e.Status) != "published" && e.PublishedAt != nil:
				fail("publishedAt %v while %s", e.PublishedAt, str(e.Status))
			}
		}
	}
	if len(evs) != len(wants) {
		w := wants[len(evs)]
		t.Fatalf("seed %d: %d events, the model expects %d; the first missing is %s of op %d (%s)", seed, len(evs), len(wants), w.typ, w.op, w.what)
	}
}
