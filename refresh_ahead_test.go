package partner_test

// Refreshing ahead: a call that finds its token near its end goes on with
// it while the next one is obtained in the background.

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
)

// slowAuth makes the token endpoint and the mint take d each, as a slow
// authorization service would.
func slowAuth(srv *partnertest.Server, d time.Duration) {
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Delay: d, Times: -1})
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAPI, Method: http.MethodPost,
		Path: "/api/oauth-client/installations/*/tokens", Delay: d, Times: -1})
}

// latencies runs 8 goroutines calling Organizations.List once a second for
// 3 simulated hours, and returns each call's latency in call order.
func latencies(t *testing.T, c *partner.Client) []time.Duration {
	const (
		callers  = 8
		duration = 3 * time.Hour
	)
	var mu sync.Mutex
	var lat []time.Duration
	var wg sync.WaitGroup
	start := time.Now()
	for range callers {
		wg.Go(func() {
			for time.Since(start) < duration {
				t0 := time.Now()
				_, err := c.Organizations.List(t.Context())
				d := time.Since(t0)
				if err != nil {
					t.Errorf("at %v: %v", time.Since(start), err)
					return
				}
				mu.Lock()
				lat = append(lat, d)
				mu.Unlock()
				time.Sleep(time.Second - d)
			}
		})
	}
	wg.Wait()
	return lat
}

// percentiles describes the latencies: p50, p99 and the largest.
func percentiles(lat []time.Duration) (p50, p99, most time.Duration) {
	s := slices.Clone(lat)
	slices.Sort(s)
	return s[len(s)/2], s[len(s)*99/100], s[len(s)-1]
}

// TestNoCallWaitsForAToken: 8 goroutines call once a second for 3
// simulated hours while the token endpoint and the mint take 400 ms each.
// After the first calls (which wait for the first tokens), no call waits:
// each token is replaced in the background before it is due. The tokens
// are not replaced more often for it: at most one refresh per access
// token's lifetime and one mint per installation token's, plus the first.
// The same run with a quick authorization service is the baseline; both
// print the latencies.
func TestNoCallWaitsForAToken(t *testing.T) {
	for _, tc := range []struct {
		name string
		auth time.Duration
	}{{"quick auth", 0}, {"auth 400 ms", 400 * time.Millisecond}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t)
				srv, c, g := r.srv, r.c, r.g
				if tc.auth > 0 {
					slowAuth(srv, tc.auth)
				}
				lat := latencies(t, c)
				if err := c.Close(); err != nil {
					t.Fatal(err)
				}
				p50, p99, most := percentiles(lat)
				t.Logf("%d calls: p50 %v, p99 %v, max %v (fake time: only waits count)", len(lat), p50, p99, most)
				var waited []int
				for i, d := range lat[8:] { // after the first call of each goroutine
					if d > 0 {
						waited = append(waited, i+8)
					}
				}
				if len(waited) > 0 {
					t.Errorf("%d calls after the first waited for a token (calls %v)", len(waited), waited[:min(len(waited), 10)])
				}
				got := srv.GrantCounts(g.ID)
				const hours = 3
				if most := hours*int(time.Hour/partnertest.AccessTokenLifetime) + 1; got.Refreshes > most {
					t.Errorf("%d refreshes in %d hours, want at most %d", got.Refreshes, hours, most)
				}
				if most := hours*int(time.Hour/partnertest.InstallationTokenLifetime) + 1; got.Mints > most {
					t.Errorf("%d mints in %d hours, want at most %d", got.Mints, hours, most)
				}
			})
		})
	}
}

// TestRefreshAheadFailureKeepsTheToken: a refresh ahead that fails leaves
// the working token in use, and the next call tries again; when the
// answer is that the grant is gone, the grant stops at once.
func TestRefreshAheadFailureKeepsTheToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		ctx := t.Context()
		if _, err := c.Me(ctx); err != nil {
			t.Fatal(err)
		}
		// Into the last tenth of the access token's time before its
		// margin (174 s), 150 s before it; each refresh ahead, retries included, ends
		// within RefreshTimeout (30 s).
		time.Sleep(partnertest.AccessTokenLifetime - partner.AccessTokenEarlyRefresh - 150*time.Second)
		srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Status: http.StatusServiceUnavailable, Times: -1})
		for i := range 3 {
			if _, err := c.Me(ctx); err != nil {
				t.Fatalf("call %d with the token endpoint failing: %v, want the working token used", i, err)
			}
			time.Sleep(31 * time.Second)
		}
		tried := 0
		for _, r := range srv.Requests() {
			if r.Host == partnertest.HostAuth && r.Status == http.StatusServiceUnavailable {
				tried++
			}
		}
		if tried < 3 {
			t.Errorf("%d refresh attempts while the endpoint failed, want one or more per call", tried)
		}
		failed := srv.GrantCounts(g.ID).Refreshes
		srv.ClearFaults()
		if _, err := c.Me(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(31 * time.Second)
		if got := srv.GrantCounts(g.ID).Refreshes; got != failed+1 {
			t.Errorf("refreshes after the endpoint recovered: %d, want %d (the next call retried)", got, failed+1)
		}

		// The grant is revoked: the refresh ahead meets it and the
		// grant stops, though its access token would still work.
		time.Sleep(partnertest.AccessTokenLifetime - partner.AccessTokenEarlyRefresh - time.Minute)
		srv.Revoke(g.ID)
		_, _ = c.Me(ctx)
		time.Sleep(time.Second)
		if _, err := c.Me(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("after a refresh ahead met a revoked grant: %v, want ErrReauthorizationRequired", err)
		}
	})
}

// TestCloseWaitsForARefreshAhead: Client.Close and Pool.Close return only
// once the refresh ahead in flight ended (with its token saved), leaving
// no goroutine behind.
func TestCloseWaitsForARefreshAhead(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		slowAuth(srv, 5*time.Second)
		ctx := context.Background()
		if _, err := c.Me(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(partnertest.AccessTokenLifetime - partner.AccessTokenEarlyRefresh - time.Minute)
		before := srv.GrantCounts(g.ID).Refreshes
		t0 := time.Now()
		if _, err := c.Me(ctx); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d != 0 {
			t.Fatalf("a call in the window ahead waited %v", d)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(t0); d < 5*time.Second {
			t.Errorf("Close returned after %v, before the refresh in flight ended", d)
		}
		if got := srv.GrantCounts(g.ID).Refreshes; got != before+1 {
			t.Errorf("refreshes = %d, want %d", got, before+1)
		}
	})
}
