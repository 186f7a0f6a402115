package partner_test

// Flows: what users do, against partnertest.

import (
	"errors"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// TestFlowLifecycle: five simulated hours of calls every minute against the
// fake service; it refuses expired tokens, so a single refused request
// would show.
func TestFlowLifecycle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		const hours = 5
		for range hours * 60 {
			if _, err := c.Projects.List(t.Context(), g.Organizations[0].ID); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Me(t.Context()); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Minute)
		}
		for _, r := range srv.Requests() {
			if r.Status == http.StatusUnauthorized {
				t.Errorf("a request was refused: %+v", r)
			}
		}
		// Access tokens are replaced every 27 min (when 60 s and a tenth
		// of the 29 min before are left), installation tokens every 50
		// min (5 min and a tenth of the 55 min before), in whole minutes,
		// as the calls come every minute, the last at 299 min.
		got := srv.GrantCounts(g.ID)
		if want := (hours*60-1)/27 + 1; got.Refreshes != want {
			t.Errorf("refreshes = %d, want %d", got.Refreshes, want)
		}
		if want := (hours*60-1)/50 + 1; got.Mints != want {
			t.Errorf("mints = %d, want %d", got.Mints, want)
		}
	})
}

// TestFlowRevocationMidway: once the user revokes, the next call says so
// and no later call reaches the service. (The next call may meet the
// revocation twice: its own request, and a mint ahead it started.)
func TestFlowRevocationMidway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		org := g.Organizations[0].ID
		for i := range 20 {
			if i == 10 {
				srv.Revoke(g.ID)
			}
			_, err := c.Projects.List(t.Context(), org)
			if (i < 10) != (err == nil) {
				t.Fatalf("call %d: %v", i, err)
			}
			if i >= 10 && !errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("call %d: %v, want ErrReauthorizationRequired", i, err)
			}
			time.Sleep(10 * time.Minute) // past token expiries too
		}
		var refused []time.Time
		for _, r := range srv.Requests() {
			if r.Status == http.StatusGone || r.Status == http.StatusBadRequest {
				refused = append(refused, r.Time)
			}
		}
		if n := len(refused); n < 1 || n > 2 || !refused[n-1].Equal(refused[0]) {
			t.Errorf("requests were refused for the revoked grant at %v, want 1 or 2, all at the next call", refused)
		}
	})
}

// TestFlowMissingScope: a grant without the write scope can read but not
// create; the error names the scope; nothing is retried.
func TestFlowMissingScope(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withGrant(partnertest.WithScopes(partnertest.ScopeProjectsRead)))
		srv, c, g := r.srv, r.c, r.g
		if _, err := c.Projects.List(t.Context(), g.Organizations[0].ID); err != nil {
			t.Fatal(err)
		}
		_, err := c.Projects.Create(t.Context(), projects.NewProject{Name: "S", Slug: "s", SourceLanguage: "en"})
		var scope *partner.MissingScopeError
		if !errors.As(err, &scope) || scope.Required != partnertest.ScopeProjectsWrite {
			t.Fatalf("err = %v, want MissingScopeError for %s", err, partnertest.ScopeProjectsWrite)
		}
		// The user widens the scope: scopes are bound per installation
		// token, so the same client works once it mints its next token.
		srv.SetScopes(g.ID, partnertest.AllScopes()...)
		time.Sleep(partnertest.InstallationTokenLifetime)
		if _, err := c.Projects.Create(t.Context(), projects.NewProject{Name: "S", Slug: "s", SourceLanguage: "en"}); err != nil {
			t.Fatalf("after SetScopes: %v", err)
		}
		creates := 0
		for _, r := range srv.Requests() {
			if r.Method == http.MethodPost && r.Path == "/api/oauth-client/v1/projects" {
				creates++
			}
		}
		if creates != 2 {
			t.Errorf("%d create requests, want 2 (no retry of the refusal)", creates)
		}
	})
}

// TestFlowFaults: retryable faults are retried, and a POST whose
// connection dropped is not sent again.
func TestFlowFaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		org := g.Organizations[0].ID
		if _, err := c.Projects.List(t.Context(), org); err != nil {
			t.Fatal(err)
		}
		srv.InjectFault(partnertest.Fault{Method: "GET", Path: "/api/oauth-client/organizations/*/projects", Status: 503, RetryAfter: "2", Times: 2})
		start := time.Now()
		if _, err := c.Projects.List(t.Context(), org); err != nil {
			t.Fatalf("503 twice, then up: %v", err)
		}
		if d := time.Since(start); d < 4*time.Second {
			t.Errorf("Retry-After 2 s twice took %v", d)
		}

		srv.InjectFault(partnertest.Fault{Method: "POST", Path: "/api/oauth-client/v1/projects", Drop: true})
		before := len(srv.Requests())
		_, err := c.Projects.Create(t.Context(), projects.NewProject{Name: "S", Slug: "s", SourceLanguage: "en"})
		if !errors.Is(err, partner.ErrTemporary) {
			t.Errorf("dropped POST: %v, want ErrTemporary", err)
		}
		synctest.Wait() // the fake logs a dropped request from its own goroutine
		if n := len(srv.Requests()) - before; n != 1 {
			t.Errorf("dropped POST was sent %d times, want 1", n)
		}
	})
}
