package transport

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// TestRetryDecision is the retry policy as a table: what is retried, for
// which kind of request.
func TestRetryDecision(t *testing.T) {
	p := policy{retryAfterMax: 30 * time.Second}
	dial := &net.OpError{Op: "dial", Err: errors.New("connection refused")}
	reset := &net.OpError{Op: "read", Err: errors.New("connection reset by peer")}
	h := func(ra string) http.Header { return http.Header{"Retry-After": {ra}} }
	for _, tc := range []struct {
		name       string
		idempotent bool
		status     int
		header     http.Header
		err        error
		want       bool
	}{
		{"dial error, write", false, 0, nil, dial, true},
		{"DNS error, write", false, 0, nil, &net.DNSError{Err: "no such host"}, true},
		{"reset after sending, write", false, 0, nil, reset, false},
		{"reset after sending, read", true, 0, nil, reset, true},
		{"token source failed", true, 0, nil, &tokenError{errors.New("refresh failed")}, false},
		{"redirect refused", true, 0, nil, &RedirectError{Host: "x"}, false},
		{"body over the limit", true, 0, nil, errTooLarge, false},
		{"429 without Retry-After, write", false, 429, nil, nil, true},
		{"429 with a short Retry-After", false, 429, h("2"), nil, true},
		{"429 with a Retry-After over the cap", true, 429, h("120"), nil, false},
		{"503, write", false, 503, nil, nil, true},
		{"500, write", false, 500, nil, nil, false},
		{"500, read", true, 500, nil, nil, true},
		{"502, read", true, 502, nil, nil, true},
		{"504, read", true, 504, nil, nil, true},
		{"501, read", true, 501, nil, nil, false},
		{"401", true, 401, nil, nil, false},
		{"404", true, 404, nil, nil, false},
		{"200", true, 200, nil, nil, false},
	} {
		if got := p.retry(tc.idempotent, tc.status, tc.header, tc.err); got != tc.want {
			t.Errorf("%s: retry = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	p := policy{}
	lo, hi := 100*time.Millisecond, time.Second
	if d := p.backoff(lo, hi, 0, &http.Response{StatusCode: 429, Header: http.Header{"Retry-After": {"3"}}}); d != 3*time.Second {
		t.Errorf("429 with Retry-After 3: wait %v, want 3s", d)
	}
	for attempt, max := range []time.Duration{lo, 2 * lo, 4 * lo, 8 * lo, hi, hi} {
		for range 50 {
			if d := p.backoff(lo, hi, attempt, nil); d < max/2 || d > max {
				t.Fatalf("attempt %d: wait %v, want in [%v, %v]", attempt, d, max/2, max)
			}
		}
	}
}

func TestCheckRetryStopsWhenTheCallerGivesUp(t *testing.T) {
	r := New(Options{BaseURL: mustURL(t, "https://api.example.test")})
	c := r.newCall(Request{Method: http.MethodGet, Path: "/x"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if retry, err := c.checkRetry(ctx, &http.Response{StatusCode: 503}, nil); retry || !errors.Is(err, context.Canceled) {
		t.Errorf("checkRetry after cancel = %v, %v", retry, err)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
