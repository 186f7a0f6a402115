package partnertest_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
)

const (
	callback = "https://app.example/callback"
	formType = "application/x-www-form-urlencoded"
	// verifier is a valid PKCE code verifier (RFC 7636 appendix B).
	verifier = "dBjftJeZ4CVP-mJ92ZqE3ipUnH9mMFHAnsP8pR8eq4k"
)

func challenge(v string) string {
	sum := sha256.Sum256([]byte(v))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// authorizeQuery is a valid authorize request's query: client, callback,
// scopes (with offline_access, for a refresh token), state and an S256
// challenge of verifier.
func authorizeQuery(edit func(url.Values)) url.Values {
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {partnertest.DefaultClientID},
		"redirect_uri":          {callback},
		"scope":                 {"org:read projects:read keys:read offline_access"},
		"state":                 {"st-1"},
		"code_challenge":        {challenge(verifier)},
		"code_challenge_method": {"S256"},
	}
	if edit != nil {
		edit(q)
	}
	return q
}

// authorizeResult is the authorize endpoint's answer, not followed.
type authorizeResult struct {
	reply
	location *url.URL // nil without a Location header
}

// param returns a query parameter of the redirect.
func (a authorizeResult) param(k string) string {
	if a.location == nil {
		return ""
	}
	return a.location.Query().Get(k)
}

// authorize sends GET to the authorize endpoint without following the
// redirect.
func authorize(t testing.TB, srv *partnertest.Server, q url.Values) authorizeResult {
	t.Helper()
	c := *srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(srv.AuthURL + partnertest.AuthorizePath + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	res := authorizeResult{reply: reply{resp.StatusCode, resp.Header, body}}
	if loc := resp.Header.Get("Location"); loc != "" {
		if res.location, err = url.Parse(loc); err != nil {
			t.Fatalf("Location %q: %v", loc, err)
		}
	}
	return res
}

// code runs the authorize endpoint and returns the code, failing unless
// it redirected with one.
func code(t testing.TB, srv *partnertest.Server, q url.Values) string {
	t.Helper()
	a := authorize(t, srv, q)
	if a.status != http.StatusFound || a.param("code") == "" {
		t.Fatalf("authorize: %d Location=%v %s", a.status, a.location, a.body)
	}
	return a.param("code")
}

// exchangeForm is the token endpoint's form for a code.
func exchangeForm(code string, edit func(url.Values)) string {
	v := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {callback},
		"client_id":     {partnertest.DefaultClientID},
		"client_secret": {partnertest.DefaultClientSecret},
		"code_verifier": {verifier},
	}
	if edit != nil {
		edit(v)
	}
	return v.Encode()
}

// exchanged is the code exchange's answer.
type exchanged struct {
	grantTokens
	Grants []grantTokens `json:"grants"`
}

type grantTokens struct {
	AccessToken    string `json:"access_token"`
	TokenType      string `json:"token_type"`
	ExpiresIn      int    `json:"expires_in"`
	RefreshToken   string `json:"refresh_token"`
	Scope          string `json:"scope"`
	GrantID        string `json:"grant_id"`
	OrganizationID string `json:"organization_id"`
}

func exchange(t testing.TB, srv *partnertest.Server, form string) exchanged {
	t.Helper()
	r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, form)
	if r.status != http.StatusOK {
		t.Fatalf("exchange: %d %s", r.status, r.body)
	}
	var out exchanged
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatalf("exchange: %s: %v", r.body, err)
	}
	return out
}

func TestAuthorizeRedirects(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback, callback+"?tenant=7"))
	a := authorize(t, srv, authorizeQuery(nil))
	if a.status != http.StatusFound || a.location == nil {
		t.Fatalf("authorize: %d %s, want 302", a.status, a.body)
	}
	at := *a.location
	at.RawQuery = ""
	if at.String() != callback || a.param("state") != "st-1" || !strings.HasPrefix(a.param("code"), "pt_code_") {
		t.Errorf("Location %s, want %s?code=pt_code_...&state=st-1", a.location, callback)
	}
	if got := a.header.Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control %q, want no-store", got)
	}

	// The redirect URI's own query is kept; a request without state gets
	// none back.
	a = authorize(t, srv, authorizeQuery(func(q url.Values) { q.Set("redirect_uri", callback+"?tenant=7"); q.Del("state") }))
	if a.param("tenant") != "7" || a.param("code") == "" || a.location.Query().Has("state") {
		t.Errorf("Location %s, want tenant=7, a code and no state", a.location)
	}
	// Codes differ.
	if c1, c2 := code(t, srv, authorizeQuery(nil)), code(t, srv, authorizeQuery(nil)); c1 == c2 {
		t.Errorf("two authorizations gave the same code")
	}
}

func TestAuthorizeRefusals(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	strict := newServer(t, partnertest.WithRedirectURLs(callback), partnertest.WithPKCERequired())
	tests := []struct {
		name string
		srv  *partnertest.Server
		edit func(url.Values)
		// Refused without a redirect: status and error of the JSON body.
		wantStatus int
		wantError  string
		// Refused with a redirect: the error parameter.
		wantRedirectError string
	}{
		{"no client_id", srv, func(q url.Values) { q.Del("client_id") }, 400, "invalid_request", ""},
		{"unknown client_id", srv, func(q url.Values) { q.Set("client_id", "other") }, 400, "invalid_client", ""},
		{"repeated client_id", srv, func(q url.Values) { q.Add("client_id", partnertest.DefaultClientID) }, 400, "invalid_request", ""},
		{"no redirect_uri", srv, func(q url.Values) { q.Del("redirect_uri") }, 400, "invalid_request", ""},
		{"unregistered redirect_uri", srv, func(q url.Values) { q.Set("redirect_uri", "https://evil.example/callback") }, 400, "invalid_request", ""},
		{"redirect_uri with a trailing slash", srv, func(q url.Values) { q.Set("redirect_uri", callback+"/") }, 400, "invalid_request", ""},
		{"redirect_uri in another case", srv, func(q url.Values) { q.Set("redirect_uri", strings.ToUpper(callback)) }, 400, "invalid_request", ""},
		{"no response_type", srv, func(q url.Values) { q.Del("response_type") }, 0, "", "invalid_request"},
		{"implicit flow", srv, func(q url.Values) { q.Set("response_type", "token") }, 0, "", "unsupported_response_type"},
		{"unknown scope", srv, func(q url.Values) { q.Set("scope", "org:read admin") }, 0, "", "invalid_scope"},
		{"comma-separated scopes", srv, func(q url.Values) { q.Set("scope", "org:read,keys:read") }, 0, "", "invalid_scope"},
		{"plain PKCE", srv, func(q url.Values) { q.Set("code_challenge_method", "plain"); q.Set("code_challenge", verifier) }, 0, "", "invalid_request"},
		{"challenge without a method (plain)", srv, func(q url.Values) { q.Del("code_challenge_method") }, 0, "", "invalid_request"},
		{"method without a challenge", srv, func(q url.Values) { q.Del("code_challenge") }, 0, "", "invalid_request"},
		{"challenge not base64url", srv, func(q url.Values) { q.Set("code_challenge", strings.Repeat("+", 43)) }, 0, "", "invalid_request"},
		{"challenge of the wrong length", srv, func(q url.Values) { q.Set("code_challenge", challenge(verifier)[:40]) }, 0, "", "invalid_request"},
		{"padded challenge", srv, func(q url.Values) { q.Set("code_challenge", challenge(verifier)+"=") }, 0, "", "invalid_request"},
		{"repeated state", srv, func(q url.Values) { q.Add("state", "st-2") }, 0, "", "invalid_request"},
		{"no PKCE where required", strict, func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }, 0, "", "invalid_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := authorize(t, tt.srv, authorizeQuery(tt.edit))
			if tt.wantRedirectError == "" {
				if a.status != tt.wantStatus || a.errorCode() != tt.wantError || a.location != nil {
					t.Errorf("got %d Location=%v %s, want %d %s and no redirect", a.status, a.location, a.body, tt.wantStatus, tt.wantError)
				}
				return
			}
			if a.status != http.StatusFound || a.param("error") != tt.wantRedirectError || a.param("code") != "" {
				t.Fatalf("got %d Location=%v %s, want a redirect with error=%s", a.status, a.location, a.body, tt.wantRedirectError)
			}
			if a.param("error_description") == "" {
				t.Errorf("Location %s has no error_description", a.location)
			}
			if want := authorizeQuery(tt.edit).Get("state"); a.param("state") != want {
				t.Errorf("state %q, want %q echoed", a.param("state"), want)
			}
		})
	}

	// Without a registered redirect URI nothing is accepted.
	bare := newServer(t)
	if a := authorize(t, bare, authorizeQuery(nil)); a.status != 400 || !strings.Contains(string(a.body), "WithRedirectURLs") {
		t.Errorf("no registered redirect URI: %d %s, want 400 naming WithRedirectURLs", a.status, a.body)
	}
	// POST is refused.
	r := send(t, srv, "POST", srv.AuthURL+partnertest.AuthorizePath, "", formType, authorizeQuery(nil).Encode())
	if r.status != 405 || r.header.Get("Allow") != "GET" {
		t.Errorf("POST: %d Allow=%q, want 405 GET", r.status, r.header.Get("Allow"))
	}
	// And the user can deny.
	srv.SetConsent(partnertest.Consent{Deny: true})
	if a := authorize(t, srv, authorizeQuery(nil)); a.param("error") != "access_denied" || a.param("state") != "st-1" {
		t.Errorf("denied: Location %v, want error=access_denied&state=st-1", a.location)
	}
}

func TestExchange(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	for _, pkce := range []bool{true, false} {
		q := authorizeQuery(nil)
		edit := func(url.Values) {}
		if !pkce {
			q.Del("code_challenge")
			q.Del("code_challenge_method")
			edit = func(v url.Values) { v.Del("code_verifier") }
		}
		r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(code(t, srv, q), edit))
		if r.status != 200 || r.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("PKCE %v: %d Cache-Control=%q %s", pkce, r.status, r.header.Get("Cache-Control"), r.body)
		}
		// One organization: the documented shape, plus scope.
		var body map[string]any
		json.Unmarshal(r.body, &body)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range body {
				if !yield(k) {
					return
				}
			}
		})
		if want := []string{"access_token", "expires_in", "grant_id", "refresh_token", "scope", "token_type"}; !slices.Equal(keys, want) {
			t.Errorf("PKCE %v: answer fields %v, want %v", pkce, keys, want)
		}
		var tok exchanged
		json.Unmarshal(r.body, &tok)
		if tok.TokenType != "Bearer" || tok.ExpiresIn != 1800 || tok.Scope != "org:read projects:read keys:read" ||
			!strings.HasPrefix(tok.RefreshToken, "pt_rt_") || !strings.HasPrefix(tok.GrantID, "grant_") {
			t.Errorf("PKCE %v: answer %s", pkce, r.body)
		}

		// The grant is a normal grant: its access token mints, its
		// installation token calls the API and the MCP tools, its refresh
		// token refreshes.
		g, ok := srv.Grant(tok.GrantID)
		if !ok || g.RefreshToken != tok.RefreshToken || len(g.Organizations) != 1 || g.Revoked {
			t.Fatalf("Grant(%s) = %+v, %v", tok.GrantID, g, ok)
		}
		mint := send(t, srv, "POST", srv.URL+"/api/oauth-client/installations/"+tok.GrantID+"/tokens", tok.AccessToken, "", "")
		var minted struct {
			Token  string   `json:"installation_token"`
			Org    string   `json:"organization_id"`
			Scopes []string `json:"scopes"`
		}
		json.Unmarshal(mint.body, &minted)
		if mint.status != 201 || minted.Org != g.Organizations[0].ID || !slices.Equal(minted.Scopes, []string{"org:read", "projects:read", "keys:read"}) {
			t.Errorf("mint: %d %s", mint.status, mint.body)
		}
		if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", minted.Token, "", ""); r.status != 200 {
			t.Errorf("organizations: %d %s", r.status, r.body)
		}
		if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/v1/projects/prj_1", minted.Token, "", ""); r.errorCode() != "not_found" {
			t.Errorf("a project: %d %s, want not_found (and not missing_scope)", r.status, r.body)
		}
		if r := mcpPost(t, srv, "POST", minted.Token, both, "application/json", listCall); r.status != 200 {
			t.Errorf("MCP: %d %s", r.status, r.body)
		}
		if at := accessToken(t, srv, g); at == "" {
			t.Error("no access token from the refresh token")
		}
	}
	if c := srv.Counts(); c.Exchanges != 2 || c.Refreshes != 2 || c.Mints != 2 {
		t.Errorf("Counts = %+v, want 2 exchanges, 2 refreshes, 2 mints", c)
	}
}

// TestExchangeRefusals: each refusal answers as the service's token server
// does (a PKCE mismatch is invalid_request, a redirect_uri mismatch
// invalid_client "invalid redirect_uri"), and a refusal of a code that
// could still be exchanged spends it, as that server deletes the code
// before it checks the rest.
func TestExchangeRefusals(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback, callback+"/"))
	noPKCE := func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }
	tests := []struct {
		name       string
		authorize  func(url.Values)
		edit       func(url.Values)
		wantStatus int
		wantError  string
		wantMsg    string
		spends     bool // the code cannot be exchanged afterwards
	}{
		{"unknown code", nil, func(v url.Values) { v.Set("code", "pt_code_guess") }, 400, "invalid_grant", "unknown", false},
		{"no code", nil, func(v url.Values) { v.Del("code") }, 400, "invalid_request", "missing code", false},
		{"no redirect_uri", nil, func(v url.Values) { v.Del("redirect_uri") }, 400, "invalid_request", "redirect_uri", true},
		{"another registered redirect_uri", nil, func(v url.Values) { v.Set("redirect_uri", callback+"/") }, 401, "invalid_client", "invalid redirect_uri", true},
		{"wrong verifier", nil, func(v url.Values) { v.Set("code_verifier", strings.Repeat("a", 43)) }, 401, "invalid_request", "code verification failed", true},
		{"the challenge as verifier", nil, func(v url.Values) { v.Set("code_verifier", challenge(verifier)) }, 401, "invalid_request", "code verification failed", true},
		{"short verifier", nil, func(v url.Values) { v.Set("code_verifier", "abc") }, 401, "invalid_request", "code verification failed", true},
		{"no verifier", nil, func(v url.Values) { v.Del("code_verifier") }, 400, "invalid_request", "code verifier is missing", true},
		{"verifier without a challenge", noPKCE, nil, 401, "invalid_request", "code verification failed", true},
		{"no secret", nil, func(v url.Values) { v.Del("client_secret") }, 401, "invalid_client", "client_secret", true},
		{"wrong secret", nil, func(v url.Values) { v.Set("client_secret", "nope") }, 401, "invalid_client", "wrong secret", true},
		{"repeated code", nil, func(v url.Values) { v.Add("code", "x") }, 400, "invalid_request", "repeated", false},
		{"repeated verifier", nil, func(v url.Values) { v.Add("code_verifier", verifier) }, 400, "invalid_request", "repeated", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := code(t, srv, authorizeQuery(tt.authorize))
			r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, tt.edit))
			if r.status != tt.wantStatus || r.errorCode() != tt.wantError || !strings.Contains(string(r.body), tt.wantMsg) {
				t.Fatalf("got %d %s, want %d %s (%q)", r.status, r.body, tt.wantStatus, tt.wantError, tt.wantMsg)
			}
			edit := func(url.Values) {}
			if tt.authorize != nil {
				edit = func(v url.Values) { v.Del("code_verifier") }
			}
			if !tt.spends {
				exchange(t, srv, exchangeForm(c, edit)) // the code is still good
				return
			}
			again := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, edit))
			if again.status != 400 || again.errorCode() != "invalid_grant" || !strings.Contains(string(again.body), "spent") {
				t.Errorf("the code after the refusal: %d %s, want 400 invalid_grant (spent)", again.status, again.body)
			}
		})
	}
	if c := srv.Counts(); c.ReuseRevocations != 0 || c.ReusedCodes != 0 {
		t.Errorf("Counts = %+v, want no reuse", c)
	}
}

// TestExchangeOfflineAccess: the exchange issues a refresh token only when
// the authorize request asked for offline_access, as the service's token
// server does; the OpenID Connect scopes are accepted and grant no
// permission.
func TestExchangeOfflineAccess(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	for _, tc := range []struct {
		scope, wantScope string
		refresh          bool
	}{
		{"org:read keys:read", "org:read keys:read", false},
		{"org:read keys:read offline_access", "org:read keys:read", true},
		{"openid profile email offline_access org:read", "org:read", true},
		{"openid profile email", strings.Join(partnertest.DefaultScopes(), " "), false},
		{partnertest.ScopeOfflineAccess, strings.Join(partnertest.DefaultScopes(), " "), true},
	} {
		c := code(t, srv, authorizeQuery(func(q url.Values) { q.Set("scope", tc.scope) }))
		r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
		var body map[string]any
		if err := json.Unmarshal(r.body, &body); err != nil || r.status != 200 {
			t.Fatalf("scope %q: %d %s", tc.scope, r.status, r.body)
		}
		if _, has := body["refresh_token"]; has != tc.refresh || body["scope"] != tc.wantScope {
			t.Errorf("scope %q: answer %s, want a refresh token %v and scope %q", tc.scope, r.body, tc.refresh, tc.wantScope)
		}
		if g, _ := srv.Grant(body["grant_id"].(string)); strings.Join(g.Scopes, " ") != tc.wantScope {
			t.Errorf("scope %q: the grant has %v, want %q", tc.scope, g.Scopes, tc.wantScope)
		}
	}
}

// TestWithAuthPaths: the authorize and token endpoints move to the paths
// given, and the old ones answer 404.
func TestWithAuthPaths(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback), partnertest.WithAuthPaths("/oauth2/authorize", "/oauth2/token"))
	c := *srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(srv.AuthURL + "/oauth2/authorize?" + authorizeQuery(nil).Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, _ := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || loc == nil || loc.Query().Get("code") == "" {
		t.Fatalf("authorize at the new path: %d Location=%v", resp.StatusCode, loc)
	}
	if r := send(t, srv, "POST", srv.AuthURL+"/oauth2/token", "", formType, exchangeForm(loc.Query().Get("code"), nil)); r.status != 200 {
		t.Errorf("exchange at the new path: %d %s", r.status, r.body)
	}
	if r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, refreshForm("x").Encode()); r.status != 404 {
		t.Errorf("the old token path: %d %s, want 404", r.status, r.body)
	}
	if a := authorize(t, srv, authorizeQuery(nil)); a.status != 404 {
		t.Errorf("the old authorize path: %d, want 404", a.status)
	}
}

func TestExchangeExpiredCode(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	c := code(t, srv, authorizeQuery(nil))
	srv.Advance(partnertest.AuthorizationCodeLifetime - time.Second)
	fresh := code(t, srv, authorizeQuery(nil))
	srv.Advance(time.Second)
	r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
	if r.status != 400 || r.errorCode() != "invalid_grant" || !strings.Contains(string(r.body), "expired") {
		t.Errorf("expired code: %d %s, want 400 invalid_grant", r.status, r.body)
	}
	exchange(t, srv, exchangeForm(fresh, nil))
}

func TestExchangeReusedCode(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	c := code(t, srv, authorizeQuery(nil))
	tok := exchange(t, srv, exchangeForm(c, nil))
	g, _ := srv.Grant(tok.GrantID)
	it := installationToken(t, srv, g)

	r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
	if r.status != 400 || r.errorCode() != "invalid_grant" {
		t.Fatalf("reused code: %d %s, want 400 invalid_grant", r.status, r.body)
	}
	// The grant the code issued is revoked, as RFC 6749 section 4.1.2
	// advises.
	if g, _ := srv.Grant(tok.GrantID); !g.Revoked {
		t.Error("the grant survived the reused code")
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", ""); r.status != 410 || r.errorCode() != "grant_revoked" {
		t.Errorf("installation token after the reuse: %d %s, want 410 grant_revoked", r.status, r.body)
	}
	if r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, refreshForm(tok.RefreshToken).Encode()); r.errorCode() != "invalid_grant" {
		t.Errorf("refresh after the reuse: %d %s, want invalid_grant", r.status, r.body)
	}
	want := partnertest.Counts{Exchanges: 1, Refreshes: 1, Mints: 1, ReusedCodes: 1, ReuseRevocations: 1}
	if diff := cmp.Diff(want, srv.GrantCounts(tok.GrantID)); diff != "" {
		t.Errorf("GrantCounts (-want +got):\n%s", diff)
	}
	// A third try counts, but revokes nothing more.
	send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
	if c := srv.Counts(); c.ReusedCodes != 2 || c.ReuseRevocations != 1 {
		t.Errorf("Counts = %+v, want 2 reused codes, 1 revocation", c)
	}
}

func TestConsentOrganizations(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	a, b := srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")
	srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{a, b}})
	tok := exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(nil)), nil))
	if len(tok.Grants) != 2 {
		t.Fatalf("grants: %+v, want 2", tok.Grants)
	}
	// The first grant's tokens at the top, without organization_id.
	if tok.GrantID != tok.Grants[0].GrantID || tok.RefreshToken != tok.Grants[0].RefreshToken ||
		tok.AccessToken != tok.Grants[0].AccessToken || tok.OrganizationID != "" {
		t.Errorf("top level %+v, want the first grant's tokens", tok.grantTokens)
	}
	for i, o := range []partnertest.Organization{a, b} {
		gt := tok.Grants[i]
		g, ok := srv.Grant(gt.GrantID)
		if !ok || gt.OrganizationID != o.ID || !slices.Equal(g.Organizations, []partnertest.Organization{o}) || g.RefreshToken != gt.RefreshToken {
			t.Errorf("grant %d: %+v, server has %+v", i, gt, g)
		}
		if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations/"+o.ID+"/projects", installationToken(t, srv, g), "", ""); r.status != 200 {
			t.Errorf("grant %d on its organization: %d %s", i, r.status, r.body)
		}
	}
	if tok.Grants[0].RefreshToken == tok.Grants[1].RefreshToken || tok.Grants[0].GrantID == tok.Grants[1].GrantID {
		t.Error("the two grants share a refresh token or an id")
	}
	if c := srv.Counts(); c.Exchanges != 2 {
		t.Errorf("Exchanges = %d, want 2", c.Exchanges)
	}
}

func TestConsentAgainUpdatesGrant(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	first := exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(nil)), nil))
	at := first.AccessToken
	wider := authorizeQuery(func(q url.Values) { q.Set("scope", "org:read projects:read projects:write offline_access") })
	again := exchange(t, srv, exchangeForm(code(t, srv, wider), nil))
	if again.GrantID != first.GrantID || again.RefreshToken == first.RefreshToken || again.Scope != "org:read projects:read projects:write" {
		t.Errorf("second consent: %+v, want grant %s updated with a new refresh token and the new scopes", again.grantTokens, first.GrantID)
	}
	if r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, refreshForm(first.RefreshToken).Encode()); r.errorCode() != "invalid_grant" {
		t.Errorf("the old refresh token: %d %s, want invalid_grant", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/me", at, "", ""); r.status != 200 {
		t.Errorf("the old access token: %d %s, want 200 until it expires", r.status, r.body)
	}
	// Another user's consent to the same organization is another grant.
	g, _ := srv.Grant(first.GrantID)
	srv.SetConsent(partnertest.Consent{User: partnertest.User{ID: "usr_other"}, Organizations: g.Organizations})
	other := exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(nil)), nil))
	if other.GrantID == first.GrantID {
		t.Error("another user's consent updated the first user's grant")
	}
	// After a revocation, only a new grant reconnects.
	srv.Revoke(first.GrantID)
	srv.SetConsent(partnertest.Consent{})
	if again := exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(nil)), nil)); again.GrantID == first.GrantID {
		t.Error("a consent after the revocation revived the revoked grant")
	}
}

func TestConsentScopes(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	tests := []struct {
		name    string
		consent partnertest.Consent
		scope   string
		want    string
	}{
		{"as requested", partnertest.Consent{}, "keys:read  org:read keys:read", "keys:read org:read"},
		{"none requested: the defaults", partnertest.Consent{}, "", strings.Join(partnertest.DefaultScopes(), " ")},
		{"the user narrowed them", partnertest.Consent{Scopes: []string{"org:read"}}, "org:read keys:read", "org:read"},
		{"the user turned everything off", partnertest.Consent{Scopes: []string{}}, "org:read", ""},
	}
	for _, tt := range tests {
		srv.SetConsent(tt.consent)
		tok := exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(func(q url.Values) { q.Set("scope", tt.scope) })), nil))
		g, _ := srv.Grant(tok.GrantID)
		if tok.Scope != tt.want || strings.Join(g.Scopes, " ") != tt.want {
			t.Errorf("%s: scope %q, grant %v, want %q", tt.name, tok.Scope, g.Scopes, tt.want)
		}
	}
}

func TestConsentPanics(t *testing.T) {
	srv := newServer(t)
	for name, f := range map[string]func(){
		"unknown organization": func() {
			srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{{ID: "org_999"}}})
		},
		"no organization":     func() { srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{}}) },
		"unknown scope":       func() { srv.SetConsent(partnertest.Consent{Scopes: []string{"admin"}}) },
		"relative URL":        func() { srv.AddRedirectURL("/callback") },
		"URL with a fragment": func() { srv.AddRedirectURL(callback + "#x") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
	if _, ok := srv.Grant("grant_999"); ok {
		t.Error("Grant of an unknown id reported one")
	}
}

// A client following redirects drives the whole flow: the authorize
// endpoint sends it to the application's callback, which exchanges the
// code. On loopback and on the in-memory network, in a synctest bubble.
func TestAuthorizeFollowingRedirects(t *testing.T) {
	run := func(t *testing.T, opts ...partnertest.Option) {
		srv := newServer(t, opts...)
		got := make(chan reply, 1)
		var redirect string
		app := srv.StartApp(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("state") != "st-1" {
				http.Error(w, "bad state", http.StatusBadRequest)
				return
			}
			form := exchangeForm(r.URL.Query().Get("code"), func(v url.Values) { v.Set("redirect_uri", redirect) })
			resp, err := srv.Client().Post(srv.AuthURL+partnertest.TokenPath, formType, strings.NewReader(form))
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			got <- reply{status: resp.StatusCode, body: body}
			w.Write([]byte("connected"))
		}))
		redirect = app + "/callback"
		srv.AddRedirectURL(redirect)
		resp, err := srv.Client().Get(srv.AuthURL + partnertest.AuthorizePath + "?" +
			authorizeQuery(func(q url.Values) { q.Set("redirect_uri", redirect) }).Encode())
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "connected" || resp.Request.URL.String() == "" || resp.Request.URL.Path != "/callback" {
			t.Fatalf("followed to %v: %d %s", resp.Request.URL, resp.StatusCode, body)
		}
		if r := <-got; r.status != 200 || !strings.Contains(string(r.body), `"grant_id":"grant_1"`) {
			t.Errorf("exchange at the callback: %d %s", r.status, r.body)
		}
	}
	t.Run("loopback", func(t *testing.T) { run(t) })
	t.Run("in memory", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) { run(t, partnertest.WithInMemoryNetwork()) })
	})
}

// Code expiry on the bubble's clock.
func TestExchangeInSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, partnertest.WithInMemoryNetwork(), partnertest.WithRedirectURLs(callback))
		c := code(t, srv, authorizeQuery(nil))
		time.Sleep(partnertest.AuthorizationCodeLifetime)
		if r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil)); r.errorCode() != "invalid_grant" {
			t.Errorf("after %v: %d %s, want invalid_grant", partnertest.AuthorizationCodeLifetime, r.status, r.body)
		}
		exchange(t, srv, exchangeForm(code(t, srv, authorizeQuery(nil)), nil))
	})
}

func TestConnectFaultsAndLog(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t, partnertest.WithRedirectURLs(callback), partnertest.WithClock(func() time.Time { return now }))
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.AuthorizePath, Status: 503})
	if a := authorize(t, srv, authorizeQuery(nil)); a.status != 503 || a.location != nil {
		t.Errorf("injected 503: %d Location=%v", a.status, a.location)
	}
	c := code(t, srv, authorizeQuery(nil))
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Truncate: true})
	// The answer is cut short, but the exchange took effect.
	if resp, err := srv.Client().Post(srv.AuthURL+partnertest.TokenPath, formType, strings.NewReader(exchangeForm(c, nil))); err == nil {
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil {
			t.Error("a truncated answer was read in full")
		}
	}
	tok := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
	if tok.errorCode() != "invalid_grant" {
		t.Errorf("the code after a truncated exchange: %d %s, want invalid_grant (used)", tok.status, tok.body)
	}
	log := srv.Requests()
	want := []partnertest.Request{
		{Host: partnertest.HostAuth, Method: "GET", Path: partnertest.AuthorizePath, Status: 503, Fault: true, Time: now},
		{Host: partnertest.HostAuth, Method: "GET", Path: partnertest.AuthorizePath, Status: 302, Time: now},
		{Host: partnertest.HostAuth, Method: "POST", Path: partnertest.TokenPath, GrantID: "grant_1", Status: 200, Fault: true, Time: now},
		{Host: partnertest.HostAuth, Method: "POST", Path: partnertest.TokenPath, GrantID: "grant_1", Status: 400, Time: now},
	}
	if diff := cmp.Diff(want, log); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}
}

// Two exchanges of one code at once: one wins, the other is the reuse.
func TestExchangeRace(t *testing.T) {
	srv := newServer(t, partnertest.WithRedirectURLs(callback))
	c := code(t, srv, authorizeQuery(nil))
	var wg sync.WaitGroup
	replies := make([]reply, 2)
	for i := range replies {
		wg.Go(func() {
			replies[i] = send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, exchangeForm(c, nil))
		})
	}
	wg.Wait()
	if replies[0].status+replies[1].status != 200+400 {
		t.Fatalf("statuses %d and %d, want one 200 and one 400", replies[0].status, replies[1].status)
	}
	if c := srv.Counts(); c.Exchanges != 1 || c.ReusedCodes != 1 || c.ReuseRevocations != 1 {
		t.Errorf("Counts = %+v", c)
	}
}

// Whatever the query, the authorize endpoint answers 400 or redirects,
// and it redirects only to the registered URI.
func FuzzAuthorize(f *testing.F) {
	f.Add(authorizeQuery(nil).Encode())
	f.Add(authorizeQuery(func(q url.Values) { q.Set("redirect_uri", "https://evil.example/") }).Encode())
	f.Add(authorizeQuery(func(q url.Values) { q.Set("scope", "org:read%zz") }).Encode())
	f.Add("client_id=test-client&redirect_uri=https%3A%2F%2Fapp.example%2Fcallback&response_type=code&state=%00")
	f.Add("%")
	srv := newServer(f, partnertest.WithRedirectURLs(callback))
	c := *srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	f.Fuzz(func(t *testing.T, query string) {
		req, err := http.NewRequest("GET", srv.AuthURL+partnertest.AuthorizePath, nil)
		if err != nil {
			t.Skip()
		}
		req.URL.RawQuery = query
		resp, err := c.Do(req)
		if err != nil {
			t.Skip() // a query net/http will not send
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusBadRequest:
		case http.StatusFound:
			loc, err := url.Parse(resp.Header.Get("Location"))
			if err != nil {
				t.Fatalf("Location %q: %v", resp.Header.Get("Location"), err)
			}
			loc.RawQuery = ""
			if loc.String() != callback {
				t.Fatalf("redirected to %s", resp.Header.Get("Location"))
			}
		default:
			t.Fatalf("query %q: %d", query, resp.StatusCode)
		}
	})
}
