package apierr

import (
	"net/http"
	"testing"
	"time"
)

// FuzzRetryAfter: any header value gives a delay between 0 and a day, or
// none.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "7", "-1", "99999999999999999999", "Sat, 01 Jan 2000 00:00:09 GMT", "Fri, 01 Jan 2100 00:00:00 GMT", "soon", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok := RetryAfter(http.StatusTooManyRequests, http.Header{"Retry-After": {v}})
		if _, other := RetryAfter(http.StatusBadGateway, http.Header{"Retry-After": {v}}); other {
			t.Fatalf("RetryAfter(502, %q) gives a wait: only 429 and 503 ask for one", v)
		}
		if !ok {
			return
		}
		if d < 0 || d > 24*time.Hour {
			t.Fatalf("RetryAfter(%q) = %v", v, d)
		}
	})
}
