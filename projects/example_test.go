package projects_test

import (
	"context"
	"fmt"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// Create a project, add a target language, and read it back.
func ExampleService_Create() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()

	p, err := c.Projects.Create(ctx, projects.CreateParams{Name: "Marketing site", Slug: "marketing", SourceLanguage: "en"})
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
