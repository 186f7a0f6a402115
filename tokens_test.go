package partner_test

// Tokens: when the access token is refreshed and the installation token
// minted, how concurrent callers share them, how they reach the Store, and
// SetToken.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestTokenLifecycle drives three simulated hours of traffic (a resource
// call and an identity call every 30 s) against partnertest and checks that
// the access token is refreshed 60 s before it expires, ahead by a tenth
// of the time before that, the installation token within its 5-minute
// margin and a tenth of the time before it, and no request ever carries an expired token (the
// service would refuse it with 401).
func TestTokenLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		const (
			tick     = 30 * time.Second
			duration = 3 * time.Hour
		)
		for elapsed := time.Duration(0); elapsed <= duration; elapsed += tick {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatalf("at %v: List: %v", elapsed, err)
			}
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatalf("at %v: Me: %v", elapsed, err)
			}
			time.Sleep(tick)
		}

		// Expected counts, from the lifetimes: an access token (1800 s) is
		// replaced when 60 + 174 s or less is left (a tenth of the 1740 s
		// before the margin), so at the call 1590 s after it came; an
		// installation token (3600 s) when 300 + 330 s or less is left, so
		// every 2970 s. Both are first obtained at 0.
		wantRefresh := int(duration/(1590*time.Second)) + 1
		wantMint := int(duration/(2970*time.Second)) + 1
		got := srv.GrantCounts(g.ID)
		if got.Refreshes != wantRefresh {
			t.Errorf("refreshes = %d, want %d", got.Refreshes, wantRefresh)
		}
		if got.Mints != wantMint {
			t.Errorf("mints = %d, want %d", got.Mints, wantMint)
		}
		var refreshes, mints []time.Time
		for _, r := range srv.Requests() {
			switch {
			case r.Status == http.StatusUnauthorized:
				t.Errorf("a request carried an expired token: %+v", r)
			case r.Host == partnertest.HostAuth && r.Path == partnertest.TokenPath:
				refreshes = append(refreshes, r.Time)
			case r.Method == http.MethodPost && strings.HasPrefix(r.Path, "/api/oauth-client/installations/"):
				mints = append(mints, r.Time)
			}
		}
		// At each refresh and mint, the life left in the newest token.
		for i := 1; i < len(refreshes); i++ {
			left := refreshes[i-1].Add(partnertest.AccessTokenLifetime).Sub(refreshes[i])
			if ahead := (partnertest.AccessTokenLifetime - partner.AccessTokenEarlyRefresh) / 10; left <= 0 || left > partner.AccessTokenEarlyRefresh+ahead {
				t.Errorf("refresh %d came with %v left on the old token, want (0, 60s + %v]", i, left, ahead)
			}
		}
		for i := 1; i < len(mints); i++ {
			left := mints[i-1].Add(partnertest.InstallationTokenLifetime).Sub(mints[i])
			if ahead := (partnertest.InstallationTokenLifetime - partner.DefaultInstallationTokenMargin) / 10; left <= 0 || left > partner.DefaultInstallationTokenMargin+ahead {
				t.Errorf("mint %d came with %v left on the old token, want (0, 5m + %v]", i, left, ahead)
			}
		}
	})
}

// TestStartupTokenRefreshedEarly: an access token given at start-up that
// expires within 60 s is refreshed before use; one with longer to live is
// used as it is.
func TestStartupTokenRefreshedEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		for _, tt := range []struct {
			left      time.Duration
			refreshes int
		}{{50 * time.Second, 1}, {10 * time.Minute, 0}} {
			srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
			defer srv.Close()
			g := srv.NewGrant()
			cfg := clientConfig(srv, g)
			cfg.Token = &oauth2.Token{AccessToken: srv.IssueAccessToken(g.ID), RefreshToken: g.RefreshToken, Expiry: time.Now().Add(tt.left)}
			c, err := partner.NewClient(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatal(err)
			}
			if n := srv.GrantCounts(g.ID).Refreshes; n != tt.refreshes {
				t.Errorf("a token with %v left: %d refreshes, want %d", tt.left, n, tt.refreshes)
			}
		}
	})
}

// TestMintWithoutExpiry: an installation token answered with no expiry is
// taken to live one hour, so it is re-minted 5 minutes before that.
func TestMintWithoutExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		s.handle(epMint, func(*http.Request) reply { return reply{status: 201, body: `{"token":"svc_oat_1"}`} })
		c := s.client(t, s.config())
		for _, at := range []time.Duration{0, 54 * time.Minute, 2 * time.Minute} { // 0, 54, 56 min
			time.Sleep(at)
			if err := getProject(t.Context(), c); err != nil {
				t.Fatal(err)
			}
		}
		if n := s.n(epMint); n != 2 {
			t.Errorf("mints = %d, want 2 (at 0 and at 56 min)", n)
		}
	})
}

// An installation token living less than the margin is still cached, not
// minted again on every call.
func TestShortLivedInstallationTokenIsCached(t *testing.T) {
	s := newScript()
	s.handle(epMint, func(*http.Request) reply { return reply{status: 200, body: `{"token":"svc_oat_x","expires_in":240}`} })
	c := s.client(t, s.config())
	for range 10 {
		c.Organizations.List(t.Context())
	}
	if n := s.n(epMint); n > 1 {
		t.Fatalf("%d mints for 10 calls", n)
	}
}

// TestConcurrentFirstUse: 10,000 goroutines call at once with an expired
// access token and no installation token; one refresh and one mint reach
// the service and every call succeeds.
func TestConcurrentFirstUse(t *testing.T) {
	s := newScript()
	cfg := s.config()
	cfg.Token = &oauth2.Token{AccessToken: "at-old", RefreshToken: refreshTok, Expiry: time.Now().Add(-time.Minute)}
	c := s.client(t, cfg)
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
	if r, m, g := s.n(epToken), s.n(epMint), s.n(epGet); r != 1 || m != 1 || g != n {
		t.Errorf("refreshes, mints, gets = %d, %d, %d; want 1, 1, %d", r, m, g, n)
	}
}

// Many requests refused with 401 for the same cached installation token
// all replay once, with one new token between them.
func TestConcurrent401sAllReplayed(t *testing.T) {
	var gate sync.WaitGroup
	const n = 8
	gate.Add(n)
	s := newScript() // endpoint 8 numbers its tokens: svc_oat_1, svc_oat_2
	s.handle(epOrgs, func(r *http.Request) reply {
		if r.Header.Get("Authorization") == "Bearer svc_oat_2" {
			return reply{status: 200, body: `[]`}
		}
		if r.Header.Get("Authorization") == "Bearer svc_oat_1" {
			gate.Done()
			gate.Wait() // all n carry token 1 to the server
		}
		return reply{status: 401, body: `{"error":"unauthorized"}`}
	})
	c := s.client(t, s.config())
	if _, err := c.Me(t.Context()); err != nil { // warm access token
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range n {
		wg.Go(func() {
			if _, err := c.Organizations.List(t.Context()); err != nil {
				failed.Add(1)
				t.Log(err)
			}
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d of %d callers got a 401 although a new token was minted (mints=%d)", failed.Load(), n, s.n(epMint))
	}
}

// TestWaiterGivesUp: a caller whose context ends while a refresh is in
// progress gets its context's error at once; the refresh carries on for the
// callers still waiting, and happens once.
func TestWaiterGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		c := s.client(t, s.config())
		release := make(chan struct{})
		s.then(epToken, reply{wait: release})

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
		if n := s.n(epToken); n != 1 {
			t.Errorf("refreshes = %d, want 1", n)
		}
	})
}

// When the refresh times out as the answer arrives, its body is closed
// (go-retryablehttp's RoundTripper returned it with the error; net/http
// would have logged and dropped it unclosed).
func TestRefreshTimeoutClosesBody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		// Ignores ctx, like a slow proxy.
		s.then(epToken, reply{delay: 80 * time.Millisecond, status: 200, body: `{"access_token":"at","expires_in":1800}`})
		cfg := s.config()
		cfg.RefreshTimeout = 40 * time.Millisecond
		_, err := s.client(t, cfg).Me(t.Context())
		t.Log(err)
		time.Sleep(50 * time.Millisecond)
		if n := s.unclosed(); n != 0 {
			t.Fatalf("%d response bodies never closed (the token endpoint's was late)", n)
		}
	})
}

// TestStoreSave: a refreshed token reaches the Store before it is used;
// when Save fails the call says so, the token is not refreshed again, and
// the next call saves it before using it.
func TestStoreSave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		store := &flakyStore{MemoryStore: auth.NewMemoryStore()}
		cfg := s.config()
		cfg.Token = nil
		cfg.Store = store
		if err := store.Save(t.Context(), grantID, &oauth2.Token{RefreshToken: refreshTok}); err != nil {
			t.Fatal(err)
		}
		c := s.client(t, cfg)

		store.fail = errors.New("database is down")
		_, err := c.Me(t.Context())
		if !errors.Is(err, store.fail) {
			t.Fatalf("Me with a failing Save: %v, want the store's error", err)
		}
		if n := s.n(epMe); n != 0 {
			t.Errorf("the unsaved token was used: %d identity requests", n)
		}

		store.fail = nil
		if _, err := c.Me(t.Context()); err != nil {
			t.Fatalf("Me after the store recovered: %v", err)
		}
		if n := s.n(epToken); n != 1 {
			t.Errorf("refreshes = %d, want 1 (the unsaved token is kept, not refreshed again)", n)
		}
		saved, err := store.Load(t.Context(), grantID)
		if err != nil || saved.AccessToken != "at-1" || saved.RefreshToken != refreshTok {
			t.Errorf("stored token = %+v, %v; want the refreshed one", saved, err)
		}
	})
}

// TestStoreWithoutToken: a grant the Store does not know needs the user to
// connect, and that is final.
func TestStoreWithoutToken(t *testing.T) {
	s := newScript()
	cfg := s.config()
	cfg.Token, cfg.Store = nil, auth.NewMemoryStore()
	_, err := s.client(t, cfg).Me(t.Context())
	if !errors.Is(err, partner.ErrReauthorizationRequired) || !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("err = %v, want ErrReauthorizationRequired and auth.ErrNoToken", err)
	}
	if n := s.n(epToken); n != 0 {
		t.Errorf("%d refreshes without a token", n)
	}
}

// TestSetToken: SetToken with the token of a new authorization makes a
// client work again, and nothing still running for the old token undoes it.
func TestSetToken(t *testing.T) {
	t.Run("after a final error", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config())
			s.then(epToken, errReply(400, "invalid_grant")) // the user revoked
			if err := getProject(t.Context(), c); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("revoked: %v", err)
			}
			c.SetToken(&oauth2.Token{RefreshToken: refreshTok})
			if err := getProject(t.Context(), c); err != nil {
				t.Fatalf("after SetToken: %v", err)
			}
		})
	})

	// Against partnertest: after a revocation the client refuses without
	// requests until SetToken gives it the reconnected grant's token.
	t.Run("after the user reconnected", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t)
			srv, c, g := r.srv, r.c, r.g
			srv.Revoke(g.ID)
			if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("revoked: %v", err)
			}
			g = srv.Reconnect(g.ID)
			if _, err := c.Organizations.List(t.Context()); !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("before SetToken the client stays refused: %v", err)
			}
			c.SetToken(&oauth2.Token{RefreshToken: g.RefreshToken})
			if _, err := c.Organizations.List(t.Context()); err != nil {
				t.Fatalf("after reconnecting: %v", err)
			}
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatalf("Me after reconnecting: %v", err)
			}
		})
	})

	// A 410 for a request sent with the old token that arrives after
	// SetToken must not make the new token final.
	t.Run("a late 410 for the old token is ignored", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			release := make(chan struct{})
			var first atomic.Bool
			s := newScript()
			s.handle(epMe, func(*http.Request) reply {
				if first.CompareAndSwap(false, true) {
					<-release // old grant's request in flight
					return errReply(410, "grant_revoked")
				}
				return reply{status: 200, body: `{"id":"u1"}`}
			})
			c := s.client(t, s.config())
			done := make(chan error)
			go func() { _, err := c.Me(t.Context()); done <- err }()
			synctest.Wait()
			if s.n(epMe) != 1 {
				t.Fatal("the old token's request is not in flight")
			}
			c.SetToken(&oauth2.Token{RefreshToken: "rt-NEW"}) // user reconnected
			close(release)
			<-done
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatalf("new token refused without a request (me calls=%d): %v", s.n(epMe), err)
			}
		})
	})

	// A caller arriving after SetToken must not join a refresh still
	// running with the old refresh token, nor get its error.
	t.Run("a later caller does not join the old token's refresh", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			release := make(chan struct{})
			s := newScript()
			s.handle(epToken, func(r *http.Request) reply {
				r.ParseForm()
				if r.PostForm.Get("refresh_token") == refreshTok {
					<-release
					return errReply(400, "invalid_grant")
				}
				return reply{status: 200, body: `{"access_token":"at-new","refresh_token":"rt-NEW","expires_in":1800}`}
			})
			c := s.client(t, s.config())
			go c.Me(t.Context())
			synctest.Wait()
			if s.n(epToken) != 1 {
				t.Fatal("the old token's refresh is not in flight")
			}
			c.SetToken(&oauth2.Token{RefreshToken: "rt-NEW"})
			errc := make(chan error)
			go func() { _, err := c.Me(t.Context()); errc <- err }()
			synctest.Wait()
			close(release)
			if err := <-errc; err != nil {
				t.Fatalf("call made after SetToken got the old token's error: %v", err)
			}
		})
	})

	// A refresh with the old token that ends after SetToken must not save
	// over the token the application stored for the reconnect.
	t.Run("the old token's refresh does not overwrite the Store", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			release := make(chan struct{})
			s := newScript()
			s.handle(epToken, func(r *http.Request) reply {
				r.ParseForm()
				if r.PostForm.Get("refresh_token") == "rt-old" {
					<-release
					return reply{status: 200, body: `{"access_token":"at-old2","refresh_token":"rt-old","expires_in":1800}`}
				}
				return reply{status: 200, body: `{"id":"u"}`}
			})
			st := auth.NewMemoryStore()
			cfg := s.config()
			cfg.Store = st
			cfg.Token = &oauth2.Token{RefreshToken: "rt-old"}
			c := s.client(t, cfg)
			done := make(chan struct{})
			go func() { c.Me(t.Context()); close(done) }()
			synctest.Wait()
			if s.n(epToken) != 1 {
				t.Fatal("the old token's refresh is not in flight")
			}
			nt := &oauth2.Token{RefreshToken: "rt-reconnected", AccessToken: "at-r", Expiry: time.Now().Add(time.Hour)}
			st.Save(t.Context(), grantID, nt) // app saves the new exchange
			c.SetToken(nt)
			close(release)
			<-done
			got, _ := st.Load(t.Context(), grantID)
			if got.RefreshToken != "rt-reconnected" {
				t.Fatalf("store now holds %q: the stale refresh overwrote the reconnected token", got.RefreshToken)
			}
		})
	})
}

// TestInstallationTokenNotFormatted: a minted token does not print.
func TestInstallationTokenNotFormatted(t *testing.T) {
	s := newScript()
	s.handle(epMint, func(*http.Request) reply { return reply{status: 200, body: `{"token":"svc_oat_SECRET"}`} })
	tok, err := s.client(t, s.config()).Installations.CreateToken(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, str := range []string{fmt.Sprintf("%v", *tok), fmt.Sprintf("%#v", tok), fmt.Sprint([]partner.InstallationToken{*tok})} {
		if strings.Contains(str, "svc_oat_SECRET") {
			t.Errorf("installation token in formatted value: %.80s", str)
		}
	}
}
