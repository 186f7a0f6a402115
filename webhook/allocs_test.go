//go:build !race

// The race detector makes sync.Pool drop values at random: these run
// without it.

package webhook

import "testing"

// A genuine delivery costs its receiver no allocation to verify, with
// one secret or while rotating to a second.
func TestVerifyAllocatesNothing(t *testing.T) {
	body := []byte(`{"eventType":"keys.created","data":{}}`)
	for name, secrets := range map[string][]Option{"one secret": nil, "rotating": {WithSecrets("whsec_next")}} {
		v := newTestVerifier(t, secrets...)
		for i, secret := range []string{testSecret, "whsec_next"}[:1+len(secrets)] {
			header := Sign(secret, testNow, body)
			if err := v.Verify(body, header); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if n := testing.AllocsPerRun(100, func() { v.Verify(body, header) }); n != 0 {
				t.Errorf("%s: Verify of a delivery signed with secret %d allocates %v times, want 0", name, i+1, n)
			}
		}
	}
}
