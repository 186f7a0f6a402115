package transport

import (
	"context"
	"net/http"
	"testing"

	"github.com/locsvc/partner-go/hooks"
)

// A CallEnd hook alone, without the attempt hooks, still gets the number
// of attempts the call sent.
func TestCallEndAloneCountsAttempts(t *testing.T) {
	var got []hooks.Call
	h := &hooks.Hooks{CallEnd: func(_ context.Context, c hooks.Call) { got = append(got, c) }}
	r := New(Options{BaseURL: mustURL(t, "https://api.example.test"), HTTPClient: &http.Client{Transport: echoPath{}}, Hooks: h})
	if _, err := r.Send(context.Background(), Request{Method: http.MethodGet, Path: "/projects/1", Op: "Projects.Get"}); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Attempts != 1 || got[0].Status != http.StatusOK {
		t.Errorf("CallEnd got %+v, want one call of 1 attempt answered 200", got)
	}
}
