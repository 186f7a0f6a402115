package partner_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// A client for one user's grant. Here the service is partnertest's fake;
// in production BaseURL and AuthURL are the service's addresses and the
// refresh token comes from your OAuth code exchange.
func ExampleNewClient() {
	srv := partnertest.NewServer()
	defer srv.Close()
	grant := srv.NewGrant()

	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: grant.ID,
		Token:   &oauth2.Token{RefreshToken: grant.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	me, err := c.Me(ctx)
	if err != nil {
		panic(err)
	}
	orgs, err := c.Organizations.List(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(me.Email, len(orgs))
	// Output: user1@example.com 1
}

// Branch on the error to tell the user what to do.
func ExampleMissingScopeError() {
	srv := partnertest.NewServer()
	defer srv.Close()
	grant := srv.NewGrant(partnertest.WithScopes(partnertest.ScopeOrgRead))
	c, _ := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: grant.ID, Token: &oauth2.Token{RefreshToken: grant.RefreshToken},
	})

	_, err := c.Projects.Create(context.Background(), projects.NewProject{Name: "Site", Slug: "site", SourceLanguage: "en"})
	var scope *partner.MissingScopeError
	switch {
	case errors.As(err, &scope):
		fmt.Println("ask the user to grant", scope.Required)
	case errors.Is(err, partner.ErrReauthorizationRequired):
		fmt.Println("ask the user to reconnect")
	case errors.Is(err, partner.ErrTemporary):
		fmt.Println("try again later")
	}
	// Output: ask the user to grant projects:write
}

// An answer the service refused: the status, code and message, and the
// request it answered.
func ExampleAPIError() {
	srv := partnertest.NewServer()
	defer srv.Close()
	grant := srv.NewGrant()
	c, _ := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: grant.ID, Token: &oauth2.Token{RefreshToken: grant.RefreshToken},
	})
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAPI, Path: "/api/oauth-client/v1/projects/*", Status: 409,
		Body: `{"error":"conflict","message":"the project is being deleted"}`})

	_, err := c.Projects.Get(context.Background(), "p1")
	var ae *partner.APIError
	if errors.As(err, &ae) {
		fmt.Println(ae.Method, ae.Path, ae.StatusCode, ae.Code+":", ae.Message)
		fmt.Println(errors.Is(err, partner.ErrConflict))
	}
	// Output:
	// GET /api/oauth-client/v1/projects/p1 409 conflict: the project is being deleted
	// true
}

// A revoked grant: the first call says so, and later calls fail the same
// way without reaching the service.
func ExampleErrReauthorizationRequired() {
	srv := partnertest.NewServer()
	defer srv.Close()
	grant := srv.NewGrant()
	c, _ := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: grant.ID, Token: &oauth2.Token{RefreshToken: grant.RefreshToken},
	})
	ctx := context.Background()
	_, err := c.Organizations.List(ctx)
	fmt.Println(err)

	srv.Revoke(grant.ID) // the user disconnects the application
	_, err = c.Organizations.List(ctx)
	fmt.Println(errors.Is(err, partner.ErrReauthorizationRequired), errors.Is(err, partner.ErrGrantRevoked))
	// Output:
	// <nil>
	// true true
}

// One Pool serves every user: each grant's client is built from the
// Store's token on first use and shares one connection pool.
func ExampleNewPool() {
	srv := partnertest.NewServer()
	defer srv.Close()
	ctx := context.Background()

	// Your application saves each user's token after the code exchange.
	store := auth.NewMemoryStore()
	var grants []string
	for range 3 {
		g := srv.NewGrant()
		store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		grants = append(grants, g.ID)
	}

	pool, err := partner.NewPool(partner.PoolConfig{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: store,
	})
	if err != nil {
		panic(err)
	}
	var slugs []string
	for _, id := range grants {
		c, err := pool.Client(ctx, id)
		if err != nil {
			panic(err)
		}
		orgs, err := c.Organizations.List(ctx)
		if err != nil {
			panic(err)
		}
		slugs = append(slugs, orgs[0].Slug)
	}
	fmt.Println(strings.Join(slugs, " "), srv.Counts().Refreshes)
	// Output: org-1 org-2 org-3 3
}

// Config never shows its secrets, whether printed or logged.
func ExampleConfig_String() {
	cfg := partner.Config{BaseURL: "https://api.example.com", ClientID: "app", ClientSecret: "s3cr3t", GrantID: "g1",
		Token: &oauth2.Token{RefreshToken: "r3fr3sh"}}
	fmt.Println(cfg)
	// Output: partner.Config{BaseURL: "https://api.example.com", AuthURL: "", MCPURL: "", ContentMCPURL: "", ClientID: "app", ClientSecret: [redacted], GrantID: "g1", Token: [redacted]}
}
