package partnertest_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/partnertest"
)

// oauthConfig is an x/oauth2 configuration for the fake's endpoints, with
// the client secret in the form body as the service wants it.
func oauthConfig(srv *partnertest.Server, redirectURL string, scopes ...string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     srv.ClientID(),
		ClientSecret: srv.ClientSecret(),
		Endpoint: oauth2.Endpoint{
			AuthURL:   srv.AuthURL + partnertest.AuthorizePath,
			TokenURL:  srv.AuthURL + partnertest.TokenPath,
			AuthStyle: oauth2.AuthStyleInParams,
		},
		RedirectURL: redirectURL,
		Scopes:      scopes,
	}
}

// browse is the browser at the authorize URL: it returns the query of the
// redirect back to the application.
func browse(srv *partnertest.Server, authURL string) url.Values {
	c := *srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(authURL)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		panic(err)
	}
	return loc.Query()
}

// A user connects the application and picks two organizations: the code
// exchange issues a grant for each. With x/oauth2: AuthCodeURL with S256
// PKCE, then Exchange with the verifier.
func ExampleServer_SetConsent() {
	const callback = "https://app.example/callback"
	srv := partnertest.NewServer(partnertest.WithRedirectURLs(callback))
	defer srv.Close()
	acme, globex := srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")
	srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{acme, globex}})

	conf := oauthConfig(srv, callback, partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead, partnertest.ScopeOfflineAccess)
	verifier := oauth2.GenerateVerifier()
	back := browse(srv, conf.AuthCodeURL("state-123", oauth2.S256ChallengeOption(verifier)))
	fmt.Println("state:", back.Get("state"))

	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, srv.Client())
	tok, err := conf.Exchange(ctx, back.Get("code"), oauth2.VerifierOption(verifier))
	if err != nil {
		panic(err)
	}
	fmt.Println("first grant:", tok.Extra("grant_id"), "scope:", tok.Extra("scope"))
	for _, g := range tok.Extra("grants").([]any) {
		g := g.(map[string]any)
		fmt.Println(g["grant_id"], g["organization_id"])
	}
	// Output:
	// state: state-123
	// first grant: grant_1 scope: org:read projects:read
	// grant_1 org_1
	// grant_2 org_2
}

// StartApp runs the application's callback next to the fake, here on the
// in-memory network: a client following redirects goes from the authorize
// URL to the callback, which exchanges the code.
func ExampleServer_StartApp() {
	srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
	defer srv.Close()
	var conf *oauth2.Config
	app := srv.StartApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), oauth2.HTTPClient, srv.Client())
		tok, err := conf.Exchange(ctx, r.URL.Query().Get("code"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		fmt.Fprintf(w, "connected %s", tok.Extra("grant_id"))
	}))
	srv.AddRedirectURL(app + "/callback")
	conf = oauthConfig(srv, app+"/callback")

	resp, err := srv.Client().Get(conf.AuthCodeURL("state-123"))
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.Request.URL.Host, resp.StatusCode, string(body))
	// Output: app-1.in-memory.partnertest.invalid 200 connected grant_1
}

// With rotation, every refresh returns a new refresh token; sending a
// retired one again revokes the grant.
func ExampleWithRefreshRotation() {
	srv := partnertest.NewServer(partnertest.WithRefreshRotation())
	defer srv.Close()
	g := srv.NewGrant()

	fmt.Println(refresh(srv, g.RefreshToken)) // rotates
	fmt.Println(refresh(srv, g.RefreshToken)) // the retired token again
	now, _ := srv.Grant(g.ID)
	c := srv.GrantCounts(g.ID)
	fmt.Println("revoked:", now.Revoked, "reused:", c.ReusedRefreshTokens, "revoked by reuse:", c.ReuseRevocations)
	// Output:
	// 200
	// 400
	// revoked: true reused: 1 revoked by reuse: 1
}

// The partner disconnects a user: DELETE the installation with the
// grant's access token.
func ExampleServer_Grant() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	at := srv.IssueAccessToken(g.ID)

	for range 2 {
		req, _ := http.NewRequest("DELETE", srv.URL+"/api/oauth-client/installations/"+g.ID, nil)
		req.Header.Set("Authorization", "Bearer "+at)
		resp, err := srv.Client().Do(req)
		if err != nil {
			panic(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(strings.TrimSpace(fmt.Sprint(resp.StatusCode, " ", string(body))))
	}
	now, _ := srv.Grant(g.ID)
	fmt.Println("revoked:", now.Revoked, "by the partner:", srv.GrantCounts(g.ID).PartnerRevocations)
	// Output:
	// 204
	// 410 {"error":"grant_revoked","message":"the grant was revoked"}
	// revoked: true by the partner: 1
}

// WithPKCERequired refuses an authorize request without a code challenge,
// sending the browser back with the error.
func ExampleWithPKCERequired() {
	const callback = "https://app.example/callback"
	srv := partnertest.NewServer(partnertest.WithRedirectURLs(callback), partnertest.WithPKCERequired())
	defer srv.Close()
	conf := oauthConfig(srv, callback)

	back := browse(srv, conf.AuthCodeURL("s1"))
	fmt.Println(back.Get("error"), back.Get("state"))
	back = browse(srv, conf.AuthCodeURL("s2", oauth2.S256ChallengeOption(oauth2.GenerateVerifier())))
	fmt.Println(back.Get("code") != "", back.Get("state"))
	// Output:
	// invalid_request s1
	// true s2
}
