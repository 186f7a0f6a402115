package sqlstoretest_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/webhook"
)

const (
	processes = 5
	workers   = 10
)

// testLeasesAcrossProcesses: 5 processes of 10 goroutines refresh one
// grant, 10 rounds: exactly one refresh a round, and every worker of
// every process ends with the token it committed.
func testLeasesAcrossProcesses(t *testing.T, e engine) {
	s, dsn := e.newStore(t)
	children := startChildren(t, e, dsn, processes)
	for round := range 10 {
		if err := s.Save(t.Context(), "g", tokenIn("expired", -time.Second)); err != nil {
			t.Fatal(err)
		}
		var wins int
		tokens := map[string]int{}
		for i, a := range ask(t, children, fmt.Sprintf("refresh g r%d-p %d", round, workers)) {
			var n int
			var rest string
			if _, err := fmt.Sscanf(a, "wins %d", &n); err != nil {
				t.Fatalf("child %d: %q: %v", i, a, err)
			}
			wins += n
			_, rest, _ = strings.Cut(a[len("wins "):], " ")
			for _, tok := range strings.Fields(rest) {
				tokens[tok]++
			}
		}
		if wins != 1 {
			t.Errorf("round %d: %d refreshes across %d processes, want 1", round, wins, processes)
		}
		if len(tokens) != 1 || tokens[firstKey(tokens)] != processes*workers {
			t.Errorf("round %d: the workers ended with tokens %v, want one token for all %d", round, tokens, processes*workers)
		}
		stored, err := s.Load(t.Context(), "g")
		if err != nil || tokens[stored.AccessToken] != processes*workers {
			t.Errorf("round %d: stored %v, %v; the workers have %v", round, stored, err, tokens)
		}
	}
}

func firstKey(m map[string]int) string {
	for k := range m {
		return k
	}
	return ""
}

// testLeaseHolderKilled: the process holding the lease is killed while
// it refreshes; the lease stays held until its TTL, then another takes
// over, and the dead holder's fence commits nothing.
func testLeaseHolderKilled(t *testing.T, e engine) {
	s, dsn := e.newStore(t)
	ctx := t.Context()
	if err := s.Save(ctx, "g", tokenIn("old", 0)); err != nil {
		t.Fatal(err)
	}
	holder := startChildren(t, e, dsn, 1)[0]
	a, err := holder.ask("holdlease g 3s")
	if err != nil {
		t.Fatal(err)
	}
	fence, ok := strings.CutPrefix(a, "fence ")
	if !ok {
		t.Fatalf("holder: %q", a)
	}
	holder.kill()

	if _, tok, err := acquire(t, s, "g"); !errors.Is(err, auth.ErrLeaseHeld) || tok.AccessToken != "access-old" {
		t.Fatalf("AcquireLease right after the holder died = %v, %v; want ErrLeaseHeld and the old token", tok, err)
	}
	var l *auth.Lease
	eventually(t, 30*time.Second, "taken over after the dead holder's TTL", func() bool {
		l, _, err = acquire(t, s, "g")
		if err != nil && !errors.Is(err, auth.ErrLeaseHeld) {
			t.Fatal(err)
		}
		return l != nil
	})
	dead := &auth.Lease{GrantID: "g", Kind: auth.KindAccess, Fence: fence}
	if err := s.CommitLease(ctx, dead, tokenIn("dead", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Errorf("CommitLease with the dead holder's fence = %v, want ErrLeaseLost", err)
	}
	if err := s.CommitLease(ctx, l, tokenIn("new", time.Hour)); err != nil {
		t.Fatal(err)
	}
	if tok, err := s.Load(ctx, "g"); err != nil || tok.AccessToken != "access-new" {
		t.Errorf("Load = %v, %v; want the new holder's token", tok, err)
	}
}

// testDedupAcrossProcesses: 5 processes of 10 goroutines claim the same
// event ids: one claim per id.
func testDedupAcrossProcesses(t *testing.T, e engine) {
	_, dsn := e.newStore(t)
	children := startChildren(t, e, dsn, processes)
	for round := range 10 {
		claimed, inProgress := 0, 0
		for i, a := range ask(t, children, fmt.Sprintf("claim evt-%d %d", round, workers)) {
			var c, p, h int
			if _, err := fmt.Sscanf(a, "claimed %d inprogress %d handled %d", &c, &p, &h); err != nil {
				t.Fatalf("child %d: %q: %v", i, a, err)
			}
			claimed += c
			inProgress += p
		}
		if claimed != 1 || inProgress != processes*workers-1 {
			t.Errorf("event %d: claimed %d times, in progress %d; want 1 and %d", round, claimed, inProgress, processes*workers-1)
		}
	}
}

// testDedupClaimerKilled: the process whose callback holds the claim is
// killed; a redelivery is in progress until the claim's TTL, then runs.
func testDedupClaimerKilled(t *testing.T, e engine) {
	s, dsn := e.newStore(t)
	d := s.Dedup()
	claimer := startChildren(t, e, dsn, 1)[0]
	if a, err := claimer.ask("holdclaim evt 3s"); err != nil || a != "claimed" {
		t.Fatalf("claimer: %q, %v", a, err)
	}
	claimer.kill()
	if st, err := d.Claim(t.Context(), "evt", "redelivery", time.Minute); err != nil || st != webhook.InProgress {
		t.Fatalf("Claim right after the claimer died = %v, %v; want in progress", st, err)
	}
	eventually(t, 30*time.Second, "claimed after the dead claim's TTL", func() bool {
		st, err := d.Claim(t.Context(), "evt", "redelivery", time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return st == webhook.Claimed
	})
}
