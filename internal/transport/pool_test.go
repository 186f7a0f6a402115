package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// echoPath answers each request with its own path as the body.
type echoPath struct{}

func (echoPath) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"X-Path": {req.URL.Path}}, Request: req,
		Body: io.NopCloser(strings.NewReader(req.URL.Path))}, nil
}

// Call values are reused, but what a caller gets (the body, the header,
// a Raw answer's request) stays as it was while other calls run.
func TestAnswersOutliveTheirCall(t *testing.T) {
	r := New(Options{BaseURL: mustURL(t, "https://api.example.test"), HTTPClient: &http.Client{Transport: echoPath{}}})
	ctx := context.Background()
	type kept struct {
		path string
		resp Response
	}
	var mu sync.Mutex
	var all []kept
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				path := fmt.Sprintf("/g%d/%d", g, i)
				q := Request{Method: http.MethodGet, Path: path}
				if i%2 == 1 {
					q.Kind, q.URL = Raw, mustURL(t, "https://api.example.test"+path)
				}
				resp, err := r.Send(ctx, q)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				all = append(all, kept{path, resp})
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	for _, k := range all {
		body := k.resp.Body
		if k.resp.HTTP != nil {
			if got := k.resp.HTTP.Request.URL.Path; got != k.path {
				t.Errorf("%s: the Raw answer's request is for %s", k.path, got)
			}
			body, _ = io.ReadAll(k.resp.HTTP.Body)
		}
		if string(body) != k.path || k.resp.Header.Get("X-Path") != k.path {
			t.Errorf("%s: body %q, header %q", k.path, body, k.resp.Header.Get("X-Path"))
		}
	}
}
