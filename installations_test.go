package partner_test

import (
	"slices"
	"testing"
	"testing/synctest"

	"github.com/locsvc/partner-go/partnertest"
)

// TestInstallationSaysWhatTheLatestMintSaid: the client tells the grant's
// organization and scopes from its latest mint, without the token, and
// follows a new mint after the user changed the scopes.
func TestInstallationSaysWhatTheLatestMintSaid(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		srv, c, g := r.srv, r.c, r.g
		if _, ok := c.LastInstallationToken(); ok {
			t.Fatal("Installation reports a mint before any call")
		}
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		info, ok := c.LastInstallationToken()
		if !ok || info.OrganizationID != g.Organizations[0].ID || !slices.Equal(info.Scopes, g.Scopes) {
			t.Fatalf("LastInstallationToken() = %v, %v; want organization %s and scopes %q", info, ok, g.Organizations[0].ID, g.Scopes)
		}
		if info.Token != "" || info.Raw != nil {
			t.Error("LastInstallationToken() holds the token")
		}
		srv.SetScopes(g.ID, partnertest.DefaultScopes()[:2]...)
		if _, err := c.Installations.CreateToken(t.Context()); err != nil {
			t.Fatal(err)
		}
		if info, _ := c.LastInstallationToken(); !slices.Equal(info.Scopes, partnertest.DefaultScopes()[:2]) {
			t.Errorf("after a new mint, Scopes = %q, want %q", info.Scopes, partnertest.DefaultScopes()[:2])
		}
	})
}
