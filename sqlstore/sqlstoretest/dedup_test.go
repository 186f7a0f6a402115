package sqlstoretest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

func testDedup(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	d := s.Dedup()
	ctx := t.Context()
	claim := func(id, owner string, want webhook.ClaimState) {
		t.Helper()
		if got, err := d.Claim(ctx, id, owner, time.Minute); err != nil || got != want {
			t.Errorf("Claim(%s, %s) = %v, %v; want %v", id, owner, got, err, want)
		}
	}
	claim("a", "o1", webhook.Claimed)
	claim("a", "o2", webhook.InProgress)
	claim("a", "o1", webhook.InProgress) // an attempt claims once

	// Release leaves another owner's claim alone.
	if err := d.Release(ctx, "a", "o2"); err != nil {
		t.Fatal(err)
	}
	claim("a", "o3", webhook.InProgress)
	if err := d.Release(ctx, "a", "o1"); err != nil {
		t.Fatal(err)
	}
	claim("a", "o4", webhook.Claimed)

	// Done replaces the claim, whoever holds it; Release leaves it.
	if err := d.Done(ctx, "a", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := d.Release(ctx, "a", "o4"); err != nil {
		t.Fatal(err)
	}
	claim("a", "o5", webhook.Handled)
	// Done of an id never claimed marks it too.
	if err := d.Done(ctx, "b", time.Hour); err != nil {
		t.Fatal(err)
	}
	claim("b", "o1", webhook.Handled)
	claim("c", "o1", webhook.Claimed)

	if _, err := d.Claim(ctx, "x", "o", 0); !errors.Is(err, webhook.ErrInvalidOption) {
		t.Errorf("Claim with TTL 0 = %v, want ErrInvalidOption", err)
	}
	if _, err := d.Claim(ctx, "x", "", time.Minute); !errors.Is(err, webhook.ErrInvalidOption) {
		t.Errorf("Claim without an owner = %v, want ErrInvalidOption", err)
	}
	if err := d.Done(ctx, "x", -time.Second); !errors.Is(err, webhook.ErrInvalidOption) {
		t.Errorf("Done with a negative retention = %v, want ErrInvalidOption", err)
	}
}

// testDedupExpiry: a claim ends after its TTL, a done mark after its
// retention, and Purge deletes both.
func testDedupExpiry(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	d := s.Dedup()
	ctx := t.Context()
	if st, err := d.Claim(ctx, "crashed", "o1", 200*time.Millisecond); err != nil || st != webhook.Claimed {
		t.Fatal(st, err)
	}
	if err := d.Done(ctx, "old", 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := d.Done(ctx, "kept", time.Hour); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"crashed", "old"} {
		eventually(t, 30*time.Second, id+" claimable", func() bool {
			st, err := d.Claim(ctx, id, "o2", 200*time.Millisecond)
			if err != nil {
				t.Fatal(err)
			}
			return st == webhook.Claimed
		})
	}
	var purged int64
	eventually(t, 30*time.Second, "purged", func() bool {
		n, err := d.Purge(ctx)
		if err != nil {
			t.Fatal(err)
		}
		purged += n
		return purged == 2
	})
	if st, err := d.Claim(ctx, "kept", "o1", time.Minute); err != nil || st != webhook.Handled {
		t.Errorf("Claim of a live done mark after Purge = %v, %v; want handled", st, err)
	}
}

// claimRound has workers claim id at once, and counts the outcomes.
func claimRound(ctx context.Context, d webhook.DedupStore, id string, workers int) (map[webhook.ClaimState]int, error) {
	var (
		mu     sync.Mutex
		counts = map[webhook.ClaimState]int{}
		wg     sync.WaitGroup
		errs   = make([]error, workers)
	)
	for w := range workers {
		wg.Go(func() {
			st, err := d.Claim(ctx, id, fmt.Sprintf("owner-%d-%d", os.Getpid(), w), time.Minute)
			errs[w] = err
			mu.Lock()
			counts[st]++
			mu.Unlock()
		})
	}
	wg.Wait()
	return counts, errors.Join(errs...)
}

func testDedupConcurrent(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	for i := range 5 {
		counts, err := claimRound(t.Context(), s.Dedup(), fmt.Sprint("evt-", i), 20)
		if err != nil {
			t.Fatal(err)
		}
		if counts[webhook.Claimed] != 1 || counts[webhook.InProgress] != 19 {
			t.Errorf("event %d: %v; want 1 claimed and 19 in progress", i, counts)
		}
	}
}
