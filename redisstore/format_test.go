package redisstore

import (
	"testing"
	"time"
)

func FuzzInstallationValue(f *testing.F) {
	f.Add("it-1:with:colons", int64(1_800_000_000_123_456_789))
	f.Add("", int64(0))
	f.Fuzz(func(t *testing.T, token string, ns int64) {
		v := formatInstallation(token, time.Unix(0, ns))
		got, exp, ok := parseInstallation(v)
		if !ok || got != token || exp.UnixNano() != ns {
			t.Fatalf("parse(format(%q, %d)) = %q, %d, %v", token, ns, got, exp.UnixNano(), ok)
		}
		parseInstallation(token) // any value: no panic
	})
}
