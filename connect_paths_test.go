package partner_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestPoolAuthPaths: a token server that serves OAuth at other paths is a
// configuration change: with PoolConfig.AuthorizePath and TokenPath set,
// the consent, the exchange and every later refresh go there.
func TestPoolAuthPaths(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithRedirectURLs(callbackURL),
			partnertest.WithAuthPaths("/oauth2/authorize", "/oauth2/token"))
		t.Cleanup(srv.Close)
		cfg := connectConfig(srv, store)
		cfg.AuthorizePath, cfg.TokenPath = "/oauth2/authorize", "/oauth2/token"
		pool, err := partner.NewPool(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pool.Close() })

		raw := pool.AuthCodeURL("s")
		if u, _ := url.Parse(raw); u.Path != "/oauth2/authorize" {
			t.Errorf("AuthCodeURL %s, want the path /oauth2/authorize", u.Redacted())
		}
		v := oauth2.GenerateVerifier()
		grants, err := pool.Exchange(t.Context(), authorize(t, srv, pool.AuthCodeURL("s", oauth2.S256ChallengeOption(v))), oauth2.VerifierOption(v))
		if err != nil {
			t.Fatal(err)
		}
		c, err := pool.Client(t.Context(), grants[0].GrantID)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Hour) // the access token expired: the next call refreshes
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatalf("after the access token expired: %v", err)
		}
		if n := srv.GrantCounts(grants[0].GrantID).Refreshes; n != 1 {
			t.Errorf("%d refreshes at /oauth2/token, want 1", n)
		}
	})
}

// TestTokenPathNotFound: a token endpoint that is not where the SDK looks
// (404) is ErrConfiguration naming the TokenPath setting, for the exchange
// and for a refresh.
func TestTokenPathNotFound(t *testing.T) {
	r := newRig(t, connecting(auth.NewMemoryStore(), nil, partnertest.WithAuthPaths("/oauth2/authorize", "/oauth2/token")))
	srv, pool := r.srv, r.pool
	if _, err := pool.Exchange(t.Context(), "pt_code_1"); !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "PoolConfig.TokenPath") {
		t.Errorf("Exchange: %v, want ErrConfiguration naming PoolConfig.TokenPath", err)
	}

	g := srv.NewGrant()
	c, err := partner.NewClient(partner.Config{Pacing: noPacing, BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(), HTTPClient: srv.Client(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrConfiguration) || !strings.Contains(err.Error(), "Config.TokenPath") {
		t.Errorf("a refresh: %v, want ErrConfiguration naming Config.TokenPath", err)
	}
}

// TestAuthPathSettings: a path setting that is not a path is refused by
// NewPool and NewClient, naming it.
func TestAuthPathSettings(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	for _, bad := range []string{"oauth2/token", "/oauth2/token?x=1", "/oauth2/token#x", "/a/../token", "/o auth"} {
		cfg := connectConfig(srv, auth.NewMemoryStore())
		cfg.TokenPath = bad
		if _, err := partner.NewPool(cfg); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "PoolConfig.TokenPath") {
			t.Errorf("NewPool with TokenPath %q: %v, want ErrInvalidArgument naming it", bad, err)
		}
		cfg.TokenPath, cfg.AuthorizePath = "", bad
		if _, err := partner.NewPool(cfg); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "PoolConfig.AuthorizePath") {
			t.Errorf("NewPool with AuthorizePath %q: %v, want ErrInvalidArgument naming it", bad, err)
		}
		_, err := partner.NewClient(partner.Config{BaseURL: srv.URL, AuthURL: srv.AuthURL, TokenPath: bad,
			ClientID: "id", ClientSecret: "secret", GrantID: "g", Token: &oauth2.Token{RefreshToken: "rt"}})
		if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config.TokenPath") {
			t.Errorf("NewClient with TokenPath %q: %v, want ErrInvalidArgument naming it", bad, err)
		}
	}
}
