package partner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/organizations"
	"github.com/locsvc/partner-go/projects"
)

// captured is what a test sees of one request.
type captured struct {
	Method, Path, Auth, UA, ContentType string
	Body                                string
}

// TestRequestShapes checks each endpoint's method, exact path, headers and
// body as the service receives them.
func TestRequestShapes(t *testing.T) {
	f := newFake(t)
	var got []captured
	f.mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		return nil, fmt.Errorf("unexpected %s %s", r.Method, r.URL)
	})
	wrap := func(method, url string, h httpmock.Responder) {
		f.mt.RegisterResponder(method, url, func(r *http.Request) (*http.Response, error) {
			var body []byte
			if r.Body != nil {
				body, _ = io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			got = append(got, captured{r.Method, r.URL.EscapedPath(), r.Header.Get("Authorization"), r.Header.Get("User-Agent"), r.Header.Get("Content-Type"), string(body)})
			return h(r)
		})
	}
	wrap("POST", authURL+"/api/auth/mcp/token", f.handle(epToken, f.token))
	wrap("POST", baseURL+"/api/oauth-client/installations/"+grantID+"/tokens", f.handle(epMint, f.mint))
	wrap("GET", baseURL+"/api/oauth-client/me", f.handle(epMe, f.me))
	wrap("GET", baseURL+"/api/oauth-client/organizations", f.handle(epOrgs, f.orgs))
	wrap("GET", baseURL+"/api/oauth-client/organizations/org%201/projects", f.handle(epList, f.list))
	wrap("POST", baseURL+"/api/oauth-client/v1/projects", f.handle(epCreate, f.create))
	wrap("GET", baseURL+"/api/oauth-client/v1/projects/p%3F1", f.handle(epGet, f.get))
	wrap("POST", baseURL+"/api/oauth-client/v1/projects/p1/languages", f.handle(epLang, f.lang))

	cfg := f.config()
	cfg.UserAgent = "acme-sync/2.1"
	c := f.client(cfg)
	ctx := t.Context()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(c.Me(ctx))
	must(c.Organizations.List(ctx))
	must(c.Projects.List(ctx, "org 1"))
	must(c.Projects.Create(ctx, projects.CreateParams{Name: "Site", Slug: "site", SourceLanguage: "en"}))
	must(c.Projects.Get(ctx, "p?1"))
	must(c.Projects.AddLanguage(ctx, "p1", "de"))

	ua := "partner-go/" + partner.Version + " acme-sync/2.1"
	at, it := "Bearer at-1", "Bearer svc_oat_2"
	form := "client_id=" + clientID + "&client_secret=" + clientSecret + "&grant_type=refresh_token&refresh_token=" + refreshTok
	want := []captured{
		{"POST", "/api/auth/mcp/token", "", ua, "application/x-www-form-urlencoded", form},
		{"GET", "/api/oauth-client/me", at, ua, "", ""},
		{"POST", "/api/oauth-client/installations/grant-1/tokens", at, ua, "", ""},
		{"GET", "/api/oauth-client/organizations", it, ua, "", ""},
		{"GET", "/api/oauth-client/organizations/org%201/projects", it, ua, "", ""},
		{"POST", "/api/oauth-client/v1/projects", it, ua, "application/json", `{"name":"Site","slug":"site","sourceLanguage":"en"}`},
		{"GET", "/api/oauth-client/v1/projects/p%3F1", it, ua, "", ""},
		{"POST", "/api/oauth-client/v1/projects/p1/languages", it, ua, "application/json", `{"code":"de"}`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestBadParameters: empty or path-breaking parameters fail before any
// request, with an error naming the field.
func TestBadParameters(t *testing.T) {
	f := newFake(t)
	c := f.client(f.config())
	ctx := t.Context()
	tests := []struct {
		name, field string
		call        func() error
	}{
		{"empty project id", "projectID", func() error { _, err := c.Projects.Get(ctx, ""); return err }},
		{"project id with a slash", "projectID", func() error { _, err := c.Projects.Get(ctx, "a/b"); return err }},
		{"project id ..", "projectID", func() error { _, err := c.Projects.Get(ctx, ".."); return err }},
		{"org id with ..", "orgID", func() error { _, err := c.Projects.List(ctx, "../admin"); return err }},
		{"empty org id", "orgID", func() error { _, err := c.Projects.List(ctx, ""); return err }},
		{"empty name", "Name", func() error {
			_, err := c.Projects.Create(ctx, projects.CreateParams{Slug: "s", SourceLanguage: "en"})
			return err
		}},
		{"empty slug", "Slug", func() error {
			_, err := c.Projects.Create(ctx, projects.CreateParams{Name: "n", SourceLanguage: "en"})
			return err
		}},
		{"empty source language", "SourceLanguage", func() error {
			_, err := c.Projects.Create(ctx, projects.CreateParams{Name: "n", Slug: "s"})
			return err
		}},
		{"empty language code", "code", func() error { _, err := c.Projects.AddLanguage(ctx, "p1", ""); return err }},
		{"language on a bad project id", "projectID", func() error { _, err := c.Projects.AddLanguage(ctx, "p/1", "de"); return err }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.field) {
				t.Errorf("err = %v, want ErrInvalidArgument naming %s", err, tt.field)
			}
		})
	}
	if n := f.mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d requests were sent", n)
	}
}

// TestConfigValidation: NewClient refuses an incomplete or unsafe Config
// with an error naming the field.
func TestConfigValidation(t *testing.T) {
	ok := newFake(t).config()
	tests := []struct {
		field string
		edit  func(*partner.Config)
	}{
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "" }},
		{"Config.AuthURL", func(c *partner.Config) { c.AuthURL = "" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "api.example.test" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "ftp://api.example.test" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "http://api.example.test" }},
		{"Config.AuthURL", func(c *partner.Config) { c.AuthURL = "http://10.0.0.8" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "https://api.example.test/?key=x" }},
		{"Config.BaseURL", func(c *partner.Config) { c.BaseURL = "https://user:pw@api.example.test" }},
		{"Config.ClientID", func(c *partner.Config) { c.ClientID = "" }},
		{"Config.ClientSecret", func(c *partner.Config) { c.ClientSecret = "" }},
		{"Config.GrantID", func(c *partner.Config) { c.GrantID = "" }},
		{"Config.GrantID", func(c *partner.Config) { c.GrantID = "a/../b" }},
		{"Config.Token", func(c *partner.Config) { c.Token = nil }},
		{"Config.Token.RefreshToken", func(c *partner.Config) { c.Token = &oauth2.Token{AccessToken: "x"} }},
	}
	for _, tt := range tests {
		cfg := ok
		tt.edit(&cfg)
		_, err := partner.NewClient(cfg)
		if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%+v: err = %v, want ErrInvalidArgument naming %s", cfg, err, tt.field)
		}
		if err != nil {
			assertNoSecret(t, err.Error(), []string{clientSecret, refreshTok})
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9"} {
		cfg := ok
		cfg.BaseURL = u
		if _, err := partner.NewClient(cfg); err != nil {
			t.Errorf("loopback %s refused: %v", u, err)
		}
	}
	cfg := ok
	cfg.BaseURL, cfg.AllowInsecureHTTP = "http://api.internal", true
	if _, err := partner.NewClient(cfg); err != nil {
		t.Errorf("http with AllowInsecureHTTP refused: %v", err)
	}
}

// TestCallerClientUntouched: the SDK copies the caller's *http.Client.
func TestCallerClientUntouched(t *testing.T) {
	f := newFake(t)
	hc := &http.Client{Transport: f.mt, Timeout: 7 * time.Second}
	before := *hc
	cfg := f.config()
	cfg.HTTPClient = hc
	if err := getProject(t.Context(), f.client(cfg)); err != nil {
		t.Fatal(err)
	}
	if hc.Transport != before.Transport || hc.Timeout != before.Timeout || hc.CheckRedirect != nil || hc.Jar != nil {
		t.Errorf("the caller's client was modified: %+v", hc)
	}
}

// TestRedirectToAnotherHost: a redirect to another host never carries the
// token; one to the same host does.
func TestRedirectToAnotherHost(t *testing.T) {
	var leaked, kept string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, projectJSON)
	}))
	defer other.Close()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/auth/mcp/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"at-x","expires_in":1800}`)
	})
	mux.HandleFunc("POST /api/oauth-client/installations/grant-1/tokens", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"token":"svc_oat_x"}`)
	})
	mux.HandleFunc("GET /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/api/oauth-client/v1/projects/p2", http.StatusFound)
	})
	mux.HandleFunc("GET /api/oauth-client/v1/projects/p2", func(w http.ResponseWriter, r *http.Request) {
		kept = r.Header.Get("Authorization")
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	// other.URL and srv.URL are both 127.0.0.1 but on different ports:
	// another origin.
	c, err := partner.NewClient(partner.Config{BaseURL: srv.URL, AuthURL: srv.URL, ClientID: clientID, ClientSecret: clientSecret, GrantID: grantID, Token: &oauth2.Token{RefreshToken: refreshTok}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Projects.Get(t.Context(), "p1"); err != nil {
		t.Fatal(err)
	}
	if kept != "Bearer svc_oat_x" {
		t.Errorf("same-origin redirect: Authorization = %q", kept)
	}
	if leaked != "" {
		t.Errorf("redirect to another host carried Authorization %q", leaked)
	}
}

// TestLogsHoldNoSecret: retries and refreshes are logged through the
// configured slog.Logger, and no line holds a token or secret.
func TestLogsHoldNoSecret(t *testing.T) {
	f := newFake(t)
	f.then(epGet, errReply(503, ""))
	var buf bytes.Buffer
	cfg := f.config()
	cfg.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := f.client(cfg)
	if err := getProject(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	for _, want := range []string{"partner: retrying", "access token refreshed", "installation token minted"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	assertNoSecret(t, logs, f.secrets())
	for _, s := range []string{fmt.Sprintf("%v", cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%v", &cfg)} {
		assertNoSecret(t, s, f.secrets())
	}
	buf.Reset()
	cfg.Logger.Info("config", "cfg", cfg)
	assertNoSecret(t, buf.String(), f.secrets())
	if !strings.Contains(buf.String(), clientID) {
		t.Errorf("logged config lacks the client id: %s", buf.String())
	}
}

// TestDecodeVariants: list and record answers in the shapes the spec
// leaves open decode to the same values, unknown fields are ignored and
// Raw keeps the record.
func TestDecodeVariants(t *testing.T) {
	wantOrg := []organizations.Organization{{ID: "42", Slug: "acme", Name: "Acme"}}
	orgBodies := map[string]string{
		"bare array":         `[{"id":42,"slug":"acme","name":"Acme","plan":"pro"}]`,
		"organizations key":  `{"organizations":[{"id":"42","slug":"acme","name":"Acme"}],"total":1}`,
		"data key":           `{"data":[{"id":"42","slug":"acme","name":"Acme"}]}`,
		"only array field":   `{"orgs":[{"id":"42","slug":"acme","name":"Acme"}],"next":null}`,
		"unknown nested obj": `{"items":[{"id":"42","slug":"acme","name":"Acme","owner":{"id":1}}]}`,
	}
	for name, body := range orgBodies {
		t.Run("organizations/"+name, func(t *testing.T) {
			f := newFake(t)
			f.then(epOrgs, reply{status: 200, body: body})
			got, err := f.client(f.config()).Organizations.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantOrg, got, cmpopts.IgnoreFields(organizations.Organization{}, "Raw")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !json.Valid(got[0].Raw) || !strings.Contains(string(got[0].Raw), "acme") {
				t.Errorf("Raw = %s", got[0].Raw)
			}
		})
	}

	wantProject := &projects.Project{ID: "p1", OrganizationID: "org-1", Name: "Site", Slug: "site", SourceLanguage: "en",
		TargetLanguages: []projects.Language{{Code: "de", Name: "German"}, {Code: "fr"}}}
	projectBodies := map[string]string{
		"plain":           `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"],"cdn":{"url":"x"}}`,
		"envelope":        `{"project":{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","languageName":"German"},{"code":"fr"}]}}`,
		"data envelope":   `{"data":{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"]}}`,
		"numeric org id ": `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"],"createdAt":12}`,
	}
	for name, body := range projectBodies {
		t.Run("project/"+name, func(t *testing.T) {
			f := newFake(t)
			f.then(epGet, reply{status: 200, body: body})
			got, err := f.client(f.config()).Projects.Get(t.Context(), "p1")
			if err != nil {
				t.Fatal(err)
			}
			opt := cmpopts.IgnoreFields(projects.Project{}, "Raw")
			if diff := cmp.Diff(wantProject, got, opt, cmpopts.IgnoreFields(projects.Language{}, "Raw")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !json.Valid(got.Raw) || !strings.Contains(string(got.Raw), `"p1"`) {
				t.Errorf("Raw = %s", got.Raw)
			}
		})
	}

	mintBodies := map[string]string{
		"token/expiresAt":                `{"token":"svc_oat_v","expiresAt":"2000-01-01T01:00:00Z"}`,
		"installationToken/expires_at":   `{"installationToken":"svc_oat_v","expires_at":"2000-01-01T01:00:00Z"}`,
		"installation_token/expiresIn":   `{"installation_token":"svc_oat_v","expiresIn":3600}`,
		"access_token/expires_in string": `{"access_token":"svc_oat_v","expires_in":"3600"}`,
		"no expiry":                      `{"token":"svc_oat_v"}`,
	}
	for name, body := range mintBodies {
		t.Run("mint/"+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(t)
				f.then(epMint, reply{status: 201, body: body})
				tok, err := f.client(f.config()).Installations.CreateToken(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				want := time.Date(2000, 1, 1, 1, 0, 0, 0, time.UTC)
				if tok.Token != "svc_oat_v" || !tok.ExpiresAt.Equal(want) {
					t.Errorf("got %q expiring %v, want svc_oat_v expiring %v", tok.Token, tok.ExpiresAt, want)
				}
				if s := fmt.Sprint(tok); strings.Contains(s, "svc_oat_v") {
					t.Errorf("Token prints its secret: %s", s)
				}
			})
		})
	}
	for name, body := range map[string]string{
		"expiry not RFC 3339":   `{"token":"svc_oat_v","expiresAt":"tomorrow"}`,
		"expires_in negative":   `{"token":"svc_oat_v","expires_in":-5}`,
		"no token at all":       `{"expiresIn":3600}`,
		"token is not a string": `{"token":5}`,
	} {
		t.Run("mint/bad/"+name, func(t *testing.T) {
			f := newFake(t)
			f.then(epMint, reply{status: 201, body: body})
			_, err := f.client(f.config()).Installations.CreateToken(t.Context())
			if !errors.Is(err, partner.ErrUnexpectedResponse) {
				t.Errorf("err = %v, want ErrUnexpectedResponse", err)
			}
		})
	}

	t.Run("me", func(t *testing.T) {
		want := &partner.Identity{UserID: "usr_1", Email: "ada@example.test", Name: "Ada", AccountID: "acc_1", AccountName: "Ada's"}
		for _, body := range []string{
			`{"id":"usr_1","email":"ada@example.test","name":"Ada","account":{"id":"acc_1","name":"Ada's"}}`,
			`{"user":{"id":"usr_1","email":"ada@example.test","name":"Ada"},"account":{"id":"acc_1","name":"Ada's"},"scopes":["x"]}`,
			`{"userId":"usr_1","email":"ada@example.test","name":"Ada","accountId":"acc_1","account":{"name":"Ada's"}}`,
		} {
			f := newFake(t)
			f.then(epMe, reply{status: 200, body: body})
			got, err := f.client(f.config()).Me(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(partner.Identity{}, "Raw")); diff != "" {
				t.Errorf("%s (-want +got):\n%s", body, diff)
			}
		}
	})
}

// TestEmptyConfig: the first field named is the first one a user fills in.
func TestEmptyConfig(t *testing.T) {
	_, err := partner.NewClient(partner.Config{})
	if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config.BaseURL is required") {
		t.Errorf("NewClient(Config{}) = %v, want it to name Config.BaseURL", err)
	}
}

// TestPoolConfigRedacted: a PoolConfig prints and logs without its secret.
func TestPoolConfigRedacted(t *testing.T) {
	pc := partner.PoolConfig{BaseURL: baseURL, AuthURL: authURL, ClientID: clientID, ClientSecret: clientSecret}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "pool", pc)
	for _, s := range []string{fmt.Sprintf("%v", pc), fmt.Sprintf("%+v", pc), fmt.Sprintf("%#v", pc), fmt.Sprintf("%v", &pc), buf.String()} {
		assertNoSecret(t, s, []string{clientSecret})
		if !strings.Contains(s, clientID) {
			t.Errorf("%q lacks the client id", s)
		}
	}
}
