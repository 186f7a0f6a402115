package partner_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// The service may rotate the refresh token on every use; partnertest's
// WithRefreshRotation does, and revokes the whole grant when a retired
// refresh token comes back, as careful OAuth servers do. These tests hold
// the SDK to its promise: within one Pool, however its grants are held,
// no refresh token is sent twice.

// rotating gives newRig's server rotating refresh tokens.
var rotating = withServer(partnertest.WithRefreshRotation())

// errorLog collects the errors of many goroutines.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

// check fails the test with a summary of the errors: how many were
// ErrReauthorizationRequired, and the first few.
func (l *errorLog) check(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.errs) == 0 {
		return
	}
	reauth := 0
	for _, err := range l.errs {
		if errors.Is(err, partner.ErrReauthorizationRequired) {
			reauth++
		}
	}
	t.Errorf("%d calls failed, %d with ErrReauthorizationRequired; the first: %v", len(l.errs), reauth, errors.Join(l.errs[:min(3, len(l.errs))]...))
}

// checkRotation checks that the service revoked no grant for a reused
// refresh token and that the Store holds each grant's current refresh
// token.
func checkRotation(t *testing.T, srv *partnertest.Server, store auth.Store, grants []partnertest.Grant) {
	t.Helper()
	if c := srv.Counts(); c.ReusedRefreshTokens != 0 || c.ReuseRevocations != 0 {
		t.Errorf("%d refresh tokens sent again, %d grants revoked for it; want none", c.ReusedRefreshTokens, c.ReuseRevocations)
	}
	for _, g := range grants {
		sg, _ := srv.Grant(g.ID)
		st, err := store.Load(t.Context(), g.ID)
		switch {
		case err != nil:
			t.Errorf("grant %s: %v", g.ID, err)
		case sg.Revoked:
			t.Errorf("grant %s was revoked", g.ID)
		case st.RefreshToken != sg.RefreshToken:
			t.Errorf("grant %s: the Store does not hold the service's current refresh token", g.ID)
		}
	}
}

// TestPoolRotationEviction: a Pool keeping one client serves 50 grants to
// 200 goroutines for 6 hours, so that clients are evicted and rebuilt all
// the time, while 20 goroutines keep the client they took first and call
// it across every eviction. Access tokens live 30 minutes: every grant
// rotates its refresh token a dozen times. No refresh token is sent
// twice, no call fails, and the Store always has the newest token.
func TestPoolRotationEviction(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			nGrants  = 50
			workers  = 200
			holders  = 20
			duration = 6 * time.Hour
		)
		r := newRig(t, rotating, withPool(nGrants, 1))
		srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
		end := time.Now().Add(duration)
		var fails errorLog
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 42))
				var held *partner.Client
				if w < holders {
					var err error
					if held, err = pool.Client(t.Context(), grants[w%nGrants].ID); err != nil {
						fails.add(err)
						return
					}
				}
				for time.Now().Before(end) {
					c := held
					if c == nil {
						g := grants[r.IntN(nGrants)]
						var err error
						if c, err = pool.Client(t.Context(), g.ID); err != nil {
							fails.add(fmt.Errorf("Pool.Client(%s): %w", g.ID, err))
							time.Sleep(time.Minute)
							continue
						}
					}
					if _, err := c.Organizations.List(t.Context()); err != nil {
						fails.add(fmt.Errorf("grant %s: %w", c.GrantID(), err))
					}
					time.Sleep(time.Duration(1+r.IntN(20)) * time.Minute)
				}
			})
		}
		// Collect evicted clients nobody holds, so that their grants are
		// rebuilt from the Store as well as shared with held clients.
		wg.Go(func() {
			for time.Now().Before(end) {
				runtime.GC()
				time.Sleep(7 * time.Minute)
			}
		})
		wg.Wait()
		synctest.Wait()

		fails.check(t)
		checkRotation(t, srv, store, grants)
		if n := srv.Counts().Refreshes; n < nGrants*int(duration/time.Hour) {
			t.Errorf("only %d refreshes: the test did not make every grant rotate", n)
		}
	})
}

// TestClientSetTokenDuringRefresh: SetToken with the Store's newest token,
// as an application does after reading the Store, while other goroutines
// call and refresh: the token given is the one being refreshed, and the
// refresh's new token must not be lost, or the next refresh would send the
// retired one.
func TestClientSetTokenDuringRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const (
			nGrants  = 10
			callers  = 5
			duration = 6 * time.Hour
		)
		r := newRig(t, rotating, withPool(nGrants, 0))
		srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
		end := time.Now().Add(duration)
		var fails errorLog
		var wg sync.WaitGroup
		for _, g := range grants {
			c, err := pool.Client(t.Context(), g.ID)
			if err != nil {
				t.Fatal(err)
			}
			for range callers {
				wg.Go(func() {
					for time.Now().Before(end) {
						if _, err := c.Organizations.List(t.Context()); err != nil {
							fails.add(fmt.Errorf("grant %s: %w", g.ID, err))
						}
						time.Sleep(time.Minute)
					}
				})
			}
			wg.Go(func() {
				for time.Now().Before(end) {
					tok, err := store.Load(t.Context(), g.ID)
					if err != nil {
						fails.add(err)
						return
					}
					c.SetToken(tok)
					time.Sleep(time.Minute)
				}
			})
		}
		wg.Wait()
		synctest.Wait()

		fails.check(t)
		for _, g := range grants {
			c, err := pool.Client(t.Context(), g.ID)
			if err == nil {
				_, err = c.Organizations.List(t.Context())
			}
			if err != nil {
				t.Errorf("grant %s at the end: %v", g.ID, err)
			}
		}
		checkRotation(t, srv, store, grants)
	})
}

// TestClientSetTokenStale: SetToken with a token read from the Store
// before the client's last refresh (its refresh token retired by
// rotation) is ignored: the client keeps the newer token and never sends
// the retired one.
func TestClientSetTokenStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, rotating, withPool(1, 0))
		srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
		g := grants[0]
		stale, err := store.Load(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		c, err := pool.Client(t.Context(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Organizations.List(t.Context()); err != nil { // refreshes: the stored token is retired
			t.Fatal(err)
		}
		c.SetToken(stale)
		time.Sleep(2 * time.Hour) // the next call refreshes again
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Errorf("after SetToken with the retired token: %v", err)
		}
		checkRotation(t, srv, store, grants)
	})
}

// TestIndependentClientsReuseRefreshToken shows the limit of the
// guarantee, and why a Pool (or a Store that is an auth.Leaser) is the way
// to share a grant: two clients made by NewClient for the same grant on a
// plain Store share nothing. With rotation, the one that refreshes second
// sends the refresh token the first one retired, and the service revokes
// the grant. The same calls through one Pool are fine.
func TestIndependentClientsReuseRefreshToken(t *testing.T) {
	// sequence has two holders of one grant call, then call again once
	// their access tokens expired.
	sequence := func(t *testing.T, a, b *partner.Client) (errA, errB error) {
		for _, c := range []*partner.Client{a, b} {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(2 * time.Hour)
		_, errA = a.Organizations.List(t.Context())
		_, errB = b.Organizations.List(t.Context())
		return errA, errB
	}

	t.Run("two NewClient", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, rotating, withPool(1, 0))
			srv, _, store, grants := r.srv, r.pool, r.store, r.grants
			g := grants[0]
			cfg := clientConfig(srv, g)
			cfg.Token, cfg.Store = nil, plainStore{store} // both take the grant's token from one Store
			a, err := partner.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, err := partner.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			errA, errB := sequence(t, a, b)
			if errA != nil {
				t.Errorf("the first client to refresh: %v", errA)
			}
			if !errors.Is(errB, partner.ErrReauthorizationRequired) {
				t.Errorf("the second client to refresh: %v, want ErrReauthorizationRequired", errB)
			}
			if c := srv.Counts(); c.ReusedRefreshTokens != 1 || c.ReuseRevocations != 1 {
				t.Errorf("%d refresh tokens sent again, %d grants revoked; want 1 and 1", c.ReusedRefreshTokens, c.ReuseRevocations)
			}
			if sg, _ := srv.Grant(g.ID); !sg.Revoked {
				t.Error("the grant is not revoked")
			}
		})
	})
	t.Run("one Pool", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, rotating, withPool(1, 0))
			srv, pool, store, grants := r.srv, r.pool, r.store, r.grants
			a, err := pool.Client(t.Context(), grants[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			pool.Forget(grants[0].ID) // b is a new client for the grant, a is still held
			b, err := pool.Client(t.Context(), grants[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if a == b {
				t.Fatal("Pool.Client returned the forgotten client")
			}
			if errA, errB := sequence(t, a, b); errA != nil || errB != nil {
				t.Errorf("calls: %v, %v", errA, errB)
			}
			checkRotation(t, srv, store, grants)
		})
	})
}
