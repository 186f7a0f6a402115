package locales_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/partnertest"
)

// regional is a tree of languages with a region or a script, as
// platforms spell them.
func regional() *locales.Catalog {
	cat := &locales.Catalog{}
	for _, m := range []locales.Message{
		{Language: "en", Namespace: "default", Key: "nav.home", Text: "Home"},
		{Language: "en", Namespace: "common", Key: "ok", Text: "OK"},
		{Language: "pt-BR", Namespace: "default", Key: "nav.home", Text: "Início"},
		{Language: "pt-BR", Namespace: "common", Key: "ok", Text: "Certo"},
		{Language: "zh-Hans", Namespace: "default", Key: "nav.home", Text: "首页"},
		{Language: "sr-Latn", Namespace: "common", Key: "ok", Text: "U redu"},
	} {
		cat.Set(m.Language, m.Namespace, m.Key, m.Text)
	}
	return cat
}

// pt-BR, zh-Hans and sr-Latn round trip through the API and the CDN
// (with a client, and without one): the CDN spells them in lowercase,
// and the pull finds their files by the manifest's paths; the files
// written back are the ones pushed, in the tree's spelling.
func TestPullRegionAndScriptLanguagesThroughAPIAndCDN(t *testing.T) {
	for _, layout := range layouts {
		t.Run(name(layout), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(t, partnertest.WithInMemoryNetwork())
				f.srv.SetProjectLayout(f.id, layout.Files, layout.Keys)
				for _, code := range []string{"zh-Hans", "sr-Latn"} {
					if _, err := f.c.Projects.AddLanguage(context.Background(), f.id, code); err != nil {
						t.Fatal(err)
					}
				}
				dir := t.TempDir()
				if err := regional().Write(dir, layout); err != nil {
					t.Fatal(err)
				}
				f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{Publish: true})
				cc, err := cdn.NewClient(f.srv.CDNURL, f.srv.Client())
				if err != nil {
					t.Fatal(err)
				}
				for _, how := range []struct {
					name string
					c    bool
					opt  locales.PullOptions
				}{
					{"API", true, locales.PullOptions{}},
					{"CDN", true, locales.PullOptions{FromCDN: true, HTTPClient: f.srv.Client()}},
					{"CDN without a client", false, locales.PullOptions{CDN: cc, SourceLanguage: "en", Layout: locales.Layout{Keys: layout.Keys}}},
				} {
					c := f.c
					if !how.c {
						c = nil
					}
					pulled, err := locales.Pull(context.Background(), c, f.project, how.opt)
					if err != nil {
						t.Fatalf("%s: %v", how.name, err)
					}
					out := t.TempDir()
					if err := pulled.Write(out, layout); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(loctest.ReadTree(t, dir), loctest.ReadTree(t, out)); diff != "" {
						t.Errorf("%s: the tree pulled differs (-pushed +pulled):\n%s", how.name, diff)
					}
					// Into the pushed tree: its spelling stays, nothing changes.
					if err := pulled.Write(dir, layout); err != nil {
						t.Fatal(err)
					}
					if diff := cmp.Diff(loctest.ReadTree(t, out), loctest.ReadTree(t, dir)); diff != "" {
						t.Errorf("%s: a pull into the tree changed it:\n%s", how.name, diff)
					}
				}
			})
		})
	}
}

// cdnFiles serves files (path below the CDN -> content) and 404 for the
// rest.
func cdnFiles(t testing.TB, files map[string]string) *cdn.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s, ok := files[strings.TrimPrefix(r.URL.Path, "/")]; ok {
			io.WriteString(w, s)
			return
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	cc, err := cdn.NewClient(srv.URL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return cc
}

// A language the CDN's manifest lists as published whose file the CDN
// does not serve fails the pull, naming it, unless Languages leaves it
// out; a language the manifest does not list has nothing published yet:
// the catalog holds it without texts (Catalog.Languages), no error.
func TestPullCDNMissingLanguage(t *testing.T) {
	cc := cdnFiles(t, map[string]string{
		"acme/web/manifest.json":           `{"files": {"en": ["en/translations.json"], "de": ["de/translations.json"], "pt-br": ["pt-br/translations.json"]}}`,
		"acme/web/en/translations.json":    `{"hi": "Hi"}`,
		"acme/web/de/translations.json":    `{"hi": "Hallo"}`,
		"acme/web/pt-BR/translations.json": `{"hi": "Oi"}`, // not where the manifest says
	})
	ctx := context.Background()
	_, err := locales.Pull(ctx, nil, "acme/web", locales.PullOptions{CDN: cc, SourceLanguage: "en", Languages: []string{"en", "de", "pt-BR"}})
	if !errors.Is(err, locales.ErrNotOnCDN) || !errors.Is(err, cdn.ErrNotFound) || !strings.Contains(err.Error(), "pt-BR (") || !strings.Contains(err.Error(), "pt-br/translations.json") {
		t.Errorf("pull of a language missing on the CDN: %v, want ErrNotOnCDN naming pt-BR and its file", err)
	}
	_, err = locales.Pull(ctx, nil, "acme/web", locales.PullOptions{CDN: cc, SourceLanguage: "en"})
	if !errors.Is(err, locales.ErrNotOnCDN) {
		t.Errorf("pull of the manifest's languages: %v, want ErrNotOnCDN", err)
	}

	cat, err := locales.Pull(ctx, nil, "acme/web", locales.PullOptions{CDN: cc, SourceLanguage: "en", Languages: []string{"en", "de", "fr"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Languages(); !slices.Equal(got, []string{"de", "en", "fr"}) {
		t.Errorf("Languages() = %v, want de, en and fr (nothing published yet)", got)
	}
	want := []locales.Message{
		{Language: "de", Namespace: "default", Key: "hi", Text: "Hallo"},
		{Language: "en", Namespace: "default", Key: "hi", Text: "Hi"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("pulled (-want +got):\n%s", diff)
	}
}

// Without a manifest that names files, a pull with a client finds each
// file by the URL pattern, the language in lowercase, and getProject's
// coverage says which languages have texts: one of them whose file the
// CDN does not serve, while it serves others, fails the pull; one
// without texts is empty.
func TestPullCDNMissingLanguageByCoverage(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	if _, err := f.c.Keys.Create(ctx, f.project, []keys.NewKey{{Name: "hi", SourceText: "Hi", Translations: map[string]string{"de": "Hallo", "pt-BR": "Oi"}}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cc := cdnFiles(t, map[string]string{
		"org-1/web/manifest.json":           `<html>not a manifest</html>`,
		"org-1/web/en/translations.json":    `{"hi": "Hi"}`,
		"org-1/web/de/translations.json":    `{"hi": "Hallo"}`,
		"org-1/web/pt-br/translations.json": `{"hi": "Oi"}`, // as the URL pattern is written
	})
	cat, err := locales.Pull(ctx, f.c, f.project, locales.PullOptions{CDN: cc})
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Languages(); !slices.Equal(got, []string{"de", "en", "fr", "pt-br"}) {
		t.Errorf("Languages() = %v, want de, en, fr and pt-br", got)
	}
	if s, _ := cat.Text("pt-br", "", "hi"); s != "Oi" {
		t.Errorf("pt-br's text %q, want Oi", s)
	}

	cc = cdnFiles(t, map[string]string{
		"org-1/web/en/translations.json": `{"hi": "Hi"}`,
		"org-1/web/de/translations.json": `{"hi": "Hallo"}`,
	})
	_, err = locales.Pull(ctx, f.c, f.project, locales.PullOptions{CDN: cc})
	if !errors.Is(err, locales.ErrNotOnCDN) || !strings.Contains(err.Error(), "pt-br (1 text on") || strings.Contains(err.Error(), "fr (") {
		t.Errorf("pull: %v, want ErrNotOnCDN naming pt-br (and not fr, which has no text)", err)
	}
	if _, err := locales.Pull(ctx, f.c, f.project, locales.PullOptions{CDN: cc, Languages: []string{"en", "de"}}); err != nil {
		t.Errorf("pull leaving pt-br out: %v", err)
	}
}
