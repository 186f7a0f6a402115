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
	"github.com/locsvc/partner-go/projects"
)

// TestHeldPoolClientRecoversAfterReconnect: a *Client taken from a Pool
// before the user's reconnect works again once the application saved the
// new token, with no new Pool.Client call.
func TestHeldPoolClientRecoversAfterReconnect(t *testing.T) {
	r := newRig(t, onLoopback(), withPool(1, 10))
	srv, g, store, pool := r.srv, r.g, r.store, r.pool
	ctx := context.Background()

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
	r := newRig(t, onLoopback(), withPool(0, 2))
	srv, store, pool := r.srv, r.store, r.pool
	ctx := context.Background()
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

// TestWiderScopeSavedByTheApplicationIsTaken: the user consents again with
// a wider scope and the application saves the new refresh token to the
// Store with its own exchange. A call refused with missing_scope reads the
// Store once, takes the new token and is replayed once with it.
func TestWiderScopeSavedByTheApplicationIsTaken(t *testing.T) {
	r := newRig(t, onLoopback(), withPool(1, 10), withGrant(partnertest.WithScopes(partner.ScopeOrgRead, partner.ScopeProjectsRead)))
	srv, g, store, pool := r.srv, r.g, r.store, r.pool
	ctx := context.Background()
	c, err := pool.Client(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	create := func() error {
		_, err := c.Projects.Create(ctx, projects.NewProject{Name: "Web", Slug: "web", SourceLanguage: "en"})
		return err
	}
	if err := create(); !errors.Is(err, partner.ErrMissingScope) {
		t.Fatalf("before the new consent: %v, want ErrMissingScope", err)
	}
	wider := srv.Reconnect(g.ID, partnertest.WithScopes(partner.ScopeOrgRead, partner.ScopeProjectsRead, partner.ScopeProjectsWrite))
	store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: wider.RefreshToken})
	if err := create(); err != nil {
		t.Fatalf("after the application saved the wider grant: %v", err)
	}
	// The wider grant is kept: the next call goes out once (its slug is
	// taken now) and is not refused for its scope.
	before := len(srv.Requests())
	if _, err := c.Projects.Create(ctx, projects.NewProject{Name: "Web", Slug: "web", SourceLanguage: "en"}); errors.Is(err, partner.ErrMissingScope) {
		t.Fatalf("the wider grant was not kept: %v", err)
	}
	if n := len(srv.Requests()) - before; n != 1 {
		t.Errorf("%d requests for a call with the wider grant, want 1", n)
	}
}

// TestMissingScopeWithoutANewerTokenIsNotReplayed: when the Store holds
// nothing newer, a missing_scope answer comes back after one request.
func TestMissingScopeWithoutANewerTokenIsNotReplayed(t *testing.T) {
	r := newRig(t, onLoopback(), withPool(1, 10), withGrant(partnertest.WithScopes(partner.ScopeOrgRead, partner.ScopeProjectsRead)))
	srv, g := r.srv, r.g
	ctx := context.Background()
	c, err := r.pool.Client(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Organizations.List(ctx); err != nil { // tokens in place
		t.Fatal(err)
	}
	before := len(srv.Requests())
	_, err = c.Projects.Create(ctx, projects.NewProject{Name: "Web", Slug: "web", SourceLanguage: "en"})
	if !errors.Is(err, partner.ErrMissingScope) {
		t.Fatalf("err = %v, want ErrMissingScope", err)
	}
	if n := len(srv.Requests()) - before; n != 1 {
		t.Errorf("%d requests, want 1 (no replay without a newer token)", n)
	}
}
