package webhook

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// ClaimState is what DedupStore.Claim found for an event id.
type ClaimState int

// The outcomes of DedupStore.Claim.
const (
	// Claimed means the caller now holds the claim and should process the
	// event: the id had no live claim nor done mark.
	Claimed ClaimState = iota + 1
	// InProgress means another attempt holds a live claim: the event is
	// being processed, or its receiver crashed less than a TTL ago.
	InProgress
	// Handled means the event was processed successfully within its
	// retention.
	Handled
)

// String returns the state's name, such as "claimed".
func (s ClaimState) String() string {
	if Claimed <= s && s <= Handled {
		return [...]string{"claimed", "in progress", "handled"}[s-Claimed]
	}
	return fmt.Sprintf("ClaimState(%d)", int(s))
}

// A DedupStore remembers which event ids are being processed and which were
// handled, so that a redelivered event (the service keeps the id) runs the
// callback only when no earlier delivery of it succeeded. Replicas of a
// receiver share one to deduplicate across them.
//
// An id moves through two timed records: a claim, held by one attempt (its
// owner, a random string per attempt) for a processing TTL, and a done
// mark, kept for a retention time. A claim past its TTL (the receiver
// crashed mid-callback) blocks no one. Each method is one atomic step of
// the store: the module's redisstore.Dedup does each in one Redis command
// or script, and sqlstore.Dedup in one SQL statement (Claim reads the
// row again when its insert takes nothing).
//
// Times are the store's own clock, so receivers with skewed clocks agree.
// Implementations must be safe for concurrent use.
type DedupStore interface {
	// Claim atomically takes id for owner for at most ttl, and reports
	// Claimed, or InProgress or Handled when a live claim of another
	// attempt or a live done mark already exists.
	Claim(ctx context.Context, id, owner string, ttl time.Duration) (ClaimState, error)
	// Done records that id was handled, for retention, replacing any claim:
	// once a callback succeeded, the event is handled whoever holds the
	// claim now.
	Done(ctx context.Context, id string, retention time.Duration) error
	// Release removes owner's claim on id, so that a redelivery runs at
	// once. It leaves a claim of another owner and a done mark alone. The
	// handler calls it with a context that is not canceled with the
	// request.
	Release(ctx context.Context, id, owner string) error
}

// DefaultDedupCapacity is how many ids a MemoryDedup remembers unless
// NewMemoryDedup says otherwise.
const DefaultDedupCapacity = 10_000

// MemoryDedup is a DedupStore in memory, for a receiver that runs as one
// process. It remembers up to a capacity of ids, claims and done marks
// together, and once full forgets the oldest claimed first, even before it
// expires. It reads time.Now, so testing/synctest controls its expiries.
// The zero value has DefaultDedupCapacity. A MemoryDedup is safe for
// concurrent use and must not be copied after first use.
type MemoryDedup struct {
	mu       sync.Mutex
	capacity int
	entries  map[string]*memEntry
	order    []*memEntry // in the order they were recorded, oldest first
}

// memEntry is the record of one id: a claim, or a done mark.
type memEntry struct {
	id      string
	owner   string // the claim's owner; "" on a done mark
	done    bool
	expires time.Time
}

// NewMemoryDedup returns a MemoryDedup that remembers up to capacity ids
// (DefaultDedupCapacity if capacity is not positive).
func NewMemoryDedup(capacity int) *MemoryDedup {
	return &MemoryDedup{capacity: capacity}
}

// Claim implements DedupStore. It fails only for a ttl that is not positive
// or an empty owner (ErrInvalidOption).
func (m *MemoryDedup) Claim(_ context.Context, id, owner string, ttl time.Duration) (ClaimState, error) {
	if ttl <= 0 || owner == "" {
		return 0, fmt.Errorf("%w: Claim needs a positive TTL (got %v) and an owner", ErrInvalidOption, ttl)
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[id]; ok && now.Before(e.expires) {
		if e.done {
			return Handled, nil
		}
		return InProgress, nil
	}
	m.record(&memEntry{id: id, owner: owner, expires: now.Add(ttl)})
	return Claimed, nil
}

// Done implements DedupStore. It fails only for a retention that is not
// positive (ErrInvalidOption).
func (m *MemoryDedup) Done(_ context.Context, id string, retention time.Duration) error {
	if retention <= 0 {
		return fmt.Errorf("%w: Done needs a positive retention (got %v)", ErrInvalidOption, retention)
	}
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[id]; ok {
		*e = memEntry{id: id, done: true, expires: now.Add(retention)} // in its place in order
		return nil
	}
	m.record(&memEntry{id: id, done: true, expires: now.Add(retention)})
	return nil
}

// Release implements DedupStore. It never fails.
func (m *MemoryDedup) Release(_ context.Context, id, owner string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[id]; ok && !e.done && e.owner == owner {
		delete(m.entries, id)
	}
	return nil
}

// record stores e as its id's newest record, forgetting the oldest once
// there are more than the capacity. m.mu is held.
func (m *MemoryDedup) record(e *memEntry) {
	if m.entries == nil {
		m.entries = make(map[string]*memEntry)
	}
	if m.capacity <= 0 {
		m.capacity = DefaultDedupCapacity
	}
	m.entries[e.id] = e
	m.order = append(m.order, e)
	if len(m.order) > m.capacity {
		// Forget the oldest record, unless its id was recorded again
		// since (or released): then the map does not hold it.
		if old := m.order[0]; m.entries[old.id] == old {
			delete(m.entries, old.id)
		}
		m.order = m.order[1:]
	}
}
