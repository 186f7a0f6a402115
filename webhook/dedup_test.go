package webhook

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// claimer wraps a store's Claim for tests: it fails the test on an error.
func claimer(t *testing.T, s DedupStore) func(id, owner string, ttl time.Duration) ClaimState {
	return func(id, owner string, ttl time.Duration) ClaimState {
		t.Helper()
		st, err := s.Claim(t.Context(), id, owner, ttl)
		if err != nil {
			t.Fatalf("Claim(%s, %s): %v", id, owner, err)
		}
		return st
	}
}

func TestMemoryDedupZeroValue(t *testing.T) {
	var m MemoryDedup
	claim := claimer(t, &m)
	if st := claim("evt_1", "a", time.Minute); st != Claimed {
		t.Fatalf("first Claim = %v, want claimed", st)
	}
	if st := claim("evt_1", "b", time.Minute); st != InProgress {
		t.Fatalf("second Claim = %v, want in progress", st)
	}
	if err := m.Done(t.Context(), "evt_1", time.Hour); err != nil {
		t.Fatal(err)
	}
	if st := claim("evt_1", "c", time.Minute); st != Handled {
		t.Fatalf("Claim after Done = %v, want handled", st)
	}
	if err := m.Release(t.Context(), "evt_2", "nobody"); err != nil {
		t.Fatal(err)
	}
}

func TestMemoryDedupRelease(t *testing.T) {
	ctx := t.Context()
	m := NewMemoryDedup(10)
	claim := claimer(t, m)
	claim("evt_1", "a", time.Minute)
	m.Release(ctx, "evt_1", "b") // not b's claim
	if st := claim("evt_1", "c", time.Minute); st != InProgress {
		t.Fatalf("after another owner's Release: %v, want in progress", st)
	}
	m.Release(ctx, "evt_1", "a")
	if st := claim("evt_1", "c", time.Minute); st != Claimed {
		t.Fatalf("after the owner's Release: %v, want claimed", st)
	}
	m.Done(ctx, "evt_1", time.Hour)
	m.Release(ctx, "evt_1", "c") // a late failure report of an attempt
	if st := claim("evt_1", "d", time.Minute); st != Handled {
		t.Fatalf("Release removed a done mark: %v, want handled", st)
	}
}

func TestMemoryDedupExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := t.Context()
		m := NewMemoryDedup(10)
		claim := claimer(t, m)

		claim("evt_1", "crashed", 30*time.Second)
		time.Sleep(29 * time.Second)
		if st := claim("evt_1", "b", time.Minute); st != InProgress {
			t.Fatalf("claim before its TTL: %v, want in progress", st)
		}
		time.Sleep(time.Second)
		if st := claim("evt_1", "b", time.Minute); st != Claimed {
			t.Fatalf("claim after its TTL: %v, want claimed", st)
		}

		m.Done(ctx, "evt_2", time.Hour)
		time.Sleep(time.Hour - time.Nanosecond)
		if st := claim("evt_2", "c", time.Minute); st != Handled {
			t.Fatalf("done mark before its retention: %v, want handled", st)
		}
		time.Sleep(time.Nanosecond)
		if st := claim("evt_2", "c", time.Minute); st != Claimed {
			t.Fatalf("done mark after its retention: %v, want claimed", st)
		}
	})
}

func TestMemoryDedupCapacity(t *testing.T) {
	ctx := t.Context()
	m := NewMemoryDedup(3)
	claim := claimer(t, m)
	for _, id := range []string{"a", "b", "c"} {
		claim(id, "x", time.Minute)
		m.Done(ctx, id, time.Hour)
	}
	if st := claim("a", "y", time.Minute); st != Handled {
		t.Fatalf("a = %v, want handled", st)
	}
	if st := claim("d", "y", time.Minute); st != Claimed { // forgets a
		t.Fatalf("d = %v, want claimed", st)
	}
	if st := claim("a", "y", time.Minute); st != Claimed { // forgets b
		t.Fatalf("a = %v after eviction, want claimed", st)
	}
	if st := claim("c", "z", time.Minute); st != Handled {
		t.Fatalf("c = %v, forgotten too early", st)
	}

	// A released and reclaimed id survives the eviction of its old slot.
	m = NewMemoryDedup(2)
	claim = claimer(t, m)
	claim("x", "1", time.Minute) // slot 0
	m.Release(ctx, "x", "1")
	claim("y", "1", time.Minute) // slot 1
	claim("x", "2", time.Minute) // slot 0 again: evicts the stale x only
	if claim("x", "3", time.Minute) != InProgress || claim("y", "3", time.Minute) != InProgress {
		t.Fatal("reclaimed x or y forgotten")
	}
	if len(m.entries) > 2 {
		t.Errorf("%d ids remembered, capacity 2", len(m.entries))
	}
}

func TestMemoryDedupConcurrent(t *testing.T) {
	m := NewMemoryDedup(100)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[string]int{}
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				id := fmt.Sprint("evt_", i)
				if st, _ := m.Claim(context.Background(), id, fmt.Sprint(g), time.Minute); st == Claimed {
					mu.Lock()
					wins[id]++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for i := range 50 {
		if n := wins[fmt.Sprint("evt_", i)]; n != 1 {
			t.Errorf("evt_%d claimed %d times, want 1", i, n)
		}
	}
}

func TestMemoryDedupBadInput(t *testing.T) {
	var m MemoryDedup
	ctx := t.Context()
	for name, err := range map[string]error{
		"zero TTL":       func() error { _, err := m.Claim(ctx, "evt_1", "a", 0); return err }(),
		"negative TTL":   func() error { _, err := m.Claim(ctx, "evt_1", "a", -time.Second); return err }(),
		"empty owner":    func() error { _, err := m.Claim(ctx, "evt_1", "", time.Minute); return err }(),
		"zero retention": m.Done(ctx, "evt_1", 0),
	} {
		if !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%s: %v, want ErrInvalidOption", name, err)
		}
	}
}

func TestClaimStateString(t *testing.T) {
	for st, want := range map[ClaimState]string{Claimed: "claimed", InProgress: "in progress", Handled: "handled", 0: "ClaimState(0)"} {
		if got := st.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(st), got, want)
		}
	}
}
