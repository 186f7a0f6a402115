package partner_test

// Pacing: a grant's requests stay under the service's rate limit.

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
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
