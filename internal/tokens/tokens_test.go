package tokens

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
)

// endpoint is a token endpoint that issues at-1, at-2, ... and counts.
type endpoint struct {
	n      atomic.Int32
	answer func(n int32) (int, string)
}

func (e *endpoint) RoundTrip(r *http.Request) (*http.Response, error) {
	n := e.n.Add(1)
	status, body := 200, fmt.Sprintf(`{"access_token":"at-%d","refresh_token":"rt","expires_in":1800}`, n)
	if e.answer != nil {
		status, body = e.answer(n)
	}
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
}

func refresher(e *endpoint, store auth.Store) *Refresher {
	return NewRefresher(Config{AuthURL: "https://auth.test", ClientID: "c", ClientSecret: "s", Store: store,
		Context: func(ctx context.Context, _ string) context.Context {
			return context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: e})
		}})
}

func TestOneRefreshForManyCallers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{}
		s := refresher(e, nil).Source("g", &oauth2.Token{RefreshToken: "rt"})
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				if tok, err := s.Token(t.Context()); err != nil || tok != "at-1" {
					t.Errorf("Token = %q, %v", tok, err)
				}
			})
		}
		wg.Wait()
		if n := e.n.Load(); n != 1 {
			t.Fatalf("%d refreshes, want 1", n)
		}
	})
}

func TestInstallationTokenFollowsTheGrantsToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		a := refresher(&endpoint{}, nil).Source("g", &oauth2.Token{RefreshToken: "rt"})
		mints := 0
		s := NewInstallationSource(InstallationConfig{Access: a, Mint: func(ctx context.Context) (Minted, error) {
			mints++
			return Minted{Token: fmt.Sprintf("svc_oat_%d", mints), Expiry: time.Now().Add(time.Hour)}, nil
		}})
		t1, _ := s.Token(t.Context())
		t2, _ := s.Token(t.Context())
		a.SetToken(&oauth2.Token{RefreshToken: "rt-new"})
		t3, _ := s.Token(t.Context())
		if t1 != "svc_oat_1" || t2 != t1 || t3 != "svc_oat_2" {
			t.Fatalf("tokens %q %q %q: want one mint, then a new one after SetToken", t1, t2, t3)
		}
	})
}

func TestGoneGrantTakesANewerStoredToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{answer: func(n int32) (int, string) {
			if n == 1 {
				return 400, `{"error":"invalid_grant"}`
			}
			return 200, `{"access_token":"at-ok","refresh_token":"rt-2","expires_in":1800}`
		}}
		store := auth.NewMemoryStore()
		ctx := t.Context()
		store.Save(ctx, "g", &oauth2.Token{RefreshToken: "rt-1"})
		s := refresher(e, store).Source("g", nil)
		if _, err := s.Token(ctx); !errors.Is(err, apierr.ErrReauthorizationRequired) {
			t.Fatalf("err = %v", err)
		}
		if rt, err := s.Final(); rt != "rt-1" || err == nil {
			t.Fatalf("Final = %q, %v", rt, err)
		}
		if _, err := s.Token(ctx); err == nil || e.n.Load() != 1 {
			t.Fatalf("a gone grant was refreshed again (%d) or worked: %v", e.n.Load(), err)
		}
		store.Save(ctx, "g", &oauth2.Token{RefreshToken: "rt-reconnected"})
		if tok, err := s.Token(ctx); err != nil || tok != "at-ok" {
			t.Fatalf("after the reconnect: %q, %v", tok, err)
		}
	})
}

func TestStuckSourceSendsNothing(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := &endpoint{}
		s := refresher(e, auth.NewMemoryStore()).Source("g", nil)
		s.Stuck(fmt.Errorf("partner: %w", apierr.ErrReauthorizationRequired), "rt-old")
		if _, err := s.Token(t.Context()); !errors.Is(err, apierr.ErrReauthorizationRequired) || e.n.Load() != 0 {
			t.Fatalf("err = %v after %d requests", err, e.n.Load())
		}
	})
}

// TestUnreadableTokenAnswerNamesTheField: a 200 from the token endpoint
// that golang.org/x/oauth2 cannot decode fails with ErrUnexpectedResponse
// naming the field it could not read, not as a gone grant, and the next
// call asks again.
func TestUnreadableTokenAnswerNamesTheField(t *testing.T) {
	for body, want := range map[string]string{
		`{"access_token":"at-x","expires_in":1800.0}`:   "sent expires_in in a form the SDK cannot read (golang.org/x/oauth2 reads expires_in only as a whole number of seconds",
		`{"access_token":"at-x","expires_in":1799.5}`:   "sent expires_in in a form",
		`{"access_token":"at-x","expires_in":"soon"}`:   "sent expires_in in a form",
		`{"access_token":"at-x","expires_in":true}`:     "sent expires_in in a form",
		`{"access_token":"at-x","expires_in":1e3}`:      "sent expires_in in a form",
		`{"access_token":5}`:                            "sent access_token in a form the SDK cannot read (a JSON string is expected there)",
		`{"access_token":"at-x","refresh_token":["r"]}`: "sent refresh_token in a form",
		`{"access_token":"at-x","token_type":{}}`:       "sent token_type in a form",
		`not json`: "the token endpoint's answer could not be read",
	} {
		t.Run(body, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := &endpoint{answer: func(int32) (int, string) { return 200, body }}
				s := refresher(e, nil).Source("g", &oauth2.Token{RefreshToken: "rt-secret"})
				for i := int32(1); i <= 2; i++ {
					_, err := s.Token(t.Context())
					if !errors.Is(err, apierr.ErrUnexpectedResponse) || errors.Is(err, apierr.ErrReauthorizationRequired) {
						t.Fatalf("err = %v, want ErrUnexpectedResponse and not a gone grant", err)
					}
					if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "rt-secret") || strings.Contains(err.Error(), "at-x") {
						t.Errorf("err = %v, want it to contain %q and no token", err, want)
					}
					if n := e.n.Load(); n != i {
						t.Fatalf("call %d: %d refreshes, want %d", i, n, i)
					}
				}
			})
		})
	}
}
