package partner_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
)

// mcpURL is the MCP endpoint of scripted tests: a host of its own.
const mcpURL = "https://mcp.example.test/mcp"

// widgets is a REST endpoint the SDK does not wrap: the script answers it
// through its handler for unmatched requests.
const widgets = baseURL + "/api/oauth-client/v1/widgets"

// sentTo returns the requests the script saw for host and path.
func sentTo(s *script, host, path string) []captured {
	var out []captured
	for _, r := range s.requests() {
		if r.Host == host && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// readAll reads and closes resp's body.
func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading the body: %v", err)
	}
	return string(b)
}

func TestHTTPClientSendsTheInstallationTokenOfRESTCalls(t *testing.T) {
	s := newScript()
	c := s.client(t, s.config(withMCPURL))
	s.handle("", func(*http.Request) reply { return reply{status: 200, body: `{"ok":true}`} })
	ctx := t.Context()
	if _, err := c.Projects.List(ctx, "org-1"); err != nil {
		t.Fatal(err)
	}
	hc := c.HTTPClient()
	for _, u := range []string{widgets, mcpURL} {
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatalf("GET %s: %v", u, err)
		}
		if got := readAll(t, resp); resp.StatusCode != 200 || got != `{"ok":true}` {
			t.Fatalf("GET %s: %d %q", u, resp.StatusCode, got)
		}
	}
	if n := s.n(epMint); n != 1 {
		t.Errorf("mints = %d, want 1: HTTPClient must use the token REST calls use", n)
	}
	var list string
	if rs := sentTo(s, "api.example.test", "/api/oauth-client/organizations/org-1/projects"); len(rs) == 1 {
		list = rs[0].Auth
	}
	for _, r := range append(sentTo(s, "api.example.test", "/api/oauth-client/v1/widgets"), sentTo(s, "mcp.example.test", "/mcp")...) {
		if r.Auth != list || r.Auth != "Bearer svc_oat_1" {
			t.Errorf("%s%s carried %q, want the REST calls' %q", r.Host, r.Path, r.Auth, list)
		}
		if !strings.HasPrefix(r.UA, "partner-go/") {
			t.Errorf("%s%s: User-Agent %q, want the SDK's", r.Host, r.Path, r.UA)
		}
	}
	if s.unclosed() != 0 {
		t.Errorf("%d response bodies left open", s.unclosed())
	}
}

func TestHTTPClientSharesTheMintWithRESTOnPartnertest(t *testing.T) {
	r := newRig(t)
	srv, c, g := r.srv, r.c, r.g
	ctx := t.Context()
	hc := c.HTTPClient()
	get := func() {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/oauth-client/organizations", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, resp); resp.StatusCode != 200 || !strings.Contains(body, g.Organizations[0].ID) {
			t.Fatalf("GET organizations: %d %s", resp.StatusCode, body)
		}
	}
	get() // HTTPClient first: it mints
	if _, err := c.Projects.List(ctx, g.Organizations[0].ID); err != nil {
		t.Fatal(err)
	}
	get()
	if got := srv.GrantCounts(g.ID); got.Mints != 1 || got.Refreshes != 1 {
		t.Errorf("GrantCounts = %+v, want one refresh and one mint for REST and HTTPClient together", got)
	}
}

func TestHTTPClientRefusesOtherHosts(t *testing.T) {
	for _, u := range []string{
		"https://evil.example.test/api/oauth-client/v1/widgets",
		"http://api.example.test/api/oauth-client/v1/widgets", // the right host in clear text
		authURL + "/api/auth/mcp/token",                       // the token endpoint's host
		"https://api.example.test:8443/x",                     // another port
		"https://mcp.example.test.evil.test/mcp",
	} {
		t.Run(u, func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config(withMCPURL))
			req, err := http.NewRequest(http.MethodPost, u, strings.NewReader(`{"a":1}`))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := c.HTTPClient().Do(req)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("POST %s: %d, want an error", u, resp.StatusCode)
			}
			if !errors.Is(err, partner.ErrInvalidArgument) {
				t.Errorf("err = %v, want ErrInvalidArgument", err)
			}
			if !strings.Contains(err.Error(), "Config.BaseURL") || !strings.Contains(err.Error(), "Config.MCPURL") {
				t.Errorf("err = %v, want it to name the settings whose hosts get the token", err)
			}
			if n := s.total(); n != 0 {
				t.Errorf("%d requests sent, want none (not even a mint): %+v", n, s.requests())
			}
		})
	}
}

func TestHTTPClientRefusesARedirectToAnotherHost(t *testing.T) {
	s := newScript()
	c := s.client(t, s.config(withMCPURL))
	s.handle("", func(r *http.Request) reply {
		switch r.URL.Path {
		case "/api/oauth-client/v1/widgets":
			return reply{status: http.StatusFound, header: http.Header{"Location": {"https://evil.example.test/steal"}}}
		case "/api/oauth-client/v1/moved":
			return reply{status: http.StatusTemporaryRedirect, header: http.Header{"Location": {"/api/oauth-client/v1/here"}}}
		}
		return reply{status: 200, body: `{"here":true}`}
	})
	hc := c.HTTPClient()

	resp, err := hc.Get(widgets)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("a redirect to another host was followed: %d", resp.StatusCode)
	}
	if !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("err = %v, want ErrInvalidArgument", err)
	}
	for _, r := range s.requests() {
		if r.Host == "evil.example.test" {
			t.Errorf("a request went to %s with %q", r.Host, r.Auth)
		}
	}
	assertNoSecret(t, err.Error(), s.secrets())

	// A redirect on the same host is followed, with the token.
	resp, err = hc.Get(baseURL + "/api/oauth-client/v1/moved")
	if err != nil {
		t.Fatal(err)
	}
	if body := readAll(t, resp); resp.StatusCode != 200 || body != `{"here":true}` {
		t.Fatalf("same-host redirect: %d %q", resp.StatusCode, body)
	}
	if got := sentTo(s, "api.example.test", "/api/oauth-client/v1/here"); len(got) != 1 || got[0].Auth != "Bearer svc_oat_1" {
		t.Errorf("the redirected request: %+v, want one with the installation token", got)
	}
	if s.unclosed() != 0 {
		t.Errorf("%d response bodies left open", s.unclosed())
	}
}

func TestHTTPClientReplaysOnceAfter401(t *testing.T) {
	const payload = `{"name":"w","size":3}`
	post := func(t *testing.T, c *partner.Client, body io.Reader) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, widgets, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.HTTPClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	widgetReqs := func(s *script) []captured { return sentTo(s, "api.example.test", "/api/oauth-client/v1/widgets") }

	t.Run("401 then 200", func(t *testing.T) {
		s := newScript()
		c := s.client(t, s.config(withMCPURL))
		s.then("", errReply(401, "invalid_token"), reply{status: 201, body: `{"id":"w1"}`})
		resp := post(t, c, bytes.NewReader([]byte(payload)))
		if body := readAll(t, resp); resp.StatusCode != 201 || body != `{"id":"w1"}` {
			t.Fatalf("got %d %q, want the replay's 201", resp.StatusCode, body)
		}
		got := widgetReqs(s)
		if len(got) != 2 {
			t.Fatalf("%d requests, want the first and one replay", len(got))
		}
		if got[0].Auth != "Bearer svc_oat_1" || got[1].Auth != "Bearer svc_oat_2" {
			t.Errorf("tokens %q then %q, want the refused one then a new one", got[0].Auth, got[1].Auth)
		}
		for i, r := range got {
			if r.Body != payload || r.ContentType != "application/json" {
				t.Errorf("request %d: body %q, Content-Type %q; want the same request again", i, r.Body, r.ContentType)
			}
		}
		if n := s.n(epMint); n != 2 {
			t.Errorf("mints = %d, want 2 (one re-mint)", n)
		}
		if s.unclosed() != 0 {
			t.Errorf("%d response bodies left open (the 401's must be closed)", s.unclosed())
		}
	})

	t.Run("401 twice", func(t *testing.T) {
		s := newScript()
		c := s.client(t, s.config(withMCPURL))
		s.then("", errReply(401, "invalid_token"), errReply(401, "invalid_token"), reply{status: 200})
		resp := post(t, c, bytes.NewReader([]byte(payload)))
		if body := readAll(t, resp); resp.StatusCode != 401 || !strings.Contains(body, "invalid_token") {
			t.Fatalf("got %d %q, want the second 401 as a response", resp.StatusCode, body)
		}
		if got := widgetReqs(s); len(got) != 2 {
			t.Errorf("%d requests, want 2 (one replay only)", len(got))
		}
		if n := s.n(epMint); n != 2 {
			t.Errorf("mints = %d, want 2 (one re-mint only)", n)
		}
		if s.unclosed() != 0 {
			t.Errorf("%d response bodies left open", s.unclosed())
		}
	})

	t.Run("body without GetBody", func(t *testing.T) {
		// The body is read before the request is sent, so a body that
		// net/http could not send again is replayed too.
		s := newScript()
		c := s.client(t, s.config(withMCPURL))
		s.then("", errReply(401, "invalid_token"))
		s.handle("", func(*http.Request) reply { return reply{status: 200} })
		resp := post(t, c, io.NopCloser(strings.NewReader(payload)))
		if body := readAll(t, resp); resp.StatusCode != 200 {
			t.Fatalf("got %d %q, want the replay's 200", resp.StatusCode, body)
		}
		got := widgetReqs(s)
		if len(got) != 2 || got[0].Body != payload || got[1].Body != payload {
			t.Fatalf("requests %+v, want the request and one replay with the same body", got)
		}
		if got[1].Auth == got[0].Auth {
			t.Errorf("the replay carried %q again, want a new token", got[0].Auth)
		}
		if s.unclosed() != 0 {
			t.Errorf("%d response bodies left open", s.unclosed())
		}
	})

	t.Run("GET without a body", func(t *testing.T) {
		s := newScript()
		c := s.client(t, s.config(withMCPURL))
		s.then("", errReply(401, "invalid_token"), reply{status: 200, body: `[]`})
		resp, err := c.HTTPClient().Get(widgets)
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, resp); resp.StatusCode != 200 || body != `[]` {
			t.Fatalf("got %d %q, want the replay's answer", resp.StatusCode, body)
		}
		if n := s.n(epMint); n != 2 {
			t.Errorf("mints = %d, want 2", n)
		}
	})
}

func TestHTTPClientReturnsErrorStatusesAsResponses(t *testing.T) {
	for _, r := range []reply{
		{status: 404, body: `{"error":"not_found","message":"no widget w9"}`},
		{status: 500, ctype: "text/html", body: "<html><body>Internal Server Error</body></html>"},
		{status: 503, body: `{"error":"unavailable"}`, header: http.Header{"Retry-After": {"1"}}},
		{status: 403, body: `{"error":"missing_scope","required":"keys:write"}`},
		{status: 409, body: `{"error":"conflict"}`},
	} {
		t.Run(http.StatusText(r.status), func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config(withMCPURL))
			s.then("", r)
			resp, err := c.HTTPClient().Get(widgets + "/w9")
			if err != nil {
				t.Fatalf("err = %v, want the %d as a response", err, r.status)
			}
			if body := readAll(t, resp); resp.StatusCode != r.status || body != r.body {
				t.Errorf("got %d %q, want %d %q", resp.StatusCode, body, r.status, r.body)
			}
			if got := sentTo(s, "api.example.test", "/api/oauth-client/v1/widgets/w9"); len(got) != 1 {
				t.Errorf("%d requests, want 1: HTTPClient does not retry", len(got))
			}
			if n := s.n(epMint); n != 1 {
				t.Errorf("mints = %d, want 1", n)
			}
			// The grant is fine: REST still works.
			if _, err := c.Projects.List(t.Context(), "org-1"); err != nil {
				t.Errorf("Projects.List after a %d: %v", r.status, err)
			}
		})
	}
}

func TestHTTPClientGrantRevoked(t *testing.T) {
	const revoked = `{"error":"grant_revoked","message":"The user revoked the grant"}`
	s := newScript()
	c := s.client(t, s.config(withMCPURL))
	s.then("", reply{status: 410, body: revoked})
	resp, err := c.HTTPClient().Get(widgets)
	if err != nil {
		t.Fatalf("err = %v, want the 410 as a response", err)
	}
	if body := readAll(t, resp); resp.StatusCode != 410 || body != revoked {
		t.Fatalf("got %d %q, want %q in full", resp.StatusCode, body, revoked)
	}
	before := s.total()
	_, err = c.Projects.List(t.Context(), "org-1")
	if !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatalf("Projects.List after a 410 grant_revoked: %v, want ErrReauthorizationRequired", err)
	}
	if n := s.total() - before; n != 0 {
		t.Errorf("Projects.List sent %d requests, want none: the grant is final", n)
	}
	resp, err = c.HTTPClient().Get(widgets)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("HTTPClient after revocation: %d, want an error", resp.StatusCode)
	}
	if !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Errorf("HTTPClient after revocation: %v, want ErrReauthorizationRequired", err)
	}
	if n := s.total() - before; n != 0 {
		t.Errorf("%d requests after the grant was final, want none", n)
	}
	if s.unclosed() != 0 {
		t.Errorf("%d response bodies left open", s.unclosed())
	}
}

func TestHTTPClient410WithAnotherCodeLeavesTheGrant(t *testing.T) {
	long := `{"error":"widget_retired","message":"` + strings.Repeat("gone for good. ", 700) + `"}` // past any peek at the body
	for name, body := range map[string]string{
		"short": `{"error":"widget_retired","message":"This widget was retired"}`,
		"long":  long,
	} {
		t.Run(name, func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config(withMCPURL))
			s.then("", reply{status: 410, body: body})
			resp, err := c.HTTPClient().Get(widgets)
			if err != nil {
				t.Fatal(err)
			}
			if got := readAll(t, resp); resp.StatusCode != 410 || got != body {
				t.Fatalf("got %d and %d bytes, want 410 and the %d bytes sent", resp.StatusCode, len(got), len(body))
			}
			if _, err := c.Projects.List(t.Context(), "org-1"); err != nil {
				t.Errorf("Projects.List after a 410 widget_retired: %v, want the grant still usable", err)
			}
		})
	}
}

func TestHTTPClientRevokedWithALongBody(t *testing.T) {
	// A long 410 body is still returned in full.
	body := `{"error":"grant_revoked","message":"` + strings.Repeat("x", 10_000) + `"}`
	s := newScript()
	c := s.client(t, s.config(withMCPURL))
	s.then("", reply{status: 410, body: body})
	resp, err := c.HTTPClient().Get(widgets)
	if err != nil {
		t.Fatal(err)
	}
	if got := readAll(t, resp); got != body {
		t.Fatalf("read %d bytes, want all %d", len(got), len(body))
	}
	if s.unclosed() != 0 {
		t.Errorf("%d response bodies left open", s.unclosed())
	}
}

func TestHTTPClientTransportErrorsHoldNoSecret(t *testing.T) {
	s := newScript()
	cfg := s.config()
	cfg.MCPURL = mcpURL
	logs := debugLogs(&cfg)
	c := s.client(t, cfg)
	if _, err := c.Projects.List(t.Context(), "org-1"); err != nil {
		t.Fatal(err)
	}
	// A proxy that quotes the request in its error.
	s.then("", reply{err: errors.New("proxyconnect: refused Authorization: Bearer svc_oat_1 for client-secret-S3CR3T")},
		reply{err: connReset})
	hc := c.HTTPClient()
	for i := range 2 {
		resp, err := hc.Get(widgets)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("request %d: %d, want a transport error", i, resp.StatusCode)
		}
		assertNoSecret(t, err.Error(), s.secrets())
		if i == 1 && !errors.Is(err, syscall.ECONNRESET) {
			t.Errorf("err = %v, want its chain kept (ECONNRESET)", err)
		}
	}
	if got := sentTo(s, "api.example.test", "/api/oauth-client/v1/widgets"); len(got) != 2 {
		t.Errorf("%d requests, want 2: a transport error is not retried", len(got))
	}
	assertNoSecret(t, logs.String(), s.secrets())
}

func TestHTTPClientConcurrentUse(t *testing.T) {
	// On loopback: the in-memory network's TLS servers log the handshakes
	// of the spare connections 32 first requests dial.
	r := newRig(t, onLoopback())
	srv, c, g := r.srv, r.c, r.g
	ctx := t.Context()
	orgs := srv.URL + "/api/oauth-client/organizations"
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := range 32 {
		wg.Go(func() {
			if i%2 == 0 {
				_, err := c.Projects.List(ctx, g.Organizations[0].ID)
				errs <- err
				return
			}
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, orgs, nil)
			resp, err := c.HTTPClient().Do(req)
			if err == nil {
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					err = errors.New(resp.Status)
				}
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if got := srv.GrantCounts(g.ID); got.Mints != 1 || got.Refreshes != 1 {
		t.Errorf("GrantCounts = %+v, want one refresh and one mint for 32 concurrent calls", got)
	}
	var kinds []partnertest.TokenKind
	for _, r := range srv.Requests() {
		if r.Host == partnertest.HostAPI && r.Path == "/api/oauth-client/organizations" {
			kinds = append(kinds, r.Token)
		}
	}
	for _, k := range kinds {
		if k != partnertest.TokenInstallation {
			t.Errorf("an HTTPClient request carried a %v token, want the installation token", k)
		}
	}
}

// TestHTTPClientEndpointRefusingEveryToken: an endpoint that refuses
// installation tokens costs one re-mint, not a mint per request; an answer
// other than 401 lets the next refusal re-mint again.
func TestHTTPClientEndpointRefusingEveryToken(t *testing.T) {
	for _, replayable := range []bool{true, false} {
		t.Run(fmt.Sprintf("replayable=%v", replayable), func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config(withMCPURL))
			s.handle("", func(*http.Request) reply { return errReply(401, "invalid_token") })
			for range 20 {
				var body io.Reader = bytes.NewReader([]byte(`{}`))
				if !replayable {
					body = io.NopCloser(strings.NewReader(`{}`))
				}
				req, _ := http.NewRequest(http.MethodPost, widgets, body)
				resp, err := c.HTTPClient().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				if readAll(t, resp); resp.StatusCode != 401 {
					t.Fatalf("status %d, want the 401", resp.StatusCode)
				}
			}
			if n := s.n(epMint); n != 2 {
				t.Errorf("mints = %d over 20 refused requests, want 2 (the first and one re-mint)", n)
			}
			// The token works elsewhere: the budget is reset.
			s.handle("", func(*http.Request) reply { return reply{status: 200} })
			resp, err := c.HTTPClient().Get(widgets)
			if err != nil {
				t.Fatal(err)
			}
			readAll(t, resp)
			s.handle("", func(*http.Request) reply { return errReply(401, "invalid_token") })
			resp, _ = c.HTTPClient().Get(widgets)
			readAll(t, resp)
			if n := s.n(epMint); n != 3 {
				t.Errorf("mints = %d after a 200 and a new refusal, want 3", n)
			}
		})
	}
}

// TestHTTPClientRedirectErrorsHoldNoToken: a redirect whose Location
// carries the token (in its path or query) ends in an error that holds
// neither, wherever it points: another host, a loop on the same host, a
// configured host on a port nothing listens on.
func TestHTTPClientRedirectErrorsHoldNoToken(t *testing.T) {
	for name, location := range map[string]func(tok string) string{
		"another host": func(tok string) string { return "https://evil.example.test/steal/" + tok + "?t=" + tok },
		"loop": func(tok string) string {
			return "/api/oauth-client/v1/widgets?access_token=" + tok + "&n=" + tok[len(tok)-1:]
		},
		"path loop":     func(tok string) string { return "/api/oauth-client/v1/widgets/" + tok },
		"dead address":  func(tok string) string { return "https://api.example.test:1/x/" + tok },
		"percent token": func(tok string) string { return "https://evil.example.test/?t=%" + fmt.Sprintf("%X", tok[0]) + tok[1:] },
	} {
		t.Run(name, func(t *testing.T) {
			s := newScript()
			c := s.client(t, s.config(withMCPURL))
			s.handle("", func(r *http.Request) reply {
				tok := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
				return reply{status: http.StatusFound, header: http.Header{"Location": {location(tok)}}}
			})
			resp, err := c.HTTPClient().Get(widgets)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("got %d, want an error", resp.StatusCode)
			}
			secrets := append(s.secrets(), "svc_oat_")
			assertNoSecret(t, err.Error(), secrets)
			assertNoSecret(t, fmt.Sprintf("%+v", err), secrets)
		})
	}
}

// TestHTTPClientRedirectToAnotherConfiguredHost: a redirect from BaseURL's
// host to MCPURL's carries the installation token there too: both are
// hosts the token may go to.
func TestHTTPClientRedirectToAnotherConfiguredHost(t *testing.T) {
	s := newScript()
	c := s.client(t, s.config(withMCPURL))
	s.handle("", func(r *http.Request) reply {
		if r.URL.Host == "api.example.test" {
			return reply{status: http.StatusTemporaryRedirect, header: http.Header{"Location": {"https://mcp.example.test/elsewhere"}}}
		}
		return reply{status: 200, body: `{}`}
	})
	resp, err := c.HTTPClient().Get(widgets)
	if err != nil {
		t.Fatal(err)
	}
	readAll(t, resp)
	if got := sentTo(s, "mcp.example.test", "/elsewhere"); len(got) != 1 || got[0].Auth != "Bearer svc_oat_1" {
		t.Errorf("the redirected request: %+v, want one with the installation token", got)
	}
}
