package otel_test

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestRefreshAndMintAreCounted: a client's first call refreshes the
// access token and mints an installation token, each counted and each an
// event on the span of the call that waited for it.
func TestRefreshAndMintAreCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		for _, kind := range []string{"refresh", "mint", "wait"} {
			if n := r.sum(t, "partner.token.operations", attribute.String("partner.token.kind", kind), attribute.String("partner.outcome", "ok")); n < 1 {
				t.Errorf("partner.token.operations{%s, ok} = %d, want at least 1", kind, n)
			}
		}
		// The mint is a call of its own, under the call that waited for it.
		call, mint := r.span(t, "Organizations.List"), r.span(t, "Installations.Mint")
		if mint.Parent.SpanID() != call.SpanContext.SpanID() {
			t.Error("the mint's span is not a child of the call that caused it")
		}
		if len(call.Events) == 0 || call.Events[len(call.Events)-1].Name != "partner.token.wait" {
			t.Errorf("the call's span events are %v, want a partner.token.wait last", call.Events)
		}
	})
}

// TestRefreshAheadIsCounted: a call in a token's window before expiry
// uses it and starts its replacement ahead, counted with
// partner.token.ahead.
func TestRefreshAheadIsCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, partnertest.WithTokenLifetimes(time.Hour, time.Hour))
		c := r.client(t)
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		// 50 minutes on, the installation token is in its window ahead of
		// expiry (its 5-minute margin and a tenth of the rest).
		time.Sleep(50 * time.Minute)
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		// 55 minutes on, the access token is (a minute's margin and a
		// tenth of the rest), and Me uses it.
		time.Sleep(5 * time.Minute)
		if _, err := c.Me(t.Context()); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		for _, kind := range []string{"refresh", "mint"} {
			if n := r.sum(t, "partner.token.operations", attribute.String("partner.token.kind", kind), attribute.Bool("partner.token.ahead", true)); n != 1 {
				t.Errorf("partner.token.operations{%s, ahead} = %d, want 1", kind, n)
			}
		}
	})
}

// TestLeaseHeldElsewhereIsCounted: with a shared Store, a refresh that
// finds another holder's lease waits, counted as held, then takes it.
func TestLeaseHeldElsewhereIsCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		store := auth.NewMemoryStore()
		if err := store.Save(ctx, r.g.ID, &oauth2.Token{RefreshToken: r.g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
		lease, _, err := store.AcquireLease(ctx, r.g.ID, auth.KindAccess, time.Hour, time.Minute)
		if err != nil || lease == nil {
			t.Fatalf("AcquireLease = %v, %v", lease, err)
		}
		c := r.client(t, func(cfg *partner.Config) { cfg.Store, cfg.Token = store, nil })
		done := make(chan error)
		go func() {
			_, err := c.Organizations.List(context.Background())
			done <- err
		}()
		synctest.Wait() // the client waits for the lease
		if n := r.sum(t, "partner.lease.outcomes", attribute.String("partner.lease.kind", "access"), attribute.String("partner.lease.outcome", "held")); n < 1 {
			t.Errorf("partner.lease.outcomes{access, held} = %d, want at least 1", n)
		}
		if err := store.AbandonLease(ctx, lease); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if n := r.sum(t, "partner.lease.outcomes", attribute.String("partner.lease.kind", "access"), attribute.String("partner.lease.outcome", "acquired")); n != 1 {
			t.Errorf("partner.lease.outcomes{access, acquired} = %d, want 1", n)
		}
	})
}

// TestPacingWaitIsRecorded: a call that waits for its turn under Pacing
// records the wait.
func TestPacingWaitIsRecorded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t, func(cfg *partner.Config) { cfg.Pacing = partner.Pacing{PerMinute: 60, Burst: 1} })
		for range 2 {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		count, largest := r.histogram(t, "partner.pacing.wait", attribute.Bool("partner.pacing.shared", false))
		if count != 2 || largest != 1 {
			t.Errorf("partner.pacing.wait: %d waits, the longest %v s; want 2, the longest 1 s (60 a minute)", count, largest)
		}
	})
}
