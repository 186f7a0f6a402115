package partnertest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/locsvc/partner-go/partnertest"
)

func TestFlow(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	srv := newServer(t, partnertest.WithClock(func() time.Time { return now }))
	g := srv.NewGrant()

	at := accessToken(t, srv, g)
	r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", at, "", "")
	wantMe := `{"id":"usr_1","email":"user1@example.com","name":"User 1","account":{"id":"acc_1","name":"Account 1"}}`
	if r.status != 200 || strings.TrimSpace(string(r.body)) != wantMe {
		t.Fatalf("me with access token: %d %s, want 200 %s", r.status, r.body, wantMe)
	}

	it := installationToken(t, srv, g)
	if !strings.HasPrefix(it, "svc_oat_") {
		t.Errorf("installation token %q lacks the svc_oat_ prefix", it)
	}
	steps := []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"GET", "/api/oauth-client/me", "", 200, wantMe},
		{"GET", "/api/oauth-client/organizations", "", 200,
			`{"organizations":[{"id":"org_1","slug":"org-1","name":"Organization 1"}]}`},
		{"GET", "/api/oauth-client/organizations/org_1/projects", "", 200, `{"projects":[]}`},
		{"POST", "/api/oauth-client/v1/projects", `{"name":"Web","slug":"web","sourceLanguage":"en"}`, 201,
			`{"id":"prj_1","organizationId":"org_1","name":"Web","slug":"web","sourceLanguage":"en","cdn":true,"targetLanguages":[],"createdAt":"2026-03-01T12:00:00Z"}`},
		{"GET", "/api/oauth-client/v1/projects/prj_1", "", 200,
			`{"id":"prj_1","organizationId":"org_1","name":"Web","slug":"web","sourceLanguage":"en","cdn":true,"targetLanguages":[],"createdAt":"2026-03-01T12:00:00Z"}`},
		{"POST", "/api/oauth-client/v1/projects/prj_1/languages", `{"code":"de"}`, 201, `{"code":"de","name":"German"}`},
		{"POST", "/api/oauth-client/v1/projects/prj_1/languages", `{"code":"x-klingon"}`, 201, `{"code":"x-klingon","name":"x-klingon"}`},
		{"GET", "/api/oauth-client/organizations/org_1/projects", "", 200,
			`{"projects":[{"id":"prj_1","organizationId":"org_1","name":"Web","slug":"web","sourceLanguage":"en","cdn":true,"targetLanguages":[{"code":"de","name":"German"},{"code":"x-klingon","name":"x-klingon"}],"createdAt":"2026-03-01T12:00:00Z"}]}`},
	}
	for _, s := range steps {
		ctype := ""
		if s.body != "" {
			ctype = "application/json; charset=utf-8"
		}
		r := send(t, srv, s.method, srv.URL+s.path, it, ctype, s.body)
		if r.status != s.status || strings.TrimSpace(string(r.body)) != s.want {
			t.Errorf("%s %s: %d %s\nwant %d %s", s.method, s.path, r.status, r.body, s.status, s.want)
		}
	}
	if got, ok := srv.Project("prj_1"); !ok || len(got.TargetLanguages) != 2 {
		t.Errorf("Project(prj_1) = %+v, %v", got, ok)
	}
	if diff := cmp.Diff(partnertest.Counts{Refreshes: 2, Mints: 1}, srv.GrantCounts(g.ID)); diff != "" {
		t.Errorf("GrantCounts (-want +got):\n%s", diff)
	}
}

func TestTokenEndpoint(t *testing.T) {
	srv := newServer(t, partnertest.WithClientCredentials("cid", "csecret"))
	g := srv.NewGrant()
	revoked := srv.NewGrant()
	srv.Revoke(revoked.ID)
	form := func(edit func(url.Values)) string {
		v := url.Values{
			"grant_type":    {"refresh_token"},
			"refresh_token": {g.RefreshToken},
			"client_id":     {"cid"},
			"client_secret": {"csecret"},
		}
		edit(v)
		return v.Encode()
	}
	const formType = "application/x-www-form-urlencoded"
	tests := []struct {
		name       string
		method     string
		url        string
		ctype      string
		body       string
		basicAuth  bool
		wantStatus int
		wantError  string
	}{
		{"ok", "POST", srv.AuthURL, formType, form(func(url.Values) {}), false, 200, ""},
		{"ok with charset", "POST", srv.AuthURL, formType + "; charset=utf-8", form(func(url.Values) {}), false, 200, ""},
		{"JSON body", "POST", srv.AuthURL, "application/json",
			`{"grant_type":"refresh_token","refresh_token":"` + g.RefreshToken + `","client_id":"cid","client_secret":"csecret"}`, false, 400, "invalid_request"},
		{"no content type", "POST", srv.AuthURL, "", form(func(url.Values) {}), false, 400, "invalid_request"},
		{"credentials missing", "POST", srv.AuthURL, formType,
			form(func(v url.Values) { v.Del("client_id"); v.Del("client_secret") }), false, 401, "invalid_client"},
		{"credentials in Basic auth only", "POST", srv.AuthURL, formType,
			form(func(v url.Values) { v.Del("client_id"); v.Del("client_secret") }), true, 401, "invalid_client"},
		{"secret missing", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Del("client_secret") }), false, 401, "invalid_client"},
		{"wrong secret", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Set("client_secret", "nope") }), false, 401, "invalid_client"},
		{"wrong client", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Set("client_id", "test-client") }), false, 401, "invalid_client"},
		{"repeated parameter", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Add("client_id", "cid") }), false, 400, "invalid_request"},
		{"wrong grant type", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Set("grant_type", "client_credentials") }), false, 400, "unsupported_grant_type"},
		{"no refresh token", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Del("refresh_token") }), false, 400, "invalid_request"},
		{"unknown refresh token", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Set("refresh_token", "rt-guess") }), false, 400, "invalid_grant"},
		{"revoked grant", "POST", srv.AuthURL, formType, form(func(v url.Values) { v.Set("refresh_token", revoked.RefreshToken) }), false, 400, "invalid_grant"},
		{"GET", "GET", srv.AuthURL, "", "", false, 405, "method_not_allowed"},
		{"on the API server", "POST", srv.URL, formType, form(func(url.Values) {}), false, 404, "not_found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, tt.url+partnertest.TokenPath, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if tt.ctype != "" {
				req.Header.Set("Content-Type", tt.ctype)
			}
			if tt.basicAuth {
				req.SetBasicAuth("cid", "csecret")
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body map[string]any
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatalf("body is not JSON: %v", err)
			}
			if resp.StatusCode != tt.wantStatus || (tt.wantError != "" && body["error"] != tt.wantError) {
				t.Fatalf("got %d %v, want %d error=%s", resp.StatusCode, body, tt.wantStatus, tt.wantError)
			}
			if tt.wantStatus != 200 {
				return
			}
			want := map[string]any{"token_type": "Bearer", "refresh_token": g.RefreshToken, "expires_in": 1800.0}
			got := map[string]any{"token_type": body["token_type"], "refresh_token": body["refresh_token"], "expires_in": body["expires_in"]}
			if diff := cmp.Diff(want, got); diff != "" || body["access_token"] == "" {
				t.Errorf("token response %v (-want +got):\n%s", body, diff)
			}
		})
	}
	if got := srv.Counts().Refreshes; got != 2 {
		t.Errorf("Counts().Refreshes = %d, want 2", got)
	}
}

// endpoints lists every resource endpoint with a valid request body.
func endpoints(projectID, orgID string) []struct{ method, path, body string } {
	return []struct{ method, path, body string }{
		{"GET", "/api/oauth-client/me", ""},
		{"GET", "/api/oauth-client/organizations", ""},
		{"GET", "/api/oauth-client/organizations/" + orgID + "/projects", ""},
		{"POST", "/api/oauth-client/v1/projects", `{"name":"N","slug":"new-slug","sourceLanguage":"en"}`},
		{"GET", "/api/oauth-client/v1/projects/" + projectID, ""},
		{"POST", "/api/oauth-client/v1/projects/" + projectID + "/languages", `{"code":"fr"}`},
	}
}

func TestTokenKinds(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	other := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "p", SourceLanguage: "en"})
	at, it := accessToken(t, srv, g), installationToken(t, srv, g)
	otherAT := accessToken(t, srv, other)

	for _, e := range endpoints(p.ID, g.Organizations[0].ID) {
		ctype := ""
		if e.body != "" {
			ctype = "application/json"
		}
		for _, tc := range []struct {
			kind, token string
			wantStatus  int
		}{
			{"none", "", 401},
			{"unknown", "svc_oat_madeup", 401},
			{"access", at, 401},
		} {
			if e.path == "/api/oauth-client/me" && tc.kind == "access" {
				tc.wantStatus = 200 // endpoint 1 takes either kind
			}
			r := send(t, srv, e.method, srv.URL+e.path, tc.token, ctype, e.body)
			if r.status != tc.wantStatus || (tc.wantStatus == 401 && r.errorCode() != "invalid_token") {
				t.Errorf("%s %s with %s token: %d %s, want %d invalid_token", e.method, e.path, tc.kind, r.status, r.body, tc.wantStatus)
			}
			if r.status == 401 && !strings.Contains(r.header.Get("WWW-Authenticate"), "invalid_token") {
				t.Errorf("%s %s: WWW-Authenticate = %q", e.method, e.path, r.header.Get("WWW-Authenticate"))
			}
		}
	}

	mint := srv.URL + "/api/oauth-client/installations/" + g.ID + "/tokens"
	for _, tc := range []struct{ name, token string }{
		{"installation token", it},
		{"no token", ""},
	} {
		if r := send(t, srv, "POST", mint, tc.token, "", ""); r.status != 401 || r.errorCode() != "invalid_token" {
			t.Errorf("mint with %s: %d %s, want 401 invalid_token", tc.name, r.status, r.body)
		}
	}
	// Another grant's access token sees no such grant.
	if r := send(t, srv, "POST", mint, otherAT, "", ""); r.status != 404 || r.errorCode() != "grant_not_found" {
		t.Errorf("mint with another grant's access token: %d %s, want 404 grant_not_found", r.status, r.body)
	}
	if got := srv.Counts().Mints; got != 1 {
		t.Errorf("Counts().Mints = %d, want 1", got)
	}
}

func TestExpiry(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	at, it := accessToken(t, srv, g), installationToken(t, srv, g)
	me := srv.URL + "/api/oauth-client/me"
	mint := srv.URL + "/api/oauth-client/installations/" + g.ID + "/tokens"

	srv.Advance(partnertest.AccessTokenLifetime - time.Second)
	if r := send(t, srv, "GET", me, at, "", ""); r.status != 200 {
		t.Fatalf("access token 1 s before expiry: %d %s", r.status, r.body)
	}
	srv.Advance(time.Second)
	for _, url := range []string{me, mint} {
		r := send(t, srv, "POST", url, at, "", "")
		if url == me {
			r = send(t, srv, "GET", url, at, "", "")
		}
		if r.status != 401 || r.errorCode() != "invalid_token" {
			t.Errorf("%s with expired access token: %d %s, want 401 invalid_token", url, r.status, r.body)
		}
	}
	// The installation token lives 1 h; 30 min have passed.
	if r := send(t, srv, "GET", me, it, "", ""); r.status != 200 {
		t.Fatalf("installation token at 30 min: %d %s", r.status, r.body)
	}
	srv.Advance(partnertest.InstallationTokenLifetime - partnertest.AccessTokenLifetime)
	r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", "")
	if r.status != 401 || r.errorCode() != "invalid_token" {
		t.Errorf("installation token at 1 h: %d %s, want 401 invalid_token", r.status, r.body)
	}
	// A refresh gives a fresh access token and the same refresh token.
	if r := send(t, srv, "GET", me, accessToken(t, srv, g), "", ""); r.status != 200 {
		t.Errorf("fresh access token: %d %s", r.status, r.body)
	}
}

func TestScopes(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant(partnertest.WithScopes())
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "p", SourceLanguage: "en"})
	it := installationToken(t, srv, g)
	required := []string{"", partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead,
		partnertest.ScopeProjectsWrite, partnertest.ScopeProjectsRead, partnertest.ScopeProjectsWrite}
	for i, e := range endpoints(p.ID, g.Organizations[0].ID) {
		r := send(t, srv, e.method, srv.URL+e.path, it, "application/json", e.body)
		if required[i] == "" {
			if r.status != 200 {
				t.Errorf("%s %s needs no scope: %d %s", e.method, e.path, r.status, r.body)
			}
			continue
		}
		var body map[string]any
		if err := json.Unmarshal(r.body, &body); err != nil {
			t.Fatal(err)
		}
		if r.status != 403 || body["error"] != "missing_scope" || body["required"] != required[i] || body["message"] == "" {
			t.Errorf("%s %s without scopes: %d %s, want 403 missing_scope required=%s", e.method, e.path, r.status, r.body, required[i])
		}
	}
	// Scopes are bound per token: SetScopes changes tokens minted after it.
	srv.SetScopes(g.ID, partnertest.ScopeOrgRead)
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", ""); r.status != 403 || r.errorCode() != "missing_scope" {
		t.Errorf("token minted before SetScopes: %d %s, want 403 missing_scope", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", installationToken(t, srv, g), "", ""); r.status != 200 {
		t.Errorf("token minted after SetScopes: %d %s", r.status, r.body)
	}
}

func TestScopeNames(t *testing.T) {
	all := partnertest.AllScopes()
	want := []string{"org:read", "projects:read", "projects:write", "keys:read", "keys:write",
		"translations:read", "translations:write", "translations:publish",
		"content:read", "content:write", "content:publish", "glossary:read", "glossary:write"}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("AllScopes (-want +got):\n%s", diff)
	}
	// The four default-off scopes of the consent screen.
	off := []string{"projects:write", "translations:publish", "content:publish", "glossary:write"}
	var on []string
	for _, sc := range all {
		if !slices.Contains(off, sc) {
			on = append(on, sc)
		}
	}
	if diff := cmp.Diff(on, partnertest.DefaultScopes()); diff != "" {
		t.Errorf("DefaultScopes (-want +got):\n%s", diff)
	}
	if g := newServer(t).NewGrant(); !slices.Equal(g.Scopes, all) {
		t.Errorf("NewGrant scopes = %v, want AllScopes", g.Scopes)
	}
}

// TestReconnectWiderScope: a reconnect changes only the tokens minted after
// it, so an application that keeps its cached installation token keeps
// the old scopes.
func TestReconnectWiderScope(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant(partnertest.WithScopes(partnertest.ScopeOrgRead))
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "p", SourceLanguage: "en"})
	old := installationToken(t, srv, g)
	oldAT := accessToken(t, srv, g)
	get := srv.URL + "/api/oauth-client/v1/projects/" + p.ID

	g2 := srv.Reconnect(g.ID, partnertest.WithScopes(partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead))
	if g2.RefreshToken == g.RefreshToken || !slices.Equal(g2.Scopes, []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}) {
		t.Fatalf("Reconnect = %+v", g2)
	}
	if r := send(t, srv, "GET", get, old, "", ""); r.status != 403 || r.errorCode() != "missing_scope" {
		t.Errorf("installation token minted before the reconnect: %d %s, want 403 missing_scope", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", old, "", ""); r.status != 200 {
		t.Errorf("it keeps its own scopes: %d %s", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", oldAT, "", ""); r.status != 200 {
		t.Errorf("access token from before the reconnect: %d %s", r.status, r.body)
	}
	if r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", "application/x-www-form-urlencoded", refreshForm(g.RefreshToken).Encode()); r.status != 400 || r.errorCode() != "invalid_grant" {
		t.Errorf("old refresh token: %d %s, want 400 invalid_grant", r.status, r.body)
	}
	if r := send(t, srv, "GET", get, installationToken(t, srv, g2), "", ""); r.status != 200 {
		t.Errorf("installation token minted after the reconnect: %d %s", r.status, r.body)
	}

	// After a revocation, tokens from before stay refused.
	srv.Revoke(g.ID)
	g3 := srv.Reconnect(g.ID)
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", old, "", ""); r.status != 401 || r.errorCode() != "invalid_token" {
		t.Errorf("token from before a revocation, after the reconnect: %d %s, want 401 invalid_token", r.status, r.body)
	}
	if r := send(t, srv, "GET", get, installationToken(t, srv, g3), "", ""); r.status != 200 {
		t.Errorf("after revoke and reconnect: %d %s", r.status, r.body)
	}
}

func TestMintUnknownGrant(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	at := accessToken(t, srv, g)
	for _, id := range []string{"grant_999", "nope"} {
		r := send(t, srv, "POST", srv.URL+"/api/oauth-client/installations/"+id+"/tokens", at, "", "")
		if r.status != 404 || r.errorCode() != "grant_not_found" {
			t.Errorf("mint for %s: %d %s, want 404 grant_not_found", id, r.status, r.body)
		}
	}
	if got := srv.Counts().Mints; got != 0 {
		t.Errorf("Mints = %d, want 0", got)
	}
}

func TestRateLimit(t *testing.T) {
	start := time.Date(2026, 1, 1, 9, 0, 20, 500_000_000, time.UTC) // 20.5 s into a minute
	srv := newServer(t, partnertest.WithRateLimit(3), partnertest.WithClock(func() time.Time { return start }))
	g := srv.NewGrant()
	a, b := srv.IssueInstallationToken(g.ID), srv.IssueInstallationToken(g.ID)
	orgs := srv.URL + "/api/oauth-client/organizations"
	for i := range 3 {
		if r := send(t, srv, "GET", orgs, a, "", ""); r.status != 200 {
			t.Fatalf("request %d: %d %s", i+1, r.status, r.body)
		}
	}
	r := send(t, srv, "GET", orgs, a, "", "")
	if r.status != 429 || r.errorCode() != "rate_limited" || r.header.Get("Retry-After") != "40" {
		t.Errorf("4th request: %d Retry-After=%q %s, want 429 rate_limited Retry-After 40", r.status, r.header.Get("Retry-After"), r.body)
	}
	// The cap is per installation token; access tokens are not counted.
	if r := send(t, srv, "GET", orgs, b, "", ""); r.status != 200 {
		t.Errorf("another token: %d %s", r.status, r.body)
	}
	for range 5 {
		if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", srv.IssueAccessToken(g.ID), "", ""); r.status != 200 {
			t.Errorf("access token: %d %s", r.status, r.body)
		}
	}
	srv.Advance(39 * time.Second) // 59.5 s: same window
	if r := send(t, srv, "GET", orgs, a, "", ""); r.status != 429 || r.header.Get("Retry-After") != "1" {
		t.Errorf("at 59.5 s: %d Retry-After=%q, want 429 1", r.status, r.header.Get("Retry-After"))
	}
	srv.Advance(time.Second) // 0.5 s into the next minute
	if r := send(t, srv, "GET", orgs, a, "", ""); r.status != 200 {
		t.Errorf("next window: %d %s", r.status, r.body)
	}

	// Off by default.
	free := newServer(t)
	tok := free.IssueInstallationToken(free.NewGrant().ID)
	for i := range 50 {
		if r := send(t, free, "GET", free.URL+"/api/oauth-client/organizations", tok, "", ""); r.status != 200 {
			t.Fatalf("request %d without a cap: %d", i, r.status)
		}
	}
}

func TestRevoke(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "p", SourceLanguage: "en"})
	at, it := accessToken(t, srv, g), installationToken(t, srv, g)
	srv.Revoke(g.ID)

	for _, e := range endpoints(p.ID, g.Organizations[0].ID) {
		if r := send(t, srv, e.method, srv.URL+e.path, it, "application/json", e.body); r.status != 410 || r.errorCode() != "grant_revoked" {
			t.Errorf("%s %s after revocation: %d %s, want 410 grant_revoked", e.method, e.path, r.status, r.body)
		}
	}
	if r := send(t, srv, "POST", srv.URL+"/api/oauth-client/installations/"+g.ID+"/tokens", at, "", ""); r.status != 410 || r.errorCode() != "grant_revoked" {
		t.Errorf("mint after revocation: %d %s, want 410 grant_revoked", r.status, r.body)
	}
	r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", "application/x-www-form-urlencoded", refreshForm(g.RefreshToken).Encode())
	if r.status != 400 || r.errorCode() != "invalid_grant" {
		t.Errorf("refresh after revocation: %d %s, want 400 invalid_grant", r.status, r.body)
	}
}

func TestRequestBodies(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	it := installationToken(t, srv, g)
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "taken", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	create := srv.URL + "/api/oauth-client/v1/projects"
	langs := srv.URL + "/api/oauth-client/v1/projects/" + p.ID + "/languages"
	tests := []struct {
		name, url, ctype, body string
		wantStatus             int
		wantError              string
	}{
		{"create as form", create, "application/x-www-form-urlencoded", "name=a&slug=b&sourceLanguage=en", 415, "unsupported_media_type"},
		{"create without content type", create, "", `{"name":"a","slug":"b","sourceLanguage":"en"}`, 415, "unsupported_media_type"},
		{"create with bad JSON", create, "application/json", `{"name":`, 400, "invalid_request"},
		{"create with wrong types", create, "application/json", `{"name":1,"slug":"b","sourceLanguage":"en"}`, 400, "invalid_request"},
		{"create without slug", create, "application/json", `{"name":"a","sourceLanguage":"en"}`, 400, "invalid_request"},
		{"create with empty name", create, "application/json", `{"name":"","slug":"b","sourceLanguage":"en"}`, 400, "invalid_request"},
		{"create with a taken slug", create, "application/json", `{"name":"a","slug":"taken","sourceLanguage":"en"}`, 409, "conflict"},
		{"create with trailing data", create, "application/json", `{"name":"a","slug":"b","sourceLanguage":"en"} x`, 400, "invalid_request"},
		{"create with a second object", create, "application/json", `{"name":"a","slug":"b","sourceLanguage":"en"}{}`, 400, "invalid_request"},
		{"language with trailing data", langs, "application/json", `{"code":"fr"}]`, 400, "invalid_request"},
		{"language as text", langs, "text/plain", `{"code":"fr"}`, 415, "unsupported_media_type"},
		{"language without code", langs, "application/json", `{}`, 400, "invalid_request"},
		{"language already there", langs, "application/json", `{"code":"de"}`, 409, "conflict"},
		{"language of unknown project", srv.URL + "/api/oauth-client/v1/projects/prj_999/languages", "application/json", `{"code":"fr"}`, 404, "not_found"},
	}
	for _, tt := range tests {
		r := send(t, srv, "POST", tt.url, it, tt.ctype, tt.body)
		if r.status != tt.wantStatus || r.errorCode() != tt.wantError {
			t.Errorf("%s: %d %s, want %d %s", tt.name, r.status, r.body, tt.wantStatus, tt.wantError)
		}
	}
	if n := len(srv.Projects(g.Organizations[0].ID)); n != 1 {
		t.Errorf("organization has %d projects, want 1", n)
	}

	// Slugs are unique per organization only.
	other := srv.NewGrant()
	r := send(t, srv, "POST", create, installationToken(t, srv, other), "application/json", `{"name":"a","slug":"taken","sourceLanguage":"en"}`)
	if r.status != 201 {
		t.Errorf("same slug in another organization: %d %s, want 201", r.status, r.body)
	}
}

func TestRouting(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	other := srv.NewGrant()
	foreign := srv.AddProject(other.Organizations[0].ID, partnertest.Project{Name: "F", Slug: "f", SourceLanguage: "en"})
	it := installationToken(t, srv, g)
	tests := []struct {
		method, url string
		wantStatus  int
		wantError   string
		wantAllow   string
	}{
		{"GET", srv.URL + "/api/oauth-client/nope", 404, "not_found", ""},
		{"GET", srv.URL + "/", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/me/", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/projects", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/v1/organizations", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/organizations//projects", 404, "not_found", ""},
		{"GET", srv.AuthURL + "/api/oauth-client/me", 404, "not_found", ""},
		{"POST", srv.URL + "/api/oauth-client/me", 405, "method_not_allowed", "GET"},
		{"DELETE", srv.URL + "/api/oauth-client/v1/projects/" + foreign.ID, 405, "method_not_allowed", "GET"},
		{"GET", srv.URL + "/api/oauth-client/v1/projects", 405, "method_not_allowed", "POST"},
		{"GET", srv.URL + "/api/oauth-client/installations/" + g.ID + "/tokens", 405, "method_not_allowed", "POST"},
		{"GET", srv.URL + "/api/oauth-client/v1/projects/" + foreign.ID, 403, "wrong_organization", ""},
		{"POST", srv.URL + "/api/oauth-client/v1/projects/" + foreign.ID + "/languages", 403, "wrong_organization", ""},
		{"GET", srv.URL + "/api/oauth-client/v1/projects/prj_999", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/organizations/" + other.Organizations[0].ID + "/projects", 403, "wrong_organization", ""},
		{"GET", srv.URL + "/api/oauth-client/organizations/org_999/projects", 404, "not_found", ""},
		{"GET", srv.URL + "/api/oauth-client/organizations/" + url.PathEscape(g.Organizations[0].ID) + "/projects", 200, "", ""},
	}
	for _, tt := range tests {
		ctype, body := "", ""
		if tt.method == "POST" {
			ctype, body = "application/json", `{"code":"fr"}`
		}
		r := send(t, srv, tt.method, tt.url, it, ctype, body)
		if r.status != tt.wantStatus || r.errorCode() != tt.wantError || r.header.Get("Allow") != tt.wantAllow {
			t.Errorf("%s %s: %d Allow=%q %s, want %d %s Allow=%q", tt.method, tt.url, r.status, r.header.Get("Allow"), r.body, tt.wantStatus, tt.wantError, tt.wantAllow)
		}
		if ct := r.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tt.method, tt.url, ct)
		}
	}
}

func TestGrantOptions(t *testing.T) {
	srv := newServer(t)
	a := srv.AddOrganization("acme", "Acme")
	b := srv.AddOrganization("", "")
	g := srv.NewGrant(partnertest.WithOrganizations(b, a), partnertest.WithScopes(partnertest.ScopeProjectsWrite))
	want := partnertest.Grant{
		ID:            "grant_1",
		User:          partnertest.User{ID: "usr_1", Email: "user1@example.com", Name: "User 1", Account: partnertest.Account{ID: "acc_1", Name: "Account 1"}},
		Organizations: []partnertest.Organization{{ID: "org_2", Slug: "org-2", Name: "Organization 2"}, {ID: "org_1", Slug: "acme", Name: "Acme"}},
		Scopes:        []string{partnertest.ScopeProjectsWrite},
	}
	if diff := cmp.Diff(want, g, cmpopts.IgnoreFields(partnertest.Grant{}, "RefreshToken")); diff != "" {
		t.Errorf("NewGrant (-want +got):\n%s", diff)
	}
	// Projects are created in the first organization granted.
	r := send(t, srv, "POST", srv.URL+"/api/oauth-client/v1/projects", installationToken(t, srv, g), "application/json",
		`{"name":"a","slug":"a","sourceLanguage":"en"}`)
	var p partnertest.Project
	if err := json.Unmarshal(r.body, &p); err != nil || p.OrganizationID != b.ID {
		t.Errorf("created %d %s, want it in %s", r.status, r.body, b.ID)
	}

	none := srv.NewGrant(partnertest.WithOrganizations())
	r = send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", installationToken(t, srv, none), "", "")
	if strings.TrimSpace(string(r.body)) != `{"organizations":[]}` {
		t.Errorf("organizations of a grant without any: %s", r.body)
	}
}

func TestHelpersPanicOnUnknownIDs(t *testing.T) {
	srv := newServer(t)
	for name, f := range map[string]func(){
		"Revoke":                 func() { srv.Revoke("grant_9") },
		"SetScopes":              func() { srv.SetScopes("grant_9") },
		"GrantCounts":            func() { srv.GrantCounts("grant_9") },
		"IssueAccessToken":       func() { srv.IssueAccessToken("grant_9") },
		"IssueInstallationToken": func() { srv.IssueInstallationToken("grant_9") },
		"AddProject":             func() { srv.AddProject("org_9", partnertest.Project{}) },
		"Projects":               func() { srv.Projects("org_9") },
		"NewGrant": func() {
			srv.NewGrant(partnertest.WithOrganizations(partnertest.Organization{ID: "org_9"}))
		},
		"Advance": func() { srv.Advance(-time.Second) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		}()
	}
}

func TestIssuedTokens(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	at, it := srv.IssueAccessToken(g.ID), srv.IssueInstallationToken(g.ID)
	if r := send(t, srv, "POST", srv.URL+"/api/oauth-client/installations/"+g.ID+"/tokens", at, "", ""); r.status != 201 {
		t.Errorf("mint with IssueAccessToken: %d %s", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", ""); r.status != 200 {
		t.Errorf("organizations with IssueInstallationToken: %d %s", r.status, r.body)
	}
	if diff := cmp.Diff(partnertest.Counts{Mints: 1}, srv.Counts()); diff != "" {
		t.Errorf("Counts (-want +got):\n%s", diff)
	}
}

func TestRequestLog(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t, partnertest.WithClock(func() time.Time { return now }), partnertest.WithRequestLogLimit(3))
	g := srv.NewGrant()
	it := installationToken(t, srv, g) // refresh, mint
	send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", "")
	send(t, srv, "GET", srv.URL+"/api/oauth-client/me", "nope", "", "")
	want := []partnertest.Request{
		{Host: partnertest.HostAPI, Method: "POST", Path: "/api/oauth-client/installations/grant_1/tokens", Token: partnertest.TokenAccess, GrantID: g.ID, Status: 201, Time: now},
		{Host: partnertest.HostAPI, Method: "GET", Path: "/api/oauth-client/organizations", Token: partnertest.TokenInstallation, GrantID: g.ID, Status: 200, Time: now},
		{Host: partnertest.HostAPI, Method: "GET", Path: "/api/oauth-client/me", Token: partnertest.TokenUnknown, Status: 401, Time: now},
	}
	if diff := cmp.Diff(want, srv.Requests()); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}

	srv2 := newServer(t, partnertest.WithRequestLogLimit(0))
	send(t, srv2, "GET", srv2.URL+"/", "", "", "")
	if got := srv2.Requests(); len(got) != 0 {
		t.Errorf("log with limit 0 has %d entries", len(got))
	}
}

func TestStringers(t *testing.T) {
	got := fmt.Sprint(partnertest.HostAny, partnertest.HostAPI, partnertest.HostAuth, partnertest.Host(7), " ",
		partnertest.TokenNone, partnertest.TokenUnknown, partnertest.TokenAccess, partnertest.TokenInstallation, partnertest.TokenKind(9))
	want := "any api auth Host(7) none unknown access installation TokenKind(9)"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestConcurrent runs many grants' flows at once; run with -race.
func TestConcurrent(t *testing.T) {
	srv := newServer(t)
	const grants, calls = 50, 20
	var wg sync.WaitGroup
	for i := range grants {
		g := srv.NewGrant()
		wg.Go(func() {
			it := installationToken(t, srv, g)
			for j := range calls {
				var r reply
				if j%2 == 0 {
					r = send(t, srv, "POST", srv.URL+"/api/oauth-client/v1/projects", it, "application/json",
						fmt.Sprintf(`{"name":"p","slug":"s%d-%d","sourceLanguage":"en"}`, i, j))
				} else {
					r = send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations/"+g.Organizations[0].ID+"/projects", it, "", "")
				}
				if r.status >= 300 {
					t.Errorf("call %d: %d %s", j, r.status, r.body)
				}
			}
		})
	}
	wg.Wait()
	if got, want := len(srv.Requests()), grants*(2+calls); got != want {
		t.Errorf("%d requests logged, want %d", got, want)
	}
	if diff := cmp.Diff(partnertest.Counts{Refreshes: grants, Mints: grants}, srv.Counts()); diff != "" {
		t.Errorf("Counts (-want +got):\n%s", diff)
	}
}

// In a synctest bubble with the in-memory network, time.Sleep moves the
// client's and the server's clocks together.
func TestSynctestClock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, partnertest.WithInMemoryNetwork())
		g := srv.NewGrant()
		at, it := accessToken(t, srv, g), installationToken(t, srv, g)
		me := srv.URL + "/api/oauth-client/me"

		time.Sleep(partnertest.AccessTokenLifetime - time.Nanosecond)
		if r := send(t, srv, "GET", me, at, "", ""); r.status != 200 {
			t.Fatalf("access token just before expiry: %d %s", r.status, r.body)
		}
		time.Sleep(time.Nanosecond)
		if r := send(t, srv, "GET", me, at, "", ""); r.errorCode() != "invalid_token" {
			t.Fatalf("access token at expiry: %d %s", r.status, r.body)
		}
		time.Sleep(partnertest.InstallationTokenLifetime - partnertest.AccessTokenLifetime)
		if r := send(t, srv, "GET", me, it, "", ""); r.errorCode() != "invalid_token" {
			t.Fatalf("installation token at expiry: %d %s", r.status, r.body)
		}
		if got, want := srv.Now(), time.Date(2000, 1, 1, 1, 0, 0, 0, time.Local); !got.Equal(want) {
			t.Errorf("Now() = %v, want %v", got, want)
		}
		// Advance adds to the bubble's clock.
		srv.Advance(time.Minute)
		if got, want := srv.Now(), time.Now().Add(time.Minute); !got.Equal(want) {
			t.Errorf("Now() after Advance = %v, want %v", got, want)
		}
	})
}

// TestInMemoryNetworkOtherClient: a client other than srv.Client() fails
// at once, on a host name that says what is wrong.
func TestInMemoryNetworkOtherClient(t *testing.T) {
	srv := newServer(t, partnertest.WithInMemoryNetwork())
	for _, u := range []string{srv.URL, srv.AuthURL} {
		if !strings.HasSuffix(u, ".in-memory.partnertest.invalid") || !strings.HasPrefix(u, "https://") {
			t.Errorf("URL %q, want https://*.in-memory.partnertest.invalid", u)
		}
		_, err := (&http.Client{Timeout: 30 * time.Second}).Get(u + "/api/oauth-client/me")
		var dnsErr *net.DNSError
		if !errors.As(err, &dnsErr) || !dnsErr.IsNotFound || !strings.Contains(err.Error(), "in-memory.partnertest.invalid") {
			t.Errorf("GET %s with another client: %v, want a DNS not-found error naming the host", u, err)
		}
	}
	// srv.Client() reaches both.
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", "", "", ""); r.status != 401 {
		t.Errorf("srv.Client() to URL: %d", r.status)
	}
	if r := send(t, srv, "GET", srv.AuthURL+partnertest.TokenPath, "", "", ""); r.status != 405 {
		t.Errorf("srv.Client() to AuthURL: %d", r.status)
	}
}

// TestNewServerInBubbleNeedsInMemoryNetwork: forgetting WithInMemoryNetwork
// in a synctest bubble fails at once rather than hanging.
func TestNewServerInBubbleNeedsInMemoryNetwork(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer func() {
			msg, _ := recover().(string)
			if !strings.Contains(msg, "WithInMemoryNetwork") {
				t.Errorf("panic %q, want one naming WithInMemoryNetwork", msg)
			}
		}()
		srv := partnertest.NewServer()
		srv.Close()
	})
}

func TestTokenLifetimes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithTokenLifetimes(5*time.Second, 8*time.Second))
		defer srv.Close()
		g := srv.NewGrant()
		resp, err := srv.Client().PostForm(srv.AuthURL+partnertest.TokenPath, url.Values{
			"grant_type": {"refresh_token"}, "refresh_token": {g.RefreshToken},
			"client_id": {srv.ClientID()}, "client_secret": {srv.ClientSecret()}})
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body struct {
			ExpiresIn int `json:"expires_in"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.ExpiresIn != 5 {
			t.Fatalf("expires_in = %d, %v; want 5", body.ExpiresIn, err)
		}
		it := srv.IssueInstallationToken(g.ID)
		get := func() int {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/api/oauth-client/organizations", nil)
			req.Header.Set("Authorization", "Bearer "+it)
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if code := get(); code != http.StatusOK {
			t.Fatalf("a fresh installation token: %d", code)
		}
		time.Sleep(8 * time.Second)
		if code := get(); code != http.StatusUnauthorized {
			t.Fatalf("an installation token past its 8 s: %d; want 401", code)
		}
	})
}

func TestWithListener(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := newServer(t, partnertest.WithListener(l))
	if want := "http://" + l.Addr().String(); srv.URL != want {
		t.Errorf("URL = %q, want the given listener's %q", srv.URL, want)
	}
	seen := map[string]bool{}
	for _, u := range []string{srv.URL, srv.AuthURL, srv.MCPURL, srv.ContentMCPURL, srv.CDNURL} {
		pu, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		if pu.Hostname() != "127.0.0.1" || seen[pu.Port()] {
			t.Errorf("%s: want its own port on the listener's host 127.0.0.1", u)
		}
		seen[pu.Port()] = true
	}
	g := srv.NewGrant()
	r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", accessToken(t, srv, g), "", "")
	if r.status != http.StatusOK {
		t.Errorf("me on the given listener: %d %s", r.status, r.body)
	}
}
