package locales

import (
	"context"
	"fmt"
	"iter"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// benchLangs are the 5 languages of the benchmarks: the source and 4
// targets.
var benchLangs = []string{"en", "de", "fr", "es", "pt-br"}

// benchCatalog has n keys in 10 namespaces, each with a text in every
// benchmark language.
func benchCatalog(n int) *Catalog {
	cat := &Catalog{}
	for i := range n {
		ns, key := "ns"+strconv.Itoa(i%10), "section"+strconv.Itoa(i/100)+".key"+strconv.Itoa(i)
		for _, l := range benchLangs {
			cat.Set(l, ns, key, l+": the text of key number "+strconv.Itoa(i))
		}
	}
	return cat
}

// listed is a prepared listing: what listKeys would answer for the
// catalog, 100 keys a page.
func listed(cat *Catalog) []*keys.Page {
	var all []keys.Key
	id := 0
	for e := range cat.All() {
		if e.Language != "en" {
			continue
		}
		id++
		k := keys.Key{Name: e.Key, Namespace: e.Namespace, ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", id), SourceText: e.Text, Translations: map[string]string{}}
		for _, l := range benchLangs[1:] {
			k.Translations[l], _ = cat.Text(l, e.Namespace, e.Key)
		}
		all = append(all, k)
	}
	var pages []*keys.Page
	for i := 0; i < len(all); i += keys.MaxPageSize {
		end := min(i+keys.MaxPageSize, len(all))
		pages = append(pages, &keys.Page{Total: len(all), HasMore: end < len(all), Keys: all[i:end]})
	}
	return pages
}

// prepared is a remote that answers from a prepared listing and
// accepts every write, counting the calls.
type prepared struct {
	pages []*keys.Page
	mu    sync.Mutex // Apply calls concurrently
	calls map[string]int
}

func (r *prepared) count(tool string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls[tool]++
}

func (r *prepared) project(context.Context, string) (*projectInfo, error) {
	return &projectInfo{source: "en", targets: benchLangs[1:], layout: Layout{}.orDefault()}, nil
}

func (r *prepared) keyPages(context.Context, string, keys.ListOptions) iter.Seq2[*keys.Page, error] {
	return func(yield func(*keys.Page, error) bool) {
		for _, p := range r.pages {
			r.calls["listKeys"]++
			if !yield(p, nil) {
				return
			}
		}
	}
}

func (r *prepared) createKeys(_ context.Context, _ string, ks []keys.NewKey, _ keys.CreateOptions) (*keys.CreateResult, error) {
	r.count("createKeys")
	res := &keys.CreateResult{OK: true, Count: len(ks), Created: make([]keys.CreatedKey, len(ks))}
	for i, k := range ks {
		res.Created[i] = keys.CreatedKey{Name: k.Name, ID: "id"}
	}
	return res, nil
}

func (r *prepared) updateKeys(_ context.Context, _ string, us []keys.Update) (*keys.UpdateResult, error) {
	r.count("updateKeys")
	res := &keys.UpdateResult{OK: true, Count: len(us), Updated: make([]translations.UpdatedKey, len(us))}
	for i, u := range us {
		res.Updated[i] = translations.UpdatedKey{KeyID: u.KeyID, Languages: []string{}, Source: u.Source}
	}
	return res, nil
}

func (r *prepared) setTranslations(_ context.Context, _ string, vs []translations.Values) (*translations.SetResult, error) {
	r.count("setTranslations")
	res := &translations.SetResult{OK: true, Count: len(vs), Updated: make([]translations.UpdatedKey, len(vs))}
	for i, v := range vs {
		res.Updated[i] = translations.UpdatedKey{KeyID: v.KeyID, Languages: slices.Collect(maps.Keys(v.Text))}
		res.Written += len(v.Text)
	}
	return res, nil
}

func (r *prepared) deleteKeys(_ context.Context, _ string, ids []string) (*keys.DeleteResult, error) {
	r.count("deleteKeys")
	res := &keys.DeleteResult{OK: true, Count: len(ids), Deleted: make([]keys.KeyRef, len(ids))}
	for i, id := range ids {
		res.Deleted[i] = keys.KeyRef{ID: id}
	}
	return res, nil
}

func (r *prepared) publishAndWait(context.Context, string) (*translations.PublishWaitResult, error) {
	return &translations.PublishWaitResult{PublishResult: translations.PublishResult{Success: true}}, nil
}

// BenchmarkPlanApply100k: plan and apply for 100,000 keys in 5 languages
// against a remote answering from a prepared listing (no network, no
// JSON), for the memory the library itself needs. The baseline walks the
// listing and looks every text up in the catalog: the least any diff
// does.
func BenchmarkPlanApply100k(b *testing.B) {
	const n = 100_000
	cat := benchCatalog(n)
	full := listed(cat)
	changed := benchCatalog(n)
	for e := range cat.All() {
		if e.Language == "de" {
			changed.Set("de", e.Namespace, e.Key, e.Text+" (changed)")
		}
	}
	ctx := context.Background()
	b.Run("baseline-walk-listing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			same := 0
			for _, p := range full {
				for _, k := range p.Keys {
					if t, _ := cat.Text("en", k.Namespace, k.Name); t == k.SourceText {
						same++
					}
					for l, tr := range k.Translations {
						if t, _ := cat.Text(l, k.Namespace, k.Name); t == tr {
							same++
						}
					}
				}
			}
			if same != n*len(benchLangs) {
				b.Fatal(same)
			}
		}
	})
	for _, bc := range []struct {
		name  string
		cat   *Catalog
		pages []*keys.Page
		calls int // writes the limits require
	}{
		{"create-all", cat, nil, 0},
		{"no-change", cat, full, 0},
		{"one-language-changed", changed, full, int(math.Ceil(float64(n) / translations.MaxSet))},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var writes int
			for b.Loop() {
				r := &prepared{pages: bc.pages, calls: map[string]int{}}
				plan, err := newPlan(ctx, r, "acme/web", bc.cat, PlanOptions{})
				if err != nil {
					b.Fatal(err)
				}
				rep, err := plan.apply(ctx, r, ApplyOptions{})
				if err != nil || len(rep.Failed) > 0 {
					b.Fatal(err, rep.Failed)
				}
				writes = r.calls["createKeys"] + r.calls["setTranslations"] + r.calls["updateKeys"]
			}
			b.ReportMetric(float64(writes), "writes/op")
		})
	}
}

// BenchmarkPush10k: a push of 10,000 keys in 5 languages to partnertest
// through the SDK, pacing off. It reports the tool calls made, the calls
// the tools' limits require (createKeys by the 1 MiB request cap, listKeys
// by its 100-key pages), and the paced floor: how long the default
// pacing (900 a minute after a burst of 50) would take to send those
// calls. The baseline lists the 10,000 keys alone.
func BenchmarkPush10k(b *testing.B) {
	const n = 10_000
	cat := benchCatalog(n)
	ctx := context.Background()
	setup := func(b *testing.B) (*partnertest.Server, *partner.Client, string) {
		srv := partnertest.NewServer(partnertest.WithRequestLogLimit(0))
		g := srv.NewGrant()
		var targets []partnertest.Language
		for _, l := range benchLangs[1:] {
			targets = append(targets, partnertest.Language{Code: l})
		}
		srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en", TargetLanguages: targets})
		c, err := partner.NewClient(partner.Config{
			BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
			Pacing: partner.Pacing{Off: true},
		})
		if err != nil {
			b.Fatal(err)
		}
		return srv, c, g.Organizations[0].Slug + "/web"
	}
	// The calls the limits require.
	r := &prepared{calls: map[string]int{}}
	plan, err := newPlan(ctx, r, "acme/web", cat, PlanOptions{})
	if err != nil {
		b.Fatal(err)
	}
	creates := len(new(partner.KeysService).CreateBatches("acme/web", plan.Create, keys.CreateOptions{}))
	pages := int(math.Ceil(float64(n) / keys.MaxPageSize))
	required := map[string]float64{
		"create":    float64(creates) + 2, // the SDK's batches; getProject, one listKeys page of none
		"no-change": float64(pages) + 1,   // getProject
	}
	floor := func(calls int) float64 {
		return math.Max(0, float64(calls-partner.DefaultPacingBurst)) * 60 / partner.DefaultPacingPerMinute
	}

	b.Run("baseline-list-10k", func(b *testing.B) {
		srv, c, project := setup(b)
		defer srv.Close()
		defer c.Close()
		if rep, err := mustPlan(ctx, c, project, cat).Apply(ctx, c, ApplyOptions{}); err != nil || len(rep.Failed) > 0 {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			got := 0
			for p, err := range c.Keys.Pages(ctx, project, keys.ListOptions{Fields: []keys.Field{keys.FieldID, keys.FieldSourceText, keys.FieldTranslations}}) {
				if err != nil {
					b.Fatal(err)
				}
				got += len(p.Keys)
			}
			if got != n {
				b.Fatal(got)
			}
		}
	})
	b.Run("create", func(b *testing.B) {
		b.ReportAllocs()
		var calls int
		for b.Loop() {
			b.StopTimer()
			srv, c, project := setup(b)
			b.StartTimer()
			plan := mustPlan(ctx, c, project, cat)
			rep, err := plan.Apply(ctx, c, ApplyOptions{})
			if err != nil || len(rep.Created) != n {
				b.Fatal(err)
			}
			calls = 2 + rep.Calls["createKeys"] // getProject and one listKeys page
			b.StopTimer()
			c.Close()
			srv.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(calls), "calls/op")
		b.ReportMetric(required["create"], "required-calls/op")
		b.ReportMetric(floor(calls), "paced-floor-s/op")
	})
	b.Run("no-change", func(b *testing.B) {
		srv, c, project := setup(b)
		defer srv.Close()
		defer c.Close()
		if _, err := mustPlan(ctx, c, project, cat).Apply(ctx, c, ApplyOptions{}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		var calls int
		for b.Loop() {
			plan := mustPlan(ctx, c, project, cat)
			rep, err := plan.Apply(ctx, c, ApplyOptions{})
			if err != nil || !plan.Empty() || len(rep.Calls) != 0 {
				b.Fatal(err, rep.Calls)
			}
			calls = 1 + int(math.Ceil(float64(plan.Listed)/keys.MaxPageSize))
		}
		b.ReportMetric(float64(calls), "calls/op")
		b.ReportMetric(required["no-change"], "required-calls/op")
		b.ReportMetric(floor(calls), "paced-floor-s/op")
	})
}

func mustPlan(ctx context.Context, c *partner.Client, project string, cat *Catalog) *Plan {
	plan, err := NewPlan(ctx, c, project, cat, PlanOptions{})
	if err != nil {
		panic(err)
	}
	return plan
}
