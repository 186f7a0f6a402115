package partnertest_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// want is an event the model expects: its type and, for entry events and
// rollup rows, the entry with its previous and new status ("" for null).
type want struct {
	typ          webhook.EventType
	id           string
	prev, status string
	rows         []want // a rollup's rows
}

// TestContentEventsFollowTransitions drives random sequences of entry
// operations and checks every event against an independent model of the
// spec's transition table and this package's documented decisions.
func TestContentEventsFollowTransitions(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 0))
	f := newContentFixture(t)
	f.blogModel(t)
	f.rcv.take(t)

	type entry struct{ slug, status string }
	model := map[string]*entry{} // by id
	var ids []string             // every id ever made, deleted ones too
	slugs := []string{"a", "b", "c", "d", "e", "f"}
	statuses := []string{"", "draft", "published", "archived"}
	taken := func(slug string) bool {
		for _, e := range model {
			if e.slug == slug {
				return true
			}
		}
		return false
	}
	pick := func() string {
		if len(ids) == 0 || r.IntN(10) == 0 {
			return "00000000-0000-4000-8000-000000000000"
		}
		return ids[r.IntN(len(ids))]
	}
	// edit is the event of an edit that asks for status to (maybe "").
	edit := func(id, to string) want {
		e := model[id]
		w := want{typ: webhook.EventEntryUpdated, id: id, prev: e.status, status: e.status}
		switch {
		case to == "" || to == e.status:
		case to == "published":
			w.typ, w.status = webhook.EventEntryPublished, to
		default:
			w.typ, w.status = webhook.EventEntryUnpublished, to
		}
		e.status = w.status
		return w
	}

	const ops = 1000
	for i := range ops {
		var wants []want
		var fails bool
		args := map[string]any{"project": project}
		var tool string
		switch op := r.IntN(7); op {
		case 0, 1: // create
			tool = "createContentEntry"
			slug, status := slugs[r.IntN(len(slugs))], []string{"draft", "published"}[r.IntN(2)]
			args["modelSlug"], args["title"], args["slug"], args["status"] = "post", "T", slug, status
			if fails = taken(slug); !fails {
				wants = append(wants, want{typ: webhook.EventEntryCreated, status: "draft"})
				if status == "published" {
					wants = append(wants, want{typ: webhook.EventEntryPublished, prev: "draft", status: "published"})
				}
			}
		case 2: // update
			tool = "updateContentEntry"
			id, to := pick(), statuses[r.IntN(len(statuses))]
			args["entryId"] = id
			if to != "" {
				args["status"] = to
			}
			if r.IntN(2) == 0 {
				args["languageCode"], args["title"] = "de", fmt.Sprint("DE ", i)
			}
			if fails = model[id] == nil; !fails {
				wants = append(wants, edit(id, to))
			}
		case 3: // publish
			tool = "publishContentEntry"
			id := pick()
			args["entryId"] = id
			if fails = model[id] == nil; !fails {
				wants = append(wants, want{typ: webhook.EventEntryPublished, id: id, prev: model[id].status, status: "published"})
				model[id].status = "published"
			}
		case 4: // delete
			tool = "deleteContentEntry"
			id := pick()
			args["entryId"] = id
			if fails = model[id] == nil; !fails {
				wants = append(wants, want{typ: webhook.EventEntryDeleted, id: id})
				delete(model, id)
			}
		case 5: // bulk publish
			tool = "bulkPublishEntries"
			var list []string
			roll := want{typ: webhook.EventEntriesBulkPublished}
			for range 1 + r.IntN(4) {
				id := pick()
				list = append(list, id)
				if model[id] == nil || slices.ContainsFunc(roll.rows, func(w want) bool { return w.id == id }) {
					continue
				}
				w := want{typ: webhook.EventEntryPublished, id: id, prev: model[id].status, status: "published"}
				model[id].status = "published"
				wants = append(wants, w)
				roll.rows = append(roll.rows, w)
			}
			args["entryIds"] = list
			if len(roll.rows) > 0 {
				wants = append(wants, roll)
			}
		case 6: // bulk update
			tool = "bulkUpdateEntries"
			var items []any
			roll := want{typ: webhook.EventEntriesBulkUpdated}
			for range 1 + r.IntN(4) {
				id, to := pick(), statuses[r.IntN(len(statuses))]
				item := map[string]any{"entryId": id, "title": "T"}
				if to != "" {
					item["status"] = to
				}
				items = append(items, item)
				if model[id] == nil {
					continue
				}
				w := edit(id, to)
				wants = append(wants, w)
				roll.rows = append(roll.rows, w)
			}
			args["entries"] = items
			if len(roll.rows) > 0 {
				wants = append(wants, roll)
			}
		}
		text, isErr := callTool(t, f.cs, tool, args)
		if isErr != fails {
			t.Fatalf("seed %d op %d %s %v: isError %v (%s), the model says %v", seed, i, tool, args, isErr, text, fails)
		}
		evs := f.rcv.take(t)
		if len(evs) != len(wants) {
			t.Fatalf("seed %d op %d %s: events %v, want %d", seed, i, tool, types(evs), len(wants))
		}
		for j, ev := range evs {
			w := wants[j]
			if w.typ == webhook.EventEntryCreated { // the id is the server's
				w.id = entryID(t, ev)
				model[w.id] = &entry{slug: args["slug"].(string), status: "draft"}
				ids = append(ids, w.id)
				if j+1 < len(wants) { // created published: then published
					wants[j+1].id = w.id
					model[w.id].status = "published"
				}
			}
			checkEvent(t, seed, i, ev, w)
		}
	}
	// The model and the server agree at the end.
	got := map[string]string{}
	for _, e := range f.srv.ContentEntries(f.p.ID) {
		got[e.ID] = e.Status
	}
	if len(got) != len(model) {
		t.Fatalf("seed %d: server has %d entries, the model %d", seed, len(got), len(model))
	}
	for id, e := range model {
		if got[id] != e.status {
			t.Errorf("seed %d: entry %s is %s, the model says %s", seed, id, got[id], e.status)
		}
	}
}

func entryID(t testing.TB, ev *webhook.Event) string {
	t.Helper()
	d, ok := ev.Data.(*webhook.EntryCreated)
	if !ok {
		t.Fatalf("%s decoded to %T", ev.Type, ev.Data)
	}
	return d.Entry.ID
}

// checkEvent checks one event against the model's expectation, and the
// rules every event of its type follows.
func checkEvent(t *testing.T, seed uint64, op int, ev *webhook.Event, w want) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("seed %d op %d %s: %s", seed, op, ev.Type, fmt.Sprintf(format, args...))
	}
	if ev.Type != w.typ {
		fail("want %s", w.typ)
	}
	str := func(s *webhook.EntryStatus) string {
		if s == nil {
			return ""
		}
		return string(*s)
	}
	var bulk *webhook.BulkChange
	switch d := ev.Data.(type) {
	case *webhook.EntriesBulkPublished:
		bulk = &d.BulkChange
	case *webhook.EntriesBulkUpdated:
		bulk = &d.BulkChange
	}
	if bulk != nil {
		if bulk.Count != len(w.rows) || len(bulk.Entries) != len(w.rows) || bulk.Actor == nil || bulk.Actor.Via != webhook.ViaMCP {
			fail("rollup %+v, want %d rows", bulk, len(w.rows))
		}
		for k, row := range bulk.Entries {
			if row.ID != w.rows[k].id || str(row.PreviousStatus) != w.rows[k].prev || str(row.Status) != w.rows[k].status {
				fail("row %d %+v, want %+v", k, row, w.rows[k])
			}
		}
		return
	}
	ch := checkEntryEvent(t, ev, w.typ, w.id, w.status, w.prev, nil)
	switch w.typ {
	case webhook.EventEntryUpdated:
		if ch.Entry.PreviousStatus == nil || *ch.Entry.PreviousStatus != *ch.Entry.Status {
			fail("updated with a status change: %+v", ch.Entry)
		}
	case webhook.EventEntryUnpublished:
		if str(ch.Entry.Status) == "published" || ch.Entry.PreviousStatus == nil || *ch.Entry.PreviousStatus == *ch.Entry.Status {
			fail("unpublished %+v", ch.Entry)
		}
	case webhook.EventEntryCreated:
		if ch.Entry.PreviousStatus != nil || ch.ChangedLanguages == nil {
			fail("created %+v", ch)
		}
	case webhook.EventEntryDeleted:
		if ch.Entry.Status != nil || ch.Entry.PreviousStatus != nil || ch.Entry.PublishedAt != nil || ch.Entry.SourceLanguageCode != nil || ch.ChangedLanguages != nil {
			fail("deleted %+v", ch)
		}
	}
}
