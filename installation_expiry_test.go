package partner_test

import (
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

// TestNearlyExpiredInstallationTokenIsNotMintedPerCall: a mint answered
// with an expiry (RFC 3339, whole seconds) so close that the token would be
// due on arrival is taken like one already past, not minted again on every
// call; one a second or more ahead is used as it is.
func TestNearlyExpiredInstallationTokenIsNotMintedPerCall(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ahead time.Duration // expires_at, from the whole second before the mint
	}{
		{"already past", 0},
		{"0.4 s ahead", time.Second},
		{"1.4 s ahead", 2 * time.Second},
		{"an hour ahead", time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				s.handle(epMint, func(*http.Request) reply {
					at := time.Now().Truncate(time.Second).Add(tc.ahead).UTC().Format(time.RFC3339)
					return reply{status: 201, body: fmt.Sprintf(`{"token":"svc_oat_1","expiresAt":%q}`, at)}
				})
				c := s.client(t, s.config())
				time.Sleep(600 * time.Millisecond) // the mint comes 0.6 s into a second
				for range 5 {
					if _, err := c.Organizations.List(t.Context()); err != nil {
						t.Fatal(err)
					}
				}
				if n := s.n(epMint); n != 1 {
					t.Errorf("%d mints for 5 calls, want 1", n)
				}
			})
		})
	}
}
