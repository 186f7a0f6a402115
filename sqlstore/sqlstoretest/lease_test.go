package sqlstoretest_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/sqlstore"
)

const (
	due = time.Minute
	ttl = 30 * time.Second
)

// tokenIn returns a token that expires in d (by the test's clock, which
// is the database's here).
func tokenIn(name string, d time.Duration) *oauth2.Token {
	return &oauth2.Token{AccessToken: "access-" + name, RefreshToken: "refresh-" + name, Expiry: time.Now().Add(d)}
}

func acquire(t *testing.T, s *sqlstore.Store, grant string) (*auth.Lease, *oauth2.Token, error) {
	t.Helper()
	return s.AcquireLease(t.Context(), grant, auth.KindAccess, due, ttl)
}

func testLeases(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	ctx := t.Context()

	t.Run("no token: taken", func(t *testing.T) {
		l, tok, err := acquire(t, s, "none")
		if err != nil || l == nil || tok != nil {
			t.Fatalf("AcquireLease = %v, %v, %v; want a lease and no token", l, tok, err)
		}
		if l.GrantID != "none" || l.Kind != auth.KindAccess || l.Fence == "" {
			t.Errorf("lease = %+v", l)
		}
	})

	t.Run("fresh token: used, no lease", func(t *testing.T) {
		if err := s.Save(ctx, "fresh", tokenIn("fresh", time.Hour)); err != nil {
			t.Fatal(err)
		}
		l, tok, err := acquire(t, s, "fresh")
		if err != nil || l != nil || tok == nil || tok.AccessToken != "access-fresh" {
			t.Fatalf("AcquireLease = %v, %v, %v; want no lease and the stored token", l, tok, err)
		}
	})

	t.Run("due token: taken, then held, then committed", func(t *testing.T) {
		if err := s.Save(ctx, "due", tokenIn("old", due/2)); err != nil {
			t.Fatal(err)
		}
		l, tok, err := acquire(t, s, "due")
		if err != nil || l == nil || tok == nil || tok.RefreshToken != "refresh-old" {
			t.Fatalf("AcquireLease = %v, %v, %v; want a lease and the due token", l, tok, err)
		}
		l2, tok2, err := acquire(t, s, "due")
		if !errors.Is(err, auth.ErrLeaseHeld) || l2 != nil || tok2 == nil || tok2.AccessToken != "access-old" {
			t.Fatalf("second AcquireLease = %v, %v, %v; want ErrLeaseHeld with the stored token", l2, tok2, err)
		}
		if err := s.CommitLease(ctx, l, tokenIn("new", time.Hour)); err != nil {
			t.Fatalf("CommitLease: %v", err)
		}
		l3, tok3, err := acquire(t, s, "due")
		if err != nil || l3 != nil || tok3.AccessToken != "access-new" {
			t.Fatalf("AcquireLease after the commit = %v, %v, %v; want the committed token", l3, tok3, err)
		}
		if err := s.CommitLease(ctx, l, tokenIn("again", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
			t.Errorf("a second CommitLease of the lease = %v, want ErrLeaseLost", err)
		}
	})

	t.Run("no expiry is due", func(t *testing.T) {
		if err := s.Save(ctx, "noexp", &oauth2.Token{AccessToken: "a", RefreshToken: "r"}); err != nil {
			t.Fatal(err)
		}
		if l, _, err := acquire(t, s, "noexp"); err != nil || l == nil {
			t.Fatalf("AcquireLease = %v, %v; want a lease", l, err)
		}
	})

	t.Run("abandoned: free again", func(t *testing.T) {
		l, _, err := acquire(t, s, "abandon")
		if err != nil || l == nil {
			t.Fatal(l, err)
		}
		if err := s.AbandonLease(ctx, l); err != nil {
			t.Fatal(err)
		}
		l2, _, err := acquire(t, s, "abandon")
		if err != nil || l2 == nil {
			t.Fatalf("AcquireLease after AbandonLease = %v, %v; want a lease", l2, err)
		}
		if err := s.AbandonLease(ctx, l); err != nil {
			t.Errorf("AbandonLease of a lost lease = %v, want nil", err)
		}
		if _, _, err := acquire(t, s, "abandon"); !errors.Is(err, auth.ErrLeaseHeld) {
			t.Errorf("the stale AbandonLease freed the new holder's lease: AcquireLease = %v", err)
		}
	})

	t.Run("a forged fence commits nothing", func(t *testing.T) {
		l, _, err := acquire(t, s, "forged")
		if err != nil || l == nil {
			t.Fatal(l, err)
		}
		forged := *l
		forged.Fence = "not-the-fence"
		if err := s.CommitLease(ctx, &forged, tokenIn("forged", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
			t.Errorf("CommitLease with another fence = %v, want ErrLeaseLost", err)
		}
		if _, err := s.Load(ctx, "forged"); !errors.Is(err, auth.ErrNoToken) {
			t.Errorf("Load after a refused commit = %v, want ErrNoToken", err)
		}
	})

	t.Run("Save and Delete end the lease", func(t *testing.T) {
		l, _, err := acquire(t, s, "reconnect")
		if err != nil || l == nil {
			t.Fatal(l, err)
		}
		// The user connects again on another replica while this one
		// refreshes.
		if err := s.Save(ctx, "reconnect", tokenIn("reconnected", time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitLease(ctx, l, tokenIn("refreshed", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
			t.Errorf("CommitLease after a Save = %v, want ErrLeaseLost", err)
		}
		if tok, err := s.Load(ctx, "reconnect"); err != nil || tok.AccessToken != "access-reconnected" {
			t.Errorf("Load = %v, %v; want the reconnected token", tok, err)
		}

		if err := s.Save(ctx, "gone", tokenIn("gone", 0)); err != nil {
			t.Fatal(err)
		}
		l, _, err = acquire(t, s, "gone")
		if err != nil || l == nil {
			t.Fatal(l, err)
		}
		if err := s.Delete(ctx, "gone"); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitLease(ctx, l, tokenIn("refreshed", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
			t.Errorf("CommitLease after a Delete = %v, want ErrLeaseLost", err)
		}
		if _, err := s.Load(ctx, "gone"); !errors.Is(err, auth.ErrNoToken) {
			t.Errorf("Load after Delete and a refused commit = %v, want ErrNoToken", err)
		}
	})

	t.Run("installation: turns, no token kept", func(t *testing.T) {
		if err := s.Save(ctx, "inst", tokenIn("oauth", time.Hour)); err != nil {
			t.Fatal(err)
		}
		l, tok, err := s.AcquireLease(ctx, "inst", auth.KindInstallation, due, ttl)
		if err != nil || l == nil || tok != nil {
			t.Fatalf("AcquireLease(KindInstallation) = %v, %v, %v; want a lease and no token", l, tok, err)
		}
		if _, _, err := s.AcquireLease(ctx, "inst", auth.KindInstallation, due, ttl); !errors.Is(err, auth.ErrLeaseHeld) {
			t.Errorf("second AcquireLease(KindInstallation) = %v, want ErrLeaseHeld", err)
		}
		if err := s.CommitLease(ctx, l, &oauth2.Token{AccessToken: "svc_oat_minted", Expiry: time.Now().Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if got, err := s.Load(ctx, "inst"); err != nil || got.AccessToken != "access-oauth" {
			t.Errorf("Load after an installation commit = %v, %v; want the OAuth token untouched", got, err)
		}
		if l, tok, err := s.AcquireLease(ctx, "inst", auth.KindInstallation, due, ttl); err != nil || l == nil || tok != nil {
			t.Errorf("AcquireLease(KindInstallation) after the commit = %v, %v, %v; want a lease and no token", l, tok, err)
		}
	})

	t.Run("bad arguments", func(t *testing.T) {
		if _, _, err := s.AcquireLease(ctx, "g", "refresh", due, ttl); !errors.Is(err, sqlstore.ErrUnsupportedKind) {
			t.Errorf("AcquireLease of an unknown kind = %v, want ErrUnsupportedKind", err)
		}
		if err := s.CommitLease(ctx, &auth.Lease{GrantID: "g", Kind: "refresh", Fence: "f"}, tokenIn("x", time.Hour)); !errors.Is(err, sqlstore.ErrUnsupportedKind) {
			t.Errorf("CommitLease of an unknown kind = %v, want ErrUnsupportedKind", err)
		}
		if _, _, err := s.AcquireLease(ctx, "g", auth.KindAccess, due, 0); !errors.Is(err, sqlstore.ErrInvalid) {
			t.Errorf("AcquireLease with TTL 0 = %v, want ErrInvalid", err)
		}
		if _, _, err := s.AcquireLease(ctx, "g", auth.KindAccess, -time.Second, ttl); !errors.Is(err, sqlstore.ErrInvalid) {
			t.Errorf("AcquireLease with a negative due = %v, want ErrInvalid", err)
		}
		if err := s.CommitLease(ctx, nil, tokenIn("x", time.Hour)); !errors.Is(err, sqlstore.ErrInvalid) {
			t.Errorf("CommitLease(nil) = %v, want ErrInvalid", err)
		}
		if err := s.CommitLease(ctx, &auth.Lease{GrantID: "g", Kind: auth.KindAccess, Fence: "f"}, nil); !errors.Is(err, sqlstore.ErrInvalid) {
			t.Errorf("CommitLease of a nil token = %v, want ErrInvalid", err)
		}
		if err := s.AbandonLease(ctx, nil); !errors.Is(err, sqlstore.ErrInvalid) {
			t.Errorf("AbandonLease(nil) = %v, want ErrInvalid", err)
		}
	})
}

// testLeaseTakeover: a holder that stalls past its lease loses it to
// another, and its commit is refused.
func testLeaseTakeover(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	ctx := t.Context()
	if err := s.Save(ctx, "g", tokenIn("old", 0)); err != nil {
		t.Fatal(err)
	}
	stale, _, err := s.AcquireLease(ctx, "g", auth.KindAccess, due, 300*time.Millisecond)
	if err != nil || stale == nil {
		t.Fatal(stale, err)
	}
	var taker *auth.Lease
	eventually(t, 30*time.Second, "taken over after the TTL", func() bool {
		l, tok, err := acquire(t, s, "g")
		if errors.Is(err, auth.ErrLeaseHeld) {
			return false
		}
		if err != nil || l == nil || tok.AccessToken != "access-old" {
			t.Fatalf("AcquireLease = %v, %v, %v; want a lease on the old token", l, tok, err)
		}
		taker = l
		return true
	})
	if taker.Fence == stale.Fence {
		t.Fatal("the new holding has the old fence")
	}
	if err := s.CommitLease(ctx, stale, tokenIn("stale", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Errorf("CommitLease of the stalled holder = %v, want ErrLeaseLost", err)
	}
	if err := s.CommitLease(ctx, taker, tokenIn("taker", time.Hour)); err != nil {
		t.Errorf("CommitLease of the new holder = %v", err)
	}
	if tok, err := s.Load(ctx, "g"); err != nil || tok.AccessToken != "access-taker" {
		t.Errorf("Load = %v, %v; want the new holder's token", tok, err)
	}

	// An expired lease nobody took is lost too.
	if err := s.Save(ctx, "h", tokenIn("old", 0)); err != nil {
		t.Fatal(err)
	}
	short, _, err := s.AcquireLease(ctx, "h", auth.KindAccess, due, 100*time.Millisecond)
	if err != nil || short == nil {
		t.Fatal(short, err)
	}
	// Nothing shows an expiry without ending the lease: wait well past it
	// (the database's clock is this machine's).
	time.Sleep(500 * time.Millisecond)
	if err := s.CommitLease(ctx, short, tokenIn("late", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Errorf("CommitLease after the lease expired = %v, want ErrLeaseLost", err)
	}
	if tok, err := s.Load(ctx, "h"); err != nil || tok.AccessToken != "access-old" {
		t.Errorf("Load after a late commit = %v, %v; want the old token", tok, err)
	}
}

// refreshRound has every worker take the grant's fresh token, exactly one
// of them refreshing it: it returns how many refreshed, and the tokens
// the workers ended with.
func refreshRound(ctx context.Context, s *sqlstore.Store, grant, name string, workers int) (wins int64, got []string, err error) {
	var (
		mu   sync.Mutex
		won  atomic.Int64
		wg   sync.WaitGroup
		errs = make([]error, workers)
	)
	for w := range workers {
		wg.Go(func() {
			for {
				l, tok, err := s.AcquireLease(ctx, grant, auth.KindAccess, due, ttl)
				switch {
				case errors.Is(err, auth.ErrLeaseHeld):
					time.Sleep(2 * time.Millisecond)
					continue
				case err != nil:
					errs[w] = err
					return
				case l != nil:
					won.Add(1)
					tok = tokenIn(fmt.Sprintf("%s-%d", name, w), time.Hour)
					if err := s.CommitLease(ctx, l, tok); err != nil {
						errs[w] = err
						return
					}
				}
				mu.Lock()
				got = append(got, tok.AccessToken)
				mu.Unlock()
				return
			}
		})
	}
	wg.Wait()
	return won.Load(), got, errors.Join(errs...)
}

// testLeasesConcurrent: goroutines of one process, sharing a Store.
func testLeasesConcurrent(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	for round := range 5 {
		if err := s.Save(t.Context(), "g", tokenIn("expired", -time.Second)); err != nil {
			t.Fatal(err)
		}
		wins, got, err := refreshRound(t.Context(), s, "g", fmt.Sprint(round), 20)
		if err != nil {
			t.Fatal(err)
		}
		if wins != 1 {
			t.Errorf("round %d: %d refreshes, want 1", round, wins)
		}
		for _, tok := range got {
			if tok != got[0] {
				t.Errorf("round %d: workers ended with different tokens: %v", round, got)
				break
			}
		}
	}
}
