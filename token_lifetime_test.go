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
	answer := func(expiresIn string) func(*http.Request) reply {
		return func(*http.Request) reply {
			return reply{status: 200, body: fmt.Sprintf(`{"access_token":"at-short","refresh_token":%q,"expires_in":%s}`, refreshTok, expiresIn)}
		}
	}
	// A short lifetime is taken as it is and the token replaced in the
	// second half of it, whatever the pace of calls; a lifetime of 0 or
	// less (the server's mistake) is used for MinLifetime.
	for _, tc := range []struct {
		expiresIn string
		max       int // refreshes over 20 calls 100 ms apart
	}{{"60", 1}, {"30", 1}, {"1", 5}, {"0", 1}, {"-100", 1}} {
		t.Run("expires_in "+tc.expiresIn, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				s.handle(epToken, answer(tc.expiresIn))
				c := s.client(t, s.config())
				for range 20 {
					if _, err := c.Me(t.Context()); err != nil {
						t.Fatal(err)
					}
					time.Sleep(100 * time.Millisecond)
				}
				if n := s.n(epToken); n > tc.max {
					t.Errorf("%d refreshes over 20 calls in 2 s, want at most %d", n, tc.max)
				}
			})
		})
	}
	// golang.org/x/oauth2 reads expires_in as a whole number: a fraction
	// fails every refresh, with an error that names the field and is
	// neither a gone grant nor retried.
	for _, expiresIn := range []string{"1800.0", "1799.5", `"1800.0"`} {
		t.Run("expires_in "+expiresIn+" is one clear error per attempt", func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				s.handle(epToken, answer(expiresIn))
				c := s.client(t, s.config())
				for i := 1; i <= 2; i++ {
					_, err := c.Me(t.Context())
					if !errors.Is(err, partner.ErrUnexpectedResponse) || len(err.Error()) > 300 {
						t.Fatalf("err = %v, want one short ErrUnexpectedResponse", err)
					}
					if errors.Is(err, partner.ErrReauthorizationRequired) || errors.Is(err, partner.ErrTemporary) {
						t.Errorf("err = %v: the grant is not gone and a retry will not help", err)
					}
					if msg := err.Error(); !strings.Contains(msg, "expires_in") || !strings.Contains(msg, "whole number of seconds") {
						t.Errorf("err = %v, want it to name expires_in and what the SDK can read", err)
					}
					assertNoSecret(t, err.Error(), append(s.secrets(), "at-short"))
					if n := s.n(epToken); n != i {
						t.Fatalf("call %d: %d refreshes, want %d", i, n, i)
					}
				}
			})
		})
	}
}

// TestHugeBadExpiryIsQuotedShort: a mint answer with a 1 MiB expires_at
// gives a short error, not the field.
func TestHugeBadExpiryIsQuotedShort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		s.then(epMint, reply{status: 200, body: fmt.Sprintf(`{"installation_token":"svc_oat_x","expires_at":"%s"}`, strings.Repeat("9", 1<<20))})
		err := getProject(t.Context(), s.client(t, s.config()))
		if !errors.Is(err, partner.ErrUnexpectedResponse) || len(err.Error()) > 300 {
			t.Fatalf("err (%d bytes) = %.300v", len(err.Error()), err)
		}
	})
}

// TestTokenEndpoint429RetryAfter: a 429 from the token endpoint with a
// Retry-After longer than the SDK waits reports it in APIError.RetryAfter.
func TestTokenEndpoint429RetryAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newScript()
		r := errReply(429, "rate_limited")
		r.header = http.Header{"Retry-After": {"120"}}
		s.then(epToken, r)
		_, err := s.client(t, s.config()).Me(t.Context())
		var ae *partner.APIError
		if !errors.As(err, &ae) || ae.RetryAfter != 120*time.Second || !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("err = %v, want an ErrTemporary *APIError with RetryAfter 2m0s", err)
		}
	})
}
