package partner_test

// Failures of the translation tools (Config.MCPURL) against partnertest:
// expired tokens, revoked grants, a refused endpoint, scopes, the publish
// cooldown, broken connections and error statuses, concurrency, secrets
// in error texts, and Close.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// listAll lists every key of the rig's project and returns how many.
func (r *rig) listAll(t *testing.T) (int, error) {
	t.Helper()
	n := 0
	for _, err := range r.c.Keys.All(t.Context(), r.project, keys.ListOptions{}) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (r *rig) create(t *testing.T, names ...string) (*keys.CreateResult, error) {
	t.Helper()
	var ks []keys.NewKey
	for _, n := range names {
		ks = append(ks, keys.NewKey{Name: n, SourceText: "text of " + n, Translations: map[string]string{"de": n + " (de)"}})
	}
	return r.c.Keys.Create(t.Context(), r.project, ks, keys.CreateOptions{})
}

// TestToolsTokenExpiresMidSession: the installation token expires between
// two calls of one session. One new token is minted, the session goes on
// (no second initialize) and the call succeeds, whether the client saw the
// expiry coming (both clocks moved) or the server refused the token (its
// clock alone moved).
func TestToolsTokenExpiresMidSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		pass func(*partnertest.Server)
	}{
		{"both clocks move", func(*partnertest.Server) { time.Sleep(partnertest.InstallationTokenLifetime + time.Minute) }},
		{"the server refuses the token", func(srv *partnertest.Server) {
			srv.Advance(partnertest.InstallationTokenLifetime + time.Minute)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t)
				if _, err := r.create(t, "a"); err != nil {
					t.Fatal(err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 1 {
					t.Fatalf("%d mints before the expiry, want 1", m)
				}
				tc.pass(r.srv)
				if n, err := r.listAll(t); err != nil || n != 1 {
					t.Fatalf("after the expiry: %d keys, %v", n, err)
				}
				if _, err := r.create(t, "b"); err != nil {
					t.Fatalf("a write after the expiry: %v", err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
					t.Errorf("%d mints, want 2 (one new token)", m)
				}
				if n := r.srv.MCPCounts().Initializes; n != 1 {
					t.Errorf("%d initialize calls, want 1: the session survives", n)
				}
				if n := r.srv.MCPCounts().ToolCalls["createKeys"]; n != 2 {
					t.Errorf("createKeys sent %d times, want 2", n)
				}
			})
		})
	}
}

// TestToolsGrantRevokedMidSession: once the user revokes the grant, the
// next tool call says so, and no later call (tool or REST) reaches the
// service.
func TestToolsGrantRevokedMidSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		if _, err := r.create(t, "a"); err != nil {
			t.Fatal(err)
		}
		r.srv.Revoke(r.g.ID)
		_, err := r.listAll(t)
		if !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("after the revocation: %v, want ErrReauthorizationRequired", err)
		}
		sent := len(r.srv.Requests())
		ctx := t.Context()
		later := map[string]func() error{
			"Keys.All": func() error { _, err := r.listAll(t); return err },
			"Keys.Create": func() error {
				_, err := r.create(t, "b")
				return err
			},
			"Translations.Publish": func() error {
				_, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
				return err
			},
			"Tools.List": func() error {
				_, err := r.c.Tools.List(ctx, partner.TranslationTools)
				return err
			},
			"Projects.List": func() error {
				_, err := r.c.Projects.List(ctx, r.g.Organizations[0].ID)
				return err
			},
		}
		for range 2 {
			for name, call := range later {
				if err := call(); !errors.Is(err, partner.ErrReauthorizationRequired) {
					t.Errorf("%s after the revocation: %v, want ErrReauthorizationRequired", name, err)
				}
			}
			time.Sleep(2 * partnertest.InstallationTokenLifetime) // past every token's expiry too
		}
		if n := len(r.srv.Requests()) - sent; n != 0 {
			t.Errorf("%d requests reached the service after the grant was known to be revoked: %+v", n, r.srv.Requests()[sent:])
		}
	})
}

// TestToolsEndpointRefusesEveryToken: an MCP endpoint that answers 401 to
// every token gives ErrMCPUnauthorized, not a revoked grant; REST keeps
// working; and 50 calls cost one re-mint, not one per call.
func TestToolsEndpointRefusesEveryToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Status: http.StatusUnauthorized,
			Body: `{"error":"Invalid or expired OAuth token"}`, Times: -1})
		for i := range 50 {
			_, err := r.create(t, fmt.Sprintf("k%d", i))
			if !errors.Is(err, partner.ErrMCPUnauthorized) {
				t.Fatalf("call %d: %v, want ErrMCPUnauthorized", i, err)
			}
			if errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("call %d: %v matches ErrReauthorizationRequired; the grant is not gone", i, err)
			}
		}
		// The first token, then one re-mint for it; the refused new token
		// is remembered.
		if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
			t.Errorf("%d mints over 50 calls, want 2 (the token and one re-mint)", m)
		}
		if n := len(mcpRequests(r.srv)); n != 2 {
			t.Errorf("%d requests reached the MCP endpoint over 50 calls, want 2", n)
		}
		if _, err := r.c.Projects.List(t.Context(), r.g.Organizations[0].ID); err != nil {
			t.Errorf("REST after the MCP endpoint refused the token: %v", err)
		}
		if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
			t.Errorf("REST minted again (%d mints): it should keep using the token", m)
		}

		// Once the token changes for another reason (it expires), the
		// endpoint is tried again, with the same budget.
		r.srv.ClearFaults()
		time.Sleep(partnertest.InstallationTokenLifetime)
		if _, err := r.create(t, "after"); err != nil {
			t.Errorf("with a new token and the endpoint accepting it: %v", err)
		}
	})
}

// TestToolsMissingScopeForPublish: a grant without translations:publish
// gets a *MissingScopeError naming it.
func TestToolsMissingScopeForPublish(t *testing.T) {
	var scopes []string
	for _, s := range partnertest.AllScopes() {
		if s != partnertest.ScopeTranslationsPublish {
			scopes = append(scopes, s)
		}
	}
	r := newRig(t, withGrant(partnertest.WithScopes(scopes...)))
	if _, err := r.create(t, "a"); err != nil {
		t.Fatal(err)
	}
	_, err := r.c.Translations.Publish(t.Context(), r.project, translations.PublishOptions{})
	var mse *partner.MissingScopeError
	if !errors.As(err, &mse) || mse.Required != partnertest.ScopeTranslationsPublish {
		t.Fatalf("Publish without the scope: %v, want a *MissingScopeError with Required %q", err, partnertest.ScopeTranslationsPublish)
	}
	var te *partner.ToolError
	if !errors.Is(err, partner.ErrMissingScope) || !errors.As(err, &te) || te.Kind != partner.ToolMissingScope || te.Tool != "publishTranslations" {
		t.Errorf("Publish without the scope: %v (%+v), want ErrMissingScope and a *ToolError of kind %s", err, te, partner.ToolMissingScope)
	}
	if errors.Is(err, partner.ErrReauthorizationRequired) || errors.Is(err, partner.ErrMCPUnauthorized) {
		t.Errorf("a missing scope matches %v", err)
	}
	// The grant still works for what it may do.
	if _, err := r.listAll(t); err != nil {
		t.Errorf("listing after the refused publish: %v", err)
	}
}

// TestToolsPublishCooldown: a second publish within 30 s fails at once
// with ErrTemporary and the cooldown; the SDK does not wait by itself.
func TestToolsPublishCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		res, err := r.create(t, "a")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Translations.Set(ctx, r.project, []translations.Values{{KeyID: res.Created[0].ID, Text: map[string]string{"fr": "A (fr)"}}}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
		if !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("second publish: %v, want ErrTemporary", err)
		}
		var te *partner.ToolError
		if !errors.As(err, &te) || te.Kind != partner.ToolTooManyRequests || te.RetryAfter <= 0 || te.RetryAfter > partnertest.PublishCooldown {
			t.Fatalf("second publish: %+v, want a *ToolError of kind %s with a RetryAfter up to %v", te, partner.ToolTooManyRequests, partnertest.PublishCooldown)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the SDK waited %v", d)
		}
		if n := r.srv.MCPCounts().ToolCalls["publishTranslations"]; n != 2 {
			t.Errorf("publishTranslations sent %d times, want 2", n)
		}
		time.Sleep(te.RetryAfter)
		if _, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{}); err != nil {
			t.Errorf("publish after RetryAfter: %v", err)
		}
	})
}

// TestToolsDroppedConnection: a connection dropped during a write is not
// sent again (the error says it may have run); during a read it is.
func TestToolsDroppedConnection(t *testing.T) {
	t.Run("createKeys", func(t *testing.T) {
		r := newRig(t)
		if _, err := r.listAll(t); err != nil { // connected
			t.Fatal(err)
		}
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createKeys", Drop: true})
		_, err := r.create(t, "a")
		if !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("Create over a dropped connection: %v, want ErrTemporary", err)
		}
		if n := r.srv.MCPCounts().ToolCalls["createKeys"]; n != 1 {
			t.Errorf("createKeys sent %d times, want 1", n)
		}
		// The session goes on for the next call.
		if _, err := r.create(t, "b"); err != nil {
			t.Errorf("the next call: %v", err)
		}
	})
	t.Run("createKeys as the first call", func(t *testing.T) {
		r := newRig(t)
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createKeys", Drop: true})
		_, err := r.create(t, "a")
		if !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("Create over a dropped connection: %v, want ErrTemporary", err)
		}
		if n := r.srv.MCPCounts().ToolCalls["createKeys"]; n != 1 {
			t.Errorf("createKeys sent %d times, want 1", n)
		}
	})
	t.Run("listKeys", func(t *testing.T) {
		r := newRig(t)
		if _, err := r.create(t, "a", "b"); err != nil {
			t.Fatal(err)
		}
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "listKeys", Drop: true})
		if n, err := r.listAll(t); err != nil || n != 2 {
			t.Fatalf("All over a dropped connection: %d keys, %v; want it retried", n, err)
		}
		if n := r.srv.MCPCounts().ToolCalls["listKeys"]; n != 2 {
			t.Errorf("listKeys sent %d times, want 2 (one retry)", n)
		}
	})
}

// TestToolsErrorStatuses: statuses of the MCP listener. A read is retried
// after any of them; a write is retried only after a status that says it
// did not run (429, 503), and never sent again after one that says it may
// have run.
func TestToolsErrorStatuses(t *testing.T) {
	for _, tc := range []struct {
		tool       string
		status     int
		retryAfter string
		resent     bool
	}{
		{"listKeys", http.StatusTooManyRequests, "2", true},
		{"listKeys", http.StatusServiceUnavailable, "", true},
		{"listKeys", http.StatusInternalServerError, "", true},
		{"listKeys", http.StatusBadGateway, "", true},
		{"listKeys", http.StatusGatewayTimeout, "", true},
		{"createKeys", http.StatusTooManyRequests, "2", true},
		{"createKeys", http.StatusServiceUnavailable, "1", true},
		{"createKeys", http.StatusInternalServerError, "", false},
		{"createKeys", http.StatusBadGateway, "", false},
		{"createKeys", http.StatusGatewayTimeout, "", false},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.tool, tc.status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t)
				if _, err := r.create(t, "a"); err != nil { // connected, one key
					t.Fatal(err)
				}
				before := r.srv.MCPCounts().ToolCalls[tc.tool]
				r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: tc.tool, Status: tc.status, RetryAfter: tc.retryAfter})
				var err error
				if tc.tool == "listKeys" {
					_, err = r.listAll(t)
				} else {
					_, err = r.create(t, "b")
				}
				sent := r.srv.MCPCounts().ToolCalls[tc.tool] - before
				switch {
				case tc.resent && (err != nil || sent != 2):
					t.Errorf("%v after sending %d times; want success on the second", err, sent)
				case !tc.resent && sent != 1:
					t.Errorf("sent %d times, want 1: it may have run", sent)
				case !tc.resent && !errors.Is(err, partner.ErrTemporary):
					t.Errorf("%v, want ErrTemporary", err)
				}
				if n := r.srv.MCPCounts().Initializes; n != 1 {
					t.Errorf("%d initialize calls, want 1: a status does not end the session", n)
				}
				if _, err := r.listAll(t); err != nil {
					t.Errorf("the next call: %v", err)
				}
			})
		})
	}
}

// TestToolsSharedSessionConcurrency: 100 goroutines start on one client
// at once; they share one session, one initialize and one token.
func TestToolsSharedSessionConcurrency(t *testing.T) {
	r := newRig(t)
	const n = 100
	start := make(chan struct{})
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			if i%2 == 0 {
				_, errs[i] = r.c.Keys.Create(t.Context(), r.project, []keys.NewKey{{Name: fmt.Sprintf("k%03d", i), SourceText: "x"}}, keys.CreateOptions{})
			} else {
				_, errs[i] = r.c.Translations.Pending(t.Context(), r.project)
			}
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", i, err)
		}
	}
	if got := r.srv.MCPCounts(); got.Initializes != 1 || got.ToolCalls["createKeys"] != n/2 || got.ToolCalls["getPendingChanges"] != n/2 {
		t.Errorf("MCP counts %+v: want 1 initialize and %d calls of each tool", got, n/2)
	}
	if got := r.srv.GrantCounts(r.g.ID); got.Mints != 1 || got.Refreshes != 1 {
		t.Errorf("grant counts %+v, want 1 refresh and 1 mint", got)
	}
	if k := r.srv.TranslationKeys(r.p.ID); len(k) != n/2 {
		t.Errorf("%d keys created, want %d", len(k), n/2)
	}
}

// TestToolsErrorTextEchoesToken: a tool failure whose text echoes the
// token (as a careless server might) reaches the caller and the log
// without it, in every form the error is shown.
func TestToolsErrorTextEchoesToken(t *testing.T) {
	for _, text := range []string{
		"Project not found for token {token}",
		"Unauthorized: {token}",
		"Forbidden: missing_scope for Bearer {token}",
		"TOO_MANY_REQUESTS {token}",
		"CONFLICT: {token} is a parent",
		`Validation error: "{token}" is not allowed`,
		"grant_revoked {token}",
		"Error executing listKeys: " + strings.Repeat("x", partner.MaxToolText-40) + " {token} and more", // the token crosses the cut
	} {
		t.Run(text[:min(len(text), 30)], func(t *testing.T) {
			r := newRig(t)
			srv, rec, logs := r.srv, r.sent, r.logs
			// Twice: an "Unauthorized" is replayed once with a new token (the tool did not run).
			srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "listKeys", ToolError: text, Times: 2})

			_, err := r.listAll(t)
			if err == nil {
				t.Fatal("the isError answer was taken for a success")
			}
			secrets := r.secrets()
			if len(rec.tokens()) == 0 {
				t.Fatal("no token was recorded")
			}
			assertNoSecret(t, err.Error(), secrets)
			assertNoSecret(t, fmt.Sprintf("%+v", err), secrets)
			assertNoSecret(t, fmt.Sprintf("%#v", err), secrets)
			var te *partner.ToolError
			if errors.As(err, &te) {
				assertNoSecret(t, te.Text, secrets)
				assertNoSecret(t, fmt.Sprintf("%+v", te), secrets)
				assertNoSecret(t, fmt.Sprintf("%#v", *te), secrets)
			}
			var mse *partner.MissingScopeError
			if errors.As(err, &mse) {
				assertNoSecret(t, fmt.Sprintf("%+v", mse), secrets)
				assertNoSecret(t, fmt.Sprintf("%+v", *mse.APIError), secrets)
			}
			assertNoSecret(t, logs.String(), secrets)
		})
	}
}

// TestToolsClose: after Close, tool calls fail with ErrClosed and send
// nothing, REST works, and no goroutine of the session is left.
func TestToolsClose(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	r := newRig(t)
	srv, c, g := r.srv, r.c, r.g
	if _, err := r.create(t, "a"); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	sent := len(mcpRequests(srv))
	if _, err := r.create(t, "b"); !errors.Is(err, partner.ErrClosed) {
		t.Errorf("Create after Close: %v, want ErrClosed", err)
	}
	if _, err := r.c.Tools.List(t.Context(), partner.TranslationTools); !errors.Is(err, partner.ErrClosed) {
		t.Errorf("Tools.List after Close: %v, want ErrClosed", err)
	}
	if n := len(mcpRequests(srv)) - sent; n != 0 {
		t.Errorf("%d requests to the MCP endpoint after Close", n)
	}
	if _, err := c.Projects.List(t.Context(), g.Organizations[0].ID); err != nil {
		t.Errorf("REST after Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	srv.Close()
	goleak.VerifyNone(t, ignore)
}

// TestToolsCloseDuringCall: Close does not wait for a call in flight on
// a server that does not answer (nor for a WaitSync long-poll): the call
// ends with ErrClosed, and nothing is left running.
func TestToolsCloseDuringCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		if _, err := r.listAll(t); err != nil { // connected
			t.Fatal(err)
		}
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "getPendingChanges", Hang: true})
		done := make(chan error)
		go func() {
			_, err := r.c.Translations.Pending(t.Context(), r.project)
			done <- err
		}()
		synctest.Wait() // the call hangs in the server
		if err := r.c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; !errors.Is(err, partner.ErrClosed) {
			t.Errorf("the call in flight: %v, want ErrClosed", err)
		}
	})
}

// renewingTransport mints a new installation token (Installations.
// CreateToken) while the first tools/call of tool is on its way: the call
// carries the old token, and the client's current one is the new token.
type renewingTransport struct {
	next http.RoundTripper
	tool string
	c    func() *partner.Client
	once sync.Once
}

func (rt *renewingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && strings.HasPrefix(req.URL.Path, "/mcp") {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"name":"`+rt.tool+`"`)) {
			rt.once.Do(func() {
				if _, err := rt.c().Installations.CreateToken(req.Context()); err != nil {
					panic(err)
				}
			})
		}
	}
	return rt.next.RoundTrip(req)
}

// TestToolsErrorEchoesATokenReplacedDuringTheCall: a tool failure that
// echoes the token its call carried is scrubbed although the client got a
// new installation token meanwhile (the old one stays valid for its hour).
func TestToolsErrorEchoesATokenReplacedDuringTheCall(t *testing.T) {
	for _, text := range []string{
		"Project not found for token {token}",
		"CONFLICT: {token} is a parent",
	} {
		t.Run(text, func(t *testing.T) {
			r := newRig(t, withTransport(func(next http.RoundTripper, r *rig) http.RoundTripper {
				return &renewingTransport{next: next, tool: "listKeys", c: func() *partner.Client { return r.c }}
			}))
			srv, g, logs := r.srv, r.g, r.logs
			srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "listKeys", ToolError: text})
			_, err := r.listAll(t)
			if err == nil {
				t.Fatal("the isError answer was taken for a success")
			}
			if m := srv.GrantCounts(g.ID).Mints; m < 2 {
				t.Fatalf("%d mints: the token was not replaced during the call", m)
			}
			secrets := r.secrets()
			assertNoSecret(t, err.Error(), secrets)
			assertNoSecret(t, fmt.Sprintf("%+v", err), secrets)
			assertNoSecret(t, logs.String(), secrets)
		})
	}
}

// TestToolsUnauthorizedResultFollowsThe401Rule: a tool's "Unauthorized"
// result (the tool did not run) re-mints once and replays once, as an HTTP
// 401 does, writes included; refused again, it is ErrMCPUnauthorized and
// the next call fails at once without a request or a mint.
func TestToolsUnauthorizedResultFollowsThe401Rule(t *testing.T) {
	r := newRig(t)
	if _, err := r.create(t, "warm"); err != nil {
		t.Fatal(err)
	}
	mints := r.srv.GrantCounts(r.g.ID).Mints
	r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createKeys", ToolError: "Unauthorized"})
	if _, err := r.create(t, "once"); err != nil {
		t.Fatalf("after one Unauthorized: %v, want the replay's success", err)
	}
	if m := r.srv.GrantCounts(r.g.ID).Mints; m != mints+1 {
		t.Errorf("%d mints, want one re-mint", m-mints)
	}

	r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createKeys", ToolError: "Unauthorized", Times: -1})
	if _, err := r.create(t, "twice"); !errors.Is(err, partner.ErrMCPUnauthorized) {
		t.Fatalf("refused twice: %v, want ErrMCPUnauthorized", err)
	}
	before, mints := len(mcpRequests(r.srv)), r.srv.GrantCounts(r.g.ID).Mints
	if _, err := r.create(t, "again"); !errors.Is(err, partner.ErrMCPUnauthorized) {
		t.Fatalf("next call: %v, want ErrMCPUnauthorized", err)
	}
	if n, m := len(mcpRequests(r.srv))-before, r.srv.GrantCounts(r.g.ID).Mints-mints; n != 0 || m != 0 {
		t.Errorf("next call sent %d requests and minted %d times, want neither", n, m)
	}
	if _, err := r.c.Projects.List(t.Context(), r.g.Organizations[0].ID); err != nil {
		t.Errorf("REST after MCP refused the token: %v", err)
	}
}
