package partner_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/jarcoal/httpmock"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestPoolManyGrants: 1,000 grants with 10 concurrent calls each through
// one Pool make exactly one refresh and one mint per grant.
func TestPoolManyGrants(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(1000, 0))
		srv, pool, _, grants := r.srv, r.pool, r.store, r.grants
		var wg sync.WaitGroup
		errs := make(chan error, 10*len(grants))
		for _, g := range grants {
			for range 10 {
				wg.Go(func() {
					c, err := pool.Client(t.Context(), g.ID)
					if err == nil {
						_, err = c.Organizations.List(t.Context())
					}
					if err != nil {
						errs <- fmt.Errorf("grant %s: %w", g.ID, err)
					}
				})
			}
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		if got := srv.Counts(); got.Refreshes != len(grants) || got.Mints != len(grants) {
			t.Errorf("refreshes, mints = %d, %d; want %d each", got.Refreshes, got.Mints, len(grants))
		}
		if pool.Len() != len(grants) {
			t.Errorf("pool holds %d clients, want %d", pool.Len(), len(grants))
		}
	})
}

// TestPoolRevokedGrant: a revoked grant makes no request after its first
// final error, through the same client or a new Pool.Client call.
func TestPoolRevokedGrant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(2, 0))
		srv, pool, _, grants := r.srv, r.pool, r.store, r.grants
		g, other := grants[0], grants[1]
		c, err := pool.Client(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		srv.Revoke(g.ID)
		_, err = c.Organizations.List(t.Context())
		if !errors.Is(err, partner.ErrGrantRevoked) {
			t.Fatalf("after revocation: %v, want ErrGrantRevoked", err)
		}
		before := requestsOf(srv, g.ID)
		for range 5 {
			if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Errorf("call after revocation: %v", err)
			}
			if _, err := pool.Client(t.Context(), g.ID); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Errorf("Pool.Client after revocation: %v", err)
			}
		}
		if after := requestsOf(srv, g.ID); after != before {
			t.Errorf("the revoked grant sent %d more requests", after-before)
		}
		// Other grants are not affected.
		oc, err := pool.Client(t.Context(), other.ID)
		if err == nil {
			_, err = oc.Organizations.List(t.Context())
		}
		if err != nil {
			t.Errorf("another grant: %v", err)
		}
	})
}

func requestsOf(srv *partnertest.Server, grantID string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.GrantID == grantID {
			n++
		}
	}
	return n
}

// TestPoolEviction: past MaxClients the least recently used grant is
// dropped; asked for again, it is rebuilt from the Store, whose access
// token and shared installation token are still good, so nothing is
// refreshed or minted.
func TestPoolEviction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(3, 2))
		srv, pool, _, grants := r.srv, r.pool, r.store, r.grants
		first := map[string]*partner.Client{}
		for _, g := range grants {
			c, err := pool.Client(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatal(err)
			}
			first[g.ID] = c
		}
		if pool.Len() != 2 {
			t.Fatalf("pool holds %d clients, want 2", pool.Len())
		}
		g := grants[0] // the least recently used: evicted
		c, err := pool.Client(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if c == first[g.ID] {
			t.Fatal("the evicted grant's client came back: it was not evicted")
		}
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatalf("rebuilt client: %v", err)
		}
		if got := srv.GrantCounts(g.ID); got.Refreshes != 1 || got.Mints != 1 {
			t.Errorf("rebuilt grant: refreshes, mints = %d, %d; want 1, 1", got.Refreshes, got.Mints)
		}
		if again, _ := pool.Client(t.Context(), grants[2].ID); again != first[grants[2].ID] {
			t.Error("a recently used grant was evicted")
		}
	})
}

// TestPoolEvictedRevokedGrant: a revoked grant that was evicted is not
// asked about again when rebuilt, and works once the Store holds the token
// of a new authorization.
func TestPoolEvictedRevokedGrant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(2, 1))
		srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
		ctx := t.Context()
		g := grants[0]
		srv.Revoke(g.ID)
		c, _ := pool.Client(ctx, g.ID)
		if _, err := c.Me(ctx); !errors.Is(err, partner.ErrInvalidGrant) {
			t.Fatalf("Me: %v, want ErrInvalidGrant", err)
		}
		pool.Client(ctx, grants[1].ID) // evicts g
		refreshes := tokenRequests(srv)
		if _, err := pool.Client(ctx, g.ID); !errors.Is(err, partner.ErrInvalidGrant) {
			t.Errorf("rebuilt revoked grant: %v, want ErrInvalidGrant", err)
		}
		if tokenRequests(srv) != refreshes {
			t.Error("the rebuilt revoked grant asked the token endpoint again")
		}

		// The user connects again; the application stores the new token.
		g = srv.Reconnect(g.ID)
		store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		c, err := pool.Client(ctx, g.ID)
		if err != nil {
			t.Fatalf("after a new token was stored: %v", err)
		}
		if _, err := c.Me(ctx); err != nil {
			t.Errorf("Me with the new token: %v", err)
		}
	})
}

// tokenRequests counts the requests the token endpoint received.
func tokenRequests(srv *partnertest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Host == partnertest.HostAuth && r.Path == partnertest.TokenPath {
			n++
		}
	}
	return n
}

// TestPoolNeverResendsFailedRefreshToken: a failed grant rebuilt after
// eviction, asked for again, does not revive with the very refresh token
// that failed.
func TestPoolNeverResendsFailedRefreshToken(t *testing.T) {
	s := newScript()
	s.handle(epToken, func(*http.Request) reply { return errReply(400, "invalid_grant") })
	st := auth.NewMemoryStore()
	st.Save(t.Context(), "g1", &oauth2.Token{RefreshToken: "rt-dead"})
	p, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing, BaseURL: baseURL, AuthURL: authURL,
		ClientID: clientID, ClientSecret: clientSecret, Store: st, HTTPClient: &http.Client{Transport: s}, MaxClients: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	c, _ := p.Client(ctx, "g1")
	if _, err := c.Me(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatal(err)
	}
	p.Client(ctx, "g2") // evicts g1, remembered as failed with rt-dead
	if _, err := p.Client(ctx, "g1"); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatalf("first: %v", err) // correct
	}
	c, err = p.Client(ctx, "g1") // cached entry; revive must not use the store's rt-dead
	if err == nil {
		c.Me(ctx)
	}
	if n := s.n(epToken); n != 1 {
		t.Fatalf("token endpoint called %d times with the refused refresh token (want 1)", n)
	}
}

// TestPoolForget and bad input.
func TestPoolForgetAndBadInput(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(1, 0))
		_, pool, _, grants := r.srv, r.pool, r.store, r.grants
		c1, _ := pool.Client(t.Context(), grants[0].ID)
		pool.Forget(grants[0].ID)
		if pool.Len() != 0 {
			t.Errorf("Len after Forget = %d", pool.Len())
		}
		if c2, _ := pool.Client(t.Context(), grants[0].ID); c2 == c1 {
			t.Error("Forget did not drop the client")
		}
		for _, id := range []string{"", "a/b", ".."} {
			if _, err := pool.Client(t.Context(), id); !errors.Is(err, partner.ErrInvalidArgument) {
				t.Errorf("Client(%q): %v, want ErrInvalidArgument", id, err)
			}
		}
		c, _ := pool.Client(t.Context(), "unknown-grant")
		if _, err := c.Me(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) || !errors.Is(err, auth.ErrNoToken) {
			t.Errorf("a grant the Store does not know: %v", err)
		}
	})
	if _, err := partner.NewPool(partner.PoolConfig{BaseURL: baseURL, AuthURL: authURL, ClientID: clientID, ClientSecret: clientSecret}); !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("NewPool without a Store: %v", err)
	}
}

// TestPoolReconnect: a Pool picks up the token of a new authorization
// from the Store, for a grant in memory and for one evicted meanwhile.
func TestPoolReconnect(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(2, 1))
		srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
		ctx := t.Context()
		g := grants[0]
		c, _ := pool.Client(ctx, g.ID)
		if _, err := c.Organizations.List(ctx); err != nil {
			t.Fatal(err)
		}
		srv.Revoke(g.ID)
		if _, err := c.Organizations.List(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("revoked: %v", err)
		}
		pool.Client(ctx, grants[1].ID) // evicts g
		if _, err := pool.Client(ctx, g.ID); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("evicted revoked grant: %v", err)
		}

		// The user connects again; the application saves the new token.
		g = srv.Reconnect(g.ID)
		store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		c, err := pool.Client(ctx, g.ID)
		if err == nil {
			_, err = c.Organizations.List(ctx)
		}
		if err != nil {
			t.Fatalf("after reconnecting: %v", err)
		}
	})
}

// TestPoolSaveFailure: against the fake service, a refresh whose Store.Save
// fails returns the store's error and does not use the token; the next call
// saves it first and uses it, without a second refresh.
func TestPoolSaveFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
		defer srv.Close()
		ctx := t.Context()
		g := srv.NewGrant()
		store := &flakyStore{MemoryStore: auth.NewMemoryStore()}
		store.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		pool, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing, BaseURL: srv.URL, AuthURL: srv.AuthURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(), Store: store, HTTPClient: srv.Client()})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := pool.Client(ctx, g.ID)
		store.fail = errors.New("database is down")
		if _, err := c.Organizations.List(ctx); !errors.Is(err, store.fail) {
			t.Fatalf("with Save failing: %v, want the store's error", err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%d requests; want only the refresh (the unsaved token unused)", n)
		}
		store.fail = nil
		if _, err := c.Organizations.List(ctx); err != nil {
			t.Fatalf("after the store recovered: %v", err)
		}
		if got := srv.GrantCounts(g.ID); got.Refreshes != 1 {
			t.Errorf("%d refreshes, want 1", got.Refreshes)
		}
		if tok, _ := store.Load(ctx, g.ID); tok.AccessToken == "" {
			t.Error("the refreshed token never reached the Store")
		}
	})
}

// TestPoolMemoryFollowsMaxClients: a Pool of 10 clients that touches
// 20,000 grants whose refresh is refused holds no more afterwards than
// after 2,000: what it keeps follows MaxClients (and the clients callers
// hold), not every grant it ever served. The failed set stays within
// MaxClients and still answers for the grants it remembers without a
// request; a failed grant forgotten past that bound costs one refused
// refresh when it is used again.
func TestPoolMemoryFollowsMaxClients(t *testing.T) {
	const max = 10
	// The token endpoint refuses every refresh; any other request fails.
	end := httpmock.NewMockTransport()
	end.RegisterResponder("POST", authURL+"/api/auth/mcp/token", httpmock.NewStringResponder(http.StatusBadRequest, `{"error":"invalid_grant"}`).
		HeaderSet(http.Header{"Content-Type": {"application/json"}}).SetContentLength())
	refreshes := func() int { return end.GetTotalCallCount() }
	pool, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing, BaseURL: baseURL, AuthURL: authURL,
		ClientID: clientID, ClientSecret: clientSecret, Store: derivedStore{}, HTTPClient: &http.Client{Transport: end},
		MaxClients: max})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	id := func(i int) string { return "g" + strconv.Itoa(i) }
	// Each batch's clients are held until it ends, as by that many
	// callers at once, so that every grant's bookkeeping exists at the
	// same time; then they are let go.
	touch := func(from, to int) {
		held := make([]*partner.Client, 0, to-from)
		for i := from; i < to; i++ {
			c, err := pool.Client(ctx, id(i))
			if err != nil {
				t.Fatalf("grant %d: %v", i, err)
			}
			if _, err := c.Me(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("grant %d: %v, want ErrReauthorizationRequired", i, err)
			}
			held = append(held, c)
		}
		runtime.KeepAlive(held)
	}
	touch(0, 2_000)
	small := settledHeap()
	touch(2_000, 20_000)
	const perGrant = 16 // bytes; a grant's client alone takes over 1 KiB
	if grew := int64(settledHeap()) - int64(small); grew >= 18_000*perGrant {
		t.Errorf("18,000 more grants grew the heap by %d bytes (%d per grant), want under %d per grant", grew, grew/18_000, perGrant)
	}
	if n := partner.PoolFailedLen(pool); n > max {
		t.Errorf("the pool remembers %d failed grants, want at most MaxClients (%d)", n, max)
	}

	// Evicted most recently, so still remembered: refused without a request.
	before := refreshes()
	if _, err := pool.Client(ctx, id(20_000-max-1)); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Errorf("a remembered failed grant: %v, want ErrReauthorizationRequired", err)
	}
	if n := refreshes() - before; n != 0 {
		t.Errorf("a remembered failed grant sent %d refreshes, want 0", n)
	}
	// Forgotten long ago: one refused refresh, then known gone again.
	c, err := pool.Client(ctx, id(0))
	if err == nil {
		_, err = c.Me(ctx)
	}
	if !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Errorf("a forgotten failed grant: %v, want ErrReauthorizationRequired", err)
	}
	if n := refreshes() - before; n != 1 {
		t.Errorf("a forgotten failed grant sent %d refreshes, want 1", n)
	}
}

// settledHeap returns the live heap once collections stop shrinking it:
// the runtime runs the cleanups of collected objects after a collection,
// on goroutines of its own, and what they let go goes with a later one.
func settledHeap() uint64 {
	h := heapBytes()
	for same, i := 0, 0; same < 5 && i < 100; i++ {
		runtime.Gosched()
		if n := heapBytes(); n < h {
			h, same = n, 0
		} else {
			same++
		}
	}
	return h
}

// derivedStore gives every grant a refresh token derived from its id and
// keeps nothing, so that it holds no memory per grant.
type derivedStore struct{}

func (derivedStore) Load(_ context.Context, grantID string) (*oauth2.Token, error) {
	return &oauth2.Token{RefreshToken: "rt-" + grantID}, nil
}

func (derivedStore) Save(context.Context, string, *oauth2.Token) error { return nil }
