package partnertest_test

import (
	"strconv"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locsvc/partner-go/partnertest"
)

// The cap is one fixed 60 s window per installation token on the
// server's clock, shared by REST and MCP requests, with Retry-After the
// seconds to the window's end.
func TestRateLimitWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const limit = 10
		srv := newServer(t, partnertest.WithInMemoryNetwork(), partnertest.WithRateLimit(limit))
		g := srv.NewGrant()
		tok := srv.IssueInstallationToken(g.ID)
		orgs := srv.URL + "/api/oauth-client/organizations"
		time.Sleep(12*time.Second + 250*time.Millisecond) // the bubble starts on a whole minute
		for i := range limit {
			var status int
			if i%2 == 0 {
				status = send(t, srv, "GET", orgs, tok, "", "").status
			} else {
				status = mcpPost(t, srv, "POST", tok, both, "application/json", listCall).status
			}
			if status != 200 {
				t.Fatalf("request %d of %d: %d", i+1, limit, status)
			}
		}
		r := send(t, srv, "GET", orgs, tok, "", "")
		if r.status != 429 || r.errorCode() != "rate_limited" || r.header.Get("Retry-After") != "48" {
			t.Errorf("REST over the cap: %d Retry-After=%q %s, want 429 rate_limited 48", r.status, r.header.Get("Retry-After"), r.body)
		}
		time.Sleep(20 * time.Second)
		m := mcpPost(t, srv, "POST", tok, both, "application/json", listCall)
		if m.status != 429 || m.header.Get("Retry-After") != "28" {
			t.Errorf("MCP over the cap: %d Retry-After=%q, want 429 28", m.status, m.header.Get("Retry-After"))
		}
		// Waiting out Retry-After is enough.
		secs, _ := strconv.Atoi(m.header.Get("Retry-After"))
		time.Sleep(time.Duration(secs) * time.Second)
		if r := send(t, srv, "GET", orgs, tok, "", ""); r.status != 200 {
			t.Errorf("in the next window: %d %s", r.status, r.body)
		}
		// A window is fixed, not sliding: the next one starts full again
		// a minute after the last.
		for range limit - 1 {
			send(t, srv, "GET", orgs, tok, "", "")
		}
		if r := send(t, srv, "GET", orgs, tok, "", ""); r.status != 429 {
			t.Errorf("11th request in the second window: %d", r.status)
		}
		time.Sleep(time.Minute)
		if r := send(t, srv, "GET", orgs, tok, "", ""); r.status != 200 {
			t.Errorf("third window: %d", r.status)
		}
	})
}
