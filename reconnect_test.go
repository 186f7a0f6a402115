package partner_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

func newPoolOn(t *testing.T, srv *partnertest.Server, store auth.Store, max int) *partner.Pool {
	t.Helper()
	p, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing,
		BaseURL: srv.URL, AuthURL: srv.AuthURL, ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: store, HTTPClient: srv.Client(), MaxClients: max,
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHeldPoolClientRecoversAfterReconnect: a *Client taken from a Pool
// before the user's reconnect works again once the application saved the
// new token, with no new Pool.Client call.
func TestHeldPoolClientRecoversAfterReconnect(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	store := auth.NewMemoryStore()
	ctx := context.Background()
	store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
	pool := newPoolOn(t, srv, store, 10)

	c, err := pool.Client(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Organizations.List(ctx); err != nil {
		t.Fatal(err)
	}
	srv.Revoke(g.ID)
	if _, err := c.Organizations.List(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatalf("after revocation: %v", err)
	}
	before := len(srv.Requests())
	if _, err := c.Organizations.List(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatalf("still revoked: %v", err)
	}
	if n := len(srv.Requests()) - before; n != 0 {
		t.Fatalf("a gone grant reached the service: %d requests", n)
	}

	g2 := srv.Reconnect(g.ID)
	store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g2.RefreshToken})
	if _, err := c.Organizations.List(ctx); err != nil {
		t.Fatalf("held client after the reconnect: %v", err)
	}
}

// TestPoolFailedSetIsBounded: 300 revoked grants through a Pool of 2
// clients leave at most 2 remembered failures.
func TestPoolFailedSetIsBounded(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	store := auth.NewMemoryStore()
	ctx := context.Background()
	pool := newPoolOn(t, srv, store, 2)
	for range 300 {
		g := srv.NewGrant()
		store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		srv.Revoke(g.ID)
		c, err := pool.Client(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Organizations.List(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("revoked grant: %v", err)
		}
	}
	if n := partner.PoolFailedLen(pool); n > 2 {
		t.Fatalf("pool remembers %d failed grants, want at most MaxClients (2)", n)
	}
}

// nilStore answers Load with (nil, nil), which the Store contract reads as
// ErrNoToken.
type nilStore struct{ auth.MemoryStore }

func (*nilStore) Load(context.Context, string) (*oauth2.Token, error) { return nil, nil }

func TestStoreLoadNilNilIsNoToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		cfg := s.config()
		pool, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing, BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL, ClientID: cfg.ClientID,
			ClientSecret: cfg.ClientSecret, Store: &nilStore{}, HTTPClient: cfg.HTTPClient})
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // the second call takes the path of a stuck grant
			c, err := pool.Client(t.Context(), grantID)
			if err == nil {
				err = getProject(t.Context(), c)
			}
			if !errors.Is(err, auth.ErrNoToken) || !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("err = %v, want ErrNoToken as ErrReauthorizationRequired", err)
			}
		}
	})
}

// TestSetTokenMintsANewInstallationToken: after the user re-authorized
// (maybe with a wider scope), the client's next call uses a new
// installation token, not the one cached from before.
func TestSetTokenMintsANewInstallationToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		c := s.client(t, s.config())
		getProject(t.Context(), c)
		c.SetToken(&oauth2.Token{RefreshToken: "rt-after-reconnect"})
		getProject(t.Context(), c)
		var seen []string
		for _, r := range s.requests() {
			if strings.HasPrefix(r.Path, "/api/oauth-client/v1/projects/") {
				seen = append(seen, r.Auth)
			}
		}
		if len(seen) != 2 || seen[0] == seen[1] || s.n(epMint) != 2 {
			t.Fatalf("installation tokens used %q with %d mints; want two different, two mints", seen, s.n(epMint))
		}
	})
}
