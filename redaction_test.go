package partner_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
)

// TestFormattingHoldsNoSecret: every type that holds a secret formats
// without it, with any verb and with slog.
func TestFormattingHoldsNoSecret(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSvc()
		cfg := s.config()
		c, _ := partner.NewClient(cfg)
		if err := getP1(t.Context(), c); err != nil { // the client now holds every token
			t.Fatal(err)
		}
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g1", &oauth2.Token{AccessToken: svcAccess, RefreshToken: svcRefresh})
		pc := partner.PoolConfig{BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL, ClientID: "cid", ClientSecret: svcClientSecret,
			Store: store, HTTPClient: cfg.HTTPClient}
		pool, _ := partner.NewPool(pc)
		pc2, _ := pool.Client(t.Context(), "g1")
		getP1(t.Context(), pc2)
		tok, err := c.Installations.CreateToken(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		values := map[string]any{
			"Config": cfg, "*Config": &cfg, "PoolConfig": pc, "*Client": c, "*Pool": pool,
			"*auth.MemoryStore": store, "InstallationToken": *tok, "*InstallationToken": tok,
		}
		for name, v := range values {
			for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
				noSecret(t, name+" "+verb, fmt.Sprintf(verb, v))
			}
			var buf bytes.Buffer
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "v", v)
			noSecret(t, name+" slog", buf.String())
		}
	})
}

// TestTokenRequestRedirectRefused: a 307 or 308 from the token endpoint or
// the mint to another host is ErrConfiguration naming that host; the
// credentials never reach it.
func TestTokenRequestRedirectRefused(t *testing.T) {
	for _, tt := range []struct{ name, key, setting string }{
		{"token endpoint", "POST auth.test /api/auth/mcp/token", "AuthURL"},
		{"mint", "POST api.test /api/oauth-client/installations/g1/tokens", "BaseURL"},
	} {
		for _, status := range []int{307, 308} {
			t.Run(fmt.Sprint(tt.name, status), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := newSvc()
					s.on(tt.key, func(w http.ResponseWriter, r *http.Request) {
						http.Redirect(w, r, "https://evil.test:8443/steal?code="+svcRefresh, status)
					})
					c, _ := partner.NewClient(s.config())
					err := getP1(t.Context(), c)
					if !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "evil.test:8443") ||
						!strings.Contains(err.Error(), tt.setting) {
						t.Fatalf("err = %v, want ErrConfiguration naming evil.test:8443 and %s", err, tt.setting)
					}
					if strings.Contains(err.Error(), "steal") {
						t.Errorf("the Location's path or query is in the error: %v", err)
					}
					for k := range s.hits {
						if strings.Contains(k, "evil.test") {
							t.Errorf("a request reached the other host: %s", k)
						}
					}
					noSecret(t, "error", err.Error())
					noSecret(t, "logs", s.logText())
				})
			})
		}
	}
}

// TestSecretsInErrorBodies: an error body quoting any of the grant's
// tokens or the client secret, in any encoding a server may use, loses it.
func TestSecretsInErrorBodies(t *testing.T) {
	for _, secret := range []string{svcRefresh, svcAccess, svcInstall + "1", svcClientSecret} {
		for name, form := range map[string]string{
			"json slash":   strings.ReplaceAll(secret, "/", `\/`),
			"json unicode": strings.ReplaceAll(secret, "-", `\u002d`),
			"base64":       base64.StdEncoding.EncodeToString([]byte(secret)),
			"base64url":    base64.RawURLEncoding.EncodeToString([]byte(secret)),
			"percent":      strings.ReplaceAll(secret, "-", "%2D"),
		} {
			t.Run(secret[:3]+" "+name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := newSvc()
					s.on("GET api.test /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
						w.Header().Set("Content-Type", "application/json")
						w.WriteHeader(400)
						fmt.Fprintf(w, `{"error":"invalid_request","message":"bad token %s"}`, form)
					})
					c, _ := partner.NewClient(s.config())
					err := getP1(t.Context(), c)
					var ae *partner.APIError
					if !errors.As(err, &ae) {
						t.Fatalf("err = %v", err)
					}
					for what, text := range map[string]string{"error": err.Error(), "body": string(ae.Body), "message": ae.Message} {
						if strings.Contains(text, form) {
							t.Errorf("%s keeps the %s form: %s", what, name, text)
						}
					}
				})
			})
		}
	}
}

// TestLocationTokenNeverLogged: a redirect whose Location carries a token
// in its query leaves no token in any log line.
func TestLocationTokenNeverLogged(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSvc()
		s.on("GET api.test /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "https://elsewhere.test/p?access_token="+svcAccess+"&refresh="+svcRefresh, http.StatusFound)
		})
		s.on("GET elsewhere.test /p", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
		c, _ := partner.NewClient(s.config())
		err := getP1(t.Context(), c)
		if err == nil {
			t.Fatal("want an error")
		}
		noSecret(t, "error", err.Error())
		if strings.Contains(s.logText(), "access_token=") {
			t.Errorf("a URL query reached the logs:\n%s", s.logText())
		}
		noSecret(t, "logs", s.logText())
	})
}

// wrapped is what tracing libraries put in http.DefaultTransport.
type wrapped struct{ http.RoundTripper }

// TestWrappedDefaultTransport: NewClient and NewPool work when
// http.DefaultTransport is not an *http.Transport. (It changes a global:
// not parallel.)
func TestWrappedDefaultTransport(t *testing.T) {
	old := http.DefaultTransport
	http.DefaultTransport = wrapped{old}
	t.Cleanup(func() { http.DefaultTransport = old })
	cfg := partner.Config{BaseURL: "https://api.test", AuthURL: "https://auth.test", ClientID: "c", ClientSecret: "s",
		GrantID: "g", Token: &oauth2.Token{RefreshToken: "r"}}
	if _, err := partner.NewClient(cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := partner.NewPool(partner.PoolConfig{BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL, ClientID: "c", ClientSecret: "s",
		Store: auth.NewMemoryStore()}); err != nil {
		t.Fatal(err)
	}
	_ = context.Background
}
