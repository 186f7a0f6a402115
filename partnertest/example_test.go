package partnertest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/locsvc/partner-go/partnertest"
)

// The whole token lifecycle with plain net/http: refresh the access token,
// mint an installation token with it, then call the resource API. A client
// built on this module does all of this itself; point it at srv.URL and
// srv.AuthURL instead.
func Example() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()

	// Endpoint 7: the refresh token for an access token.
	form := url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {g.RefreshToken},
		"client_id":     {srv.ClientID()},
		"client_secret": {srv.ClientSecret()},
	}
	resp, err := http.PostForm(srv.AuthURL+partnertest.TokenPath, form)
	if err != nil {
		panic(err)
	}
	var refreshed struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int    `json:"expires_in"`
	}
	json.NewDecoder(resp.Body).Decode(&refreshed)
	resp.Body.Close()
	fmt.Println("access token for", refreshed.ExpiresIn, "s")

	// Endpoint 8: the access token for an installation token.
	req, _ := http.NewRequest("POST", srv.URL+"/api/oauth-client/installations/"+g.ID+"/tokens", nil)
	req.Header.Set("Authorization", "Bearer "+refreshed.AccessToken)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	var minted struct {
		Token string `json:"installation_token"`
	}
	json.NewDecoder(resp.Body).Decode(&minted)
	resp.Body.Close()
	fmt.Println("installation token:", strings.HasPrefix(minted.Token, "svc_oat_"))

	// Endpoint 4 with the installation token.
	req, _ = http.NewRequest("POST", srv.URL+"/api/oauth-client/v1/projects",
		strings.NewReader(`{"name":"Website","slug":"website","sourceLanguage":"en"}`))
	req.Header.Set("Authorization", "Bearer "+minted.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		panic(err)
	}
	var p partnertest.Project
	json.NewDecoder(resp.Body).Decode(&p)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, p.ID, p.Slug, "in", p.OrganizationID)
	// Output:
	// access token for 1800 s
	// installation token: true
	// 201 prj_1 website in org_1
}

// get calls the API with a Bearer token and prints the status and body.
func get(srv *partnertest.Server, path, token string) {
	req, _ := http.NewRequest("GET", srv.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := srv.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Print(resp.StatusCode, " ", string(body))
}

// post sends body as JSON to path with token and prints the answer.
func post(srv *partnertest.Server, path, token, body string) {
	req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	fmt.Print(resp.StatusCode, " ", string(b))
}

func ExampleNewServer() {
	srv := partnertest.NewServer()
	defer srv.Close()

	// Configure the code under test with these.
	fmt.Println(strings.HasPrefix(srv.URL, "http://127.0.0.1:"))
	fmt.Println(srv.URL != srv.AuthURL)
	fmt.Println(srv.ClientID(), srv.ClientSecret())
	// Output:
	// true
	// true
	// test-client test-secret
}

func ExampleWithClientCredentials() {
	srv := partnertest.NewServer(partnertest.WithClientCredentials("my-app", "s3cret"))
	defer srv.Close()
	fmt.Println(srv.ClientID(), srv.ClientSecret())
	// Output: my-app s3cret
}

// A fixed clock makes times in answers predictable.
func ExampleWithClock() {
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	srv := partnertest.NewServer(partnertest.WithClock(func() time.Time { return start }))
	defer srv.Close()
	g := srv.NewGrant()

	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"})
	fmt.Println(p.CreatedAt)
	srv.Advance(time.Hour)
	fmt.Println(srv.Now())
	// Output:
	// 2026-01-01 09:00:00 +0000 UTC
	// 2026-01-01 10:00:00 +0000 UTC
}

// In a testing/synctest bubble, a server on the in-memory network lets
// time.Sleep expire tokens on both sides:
//
//	func TestTokenExpiry(t *testing.T) {
//		synctest.Test(t, func(t *testing.T) {
//			srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
//			defer srv.Close()
//			// build the client under test with srv.Client() as its HTTP client
//			time.Sleep(2 * time.Hour) // no real waiting
//			// ...
//		})
//	}
//
// Outside a bubble it works too, with srv.Client() only: any other client
// fails at once, on a host name no resolver knows.
func ExampleWithInMemoryNetwork() {
	srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
	defer srv.Close()
	g := srv.NewGrant()

	fmt.Println(srv.URL)
	get(srv, "/api/oauth-client/organizations", srv.IssueInstallationToken(g.ID))

	_, err := http.Get(srv.URL + "/api/oauth-client/me") // not srv.Client()
	var dnsErr *net.DNSError
	fmt.Println(errors.As(err, &dnsErr), dnsErr.Name)
	// Output:
	// https://api.in-memory.partnertest.invalid
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
	// true api.in-memory.partnertest.invalid
}

// A cap per installation token and minute, as the service has.
func ExampleWithRateLimit() {
	srv := partnertest.NewServer(
		partnertest.WithRateLimit(2),
		partnertest.WithClock(func() time.Time { return time.Date(2026, 1, 1, 9, 0, 45, 0, time.UTC) }),
	)
	defer srv.Close()
	g := srv.NewGrant()
	token := srv.IssueInstallationToken(g.ID)

	for range 3 {
		get(srv, "/api/oauth-client/organizations", token)
	}
	fmt.Println("Retry-After:", retryAfter(srv, token))
	srv.Advance(15 * time.Second) // the next minute begins
	get(srv, "/api/oauth-client/organizations", token)
	// Output:
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
	// 429 {"error":"rate_limited","message":"more than 2 requests this minute with this installation token"}
	// Retry-After: 15
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
}

// retryAfter makes one more request with token and returns its
// Retry-After header.
func retryAfter(srv *partnertest.Server, token string) string {
	req, _ := http.NewRequest("GET", srv.URL+"/api/oauth-client/organizations", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Retry-After")
}

func ExampleWithRequestLogLimit() {
	srv := partnertest.NewServer(partnertest.WithRequestLogLimit(1))
	defer srv.Close()
	g := srv.NewGrant()
	get(srv, "/api/oauth-client/organizations", srv.IssueInstallationToken(g.ID))
	get(srv, "/api/oauth-client/me", srv.IssueAccessToken(g.ID))

	for _, r := range srv.Requests() { // only the last one is kept
		fmt.Println(r.Method, r.Path, r.Token, r.Status)
	}
	// Output:
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
	// 200 {"id":"usr_1","email":"user1@example.com","name":"User 1","account":{"id":"acc_1","name":"Account 1"}}
	// GET /api/oauth-client/me access 200
}

// Server.Client reaches both servers, whichever network they are on.
func ExampleServer_Client() {
	srv := partnertest.NewServer()
	defer srv.Close()
	resp, err := srv.Client().Get(srv.AuthURL + partnertest.TokenPath)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Allow"))
	// Output: 405 POST
}

// Advance expires tokens without waiting: the client still holds a token
// it believes fresh, and the server refuses it.
func ExampleServer_Advance() {
	srv := partnertest.NewServer(partnertest.WithClock(func() time.Time {
		return time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	}))
	defer srv.Close()
	g := srv.NewGrant()
	token := srv.IssueAccessToken(g.ID)

	srv.Advance(partnertest.AccessTokenLifetime)
	get(srv, "/api/oauth-client/me", token)
	// Output: 401 {"error":"invalid_token","message":"the access token expired at 2026-01-01T09:30:00Z"}
}

func ExampleServer_NewGrant() {
	srv := partnertest.NewServer()
	defer srv.Close()

	g := srv.NewGrant()
	fmt.Println(g.ID, g.User.Email, g.Organizations[0].Slug, g.Scopes)
	fmt.Println(g.RefreshToken != "")
	// Output:
	// grant_1 user1@example.com org-1 [org:read projects:read projects:write keys:read keys:write translations:read translations:write translations:publish content:read content:write content:publish glossary:read glossary:write]
	// true
}

// A grant without a scope an endpoint needs gets 403 missing_scope.
func ExampleWithScopes() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant(partnertest.WithScopes(partnertest.ScopeOrgRead))

	get(srv, "/api/oauth-client/organizations/"+g.Organizations[0].ID+"/projects", srv.IssueInstallationToken(g.ID))
	// Output: 403 {"error":"missing_scope","message":"the grant lacks scope projects:read; the user must authorize it","required":"projects:read"}
}

// One user may grant several organizations; projects are created in the
// first.
func ExampleWithOrganizations() {
	srv := partnertest.NewServer()
	defer srv.Close()
	acme := srv.AddOrganization("acme", "Acme Inc.")
	beta := srv.AddOrganization("beta", "Beta GmbH")
	g := srv.NewGrant(partnertest.WithOrganizations(acme, beta))

	get(srv, "/api/oauth-client/organizations", srv.IssueInstallationToken(g.ID))
	// Output: 200 {"organizations":[{"id":"org_1","slug":"acme","name":"Acme Inc."},{"id":"org_2","slug":"beta","name":"Beta GmbH"}]}
}

func ExampleServer_AddOrganization() {
	srv := partnertest.NewServer()
	defer srv.Close()
	fmt.Println(srv.AddOrganization("acme", "Acme Inc."))
	fmt.Println(srv.AddOrganization("", ""))
	// Output:
	// {org_1 acme Acme Inc.}
	// {org_2 org-2 Organization 2}
}

func ExampleAllScopes() {
	fmt.Println(partnertest.AllScopes())
	// Output: [org:read projects:read projects:write keys:read keys:write translations:read translations:write translations:publish content:read content:write content:publish glossary:read glossary:write]
}

// A user who accepts the consent screen's defaults cannot create projects.
func ExampleDefaultScopes() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant(partnertest.WithScopes(partnertest.DefaultScopes()...))
	fmt.Println(g.Scopes)

	post(srv, "/api/oauth-client/v1/projects", srv.IssueInstallationToken(g.ID), `{"name":"Web","slug":"web","sourceLanguage":"en"}`)
	// Output:
	// [org:read projects:read keys:read keys:write translations:read translations:write content:read content:write glossary:read]
	// 403 {"error":"missing_scope","message":"the grant lacks scope projects:write; the user must authorize it","required":"projects:write"}
}

// After Revoke, the API answers 410 and the token endpoint 400.
func ExampleServer_Revoke() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	token := srv.IssueInstallationToken(g.ID)

	srv.Revoke(g.ID)
	get(srv, "/api/oauth-client/organizations", token)

	resp, err := srv.Client().PostForm(srv.AuthURL+partnertest.TokenPath, url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {g.RefreshToken},
		"client_id":     {srv.ClientID()},
		"client_secret": {srv.ClientSecret()},
	})
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(resp.StatusCode, " ", string(body))
	// Output:
	// 410 {"error":"grant_revoked","message":"the grant was revoked"}
	// 400 {"error":"invalid_grant","message":"the refresh token is unknown or its grant was revoked"}
}

// Scopes are bound per installation token: after the user authorized a
// wider scope, a token minted before keeps its scopes, and only a new one
// carries the new scope.
func ExampleServer_SetScopes() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant(partnertest.WithScopes())
	before := srv.IssueInstallationToken(g.ID)

	srv.SetScopes(g.ID, partnertest.ScopeOrgRead)
	get(srv, "/api/oauth-client/organizations", before)
	get(srv, "/api/oauth-client/organizations", srv.IssueInstallationToken(g.ID))
	// Output:
	// 403 {"error":"missing_scope","message":"the grant lacks scope org:read; the user must authorize it","required":"org:read"}
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
}

// Tokens issued directly skip the token endpoint and endpoint 8, for tests
// that start from a connected state.
func ExampleServer_IssueInstallationToken() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()

	get(srv, "/api/oauth-client/me", srv.IssueAccessToken(g.ID))
	get(srv, "/api/oauth-client/organizations", srv.IssueInstallationToken(g.ID))
	get(srv, "/api/oauth-client/organizations", srv.IssueAccessToken(g.ID))
	c := srv.Counts()
	fmt.Println("refreshes:", c.Refreshes, "mints:", c.Mints)
	// Output:
	// 200 {"id":"usr_1","email":"user1@example.com","name":"User 1","account":{"id":"acc_1","name":"Account 1"}}
	// 200 {"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}
	// 401 {"error":"invalid_token","message":"this endpoint takes an installation token, not an access token"}
	// refreshes: 0 mints: 0
}

// Counts show how often the code under test refreshed and minted.
func ExampleServer_GrantCounts() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	other := srv.NewGrant()

	req, _ := http.NewRequest("POST", srv.URL+"/api/oauth-client/installations/"+g.ID+"/tokens", nil)
	req.Header.Set("Authorization", "Bearer "+srv.IssueAccessToken(g.ID))
	resp, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()

	fmt.Println("mints:", srv.Counts().Mints, srv.GrantCounts(g.ID).Mints, srv.GrantCounts(other.ID).Mints)
	// Output: mints: 1 1 0
}

func ExampleServer_AddProject() {
	srv := partnertest.NewServer(partnertest.WithClock(func() time.Time {
		return time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	}))
	defer srv.Close()
	g := srv.NewGrant()
	srv.AddProject(g.Organizations[0].ID, partnertest.Project{
		Name: "App", Slug: "app", SourceLanguage: "en", CDN: true,
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}},
	})

	get(srv, "/api/oauth-client/v1/projects/prj_1", srv.IssueInstallationToken(g.ID))
	// Output: 200 {"id":"prj_1","organizationId":"org_1","name":"App","slug":"app","sourceLanguage":"en","cdn":true,"targetLanguages":[{"code":"de","name":"German"}],"createdAt":"2026-01-01T09:00:00Z"}
}

// Project and Projects show what the code under test changed.
func ExampleServer_Projects() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	org := g.Organizations[0].ID

	req, _ := http.NewRequest("POST", srv.URL+"/api/oauth-client/v1/projects/"+
		srv.AddProject(org, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"}).ID+"/languages",
		strings.NewReader(`{"code":"fr"}`))
	req.Header.Set("Authorization", "Bearer "+srv.IssueInstallationToken(g.ID))
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		panic(err)
	}
	resp.Body.Close()

	for _, p := range srv.Projects(org) {
		fmt.Println(p.ID, p.Slug, p.TargetLanguages)
	}
	p, ok := srv.Project("prj_1")
	fmt.Println(p.Name, ok)
	_, ok = srv.Project("prj_2")
	fmt.Println(ok)
	// Output:
	// prj_1 app [{fr French}]
	// App true
	// false
}

func ExampleServer_Requests() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	get(srv, "/api/oauth-client/organizations", srv.IssueAccessToken(g.ID))
	get(srv, "/api/oauth-client/organizations", "")
	fmt.Println()

	for _, r := range srv.Requests() {
		fmt.Println(r.Host, r.Method, r.Path, r.Token, r.GrantID, r.Status)
	}
	// Output:
	// 401 {"error":"invalid_token","message":"this endpoint takes an installation token, not an access token"}
	// 401 {"error":"invalid_token","message":"no Bearer token"}
	//
	// api GET /api/oauth-client/organizations access grant_1 401
	// api GET /api/oauth-client/organizations none  401
}

// The next two token requests fail with 503 and a Retry-After header; the
// third goes through.
func ExampleServer_InjectFault() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	srv.InjectFault(partnertest.Fault{
		Host:       partnertest.HostAuth,
		Method:     "POST",
		Path:       partnertest.TokenPath,
		Times:      2,
		Status:     http.StatusServiceUnavailable,
		RetryAfter: "1",
	})

	for range 3 {
		resp, err := srv.Client().PostForm(srv.AuthURL+partnertest.TokenPath, url.Values{
			"grant_type":    {"refresh_token"},
			"refresh_token": {g.RefreshToken},
			"client_id":     {srv.ClientID()},
			"client_secret": {srv.ClientSecret()},
		})
		if err != nil {
			panic(err)
		}
		resp.Body.Close()
		fmt.Printf("%d Retry-After=%q\n", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	fmt.Println(srv.Counts().Refreshes)
	// Output:
	// 503 Retry-After="1"
	// 503 Retry-After="1"
	// 200 Retry-After=""
	// 1
}

// A dropped connection: the client gets an error and no answer.
func ExampleFault_drop() {
	srv := partnertest.NewServer()
	defer srv.Close()
	srv.InjectFault(partnertest.Fault{Path: "/api/oauth-client/*", Drop: true})

	_, err := srv.Client().Get(srv.URL + "/api/oauth-client/me")
	fmt.Println(err != nil)
	fmt.Println(srv.Requests()[0].Status, srv.Requests()[0].Fault)
	// Output:
	// true
	// 0 true
}

func ExampleServer_ClearFaults() {
	srv := partnertest.NewServer()
	defer srv.Close()
	srv.InjectFault(partnertest.Fault{Times: -1, Status: http.StatusInternalServerError})
	get(srv, "/", "")
	srv.ClearFaults()
	get(srv, "/", "")
	// Output:
	// 500 {"error":"internal_server_error","message":"injected fault"}
	// 404 {"error":"not_found","message":"no such resource"}
}

// A revoked grant comes back when the user connects again, with a new
// refresh token; the old one stays refused.
func ExampleServer_Reconnect() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	srv.Revoke(g.ID)
	g2 := srv.Reconnect(g.ID)
	fmt.Println(g2.ID == g.ID, g2.RefreshToken != g.RefreshToken)
	fmt.Println(refresh(srv, g.RefreshToken), refresh(srv, g2.RefreshToken))
	// Output:
	// true true
	// 400 200
}

// refresh trades a refresh token at the token endpoint and returns the
// status.
func refresh(srv *partnertest.Server, refreshToken string) int {
	resp, err := srv.Client().PostForm(srv.AuthURL+partnertest.TokenPath, refreshForm(refreshToken))
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Counts tells how many tokens the endpoints issued, to check that code
// under test refreshes and mints no more than it must.
func ExampleServer_Counts() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	refresh(srv, g.RefreshToken)
	refresh(srv, g.RefreshToken)
	c := srv.Counts()
	fmt.Println("refreshes:", c.Refreshes, "mints:", c.Mints)
	// Output: refreshes: 2 mints: 0
}

// IssueAccessToken skips the token endpoint, to test an endpoint alone.
func ExampleServer_IssueAccessToken() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	get(srv, "/api/oauth-client/me", srv.IssueAccessToken(g.ID))
	c := srv.Counts()
	fmt.Println("refreshes:", c.Refreshes, "mints:", c.Mints)
	// Output:
	// 200 {"id":"usr_1","email":"user1@example.com","name":"User 1","account":{"id":"acc_1","name":"Account 1"}}
	// refreshes: 0 mints: 0
}

// Now is the server's clock: real time plus whatever Advance added.
func ExampleServer_Now() {
	srv := partnertest.NewServer()
	defer srv.Close()
	before := srv.Now()
	srv.Advance(90 * time.Minute)
	fmt.Println(srv.Now().Sub(before).Round(time.Minute))
	// Output: 1h30m0s
}

// Project reads back what code under test created. (Projects added with
// AddProject are not CDN-backed; those created through endpoint 4 are.)
func ExampleServer_Project() {
	srv := partnertest.NewServer()
	defer srv.Close()
	org := srv.AddOrganization("acme", "Acme")
	p := srv.AddProject(org.ID, partnertest.Project{Name: "Site", Slug: "site", SourceLanguage: "en"})
	got, ok := srv.Project(p.ID)
	fmt.Println(ok, got.Slug, got.OrganizationID, got.CDN)
	_, ok = srv.Project("prj_none")
	fmt.Println(ok)
	// Output:
	// true site org_1 false
	// false
}
