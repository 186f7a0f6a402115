package cdn_test

import (
	"context"
	"fmt"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// Read what a project published, without a token: the CDN's address and
// the project's name and layout are all it takes. (The fake service is
// first given something published, with a grant.)
func ExampleClient_File() {
	srv := partnertest.NewServer()
	defer srv.Close()
	publishSomething(srv)

	c, err := cdn.NewClient(srv.CDNURL, nil)
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	m, err := c.Manifest(ctx, "acme/web")
	if err != nil {
		panic(err)
	}
	fmt.Println("languages:", len(m.Files))
	b, err := c.File(ctx, "acme/web", translations.SingleFile, "de", "")
	if err != nil {
		panic(err)
	}
	fmt.Print(string(b))
	// Output:
	// languages: 2
	// {
	//   "nav": {
	//     "home": "Startseite"
	//   }
	// }
}

// publishSomething publishes key nav.home of acme/web, in English and
// German, and lets the fake's sync job ship it.
func publishSomething(srv *partnertest.Server) {
	g := srv.NewGrant(partnertest.WithOrganizations(srv.AddOrganization("acme", "Acme")))
	srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	pc, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	defer pc.Close()
	ctx := context.Background()
	if _, err := pc.Keys.Create(ctx, "acme/web", []keys.NewKey{{Name: "nav.home", SourceText: "Home", Translations: map[string]string{"de": "Startseite"}}}, keys.CreateOptions{}); err != nil {
		panic(err)
	}
	if _, err := pc.Translations.Publish(ctx, "acme/web", translations.PublishOptions{}); err != nil {
		panic(err)
	}
	srv.Advance(partnertest.SyncPendingTime + partnertest.SyncRunTime)
}
