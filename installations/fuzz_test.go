package installations

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzExpiry: any expiry fields give a time or an error, never a panic,
// and never a time before the answer arrived when the service gave a
// positive lifetime.
func FuzzExpiry(f *testing.F) {
	for _, s := range []string{`{"expiresAt":"2030-01-01T00:00:00Z"}`, `{"expires_in":3600}`, `{"expiresIn":"60"}`, `{"expires_in":-1}`, `{"expiresIn":1e308}`, `{}`} {
		f.Add([]byte(s))
	}
	received := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, data []byte) {
		var w tokenWire
		if json.Unmarshal(data, &w) != nil {
			return
		}
		exp, err := expiry(w, received)
		if err == nil && w.ExpiresAt == "" && w.ExpiresAt2 == "" && exp.Before(received) {
			t.Fatalf("expiry(%s) = %v, before %v", data, exp, received)
		}
	})
}
