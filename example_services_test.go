package partner_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// exampleClient returns a client for a new grant of srv.
func exampleClient(srv *partnertest.Server, g partnertest.Grant) *partner.Client {
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	return c
}

// Create a project, add a target language, and read it back.
func ExampleProjectsService_Create() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	c := exampleClient(srv, g)
	ctx := context.Background()

	p, err := c.Projects.Create(ctx, projects.NewProject{Name: "Marketing site", Slug: "marketing", SourceLanguage: "en"})
	if err != nil {
		panic(err)
	}
	if _, err := c.Projects.AddLanguage(ctx, p.ID, "de"); err != nil {
		panic(err)
	}
	p, err = c.Projects.Get(ctx, p.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Slug, p.SourceLanguage, p.TargetLanguages[0].Code, p.TargetLanguages[0].Name)

	all, err := c.Projects.List(ctx, g.Organizations[0].ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(all))
	// Output:
	// marketing en de German
	// 1
}

func ExampleOrganizationsService_List() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant(partnertest.WithOrganizations(
		srv.AddOrganization("acme", "Acme Inc."),
		srv.AddOrganization("globex", "Globex"),
	))
	orgs, err := exampleClient(srv, g).Organizations.List(context.Background())
	if err != nil {
		panic(err)
	}
	for _, o := range orgs {
		fmt.Println(o.Slug, o.Name)
	}
	// Output:
	// acme Acme Inc.
	// globex Globex
}

// The client mints installation tokens by itself; minting one by hand is
// for learning what the mint says (the scopes after a re-authorization,
// say) or handing a token to another process. The new token becomes the
// one the client's calls use.
func ExampleInstallationsService_CreateToken() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c := exampleClient(srv, srv.NewGrant())
	tok, err := c.Installations.CreateToken(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(tok.Token, "svc_oat_"), time.Until(tok.ExpiresAt) > 59*time.Minute)
	// Output: true true
}
