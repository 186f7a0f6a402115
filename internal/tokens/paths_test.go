package tokens

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
)

// onlyStore hides every method of its Store but Load and Save: a plain
// auth.Store, not a Leaser.
type onlyStore struct{ s auth.Store }

func (o onlyStore) Load(ctx context.Context, id string) (*oauth2.Token, error) {
	return o.s.Load(ctx, id)
}
func (o onlyStore) Save(ctx context.Context, id string, t *oauth2.Token) error {
	return o.s.Save(ctx, id, t)
}

// TestFirstLoadFromAPlainStore: a source without a token reads it from a
// plain Store on first use. No Store, no token there, or a stored token
// without a refresh token make the grant gone; a Store out of reach fails
// this call only.
func TestFirstLoadFromAPlainStore(t *testing.T) {
	for _, tc := range []struct {
		name   string
		stored *oauth2.Token // nil: none
		down   bool
		noneAt bool // no Store at all
		want   []error
		text   string
	}{
		{name: "no Store", noneAt: true, want: []error{apierr.ErrReauthorizationRequired}, text: "no token stored"},
		{name: "no token", want: []error{apierr.ErrReauthorizationRequired, auth.ErrNoToken}},
		{name: "no refresh token", stored: &oauth2.Token{AccessToken: "at-0"},
			want: []error{apierr.ErrReauthorizationRequired}, text: "the stored token has no refresh token"},
		{name: "Store down", stored: &oauth2.Token{RefreshToken: "rt"}, down: true, want: []error{errDown}, text: "loading the token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := &endpoint{}
				ds := &downStore{MemoryStore: auth.NewMemoryStore()}
				if tc.stored != nil {
					ds.MemoryStore.Save(t.Context(), "g", tc.stored)
				}
				ds.down.Store(tc.down)
				var store auth.Store = onlyStore{ds}
				if tc.noneAt {
					store = nil
				}
				s := refresher(e, store).Source("g", nil)
				_, err := s.Token(t.Context())
				for _, want := range tc.want {
					if !errors.Is(err, want) {
						t.Errorf("Token: %v; want %v", err, want)
					}
				}
				if err == nil || !strings.Contains(err.Error(), tc.text) {
					t.Errorf("Token: %v; want it to say %q", err, tc.text)
				}
				if _, final := s.Final(); (final != nil) == tc.down {
					t.Errorf("Final = %v after %v", final, err)
				}
				if !tc.down {
					return
				}
				ds.down.Store(false)
				if tok, err := s.Token(t.Context()); err != nil || tok != "at-1" {
					t.Fatalf("after the Store is back: %q, %v; want at-1", tok, err)
				}
			})
		})
	}
}

// TestGoneGrantTakesATokenStoredDuringTheRefresh: under the lease, a
// refresh token refused as gone is not believed while the Store holds
// another one, saved meanwhile (the user reconnected): that one is
// refreshed instead.
func TestGoneGrantTakesATokenStoredDuringTheRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		store := auth.NewMemoryStore()
		store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt-1"})
		e := &endpoint{answer: func(n int32) (int, string) {
			if n == 1 {
				store.Save(context.Background(), "g", &oauth2.Token{RefreshToken: "rt-2"})
				return 400, `{"error":"invalid_grant"}`
			}
			return 200, `{"access_token":"at-ok","refresh_token":"rt-3","expires_in":1800}`
		}}
		s := refresher(e, store).Source("g", nil)
		if tok, err := s.Token(t.Context()); err != nil || tok != "at-ok" || e.n.Load() != 2 {
			t.Fatalf("Token = %q, %v after %d requests; want at-ok after 2", tok, err, e.n.Load())
		}
	})
}

// commitStore is a MemoryStore whose CommitLease fails while fail is set.
type commitStore struct {
	*auth.MemoryStore
	fail atomic.Bool
}

func (s *commitStore) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	if s.fail.Load() {
		return errDown
	}
	return s.MemoryStore.CommitLease(ctx, l, tok)
}

// TestFailedCommitIsCommittedBeforeUse: a refreshed token whose commit
// failed is not used, nor refreshed again: the next call commits it under
// its lease, then uses it. Opted in to LocalRefreshOnStoreError, it is
// used at once and saved before the next refresh.
func TestFailedCommitIsCommittedBeforeUse(t *testing.T) {
	for _, local := range []bool{false, true} {
		t.Run(fmt.Sprint("local=", local), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := &endpoint{answer: func(n int32) (int, string) {
					return 200, fmt.Sprintf(`{"access_token":"at-%d","refresh_token":"rt-%d","expires_in":1800}`, n, n)
				}}
				store := &commitStore{MemoryStore: auth.NewMemoryStore()}
				store.Save(t.Context(), "g", &oauth2.Token{RefreshToken: "rt-0"})
				r := refresher(e, store)
				r.cfg.LocalRefreshOnStoreError = local
				s := r.Source("g", nil)
				store.fail.Store(true)
				tok, err := s.Token(t.Context())
				switch {
				case local && (err != nil || tok != "at-1"):
					t.Fatalf("opted in, a failed commit: %q, %v; want at-1", tok, err)
				case !local && (!errors.Is(err, apierr.ErrTemporary) || !errors.Is(err, errDown)):
					t.Fatalf("a failed commit: %q, %v; want ErrTemporary wrapping the store's error", tok, err)
				}
				store.fail.Store(false)
				if local {
					time.Sleep(30 * time.Minute) // due: saved, then refreshed
				}
				want := map[bool]string{false: "at-1", true: "at-2"}[local]
				if tok, err := s.Token(t.Context()); err != nil || tok != want || e.n.Load() != map[bool]int32{false: 1, true: 2}[local] {
					t.Fatalf("Token = %q, %v after %d refreshes; want %s", tok, err, e.n.Load(), want)
				}
				if stored, _ := store.Load(t.Context(), "g"); stored.AccessToken != want {
					t.Fatalf("stored %q; want %s", stored.AccessToken, want)
				}
			})
		})
	}
}

type failingTransport struct{}

func (failingTransport) RoundTrip(*http.Request) (*http.Response, error) { return nil, errDown }

// TestExchangeCutOffMayHaveSpentTheCode: a code exchange that got no
// answer is temporary, and says the code may be spent.
func TestExchangeCutOffMayHaveSpentTheCode(t *testing.T) {
	r := NewRefresher(Config{AuthURL: "https://auth.test", ClientID: "c", ClientSecret: "s",
		Context: func(ctx context.Context, _ string) context.Context {
			return context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: failingTransport{}})
		}})
	cfg := r.Consent(AuthorizePath, "https://app.test/callback", nil)
	_, err := r.Exchange(t.Context(), &cfg, "RedirectURL", "the-code")
	if !errors.Is(err, apierr.ErrTemporary) || !strings.Contains(err.Error(), "the code may be spent") ||
		strings.Contains(err.Error(), "the-code") {
		t.Fatalf("Exchange without an answer: %v; want ErrTemporary, saying the code may be spent, without the code", err)
	}
}
