package partner_test

import (
	"cmp"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestMisconfiguration: a wrong URL or a refused application is
// ErrConfiguration naming the setting, never a "reconnect" class; the
// service's own codes are classified by code.
func TestMisconfiguration(t *testing.T) {
	html := func(status int) reply {
		return reply{status: status, ctype: "text/html", body: "<html><body><h1>Not here</h1></body></html>"}
	}
	tests := []struct {
		name   string
		setup  func(s *script, cfg *partner.Config)
		want   error
		path   string // the whole path the message must carry
		advice string
	}{
		{"BaseURL with an extra path prefix", func(s *script, cfg *partner.Config) { cfg.BaseURL += "/v2" },
			partner.ErrConfiguration, "POST /v2/api/oauth-client/installations/grant-1/tokens", "Config.BaseURL"},
		{"BaseURL and AuthURL swapped", func(s *script, cfg *partner.Config) { cfg.BaseURL, cfg.AuthURL = cfg.AuthURL, cfg.BaseURL },
			partner.ErrConfiguration, "POST /api/auth/mcp/token", "Config.AuthURL"},
		{"AuthURL with the token path appended", func(s *script, cfg *partner.Config) { cfg.AuthURL += "/api/auth/mcp/token" },
			partner.ErrConfiguration, "POST /api/auth/mcp/token/api/auth/mcp/token", "Config.AuthURL"},
		{"a proxy's HTML 404 at the mint", func(s *script, cfg *partner.Config) { s.then(epMint, html(404)) },
			partner.ErrConfiguration, "/api/oauth-client/installations/grant-1/tokens", "Config.BaseURL"},
		{"a proxy's HTML 405 at the token endpoint", func(s *script, cfg *partner.Config) { s.then(epToken, html(405)) },
			partner.ErrConfiguration, "/api/auth/mcp/token", "Config.AuthURL"},
		{"invalid_client", func(s *script, cfg *partner.Config) { s.then(epToken, errReply(401, "invalid_client")) },
			partner.ErrConfiguration, "/api/auth/mcp/token", "ClientSecret"},
		{"grant_not_found on the mint", func(s *script, cfg *partner.Config) { s.then(epMint, errReply(404, "grant_not_found")) },
			partner.ErrReauthorizationRequired, "/api/oauth-client/installations/grant-1/tokens", "reconnect"},
		{"invalid_grant with 400", func(s *script, cfg *partner.Config) { s.then(epToken, errReply(400, "invalid_grant")) },
			partner.ErrInvalidGrant, "/api/auth/mcp/token", "reconnect"},
		{"invalid_grant with 401", func(s *script, cfg *partner.Config) { s.then(epToken, errReply(401, "invalid_grant")) },
			partner.ErrInvalidGrant, "/api/auth/mcp/token", "reconnect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				cfg := s.config()
				logs := debugLogs(&cfg)
				tt.setup(s, &cfg)
				err := getProject(t.Context(), s.client(t, cfg))
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
				assertNoSecret(t, msg, s.secrets())
				assertNoSecret(t, logs.String(), s.secrets())
				if strings.Contains(logs.String(), `"level":"ERROR"`) {
					t.Errorf("ERROR in the logs:\n%s", logs)
				}
			})
		})
	}
}

// TestServiceCodesPerCall: the codes that concern one call leave the grant
// working.
func TestServiceCodesPerCall(t *testing.T) {
	t.Run("invalid_token: one re-mint, one replay, then success", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			s.then(epGet, errReply(401, "invalid_token"))
			if err := getProject(t.Context(), s.client(t, s.config())); err != nil {
				t.Fatal(err)
			}
			if s.n(epMint) != 2 || s.n(epGet) != 2 {
				t.Errorf("mints %d, GETs %d; want 2 and 2", s.n(epMint), s.n(epGet))
			}
		})
	})
	t.Run("wrong_organization: per call", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			s.then(epGet, errReply(403, "wrong_organization"))
			c := s.client(t, s.config())
			err := getProject(t.Context(), c)
			if !errors.Is(err, partner.ErrWrongOrganization) || errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("err = %v, want ErrWrongOrganization only", err)
			}
			if !strings.Contains(err.Error(), "GET /api/oauth-client/v1/projects/p1: 403 wrong_organization") {
				t.Errorf("message %q", err)
			}
			if err := getProject(t.Context(), c); err != nil {
				t.Errorf("next call: %v", err)
			}
		})
	})
	t.Run("rate_limited with Retry-After: waited, then success", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			r := errReply(429, "rate_limited")
			r.header = http.Header{"Retry-After": {"7"}}
			s.then(epGet, r)
			cfg := s.config()
			logs := debugLogs(&cfg)
			start := time.Now()
			if err := getProject(t.Context(), s.client(t, cfg)); err != nil {
				t.Fatal(err)
			}
			if waited := time.Since(start); waited < 7*time.Second {
				t.Errorf("waited %v, want the 7 s Retry-After", waited)
			}
			assertNoSecret(t, logs.String(), s.secrets())
		})
	})
	t.Run("409 is ErrConflict, 404 a per-call error", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			s.then(epGet, errReply(409, "conflict"), errReply(404, "not_found"))
			c := s.client(t, s.config())
			if err := getProject(t.Context(), c); !errors.Is(err, partner.ErrConflict) {
				t.Fatalf("err = %v, want ErrConflict", err)
			}
			err := getProject(t.Context(), c)
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
		s := newScript()
		s.then(epToken, reply{status: 404, ctype: "text/plain", body: "nope"})
		c := s.client(t, s.config())
		for range 3 {
			if err := getProject(t.Context(), c); !errors.Is(err, partner.ErrConfiguration) {
				t.Fatalf("err = %v", err)
			}
		}
		if n := s.n(epToken); n != 1 {
			t.Fatalf("token requests while held: %d, want 1", n)
		}
		time.Sleep(time.Minute)
		if err := getProject(t.Context(), c); err != nil {
			t.Fatalf("after the hold: %v", err)
		}
	})
}

// TestConfigIsPoolConfigForOneGrant: every setting of Config but the
// grant's own is a PoolConfig field of the same type, and NewClient reads
// each of them: a field added to one struct and forgotten in the other,
// or not passed on, fails here.
func TestConfigIsPoolConfigForOneGrant(t *testing.T) {
	var cfg partner.Config
	cv := reflect.ValueOf(&cfg).Elem()
	pt := reflect.TypeFor[partner.PoolConfig]()
	var shared []string
	for i := range cv.NumField() {
		f := cv.Type().Field(i)
		if f.Name == "GrantID" || f.Name == "Token" {
			continue
		}
		pf, ok := pt.FieldByName(f.Name)
		if !ok || pf.Type != f.Type {
			t.Errorf("Config.%s (%s) is not a PoolConfig field of that type", f.Name, f.Type)
			continue
		}
		shared = append(shared, f.Name)
		v := cv.Field(i)
		switch v.Kind() { // any value that is not zero
		case reflect.String:
			v.SetString("x")
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int64:
			v.SetInt(7)
		case reflect.Struct:
			v.Field(0).SetInt(7)
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		case reflect.Interface:
			v.Set(reflect.ValueOf(auth.NewMemoryStore()))
		default:
			t.Fatalf("Config.%s: no test value for a %s", f.Name, f.Type)
		}
	}
	pc := reflect.ValueOf(partner.ConfigPool(cfg))
	for _, name := range shared {
		if !pc.FieldByName(name).Equal(cv.FieldByName(name)) {
			t.Errorf("NewClient does not read Config.%s", name)
		}
	}
	if len(shared) < 15 {
		t.Fatalf("only %d shared settings: is the walk broken?", len(shared))
	}
}

// TestMisconfigurationOnFixedEndpoints: a 404 without a code from an
// endpoint that always exists (no id in its path) means the URL is wrong:
// ErrConfiguration naming BaseURL, for Me (the access token, no mint) as
// for the calls that mint first. A 404 for a record by id stays a plain
// *APIError: the record may be gone.
func TestMisconfigurationOnFixedEndpoints(t *testing.T) {
	notHere := reply{status: http.StatusNotFound, ctype: "text/plain", body: "404 page not found\n"}
	t.Run("Me", func(t *testing.T) {
		s := newScript()
		s.then(epMe, notHere)
		_, err := s.client(t, s.config()).Me(t.Context())
		if !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "Config.BaseURL") {
			t.Fatalf("err = %v, want ErrConfiguration naming Config.BaseURL", err)
		}
	})
	t.Run("Organizations.List", func(t *testing.T) {
		s := newScript()
		s.then(epOrgs, notHere)
		_, err := s.client(t, s.config()).Organizations.List(t.Context())
		if !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "Config.BaseURL") {
			t.Fatalf("err = %v, want ErrConfiguration naming Config.BaseURL", err)
		}
	})
	t.Run("Projects.Get of a missing id", func(t *testing.T) {
		s := newScript()
		s.then(epGet, notHere)
		_, err := s.client(t, s.config()).Projects.Get(t.Context(), "gone")
		var ae *partner.APIError
		if !errors.As(err, &ae) || ae.StatusCode != http.StatusNotFound || errors.Is(err, partner.ErrConfiguration) {
			t.Fatalf("err = %v, want a plain 404 *APIError", err)
		}
	})
}

// TestWrongMCPURL: an MCP URL that is not the MCP endpoint (no /mcp path,
// the REST host, a wrong prefix) is ErrConfiguration naming the setting
// and the path tried, on the first tool call.
func TestWrongMCPURL(t *testing.T) {
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	g := srv.NewGrant()
	mcpOrigin := strings.TrimSuffix(srv.MCPURL, "/mcp")
	for name, tc := range map[string]struct{ translations, content string }{
		"no /mcp path":     {mcpOrigin, ""},
		"the REST host":    {srv.URL + "/mcp", ""},
		"a wrong prefix":   {mcpOrigin + "/v1/mcp", ""},
		"content, no path": {"", strings.TrimSuffix(srv.ContentMCPURL, "/mcp")},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := clientConfig(srv, g)
			cfg.MCPURL, cfg.ContentMCPURL = tc.translations, tc.content
			c, err := partner.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			server, setting, tried := partner.TranslationTools, "Config.MCPURL", tc.translations
			if tc.content != "" {
				server, setting, tried = partner.ContentTools, "Config.ContentMCPURL", tc.content
			}
			_, err = c.Tools.List(t.Context(), server)
			if !errors.Is(err, partner.ErrConfiguration) {
				t.Fatalf("err = %v, want ErrConfiguration", err)
			}
			u, _ := url.Parse(tried)
			path := cmp.Or(u.Path, "/")
			if msg := err.Error(); !strings.Contains(msg, setting) || !strings.Contains(msg, "POST "+path+":") {
				t.Errorf("err = %s, want %s and the path %q", msg, setting, path)
			}
		})
	}
}
