package locales

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// answering is a prepared remote whose writes answer as a test says;
// a nil func accepts every write as prepared does.
type answering struct {
	prepared
	create func(ctx context.Context, ks []keys.NewKey) (*keys.CreateResult, error)
	update func(ctx context.Context, us []keys.Update) (*keys.UpdateResult, error)
	set    func(ctx context.Context, vs []translations.Values) (*translations.SetResult, error)
	del    func(ctx context.Context, ids []string) (*keys.DeleteResult, error)
}

func (r *answering) createKeys(ctx context.Context, p string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	if r.create == nil {
		return r.prepared.createKeys(ctx, p, ks, opt)
	}
	r.count("createKeys")
	return r.create(ctx, ks)
}

func (r *answering) updateKeys(ctx context.Context, p string, us []keys.Update) (*keys.UpdateResult, error) {
	if r.update == nil {
		return r.prepared.updateKeys(ctx, p, us)
	}
	r.count("updateKeys")
	return r.update(ctx, us)
}

func (r *answering) setTranslations(ctx context.Context, p string, vs []translations.Values) (*translations.SetResult, error) {
	if r.set == nil {
		return r.prepared.setTranslations(ctx, p, vs)
	}
	r.count("setTranslations")
	return r.set(ctx, vs)
}

func (r *answering) deleteKeys(ctx context.Context, p string, ids []string) (*keys.DeleteResult, error) {
	if r.del == nil {
		return r.prepared.deleteKeys(ctx, p, ids)
	}
	r.count("deleteKeys")
	return r.del(ctx, ids)
}

// planFor plans cat against r, whose project lists listing (project
// languages en, de, fr, es and pt-br).
func planFor(t *testing.T, r *answering, cat *Catalog, listing []keys.Key, opt PlanOptions) *Plan {
	t.Helper()
	r.pages, r.calls = []*keys.Page{{Total: len(listing), Keys: listing}}, map[string]int{}
	plan, err := newPlan(context.Background(), r, "acme/web", cat, opt)
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// said returns a report list as "namespace:key:languages reason" lines,
// the reason up to its first colon.
func said(items []Item) []string {
	var out []string
	for _, it := range items {
		why, _, _ := strings.Cut(it.Reason, ":")
		out = append(out, fmt.Sprintf("%s:%s:%s %s", it.Namespace, it.Key, strings.Join(it.Languages, ","), why))
	}
	return out
}

func checkList(t *testing.T, what string, got []Item, want []string) {
	t.Helper()
	if diff := cmp.Diff(want, said(got)); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// A failed call stops new calls only: a call in flight finishes, and
// what its answer confirms is reported written, not "not written".
func TestApplyLetsCallsInFlightFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cat := &Catalog{}
		cat.Set("en", "a", "title", "A")
		cat.Set("en", "b", "title", "B") // the same name: a second createKeys call
		inFlight := make(chan struct{})
		r := &answering{create: func(ctx context.Context, ks []keys.NewKey) (*keys.CreateResult, error) {
			if ks[0].Namespace == "a" {
				<-inFlight // b's call is on its way
				return nil, errors.New("the service refused the call")
			}
			close(inFlight)
			select { // the service takes a second to answer
			case <-ctx.Done():
				return nil, fmt.Errorf("partner: createKeys: %w", ctx.Err())
			case <-time.After(time.Second):
			}
			return &keys.CreateResult{OK: true, Count: 1, Created: []keys.CreatedKey{{Name: "title", ID: "id-b"}}}, nil
		}}
		plan := planFor(t, r, cat, nil, PlanOptions{})
		rep, err := plan.apply(context.Background(), r, ApplyOptions{Concurrency: 2})
		if err == nil {
			t.Fatal("Apply succeeded through a refused call")
		}
		checkList(t, "created", rep.Created, []string{"b:title:en "})
		checkList(t, "failed", rep.Failed, []string{"a:title:en the service refused the call"})
		checkList(t, "not confirmed", rep.NotConfirmed, nil)
	})
}

// An updateKeys refusal may name the key by name alone (errors[].k,
// without id): that key is not written. An entry of upd without id
// confirms its key by name; keys of one name in two namespaces go in
// separate calls, so that a name is never ambiguous.
func TestApplyReadsRefusalsByName(t *testing.T) {
	cat := &Catalog{}
	listing := []keys.Key{
		{Name: "greeting", Namespace: keys.DefaultNamespace, ID: "id-g", SourceText: "Hi"},
		{Name: "farewell", Namespace: keys.DefaultNamespace, ID: "id-f", SourceText: "Bye"},
		{Name: "title", Namespace: "a", ID: "id-a", SourceText: "A"},
		{Name: "title", Namespace: "b", ID: "id-b", SourceText: "B"},
	}
	cat.Set("en", "", "greeting", "Hello")
	cat.Set("en", "", "farewell", "Goodbye")
	cat.Set("en", "a", "title", "A2")
	cat.Set("en", "b", "title", "B2")
	r := &answering{update: func(_ context.Context, us []keys.Update) (*keys.UpdateResult, error) {
		res := &keys.UpdateResult{OK: true}
		for _, u := range us {
			switch u.KeyID {
			case "id-g":
				res.Errors = append(res.Errors, translations.ItemError{Name: "greeting", Languages: []string{"en"}, Code: "not_found", Message: "Key not found"})
			case "id-f":
				res.Updated = append(res.Updated, translations.UpdatedKey{Name: "farewell", Languages: []string{}, Source: true})
			default:
				res.Updated = append(res.Updated, translations.UpdatedKey{Name: "title", Languages: []string{}, Source: true})
			}
		}
		return res, nil
	}}
	plan := planFor(t, r, cat, listing, PlanOptions{})
	rep, err := plan.apply(context.Background(), r, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkList(t, "updated", rep.Updated, []string{"a:title:en ", "b:title:en ", "default:farewell:en "})
	checkList(t, "failed", rep.Failed, []string{"default:greeting:en the service refused it"})
	if n := rep.Calls["updateKeys"]; n != 2 {
		t.Errorf("%d updateKeys calls, want 2 (title twice)", n)
	}
}

// setTranslations says which languages of each key it wrote: the others
// are not claimed written.
func TestApplyReadsConfirmedLanguages(t *testing.T) {
	cat := &Catalog{}
	listing := []keys.Key{{Name: "greeting", Namespace: keys.DefaultNamespace, ID: "id-g", SourceText: "Hello", Translations: map[string]string{}}}
	cat.Set("en", "", "greeting", "Hello")
	cat.Set("de", "", "greeting", "Hallo")
	cat.Set("fr", "", "greeting", "Bonjour")
	cat.Set("es", "", "greeting", "Hola")
	r := &answering{set: func(_ context.Context, vs []translations.Values) (*translations.SetResult, error) {
		return &translations.SetResult{OK: true, Count: 1, Written: 1,
			Updated: []translations.UpdatedKey{{KeyID: "id-g", Name: "greeting", Languages: []string{"de"}}},
			Errors:  []translations.ItemError{{KeyID: "id-g", Languages: []string{"es"}, Code: "not_found", Message: "Language not found in project: es"}},
		}, nil
	}}
	plan := planFor(t, r, cat, listing, PlanOptions{})
	rep, err := plan.apply(context.Background(), r, ApplyOptions{Publish: true})
	if !errors.Is(err, ErrNotConfirmed) {
		t.Errorf("err = %v, want ErrNotConfirmed", err)
	}
	checkList(t, "updated", rep.Updated, []string{"default:greeting:de "})
	checkList(t, "failed", rep.Failed, []string{"default:greeting:es the service refused it"})
	checkList(t, "not confirmed", rep.NotConfirmed, []string{"default:greeting:fr not confirmed (the next push checks)"})
	if rep.Published != nil || rep.Calls["publishTranslations"] > 0 {
		t.Error("published with a text not confirmed")
	}
	for _, c := range rep.Counts {
		if c.Language == "fr" && c.NotConfirmed != 1 {
			t.Errorf("counts %+v, want 1 not confirmed", c)
		}
	}
}

// When the caller's context ends mid-call (SIGINT), the call in flight
// may have run: its texts are not confirmed, not failed, and nothing
// more is sent.
func TestApplyCancelledMidCall(t *testing.T) {
	cat := &Catalog{}
	listing := []keys.Key{{Name: "greeting", Namespace: keys.DefaultNamespace, ID: "id-g", SourceText: "Hi", Translations: map[string]string{}}}
	cat.Set("en", "", "greeting", "Hello")
	cat.Set("de", "", "greeting", "Hallo")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &answering{update: func(ctx context.Context, us []keys.Update) (*keys.UpdateResult, error) {
		cancel() // the service wrote; the answer is on its way when ^C comes
		return nil, fmt.Errorf("partner: updateKeys: %w", ctx.Err())
	}}
	plan := planFor(t, r, cat, listing, PlanOptions{})
	rep, err := plan.apply(ctx, r, ApplyOptions{})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrNotConfirmed) {
		t.Errorf("err = %v, want context.Canceled and ErrNotConfirmed", err)
	}
	checkList(t, "updated", rep.Updated, nil)
	checkList(t, "not confirmed", rep.NotConfirmed, []string{"default:greeting:en not confirmed (the next push checks)"})
	checkList(t, "failed", rep.Failed, []string{"default:greeting:de not sent"})
	if n := rep.Calls["setTranslations"]; n != 0 {
		t.Errorf("%d setTranslations calls after the context ended", n)
	}
}

// An answer that does not mention a key it was sent confirms nothing of
// it, whichever the tool.
func TestApplySilentAnswers(t *testing.T) {
	cat := &Catalog{}
	listing := []keys.Key{
		{Name: "old", Namespace: keys.DefaultNamespace, ID: "id-o", SourceText: "Old"},
		{Name: "gone", Namespace: keys.DefaultNamespace, ID: "id-x", SourceText: "Gone"},
	}
	for i := range 20 { // so that deleting 2 keys stays under 10%
		listing = append(listing, keys.Key{Name: fmt.Sprint("k", i), Namespace: keys.DefaultNamespace, ID: fmt.Sprint("id", i), SourceText: "s"})
		cat.Set("en", "", fmt.Sprint("k", i), "s")
	}
	cat.Set("en", "", "new", "New")
	cat.Set("en", "", "other", "Other")
	r := &answering{
		create: func(context.Context, []keys.NewKey) (*keys.CreateResult, error) {
			return &keys.CreateResult{OK: true, Count: 1, Created: []keys.CreatedKey{{Name: "new", ID: "id-n"}}}, nil
		},
		del: func(context.Context, []string) (*keys.DeleteResult, error) {
			return &keys.DeleteResult{OK: true, Count: 1, Deleted: []keys.KeyRef{{ID: "id-o", Name: "old", Namespace: keys.DefaultNamespace}}}, nil
		},
	}
	plan := planFor(t, r, cat, listing, PlanOptions{Delete: true})
	rep, err := plan.apply(context.Background(), r, ApplyOptions{})
	if !errors.Is(err, ErrNotConfirmed) {
		t.Errorf("err = %v, want ErrNotConfirmed", err)
	}
	checkList(t, "created", rep.Created, []string{"default:new:en "})
	checkList(t, "deleted", rep.Deleted, []string{"default:old: "})
	checkList(t, "not confirmed", rep.NotConfirmed, []string{"default:gone:en not confirmed (the next push checks)", "default:other:en not confirmed (the next push checks)"})
	checkList(t, "failed", rep.Failed, nil)
}
