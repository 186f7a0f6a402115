package partnertest_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locsvc/partner-go/partnertest"
)

func TestFaultStatusFiresExactlyTimes(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	at := srv.IssueAccessToken(g.ID)
	me := srv.URL + "/api/oauth-client/me"
	srv.InjectFault(partnertest.Fault{Method: "GET", Path: "/api/oauth-client/me", Times: 3, Status: 503, RetryAfter: "2"})

	var got []int
	for range 5 {
		r := send(t, srv, "GET", me, at, "", "")
		got = append(got, r.status)
		if r.status == 503 {
			if r.header.Get("Retry-After") != "2" || r.errorCode() != "service_unavailable" || r.header.Get("Content-Type") != "application/json" {
				t.Errorf("fault answer: %v %s", r.header, r.body)
			}
		}
	}
	if want := []int{503, 503, 503, 200, 200}; !equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	faulted := 0
	for _, r := range srv.Requests() {
		if r.Fault {
			faulted++
			if r.Status != 503 || r.Token != partnertest.TokenAccess {
				t.Errorf("logged fault %+v", r)
			}
		}
	}
	if faulted != 3 {
		t.Errorf("%d requests logged as faulted, want 3", faulted)
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFaultMatching(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "P", Slug: "p", SourceLanguage: "en"})
	it := srv.IssueInstallationToken(g.ID)
	// One fault per rule, each with plenty of uses; ClearFaults removes them.
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Times: -1, Status: 500})
	srv.InjectFault(partnertest.Fault{Method: "POST", Path: "/api/oauth-client/v1/projects/*/languages", Times: -1, Status: 429, Body: "<html>slow down</html>"})
	srv.InjectFault(partnertest.Fault{Method: "DELETE", Times: -1, Status: 418})

	project := srv.URL + "/api/oauth-client/v1/projects/" + p.ID
	tests := []struct {
		method, url, ctype, body string
		want                     int
	}{
		{"POST", srv.AuthURL + partnertest.TokenPath, "application/x-www-form-urlencoded", refreshForm(g.RefreshToken).Encode(), 500},
		{"GET", srv.AuthURL + "/anything", "", "", 500},
		{"POST", project + "/languages", "application/json", `{"code":"de"}`, 429},
		{"POST", project + "/languages", "application/json", `{"code":"de"}`, 429},
		{"GET", project, "", "", 200},
		{"POST", srv.URL + "/api/oauth-client/v1/projects", "application/json", `{"name":"a","slug":"a","sourceLanguage":"en"}`, 201},
		{"DELETE", project, "", "", 418},
	}
	for _, tt := range tests {
		r := send(t, srv, tt.method, tt.url, it, tt.ctype, tt.body)
		if r.status != tt.want {
			t.Errorf("%s %s: %d %s, want %d", tt.method, tt.url, r.status, r.body, tt.want)
		}
		if r.status == 429 && (string(r.body) != "<html>slow down</html>" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html")) {
			t.Errorf("429 answer: %q %q", r.header.Get("Content-Type"), r.body)
		}
	}
	srv.ClearFaults()
	if r := send(t, srv, "POST", project+"/languages", it, "application/json", `{"code":"de"}`); r.status != 201 {
		t.Errorf("after ClearFaults: %d %s", r.status, r.body)
	}
}

func TestFaultOrder(t *testing.T) {
	srv := newServer(t)
	srv.InjectFault(partnertest.Fault{Status: 502})
	srv.InjectFault(partnertest.Fault{Status: 504, Times: 2})
	var got []int
	for range 4 {
		got = append(got, send(t, srv, "GET", srv.URL+"/", "", "", "").status)
	}
	if want := []int{502, 504, 504, 404}; !equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
}

func TestInjectFaultPanics(t *testing.T) {
	srv := newServer(t)
	for _, f := range []partnertest.Fault{
		{Path: "/api/*"},                 // does nothing
		{Path: "/api/[", Status: 500},    // bad pattern
		{Delay: -time.Second, Times: 10}, // does nothing
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("InjectFault(%+v) did not panic", f)
				}
			}()
			srv.InjectFault(f)
		}()
	}
}

func TestFaultDropAndTruncate(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	org := g.Organizations[0].ID
	it := srv.IssueInstallationToken(g.ID)
	create := func(slug string) (*http.Response, error) {
		req, _ := http.NewRequest("POST", srv.URL+"/api/oauth-client/v1/projects",
			strings.NewReader(`{"name":"n","slug":"`+slug+`","sourceLanguage":"en"}`))
		req.Header.Set("Authorization", "Bearer "+it)
		req.Header.Set("Content-Type", "application/json")
		return srv.Client().Do(req)
	}

	// Drop: the connection closes before the request is served.
	srv.InjectFault(partnertest.Fault{Method: "POST", Drop: true})
	if resp, err := create("dropped"); err == nil {
		resp.Body.Close()
		t.Fatalf("dropped request answered %d", resp.StatusCode)
	}
	if n := len(srv.Projects(org)); n != 0 {
		t.Errorf("a dropped create made %d projects", n)
	}

	// Truncate: the request takes effect; the answer is cut short.
	srv.InjectFault(partnertest.Fault{Method: "POST", Truncate: true})
	resp, err := create("truncated")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 201 {
		t.Errorf("truncated answer: %d %q, err %v; want 201 and io.ErrUnexpectedEOF", resp.StatusCode, body, err)
	}
	if ps := srv.Projects(org); len(ps) != 1 || ps[0].Slug != "truncated" {
		t.Errorf("projects after a truncated create: %+v", ps)
	}

	// Truncate with Status cuts the fault's own answer.
	srv.InjectFault(partnertest.Fault{Status: 500, Body: `{"error":"internal","message":"long enough to cut"}`, Truncate: true})
	r, err := srv.Client().Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 500 || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated fault answer: %d, err %v", r.StatusCode, err)
	}

	log := srv.Requests()
	if got := []int{log[0].Status, log[1].Status, log[2].Status}; !equal(got, []int{0, 201, 500}) || !log[0].Fault || !log[1].Fault {
		t.Errorf("log: %+v", log)
	}
	if r := send(t, srv, "POST", srv.URL+"/api/oauth-client/v1/projects", it, "application/json", `{"name":"n","slug":"ok","sourceLanguage":"en"}`); r.status != 201 {
		t.Errorf("after the faults: %d %s", r.status, r.body)
	}
}

// The faults that take time run in a synctest bubble on the in-memory
// network, so they take no real time.
func TestFaultDelayAndHang(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := newServer(t, partnertest.WithInMemoryNetwork())
		me := srv.URL + "/api/oauth-client/me"
		at := srv.IssueAccessToken(srv.NewGrant().ID)

		// A delay, then the normal answer.
		srv.InjectFault(partnertest.Fault{Delay: 5 * time.Second})
		start := time.Now()
		if r := send(t, srv, "GET", me, at, "", ""); r.status != 200 {
			t.Errorf("delayed request: %d %s", r.status, r.body)
		}
		if d := time.Since(start); d != 5*time.Second {
			t.Errorf("delayed request took %v, want 5s", d)
		}

		// A delay, then a fault status.
		srv.InjectFault(partnertest.Fault{Delay: time.Second, Status: 503})
		if r := send(t, srv, "GET", me, at, "", ""); r.status != 503 {
			t.Errorf("delayed 503: %d %s", r.status, r.body)
		}

		// The client gives up during a delay, and during a hang.
		for _, f := range []partnertest.Fault{{Delay: time.Hour}, {Hang: true}} {
			srv.InjectFault(f)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			req, _ := http.NewRequestWithContext(ctx, "GET", me, nil)
			start := time.Now()
			_, err := srv.Client().Do(req)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != 3*time.Second {
				t.Errorf("%+v: err %v after %v, want a deadline after 3s", f, err, time.Since(start))
			}
		}
		// The same for a POST with a body, which the server reads first.
		for _, f := range []partnertest.Fault{{Host: partnertest.HostAuth, Delay: time.Hour}, {Host: partnertest.HostAuth, Hang: true}} {
			srv.InjectFault(f)
			ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
			req, _ := http.NewRequestWithContext(ctx, "POST", srv.AuthURL+partnertest.TokenPath,
				strings.NewReader(refreshForm("rt").Encode()))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			_, err := srv.Client().Do(req)
			cancel()
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%+v: err %v, want a deadline", f, err)
			}
		}
		synctest.Wait() // let the server log the abandoned requests
		log := srv.Requests()
		if n := len(log); n != 6 {
			t.Fatalf("log: %+v", log)
		}
		for _, r := range log[2:] {
			if r.Status != 0 || !r.Fault {
				t.Errorf("abandoned request logged as %+v", r)
			}
		}
	})
}

func TestCloseReleasesHungRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
		srv.InjectFault(partnertest.Fault{Hang: true, Times: -1})
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		for range 3 {
			wg.Go(func() {
				resp, err := srv.Client().Get(srv.URL + "/api/oauth-client/me")
				if err == nil {
					resp.Body.Close()
				}
				errs <- err
			})
		}
		synctest.Wait() // all three requests are hanging
		srv.Close()
		wg.Wait()
		close(errs)
		for err := range errs {
			if err == nil {
				t.Error("a hung request got an answer")
			}
		}
		if n := len(srv.Requests()); n != 3 {
			t.Errorf("%d requests logged, want 3", n)
		}
	})
}
