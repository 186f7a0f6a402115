package partner_test

import (
	"bytes"
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

// TestFormattingHoldsNoSecret: every type that holds a secret formats
// without it, with any verb and with slog.
func TestFormattingHoldsNoSecret(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		cfg := s.config()
		c := s.client(t, cfg)
		if err := getProject(t.Context(), c); err != nil { // the client now holds every token
			t.Fatal(err)
		}
		store := auth.NewMemoryStore()
		store.Save(t.Context(), grantID, &oauth2.Token{AccessToken: "at-stored", RefreshToken: refreshTok})
		pc := partner.PoolConfig{BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL, ClientID: clientID, ClientSecret: clientSecret,
			Store: store, HTTPClient: cfg.HTTPClient}
		pool, _ := partner.NewPool(pc)
		pcl, _ := pool.Client(t.Context(), grantID)
		getProject(t.Context(), pcl)
		tok, err := c.Installations.CreateToken(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		secrets := append(s.secrets(), "at-stored")
		values := map[string]any{
			"Config": cfg, "*Config": &cfg, "PoolConfig": pc, "*Client": c, "*Pool": pool,
			"*auth.MemoryStore": store, "InstallationToken": *tok, "*InstallationToken": tok,
		}
		for name, v := range values {
			for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
				assertNoSecret(t, name+" "+verb+": "+fmt.Sprintf(verb, v), secrets)
			}
			var buf bytes.Buffer
			slog.New(slog.NewJSONHandler(&buf, nil)).Info("x", "v", v)
			assertNoSecret(t, name+" slog: "+buf.String(), secrets)
		}
	})
}

// TestTokenRequestRedirectRefused: a 307 or 308 from the token endpoint or
// the mint to another host is ErrConfiguration naming that host; the
// credentials never reach it.
func TestTokenRequestRedirectRefused(t *testing.T) {
	for _, tt := range []struct{ name, ep, setting string }{
		{"token endpoint", epToken, "AuthURL"},
		{"mint", epMint, "BaseURL"},
	} {
		for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			t.Run(fmt.Sprint(tt.name, status), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := newScript()
					s.then(tt.ep, reply{status: status, header: http.Header{"Location": {"https://evil.test:8443/steal?code=" + refreshTok}}})
					cfg := s.config()
					logs := debugLogs(&cfg)
					err := getProject(t.Context(), s.client(t, cfg))
					if !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "evil.test:8443") ||
						!strings.Contains(err.Error(), tt.setting) {
						t.Fatalf("err = %v, want ErrConfiguration naming evil.test:8443 and %s", err, tt.setting)
					}
					if strings.Contains(err.Error(), "steal") {
						t.Errorf("the Location's path or query is in the error: %v", err)
					}
					for _, r := range s.requests() {
						if strings.Contains(r.Host, "evil.test") {
							t.Errorf("a request reached the other host: %+v", r)
						}
					}
					assertNoSecret(t, err.Error(), s.secrets())
					assertNoSecret(t, logs.String(), s.secrets())
				})
			})
		}
	}
}

// TestSecretsInErrorBodies: an error body quoting any of the grant's
// tokens or the client secret, in any encoding a server may use, loses it.
func TestSecretsInErrorBodies(t *testing.T) {
	const slashSecret = "cs-S3cret/Value" // a client secret with a character JSON may escape
	for _, secret := range []string{refreshTok, "at-1", "svc_oat_1", slashSecret} {
		first := fmt.Sprintf("%02X", secret[0])
		forms := map[string]string{
			"json unicode": `\u00` + first + secret[1:],
			"base64":       base64.StdEncoding.EncodeToString([]byte(secret)),
			"base64url":    base64.RawURLEncoding.EncodeToString([]byte(secret)),
			"percent":      "%" + first + secret[1:],
		}
		if strings.Contains(secret, "/") {
			forms["json slash"] = strings.ReplaceAll(secret, "/", `\/`)
		}
		for name, form := range forms {
			t.Run(secret[:3]+" "+name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					s := newScript()
					s.then(epGet, reply{status: 400, body: fmt.Sprintf(`{"error":"invalid_request","message":"bad token %s"}`, form)})
					cfg := s.config()
					cfg.ClientSecret = slashSecret
					err := getProject(t.Context(), s.client(t, cfg))
					var ae *partner.APIError
					if !errors.As(err, &ae) {
						t.Fatalf("err = %v", err)
					}
					for what, text := range map[string]string{"error": err.Error(), "body": string(ae.Body), "message": ae.Message} {
						if strings.Contains(text, form) || strings.Contains(text, secret) {
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
		s := newScript()
		s.handle(epGet, func(*http.Request) reply {
			return reply{status: http.StatusFound, header: http.Header{"Location": {"https://elsewhere.test/p?access_token=at-1&refresh=" + refreshTok}}}
		})
		cfg := s.config()
		logs := debugLogs(&cfg)
		err := getProject(t.Context(), s.client(t, cfg))
		if err == nil {
			t.Fatal("want an error")
		}
		assertNoSecret(t, err.Error(), s.secrets())
		if strings.Contains(logs.String(), "access_token=") {
			t.Errorf("a URL query reached the logs:\n%s", logs)
		}
		assertNoSecret(t, logs.String(), s.secrets())
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
	cfg := partner.Config{BaseURL: baseURL, AuthURL: authURL, ClientID: clientID, ClientSecret: clientSecret,
		GrantID: grantID, Token: &oauth2.Token{RefreshToken: refreshTok}}
	if _, err := partner.NewClient(cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := partner.NewPool(partner.PoolConfig{BaseURL: baseURL, AuthURL: authURL, ClientID: clientID, ClientSecret: clientSecret,
		Store: auth.NewMemoryStore()}); err != nil {
		t.Fatal(err)
	}
}
