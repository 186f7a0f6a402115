package redisstore_test

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
	"github.com/locsvc/partner-go/redisstore"
)

// eventually polls cond until it holds or the deadline passes: a lease's
// time runs on the Redis server's clock, which no synctest bubble holds.
func eventually(t *testing.T, within time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v", within)
		}
	}
}

func TestAcquireLeaseOfADueAccessTokenGoesToOneHolder(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	old := token("old", 30*time.Second) // due: within a minute of expiry
	if err := s.Save(ctx, g, old); err != nil {
		t.Fatal(err)
	}
	l, tok, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, 10*time.Second)
	if err != nil || l == nil || tok == nil || tok.RefreshToken != "rt-old" {
		t.Fatalf("AcquireLease = %v, %+v, %v; want a lease and the stored token", l, tok, err)
	}
	if l.GrantID != g || l.Kind != auth.KindAccess || l.Fence == "" {
		t.Errorf("lease = %+v", l)
	}
	l2, tok2, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, 10*time.Second)
	if !errors.Is(err, auth.ErrLeaseHeld) || l2 != nil || tok2 == nil || tok2.RefreshToken != "rt-old" {
		t.Fatalf("second AcquireLease = %v, %+v, %v; want ErrLeaseHeld and the stored token", l2, tok2, err)
	}
	if err := s.CommitLease(ctx, l, token("new", time.Hour)); err != nil {
		t.Fatal(err)
	}
	l3, tok3, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, 10*time.Second)
	if err != nil || l3 != nil || tok3 == nil || tok3.RefreshToken != "rt-new" {
		t.Fatalf("AcquireLease after the commit = %v, %+v, %v; want no lease and the committed token", l3, tok3, err)
	}
}

func TestAcquireLeaseOfAnUnknownGrantGivesALeaseAndNoToken(t *testing.T) {
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	l, tok, err := s.AcquireLease(t.Context(), grantID(t, "g"), auth.KindAccess, time.Minute, time.Second)
	if err != nil || l == nil || tok != nil {
		t.Fatalf("AcquireLease = %v, %+v, %v; want a lease and no token", l, tok, err)
	}
}

func TestAcquireLeaseWithoutAFingerprintReadsTheBackingStore(t *testing.T) {
	ctx := t.Context()
	rdb := newClient(t)
	backing := auth.NewMemoryStore()
	s := redisstore.New(rdb, backing)
	g := grantID(t, "g")
	// As after a Redis restart: the backing store has a fresh token, Redis
	// knows nothing.
	if err := backing.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, tok, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err != nil || l != nil || tok == nil || tok.AccessToken != "at-1" {
		t.Fatalf("AcquireLease = %v, %+v, %v; want no lease and the backing store's token", l, tok, err)
	}
	if n, _ := rdb.Exists(ctx, "partner:{"+g+"}:access:lease").Result(); n != 0 {
		t.Error("the lease taken to read the backing store was not ended")
	}
	// The TTL is the time to expiry rounded up to a millisecond, plus one.
	if ttl, _ := rdb.PTTL(ctx, "partner:{"+g+"}:access:fp").Result(); ttl < 59*time.Minute || ttl > time.Hour+2*time.Millisecond {
		t.Errorf("fingerprint's TTL = %v, want the token's time to expiry", ttl)
	}
}

func TestAcquireLeaseNoticesABackingStoreWrittenBehindItsBack(t *testing.T) {
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	s := redisstore.New(newClient(t), backing)
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Another fresh token, straight into the backing store: taken as is.
	if err := backing.Save(ctx, g, token("2", time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, tok, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err != nil || l != nil || tok.AccessToken != "at-2" {
		t.Fatalf("AcquireLease = %v, %+v, %v; want no lease and the backing store's token", l, tok, err)
	}
	// A due token, straight into the backing store: the fingerprint that
	// says fresh is not believed.
	if err := backing.Save(ctx, g, token("3", time.Second)); err != nil {
		t.Fatal(err)
	}
	l, tok, err = s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err != nil || l == nil || tok.AccessToken != "at-3" {
		t.Fatalf("AcquireLease = %v, %+v, %v; want a lease and the due token", l, tok, err)
	}
}

func TestLeaseIsTakenOverAfterItsTTLAndTheStaleCommitIsRefused(t *testing.T) {
	for _, kind := range []auth.TokenKind{auth.KindAccess, auth.KindInstallation} {
		t.Run(string(kind), func(t *testing.T) {
			ctx := t.Context()
			backing := auth.NewMemoryStore()
			s := redisstore.New(newClient(t), backing)
			g := grantID(t, "g")
			stale, _, err := s.AcquireLease(ctx, g, kind, time.Minute, 200*time.Millisecond)
			if err != nil || stale == nil {
				t.Fatalf("AcquireLease = %v, %v", stale, err)
			}
			var next *auth.Lease
			eventually(t, 5*time.Second, func() bool {
				l, _, err := s.AcquireLease(ctx, g, kind, time.Minute, 10*time.Second)
				if err != nil && !errors.Is(err, auth.ErrLeaseHeld) {
					t.Fatal(err)
				}
				next = l
				return l != nil
			})
			if next.Fence == stale.Fence {
				t.Fatal("the new holding has the stale one's fence")
			}
			if err := s.CommitLease(ctx, next, token("new", time.Hour)); err != nil {
				t.Fatal(err)
			}
			err = s.CommitLease(ctx, stale, token("stale", time.Hour))
			if !errors.Is(err, auth.ErrLeaseLost) {
				t.Fatalf("stale CommitLease: %v, want ErrLeaseLost", err)
			}
			_, tok, err := s.AcquireLease(ctx, g, kind, time.Minute, time.Second)
			if err != nil || tok == nil || tok.AccessToken != "at-new" {
				t.Fatalf("after the stale commit the store has %+v, %v; want the new holder's token", tok, err)
			}
			if err := s.AbandonLease(ctx, stale); err != nil {
				t.Errorf("AbandonLease of a lost lease: %v", err)
			}
		})
	}
}

func TestAbandonLeaseLetsTheNextCallerTakeItAtOnce(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	l, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour)
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	if err := s.AbandonLease(ctx, l); err != nil {
		t.Fatal(err)
	}
	l2, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour)
	if err != nil || l2 == nil {
		t.Fatalf("AcquireLease after AbandonLease = %v, %v; want the lease", l2, err)
	}
	if err := s.AbandonLease(ctx, l); err != nil { // l is no longer the lease
		t.Fatal(err)
	}
	if _, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour); !errors.Is(err, auth.ErrLeaseHeld) {
		t.Fatalf("abandoning a lost lease ended the new holder's: AcquireLease = %v", err)
	}
	if err := s.CommitLease(ctx, l, token("x", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Fatalf("CommitLease of an abandoned lease: %v, want ErrLeaseLost", err)
	}
}

func TestSaveOutsideALeaseWinsOverTheHolder(t *testing.T) {
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	s := redisstore.New(newClient(t), backing)
	g := grantID(t, "g")
	l, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour)
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	// The user connects again while the holder refreshes the old grant.
	if err := s.Save(ctx, g, token("reconnect", time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.CommitLease(ctx, l, token("refreshed", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Fatalf("holder's CommitLease after a Save: %v, want ErrLeaseLost", err)
	}
	if tok, _ := backing.Load(ctx, g); tok.AccessToken != "at-reconnect" {
		t.Fatalf("backing store has %q, want the reconnected token", tok.AccessToken)
	}
}

func TestCommitLeaseKeepsTheLeaseWhenTheBackingStoreFails(t *testing.T) {
	ctx := t.Context()
	failing := &flakyStore{Store: auth.NewMemoryStore()}
	s := redisstore.New(newClient(t), failing)
	g := grantID(t, "g")
	l, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour)
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	failing.fail.Store(true)
	if err := s.CommitLease(ctx, l, token("1", time.Hour)); !errors.Is(err, errDown) {
		t.Fatalf("CommitLease = %v, want the backing store's error", err)
	}
	if _, _, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Hour); !errors.Is(err, auth.ErrLeaseHeld) {
		t.Fatalf("AcquireLease after a failed commit: %v, want ErrLeaseHeld", err)
	}
	failing.fail.Store(false)
	if err := s.CommitLease(ctx, l, token("1", time.Hour)); err != nil {
		t.Fatalf("second CommitLease: %v", err)
	}
}

var errDown = errors.New("database down")

// flakyStore fails Save while fail is set.
type flakyStore struct {
	auth.Store
	fail atomic.Bool
}

func (f *flakyStore) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	if f.fail.Load() {
		return errDown
	}
	return f.Store.Save(ctx, grantID, tok)
}

// TestLeasesUnderConcurrency: many goroutines of one process asking for a
// due token's lease, round after round: one refreshes, the rest take its
// token.
func TestLeasesUnderConcurrency(t *testing.T) {
	const grants, workers, rounds = 4, 16, 10
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	for round := range rounds {
		for _, kind := range []auth.TokenKind{auth.KindAccess, auth.KindInstallation} {
			var wins [grants]atomic.Int32
			var seen [grants]sync.Map // the tokens the workers got
			var wg sync.WaitGroup
			gids := make([]string, grants)
			for i := range gids {
				gids[i] = grantID(t, fmt.Sprint(round, i))
			}
			for w := range workers {
				wg.Go(func() {
					g := w % grants
					tok, won, err := obtain(ctx, s, gids[g], kind, fmt.Sprint(w))
					if err != nil {
						t.Error(err)
						return
					}
					if won {
						wins[g].Add(1)
					}
					seen[g].Store(tok.AccessToken, true)
				})
			}
			wg.Wait()
			for g := range wins {
				if n := wins[g].Load(); n != 1 {
					t.Errorf("round %d, %s, grant %d: %d lease winners, want 1", round, kind, g, n)
				}
				n := 0
				seen[g].Range(func(any, any) bool { n++; return true })
				if n != 1 {
					t.Errorf("round %d, %s, grant %d: the workers got %d different tokens, want 1", round, kind, g, n)
				}
			}
		}
	}
}
