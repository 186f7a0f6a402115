package webhook

import (
	"context"
	"sync"
)

// A DedupStore remembers which event ids a Handler has taken on, so that a
// redelivered event (the service keeps the id) is answered without calling
// the callback again. Share one store between the instances of a receiver
// to deduplicate across them: Claim maps onto Redis SET NX (with an expiry)
// or an SQL INSERT that a unique key may refuse, and Release onto DEL or
// DELETE.
type DedupStore interface {
	// Claim records id atomically and reports whether this call recorded
	// it: true means process the event, false means another delivery of it
	// was already taken on.
	Claim(ctx context.Context, id string) (bool, error)
	// Release forgets id after its callback failed, so that a redelivery
	// is processed. The context is not canceled when the request is.
	Release(ctx context.Context, id string) error
}

// DefaultDedupCapacity is how many ids the store remembers when
// WithDeduplication is given nil.
const DefaultDedupCapacity = 10_000

// MemoryDedup is a DedupStore in memory, for a receiver that runs as one
// process. It remembers the most recent ids it claimed, up to a capacity,
// and forgets the oldest first. Use NewMemoryDedup; it is safe for
// concurrent use.
type MemoryDedup struct {
	mu   sync.Mutex
	ids  map[string]uint64 // id -> sequence number of its claim
	ring []claim           // claims in order, oldest at next once full
	next int
	seq  uint64
}

type claim struct {
	id  string
	seq uint64
}

// NewMemoryDedup returns a MemoryDedup that remembers up to capacity ids
// (DefaultDedupCapacity if capacity is not positive).
func NewMemoryDedup(capacity int) *MemoryDedup {
	if capacity <= 0 {
		capacity = DefaultDedupCapacity
	}
	return &MemoryDedup{ids: make(map[string]uint64), ring: make([]claim, 0, capacity)}
}

// Claim implements DedupStore. It never fails.
func (m *MemoryDedup) Claim(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.ids[id]; ok {
		return false, nil
	}
	m.seq++
	c := claim{id: id, seq: m.seq}
	if len(m.ring) < cap(m.ring) {
		m.ring = append(m.ring, c)
	} else {
		// Forget the oldest claim, unless it was released and claimed
		// again since: then the map holds the newer one.
		if old := m.ring[m.next]; m.ids[old.id] == old.seq {
			delete(m.ids, old.id)
		}
		m.ring[m.next] = c
		m.next = (m.next + 1) % len(m.ring)
	}
	m.ids[id] = c.seq
	return true, nil
}

// Release implements DedupStore. It never fails.
func (m *MemoryDedup) Release(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.ids, id)
	return nil
}
