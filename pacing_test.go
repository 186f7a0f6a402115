package partner_test

// Pacing: a grant's requests stay under the service's rate limit.

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
	"golang.org/x/oauth2"
)

// rateCapped gives newRig's service its rate cap of 1,000 calls a minute.
var rateCapped = withServer(partnertest.WithRateLimit(1000), partnertest.WithRequestLogLimit(10_000))

// paced gives newRig's client pacing p, and Retry-After waits up to a
// minute.
func paced(p partner.Pacing) rigOption {
	return withConfig(func(cfg *partner.Config) { cfg.Pacing, cfg.RetryAfterMax = p, time.Minute })
}

// TestPacingKeepsUnderTheRateLimit: 5,000 calls of one grant against the
// service's cap of 1,000 a minute: the default pacing lets none be
// refused, and they take as long as the pace says.
func TestPacingKeepsUnderTheRateLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, rateCapped, paced(partner.Pacing{}))
		srv, c := r.srv, r.c
		const n = 5000
		start := time.Now()
		for i := range n {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
		elapsed := time.Since(start)
		if got := refused(srv); got != 0 {
			t.Errorf("%d requests were refused with 429", got)
		}
		// The burst goes at once, then one request every 60/900 s.
		want := time.Duration(n-partner.DefaultPacingBurst) * time.Minute / partner.DefaultPacingPerMinute
		if elapsed < want-time.Second || elapsed > want+time.Second {
			t.Errorf("5,000 calls took %v; the pace says %v", elapsed, want)
		}
	})
}

// refused counts the requests partnertest answered 429.
func refused(srv *partnertest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Status == http.StatusTooManyRequests {
			n++
		}
	}
	return n
}

// TestPacingOffMeets429s: with pacing off, the service's 429s come, and
// each is waited out per its Retry-After, so every call still succeeds.
func TestPacingOffMeets429s(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, rateCapped, paced(partner.Pacing{Off: true}))
		srv, c := r.srv, r.c
		for i := range 2500 {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatalf("call %d: %v", i, err)
			}
		}
		if refused(srv) == 0 {
			t.Error("no request was refused: the cap was not reached")
		}
	})
}

// TestPacingWaitEndsWithContext: a call waiting for its turn gives up when
// its context ends, with the context's error.
func TestPacingWaitEndsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := newRig(t, rateCapped, paced(partner.Pacing{PerMinute: 1, Burst: 1})).c
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		_, err := c.Organizations.List(ctx)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want context.DeadlineExceeded", err)
		}
	})
}

// TestPacingRefusesNegativeSettings: a negative rate or burst is a
// configuration mistake, named before any request.
func TestPacingRefusesNegativeSettings(t *testing.T) {
	for _, p := range []partner.Pacing{{PerMinute: -1}, {Burst: -1}} {
		cfg := partner.Config{BaseURL: baseURL, AuthURL: authURL, ClientID: clientID, ClientSecret: clientSecret,
			GrantID: grantID, Token: &oauth2.Token{RefreshToken: refreshTok}, Pacing: p}
		if _, err := partner.NewClient(cfg); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config.Pacing.") {
			t.Errorf("Pacing %+v: err = %v", p, err)
		}
	}
}

// notLimiter hides MemoryStore's RateLimiter: a Store that shares tokens
// but not pacing.
type notLimiter struct {
	auth.Leaser
	auth.InstallationCache
}

// burst runs 6 Pools on store (replicas), each with 8 goroutines calling
// one grant as fast as pacing lets them for 40 s, against the service's
// cap of 1,000 a minute; it returns the calls that succeeded, the calls
// that failed and the answers 429.
func burst(t *testing.T, share func(*auth.MemoryStore) auth.Store) (ok, failed, refusals int) {
	srv := partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithRateLimit(1000), partnertest.WithRequestLogLimit(50_000))
	defer srv.Close()
	g := srv.NewGrant()
	mem := auth.NewMemoryStore()
	if err := mem.Save(t.Context(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
		t.Fatal(err)
	}
	store := share(mem)
	var mu sync.Mutex
	var wg sync.WaitGroup
	start := time.Now()
	for range 6 {
		p, err := partner.NewPool(partner.PoolConfig{
			BaseURL: srv.URL, AuthURL: srv.AuthURL, ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			Store: store, HTTPClient: srv.Client(), RetryAfterMax: time.Minute,
		})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		for range 8 {
			wg.Go(func() {
				ctx, cancel := context.WithDeadline(t.Context(), start.Add(40*time.Second))
				defer cancel()
				for ctx.Err() == nil {
					c, err := p.Client(ctx, g.ID)
					if err == nil {
						_, err = c.Organizations.List(ctx)
					}
					if errors.Is(err, context.DeadlineExceeded) {
						return // the 40 s are up, or the next turn comes after them
					}
					mu.Lock()
					if err == nil {
						ok++
					} else {
						failed++
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	return ok, failed, refused(srv)
}

// TestPacingSharedByPools: 6 Pools sharing a MemoryStore (a RateLimiter)
// burst on one grant for 40 s: they take their turns from one limit, so
// the service refuses none and no call fails, and together they send at
// least 70% of what the pace allows (a burst of 50 and 900 a minute).
// Without the shared limit each Pool paces alone and the cap is passed.
func TestPacingSharedByPools(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ok, failed, refusals := burst(t, func(m *auth.MemoryStore) auth.Store { return m })
		allowed := partner.DefaultPacingBurst + partner.DefaultPacingPerMinute*40/60
		t.Logf("shared limit: %d calls in 40 s (the pace allows %d), %d failed, %d answers 429", ok, allowed, failed, refusals)
		if refusals != 0 || failed != 0 {
			t.Errorf("%d answers 429 and %d failed calls; want none", refusals, failed)
		}
		if ok < allowed*7/10 {
			t.Errorf("%d calls in 40 s; want at least 70%% of %d", ok, allowed)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		ok, _, refusals := burst(t, func(m *auth.MemoryStore) auth.Store { return notLimiter{m, m} })
		t.Logf("each Pool on its own: %d calls, %d answers 429", ok, refusals)
		if refusals == 0 {
			t.Error("no answer 429 with each Pool pacing alone: the test does not reach the cap")
		}
	})
}
