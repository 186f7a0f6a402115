package partnertest_test

import (
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
)

// refreshOnce sends one refresh and returns the answer.
func refreshOnce(t testing.TB, srv *partnertest.Server, refreshToken string) reply {
	t.Helper()
	return send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", formType, refreshForm(refreshToken).Encode())
}

// rotated returns the refresh token of a successful refresh.
func rotated(t testing.TB, r reply) string {
	t.Helper()
	var tok struct {
		RefreshToken string `json:"refresh_token"`
	}
	if r.status != http.StatusOK || json.Unmarshal(r.body, &tok) != nil || tok.RefreshToken == "" {
		t.Fatalf("refresh: %d %s", r.status, r.body)
	}
	return tok.RefreshToken
}

func TestRefreshRotation(t *testing.T) {
	srv := newServer(t, partnertest.WithRefreshRotation())
	g := srv.NewGrant()
	rt := g.RefreshToken
	seen := map[string]bool{rt: true}
	for range 3 {
		next := rotated(t, refreshOnce(t, srv, rt))
		if seen[next] {
			t.Fatalf("refresh returned a refresh token seen before")
		}
		seen[next] = true
		if cur, _ := srv.Grant(g.ID); cur.RefreshToken != next {
			t.Errorf("Grant().RefreshToken = %q, want the newest", cur.RefreshToken)
		}
		rt = next
	}
	it := installationToken(t, srv, partnertest.Grant{ID: g.ID, RefreshToken: rt})
	cur, _ := srv.Grant(g.ID) // the installation token's refresh rotated it
	rt = cur.RefreshToken

	// The first refresh token again: reuse, the whole grant revoked.
	r := refreshOnce(t, srv, g.RefreshToken)
	if r.status != 400 || r.errorCode() != "invalid_grant" {
		t.Fatalf("reused refresh token: %d %s, want 400 invalid_grant", r.status, r.body)
	}
	if r := refreshOnce(t, srv, rt); r.errorCode() != "invalid_grant" {
		t.Errorf("the newest refresh token after the reuse: %d %s, want invalid_grant", r.status, r.body)
	}
	if r := send(t, srv, "GET", srv.URL+"/api/oauth-client/organizations", it, "", ""); r.status != 410 || r.errorCode() != "grant_revoked" {
		t.Errorf("installation token after the reuse: %d %s, want 410 grant_revoked", r.status, r.body)
	}
	if cur, _ := srv.Grant(g.ID); !cur.Revoked {
		t.Error("Grant().Revoked = false after the reuse")
	}
	want := partnertest.Counts{Refreshes: 4, Mints: 1, ReusedRefreshTokens: 1, ReuseRevocations: 1}
	if diff := cmp.Diff(want, srv.GrantCounts(g.ID)); diff != "" {
		t.Errorf("GrantCounts (-want +got):\n%s", diff)
	}

	// Other grants are untouched.
	other := srv.NewGrant()
	rotated(t, refreshOnce(t, srv, other.RefreshToken))
	if c := srv.Counts(); c.ReuseRevocations != 1 || c.ReusedRefreshTokens != 1 {
		t.Errorf("Counts = %+v", c)
	}
}

func TestRefreshWithoutRotation(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	for range 3 {
		if got := rotated(t, refreshOnce(t, srv, g.RefreshToken)); got != g.RefreshToken {
			t.Fatalf("refresh token changed without WithRefreshRotation")
		}
	}
	if c := srv.Counts(); c.ReusedRefreshTokens != 0 || c.ReuseRevocations != 0 {
		t.Errorf("Counts = %+v", c)
	}
}

// Two holders of one refresh token refresh at once: one wins, the other's
// request is the reuse, and the grant is lost. This is what a client must
// never do.
func TestRefreshRotationRace(t *testing.T) {
	srv := newServer(t, partnertest.WithRefreshRotation())
	g := srv.NewGrant()
	var wg sync.WaitGroup
	replies := make([]reply, 2)
	for i := range replies {
		wg.Go(func() { replies[i] = refreshOnce(t, srv, g.RefreshToken) })
	}
	wg.Wait()
	if replies[0].status+replies[1].status != 200+400 {
		t.Fatalf("statuses %d and %d, want one 200 and one 400", replies[0].status, replies[1].status)
	}
	if c := srv.GrantCounts(g.ID); c.ReusedRefreshTokens != 1 || c.ReuseRevocations != 1 {
		t.Errorf("GrantCounts = %+v, want the reuse counted and the grant revoked", c)
	}
}

// Reconnect and a new consent retire the rotated refresh tokens without
// reuse detection: sending one is a plain invalid_grant.
func TestRotationReconnect(t *testing.T) {
	srv := newServer(t, partnertest.WithRefreshRotation())
	g := srv.NewGrant()
	rotated(t, refreshOnce(t, srv, g.RefreshToken))
	g2 := srv.Reconnect(g.ID)
	if r := refreshOnce(t, srv, g.RefreshToken); r.errorCode() != "invalid_grant" {
		t.Errorf("a refresh token retired before Reconnect: %d %s", r.status, r.body)
	}
	if cur, _ := srv.Grant(g.ID); cur.Revoked || srv.Counts().ReuseRevocations != 0 {
		t.Errorf("Reconnect's grant was revoked by an old token: %+v %+v", cur, srv.Counts())
	}
	rotated(t, refreshOnce(t, srv, g2.RefreshToken))
}

// Rotation on the bubble's clock: a client that refreshes every access
// token lifetime for six hours keeps its grant.
func TestRotationInSynctest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, partnertest.WithInMemoryNetwork(), partnertest.WithRefreshRotation())
		g := srv.NewGrant()
		rt := g.RefreshToken
		for range 12 {
			rt = rotated(t, refreshOnce(t, srv, rt))
			time.Sleep(partnertest.AccessTokenLifetime)
		}
		if c := srv.GrantCounts(g.ID); c.Refreshes != 12 || c.ReuseRevocations != 0 {
			t.Errorf("GrantCounts = %+v", c)
		}
	})
}
