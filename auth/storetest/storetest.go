// Package storetest is the conformance suite of auth.Store and of the
// optional interfaces replicas share tokens through (auth.Leaser,
// auth.InstallationCache, auth.Deleter). Every Store the SDK ships runs
// it; run it on your own Store too:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) auth.Store { return newMyStore(t) })
//	}
//
// Subtests of an interface the Store does not implement are skipped. The
// suite uses real time (a store's clock is its own), so its lease and
// cache expiry tests wait a few seconds in all; each subtest uses grant
// ids of its own, so newStore may hand out stores that share one
// database.
package storetest

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// Durations the suite uses. Short is a lease time to live or cache
// lifetime the suite waits out; Long one it never reaches.
const (
	short    = time.Second
	long     = time.Minute
	due      = time.Minute
	patience = 15 * time.Second // how long an expiry may take to be seen
)

// Run runs the conformance suite on the Stores newStore returns, one per
// subtest. newStore registers any cleanup with t.
func Run(t *testing.T, newStore func(t *testing.T) auth.Store) {
	t.Helper()
	t.Run("Store", func(t *testing.T) { testStore(t, newStore) })
	t.Run("Deleter", func(t *testing.T) { testDeleter(t, newStore) })
	t.Run("Lease", func(t *testing.T) { testLease(t, newStore) })
	t.Run("InstallationCache", func(t *testing.T) { testInstallationCache(t, newStore) })
	t.Run("InstallationLease", func(t *testing.T) { testInstallationLease(t, newStore) })
	t.Run("Concurrency", func(t *testing.T) { testConcurrency(t, newStore) })
}

// grant returns a grant id no other subtest uses.
func grant(t *testing.T) string {
	return fmt.Sprintf("storetest-%s-%s", t.Name(), rand.Text()[:10])
}

// at returns now+d cut to the second, so a store keeping times to the
// second (or finer) gives it back equal.
func at(d time.Duration) time.Time { return time.Now().Add(d).Truncate(time.Second) }

func token(access, refresh string, expiry time.Time) *oauth2.Token {
	return &oauth2.Token{AccessToken: access, TokenType: "Bearer", RefreshToken: refresh, Expiry: expiry}
}

// sameToken fails t unless got carries want's access token, refresh token
// and expiry.
func sameToken(t *testing.T, what string, got, want *oauth2.Token) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s: got no token, want access %q refresh %q", what, want.AccessToken, want.RefreshToken)
	}
	if got.AccessToken != want.AccessToken || got.RefreshToken != want.RefreshToken || !got.Expiry.Equal(want.Expiry) {
		t.Fatalf("%s: got access %q refresh %q expiry %v, want %q %q %v", what,
			got.AccessToken, got.RefreshToken, got.Expiry, want.AccessToken, want.RefreshToken, want.Expiry)
	}
}

func save(t *testing.T, s auth.Store, id string, tok *oauth2.Token) {
	t.Helper()
	if err := s.Save(t.Context(), id, tok); err != nil {
		t.Fatalf("Save: %v", err)
	}
}

func load(t *testing.T, s auth.Store, id string) *oauth2.Token {
	t.Helper()
	tok, err := s.Load(t.Context(), id)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return tok
}

// commit fails t unless CommitLease of lease saves tok.
func commit(t *testing.T, l auth.Leaser, lease *auth.Lease, tok *oauth2.Token, what string) {
	t.Helper()
	if err := l.CommitLease(t.Context(), lease, tok); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// lost fails t unless CommitLease of lease is refused with ErrLeaseLost.
func lost(t *testing.T, l auth.Leaser, lease *auth.Lease, tok *oauth2.Token, what string) {
	t.Helper()
	if err := l.CommitLease(t.Context(), lease, tok); !errors.Is(err, auth.ErrLeaseLost) {
		t.Fatalf("%s: %v; want ErrLeaseLost", what, err)
	}
}

func saveInst(t *testing.T, c auth.InstallationCache, id string, tok *oauth2.Token) {
	t.Helper()
	if err := c.SaveInstallation(t.Context(), id, tok); err != nil {
		t.Fatalf("SaveInstallation: %v", err)
	}
}

func leaser(t *testing.T, newStore func(*testing.T) auth.Store) auth.Leaser {
	t.Helper()
	s := newStore(t)
	l, ok := s.(auth.Leaser)
	if !ok {
		t.Skipf("%T is not an auth.Leaser", s)
	}
	return l
}

func cache(t *testing.T, newStore func(*testing.T) auth.Store) (auth.Store, auth.InstallationCache) {
	t.Helper()
	s := newStore(t)
	c, ok := s.(auth.InstallationCache)
	if !ok {
		t.Skipf("%T is not an auth.InstallationCache", s)
	}
	return s, c
}

// acquire takes the lease, failing t unless it was taken.
func acquire(t *testing.T, l auth.Leaser, id string, kind auth.TokenKind, ttl time.Duration) (*auth.Lease, *oauth2.Token) {
	t.Helper()
	lease, tok, err := l.AcquireLease(t.Context(), id, kind, due, ttl)
	if err != nil || lease == nil {
		t.Fatalf("AcquireLease(%s): lease %v, err %v; want a lease", kind, lease, err)
	}
	if lease.GrantID != id || lease.Kind != kind || lease.Fence == "" {
		t.Fatalf("AcquireLease(%s) = %+v: want grant %q, kind %q and a fence", kind, *lease, id, kind)
	}
	return lease, tok
}

// held fails t unless AcquireLease says another holder has the lease.
func held(t *testing.T, l auth.Leaser, id string, kind auth.TokenKind) *oauth2.Token {
	t.Helper()
	lease, tok, err := l.AcquireLease(t.Context(), id, kind, due, long)
	if !errors.Is(err, auth.ErrLeaseHeld) || lease != nil {
		t.Fatalf("AcquireLease(%s) while held: lease %v, err %v; want ErrLeaseHeld", kind, lease, err)
	}
	return tok
}

// takeOver waits until the lease can be taken again, after its ttl, and
// takes it.
func takeOver(t *testing.T, l auth.Leaser, id string, kind auth.TokenKind) *auth.Lease {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		lease, _, err := l.AcquireLease(t.Context(), id, kind, due, long)
		switch {
		case err == nil && lease != nil:
			return lease
		case !errors.Is(err, auth.ErrLeaseHeld):
			t.Fatalf("AcquireLease(%s) after the ttl: lease %v, err %v; want ErrLeaseHeld, then a lease", kind, lease, err)
		case time.Now().After(deadline):
			t.Fatalf("AcquireLease(%s): lease with a ttl of %v still held after %v", kind, short, patience)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func testStore(t *testing.T, newStore func(*testing.T) auth.Store) {
	t.Run("LoadUnknown", func(t *testing.T) {
		s := newStore(t)
		tok, err := s.Load(t.Context(), grant(t))
		if !errors.Is(err, auth.ErrNoToken) && (err != nil || tok != nil) {
			t.Fatalf("Load of an unknown grant: %v, %v; want ErrNoToken", tok, err)
		}
	})
	t.Run("SaveLoad", func(t *testing.T) {
		s, id := newStore(t), grant(t)
		want := token("at-1", "rt-1", at(time.Hour))
		save(t, s, id, want)
		sameToken(t, "Load after Save", load(t, s, id), want)

		want = token("at-2", "rt-2", at(2*time.Hour))
		save(t, s, id, want)
		sameToken(t, "Load after a second Save", load(t, s, id), want)

		other := grant(t)
		save(t, s, other, token("at-o", "rt-o", at(time.Hour)))
		sameToken(t, "Load of the first grant after saving another", load(t, s, id), want)
	})
	t.Run("RefreshTokenOnly", func(t *testing.T) {
		// What an application saves after its code exchange may have no
		// access token nor expiry.
		s, id := newStore(t), grant(t)
		want := &oauth2.Token{RefreshToken: "rt-only"}
		save(t, s, id, want)
		got := load(t, s, id)
		if got.RefreshToken != "rt-only" || got.AccessToken != "" || !got.Expiry.IsZero() {
			t.Fatalf("Load = access %q refresh %q expiry %v; want only refresh %q", got.AccessToken, got.RefreshToken, got.Expiry, "rt-only")
		}
	})
	t.Run("Concurrent", func(t *testing.T) {
		s, id := newStore(t), grant(t)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for j := range 10 {
					tok := token(fmt.Sprintf("at-%d-%d", i, j), fmt.Sprintf("rt-%d-%d", i, j), at(time.Hour))
					if err := s.Save(t.Context(), id, tok); err != nil {
						t.Errorf("Save: %v", err)
						return
					}
					got, err := s.Load(t.Context(), id)
					if err != nil || got.AccessToken[len("at-"):] != got.RefreshToken[len("rt-"):] {
						t.Errorf("Load amid concurrent Saves = %v, %v: want one Save's whole token", got, err)
						return
					}
				}
			})
		}
		wg.Wait()
	})
}

func testDeleter(t *testing.T, newStore func(*testing.T) auth.Store) {
	s := newStore(t)
	d, ok := s.(auth.Deleter)
	if !ok {
		t.Skipf("%T is not an auth.Deleter", s)
	}
	id := grant(t)
	save(t, s, id, token("at", "rt", at(time.Hour)))
	if err := d.Delete(t.Context(), id); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if tok, err := s.Load(t.Context(), id); !errors.Is(err, auth.ErrNoToken) && (err != nil || tok != nil) {
		t.Fatalf("Load after Delete: %v, %v; want ErrNoToken", tok, err)
	}
	if err := d.Delete(t.Context(), id); err != nil {
		t.Fatalf("Delete of an unknown grant: %v; want nil", err)
	}
}

func testLease(t *testing.T, newStore func(*testing.T) auth.Store) {
	t.Run("NotDue", func(t *testing.T) {
		l, id := leaser(t, newStore), grant(t)
		want := token("at", "rt", at(time.Hour))
		save(t, l, id, want)
		lease, tok, err := l.AcquireLease(t.Context(), id, auth.KindAccess, due, long)
		if err != nil || lease != nil {
			t.Fatalf("AcquireLease of a token not due: lease %v, err %v; want neither", lease, err)
		}
		sameToken(t, "AcquireLease of a token not due", tok, want)
		// Not due is not held: the next look finds the same.
		lease, _, err = l.AcquireLease(t.Context(), id, auth.KindAccess, due, long)
		if err != nil || lease != nil {
			t.Fatalf("second AcquireLease of a token not due: lease %v, err %v; want neither", lease, err)
		}
	})
	t.Run("Due", func(t *testing.T) {
		for name, exp := range map[string]time.Time{
			"WithinDue": at(due / 2),
			"Expired":   at(-time.Hour),
			"NoExpiry":  {},
		} {
			t.Run(name, func(t *testing.T) {
				l, id := leaser(t, newStore), grant(t)
				want := token("at", "rt", exp)
				save(t, l, id, want)
				_, tok := acquire(t, l, id, auth.KindAccess, long)
				sameToken(t, "AcquireLease of a due token", tok, want)
				sameToken(t, "AcquireLease while held", held(t, l, id, auth.KindAccess), want)
			})
		}
	})
	t.Run("NoToken", func(t *testing.T) {
		l, id := leaser(t, newStore), grant(t)
		_, tok := acquire(t, l, id, auth.KindAccess, long)
		if tok != nil {
			t.Fatalf("AcquireLease with no stored token returned token %q; want nil", tok.AccessToken)
		}
		if tok := held(t, l, id, auth.KindAccess); tok != nil {
			t.Fatalf("AcquireLease while held with no stored token returned token %q; want nil", tok.AccessToken)
		}
	})
	t.Run("Commit", func(t *testing.T) {
		l, id := leaser(t, newStore), grant(t)
		save(t, l, id, token("at-old", "rt-old", at(time.Second)))
		lease, _ := acquire(t, l, id, auth.KindAccess, long)
		want := token("at-new", "rt-new", at(time.Hour))
		commit(t, l, lease, want, "CommitLease")
		sameToken(t, "Load after CommitLease", load(t, l, id), want)
		// The commit ended the lease, and the new token is not due.
		again, tok, err := l.AcquireLease(t.Context(), id, auth.KindAccess, due, long)
		if err != nil || again != nil {
			t.Fatalf("AcquireLease after CommitLease: lease %v, err %v; want the committed token, not due", again, err)
		}
		sameToken(t, "AcquireLease after CommitLease", tok, want)
		// A second commit of an ended lease saves nothing.
		lost(t, l, lease, token("at-x", "rt-x", at(time.Hour)), "second CommitLease of one lease")
		sameToken(t, "Load after a refused CommitLease", load(t, l, id), want)
	})
	t.Run("CommitEndsLease", func(t *testing.T) {
		// A token committed due at once (a service giving short lives)
		// can be leased again at once.
		l, id := leaser(t, newStore), grant(t)
		lease, _ := acquire(t, l, id, auth.KindAccess, long)
		commit(t, l, lease, token("at", "rt", at(time.Second)), "CommitLease")
		next, _ := acquire(t, l, id, auth.KindAccess, long)
		if next.Fence == lease.Fence {
			t.Fatalf("two holdings share the fence %q", next.Fence)
		}
	})
	t.Run("Abandon", func(t *testing.T) {
		l, id := leaser(t, newStore), grant(t)
		want := token("at", "rt", at(time.Second))
		save(t, l, id, want)
		lease, _ := acquire(t, l, id, auth.KindAccess, long)
		if err := l.AbandonLease(t.Context(), lease); err != nil {
			t.Fatalf("AbandonLease: %v", err)
		}
		sameToken(t, "Load after AbandonLease", load(t, l, id), want)
		next, tok := acquire(t, l, id, auth.KindAccess, long)
		sameToken(t, "AcquireLease after AbandonLease", tok, want)
		// Abandoning a lease that was lost is not an error, and does not
		// end the new holder's lease.
		if err := l.AbandonLease(t.Context(), lease); err != nil {
			t.Fatalf("AbandonLease of a lease taken over: %v; want nil", err)
		}
		held(t, l, id, auth.KindAccess)
		lost(t, l, lease, token("at-stale", "rt-stale", at(time.Hour)), "CommitLease of an abandoned lease")
		commit(t, l, next, token("at-2", "rt-2", at(time.Hour)), "CommitLease of the new holder after an old one abandoned")
	})
	t.Run("ExpiryTakeover", func(t *testing.T) {
		l, id := leaser(t, newStore), grant(t)
		save(t, l, id, token("at-0", "rt-0", at(time.Second)))
		stale, _ := acquire(t, l, id, auth.KindAccess, short)
		fresh := takeOver(t, l, id, auth.KindAccess)
		if fresh.Fence == stale.Fence {
			t.Fatalf("the holding that took over has the stale one's fence %q", fresh.Fence)
		}
		// The stale holder's commit is refused, and saves nothing.
		lost(t, l, stale, token("at-stale", "rt-stale", at(time.Hour)), "CommitLease of a lease taken over")
		if got := load(t, l, id); got.RefreshToken != "rt-0" {
			t.Fatalf("a refused CommitLease saved refresh token %q", got.RefreshToken)
		}
		want := token("at-1", "rt-1", at(time.Hour))
		commit(t, l, fresh, want, "CommitLease of the holder that took over")
		sameToken(t, "Load after the takeover's CommitLease", load(t, l, id), want)
	})
	t.Run("ExpiredCommit", func(t *testing.T) {
		// A lease past its ttl cannot commit even if nobody took it over:
		// another holder may be about to.
		l, id := leaser(t, newStore), grant(t)
		save(t, l, id, token("at-0", "rt-0", at(time.Second)))
		stale, _ := acquire(t, l, id, auth.KindAccess, short)
		time.Sleep(2 * short)
		lost(t, l, stale, token("at-stale", "rt-stale", at(time.Hour)), "CommitLease past the lease's ttl")
		if got := load(t, l, id); got.RefreshToken != "rt-0" {
			t.Fatalf("a refused CommitLease saved refresh token %q", got.RefreshToken)
		}
	})
	t.Run("SaveEndsLease", func(t *testing.T) {
		// The user connected again and the application saved the new
		// token while a refresh was in flight: the refresh, of the old
		// token, must not replace it.
		l, id := leaser(t, newStore), grant(t)
		save(t, l, id, token("at-0", "rt-0", at(time.Second)))
		lease, _ := acquire(t, l, id, auth.KindAccess, long)
		want := token("at-new", "rt-new", at(time.Hour))
		save(t, l, id, want)
		lost(t, l, lease, token("at-stale", "rt-stale", at(time.Hour)), "CommitLease after a Save of the grant")
		sameToken(t, "Load after a refused CommitLease", load(t, l, id), want)
	})
	t.Run("Independent", func(t *testing.T) {
		// Leases are per grant and per kind.
		l, a, b := leaser(t, newStore), grant(t), grant(t)
		la, _ := acquire(t, l, a, auth.KindAccess, long)
		acquire(t, l, b, auth.KindAccess, long)
		acquire(t, l, a, auth.KindInstallation, long)
		commit(t, l, la, token("at-a", "rt-a", at(time.Hour)), "CommitLease")
		if tok, err := l.Load(t.Context(), b); !errors.Is(err, auth.ErrNoToken) && (err != nil || tok != nil) {
			t.Fatalf("a commit for one grant saved a token for another: %v, %v", tok, err)
		}
		held(t, l, b, auth.KindAccess)
		held(t, l, a, auth.KindInstallation)
	})
}

// lifetime is the whole lifetime, in seconds, the installation tokens of
// these tests are shared with (InstallationCache's ExpiresIn).
const lifetime = 3600

// inst is an installation token in the form InstallationCache shares it.
func inst(token string, exp time.Time) *oauth2.Token {
	return &oauth2.Token{AccessToken: token, TokenType: "Bearer", Expiry: exp, ExpiresIn: lifetime}
}

func testInstallationCache(t *testing.T, newStore func(*testing.T) auth.Store) {
	t.Run("Unknown", func(t *testing.T) {
		_, c := cache(t, newStore)
		if _, err := c.LoadInstallation(t.Context(), grant(t)); !errors.Is(err, auth.ErrNoToken) {
			t.Fatalf("LoadInstallation of an unknown grant: %v; want ErrNoToken", err)
		}
	})
	t.Run("SaveLoadDelete", func(t *testing.T) {
		_, c := cache(t, newStore)
		id, other, exp := grant(t), grant(t), at(time.Hour)
		saveInst(t, c, id, inst("it-1", exp))
		saveInst(t, c, other, inst("it-other", exp))
		tok, err := c.LoadInstallation(t.Context(), id)
		if err != nil || tok.AccessToken != "it-1" || !tok.Expiry.Equal(exp) || tok.ExpiresIn != lifetime {
			t.Fatalf("LoadInstallation = %v, %v; want %q, %v, lifetime %d s", tok, err, "it-1", exp, lifetime)
		}
		if err := c.DeleteInstallation(t.Context(), id); err != nil {
			t.Fatalf("DeleteInstallation: %v", err)
		}
		if _, err := c.LoadInstallation(t.Context(), id); !errors.Is(err, auth.ErrNoToken) {
			t.Fatalf("LoadInstallation after DeleteInstallation: %v; want ErrNoToken", err)
		}
		if tok, err := c.LoadInstallation(t.Context(), other); err != nil || tok.AccessToken != "it-other" {
			t.Fatalf("LoadInstallation of another grant after DeleteInstallation = %v, %v; want it kept", tok, err)
		}
		if err := c.DeleteInstallation(t.Context(), id); err != nil {
			t.Fatalf("DeleteInstallation of a grant with none: %v; want nil", err)
		}
	})
	t.Run("Expiry", func(t *testing.T) {
		_, c := cache(t, newStore)
		id := grant(t)
		saveInst(t, c, id, inst("it-short", time.Now().Add(short)))
		deadline := time.Now().Add(patience)
		for {
			_, err := c.LoadInstallation(t.Context(), id)
			if errors.Is(err, auth.ErrNoToken) {
				break
			}
			if err != nil {
				t.Fatalf("LoadInstallation: %v", err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("LoadInstallation still returns a token %v after its expiry", patience)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
	t.Run("KeepsAccessToken", func(t *testing.T) {
		// The cache is not the record: its tokens never touch the grant's
		// OAuth token.
		s, c := cache(t, newStore)
		id := grant(t)
		want := token("at", "rt", at(time.Hour))
		save(t, s, id, want)
		saveInst(t, c, id, inst("it", at(time.Hour)))
		if err := c.DeleteInstallation(t.Context(), id); err != nil {
			t.Fatalf("DeleteInstallation: %v", err)
		}
		sameToken(t, "Load after SaveInstallation and DeleteInstallation", load(t, s, id), want)
	})
}

func testInstallationLease(t *testing.T, newStore func(*testing.T) auth.Store) {
	both := func(t *testing.T) (auth.Leaser, auth.InstallationCache) {
		t.Helper()
		s := newStore(t)
		l, ok1 := s.(auth.Leaser)
		c, ok2 := s.(auth.InstallationCache)
		if !ok1 || !ok2 {
			t.Skipf("%T is not both an auth.Leaser and an auth.InstallationCache", s)
		}
		return l, c
	}
	t.Run("NotDue", func(t *testing.T) {
		l, c := both(t)
		id, exp := grant(t), at(time.Hour)
		saveInst(t, c, id, inst("it", exp))
		lease, tok, err := l.AcquireLease(t.Context(), id, auth.KindInstallation, due, long)
		if err != nil || lease != nil || tok == nil || tok.AccessToken != "it" || !tok.Expiry.Equal(exp) || tok.ExpiresIn != lifetime {
			t.Fatalf("AcquireLease(installation) of a cached token: lease %v, token %v, err %v; want the cached token with its lifetime", lease, tok, err)
		}
	})
	t.Run("MintCommit", func(t *testing.T) {
		l, c := both(t)
		id := grant(t)
		save(t, l, id, token("at", "rt", at(time.Hour)))
		lease, tok := acquire(t, l, id, auth.KindInstallation, long)
		if tok != nil {
			t.Fatalf("AcquireLease(installation) with none cached returned %q; want no token", tok.AccessToken)
		}
		held(t, l, id, auth.KindInstallation)
		exp := at(time.Hour)
		commit(t, l, lease, inst("it-minted", exp), "CommitLease(installation)")
		got, err := c.LoadInstallation(t.Context(), id)
		if err != nil || got.AccessToken != "it-minted" || !got.Expiry.Equal(exp) || got.ExpiresIn != lifetime {
			t.Fatalf("LoadInstallation after CommitLease = %v, %v; want %q, %v, lifetime %d s", got, err, "it-minted", exp, lifetime)
		}
		if at := load(t, l, id); at.AccessToken != "at" || at.RefreshToken != "rt" {
			t.Fatalf("CommitLease(installation) changed the OAuth token to access %q refresh %q", at.AccessToken, at.RefreshToken)
		}
	})
	t.Run("DueWhenExpiring", func(t *testing.T) {
		l, c := both(t)
		id := grant(t)
		saveInst(t, c, id, inst("it-old", at(due/2)))
		_, tok := acquire(t, l, id, auth.KindInstallation, long)
		if tok == nil || tok.AccessToken != "it-old" {
			t.Fatalf("AcquireLease(installation) of a due token returned %v; want it", tok)
		}
	})
	t.Run("DeleteEndsLease", func(t *testing.T) {
		// The grant got a new OAuth token while a mint was in flight: the
		// minted token, of the old one, must not be shared.
		l, c := both(t)
		id := grant(t)
		lease, _ := acquire(t, l, id, auth.KindInstallation, long)
		if err := c.DeleteInstallation(t.Context(), id); err != nil {
			t.Fatalf("DeleteInstallation: %v", err)
		}
		lost(t, l, lease, &oauth2.Token{AccessToken: "it-stale", Expiry: at(time.Hour)}, "CommitLease(installation) after DeleteInstallation")
		if _, err := c.LoadInstallation(t.Context(), id); !errors.Is(err, auth.ErrNoToken) {
			t.Fatalf("LoadInstallation after a refused CommitLease: %v; want ErrNoToken", err)
		}
	})
	t.Run("ExpiryTakeover", func(t *testing.T) {
		l, c := both(t)
		id := grant(t)
		stale, _ := acquire(t, l, id, auth.KindInstallation, short)
		fresh := takeOver(t, l, id, auth.KindInstallation)
		lost(t, l, stale, &oauth2.Token{AccessToken: "it-stale", Expiry: at(time.Hour)}, "CommitLease(installation) of a lease taken over")
		commit(t, l, fresh, &oauth2.Token{AccessToken: "it-fresh", Expiry: at(time.Hour)}, "CommitLease(installation) of the holder that took over")
		if got, err := c.LoadInstallation(t.Context(), id); err != nil || got.AccessToken != "it-fresh" {
			t.Fatalf("LoadInstallation = %v, %v; want the new holder's token", got, err)
		}
	})
}

// testConcurrency races many holders, as replicas would, and checks that
// each grant is refreshed once per round.
func testConcurrency(t *testing.T, newStore func(*testing.T) auth.Store) {
	l := leaser(t, newStore)
	const grants, workers, rounds = 4, 8, 3
	ids := make([]string, grants)
	for i := range ids {
		ids[i] = grant(t)
		save(t, l, ids[i], token("at-0", "rt-0", at(-time.Hour)))
	}
	for round := 1; round <= rounds; round++ {
		var refreshes [grants]atomic.Int32
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() {
				for g := range grants {
					id := ids[(g+w)%grants]
					if err := refreshOnce(t.Context(), l, id, round, &refreshes[(g+w)%grants]); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
		for g := range grants {
			if n := refreshes[g].Load(); n != 1 {
				t.Errorf("round %d: grant %d refreshed %d times by %d racing holders; want 1", round, g, n, workers)
			}
			if got := load(t, l, ids[g]); got.RefreshToken != fmt.Sprintf("rt-%d", round) {
				t.Errorf("round %d: grant %d stored refresh token %q; want %q", round, g, got.RefreshToken, fmt.Sprintf("rt-%d", round))
			}
		}
		// Make every token due again for the next round.
		for _, id := range ids {
			save(t, l, id, token("at-x", fmt.Sprintf("rt-%d", round), at(-time.Hour)))
		}
	}
}

// refreshOnce is what a replica does: take the lease if the token is due,
// "refresh" and commit; wait while another holder has it.
func refreshOnce(ctx context.Context, l auth.Leaser, id string, round int, n *atomic.Int32) error {
	deadline := time.Now().Add(patience)
	for {
		lease, tok, err := l.AcquireLease(ctx, id, auth.KindAccess, due, long)
		switch {
		case err == nil && lease == nil:
			if tok == nil || tok.RefreshToken != fmt.Sprintf("rt-%d", round) {
				return fmt.Errorf("AcquireLease returned a token not due but not the round's: %v", tok)
			}
			return nil
		case err == nil:
			n.Add(1)
			if err := l.CommitLease(ctx, lease, token(fmt.Sprintf("at-%d", round), fmt.Sprintf("rt-%d", round), at(time.Hour))); err != nil {
				return fmt.Errorf("CommitLease: %w", err)
			}
		case !errors.Is(err, auth.ErrLeaseHeld):
			return fmt.Errorf("AcquireLease: %w", err)
		case time.Now().After(deadline):
			return fmt.Errorf("AcquireLease: held for %v", patience)
		default:
			time.Sleep(5 * time.Millisecond)
		}
	}
}
