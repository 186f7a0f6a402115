package partner_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
)

// TestTokenLifecycle drives three simulated hours of traffic (a resource
// call and an identity call every 30 s) and checks that the access token is
// refreshed 60 s before it expires, the installation token is re-minted
// within its 5-minute margin, and no request ever carries an expired token.
func TestTokenLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		c := f.client(f.config())
		const (
			tick     = 30 * time.Second
			duration = 3 * time.Hour
		)
		for elapsed := time.Duration(0); elapsed <= duration; elapsed += tick {
			if err := getProject(t.Context(), c); err != nil {
				t.Fatalf("at %v: Get: %v", elapsed, err)
			}
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatalf("at %v: Me: %v", elapsed, err)
			}
			time.Sleep(tick)
		}

		// Expected counts, from the lifetimes: an access token (1800 s) is
		// replaced when 60 s or less is left, so every 1740 s; an
		// installation token (3600 s) when 300 s or less is left, so every
		// 3300 s. Both are first obtained at 0.
		wantRefresh := int(duration/(1740*time.Second)) + 1
		wantMint := int(duration/(3300*time.Second)) + 1
		if got := f.n(epToken); got != wantRefresh {
			t.Errorf("refreshes = %d, want %d", got, wantRefresh)
		}
		if got := f.n(epMint); got != wantMint {
			t.Errorf("mints = %d, want %d", got, wantMint)
		}
		if f.expired != 0 {
			t.Errorf("%d requests carried an expired token", f.expired)
		}
		for i, left := range f.early {
			if left <= 0 || left > partner.AccessTokenEarlyRefresh {
				t.Errorf("refresh %d came with %v left on the old token, want (0, 60s]", i+1, left)
			}
		}
		for i, left := range f.mintLeft {
			if left <= 0 || left > partner.DefaultInstallationTokenMargin {
				t.Errorf("mint %d came with %v left on the old token, want (0, 5m]", i+1, left)
			}
		}
	})
}

// TestStartupTokenRefreshedEarly: an access token given at start-up that
// expires within 60 s is refreshed before use; one with longer to live is
// used as it is.
func TestStartupTokenRefreshedEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		f.access["at-startup"] = time.Now().Add(50 * time.Second)
		cfg := f.config()
		cfg.Token = &oauth2.Token{AccessToken: "at-startup", RefreshToken: refreshTok, Expiry: time.Now().Add(50 * time.Second)}
		if _, err := f.client(cfg).Me(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n := f.n(epToken); n != 1 {
			t.Errorf("a token with 50 s left: %d refreshes, want 1", n)
		}

		f2 := newFake(t)
		f2.access["at-startup"] = time.Now().Add(10 * time.Minute)
		cfg = f2.config()
		cfg.Token = &oauth2.Token{AccessToken: "at-startup", RefreshToken: refreshTok, Expiry: time.Now().Add(10 * time.Minute)}
		if _, err := f2.client(cfg).Me(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n := f2.n(epToken); n != 0 {
			t.Errorf("a token with 10 min left: %d refreshes, want 0", n)
		}
	})
}

// TestMintWithoutExpiry: an installation token answered with no expiry is
// taken to live one hour, so it is re-minted 5 minutes before that.
func TestMintWithoutExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		f.noExpiry = true
		c := f.client(f.config())
		for _, at := range []time.Duration{0, 54 * time.Minute, 2 * time.Minute} { // 0, 54, 56 min
			time.Sleep(at)
			if err := getProject(t.Context(), c); err != nil {
				t.Fatal(err)
			}
		}
		if n := f.n(epMint); n != 2 {
			t.Errorf("mints = %d, want 2 (at 0 and at 56 min)", n)
		}
	})
}

// TestConcurrentFirstUse: 10,000 goroutines call at once with an expired
// access token and no installation token; one refresh and one mint reach
// the service and every call succeeds.
func TestConcurrentFirstUse(t *testing.T) {
	f := newFake(t)
	cfg := f.config()
	cfg.Token = &oauth2.Token{AccessToken: "at-old", RefreshToken: refreshTok, Expiry: time.Now().Add(-time.Minute)}
	c := f.client(cfg)
	const n = 10_000
	var wg sync.WaitGroup
	errs := make(chan error, n)
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			if err := getProject(t.Context(), c); err != nil {
				errs <- err
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("a call failed: %v", err)
	}
	if r, m, g := f.n(epToken), f.n(epMint), f.n(epGet); r != 1 || m != 1 || g != n {
		t.Errorf("refreshes, mints, gets = %d, %d, %d; want 1, 1, %d", r, m, g, n)
	}
}

// TestWaiterGivesUp: a caller whose context ends while a refresh is in
// progress gets its context's error at once; the refresh carries on for the
// callers still waiting, and happens once.
func TestWaiterGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		c := f.client(f.config())
		release := make(chan struct{})
		f.then(epToken, reply{wait: release})

		impatient, cancel := context.WithCancel(t.Context())
		errA := make(chan error, 1)
		errB := make(chan error, 1)
		go func() { _, err := c.Me(impatient); errA <- err }()
		go func() { _, err := c.Me(t.Context()); errB <- err }()
		synctest.Wait() // both wait on the one refresh

		cancel()
		synctest.Wait()
		select {
		case err := <-errA:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("the impatient caller got %v, want context.Canceled", err)
			}
		default:
			t.Fatal("the impatient caller is still waiting after its context ended")
		}
		close(release)
		if err := <-errB; err != nil {
			t.Errorf("the patient caller: %v", err)
		}
		if n := f.n(epToken); n != 1 {
			t.Errorf("refreshes = %d, want 1", n)
		}
	})
}

// TestStoreSave: a refreshed token reaches the Store before it is used;
// when Save fails the call says so, the token is not refreshed again, and
// the next call saves it before using it.
func TestStoreSave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		store := &flakyStore{MemoryStore: auth.NewMemoryStore()}
		cfg := f.config()
		cfg.Token = nil
		cfg.Store = store
		if err := store.Save(t.Context(), grantID, &oauth2.Token{RefreshToken: refreshTok}); err != nil {
			t.Fatal(err)
		}
		c := f.client(cfg)

		store.fail = errors.New("database is down")
		_, err := c.Me(t.Context())
		if !errors.Is(err, store.fail) {
			t.Fatalf("Me with a failing Save: %v, want the store's error", err)
		}
		if n := f.n(epMe); n != 0 {
			t.Errorf("the unsaved token was used: %d identity requests", n)
		}

		store.fail = nil
		if _, err := c.Me(t.Context()); err != nil {
			t.Fatalf("Me after the store recovered: %v", err)
		}
		if n := f.n(epToken); n != 1 {
			t.Errorf("refreshes = %d, want 1 (the unsaved token is kept, not refreshed again)", n)
		}
		saved, err := store.Load(t.Context(), grantID)
		if err != nil || saved.AccessToken != f.lastAT || saved.RefreshToken != refreshTok {
			t.Errorf("stored token = %+v, %v; want the refreshed one", saved, err)
		}
	})
}

// flakyStore fails Save while fail is set. Tests set fail only between
// calls, so no lock is needed.
type flakyStore struct {
	*auth.MemoryStore
	fail error
}

func (s *flakyStore) Save(ctx context.Context, id string, tok *oauth2.Token) error {
	if s.fail != nil {
		return s.fail
	}
	return s.MemoryStore.Save(ctx, id, tok)
}

// TestStoreWithoutToken: a grant the Store does not know needs the user to
// connect, and that is final.
func TestStoreWithoutToken(t *testing.T) {
	f := newFake(t)
	cfg := f.config()
	cfg.Token, cfg.Store = nil, auth.NewMemoryStore()
	_, err := f.client(cfg).Me(t.Context())
	if !errors.Is(err, partner.ErrReauthorizationRequired) || !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("err = %v, want ErrReauthorizationRequired and auth.ErrNoToken", err)
	}
	if n := f.n(epToken); n != 0 {
		t.Errorf("%d refreshes without a token", n)
	}
}

// TestSetTokenAfterRevocation: after a final error, SetToken with the token
// of a new authorization makes the client work again.
func TestSetTokenAfterRevocation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t)
		c := f.client(f.config())
		f.revoke(true)
		if err := getProject(t.Context(), c); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("revoked: %v", err)
		}
		f.revoke(false)
		c.SetToken(&oauth2.Token{RefreshToken: refreshTok})
		if err := getProject(t.Context(), c); err != nil {
			t.Fatalf("after SetToken: %v", err)
		}
	})
}
