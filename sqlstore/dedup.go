package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// purgeEvery is how often, at most, Done also deletes the expired rows of
// the events table.
const purgeEvery = time.Minute

// Dedup is a webhook.DedupStore in the Store's database: the receivers
// that share the database process each event id once. A claim lives for
// its processing TTL and a done mark for its retention, both by the
// database's clock, so a claim whose receiver crashed stops blocking
// redeliveries once its TTL has passed.
//
// Expired rows are deleted by Purge, which Done calls at most once a
// minute. Dedup is safe for concurrent use by many goroutines and
// processes.
type Dedup struct {
	s         *Store
	nextPurge atomic.Int64 // when Done purges next, in Unix ns by the Go clock, which only paces the purge
}

var _ webhook.DedupStore = (*Dedup)(nil)

// Dedup returns the webhook.DedupStore on the Store's database. It needs
// the table that Migrate creates.
func (s *Store) Dedup() *Dedup { return &Dedup{s: s} }

// Claim implements webhook.DedupStore: it takes id for owner for ttl when
// id has no live claim and no live done mark. It fails for a ttl that is
// not positive or an empty owner (webhook.ErrInvalidOption).
func (d *Dedup) Claim(ctx context.Context, id, owner string, ttl time.Duration) (webhook.ClaimState, error) {
	if ttl <= 0 || owner == "" {
		return 0, fmt.Errorf("%w: Claim needs a positive TTL (got %v) and an owner", webhook.ErrInvalidOption, ttl)
	}
	// A claim that takes nothing is followed by a read of what holds id;
	// in between, that may have expired or been released. Then claim
	// again, a few times at most: past that, others keep taking id, so it
	// is in progress.
	for range 3 {
		var got string
		err := d.s.db.QueryRowContext(ctx, d.s.q.claim, id, owner, int64(ttl)).Scan(&got)
		if err == nil {
			return webhook.Claimed, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("sqlstore: claim event: %w", err)
		}
		var done, alive bool
		err = d.s.db.QueryRowContext(ctx, d.s.q.claimState, id).Scan(&done, &alive)
		switch {
		case errors.Is(err, sql.ErrNoRows) || err == nil && !alive:
			continue
		case err != nil:
			return 0, fmt.Errorf("sqlstore: claim event: %w", err)
		case done:
			return webhook.Handled, nil
		default:
			return webhook.InProgress, nil
		}
	}
	return webhook.InProgress, nil
}

// Done implements webhook.DedupStore: it marks id handled for retention,
// replacing any claim. It fails for a retention that is not positive
// (webhook.ErrInvalidOption).
func (d *Dedup) Done(ctx context.Context, id string, retention time.Duration) error {
	if retention <= 0 {
		return fmt.Errorf("%w: Done needs a positive retention (got %v)", webhook.ErrInvalidOption, retention)
	}
	if _, err := d.s.db.ExecContext(ctx, d.s.q.done, id, int64(retention)); err != nil {
		return fmt.Errorf("sqlstore: mark event done: %w", err)
	}
	if next := d.nextPurge.Load(); time.Now().UnixNano() >= next &&
		d.nextPurge.CompareAndSwap(next, time.Now().Add(purgeEvery).UnixNano()) {
		// The event is marked: a failed purge is tried again at the next
		// interval, and is no failure of Done.
		_, _ = d.Purge(ctx)
	}
	return nil
}

// Release implements webhook.DedupStore: it deletes owner's claim on id,
// leaving a claim of another owner and a done mark alone.
func (d *Dedup) Release(ctx context.Context, id, owner string) error {
	if _, err := d.s.db.ExecContext(ctx, d.s.q.release, id, owner); err != nil {
		return fmt.Errorf("sqlstore: release event: %w", err)
	}
	return nil
}

// Purge deletes the claims and done marks that have expired, and returns
// how many it deleted. Done calls it at most once a minute; call it
// yourself to purge on your own schedule.
func (d *Dedup) Purge(ctx context.Context) (int64, error) {
	res, err := d.s.db.ExecContext(ctx, d.s.q.purge)
	if err != nil {
		return 0, fmt.Errorf("sqlstore: purge events: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("sqlstore: purge events: %w", err)
	}
	return n, nil
}
