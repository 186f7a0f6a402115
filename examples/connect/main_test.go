package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

func noEnv(string) string { return "" }

func TestDemo(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	if code := run(t.Context(), []string{"-demo"}, noEnv, &out); code != 0 {
		t.Fatalf("exit %d:\n%s", code, &out)
	}
	// One line per step, in this order.
	want := []string{
		`^No PARTNER_\* settings: using the built-in fake service`,
		`^Set PARTNER_BASE_URL, .*PARTNER_REDIRECT_URL to use a real one\.$`,
		`^Connect: /connect -> consent page 127\.0\.0\.1:\d+/api/auth/mcp/authorize \(state, S256 challenge, scope "org:read projects:read offline_access"\) -> /callback\?code=\.\.\. -> /: 200$`,
		`^List: 2 grants: (grant_\w+) in Acme \(acme\); (grant_\w+) in Globex \(globex\)$`,
		`^A callback with another state: 400 Bad Request, no code sent to the service$`,
		`^A refused consent: /callback\?error=access_denied: 403 Forbidden, nothing exchanged$`,
		`^Disconnect grant_\w+: revoked at the service true, token deleted from the Store true$`,
		`^List: 1 grant: grant_\w+ in Globex \(globex\)$`,
		`^Done\.$`,
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), &out)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d = %q, want it to match %s", i+1, lines[i], re)
		}
	}
}

func TestSomeSettingsMissing(t *testing.T) {
	t.Parallel()
	env := map[string]string{"PARTNER_BASE_URL": "https://api.example.test", "PARTNER_CLIENT_SECRET": "very-secret-value"}
	var out strings.Builder
	if code := run(t.Context(), nil, func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if got := out.String(); !strings.Contains(got, "missing settings: PARTNER_AUTH_URL, PARTNER_CLIENT_ID, PARTNER_REDIRECT_URL (") {
		t.Errorf("the message does not name exactly the missing settings: %s", got)
	}
}

// realEnv is a complete configuration for a real service.
func realEnv(redirect string) func(string) string {
	env := map[string]string{
		"PARTNER_BASE_URL": "https://api.example.test", "PARTNER_AUTH_URL": "https://auth.example.test",
		"PARTNER_CLIENT_ID": "app", "PARTNER_CLIENT_SECRET": "very-secret-value",
		"PARTNER_REDIRECT_URL": redirect,
	}
	return func(k string) string { return env[k] }
}

func TestBadConfiguration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		args     []string
		redirect string
		want     string
	}{
		{"demo needs the fake", []string{"-demo"}, "http://127.0.0.1:8080/callback", "-demo consents on the fake service's behalf"},
		{"redirect not absolute", nil, "/callback", "PARTNER_REDIRECT_URL must be an absolute URL"},
		{"redirect to the list", nil, "http://127.0.0.1:8080/", "path must be the app's own callback"},
		{"redirect not http", nil, "ftp://127.0.0.1:8080/callback", "PoolConfig.RedirectURL"},
		{"unknown flag", []string{"-nope"}, "http://127.0.0.1:8080/callback", "flag provided but not defined: -nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			if code := run(t.Context(), append(tc.args, "-addr", "127.0.0.1:0"), realEnv(tc.redirect), &out); code != 2 {
				t.Fatalf("exit %d, want 2:\n%s", code, &out)
			}
			if got := out.String(); !strings.Contains(got, tc.want) || strings.Contains(got, "very-secret-value") {
				t.Errorf("output %q: want it to contain %q and no secret", got, tc.want)
			}
		})
	}
}

// TestServe runs the app as a user would, without -demo: it prints the
// address to open, serves it, and stops with the context.
func TestServe(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, nil, noEnv, pw)
		pw.Close()
	}()
	lines := bufio.NewScanner(pr)
	var addr string
	for addr == "" && lines.Scan() {
		if m := regexp.MustCompile(`^Open (http://127\.0\.0\.1:\d+)/ in a browser \(callback http://127\.0\.0\.1:\d+/callback\)`).FindStringSubmatch(lines.Text()); m != nil {
			addr = m[1]
		}
	}
	if addr == "" {
		t.Fatal("no address printed")
	}
	b := newBrowser(addr)
	defer b.client.CloseIdleConnections()
	status, body, err := b.do(ctx, http.MethodGet, "/connect", "", true)
	if err != nil || status != http.StatusOK || !strings.Contains(string(body), "Acme (acme)") {
		t.Errorf("GET /connect: %d, %v:\n%s", status, err, body)
	}
	cancel()
	for lines.Scan() {
		t.Logf("more output: %s", lines.Text())
	}
	if c := <-code; c != 0 {
		t.Errorf("exit %d after the context ended, want 0", c)
	}
}

// fakeApp serves the app against a fake service, as run does, and returns
// a browser for it.
func fakeApp(t *testing.T) (*browser, *partnertest.Server) {
	t.Helper()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	ts := httptest.NewUnstartedServer(nil)
	redirect := "http://" + ts.Listener.Addr().String() + "/callback"
	srv.AddRedirectURL(redirect)
	pool, err := partner.NewPool(partner.PoolConfig{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: auth.NewMemoryStore(), RedirectURL: redirect, Scopes: scopes, Pacing: partner.Pacing{Off: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	ts.Config.Handler = newApp(pool, "/callback").handler()
	ts.Start()
	t.Cleanup(ts.Close)
	b := newBrowser(ts.URL)
	t.Cleanup(b.client.CloseIdleConnections)
	return b, srv
}

// connect connects the default user's first organization and returns its
// grant id and the callback address the service sent the browser to.
func connect(t *testing.T, b *browser) (string, *url.URL) {
	t.Helper()
	if status, body, err := b.do(t.Context(), http.MethodGet, "/connect", "", true); err != nil || status != http.StatusOK || len(b.hops) != 3 {
		t.Fatalf("connect: %d after %d redirects, %v: %s", status, len(b.hops), err, body)
	}
	callback := b.hops[1]
	views, err := b.list(t.Context())
	if err != nil || len(views) != 1 {
		t.Fatalf("list: %v, %v", views, err)
	}
	return views[0].GrantID, callback
}

func TestConsentDenied(t *testing.T) {
	t.Parallel()
	b, srv := fakeApp(t)
	srv.SetConsent(partnertest.Consent{Deny: true})
	status, body, err := b.do(t.Context(), http.MethodGet, "/connect", "", true)
	if err != nil || status != http.StatusForbidden || !strings.Contains(string(body), "access_denied") {
		t.Errorf("GET /connect: %d, %v: %s; want 403 naming access_denied", status, err, body)
	}
	if views, err := b.list(t.Context()); err != nil || len(views) != 0 {
		t.Errorf("list: %v, %v; want none", views, err)
	}
}

func TestCallbackWithoutConnect(t *testing.T) {
	t.Parallel()
	b, srv := fakeApp(t)
	status, body, err := b.do(t.Context(), http.MethodGet, "/callback?code=x&state=y", "", true)
	if err != nil || status != http.StatusBadRequest || !strings.Contains(string(body), "start again at /connect") {
		t.Errorf("GET /callback: %d, %v: %s; want 400", status, err, body)
	}
	if n := srv.Counts().Exchanges; n != 0 {
		t.Errorf("%d exchanges at the service, want 0", n)
	}
}

// TestCallbackReplayed: a callback address opened again (the back button,
// a reload) is refused by the app, so the service never sees the code a
// second time, which would revoke the grants it issued.
func TestCallbackReplayed(t *testing.T) {
	t.Parallel()
	b, srv := fakeApp(t)
	id, callback := connect(t, b)
	status, _, err := b.do(t.Context(), http.MethodGet, callback.RequestURI(), "", true)
	if err != nil || status != http.StatusBadRequest {
		t.Errorf("callback again: %d, %v; want 400", status, err)
	}
	if c := srv.Counts(); c.ReusedCodes != 0 {
		t.Errorf("the service saw the code again (%d times)", c.ReusedCodes)
	}
	if views, err := b.list(t.Context()); err != nil || len(views) != 1 || views[0].GrantID != id {
		t.Errorf("list: %v, %v; want %s still connected", views, err, id)
	}
}

// TestConnectAgain: a user who consents again for the same organization
// updates the same grant; the app lists it once.
func TestConnectAgain(t *testing.T) {
	t.Parallel()
	b, _ := fakeApp(t)
	first, _ := connect(t, b)
	if again, _ := connect(t, b); again != first {
		t.Errorf("connected again as %s, want %s", again, first)
	}
}

func TestListAfterUserRevoked(t *testing.T) {
	t.Parallel()
	b, srv := fakeApp(t)
	id, _ := connect(t, b)
	srv.Revoke(id)
	if _, err := b.list(t.Context()); err == nil || !strings.Contains(err.Error(), "connect again") {
		t.Errorf("list: %v; want the grant's error to say connect again", err)
	}
}

func TestDisconnectRefused(t *testing.T) {
	t.Parallel()
	b, srv := fakeApp(t)
	id, _ := connect(t, b)
	for _, tc := range []struct {
		name, grant, header string
		want                int
	}{
		{"unknown grant", "grant_999", "", http.StatusNotFound},
		{"from another site", id, "cross-site", http.StatusForbidden},
	} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, b.base+"/disconnect?grant="+tc.grant, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tc.header != "" {
			req.Header.Set("Sec-Fetch-Site", tc.header)
		}
		resp, err := b.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	if g, _ := srv.Grant(id); g.Revoked {
		t.Error("the grant was revoked")
	}
	if status, _, err := b.do(t.Context(), http.MethodGet, "/disconnect?grant="+id, "", false); err != nil || status != http.StatusMethodNotAllowed {
		t.Errorf("GET /disconnect: %d, %v; want 405", status, err)
	}
}
