package redisstore_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locsvc/partner-go/redisstore"
	"github.com/locsvc/partner-go/webhook"
)

// dedupStores are the Redis Dedup and webhook's MemoryDedup, the reference
// it must behave like.
func dedupStores(t *testing.T) map[string]webhook.DedupStore {
	return map[string]webhook.DedupStore{
		"redis":  redisstore.NewDedup(newClient(t)),
		"memory": webhook.NewMemoryDedup(0),
	}
}

func TestDedupClaimDoneRelease(t *testing.T) {
	for name, d := range dedupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			id := grantID(t, "event")
			claim := func(owner string, want webhook.ClaimState) {
				t.Helper()
				if st, err := d.Claim(ctx, id, owner, time.Minute); err != nil || st != want {
					t.Fatalf("Claim(%s) = %v, %v; want %v", owner, st, err, want)
				}
			}
			claim("a", webhook.Claimed)
			claim("b", webhook.InProgress)
			claim("a", webhook.InProgress) // a claim is one attempt's, once
			if err := d.Release(ctx, id, "b"); err != nil {
				t.Fatal(err)
			}
			claim("c", webhook.InProgress) // b's release left a's claim alone
			if err := d.Release(ctx, id, "a"); err != nil {
				t.Fatal(err)
			}
			claim("c", webhook.Claimed) // released: the redelivery runs at once
			if err := d.Done(ctx, id, time.Hour); err != nil {
				t.Fatal(err)
			}
			claim("d", webhook.Handled)
			if err := d.Release(ctx, id, "c"); err != nil {
				t.Fatal(err)
			}
			claim("d", webhook.Handled) // a release leaves the done mark alone
		})
	}
}

func TestDedupClaimExpiresAfterItsTTL(t *testing.T) {
	ctx := t.Context()
	d := redisstore.NewDedup(newClient(t))
	id := grantID(t, "event")
	if st, err := d.Claim(ctx, id, "crashed", 100*time.Millisecond); err != nil || st != webhook.Claimed {
		t.Fatal(st, err)
	}
	eventually(t, 5*time.Second, func() bool {
		st, err := d.Claim(ctx, id, "retry", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return st == webhook.Claimed
	})
	if err := d.Done(ctx, id, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, func() bool { // retention over: forgotten
		st, _ := d.Claim(ctx, id, "late", time.Minute)
		return st == webhook.Claimed
	})
}

func TestDedupRejectsBadArguments(t *testing.T) {
	for name, d := range dedupStores(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			if _, err := d.Claim(ctx, "id", "", time.Minute); !errors.Is(err, webhook.ErrInvalidOption) {
				t.Errorf("Claim with no owner: %v, want ErrInvalidOption", err)
			}
			if _, err := d.Claim(ctx, "id", "o", 0); !errors.Is(err, webhook.ErrInvalidOption) {
				t.Errorf("Claim with no TTL: %v, want ErrInvalidOption", err)
			}
			if err := d.Done(ctx, "id", -time.Second); !errors.Is(err, webhook.ErrInvalidOption) {
				t.Errorf("Done with a negative retention: %v, want ErrInvalidOption", err)
			}
		})
	}
}

func TestDedupConcurrentClaimsRunOnce(t *testing.T) {
	ctx := t.Context()
	d := redisstore.NewDedup(newClient(t))
	id := grantID(t, "event")
	var claimed atomic.Int32
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			st, err := d.Claim(ctx, id, string(rune('a'+i)), time.Minute)
			if err != nil {
				t.Error(err)
			}
			if st == webhook.Claimed {
				claimed.Add(1)
			}
		})
	}
	wg.Wait()
	if n := claimed.Load(); n != 1 {
		t.Fatalf("%d claims succeeded, want 1", n)
	}
}
