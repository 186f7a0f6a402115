package partner_test

import (
	"context"
	"encoding/json"
	"fmt"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// exampleToolsClient returns a client for a new grant of srv that can use
// the translation tools (MCPURL), and the name the tools give a new
// project of its organization acme: "acme/marketing".
func exampleToolsClient(srv *partnertest.Server) (*partner.Client, string) {
	g := srv.NewGrant(partnertest.WithOrganizations(srv.AddOrganization("acme", "Acme Inc.")))
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	org := g.Organizations[0]
	p := srv.AddProject(org.ID, partnertest.Project{Name: "Marketing site", Slug: "marketing", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	return c, org.Slug + "/" + p.Slug
}

// Create keys with their source texts and, for one, a translation. A key
// that exists already is skipped and reported, not an error.
func ExampleKeysService_Create() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()

	res, err := c.Keys.Create(ctx, project, []keys.NewKey{
		{Name: "nav.home", SourceText: "Home", Translations: map[string]string{"de": "Startseite"}},
		{Name: "nav.about", SourceText: "About us"},
	}, keys.CreateOptions{})
	if err != nil {
		panic(err)
	}
	for _, k := range res.Created {
		fmt.Println("created", k.Name)
	}

	res, err = c.Keys.Create(ctx, project, []keys.NewKey{{Name: "nav.home", SourceText: "Home"}}, keys.CreateOptions{})
	if err != nil {
		panic(err)
	}
	for _, k := range res.Skipped {
		fmt.Println("skipped", k.Name)
	}
	// Output:
	// created nav.home
	// created nav.about
	// skipped nav.home
}

// List every key of a project, page after page: the loop fetches the next
// page when it needs it, and breaking out of it stops the listing.
func ExampleKeysService_All() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Keys.Create(ctx, project, []keys.NewKey{
		{Name: "nav.home", SourceText: "Home"},
		{Name: "nav.about", SourceText: "About us"},
		{Name: "footer.legal", SourceText: "Legal notice", Namespace: "footer"},
	}, keys.CreateOptions{}); err != nil {
		panic(err)
	}

	opt := keys.ListOptions{PageSize: 2, Fields: []keys.Field{keys.FieldSourceText}}
	for k, err := range c.Keys.All(ctx, project, opt) {
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s/%s: %s\n", k.Namespace, k.Name, k.SourceText)
	}
	// Output:
	// default/nav.home: Home
	// default/nav.about: About us
	// footer/footer.legal: Legal notice
}

// Write a translation, publish it, and wait for the sync job that ships
// it to the CDN.
func ExampleTranslationsService_Publish() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()
	created, err := c.Keys.Create(ctx, project, []keys.NewKey{{Name: "nav.home", SourceText: "Home"}}, keys.CreateOptions{})
	if err != nil {
		panic(err)
	}

	set, err := c.Translations.Set(ctx, project, []translations.Values{
		{KeyID: created.Created[0].ID, Text: map[string]string{"de": "Startseite"}},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println("written:", set.Written)

	pub, err := c.Translations.Publish(ctx, project, translations.PublishOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("published:", pub.Published)

	srv.Advance(partnertest.SyncPendingTime + partnertest.SyncRunTime) // the fake's sync jobs run on its clock
	for _, id := range pub.SyncIDs {
		s, err := c.Translations.WaitSync(ctx, id)
		if err != nil {
			panic(err)
		}
		fmt.Println("sync:", s.Status)
	}
	// Output:
	// written: 1
	// published: 1
	// sync: completed
}

// Publish and wait until the files are shipped: PublishAndWait waits
// out the service's cooldown when a publish came too soon, then the sync
// jobs. The fake's jobs take three seconds.
func ExampleTranslationsService_PublishAndWait() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()
	if _, err := c.Keys.Create(ctx, project, []keys.NewKey{{Name: "nav.home", SourceText: "Home", Translations: map[string]string{"de": "Startseite"}}}, keys.CreateOptions{}); err != nil {
		panic(err)
	}

	res, err := c.Translations.PublishAndWait(ctx, project, translations.PublishOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("published:", res.Published)
	for _, s := range res.Syncs {
		fmt.Println("sync:", s.Status)
	}
	// Output:
	// published: 1
	// sync: completed
}

// Call a tool the SDK does not wrap, here listProjects, and decode its
// JSON result into your own type.
func ExampleToolsService_Call() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, _ := exampleToolsClient(srv)
	defer c.Close()

	var out struct {
		Projects []struct {
			Slug            string   `json:"slug"`
			SourceLanguage  string   `json:"sourceLanguage"`
			TargetLanguages []string `json:"targetLanguages"`
		} `json:"projects"`
	}
	if err := c.Tools.Call(context.Background(), partner.TranslationTools, "listProjects", nil, &out); err != nil {
		panic(err)
	}
	for _, p := range out.Projects {
		fmt.Println(p.Slug, p.SourceLanguage, p.TargetLanguages)
	}
	// Output: acme/marketing en [de]
}

// Call a REST endpoint the SDK does not wrap (here one it does, so that
// the example runs on partnertest). The request carries the grant's
// installation token; statuses come back as responses, as with net/http.
func ExampleClient_HTTPClient() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c := exampleClient(srv, srv.NewGrant(partnertest.WithOrganizations(srv.AddOrganization("acme", "Acme Inc."))))
	hc := c.HTTPClient()

	resp, err := hc.Get(srv.URL + "/api/oauth-client/organizations")
	if err != nil {
		panic(err)
	}
	var body struct {
		Organizations []struct {
			Slug string `json:"slug"`
		} `json:"organizations"`
	}
	err = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if err != nil {
		panic(err)
	}
	fmt.Println(resp.StatusCode, body.Organizations[0].Slug)

	resp, err = hc.Get(srv.URL + "/api/oauth-client/v1/projects/no-such-project")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode) // a response, not an error
	// Output:
	// 200 acme
	// 404
}

// Split long lists of writes into the calls the tools take, and send
// them one by one: 600 keys are created in one createKeys call, and
// their translations written in two setTranslations calls of at most 500
// keys.
func ExampleTranslationsService_SetBatches() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleToolsClient(srv)
	defer c.Close()
	ctx := context.Background()

	var ks []keys.NewKey
	for i := range 600 {
		ks = append(ks, keys.NewKey{Name: fmt.Sprintf("item%d.title", i), SourceText: "Title"})
	}
	var vs []translations.Values
	for _, batch := range c.Keys.CreateBatches(project, ks, keys.CreateOptions{}) {
		res, err := c.Keys.Create(ctx, project, batch, keys.CreateOptions{})
		if err != nil {
			panic(err) // the batches before this one were created
		}
		fmt.Println("created", len(res.Created))
		for _, k := range res.Created {
			vs = append(vs, translations.Values{KeyID: k.ID, Text: map[string]string{"de": "Titel"}})
		}
	}
	for _, batch := range c.Translations.SetBatches(project, vs) {
		res, err := c.Translations.Set(ctx, project, batch)
		if err != nil {
			panic(err)
		}
		fmt.Println("translated", res.Count)
	}
	// Output:
	// created 600
	// translated 500
	// translated 100
}
