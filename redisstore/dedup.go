package redisstore

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locsvc/partner-go/webhook"
)

// Dedup is a webhook.DedupStore in Redis, shared by every instance of a
// webhook receiver: a redelivered event that lands on another instance is
// not processed again.
//
// Each event id has one key, partner:webhook:<id>, holding "c:<owner>"
// while an attempt has claimed it (PX = the processing TTL) or "d" once it
// was handled (PX = the retention). Claim is one script (SET NX PX, or GET
// to tell a claim from a done mark), Done a plain SET with PX, Release a
// compare-and-delete script, so a claim is released only by its owner.
// Expiry is by Redis's clock.
//
// A Dedup is safe for concurrent use. The zero value is not usable: call
// NewDedup.
type Dedup struct {
	rdb redis.UniversalClient
}

var _ webhook.DedupStore = (*Dedup)(nil)

// NewDedup returns a webhook.DedupStore that keeps its claims and done
// marks in rdb.
func NewDedup(rdb redis.UniversalClient) *Dedup {
	return &Dedup{rdb: rdb}
}

// The values of an event's key.
const (
	claimPrefix = "c:" // then the owner
	doneMark    = "d"
)

// dedupKey is the key of an event id.
func dedupKey(id string) string { return "partner:webhook:" + id }

// Claim implements webhook.DedupStore. Like webhook.MemoryDedup, it fails
// for a ttl under a millisecond or an empty owner (webhook.ErrInvalidOption).
func (d *Dedup) Claim(ctx context.Context, id, owner string, ttl time.Duration) (webhook.ClaimState, error) {
	if ttl < time.Millisecond || owner == "" {
		return 0, fmt.Errorf("%w: Claim needs a TTL of at least 1ms (got %v) and an owner", webhook.ErrInvalidOption, ttl)
	}
	n, err := claimScript.Run(ctx, d.rdb, []string{dedupKey(id)}, claimPrefix+owner, ttl.Milliseconds(), doneMark).Int()
	if err != nil {
		return 0, fmt.Errorf("redisstore: claiming webhook event %q: %w", id, err)
	}
	st := webhook.ClaimState(n)
	if st != webhook.Claimed && st != webhook.InProgress && st != webhook.Handled {
		return 0, fmt.Errorf("redisstore: claiming webhook event %q: unexpected reply %d", id, n)
	}
	return st, nil
}

// Done implements webhook.DedupStore. It fails for a retention under a
// millisecond (webhook.ErrInvalidOption).
func (d *Dedup) Done(ctx context.Context, id string, retention time.Duration) error {
	if retention < time.Millisecond {
		return fmt.Errorf("%w: Done needs a retention of at least 1ms (got %v)", webhook.ErrInvalidOption, retention)
	}
	if err := d.rdb.Set(ctx, dedupKey(id), doneMark, retention).Err(); err != nil {
		return fmt.Errorf("redisstore: marking webhook event %q done: %w", id, err)
	}
	return nil
}

// Release implements webhook.DedupStore: it deletes the claim only while
// it is owner's, leaving another owner's claim and a done mark alone.
func (d *Dedup) Release(ctx context.Context, id, owner string) error {
	if err := releaseScript.Run(ctx, d.rdb, []string{dedupKey(id)}, claimPrefix+owner).Err(); err != nil {
		return fmt.Errorf("redisstore: releasing webhook event %q: %w", id, err)
	}
	return nil
}
