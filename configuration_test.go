package partner_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
)

// svc is a scripted service behind an in-memory RoundTripper, so that it
// runs inside a synctest bubble: the resource API at https://api.test, the
// token endpoint at https://auth.test. Its handler answers as the service
// does unless a test replaces a route.
type svc struct {
	mu     sync.Mutex
	routes map[string]http.HandlerFunc // "METHOD host path"
	hits   map[string]int
	mints  int
	logs   bytes.Buffer
}

const (
	svcClientSecret = "cs-S3cret/Value"
	svcRefresh      = "rt-R3fresh+Token"
	svcAccess       = "at-Acc3ss-Token"
	svcInstall      = "svc_oat_Inst4ll-Token"
)

func newSvc() *svc {
	s := &svc{routes: map[string]http.HandlerFunc{}, hits: map[string]int{}}
	s.on("POST auth.test /api/auth/mcp/token", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"access_token": svcAccess, "refresh_token": svcRefresh, "expires_in": 1800})
	})
	s.on("POST api.test /api/oauth-client/installations/g1/tokens", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.mints++
		n := s.mints
		s.mu.Unlock()
		writeJSON(w, 200, map[string]any{"installation_token": fmt.Sprintf("%s%d", svcInstall, n), "expires_in": 3600,
			"organization_id": "org_1", "project_ids": []string{}, "scopes": []string{"projects:read"}})
	})
	s.on("GET api.test /api/oauth-client/me", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "usr_1", "email": "ada@example.test"})
	})
	s.on("GET api.test /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "p1", "name": "Site", "slug": "site", "sourceLanguage": "en"})
	})
	return s
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// on replaces the route key ("METHOD host path").
func (s *svc) on(key string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[key] = h
}

func (s *svc) n(key string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[key]
}

func (s *svc) RoundTrip(r *http.Request) (*http.Response, error) {
	key := r.Method + " " + r.URL.Host + " " + r.URL.Path
	s.mu.Lock()
	s.hits[key]++
	h := s.routes[key]
	s.mu.Unlock()
	rec := httptest.NewRecorder()
	if h == nil {
		http.NotFound(rec, r) // "404 page not found", text/plain
	} else {
		h(rec, r)
	}
	if r.Body != nil {
		io.Copy(io.Discard, r.Body)
		r.Body.Close()
	}
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

func (s *svc) config() partner.Config {
	return partner.Config{
		BaseURL: "https://api.test", AuthURL: "https://auth.test",
		ClientID: "cid", ClientSecret: svcClientSecret, GrantID: "g1",
		Token:      &oauth2.Token{RefreshToken: svcRefresh},
		HTTPClient: &http.Client{Transport: s},
		Logger:     slog.New(slog.NewJSONHandler(&s.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		RetryMax:   2,
	}
}

func (s *svc) logText() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logs.String()
}

// noSecret fails when text holds any secret of the application or grant.
func noSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, secret := range []string{svcClientSecret, svcRefresh, svcAccess, svcInstall} {
		if strings.Contains(text, secret) {
			t.Errorf("%s holds the secret %q: %.300s", what, secret, text)
		}
	}
}

func getP1(ctx context.Context, c *partner.Client) error {
	_, err := c.Projects.Get(ctx, "p1")
	return err
}

// TestMisconfiguration: a wrong URL or a refused application is
// ErrConfiguration naming the setting, never a "reconnect" class; the
// service's own codes are classified by code.
func TestMisconfiguration(t *testing.T) {
	html := func(status int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(status)
			io.WriteString(w, "<html><body><h1>Not here</h1></body></html>")
		}
	}
	code := func(status int, c string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { writeJSON(w, status, map[string]string{"error": c}) }
	}
	const tokenKey = "POST auth.test /api/auth/mcp/token"
	const mintKey = "POST api.test /api/oauth-client/installations/g1/tokens"
	tests := []struct {
		name   string
		setup  func(s *svc, cfg *partner.Config)
		want   error
		path   string // the whole path the message must carry
		advice string
	}{
		{"BaseURL with an extra path prefix", func(s *svc, cfg *partner.Config) { cfg.BaseURL += "/v2" },
			partner.ErrConfiguration, "POST /v2/api/oauth-client/installations/g1/tokens", "Config.BaseURL"},
		{"BaseURL and AuthURL swapped", func(s *svc, cfg *partner.Config) { cfg.BaseURL, cfg.AuthURL = cfg.AuthURL, cfg.BaseURL },
			partner.ErrConfiguration, "POST /api/auth/mcp/token", "Config.AuthURL"},
		{"AuthURL with the token path appended", func(s *svc, cfg *partner.Config) { cfg.AuthURL += "/api/auth/mcp/token" },
			partner.ErrConfiguration, "POST /api/auth/mcp/token/api/auth/mcp/token", "Config.AuthURL"},
		{"a proxy's HTML 404 at the mint", func(s *svc, cfg *partner.Config) { s.on(mintKey, html(404)) },
			partner.ErrConfiguration, "/api/oauth-client/installations/g1/tokens", "Config.BaseURL"},
		{"a proxy's HTML 405 at the token endpoint", func(s *svc, cfg *partner.Config) { s.on(tokenKey, html(405)) },
			partner.ErrConfiguration, "/api/auth/mcp/token", "Config.AuthURL"},
		{"invalid_client", func(s *svc, cfg *partner.Config) { s.on(tokenKey, code(401, "invalid_client")) },
			partner.ErrConfiguration, "/api/auth/mcp/token", "ClientSecret"},
		{"grant_not_found on the mint", func(s *svc, cfg *partner.Config) { s.on(mintKey, code(404, "grant_not_found")) },
			partner.ErrReauthorizationRequired, "/api/oauth-client/installations/g1/tokens", "reconnect"},
		{"invalid_grant with 400", func(s *svc, cfg *partner.Config) { s.on(tokenKey, code(400, "invalid_grant")) },
			partner.ErrInvalidGrant, "/api/auth/mcp/token", "reconnect"},
		{"invalid_grant with 401", func(s *svc, cfg *partner.Config) { s.on(tokenKey, code(401, "invalid_grant")) },
			partner.ErrInvalidGrant, "/api/auth/mcp/token", "reconnect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newSvc()
				cfg := s.config()
				tt.setup(s, &cfg)
				c, err := partner.NewClient(cfg)
				if err != nil {
					t.Fatal(err)
				}
				err = getP1(t.Context(), c)
				if !errors.Is(err, tt.want) {
					t.Fatalf("err = %v, want %v", err, tt.want)
				}
				if tt.want == partner.ErrConfiguration && errors.Is(err, partner.ErrReauthorizationRequired) {
					t.Errorf("a misconfiguration asks users to reconnect: %v", err)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "partner: ") || !strings.Contains(msg, tt.path) || !strings.Contains(msg, tt.advice) {
					t.Errorf("message %q: want the prefix, %q and %q", msg, tt.path, tt.advice)
				}
				noSecret(t, "error", msg)
				noSecret(t, "logs", s.logText())
				if strings.Contains(s.logText(), `"level":"ERROR"`) {
					t.Errorf("ERROR in the logs:\n%s", s.logText())
				}
			})
		})
	}
}

// TestServiceCodesPerCall: the codes that concern one call leave the grant
// working.
func TestServiceCodesPerCall(t *testing.T) {
	const get = "GET api.test /api/oauth-client/v1/projects/p1"
	once := func(s *svc, status int, code, retryAfter string) {
		var n int
		var mu sync.Mutex
		s.on(get, func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n++
			first := n == 1
			mu.Unlock()
			if first {
				if retryAfter != "" {
					w.Header().Set("Retry-After", retryAfter)
				}
				writeJSON(w, status, map[string]string{"error": code})
				return
			}
			writeJSON(w, 200, map[string]any{"id": "p1"})
		})
	}
	t.Run("invalid_token: one re-mint, one replay, then success", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			once(s, 401, "invalid_token", "")
			c, _ := partner.NewClient(s.config())
			if err := getP1(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			if s.mints != 2 || s.n(get) != 2 {
				t.Errorf("mints %d, GETs %d; want 2 and 2", s.mints, s.n(get))
			}
		})
	})
	t.Run("wrong_organization: per call", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			once(s, 403, "wrong_organization", "")
			c, _ := partner.NewClient(s.config())
			err := getP1(t.Context(), c)
			if !errors.Is(err, partner.ErrWrongOrganization) || errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("err = %v, want ErrWrongOrganization only", err)
			}
			if !strings.Contains(err.Error(), "GET /api/oauth-client/v1/projects/p1: 403 wrong_organization") {
				t.Errorf("message %q", err)
			}
			if err := getP1(t.Context(), c); err != nil {
				t.Errorf("next call: %v", err)
			}
		})
	})
	t.Run("rate_limited with Retry-After: waited, then success", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			once(s, 429, "rate_limited", "7")
			c, _ := partner.NewClient(s.config())
			start := time.Now()
			if err := getP1(t.Context(), c); err != nil {
				t.Fatal(err)
			}
			if waited := time.Since(start); waited < 7*time.Second {
				t.Errorf("waited %v, want the 7 s Retry-After", waited)
			}
			noSecret(t, "logs", s.logText())
		})
	})
	t.Run("409 is ErrConflict, 404 a per-call error", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			once(s, 409, "conflict", "")
			c, _ := partner.NewClient(s.config())
			if err := getP1(t.Context(), c); !errors.Is(err, partner.ErrConflict) {
				t.Fatalf("err = %v, want ErrConflict", err)
			}
			s.on(get, func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 404, map[string]string{"error": "not_found"})
			})
			err := getP1(t.Context(), c)
			var ae *partner.APIError
			if !errors.As(err, &ae) || ae.StatusCode != 404 || errors.Is(err, partner.ErrConfiguration) || errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("err = %v, want a per-call 404", err)
			}
		})
	})
}

// TestConfigurationErrorIsHeld: a configuration error is returned without
// a request for a minute, then the service is asked again, and a fixed
// service heals the grant.
func TestConfigurationErrorIsHeld(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSvc()
		const tokenKey = "POST auth.test /api/auth/mcp/token"
		good := s.routes[tokenKey]
		s.on(tokenKey, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "nope", 404) })
		c, _ := partner.NewClient(s.config())
		for range 3 {
			if err := getP1(t.Context(), c); !errors.Is(err, partner.ErrConfiguration) {
				t.Fatalf("err = %v", err)
			}
		}
		if n := s.n(tokenKey); n != 1 {
			t.Fatalf("token requests while held: %d, want 1", n)
		}
		s.on(tokenKey, good)
		time.Sleep(time.Minute)
		if err := getP1(t.Context(), c); err != nil {
			t.Fatalf("after the hold: %v", err)
		}
	})
}
