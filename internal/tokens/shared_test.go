package tokens

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/time/rate"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
)

// downStore is a MemoryStore that can be out of reach, and counts calls.
type downStore struct {
	*auth.MemoryStore
	down  atomic.Bool
	calls atomic.Int32
}

var errDown = errors.New("connection refused")

func (s *downStore) check() error {
	s.calls.Add(1)
	if s.down.Load() {
		return errDown
	}
	return nil
}

func (s *downStore) Load(ctx context.Context, id string) (*oauth2.Token, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	return s.MemoryStore.Load(ctx, id)
}

func (s *downStore) Save(ctx context.Context, id string, tok *oauth2.Token) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.MemoryStore.Save(ctx, id, tok)
}

func (s *downStore) AcquireLease(ctx context.Context, id string, k auth.TokenKind, due, ttl time.Duration) (*auth.Lease, *oauth2.Token, error) {
	if err := s.check(); err != nil {
		return nil, nil, err
	}
	return s.MemoryStore.AcquireLease(ctx, id, k, due, ttl)
}

func (s *downStore) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.MemoryStore.CommitLease(ctx, l, tok)
}

// TestProcessesRefreshOnce: processes sharing a Store that is a Leaser
// refresh a due token once between them, all taking the one token.
func TestProcessesRefreshOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{answer: func(n int32) (int, string) {
			time.Sleep(time.Second) // a slow endpoint, so the others wait
			return 200, fmt.Sprintf(`{"access_token":"at-%d","refresh_token":"rt-%d","expires_in":1800}`, n, n)
		}}
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt-0"})
		var wg sync.WaitGroup
		for range 5 {
			s := refresher(e, store).Source("g", nil) // one process each
			for range 20 {
				wg.Go(func() {
					if tok, err := s.Token(t.Context()); err != nil || tok != "at-1" {
						t.Errorf("Token = %q, %v; want at-1", tok, err)
					}
				})
			}
		}
		wg.Wait()
		if n := e.n.Load(); n != 1 {
			t.Fatalf("%d refreshes by 5 processes; want 1", n)
		}
		if tok, _ := store.Load(t.Context(), "g"); tok.RefreshToken != "rt-1" {
			t.Fatalf("stored refresh token %q; want rt-1", tok.RefreshToken)
		}
	})
}

// TestStaleHolderIsRefused: a holder whose refresh outlives its lease
// cannot commit; the process that took over has the grant's token, and
// the stale one takes it rather than use its own.
func TestStaleHolderIsRefused(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{answer: func(n int32) (int, string) {
			if n == 1 {
				time.Sleep(10 * time.Second) // the first holder stalls
			}
			return 200, fmt.Sprintf(`{"access_token":"at-%d","refresh_token":"rt-%d","expires_in":1800}`, n, n)
		}}
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt-0"})
		process := func() *AccessSource {
			r := refresher(e, store)
			r.cfg.LeaseTTL = 5 * time.Second // shorter than the stall
			return r.Source("g", nil)
		}
		stale, other := process(), process()
		got := make(chan string)
		go func() {
			tok, err := stale.Token(t.Context())
			if err != nil {
				t.Errorf("stale holder: %v", err)
			}
			got <- tok
		}()
		time.Sleep(time.Second)
		synctest.Wait()
		// The other waits for the lease, takes it over after its ttl and
		// refreshes (request 2) before the stale holder's answer.
		if tok, err := other.Token(t.Context()); err != nil || tok != "at-2" {
			t.Fatalf("the process taking over: %q, %v; want at-2", tok, err)
		}
		if tok := <-got; tok != "at-2" {
			t.Fatalf("the stale holder used %q; want the token of the one that took over, at-2", tok)
		}
		if tok, _ := store.Load(t.Context(), "g"); tok.AccessToken != "at-2" || tok.RefreshToken != "rt-2" {
			t.Fatalf("stored %q %q; want at-2 rt-2 (the stale commit refused)", tok.AccessToken, tok.RefreshToken)
		}
	})
}

// TestStoreOutage: a fresh token keeps working without the Store; a due
// one fails closed with a temporary error wrapping the store's, and works
// again once the Store is back.
func TestStoreOutage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{}
		store := &downStore{MemoryStore: auth.NewMemoryStore()}
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt"})
		s := refresher(e, store).Source("g", nil)
		if _, err := s.Token(t.Context()); err != nil {
			t.Fatal(err)
		}
		store.down.Store(true)
		before := store.calls.Load()
		for range 1000 {
			if _, err := s.Token(t.Context()); err != nil {
				t.Fatalf("a fresh token during the outage: %v", err)
			}
		}
		if n := store.calls.Load() - before; n != 0 {
			t.Errorf("%d store calls for 1000 uses of a fresh token; want 0", n)
		}
		time.Sleep(30 * time.Minute) // due
		_, err := s.Token(t.Context())
		if !errors.Is(err, apierr.ErrTemporary) || !errors.Is(err, errDown) {
			t.Fatalf("a due token during the outage: %v; want ErrTemporary wrapping the store's error", err)
		}
		s.mu.Lock()
		stuck := s.err
		s.mu.Unlock()
		if stuck != nil || e.n.Load() != 1 {
			t.Fatalf("the outage made the grant final (%v) or refreshed without the Store (%d requests)", stuck, e.n.Load())
		}
		store.down.Store(false)
		if tok, err := s.Token(t.Context()); err != nil || tok != "at-2" {
			t.Fatalf("after the outage: %q, %v; want at-2", tok, err)
		}
	})
}

// TestLocalRefreshOnStoreError: opted in, a due token is refreshed
// without the Store and used; the Store gets it before the next refresh.
func TestLocalRefreshOnStoreError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{answer: func(n int32) (int, string) {
			return 200, fmt.Sprintf(`{"access_token":"at-%d","refresh_token":"rt-%d","expires_in":1800}`, n, n)
		}}
		store := &downStore{MemoryStore: auth.NewMemoryStore()}
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt-0"})
		r := refresher(e, store)
		r.cfg.LocalRefreshOnStoreError = true
		s := r.Source("g", nil)
		if _, err := s.Token(t.Context()); err != nil {
			t.Fatal(err)
		}
		store.down.Store(true)
		time.Sleep(30 * time.Minute)
		if tok, err := s.Token(t.Context()); err != nil || tok != "at-2" {
			t.Fatalf("a due token during the outage, opted in: %q, %v; want at-2", tok, err)
		}
		store.down.Store(false)
		time.Sleep(30 * time.Minute)
		if tok, err := s.Token(t.Context()); err != nil || tok != "at-3" {
			t.Fatalf("after the outage: %q, %v; want at-3", tok, err)
		}
		if tok, _ := store.MemoryStore.Load(t.Context(), "g"); tok.RefreshToken != "rt-3" {
			t.Fatalf("stored refresh token %q; want rt-3", tok.RefreshToken)
		}
	})
}

// TestRefusedTokenIsNotAdopted: a token the service refused is not taken
// from the Store again: one refresh follows, for every process.
func TestRefusedTokenIsNotAdopted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{}
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt"})
		a, b := refresher(e, store).Source("g", nil), refresher(e, store).Source("g", nil)
		ta, _ := a.Token(t.Context())
		tb, _ := b.Token(t.Context())
		if ta != "at-1" || tb != "at-1" {
			t.Fatalf("tokens %q %q; want at-1 for both", ta, tb)
		}
		a.Invalidate(ta)
		b.Invalidate(tb)
		ta, _ = a.Token(t.Context())
		tb, _ = b.Token(t.Context())
		if ta != "at-2" || tb != "at-2" || e.n.Load() != 2 {
			t.Fatalf("after a 401: tokens %q %q after %d refreshes; want at-2 for both after 2", ta, tb, e.n.Load())
		}
	})
}

// TestProcessesMintOnce: processes sharing an InstallationCache mint once;
// a new token for the grant (SetToken) makes the next one mint anew.
func TestProcessesMintOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt"})
		var mints atomic.Int32
		mint := func(ctx context.Context) (Minted, error) {
			n := mints.Add(1)
			time.Sleep(time.Second)
			return Minted{Token: fmt.Sprintf("svc_oat_%d", n), Expiry: time.Now().Add(time.Hour)}, nil
		}
		e := &endpoint{}
		var access []*AccessSource
		var wg sync.WaitGroup
		for range 5 {
			a := refresher(e, store).Source("g", nil)
			access = append(access, a)
			s := NewInstallationSource(InstallationConfig{Access: a, Mint: mint})
			for range 10 {
				wg.Go(func() {
					if tok, err := s.Token(t.Context()); err != nil || tok != "svc_oat_1" {
						t.Errorf("Token = %q, %v; want svc_oat_1", tok, err)
					}
				})
			}
		}
		wg.Wait()
		if n := mints.Load(); n != 1 {
			t.Fatalf("%d mints by 5 processes; want 1", n)
		}
		access[0].SetToken(&oauth2.Token{RefreshToken: "rt-reconnected"})
		s := NewInstallationSource(InstallationConfig{Access: access[1], Mint: mint})
		if tok, err := s.Token(t.Context()); err != nil || tok != "svc_oat_2" {
			t.Fatalf("after SetToken elsewhere: %q, %v; want a new mint, svc_oat_2", tok, err)
		}
	})
}

var _ http.RoundTripper = (*endpoint)(nil)

// due is when s replaces its cached token ahead, as an instant.
func (s *InstallationSource) due() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur.Expiry.Add(-due(s.cur.Life, s.margin))
}

// TestReplicasAgreeOnASharedTokensDueTime: two processes take one shared
// installation token at different moments (the one that minted it, and
// one that took it from the cache 20 s later) and find it due at the same
// instant, from its whole lifetime; a token shared without its lifetime
// (by an older version) is due by what was left when it was taken.
func TestReplicasAgreeOnASharedTokensDueTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt"})
		mint := func(ctx context.Context) (Minted, error) {
			return Minted{Token: "svc_oat_1", Expiry: time.Now().Add(64 * time.Second)}, nil
		}
		e := &endpoint{}
		replica := func(margin time.Duration) *InstallationSource {
			return NewInstallationSource(InstallationConfig{Access: refresher(e, store).Source("g", nil), Mint: mint, Margin: margin})
		}
		a, b := replica(0), replica(0)
		if _, err := a.Token(t.Context()); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Second)
		if _, err := b.Token(t.Context()); err != nil {
			t.Fatal(err)
		}
		// 64 s: replaced at half its life, ahead by a tenth of the 32 s
		// before that: 35.2 s before it expires, 28.8 s after the mint.
		want := time.Now().Add(-20 * time.Second).Add(64*time.Second - 32*time.Second - 3200*time.Millisecond)
		if da, db := a.due(), b.due(); !da.Equal(want) || !db.Equal(want) {
			t.Errorf("due: minter %v, replica that took it 20 s later %v; want both %v", da, db, want)
		}

		// Shared by an older version, without its lifetime: taken as
		// today, by a process whose Margin (30 s) it is fresh for.
		if err := store.SaveInstallation(t.Context(), "g", &oauth2.Token{AccessToken: "svc_oat_old", Expiry: time.Now().Add(40 * time.Second)}); err != nil {
			t.Fatal(err)
		}
		c := replica(30 * time.Second)
		if tok, err := c.Token(t.Context()); err != nil || tok != "svc_oat_old" {
			t.Fatalf("Token = %q, %v; want the token an older version shared", tok, err)
		}
		if got, want := c.due(), time.Now().Add(40*time.Second-20*time.Second-2*time.Second); !got.Equal(want) { // half of 40 s, and a tenth of the rest
			t.Errorf("due of a token shared without its lifetime: %v, want %v (from the 40 s left)", got, want)
		}
	})
}

func (s *downStore) TakeTurn(ctx context.Context, key string, perMinute, burst int) error {
	if err := s.check(); err != nil {
		return err
	}
	return s.MemoryStore.TakeTurn(ctx, key, perMinute, burst)
}

// TestPacingFallsBackWhenTheLimiterIsDown: with a Store that is a
// RateLimiter, turns come from it; while it cannot be reached the calls
// do not fail but are paced in this process.
func TestPacingFallsBackWhenTheLimiterIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := &downStore{MemoryStore: auth.NewMemoryStore()}
		a := refresher(&endpoint{}, store).Source("g", &oauth2.Token{AccessToken: "at", RefreshToken: "rt", Expiry: time.Now().Add(time.Hour)})
		mint := func(ctx context.Context) (Minted, error) {
			return Minted{Token: "svc_oat_1", Expiry: time.Now().Add(time.Hour)}, nil
		}
		s := NewInstallationSource(InstallationConfig{Access: a, Mint: mint,
			Pace: rate.NewLimiter(rate.Limit(1.0/60), 2), PerMinute: 1, Burst: 2})
		take := func() time.Duration {
			t.Helper()
			t0 := time.Now()
			if _, err := s.Token(t.Context()); err != nil {
				t.Fatalf("Token: %v", err)
			}
			return time.Since(t0)
		}
		// The shared limit: a burst of 2, then one a minute.
		if d := take() + take(); d != 0 {
			t.Errorf("the burst waited %v", d)
		}
		if d := take(); d != time.Minute {
			t.Errorf("the third turn came after %v; want a minute", d)
		}
		store.down.Store(true)
		before := store.calls.Load()
		// Down: this process's own limit, with its own burst.
		if d := take() + take(); d != 0 {
			t.Errorf("the burst of the local limit waited %v", d)
		}
		if d := take(); d != time.Minute {
			t.Errorf("the third local turn came after %v; want a minute", d)
		}
		if store.calls.Load() == before {
			t.Error("the shared limit was not asked while down")
		}
	})
}
