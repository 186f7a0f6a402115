package partner_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
)

// TestBadAnswers checks, for each way the service or network can fail, the
// error a caller can branch on, how many requests reached the service, what
// the message says, and that nothing secret leaks into the message.
func TestBadAnswers(t *testing.T) {
	html502 := reply{status: 502, ctype: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>"}
	tests := []struct {
		name    string
		script  map[string][]reply
		call    func(context.Context, *partner.Client) error
		timeout time.Duration // caller's deadline, if any
		want    []error       // errors.Is targets
		notWant []error
		status  int            // the *APIError's status, if one is expected
		counts  map[string]int // requests per endpoint
		msg     string         // part of the error text
		sticky  bool           // a second call fails the same way with no request
		meWorks bool           // with sticky: only the installation token is final
		elapsed time.Duration  // least fake time the call takes
	}{
		{
			name:   "token endpoint 400 invalid_grant",
			script: map[string][]reply{epToken: {errReply(400, "invalid_grant")}},
			want:   []error{partner.ErrInvalidGrant, partner.ErrReauthorizationRequired},
			status: 400, counts: map[string]int{epToken: 1, epMint: 0, epGet: 0},
			msg: "reconnect", sticky: true,
		},
		{
			name:   "token endpoint 401 invalid_grant",
			script: map[string][]reply{epToken: {errReply(401, "invalid_grant")}},
			want:   []error{partner.ErrInvalidGrant, partner.ErrReauthorizationRequired},
			status: 401, counts: map[string]int{epToken: 1}, msg: "invalid_grant", sticky: true,
		},
		{
			name:    "token endpoint 401 invalid_client: the application, not the user",
			script:  map[string][]reply{epToken: {errReply(401, "invalid_client")}},
			want:    []error{partner.ErrConfiguration},
			notWant: []error{partner.ErrReauthorizationRequired, partner.ErrInvalidGrant, partner.ErrTemporary},
			status:  401, counts: map[string]int{epToken: 1}, msg: "users need not reconnect", sticky: true,
		},
		{
			name:    "token endpoint 404: a wrong AuthURL",
			script:  map[string][]reply{epToken: {errReply(404, "not_found")}},
			want:    []error{partner.ErrConfiguration},
			notWant: []error{partner.ErrReauthorizationRequired},
			status:  404, counts: map[string]int{epToken: 1}, sticky: true,
		},
		{
			name:    "token endpoint 403 without a documented code: the application, not the grant",
			script:  map[string][]reply{epToken: {errReply(403, "access_denied")}},
			want:    []error{partner.ErrConfiguration},
			notWant: []error{partner.ErrReauthorizationRequired},
			status:  403, counts: map[string]int{epToken: 1}, sticky: true,
		},
		{
			name:    "token endpoint 500 is temporary and not resent",
			script:  map[string][]reply{epToken: {errReply(500, "server_error")}},
			want:    []error{partner.ErrTemporary},
			notWant: []error{partner.ErrReauthorizationRequired},
			status:  500, counts: map[string]int{epToken: 1, epMint: 0}, msg: "500",
		},
		{
			name:    "token endpoint HTML 502",
			script:  map[string][]reply{epToken: {html502}},
			want:    []error{partner.ErrTemporary},
			notWant: []error{partner.ErrReauthorizationRequired},
			status:  502, counts: map[string]int{epToken: 1}, msg: "502 Bad Gateway",
		},
		{
			name:   "token endpoint 503 is retried, then temporary",
			script: map[string][]reply{epToken: {errReply(503, ""), errReply(503, ""), errReply(503, ""), errReply(503, "")}},
			want:   []error{partner.ErrTemporary}, status: 503,
			counts: map[string]int{epToken: 4, epMint: 0},
		},
		{
			name:   "token endpoint garbage JSON",
			script: map[string][]reply{epToken: {{status: 200, body: "{not json"}}},
			want:   []error{partner.ErrUnexpectedResponse}, notWant: []error{partner.ErrReauthorizationRequired},
			counts: map[string]int{epToken: 1},
		},
		{
			name:   "token endpoint 200 without access_token",
			script: map[string][]reply{epToken: {{status: 200, body: `{"token_type":"Bearer","expires_in":1800}`}}},
			want:   []error{partner.ErrUnexpectedResponse}, counts: map[string]int{epToken: 1},
			msg: "access_token",
		},
		{
			name:    "token endpoint hangs past the caller's deadline",
			script:  map[string][]reply{epToken: {{hang: true}}},
			timeout: 2 * time.Second,
			want:    []error{context.DeadlineExceeded},
			counts:  map[string]int{epToken: 1, epMint: 0},
		},
		{
			name:   "token endpoint unreachable, then up: retried",
			script: map[string][]reply{epToken: {{err: dialFail}}},
			counts: map[string]int{epToken: 2, epMint: 1, epGet: 1},
		},
		{
			name:   "mint 410 grant_revoked",
			script: map[string][]reply{epMint: {errReply(410, "grant_revoked")}},
			want:   []error{partner.ErrGrantRevoked, partner.ErrReauthorizationRequired},
			status: 410, counts: map[string]int{epToken: 1, epMint: 1, epGet: 0}, sticky: true,
		},
		{
			name:   "mint 401 twice: one fresh access token, then held as a configuration error",
			script: map[string][]reply{epMint: {errReply(401, "invalid_token"), errReply(401, "invalid_token")}},
			want:   []error{partner.ErrConfiguration}, notWant: []error{partner.ErrTemporary, partner.ErrReauthorizationRequired},
			status: 401, counts: map[string]int{epToken: 2, epMint: 2, epGet: 0}, sticky: true, msg: "BaseURL",
		},
		{
			name:   "mint 500 is temporary and not resent",
			script: map[string][]reply{epMint: {errReply(500, "")}},
			want:   []error{partner.ErrTemporary}, status: 500,
			counts: map[string]int{epToken: 1, epMint: 1, epGet: 0},
		},
		{
			name:   "mint answers an empty token",
			script: map[string][]reply{epMint: {{status: 201, body: `{"token":"","expiresAt":"2030-01-01T00:00:00Z"}`}}},
			want:   []error{partner.ErrUnexpectedResponse}, counts: map[string]int{epMint: 1, epGet: 0},
			msg: "no token",
		},
		{
			name:   "resource 403 missing_scope",
			script: map[string][]reply{epGet: {jsonReply(403, map[string]string{"error": "missing_scope", "required": "projects:read"})}},
			want:   []error{partner.ErrMissingScope}, notWant: []error{partner.ErrTemporary},
			status: 403, counts: map[string]int{epGet: 1}, msg: "(required: projects:read)",
		},
		{
			name:   "missing_scope recognised whatever the status",
			script: map[string][]reply{epGet: {jsonReply(400, map[string]string{"error": "missing_scope", "required": "projects:read"})}},
			want:   []error{partner.ErrMissingScope}, status: 400, counts: map[string]int{epGet: 1},
		},
		{
			name:   "resource 410 grant_revoked stops the grant",
			script: map[string][]reply{epGet: {errReply(410, "grant_revoked")}},
			want:   []error{partner.ErrGrantRevoked, partner.ErrReauthorizationRequired},
			status: 410, counts: map[string]int{epGet: 1}, sticky: true,
		},
		{
			name:    "resource 429 with Retry-After seconds",
			script:  map[string][]reply{epGet: {{status: 429, body: `{"error":"rate_limited"}`, header: http.Header{"Retry-After": {"7"}}}}},
			counts:  map[string]int{epGet: 2},
			elapsed: 7 * time.Second,
		},
		{
			name: "resource 429 with Retry-After as an HTTP date",
			script: map[string][]reply{epGet: {{status: 429, header: http.Header{
				// synctest's clock starts at 2000-01-01 00:00:00 UTC.
				"Retry-After": {"Sat, 01 Jan 2000 00:00:09 GMT"}}}}},
			counts:  map[string]int{epGet: 2},
			elapsed: 9 * time.Second,
		},
		{
			name:   "resource 429 asking longer than the cap is returned, not awaited",
			script: map[string][]reply{epGet: {{status: 429, header: http.Header{"Retry-After": {"3600"}}}}},
			want:   []error{partner.ErrTemporary}, status: 429, counts: map[string]int{epGet: 1},
			msg: "retry after 1h0m0s",
		},
		{
			name:   "resource 503 retried until it passes",
			script: map[string][]reply{epGet: {errReply(503, ""), errReply(503, "")}},
			counts: map[string]int{epGet: 3},
		},
		{
			name:   "resource 500 on GET retried, then temporary",
			script: map[string][]reply{epGet: {errReply(500, ""), errReply(500, ""), errReply(500, ""), errReply(500, "")}},
			want:   []error{partner.ErrTemporary}, status: 500, counts: map[string]int{epGet: 4},
		},
		{
			name:   "resource 500 on POST sent once",
			script: map[string][]reply{epCreate: {errReply(500, "")}},
			call:   createProject,
			want:   []error{partner.ErrTemporary}, status: 500, counts: map[string]int{epCreate: 1},
		},
		{
			name:   "connection reset on GET is retried",
			script: map[string][]reply{epGet: {{err: connReset}}},
			counts: map[string]int{epGet: 2},
		},
		{
			name:   "connection reset on POST is not resent",
			script: map[string][]reply{epCreate: {{err: connReset}}},
			call:   createProject,
			want:   []error{partner.ErrTemporary, syscall.ECONNRESET}, counts: map[string]int{epCreate: 1},
		},
		{
			name:   "connection refused on POST is retried (nothing was sent)",
			script: map[string][]reply{epCreate: {{err: dialFail}}},
			call:   createProject,
			counts: map[string]int{epCreate: 2},
		},
		{
			name:   "truncated JSON",
			script: map[string][]reply{epGet: {{status: 200, body: `{"id":"p1","na`}}},
			want:   []error{partner.ErrUnexpectedResponse}, counts: map[string]int{epGet: 1},
			msg: "GET /api/oauth-client/v1/projects/p1",
		},
		{
			name:   "body cut off mid-transfer on GET is retried",
			script: map[string][]reply{epGet: {{status: 200, body: `{"id":"p1",`, truncate: true}}},
			counts: map[string]int{epGet: 2},
		},
		{
			name:   "empty 200 body where a record is expected",
			script: map[string][]reply{epGet: {{status: 200, body: ""}}},
			want:   []error{partner.ErrUnexpectedResponse}, counts: map[string]int{epGet: 1},
			msg: "empty body",
		},
		{
			name:   "body over the cap",
			script: map[string][]reply{epGet: {{status: 200, body: `{"id":"p1","name":"` + strings.Repeat("x", 9<<20) + `"}`}}},
			want:   []error{partner.ErrUnexpectedResponse}, counts: map[string]int{epGet: 1},
			msg: "over",
		},
		{
			name:    "404 with JSON",
			script:  map[string][]reply{epGet: {jsonReply(404, map[string]string{"error": "not_found", "message": "no such project"})}},
			notWant: []error{partner.ErrTemporary, partner.ErrReauthorizationRequired},
			status:  404, counts: map[string]int{epGet: 1}, msg: "404 not_found: no such project",
		},
		{
			name:   "401 on a cached installation token: mint once, replay once",
			script: map[string][]reply{epGet: {errReply(401, "invalid_token")}},
			counts: map[string]int{epMint: 2, epGet: 2},
		},
		{
			name:   "401 again after the replay is returned",
			script: map[string][]reply{epGet: {errReply(401, "invalid_token"), errReply(401, "invalid_token")}},
			status: 401, counts: map[string]int{epMint: 2, epGet: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				for ep, rs := range tt.script {
					s.then(ep, rs...)
				}
				c := s.client(t, s.config())
				call := tt.call
				if call == nil {
					call = getProject
				}
				ctx := t.Context()
				if tt.timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, tt.timeout)
					defer cancel()
				}
				start := time.Now()
				err := call(ctx, c)
				elapsed := time.Since(start)

				if len(tt.want) == 0 && tt.status == 0 && err != nil {
					t.Fatalf("error %v, want success", err)
				}
				for _, w := range tt.want {
					if !errors.Is(err, w) {
						t.Errorf("errors.Is(%v, %v) = false", err, w)
					}
				}
				for _, w := range tt.notWant {
					if errors.Is(err, w) {
						t.Errorf("errors.Is(%v, %v) = true", err, w)
					}
				}
				if tt.status != 0 {
					var ae *partner.APIError
					if !errors.As(err, &ae) || ae.StatusCode != tt.status {
						t.Errorf("error %v: want an *APIError with status %d", err, tt.status)
					}
				}
				if err != nil && !strings.Contains(err.Error(), tt.msg) {
					t.Errorf("error %q does not say %q", err, tt.msg)
				}
				synctest.Wait()
				for ep, n := range tt.counts {
					if got := s.n(ep); got != n {
						t.Errorf("%s requests = %d, want %d", ep, got, n)
					}
				}
				if elapsed < tt.elapsed {
					t.Errorf("call took %v of fake time, want at least %v", elapsed, tt.elapsed)
				}
				if err != nil {
					assertNoSecret(t, err.Error(), s.secrets())
				}
				// A refresh detached from a caller that gave up runs on to
				// its own timeout; let it finish inside the bubble.
				time.Sleep(partner.DefaultRefreshTimeout)
				synctest.Wait()
				if tt.sticky {
					total := func() int { return s.n(epToken) + s.n(epMint) + s.n(epGet) + s.n(epMe) }
					before := total()
					final := tt.want[0] // ErrReauthorizationRequired or ErrConfiguration, and its details
					err2 := call(t.Context(), c)
					if !errors.Is(err2, final) || !strings.Contains(err2.Error(), "earlier call") {
						t.Errorf("second call: %v, want %v, said to come from an earlier call", err2, final)
					}
					_, err3 := c.Me(t.Context())
					wantMore := 0 // Me with a working access token reaches the service
					if tt.meWorks {
						wantMore = 1
						if err3 != nil {
							t.Errorf("Me with a valid access token: %v", err3)
						}
					} else if !errors.Is(err3, final) {
						t.Errorf("Me after a final error: %v, want %v", err3, final)
					}
					if after := total(); after != before+wantMore {
						t.Errorf("calls after a final error reached the service: %d requests", after-before)
					}
				}
			})
		})
	}
}

// TestErrorSnippetsHoldNoSecret: the client secret stays out of an error
// and its body snippet, also when the server echoes it JSON-escaped.
func TestErrorSnippetsHoldNoSecret(t *testing.T) {
	s := newScript()
	s.handle(epToken, func(*http.Request) reply {
		// A Go server echoing the secret: encoding/json escapes '&' and '<'.
		return reply{status: 401, body: `{"error":"invalid_client","error_description":"bad secret p\u0026ss\u003cw0rd"}`}
	})
	cfg := s.config()
	cfg.ClientSecret = "p&ss<w0rd"
	_, err := s.client(t, cfg).Me(t.Context())
	var ae *partner.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err = %v, want an *APIError", err)
	}
	if strings.Contains(err.Error(), "p&ss<w0rd") {
		t.Errorf("secret in Error(): %v", err)
	}
	if strings.Contains(string(ae.Body), `p\u0026ss\u003cw0rd`) {
		t.Errorf("JSON-escaped secret left in APIError.Body: %s", ae.Body)
	}
}

// TestErrorTypesAreThePackages: every kind of failure reaches the caller
// as this package's error type, found by errors.As through the caller's own
// wrapping, with the fields set, the sentinels still matching and the text
// of the error as made.
func TestErrorTypesAreThePackages(t *testing.T) {
	t.Run("REST", func(t *testing.T) {
		r := newRig(t)
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostAPI, Path: "/api/oauth-client/v1/projects/*", Status: 409,
			Body: `{"error":"conflict","message":"busy"}`})
		_, err := r.c.Projects.Get(t.Context(), "p1")
		wrapped := fmt.Errorf("sync job: %w", err)
		var ae *partner.APIError
		if !errors.As(wrapped, &ae) || ae.StatusCode != 409 || ae.Code != "conflict" || ae.Message != "busy" || ae.Method != "GET" {
			t.Fatalf("errors.As(%v) = %+v, want a *partner.APIError of the 409", wrapped, ae)
		}
		if ae.Error() != err.Error() || !errors.Is(wrapped, partner.ErrConflict) || !errors.Is(ae, partner.ErrConflict) {
			t.Errorf("APIError text %q (want %q) or ErrConflict lost", ae.Error(), err.Error())
		}
	})
	t.Run("tool", func(t *testing.T) {
		r := newRig(t)
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "listKeys", ToolError: "CONFLICT: busy"})
		_, err := r.listAll(t)
		wrapped := fmt.Errorf("listing: %w", err)
		var te *partner.ToolError
		if !errors.As(wrapped, &te) || te.Tool != "listKeys" || te.Kind != partner.ToolConflict || te.Text == "" {
			t.Fatalf("errors.As(%v) = %+v, want a *partner.ToolError of listKeys", wrapped, te)
		}
		if !strings.HasSuffix(err.Error(), te.Error()) || !errors.Is(wrapped, partner.ErrConflict) {
			t.Errorf("ToolError text %q (in %q) or ErrConflict lost", te.Error(), err.Error())
		}
	})
	t.Run("missing scope", func(t *testing.T) {
		var scopes []string
		for _, s := range partnertest.AllScopes() {
			if s != partnertest.ScopeProjectsWrite {
				scopes = append(scopes, s)
			}
		}
		r := newRig(t, withGrant(partnertest.WithScopes(scopes...)))
		err := fmt.Errorf("setup: %w", createProject(t.Context(), r.c))
		var mse *partner.MissingScopeError
		var ae *partner.APIError
		if !errors.As(err, &mse) || mse.Required != partnertest.ScopeProjectsWrite || !errors.As(err, &ae) || ae.Code != "missing_scope" {
			t.Fatalf("errors.As(%v) = %+v, %+v, want a *partner.MissingScopeError with its *partner.APIError", err, mse, ae)
		}
		if !errors.Is(err, partner.ErrMissingScope) || !strings.Contains(mse.Error(), "(required: "+partnertest.ScopeProjectsWrite+")") {
			t.Errorf("%q: ErrMissingScope or the required scope lost", mse.Error())
		}
	})
	t.Run("built by hand", func(t *testing.T) {
		ae := &partner.APIError{StatusCode: 503, Method: "GET", Path: "/x"}
		te := &partner.ToolError{Tool: "createKeys", Kind: partner.ToolConflict, Text: "CONFLICT"}
		mse := &partner.MissingScopeError{APIError: &partner.APIError{StatusCode: 403, Code: "missing_scope"}, Required: "keys:write"}
		if !errors.Is(ae, partner.ErrTemporary) || ae.Error() != "partner: GET /x: 503 Service Unavailable" {
			t.Errorf("%q: want ErrTemporary", ae)
		}
		if !errors.Is(te, partner.ErrConflict) || !strings.Contains(te.Error(), "tool createKeys failed (conflict)") {
			t.Errorf("%q: want ErrConflict", te)
		}
		if !errors.Is(mse, partner.ErrMissingScope) || !strings.HasSuffix(mse.Error(), "(required: keys:write)") {
			t.Errorf("%q: want ErrMissingScope", mse)
		}
		// Without its *APIError, as a user might build one in a test.
		bare := &partner.MissingScopeError{Required: "keys:write"}
		var got *partner.APIError
		if !errors.Is(bare, partner.ErrMissingScope) || errors.Is(bare, partner.ErrTemporary) || errors.As(bare, &got) {
			t.Errorf("%q: want ErrMissingScope alone, and no *APIError", bare)
		}
		if !strings.HasSuffix(bare.Error(), "(required: keys:write)") {
			t.Errorf("%q: want the required scope", bare)
		}
	})
}
