package partner_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
	"github.com/locsvc/partner-go/webhook"
)

// fidelityRig is a client of a partnertest grant with one project, web,
// whose target languages are de and fr.
type fidelityRig struct {
	srv     *partnertest.Server
	g       partnertest.Grant
	c       *partner.Client
	p       partnertest.Project
	project string // "org/web"
}

func newFidelityRig(t *testing.T) *fidelityRig {
	t.Helper()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	g := srv.NewGrant()
	c, err := partner.NewClient(partner.Config{Pacing: partner.Pacing{Off: true},
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL, ContentMCPURL: srv.ContentMCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken}, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	org := g.Organizations[0]
	p := srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}, {Code: "fr", Name: "French"}}})
	return &fidelityRig{srv: srv, g: g, c: c, p: p, project: org.Slug + "/web"}
}

// TestProjectOverviewFromTheTools: ListProjects and GetProject give each
// project's languages, namespaces, layout and CDN URLs, as set.
func TestProjectOverviewFromTheTools(t *testing.T) {
	r := newFidelityRig(t)
	ctx := t.Context()
	other := r.srv.AddProject(r.g.Organizations[0].ID, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"})
	r.srv.SetProjectLayout(other.ID, translations.NamespacedFolders, translations.Flat)
	if _, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "nav.home", Namespace: "common", SourceText: "Home"}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	list, err := r.c.Translations.ListProjects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	layouts := map[string]string{}
	for _, p := range list.Projects {
		layouts[p.Slug] = fmt.Sprintf("%s/%s %v", p.FileStructure, p.KeyFormat, p.TargetLanguages)
	}
	appSlug := r.g.Organizations[0].Slug + "/app"
	want := map[string]string{r.project: "single_file/nested [de fr]", appSlug: "namespaced_folders/flat []"}
	if !mapsEqual(layouts, want) {
		t.Errorf("ListProjects layouts = %v, want %v", layouts, want)
	}
	if list.CDNBaseURL == "" {
		t.Error("ListProjects: no CDN base URL")
	}

	p, err := r.c.Translations.GetProject(ctx, r.project)
	if err != nil {
		t.Fatal(err)
	}
	if p.SourceLanguage != "en" || !slices.Equal(p.Languages, []string{"de", "fr"}) || p.TotalKeys != 1 ||
		len(p.Namespaces) != 1 || p.Namespaces[0].Name != "common" || p.Namespaces[0].KeyCount != 1 {
		t.Errorf("GetProject = %+v", p)
	}
	if p.CDN == nil || p.CDN.BaseURL == "" || p.CDN.ManifestURL == "" || p.CDN.Pattern != p.CDN.BaseURL+"/{locale}/translations.json" ||
		p.FileStructure() != translations.SingleFile || p.KeyFormat() != translations.Nested {
		t.Errorf("GetProject CDN = %+v", p.CDN)
	}
	app, err := r.c.Translations.GetProject(ctx, appSlug)
	if err != nil {
		t.Fatal(err)
	}
	if app.CDN == nil || app.CDN.Pattern != app.CDN.BaseURL+"/{locale}/{namespace}.json" ||
		app.FileStructure() != translations.NamespacedFolders || app.KeyFormat() != translations.Flat {
		t.Errorf("GetProject(app) CDN = %+v", app.CDN)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestKeyBatchesHaveNoInventedLimit: createKeys and updateKeys take more
// than 200 items, as the published tools do.
func TestKeyBatchesHaveNoInventedLimit(t *testing.T) {
	r := newFidelityRig(t)
	ctx := t.Context()
	ks := make([]keys.NewKey, 250)
	for i := range ks {
		ks[i] = keys.NewKey{Name: fmt.Sprintf("k%03d", i), SourceText: "x"}
	}
	res, err := r.c.Keys.Create(ctx, r.project, ks, keys.CreateOptions{})
	if err != nil {
		t.Fatalf("Create of 250 keys: %v", err)
	}
	if len(res.Created) != 250 {
		t.Fatalf("created %d keys, want 250", len(res.Created))
	}
	us := make([]keys.Update, len(res.Created))
	for i, k := range res.Created {
		us[i] = keys.Update{KeyID: k.ID, Language: "de", Text: "y"}
	}
	up, err := r.c.Keys.Update(ctx, r.project, us)
	if err != nil {
		t.Fatalf("Update of 250 texts: %v", err)
	}
	if len(up.Updated) != 250 || len(up.Errors) != 0 {
		t.Errorf("updated %d, %d errors; want 250, 0", len(up.Updated), len(up.Errors))
	}
}

// TestSetRefusesLanguagesTheProjectLacks: a language the project does not
// have is refused for that key, in the result's Errors; the others are
// written.
func TestSetRefusesLanguagesTheProjectLacks(t *testing.T) {
	r := newFidelityRig(t)
	ctx := t.Context()
	res, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a", SourceText: "A"}, {Name: "b", SourceText: "B"}}, keys.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Created[0].ID, res.Created[1].ID
	set, err := r.c.Translations.Set(ctx, r.project, []translations.Values{
		{KeyID: a, Text: map[string]string{"de": "A-de", "ja": "A-ja"}},
		{KeyID: b, Text: map[string]string{"it": "B-it"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !set.OK || set.Written != 1 {
		t.Errorf("OK %v, Written %d; want true, 1", set.OK, set.Written)
	}
	var refused []string
	for _, e := range set.Errors {
		refused = append(refused, fmt.Sprintf("%s:%v", e.KeyID, e.Languages))
		if e.Code == "" || e.Message == "" {
			t.Errorf("error without code or message: %+v", e)
		}
	}
	want := []string{a + ":[ja]", b + ":[it]"}
	if !slices.Equal(refused, want) {
		t.Errorf("Errors = %v, want %v", refused, want)
	}
	for _, k := range r.srv.TranslationKeys(r.p.ID) {
		for lang := range k.Translations {
			if lang != "de" {
				t.Errorf("key %s has a %s text", k.Name, lang)
			}
		}
	}
}

// TestWebhooksArePerProject: a project's webhook receives that project's
// events only, and a removed webhook receives nothing more.
func TestWebhooksArePerProject(t *testing.T) {
	r := newFidelityRig(t)
	ctx := t.Context()
	other := r.srv.AddProject(r.g.Organizations[0].ID, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"})
	var mu sync.Mutex
	got := map[string][]string{} // webhook id -> projects of keys.created
	receiver := func(id *string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				t.Error(err)
				return
			}
			ev, err := webhook.Parse(body)
			if err != nil {
				t.Error(err)
				return
			}
			if d, ok := ev.Data.(*webhook.KeysCreated); ok {
				mu.Lock()
				got[*id] = append(got[*id], d.Project)
				mu.Unlock()
			}
		})
	}
	var webID, appID string
	web := httptest.NewServer(receiver(&webID))
	defer web.Close()
	app := httptest.NewServer(receiver(&appID))
	defer app.Close()
	webID = r.srv.AddWebhook(r.p.ID, web.URL, webhook.EventKeysCreated).ID
	appID = r.srv.AddWebhook(other.ID, app.URL, webhook.EventKeysCreated).ID

	appProject := r.g.Organizations[0].Slug + "/app"
	for _, p := range []string{r.project, appProject} {
		if _, err := r.c.Keys.Create(ctx, p, []keys.NewKey{{Name: "one", SourceText: "1"}}, keys.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	r.srv.RemoveWebhook(appID)
	if _, err := r.c.Keys.Create(ctx, appProject, []keys.NewKey{{Name: "two", SourceText: "2"}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got[webID], []string{"web"}) || !slices.Equal(got[appID], []string{"app"}) {
		t.Errorf("deliveries by webhook = %v; want web's to %s, app's to %s, once each", got, webID, appID)
	}
}

// TestContentSettingsSwitchOffAndBodySearch: a field's settings switched
// off with content.Ptr(false) read back off; SearchBody finds an entry
// by its body text and the listing carries no body.
func TestContentSettingsSwitchOffAndBodySearch(t *testing.T) {
	r := newFidelityRig(t)
	ctx := t.Context()
	m, err := r.c.Content.Models.Create(ctx, r.project, content.NewModel{Slug: "post", DisplayName: "Post", Fields: []content.NewField{
		{Name: "cover", DisplayName: "Cover", Type: content.FieldMedia, Options: &content.FieldOptions{ShowInTable: content.Ptr(true), Unsplash: content.Ptr(true)}},
		{Name: "related", DisplayName: "Related", Type: content.FieldRelation, Relation: &content.Relation{TargetModel: "post", Multiple: content.Ptr(true)}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !m.Fields[0].ShowInTable || !*m.Fields[1].Relation.Multiple {
		t.Fatalf("created fields %+v", m.Fields)
	}
	f, err := r.c.Content.Models.UpdateField(ctx, r.project, "post", "cover", content.FieldUpdate{Options: &content.FieldOptions{ShowInTable: content.Ptr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	if f.ShowInTable {
		t.Error("ShowInTable stays on after Ptr(false)")
	}
	f, err = r.c.Content.Models.UpdateField(ctx, r.project, "post", "related", content.FieldUpdate{Relation: &content.Relation{Multiple: content.Ptr(false)}})
	if err != nil {
		t.Fatal(err)
	}
	if f.Relation == nil || f.Relation.Multiple == nil || *f.Relation.Multiple {
		t.Errorf("Relation = %+v after Multiple Ptr(false)", f.Relation)
	}

	if _, err := r.c.Content.Entries.Create(ctx, r.project, content.NewEntry{Model: "post", Title: "Hello", Slug: "hello", Body: "All about zebras."}); err != nil {
		t.Fatal(err)
	}
	count := func(opt content.ListOptions) int {
		n := 0
		for e, err := range r.c.Content.Entries.All(ctx, r.project, opt) {
			if err != nil {
				t.Fatal(err)
			}
			if e.Body != "" || e.RichBody != nil {
				t.Errorf("a listed entry carries a body: %q", e.Body)
			}
			n++
		}
		return n
	}
	if n := count(content.ListOptions{Model: "post", Search: []string{"zebras"}}); n != 0 {
		t.Errorf("Search without SearchBody found %d entries by body text", n)
	}
	if n := count(content.ListOptions{Model: "post", Search: []string{"zebras"}, SearchBody: true}); n != 1 {
		t.Errorf("SearchBody found %d entries, want 1", n)
	}
}
