package organizations_test

import (
	"context"
	"fmt"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/organizations"
	"github.com/locsvc/partner-go/partnertest"
)

func ExampleService_List() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant(partnertest.WithOrganizations(
		srv.AddOrganization("acme", "Acme Inc."),
		srv.AddOrganization("globex", "Globex"),
	))
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	var orgs []organizations.Organization
	orgs, err = c.Organizations.List(context.Background())
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
