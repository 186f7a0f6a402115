package partner_test

// The transport: what goes on the wire, what is refused before it, how
// redirects and retries behave and what they log.

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/projects"
)

// TestRequestShapes checks each endpoint's method, exact path, headers and
// body as the service receives them.
func TestRequestShapes(t *testing.T) {
	s := newScript()
	cfg := s.config()
	cfg.UserAgent = "acme-sync/2.1"
	c := s.client(t, cfg)
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
	must(c.Projects.Create(ctx, projects.NewProject{Name: "Site", Slug: "site", SourceLanguage: "en"}))
	must(c.Projects.Get(ctx, "p?1"))
	must(c.Projects.AddLanguage(ctx, "p1", "de"))

	ua := "partner-go/" + partner.Version + " acme-sync/2.1"
	at, it := "Bearer at-1", "Bearer svc_oat_1"
	form := "client_id=" + clientID + "&client_secret=" + clientSecret + "&grant_type=refresh_token&refresh_token=" + refreshTok
	want := []captured{
		{"POST", "auth.example.test", "/api/auth/mcp/token", "", ua, "application/x-www-form-urlencoded", form},
		{"GET", "api.example.test", "/api/oauth-client/me", at, ua, "", ""},
		{"POST", "api.example.test", "/api/oauth-client/installations/grant-1/tokens", at, ua, "", ""},
		{"GET", "api.example.test", "/api/oauth-client/organizations", it, ua, "", ""},
		{"GET", "api.example.test", "/api/oauth-client/organizations/org%201/projects", it, ua, "", ""},
		{"POST", "api.example.test", "/api/oauth-client/v1/projects", it, ua, "application/json", `{"name":"Site","slug":"site","sourceLanguage":"en"}`},
		{"GET", "api.example.test", "/api/oauth-client/v1/projects/p%3F1", it, ua, "", ""},
		{"POST", "api.example.test", "/api/oauth-client/v1/projects/p1/languages", it, ua, "application/json", `{"code":"de"}`},
	}
	if diff := cmp.Diff(want, s.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestBadParameters: empty or path-breaking parameters fail before any
// request, with an error naming the field.
func TestBadParameters(t *testing.T) {
	s := newScript()
	c := s.client(t, s.config())
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
			_, err := c.Projects.Create(ctx, projects.NewProject{Slug: "s", SourceLanguage: "en"})
			return err
		}},
		{"empty slug", "Slug", func() error {
			_, err := c.Projects.Create(ctx, projects.NewProject{Name: "n", SourceLanguage: "en"})
			return err
		}},
		{"empty source language", "SourceLanguage", func() error {
			_, err := c.Projects.Create(ctx, projects.NewProject{Name: "n", Slug: "s"})
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
	if n := s.total(); n != 0 {
		t.Errorf("%d requests were sent", n)
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
	c, err := partner.NewClient(partner.Config{Pacing: noPacing, BaseURL: srv.URL, AuthURL: srv.URL, ClientID: clientID, ClientSecret: clientSecret, GrantID: grantID, Token: &oauth2.Token{RefreshToken: refreshTok}})
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
