package partner_test

import (
	"encoding/json"
	"errors"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
)

// FuzzExchangeAnswer feeds the grants reader the fields of a code
// exchange's answer as the token endpoint could send them: it never
// panics, and it returns either an error of the SDK's or grants that each
// have an id and a refresh token of their own, ids Pool.Client and
// Pool.Disconnect accept.
func FuzzExchangeAnswer(f *testing.F) {
	pool, err := partner.NewPool(partner.PoolConfig{BaseURL: "https://api.example.test", AuthURL: "https://auth.example.test",
		ClientID: "id", ClientSecret: "secret", Store: auth.NewMemoryStore(), MaxClients: 8})
	if err != nil {
		f.Fatal(err)
	}
	defer pool.Close()
	f.Add(`{"access_token":"at","refresh_token":"rt","grant_id":"a/b"}`)
	f.Add(`{"access_token":"at","refresh_token":"rt","grant_id":"g","grants":[{"grant_id":"..","refresh_token":"r2"}]}`)
	f.Add(`{"access_token":"at","refresh_token":"rt","grant_id":"grt_1"}`)
	f.Add(`{"access_token":"at","refresh_token":"rt1","grant_id":"g1","organization_id":"o1","scope":"org:read keys:write",` +
		`"grants":[{"grant_id":"g1","refresh_token":"rt1","access_token":"at1","expires_in":1800,"organization_id":"o1"},` +
		`{"grant_id":"g2","refresh_token":"rt2","access_token":"at2","expires_in":"1800","organization_id":"o2","scope":"org:read"}]}`)
	f.Add(`{"access_token":"at","refresh_token":"rt","grant_id":"g1","grants":[{"grant_id":"g1"},{"grant_id":"g2"}]}`)
	f.Add(`{"access_token":"at","refresh_token":"rt","grants":{"grant_id":"g1"}}`)
	f.Add(`{"access_token":"at","refresh_token":"rt","grant_id":12,"grants":[{"grant_id":null},7]}`)
	f.Fuzz(func(t *testing.T, answer string) {
		var extra map[string]any
		if json.Unmarshal([]byte(answer), &extra) != nil {
			return
		}
		rt, _ := extra["refresh_token"].(string)
		tok := (&oauth2.Token{AccessToken: "at", RefreshToken: rt}).WithExtra(extra)
		grants, err := partner.GrantsOf(tok)
		if err != nil {
			if !errors.Is(err, partner.ErrUnexpectedResponse) {
				t.Fatalf("error %v is not ErrUnexpectedResponse", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, g := range grants {
			if g.GrantID == "" || g.Token == nil {
				t.Fatalf("grant %v without an id or a token", g)
			}
			if g.Token.RefreshToken == "" || seen[g.Token.RefreshToken] {
				t.Fatalf("two grants share the refresh token of %v", g)
			}
			seen[g.Token.RefreshToken] = true
			// No token is stored for it: no request is sent.
			if _, err := pool.Client(t.Context(), g.GrantID); errors.Is(err, partner.ErrInvalidArgument) {
				t.Fatalf("Pool.Client refuses the grant id %q: %v", g.GrantID, err)
			}
			if err := pool.Disconnect(t.Context(), g.GrantID); err != nil {
				t.Fatalf("Pool.Disconnect(%q): %v", g.GrantID, err)
			}
		}
	})
}
