package locales_test

import (
	"context"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// sample is a tree with two namespaces, nested keys, a region language
// spelled as on disk (pt-BR) and texts JSON must escape.
func sample() *locales.Catalog {
	cat := &locales.Catalog{}
	for _, e := range []locales.Message{
		{Language: "en", Namespace: "default", Key: "nav.home", Text: "Home"},
		{Language: "en", Namespace: "default", Key: "nav.about", Text: "About <us> & \"them\""},
		{Language: "en", Namespace: "default", Key: "title", Text: "Welcome\nback"},
		{Language: "en", Namespace: "common", Key: "ok", Text: "OK"},
		{Language: "en", Namespace: "common", Key: "errors.notFound", Text: "Not found"},
		{Language: "de", Namespace: "default", Key: "nav.home", Text: "Startseite"},
		{Language: "de", Namespace: "default", Key: "title", Text: "Willkommen zurück"},
		{Language: "de", Namespace: "common", Key: "ok", Text: "OK"},
		{Language: "pt-BR", Namespace: "default", Key: "nav.home", Text: "Início"},
		{Language: "pt-BR", Namespace: "common", Key: "errors.notFound", Text: "Não encontrado"},
	} {
		cat.Set(e.Language, e.Namespace, e.Key, e.Text)
	}
	return cat
}

var layouts = []locales.Layout{
	{Files: translations.SingleFile, Keys: translations.Nested},
	{Files: translations.SingleFile, Keys: translations.Flat},
	{Files: translations.NamespacedFolders, Keys: translations.Nested},
	{Files: translations.NamespacedFolders, Keys: translations.Flat},
}

func name(l locales.Layout) string { return string(l.Files) + "," + string(l.Keys) }

// push loads dir, plans and applies, and fails the test on an error.
func (f *fake) push(t testing.TB, dir string, opt locales.PlanOptions, aopt locales.ApplyOptions) (*locales.Plan, *locales.Report) {
	t.Helper()
	ctx := context.Background()
	cat, err := locales.Load(dir, locales.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := locales.NewPlan(ctx, f.c, f.project, cat, opt)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := plan.Apply(ctx, f.c, aopt)
	if err != nil {
		t.Fatal(err)
	}
	return plan, rep
}

// A tree in each layout and key format is pushed whole; pushing it again
// makes no write; one changed text makes exactly one write; and a pull
// from the API writes back the same files, byte for byte.
func TestPushEachLayout(t *testing.T) {
	for _, layout := range layouts {
		t.Run(name(layout), func(t *testing.T) {
			f := newFake(t)
			dir := t.TempDir()
			if err := sample().Write(dir, layout); err != nil {
				t.Fatal(err)
			}
			files := loctest.ReadTree(t, dir)
			if _, ok := files[map[translations.FileStructure]string{translations.SingleFile: "pt-BR.json", translations.NamespacedFolders: "pt-BR/common.json"}[layout.Files]]; !ok {
				t.Fatalf("files %v: want pt-BR spelled as given", files)
			}

			mark := f.mark()
			plan, rep := f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{})
			if len(plan.Create) != 5 || len(rep.Created) != 5 || len(rep.Failed) != 0 {
				t.Fatalf("first push: plan creates %d, report %+v", len(plan.Create), rep)
			}
			if got := f.writes(mark); !slices.Equal(got, []string{"createKeys"}) {
				t.Errorf("first push wrote with %v, want one createKeys", got)
			}
			for _, k := range f.srv.TranslationKeys(f.id) {
				want, _ := sample().Text("en", k.Namespace, k.Name)
				if k.SourceText != want {
					t.Errorf("%s/%s: source %q, want %q", k.Namespace, k.Name, k.SourceText, want)
				}
				if pt, ok := sample().Text("pt-BR", k.Namespace, k.Name); ok && k.Translations["pt-br"].Text != pt {
					t.Errorf("%s/%s: pt-br %q, want %q", k.Namespace, k.Name, k.Translations["pt-br"].Text, pt)
				}
			}

			mark = f.mark()
			plan, rep = f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{})
			if !plan.Empty() || len(rep.Created)+len(rep.Updated) != 0 {
				t.Errorf("second push plans %+v", plan)
			}
			if got := f.writes(mark); len(got) != 0 {
				t.Errorf("second push wrote with %v", got)
			}
			if got := f.tools(mark); slices.ContainsFunc(got, func(s string) bool { return s != "listKeys" && s != "getProject" }) {
				t.Errorf("second push called %v; want only reads", got)
			}

			changed := sample()
			changed.Set("de", "common", "ok", "Gut")
			if err := changed.Write(dir, layout); err != nil {
				t.Fatal(err)
			}
			mark = f.mark()
			_, rep = f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{})
			if got := f.writes(mark); !slices.Equal(got, []string{"setTranslations"}) {
				t.Errorf("one changed text wrote with %v, want one setTranslations", got)
			}
			if want := []locales.Item{{Namespace: "common", Key: "ok", ID: rep.Updated[0].ID, Languages: []string{"de"}}}; !cmp.Equal(want, rep.Updated) {
				t.Errorf("updated %+v, want %+v", rep.Updated, want)
			}

			pulled, err := locales.Pull(context.Background(), f.c, f.project, locales.PullOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if err := pulled.Write(out, layout); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(loctest.ReadTree(t, dir), loctest.ReadTree(t, out)); diff != "" {
				t.Errorf("pulled tree differs (-pushed +pulled):\n%s", diff)
			}
		})
	}
}

// Pushing with Publish ships the texts: the cooldown of an
// earlier publish is waited out as the service names it, the sync job is
// followed to its end, and a pull from the CDN, without a token, writes
// back the files pushed, byte for byte, in each layout.
func TestPushPublishPullCDN(t *testing.T) {
	for _, layout := range layouts {
		t.Run(name(layout), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(t, partnertest.WithInMemoryNetwork())
				f.srv.SetProjectLayout(f.id, layout.Files, layout.Keys)
				dir := t.TempDir()
				if err := sample().Write(dir, layout); err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				if _, err := f.c.Translations.Publish(ctx, f.project, translations.PublishOptions{}); err != nil {
					t.Fatal(err) // starts the cooldown
				}
				start, before := time.Now(), f.mark()
				var steps []locales.Step
				_, rep := f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{Publish: true,
					OnProgress: func(p locales.Progress) {
						if len(steps) == 0 || steps[len(steps)-1] != p.Step {
							steps = append(steps, p.Step)
						}
					}})
				if waited := time.Since(start); waited < partnertest.PublishCooldown {
					t.Errorf("published after %v, within the cooldown", waited)
				}
				if rep.Published == nil || len(rep.Published.Syncs) != 1 || rep.Published.Syncs[0].Status != translations.SyncCompleted {
					t.Fatalf("published %+v", rep.Published)
				}
				if want := []locales.Step{locales.StepCreate, locales.StepPublish, locales.StepWait}; !slices.Equal(steps, want) {
					t.Errorf("progress steps %v, want %v", steps, want)
				}
				publishes := 0
				for _, r := range f.srv.Requests()[before:] {
					if r.Tool == "publishTranslations" {
						publishes++
					}
				}
				if publishes != 2 {
					t.Errorf("publish calls %d, want 2 (one refused in the cooldown)", publishes)
				}

				mark := f.mark()
				pulled, err := locales.Pull(ctx, f.c, f.project, locales.PullOptions{FromCDN: true, HTTPClient: f.srv.Client()})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(pulled.Layout, layout) {
					t.Errorf("pulled layout %+v, want the project's %+v", pulled.Layout, layout)
				}
				for _, r := range f.srv.Requests()[mark:] {
					if r.Host == partnertest.HostCDN && r.Token != partnertest.TokenNone {
						t.Errorf("CDN request %s with a %s token", r.Path, r.Token)
					}
				}
				out := t.TempDir()
				if err := pulled.Write(out, locales.Layout{}); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(loctest.ReadTree(t, dir), loctest.ReadTree(t, out)); diff != "" {
					t.Errorf("CDN tree differs (-pushed +pulled):\n%s", diff)
				}
			})
		})
	}
}
