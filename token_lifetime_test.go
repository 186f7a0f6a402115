package partner_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
)

// TestShortAccessTokenLifetimes: an access token that lives no longer
// than the early-refresh margin (or says 0 or a negative lifetime) is used
// until it expires, with a floor, instead of being refreshed on every call.
func TestShortAccessTokenLifetimes(t *testing.T) {
	const tokenKey = "POST auth.test /api/auth/mcp/token"
	for _, tt := range []struct {
		expiresIn string
		maxCalls  int // refreshes allowed over 20 calls in 10 s
	}{{"60", 1}, {"30", 1}, {"1", 1}, {"0", 1}, {"-100", 1}} {
		t.Run("expires_in "+tt.expiresIn, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newSvc()
				s.on(tokenKey, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", "application/json")
					fmt.Fprintf(w, `{"access_token":%q,"refresh_token":%q,"expires_in":%s}`, svcAccess, svcRefresh, tt.expiresIn)
				})
				c, _ := partner.NewClient(s.config())
				for range 20 {
					if _, err := c.Me(t.Context()); err != nil {
						t.Fatal(err)
					}
					time.Sleep(500 * time.Millisecond)
				}
				if n := s.n(tokenKey); n > tt.maxCalls {
					t.Errorf("%d refreshes over 20 calls in 10 s, want at most %d", n, tt.maxCalls)
				}
			})
		})
	}
	t.Run("expires_in 1800.0 is one clear error per attempt", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			s.on(tokenKey, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"access_token":%q,"refresh_token":%q,"expires_in":1800.0}`, svcAccess, svcRefresh)
			})
			c, _ := partner.NewClient(s.config())
			for i := 1; i <= 2; i++ {
				_, err := c.Me(t.Context())
				if !errors.Is(err, partner.ErrUnexpectedResponse) || len(err.Error()) > 300 {
					t.Fatalf("err = %v, want one short ErrUnexpectedResponse", err)
				}
				noSecret(t, "error", err.Error())
				if n := s.n(tokenKey); n != i {
					t.Fatalf("call %d: %d refreshes, want %d", i, n, i)
				}
			}
		})
	})
}

// TestHugeBadExpiryIsQuotedShort: a mint answer with a 1 MiB expires_at
// gives a short error, not the field.
func TestHugeBadExpiryIsQuotedShort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSvc()
		s.on("POST api.test /api/oauth-client/installations/g1/tokens", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"installation_token":%q,"expires_at":"%s"}`, svcInstall, strings.Repeat("9", 1<<20))
		})
		c, _ := partner.NewClient(s.config())
		err := getP1(t.Context(), c)
		if !errors.Is(err, partner.ErrUnexpectedResponse) || len(err.Error()) > 300 {
			t.Fatalf("err (%d bytes) = %.300v", len(err.Error()), err)
		}
	})
}

// TestTokenEndpoint429RetryAfter: a 429 from the token endpoint with a
// Retry-After longer than the SDK waits reports it in APIError.RetryAfter.
func TestTokenEndpoint429RetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSvc()
		s.on("POST auth.test /api/auth/mcp/token", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "120")
			writeJSON(w, 429, map[string]string{"error": "rate_limited"})
		})
		c, _ := partner.NewClient(s.config())
		_, err := c.Me(t.Context())
		var ae *partner.APIError
		if !errors.As(err, &ae) || ae.RetryAfter != 120*time.Second || !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("err = %v, want an ErrTemporary *APIError with RetryAfter 2m0s", err)
		}
	})
}
