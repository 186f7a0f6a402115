package partner_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// callbackURL is the application's redirect URI in connect tests,
// registered with the fake.
const callbackURL = "https://app.example.test/callback"

// connecting makes newRig's rig a Pool of no grant that connects users
// to the server (callbackURL registered with it) with scopes, and stores
// their tokens in store; opts go to the server.
func connecting(store auth.Store, scopes []string, opts ...partnertest.Option) rigOption {
	return func(s *rigSetup) {
		withServer(append([]partnertest.Option{partnertest.WithRedirectURLs(callbackURL)}, opts...)...)(s)
		withPool(0, 0)(s)
		withPoolConfig(func(cfg *partner.PoolConfig) { cfg.Store, cfg.Scopes, cfg.RedirectURL = store, scopes, callbackURL })(s)
	}
}

// connectConfig is the configuration of a Pool for srv with callbackURL.
func connectConfig(srv *partnertest.Server, store auth.Store) partner.PoolConfig {
	cfg := poolConfig(srv, store)
	cfg.RedirectURL = callbackURL
	return cfg
}

// browse is the user's browser at an authorize URL: it returns the query
// of the fake's redirect back to the application.
func browse(t *testing.T, srv *partnertest.Server, authorizeURL string) url.Values {
	t.Helper()
	c := *srv.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Get(authorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: %s, want a redirect", resp.Status)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		t.Fatal(err)
	}
	return loc.Query()
}

// authorize sends the user through the consent and returns the code the
// callback receives.
func authorize(t *testing.T, srv *partnertest.Server, authorizeURL string) string {
	t.Helper()
	back := browse(t, srv, authorizeURL)
	if back.Get("error") != "" || back.Get("code") == "" {
		t.Fatalf("authorize: redirected back with %v, want a code", back)
	}
	return back.Get("code")
}

// connect is the whole flow with S256 PKCE: it returns Exchange's answer.
func connect(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, error) {
	t.Helper()
	verifier := oauth2.GenerateVerifier()
	code := authorize(t, srv, pool.AuthCodeURL("state-1", oauth2.S256ChallengeOption(verifier)))
	return pool.Exchange(t.Context(), code, oauth2.VerifierOption(verifier))
}

// checkGrant checks g against the fake's grant and the Store, and that
// the pool's client of g works: it lists exactly g's organization.
func checkGrant(t *testing.T, srv *partnertest.Server, pool *partner.Pool, store auth.Store, g partner.Grant) {
	t.Helper()
	sg, ok := srv.Grant(g.GrantID)
	if !ok {
		t.Fatalf("the service has no grant %q", g.GrantID)
	}
	if g.Token == nil || g.Token.AccessToken == "" || g.Token.RefreshToken != sg.RefreshToken || !g.Token.Expiry.After(time.Now()) {
		t.Errorf("grant %s: Token is not the service's current one with a live access token", g.GrantID)
	}
	if !slices.Equal(g.Scopes, sg.Scopes) {
		t.Errorf("grant %s: Scopes = %q, want %q", g.GrantID, g.Scopes, sg.Scopes)
	}
	if st, err := store.Load(t.Context(), g.GrantID); err != nil || st.RefreshToken != sg.RefreshToken {
		t.Errorf("grant %s: the Store does not hold its refresh token (err %v)", g.GrantID, err)
	}
	c, err := pool.Client(t.Context(), g.GrantID)
	if err != nil {
		t.Fatal(err)
	}
	orgs, err := c.Organizations.List(t.Context())
	if err != nil {
		t.Fatalf("grant %s: Organizations.List: %v", g.GrantID, err)
	}
	if len(orgs) != 1 || orgs[0].ID != sg.Organizations[0].ID {
		t.Errorf("grant %s lists %+v, want its organization %s", g.GrantID, orgs, sg.Organizations[0].ID)
	}
}

func TestPoolAuthCodeURL(t *testing.T) {
	r := newRig(t, connecting(auth.NewMemoryStore(), []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}))
	srv, pool := r.srv, r.pool
	verifier := oauth2.GenerateVerifier()
	raw := pool.AuthCodeURL("state-xyz", oauth2.S256ChallengeOption(verifier))
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := u.Scheme+"://"+u.Host+u.Path, srv.AuthURL+partnertest.AuthorizePath; got != want {
		t.Errorf("authorize URL %s, want %s", got, want)
	}
	sum := sha256.Sum256([]byte(verifier))
	want := url.Values{
		"client_id":             {srv.ClientID()},
		"redirect_uri":          {callbackURL},
		"response_type":         {"code"},
		"scope":                 {"org:read projects:read offline_access"},
		"state":                 {"state-xyz"},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
	}
	if diff := cmp.Diff(want, u.Query()); diff != "" {
		t.Errorf("query (-want +got):\n%s", diff)
	}
	// The fake's authorize endpoint takes it and sends the state back.
	back := browse(t, srv, raw)
	if back.Get("error") != "" || back.Get("code") == "" || back.Get("state") != "state-xyz" {
		t.Errorf("redirected back with %v, want a code and the state", back)
	}

	t.Run("no scopes", func(t *testing.T) {
		pool := newRig(t, connecting(auth.NewMemoryStore(), nil)).pool
		u, err := url.Parse(pool.AuthCodeURL("s"))
		if err != nil {
			t.Fatal(err)
		}
		if q := u.Query(); q.Get("scope") != partner.ScopeOfflineAccess || q.Has("code_challenge") {
			t.Errorf("query %v: want offline_access alone (the service's default permissions) and no challenge not asked for", q)
		}
	})
	t.Run("offline_access named already", func(t *testing.T) {
		pool := newRig(t, connecting(auth.NewMemoryStore(), []string{partner.ScopeOfflineAccess, partner.ScopeKeysRead})).pool
		u, err := url.Parse(pool.AuthCodeURL("s"))
		if err != nil {
			t.Fatal(err)
		}
		if got := u.Query().Get("scope"); got != "offline_access keys:read" {
			t.Errorf("scope %q, want offline_access once", got)
		}
	})
}

// TestPoolExchangeOfflineAccess: the service issues a refresh token only
// for offline_access, which the Pool always asks for; Grant.Scopes lists
// the permissions without it. Against a server that had issued none, the
// grant could not have been kept.
func TestPoolExchangeOfflineAccess(t *testing.T) {
	store := auth.NewMemoryStore()
	r := newRig(t, connecting(store, []string{partnertest.ScopeOrgRead}))
	srv, pool := r.srv, r.pool
	grants, err := connect(t, srv, pool)
	if err != nil {
		t.Fatal(err)
	}
	if g := grants[0]; g.Token.RefreshToken == "" || !slices.Equal(g.Scopes, []string{partnertest.ScopeOrgRead}) {
		t.Errorf("grant %v: want a refresh token and Scopes [org:read]", g)
	}
	checkGrant(t, srv, pool, store, grants[0])

	// The answer's scope may name offline_access too; it is not a permission.
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Status: 200,
		Body: `{"access_token":"at_1","token_type":"Bearer","refresh_token":"rt_1","grant_id":"grt_1","scope":"org:read offline_access keys:read"}`})
	grants, err = pool.Exchange(t.Context(), "pt_code_1")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"org:read", "keys:read"}; !slices.Equal(grants[0].Scopes, want) {
		t.Errorf("Scopes = %q, want %q", grants[0].Scopes, want)
	}
}

func TestPoolExchange(t *testing.T) {
	t.Run("PKCE", func(t *testing.T) {
		store := auth.NewMemoryStore()
		r := newRig(t, connecting(store, []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}))
		srv, pool := r.srv, r.pool
		grants, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		if len(grants) != 1 {
			t.Fatalf("%d grants, want 1", len(grants))
		}
		if want := []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}; !slices.Equal(grants[0].Scopes, want) {
			t.Errorf("Scopes = %q, want %q", grants[0].Scopes, want)
		}
		checkGrant(t, srv, pool, store, grants[0])
	})
	t.Run("without PKCE", func(t *testing.T) {
		store := auth.NewMemoryStore()
		r := newRig(t, connecting(store, nil))
		srv, pool := r.srv, r.pool
		grants, err := pool.Exchange(t.Context(), authorize(t, srv, pool.AuthCodeURL("s")))
		if err != nil {
			t.Fatal(err)
		}
		if len(grants) != 1 {
			t.Fatalf("%d grants, want 1", len(grants))
		}
		if !slices.Equal(grants[0].Scopes, partnertest.DefaultScopes()) {
			t.Errorf("Scopes = %q, want the service's defaults %q", grants[0].Scopes, partnertest.DefaultScopes())
		}
		checkGrant(t, srv, pool, store, grants[0])
	})
	t.Run("PKCE required", func(t *testing.T) {
		store := auth.NewMemoryStore()
		r := newRig(t, connecting(store, nil, partnertest.WithPKCERequired()))
		srv, pool := r.srv, r.pool
		back := browse(t, srv, pool.AuthCodeURL("s"))
		if back.Get("error") != "invalid_request" || back.Has("code") {
			t.Errorf("without a challenge: redirected back with %v, want error=invalid_request", back)
		}
		grants, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		checkGrant(t, srv, pool, store, grants[0])
	})
}

// TestPoolExchangeRefused: every code the service refuses is
// ErrInvalidGrant with a message that lists the causes (the service does
// not tell which) and holds neither the code, the verifier nor the secret.
func TestPoolExchangeRefused(t *testing.T) {
	const other = "https://app.example.test/other"
	cases := []struct {
		name string
		// exchange authorizes and exchanges as the case wants; it returns
		// the secrets the error must not hold.
		exchange func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error)
	}{
		{"expired code", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			v := oauth2.GenerateVerifier()
			code := authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
			time.Sleep(partnertest.AuthorizationCodeLifetime + time.Second)
			gs, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
			return gs, []string{code, v}, err
		}},
		{"used code", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			v := oauth2.GenerateVerifier()
			code := authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
			first, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
			if err != nil {
				t.Fatal(err)
			}
			gs, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
			return gs, []string{code, v, first[0].Token.AccessToken, first[0].Token.RefreshToken}, err
		}},
		{"wrong verifier", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			v, wrong := oauth2.GenerateVerifier(), oauth2.GenerateVerifier()
			code := authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
			gs, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(wrong))
			return gs, []string{code, v, wrong}, err
		}},
		{"missing verifier", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			v := oauth2.GenerateVerifier()
			code := authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v)))
			gs, err := pool.Exchange(t.Context(), code)
			return gs, []string{code, v}, err
		}},
		{"verifier without challenge", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			v := oauth2.GenerateVerifier()
			code := authorize(t, srv, pool.AuthCodeURL("s"))
			gs, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
			return gs, []string{code, v}, err
		}},
		{"unknown code", func(t *testing.T, srv *partnertest.Server, pool *partner.Pool) ([]partner.Grant, []string, error) {
			const code = "pt_code_MADE-UP"
			gs, err := pool.Exchange(t.Context(), code)
			return gs, []string{code}, err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, connecting(auth.NewMemoryStore(), nil, partnertest.WithRedirectURLs(other)))
				srv, pool := r.srv, r.pool
				grants, secrets, err := tc.exchange(t, srv, pool)
				if !errors.Is(err, partner.ErrInvalidGrant) {
					t.Fatalf("Exchange: %v, want ErrInvalidGrant", err)
				}
				if grants != nil {
					t.Errorf("Exchange returned grants %v with its error", grants)
				}
				msg := err.Error()
				for _, cause := range []string{"expired", "used already", "redirect_uri", "PKCE verifier"} {
					if !strings.Contains(msg, cause) {
						t.Errorf("the message does not list %q as a cause: %s", cause, msg)
					}
				}
				assertNoSecret(t, msg, append(secrets, srv.ClientSecret()))
				if !errors.Is(err, partner.ErrReauthorizationRequired) || errors.Is(err, partner.ErrConfiguration) {
					t.Errorf("Exchange: %v, want ErrReauthorizationRequired too, and not ErrConfiguration", err)
				}
				assertSpent(t, msg)
			})
		})
	}
}

// assertSpent checks that an exchange error says the code is spent and the
// user must go through the consent again, and nothing to the contrary.
func assertSpent(t *testing.T, msg string) {
	t.Helper()
	if !strings.Contains(msg, "spent") {
		t.Errorf("%q: want it to say the code is spent", msg)
	}
	assertConsentAgain(t, msg)
}

// assertConsentAgain checks that an exchange error says the user must go
// through the consent again, and nothing to the contrary.
func assertConsentAgain(t *testing.T, msg string) {
	t.Helper()
	if !strings.Contains(msg, "consent again") || strings.Contains(msg, "need not reconnect") {
		t.Errorf("%q: want it to say the user must go through the consent again", msg)
	}
}

// TestPoolExchangeRedirectMismatch: a redirect_uri that is not the
// authorize request's is the application's configuration: ErrConfiguration
// naming PoolConfig.RedirectURL, and the user must consent again once it
// is fixed (the code is spent).
func TestPoolExchangeRedirectMismatch(t *testing.T) {
	const other = "https://app.example.test/other"
	r := newRig(t, connecting(auth.NewMemoryStore(), nil, partnertest.WithRedirectURLs(other)))
	srv, pool := r.srv, r.pool
	v := oauth2.GenerateVerifier()
	code := authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v), oauth2.SetAuthURLParam("redirect_uri", other)))
	grants, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
	if !errors.Is(err, partner.ErrConfiguration) || errors.Is(err, partner.ErrInvalidGrant) || grants != nil {
		t.Fatalf("Exchange: %v, %v; want ErrConfiguration only", grants, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "PoolConfig.RedirectURL") {
		t.Errorf("%q does not name PoolConfig.RedirectURL", msg)
	}
	assertSpent(t, err.Error())
	assertNoSecret(t, err.Error(), []string{code, v, srv.ClientSecret()})
}

// TestPoolExchangeErrorClasses: the token server's answers to a refused
// exchange, as the service's (Better Auth's) token endpoint words them,
// land in the class that says what to do, and every message says the code
// is spent.
func TestPoolExchangeErrorClasses(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		class      error
		names      string // what the message must name
	}{
		{"wrong PKCE verifier", `{"error":"invalid_request","error_description":"code verification failed"}`, 401, partner.ErrInvalidGrant, "PKCE verifier"},
		{"missing PKCE verifier", `{"error":"invalid_request","error_description":"code verifier is missing"}`, 400, partner.ErrInvalidGrant, "PKCE verifier"},
		{"unknown code", `{"error":"invalid_grant","error_description":"invalid code"}`, 401, partner.ErrInvalidGrant, "expired"},
		{"redirect_uri, invalid_client", `{"error":"invalid_client","error_description":"invalid redirect_uri"}`, 401, partner.ErrConfiguration, "PoolConfig.RedirectURL"},
		{"redirect_uri, invalid_grant", `{"error":"invalid_grant","error_description":"redirect_uri mismatch"}`, 400, partner.ErrConfiguration, "PoolConfig.RedirectURL"},
		{"wrong secret", `{"error":"invalid_client","error_description":"invalid client_secret"}`, 401, partner.ErrConfiguration, "ClientSecret"},
		{"no token endpoint", `{"error":"Not found"}`, 404, partner.ErrConfiguration, "PoolConfig.TokenPath"},
		{"a proxy's page", `<html>Forbidden</html>`, 403, partner.ErrConfiguration, "PoolConfig.AuthURL"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, connecting(auth.NewMemoryStore(), nil))
			srv, pool := r.srv, r.pool
			srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Status: tc.status, Body: tc.body})
			grants, err := pool.Exchange(t.Context(), "pt_code_S3CR3T")
			if !errors.Is(err, tc.class) || grants != nil {
				t.Fatalf("Exchange: %v, %v; want %v", grants, err, tc.class)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.names) {
				t.Errorf("%q does not name %s", msg, tc.names)
			}
			if tc.status == 404 { // the code reached no token endpoint
				assertConsentAgain(t, err.Error())
			} else {
				assertSpent(t, err.Error())
			}
			assertNoSecret(t, err.Error(), []string{"pt_code_S3CR3T", srv.ClientSecret()})
		})
	}
}

// TestPoolExchangeBadArgument: arguments Exchange can refuse by itself
// are ErrInvalidArgument naming the field, and send nothing.
func TestPoolExchangeBadArgument(t *testing.T) {
	r := newRig(t, connecting(auth.NewMemoryStore(), nil))
	srv, pool := r.srv, r.pool
	cfg := connectConfig(srv, auth.NewMemoryStore())
	cfg.RedirectURL = ""
	noRedirect, err := partner.NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer noRedirect.Close()
	for _, tc := range []struct {
		name, code, field string
		pool              *partner.Pool
	}{
		{"empty code", "", "code", pool},
		{"no RedirectURL", "pt_code_1", "PoolConfig.RedirectURL", noRedirect},
	} {
		t.Run(tc.name, func(t *testing.T) {
			grants, err := tc.pool.Exchange(t.Context(), tc.code)
			if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.field) || grants != nil {
				t.Errorf("Exchange: %v, %v; want ErrInvalidArgument naming %s", grants, err, tc.field)
			}
		})
	}
	if reqs := srv.Requests(); len(reqs) != 0 {
		t.Errorf("%d requests sent, want none: %+v", len(reqs), reqs)
	}

	for _, bad := range []string{"/callback", "app.example.test/callback", "ftp://app.example.test/callback", callbackURL + "#top"} {
		cfg.RedirectURL = bad
		if _, err := partner.NewPool(cfg); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "PoolConfig.RedirectURL") {
			t.Errorf("NewPool with RedirectURL %q: %v, want ErrInvalidArgument naming PoolConfig.RedirectURL", bad, err)
		}
	}
}

// TestPoolExchangeSeveralOrganizations: a user who picks two organizations
// gets two grants, each with its own tokens, organization and client.
func TestPoolExchangeSeveralOrganizations(t *testing.T) {
	store := auth.NewMemoryStore()
	r := newRig(t, connecting(store, nil))
	srv, pool := r.srv, r.pool
	orgs := []partnertest.Organization{srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")}
	srv.SetConsent(partnertest.Consent{Organizations: orgs})
	grants, err := connect(t, srv, pool)
	if err != nil {
		t.Fatal(err)
	}
	if len(grants) != 2 {
		t.Fatalf("%d grants, want 2", len(grants))
	}
	if grants[0].GrantID == grants[1].GrantID || grants[0].Token.RefreshToken == grants[1].Token.RefreshToken ||
		grants[0].Token.AccessToken == grants[1].Token.AccessToken {
		t.Errorf("the two grants share an id or a token")
	}
	for i, g := range grants {
		if g.OrganizationID != orgs[i].ID {
			t.Errorf("grants[%d].OrganizationID = %q, want %q", i, g.OrganizationID, orgs[i].ID)
		}
		if sg, _ := srv.Grant(g.GrantID); len(sg.Organizations) != 1 || sg.Organizations[0].ID != orgs[i].ID {
			t.Errorf("grant %s covers %+v at the service, want %s", g.GrantID, sg.Organizations, orgs[i].ID)
		}
		checkGrant(t, srv, pool, store, g)
	}
}

// recordingStore records every Save, in order, and fails the failAt-th
// (counting from 1; 0 never).
type recordingStore struct {
	*auth.MemoryStore
	failAt int
	err    error

	mu    sync.Mutex
	saves []savedToken
}

// savedToken is one Save: the grant and the refresh token saved.
type savedToken struct{ GrantID, RefreshToken string }

func (s *recordingStore) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	s.mu.Lock()
	s.saves = append(s.saves, savedToken{grantID, tok.RefreshToken})
	n := len(s.saves)
	s.mu.Unlock()
	if n == s.failAt {
		return s.err
	}
	return s.MemoryStore.Save(ctx, grantID, tok)
}

func (s *recordingStore) recorded() []savedToken {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.saves)
}

// TestPoolExchangeSavesFirst: when Exchange returns, the Store holds every
// grant's token, saved in the grants' order; no refresh is needed to get
// there.
func TestPoolExchangeSavesFirst(t *testing.T) {
	store := &recordingStore{MemoryStore: auth.NewMemoryStore()}
	r := newRig(t, connecting(store, nil))
	srv, pool := r.srv, r.pool
	srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")}})
	grants, err := connect(t, srv, pool)
	if err != nil {
		t.Fatal(err)
	}
	saves := store.recorded()
	var want []savedToken
	for _, g := range grants {
		want = append(want, savedToken{g.GrantID, g.Token.RefreshToken})
		if st, err := store.Load(t.Context(), g.GrantID); err != nil || st.AccessToken != g.Token.AccessToken || st.RefreshToken != g.Token.RefreshToken || !st.Expiry.Equal(g.Token.Expiry) {
			t.Errorf("grant %s: the Store holds %v (err %v), not the exchange's token", g.GrantID, st, err)
		}
	}
	if diff := cmp.Diff(want, saves); diff != "" {
		t.Errorf("saves when Exchange returned (-want +got):\n%s", diff)
	}
	if n := srv.Counts().Refreshes; n != 0 {
		t.Errorf("%d refreshes, want none", n)
	}
}

// TestPoolExchangeSaveFails: a Save that fails leaves the grants with the
// caller, with an error naming the grant not saved, so that the caller can
// save it (the code cannot be exchanged again).
func TestPoolExchangeSaveFails(t *testing.T) {
	errDisk := errors.New("disk full")
	store := &recordingStore{MemoryStore: auth.NewMemoryStore(), failAt: 2, err: errDisk}
	r := newRig(t, connecting(store, nil))
	srv, pool := r.srv, r.pool
	srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")}})
	grants, err := connect(t, srv, pool)
	if !errors.Is(err, errDisk) {
		t.Fatalf("Exchange: %v, want the Store's error", err)
	}
	if len(grants) != 2 || grants[1].Token == nil {
		t.Fatalf("Exchange returned %v with its error, want both grants", grants)
	}
	saved, unsaved := grants[0], grants[1]
	if msg := err.Error(); !strings.Contains(msg, unsaved.GrantID) || strings.Contains(msg, saved.GrantID) {
		t.Errorf("error %q: want it to name %s (not saved) and not %s (saved)", msg, unsaved.GrantID, saved.GrantID)
	}
	assertNoSecret(t, err.Error(), []string{saved.Token.AccessToken, saved.Token.RefreshToken, unsaved.Token.AccessToken, unsaved.Token.RefreshToken})
	if _, err := store.Load(t.Context(), unsaved.GrantID); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("Load(%s): %v, want ErrNoToken", unsaved.GrantID, err)
	}
	checkGrant(t, srv, pool, store, saved)

	// Saved by the caller, the grant works.
	if err := store.MemoryStore.Save(t.Context(), unsaved.GrantID, unsaved.Token); err != nil {
		t.Fatal(err)
	}
	checkGrant(t, srv, pool, store, unsaved)
}

// TestPoolExchangeConsentAgain: a user who consents again for the same
// organization (here, to grant a scope more) updates the grant in place;
// a client of it held from before takes the new token at once, and
// refreshes with the new refresh token once its tokens expire.
func TestPoolExchangeConsentAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		r := newRig(t, connecting(store, nil))
		srv, pool := r.srv, r.pool
		srv.SetConsent(partnertest.Consent{Scopes: []string{partnertest.ScopeOrgRead}})
		first, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		id := first[0].GrantID
		c, err := pool.Client(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		orgs, err := c.Organizations.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Projects.List(t.Context(), orgs[0].ID); !errors.Is(err, partner.ErrMissingScope) {
			t.Fatalf("Projects.List with org:read only: %v, want ErrMissingScope", err)
		}

		srv.SetConsent(partnertest.Consent{Scopes: []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}})
		again, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != 1 || again[0].GrantID != id || again[0].Token.RefreshToken == first[0].Token.RefreshToken {
			t.Fatalf("consent again: %v, want grant %s with a new refresh token", again, id)
		}
		if _, err := c.Projects.List(t.Context(), orgs[0].ID); err != nil {
			t.Errorf("the held client after the new consent: %v", err)
		}
		time.Sleep(2 * time.Hour) // every token of the first consent expired
		if _, err := c.Projects.List(t.Context(), orgs[0].ID); err != nil {
			t.Errorf("the held client two hours later: %v", err)
		}
		sg, _ := srv.Grant(id)
		if st, err := store.Load(t.Context(), id); err != nil || st.RefreshToken != sg.RefreshToken {
			t.Errorf("the Store does not hold the grant's current refresh token (err %v)", err)
		}
		if n := srv.GrantCounts(id).Refreshes; n != 1 {
			t.Errorf("%d refreshes, want 1 (after the tokens expired)", n)
		}
	})
}

// TestPoolExchangeConsentAgainEvicted: a client evicted from the pool
// but still held takes the new consent's token at once too.
func TestPoolExchangeConsentAgainEvicted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithRedirectURLs(callbackURL))
		t.Cleanup(srv.Close)
		cfg := connectConfig(srv, auth.NewMemoryStore())
		cfg.MaxClients = 1
		pool, err := partner.NewPool(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })
		orgs := []partnertest.Organization{srv.AddOrganization("acme", "Acme"), srv.AddOrganization("globex", "Globex")}
		srv.SetConsent(partnertest.Consent{Organizations: orgs, Scopes: []string{partnertest.ScopeOrgRead}})
		first, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		held, err := pool.Client(t.Context(), first[0].GrantID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := held.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Client(t.Context(), first[1].GrantID); err != nil { // evicts held's
			t.Fatal(err)
		}

		srv.SetConsent(partnertest.Consent{Organizations: orgs[:1], Scopes: []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}})
		if _, err := connect(t, srv, pool); err != nil {
			t.Fatal(err)
		}
		if _, err := held.Projects.List(t.Context(), orgs[0].ID); err != nil {
			t.Errorf("the evicted client held from before, after the new consent: %v", err)
		}
	})
}

// requestsSince returns the requests the fake logged after the first n.
func requestsSince(srv *partnertest.Server, n int) []partnertest.Request {
	return srv.Requests()[n:]
}

// TestPoolDisconnect: Disconnect revokes the grant at the service with its
// access token, removes it from the Store, and makes every client of it
// fail with ErrReauthorizationRequired without a request.
func TestPoolDisconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		r := newRig(t, connecting(store, nil))
		srv, pool := r.srv, r.pool
		grants, err := connect(t, srv, pool)
		if err != nil {
			t.Fatal(err)
		}
		id := grants[0].GrantID
		c, err := pool.Client(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}

		n := len(srv.Requests())
		if err := pool.Disconnect(t.Context(), id); err != nil {
			t.Fatalf("Disconnect: %v", err)
		}
		sent := requestsSince(srv, n)
		if len(sent) != 1 || sent[0].Method != http.MethodDelete || sent[0].Path != "/api/oauth-client/installations/"+id ||
			sent[0].Token != partnertest.TokenAccess || sent[0].Status != http.StatusNoContent {
			t.Errorf("Disconnect sent %+v, want one DELETE of the installation with the access token", sent)
		}
		if got := srv.Counts().PartnerRevocations; got != 1 {
			t.Errorf("PartnerRevocations = %d, want 1", got)
		}
		if sg, _ := srv.Grant(id); !sg.Revoked {
			t.Error("the grant is not revoked at the service")
		}
		if _, err := store.Load(t.Context(), id); !errors.Is(err, auth.ErrNoToken) {
			t.Errorf("Store.Load after Disconnect: %v, want ErrNoToken", err)
		}

		n = len(srv.Requests())
		if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("the held client after Disconnect: %v, want ErrReauthorizationRequired", err)
		}
		if _, err := pool.Client(t.Context(), id); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("Pool.Client after Disconnect: %v, want ErrReauthorizationRequired", err)
		}
		time.Sleep(2 * time.Hour) // past every token's expiry: still nothing sent
		if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("the held client later: %v, want ErrReauthorizationRequired", err)
		}
		if sent := requestsSince(srv, n); len(sent) != 0 {
			t.Errorf("calls after Disconnect sent %+v, want nothing", sent)
		}

		if err := pool.Disconnect(t.Context(), id); err != nil {
			t.Errorf("Disconnect again: %v, want nil", err)
		}
	})
}

// TestPoolDisconnectGone: a grant the service already considers gone
// counts as disconnected.
func TestPoolDisconnectGone(t *testing.T) {
	for _, used := range []bool{true, false} {
		t.Run(fmt.Sprintf("revoked by the user, client used before: %v", used), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				store := auth.NewMemoryStore()
				r := newRig(t, connecting(store, nil))
				srv, pool := r.srv, r.pool
				grants, err := connect(t, srv, pool)
				if err != nil {
					t.Fatal(err)
				}
				id := grants[0].GrantID
				if used {
					c, err := pool.Client(t.Context(), id)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := c.Organizations.List(t.Context()); err != nil {
						t.Fatal(err)
					}
				}
				srv.Revoke(id)
				if err := pool.Disconnect(t.Context(), id); err != nil {
					t.Errorf("Disconnect: %v, want nil", err)
				}
				if got := srv.Counts().PartnerRevocations; got != 0 {
					t.Errorf("PartnerRevocations = %d, want 0 (the user revoked it)", got)
				}
				if _, err := store.Load(t.Context(), id); !errors.Is(err, auth.ErrNoToken) {
					t.Errorf("Store.Load after Disconnect: %v, want ErrNoToken", err)
				}
			})
		})
	}
	t.Run("unknown grant", func(t *testing.T) {
		r := newRig(t, connecting(auth.NewMemoryStore(), nil))
		srv, pool := r.srv, r.pool
		if err := pool.Disconnect(t.Context(), "grant_404"); err != nil {
			t.Errorf("Disconnect: %v, want nil", err)
		}
		if reqs := srv.Requests(); len(reqs) != 0 {
			t.Errorf("Disconnect of a grant the Store does not know sent %+v", reqs)
		}
		if err := pool.Disconnect(t.Context(), ""); !errors.Is(err, partner.ErrInvalidArgument) {
			t.Errorf("Disconnect(\"\"): %v, want ErrInvalidArgument", err)
		}
	})
}

func TestGrantRedaction(t *testing.T) {
	const access, refresh = "pt_at_ACCESS-S3CR3T", "pt_rt_REFRESH-S3CR3T"
	g := partner.Grant{GrantID: "grant_7", OrganizationID: "org_7", Scopes: []string{"org:read"},
		Token: &oauth2.Token{AccessToken: access, RefreshToken: refresh, TokenType: "Bearer"}}
	var out []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q"} {
		out = append(out, fmt.Sprintf(verb, g), fmt.Sprintf(verb, &g), fmt.Sprintf(verb, []partner.Grant{g}))
	}
	out = append(out, g.String(), fmt.Sprint(g), fmt.Sprintln(g))
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("connected", "grant", g)
	slog.New(slog.NewTextHandler(&buf, nil)).Info("connected", "grant", g, "ptr", &g)
	out = append(out, buf.String())
	for _, s := range out {
		assertNoSecret(t, s, []string{access, refresh})
		if !strings.Contains(s, "grant_7") {
			t.Errorf("%q does not name the grant", s)
		}
	}
}

// TestScopeNamesAreTheServices: the scope constants a user puts in
// PoolConfig.Scopes are the names the service (and partnertest) grants.
func TestScopeNamesAreTheServices(t *testing.T) {
	got := []string{partner.ScopeOrgRead, partner.ScopeProjectsRead, partner.ScopeProjectsWrite,
		partner.ScopeKeysRead, partner.ScopeKeysWrite, partner.ScopeTranslationsRead,
		partner.ScopeTranslationsWrite, partner.ScopeTranslationsPublish, partner.ScopeContentRead,
		partner.ScopeContentWrite, partner.ScopeContentPublish, partner.ScopeGlossaryRead, partner.ScopeGlossaryWrite}
	if want := partnertest.AllScopes(); !slices.Equal(got, want) {
		t.Errorf("partner's scopes %q, the service's %q", got, want)
	}
	if partner.ScopeOfflineAccess != partnertest.ScopeOfflineAccess {
		t.Errorf("partner.ScopeOfflineAccess %q, the service's %q", partner.ScopeOfflineAccess, partnertest.ScopeOfflineAccess)
	}
}
