//go:build !race

// The race detector makes sync.Pool drop values at random: this runs
// without it.

package transport

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/internal/redact"
)

// staticToken is a TokenSource whose token never changes.
type staticToken struct{ refusals Refusals }

func (*staticToken) Token(context.Context) (string, error)    { return "svc_oat_t", nil }
func (*staticToken) Invalidate(string)                        {}
func (*staticToken) Generation() uint64                       { return 1 }
func (*staticToken) Fail(context.Context, error, uint64) bool { return false }
func (*staticToken) Reload(context.Context, uint64) bool      { return false }
func (*staticToken) Secrets() redact.Secrets                  { return redact.New("svc_oat_t") }
func (s *staticToken) Refusals() *Refusals                    { return &s.refusals }

// canned answers every request with 200 and a small JSON body.
type canned struct{}

func (canned) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: req,
		Body: io.NopCloser(strings.NewReader(`{"id":"p1"}`)), ContentLength: 11}, nil
}

// A call's state (its go-retryablehttp client, its http.Client under its
// redirect rule, the policies bound to it) is made once and reused: a GET
// costs only a few allocations over the same GET through net/http.
func TestSendReusesCallState(t *testing.T) {
	ctx := context.Background()
	r := New(Options{BaseURL: mustURL(t, "https://api.example.test"), HTTPClient: &http.Client{Transport: canned{}}})
	auth := &staticToken{}
	send := func() {
		if _, err := r.Send(ctx, Request{Method: http.MethodGet, Path: "/v1/projects/p1", Auth: auth}); err != nil {
			t.Fatal(err)
		}
	}
	hc := &http.Client{Transport: canned{}}
	bare := func() {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.test/v1/projects/p1", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer svc_oat_t")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	send()
	extra := testing.AllocsPerRun(100, send) - testing.AllocsPerRun(100, bare)
	if extra > 8 {
		t.Errorf("Send allocates %v times more than net/http for the same GET, want at most 8", extra)
	}
}
