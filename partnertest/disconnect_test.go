package partnertest_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
)

func installationPath(grantID string) string { return "/api/oauth-client/installations/" + grantID }

func TestPartnerRevoke(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t, partnertest.WithClock(func() time.Time { return now }))
	g := srv.NewGrant()
	other := srv.NewGrant()
	at, it := accessToken(t, srv, g), installationToken(t, srv, g)
	otherAT := accessToken(t, srv, other)

	// Refused: the wrong kind of token, none, another grant's, a GET.
	for _, tt := range []struct {
		name, method, path, token string
		wantStatus                int
		wantError                 string
	}{
		{"installation token", "DELETE", installationPath(g.ID), it, 401, "invalid_token"},
		{"no token", "DELETE", installationPath(g.ID), "", 401, "invalid_token"},
		{"unknown token", "DELETE", installationPath(g.ID), "pt_at_guess", 401, "invalid_token"},
		{"another grant's token", "DELETE", installationPath(g.ID), otherAT, 404, "grant_not_found"},
		{"an unknown grant", "DELETE", installationPath("grant_999"), at, 404, "grant_not_found"},
		{"no grant id", "DELETE", installationPath(""), at, 404, "not_found"},
		{"GET", "GET", installationPath(g.ID), at, 405, "method_not_allowed"},
	} {
		if r := send(t, srv, tt.method, srv.URL+tt.path, tt.token, "", ""); r.status != tt.wantStatus || r.errorCode() != tt.wantError {
			t.Errorf("%s: %d %s, want %d %s", tt.name, r.status, r.body, tt.wantStatus, tt.wantError)
		}
	}
	if got, _ := srv.Grant(g.ID); got.Revoked {
		t.Fatal("a refused DELETE revoked the grant")
	}

	r := send(t, srv, "DELETE", srv.URL+installationPath(g.ID), at, "", "")
	if r.status != 204 || len(r.body) != 0 {
		t.Fatalf("DELETE: %d %q, want 204 and no body", r.status, r.body)
	}
	// The cascade: tokens in flight get 410, the refresh token
	// invalid_grant, the mint 410.
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", ""); r.status != 410 || r.errorCode() != "grant_revoked" {
		t.Errorf("installation token: %d %s, want 410 grant_revoked", r.status, r.body)
	}
	if r := refreshOnce(t, srv, g.RefreshToken); r.status != 400 || r.errorCode() != "invalid_grant" {
		t.Errorf("refresh: %d %s, want 400 invalid_grant", r.status, r.body)
	}
	if r := send(t, srv, "POST", srv.URL+installationPath(g.ID)+"/tokens", at, "", ""); r.status != 410 {
		t.Errorf("mint: %d %s, want 410", r.status, r.body)
	}
	// Again: the grant is gone already.
	if r := send(t, srv, "DELETE", srv.URL+installationPath(g.ID), at, "", ""); r.status != 410 || r.errorCode() != "grant_revoked" {
		t.Errorf("second DELETE: %d %s, want 410 grant_revoked", r.status, r.body)
	}
	// As after a user's revocation.
	srv.Revoke(other.ID)
	if r := send(t, srv, "DELETE", srv.URL+installationPath(other.ID), otherAT, "", ""); r.status != 410 {
		t.Errorf("DELETE after the user revoked: %d %s, want 410", r.status, r.body)
	}

	if got, _ := srv.Grant(g.ID); !got.Revoked {
		t.Error("Grant().Revoked = false")
	}
	if c := srv.GrantCounts(g.ID); c.PartnerRevocations != 1 {
		t.Errorf("GrantCounts = %+v, want one partner revocation", c)
	}
	if c := srv.Counts(); c.PartnerRevocations != 1 || c.ReuseRevocations != 0 {
		t.Errorf("Counts = %+v, want one partner revocation", c)
	}
	var deletes []partnertest.Request
	for _, r := range srv.Requests() {
		if r.Method == "DELETE" && r.Status == 204 {
			deletes = append(deletes, r)
		}
	}
	want := []partnertest.Request{{Host: partnertest.HostAPI, Method: "DELETE", Path: installationPath(g.ID), Token: partnertest.TokenAccess, GrantID: g.ID, Status: 204, Time: now}}
	if diff := cmp.Diff(want, deletes); diff != "" {
		t.Errorf("logged DELETEs (-want +got):\n%s", diff)
	}
}

func TestPartnerRevokeFault(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	at := accessToken(t, srv, g)
	srv.InjectFault(partnertest.Fault{Method: "DELETE", Path: "/api/oauth-client/installations/*", Status: 503, RetryAfter: "2"})
	if r := send(t, srv, "DELETE", srv.URL+installationPath(g.ID), at, "", ""); r.status != 503 || r.header.Get("Retry-After") != "2" {
		t.Errorf("injected 503: %d Retry-After=%q", r.status, r.header.Get("Retry-After"))
	}
	if got, _ := srv.Grant(g.ID); got.Revoked {
		t.Error("the faulted DELETE revoked the grant")
	}
	if r := send(t, srv, "DELETE", srv.URL+installationPath(g.ID), at, "", ""); r.status != 204 {
		t.Errorf("after the fault: %d %s", r.status, r.body)
	}
}
