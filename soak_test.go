package partner_test

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// chaos is a RoundTripper that makes 5% of requests fail with 503 and 1%
// lose their connection: GETs after the service answered, POSTs before
// they were sent.
type chaos struct {
	next http.RoundTripper
	mu   sync.Mutex
	rng  *rand.Rand
}

func (c *chaos) roll() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rng.Float64()
}

func (c *chaos) RoundTrip(req *http.Request) (*http.Response, error) {
	p := c.roll()
	switch {
	case p < 0.05:
		if req.Body != nil {
			req.Body.Close()
		}
		return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Header: http.Header{},
			Body: io.NopCloser(strings.NewReader(`{"error":"unavailable"}`)), Request: req}, nil
	case p < 0.06 && req.Method == http.MethodPost:
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	case p < 0.06:
		resp, err := c.next.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	}
	return c.next.RoundTrip(req)
}

// TestSoak runs 500 goroutines for 12 simulated hours through a Pool of 200
// grants, with faults, while 10% of the grants are revoked at random
// times. Every error must be explained by a fault or a revocation, a
// revoked grant must stop calling the service after its first final error,
// and each live grant's refreshes and mints must be within one of what
// its own call times require.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("soak test")
	}
	synctest.Test(t, func(t *testing.T) {
		const (
			grants     = 200
			goroutines = 500
			duration   = 12 * time.Hour
			revokeN    = grants / 10
		)
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithRequestLogLimit(1<<22))
		defer srv.Close()
		ctx := t.Context()
		store := auth.NewMemoryStore()
		gs := make([]partnertest.Grant, grants)
		for i := range gs {
			gs[i] = srv.NewGrant()
			store.Save(ctx, gs[i].ID, &oauth2.Token{RefreshToken: gs[i].RefreshToken})
		}
		hc := srv.Client()
		hc.Transport = &chaos{next: hc.Transport, rng: rand.New(rand.NewPCG(1, 2))}
		pool, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing,
			BaseURL: srv.URL, AuthURL: srv.AuthURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			Store: store, HTTPClient: hc,
		})
		if err != nil {
			t.Fatal(err)
		}

		// Revoke 10% of the grants at random times.
		rng := rand.New(rand.NewPCG(3, 4))
		revokedAt := map[string]bool{}
		var revokers sync.WaitGroup
		for _, i := range rng.Perm(grants)[:revokeN] {
			id := gs[i].ID
			revokedAt[id] = true
			at := time.Duration(rng.Int64N(int64(duration)))
			revokers.Go(func() {
				time.Sleep(at)
				srv.Revoke(id)
			})
		}

		var mu sync.Mutex
		var unexpected []error
		finalAt := map[string]int{} // requests the service had seen for a grant at its first final error
		var wg sync.WaitGroup
		start := time.Now()
		for w := range goroutines {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(w), 5))
				for time.Since(start) < duration {
					time.Sleep(5*time.Minute + time.Duration(r.Int64N(int64(10*time.Minute))))
					g := gs[r.IntN(grants)]
					c, err := pool.Client(ctx, g.ID)
					if err == nil {
						if r.IntN(2) == 0 {
							_, err = c.Organizations.List(ctx)
						} else {
							_, err = c.Projects.List(ctx, g.Organizations[0].ID)
						}
					}
					mu.Lock()
					switch {
					case err == nil:
					case errors.Is(err, partner.ErrReauthorizationRequired) && revokedAt[g.ID]:
						if _, ok := finalAt[g.ID]; !ok {
							finalAt[g.ID] = requestsOf(srv, g.ID)
						}
					case errors.Is(err, partner.ErrTemporary):
						// an injected fault outlasted the retries, or a
						// POST whose connection dropped was not resent
					default:
						unexpected = append(unexpected, fmt.Errorf("grant %s: %w", g.ID, err))
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		revokers.Wait()

		counts := srv.Counts()
		t.Logf("%d requests, %d refreshes, %d mints; %d of %d revoked grants hit a final error",
			len(srv.Requests()), counts.Refreshes, counts.Mints, len(finalAt), revokeN)
		for _, err := range unexpected {
			t.Error("unexpected:", err)
		}
		for id, n := range finalAt {
			if now := requestsOf(srv, id); now != n {
				t.Errorf("revoked grant %s: %d requests after its first final error", id, now-n)
			}
		}
		checkTokenCounts(t, srv, gs, revokedAt)
	})
}

// checkTokenCounts compares each live grant's refreshes and mints with
// what an ideal client needs for that grant's own request times: a mint
// when no installation token has more than 5 minutes and a tenth of the
// 55 before left (it is minted ahead), a refresh when minting and no
// access token has more than 60 s and a tenth of the 29 minutes before.
func checkTokenCounts(t *testing.T, srv *partnertest.Server, gs []partnertest.Grant, revoked map[string]bool) {
	t.Helper()
	byGrant := map[string][]partnertest.Request{}
	for _, r := range srv.Requests() {
		byGrant[r.GrantID] = append(byGrant[r.GrantID], r)
	}
	for _, g := range gs {
		if revoked[g.ID] {
			continue
		}
		var wantMints, wantRefreshes int
		var mintExp, accessExp time.Time
		for _, r := range byGrant[g.ID] {
			if r.Token != partnertest.TokenInstallation || r.Fault {
				continue
			}
			// The margins, 5 minutes and 60 seconds, and the tenth of
			// the time before them (not the SDK's constants, which
			// this checks).
			if r.Time.Add(5*time.Minute + (partnertest.InstallationTokenLifetime-5*time.Minute)/10).Before(mintExp) {
				continue
			}
			wantMints++
			mintExp = r.Time.Add(partnertest.InstallationTokenLifetime)
			if !r.Time.Add(60*time.Second + (partnertest.AccessTokenLifetime-60*time.Second)/10).Before(accessExp) {
				wantRefreshes++
				accessExp = r.Time.Add(partnertest.AccessTokenLifetime)
			}
		}
		got := srv.GrantCounts(g.ID)
		if d := got.Mints - wantMints; d < -1 || d > 1 {
			t.Errorf("grant %s: %d mints, its calls needed %d", g.ID, got.Mints, wantMints)
		}
		if d := got.Refreshes - wantRefreshes; d < -1 || d > 1 {
			t.Errorf("grant %s: %d refreshes, its calls needed %d", g.ID, got.Refreshes, wantRefreshes)
		}
	}
}
