package mcpsession_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/transport"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// tokens is a token cache that mints svc_oat_tok1, svc_oat_tok2, ...; a
// Fail makes it final, as the grant's real token source is.
type tokens struct {
	mu     sync.Mutex
	mints  int
	cur    string
	final  error
	failed atomic.Int32
	ref    transport.Refusals
}

func (t *tokens) Reload(context.Context, uint64) bool { return false }
func (t *tokens) Refusals() *transport.Refusals       { return &t.ref }

func (t *tokens) Token(context.Context) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.final != nil {
		return "", t.final
	}
	if t.cur == "" {
		t.mints++
		t.cur = fmt.Sprintf("svc_oat_tok%d", t.mints)
	}
	return t.cur, nil
}

func (t *tokens) Invalidate(tok string) {
	t.mu.Lock()
	if t.cur == tok {
		t.cur = ""
	}
	t.mu.Unlock()
}

func (t *tokens) Generation() uint64 { return 0 }

func (t *tokens) Fail(_ context.Context, err error, _ uint64) bool {
	t.failed.Add(1)
	t.mu.Lock()
	t.final = err
	t.mu.Unlock()
	return false
}

func (t *tokens) Secrets() redact.Secrets {
	t.mu.Lock()
	defer t.mu.Unlock()
	return redact.New(t.cur)
}

func (t *tokens) Mints() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.mints
}

func testTools() []mcptest.Tool {
	return []mcptest.Tool{
		{Name: "listKeys", ReadOnly: true, Run: func(json.RawMessage) (string, bool) {
			return `{"tot": 1, "k": [{"k": "nav.home", "ns": 0}]}`, false
		}},
		{Name: "createKeys", Run: func(json.RawMessage) (string, bool) {
			return `{"ok": true, "cnt": 1}`, false
		}},
		{Name: "echoToken", Run: func(json.RawMessage) (string, bool) {
			return "", true // replaced per test
		}},
	}
}

type fixture struct {
	srv    *mcptest.Server
	tokens *tokens
	sess   *mcpsession.Session
}

func newFixture(t *testing.T, tools ...mcptest.Tool) *fixture {
	t.Helper()
	if tools == nil {
		tools = testTools()
	}
	f := &fixture{srv: mcptest.NewServer(t, tools...), tokens: &tokens{}}
	u, _ := url.Parse(f.srv.Endpoint)
	sess, err := mcpsession.New(mcpsession.Config{
		URL:    f.srv.Endpoint,
		Tokens: f.tokens,
		Runner: transport.New(transport.Options{
			BaseURL:      u,
			RetryWaitMin: time.Millisecond,
			RetryWaitMax: 2 * time.Millisecond,
			Secrets:      redact.New("client-secret-xyz"),
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	f.sess = sess
	t.Cleanup(func() { sess.Close() })
	return f
}

func isMethod(m string) func(mcptest.Request) bool {
	return func(r mcptest.Request) bool { return r.Method == m }
}

func isCall(tool string) func(mcptest.Request) bool {
	return func(r mcptest.Request) bool { return r.Method == "tools/call" && r.Tool == tool }
}

func TestCallReturnsFirstTextBlock(t *testing.T) {
	f := newFixture(t)
	got, err := f.sess.Call(t.Context(), "listKeys", map[string]any{"project": "acme/web"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tot": 1, "k": [{"k": "nav.home", "ns": 0}]}`; string(got) != want {
		t.Errorf("Call = %s, want %s", got, want)
	}
}

func TestOnePOSTPerCallAfterConnectAndNoGET(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	for range 10 {
		if _, err := f.sess.Call(ctx, "createKeys", map[string]any{"project": "acme/web"}); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.srv.Requests()
	// initialize + notifications/initialized, then one POST per call.
	if len(reqs) != 12 {
		t.Errorf("%d requests for 10 calls, want 12 (2 to connect + 1 per call)", len(reqs))
	}
	for _, r := range reqs {
		if r.HTTPMethod != http.MethodPost {
			t.Errorf("got a %s request; the servers must only get POST", r.HTTPMethod)
		}
		if r.Method == "server/discover" {
			t.Error("sent server/discover, which the servers do not document")
		}
		if got := r.Header.Get("Authorization"); got != "Bearer svc_oat_tok1" {
			t.Errorf("Authorization = %q", got)
		}
		if got := r.Header.Get("Mcp-Protocol-Version"); r.Method != "initialize" && got != mcpsession.ProtocolVersion {
			t.Errorf("Mcp-Protocol-Version = %q, want %q", got, mcpsession.ProtocolVersion)
		}
		if got := r.Header.Get("Accept"); !strings.Contains(got, "application/json") || !strings.Contains(got, "text/event-stream") {
			t.Errorf("Accept = %q", got)
		}
	}
	if n := f.srv.Count(isMethod("initialize")); n != 1 {
		t.Errorf("%d initialize requests, want 1", n)
	}
}

func TestExpiredTokenRemintsOnceAndSessionSurvives(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.sess.Call(ctx, "listKeys", nil); err != nil {
		t.Fatal(err)
	}
	// The token expires mid-session: tok1 is refused from now on.
	f.srv.SetAuthorize(func(tok string) bool { return tok != "svc_oat_tok1" })
	for range 3 {
		if _, err := f.sess.Call(ctx, "createKeys", nil); err != nil {
			t.Fatal(err)
		}
	}
	if m := f.tokens.Mints(); m != 2 {
		t.Errorf("%d mints, want 2 (the first token and one after the 401)", m)
	}
	if n := f.srv.Count(isMethod("initialize")); n != 1 {
		t.Errorf("%d initialize requests, want 1: the session must survive a 401", n)
	}
	// The refused createKeys was replayed once: 3 ran, 4 were sent.
	if n := f.srv.Count(isCall("createKeys")); n != 4 {
		t.Errorf("%d createKeys requests, want 4", n)
	}
}

func TestRefusedTokenIsDistinctErrorWithMintBudget(t *testing.T) {
	f := newFixture(t)
	f.srv.SetAuthorize(func(string) bool { return false })
	ctx := t.Context()
	for i := range 50 {
		_, err := f.sess.Call(ctx, "listKeys", nil)
		if !errors.Is(err, apierr.ErrMCPUnauthorized) {
			t.Fatalf("call %d: err = %v, want ErrMCPUnauthorized", i, err)
		}
		if errors.Is(err, apierr.ErrReauthorizationRequired) {
			t.Fatalf("call %d: a refused MCP token must not end the grant: %v", i, err)
		}
		var ae *apierr.APIError
		if !errors.As(err, &ae) || ae.StatusCode != http.StatusUnauthorized || !strings.Contains(string(ae.Body), "Invalid or expired OAuth token") {
			t.Fatalf("call %d: want the 401 and its body in an *APIError, got %#v", i, ae)
		}
		if strings.Contains(err.Error(), "svc_oat_") {
			t.Fatalf("error holds a token: %v", err)
		}
	}
	if m := f.tokens.Mints(); m > 2 {
		t.Errorf("%d mints over 50 calls, want at most 2 (one per token)", m)
	}
	if n := len(f.srv.Requests()); n > 2 {
		t.Errorf("%d requests over 50 calls, want at most 2", n)
	}
	if f.tokens.failed.Load() != 0 {
		t.Error("Fail was called: the grant is not gone")
	}

	// The token changes for another reason (expiry): MCP is tried again,
	// with one more re-mint at most.
	f.tokens.Invalidate("svc_oat_tok2")
	if _, err := f.sess.Call(ctx, "listKeys", nil); !errors.Is(err, apierr.ErrMCPUnauthorized) {
		t.Fatalf("err = %v", err)
	}
	if m := f.tokens.Mints(); m != 4 {
		t.Errorf("%d mints, want 4", m)
	}
}

func TestGrantRevokedIsFinal(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.sess.Call(ctx, "listKeys", nil); err != nil {
		t.Fatal(err)
	}
	f.srv.SetFault(func(mcptest.Request) mcptest.Fault {
		return mcptest.Fault{Status: http.StatusGone, Body: `{"error":"grant_revoked"}`}
	})
	_, err := f.sess.Call(ctx, "createKeys", nil)
	if !errors.Is(err, apierr.ErrReauthorizationRequired) || !errors.Is(err, apierr.ErrGrantRevoked) {
		t.Fatalf("err = %v, want ErrReauthorizationRequired and ErrGrantRevoked", err)
	}
	before := len(f.srv.Requests())
	for range 3 {
		if _, err := f.sess.Call(ctx, "listKeys", nil); !errors.Is(err, apierr.ErrGrantRevoked) {
			t.Fatalf("later call: err = %v", err)
		}
	}
	if n := len(f.srv.Requests()); n != before {
		t.Errorf("%d requests after the grant was revoked, want none", n-before)
	}
	if n := f.tokens.failed.Load(); n != 1 {
		t.Errorf("Fail called %d times, want 1", n)
	}
}

func TestGoneWithoutCodeIsStillRevoked(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault(func(mcptest.Request) mcptest.Fault { return mcptest.Fault{Status: http.StatusGone, Body: `gone`} })
	_, err := f.sess.Call(t.Context(), "listKeys", nil)
	if !errors.Is(err, apierr.ErrReauthorizationRequired) || !errors.Is(err, apierr.ErrGrantRevoked) {
		t.Fatalf("err = %v", err)
	}
}

func TestDroppedConnectionDuringWriteIsNotResent(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.sess.Call(ctx, "listKeys", nil); err != nil {
		t.Fatal(err)
	}
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault { return mcptest.Fault{Drop: r.Tool == "createKeys"} })
	_, err := f.sess.Call(ctx, "createKeys", nil)
	if !errors.Is(err, apierr.ErrTemporary) || !strings.Contains(err.Error(), "may have run") {
		t.Fatalf("err = %v, want ErrTemporary saying the call may have run", err)
	}
	if n := f.srv.Count(isCall("createKeys")); n != 1 {
		t.Errorf("createKeys sent %d times, want 1", n)
	}
	// The session is still usable.
	f.srv.SetFault(nil)
	if _, err := f.sess.Call(ctx, "listKeys", nil); err != nil {
		t.Fatal(err)
	}
}

func TestDroppedConnectionDuringReadIsRetried(t *testing.T) {
	f := newFixture(t)
	var dropped atomic.Bool
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		return mcptest.Fault{Drop: r.Tool == "listKeys" && dropped.CompareAndSwap(false, true)}
	})
	if _, err := f.sess.Call(t.Context(), "listKeys", nil); err != nil {
		t.Fatalf("a read tool must be retried after a dropped connection: %v", err)
	}
	if n := f.srv.Count(isCall("listKeys")); n != 2 {
		t.Errorf("listKeys sent %d times, want 2", n)
	}
}

func TestServerErrorRetriedOnlyForReadTools(t *testing.T) {
	f := newFixture(t)
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		if r.Method == "tools/call" {
			return mcptest.Fault{Status: http.StatusBadGateway, Body: `{"error":"Failed to validate OAuth token"}`}
		}
		return mcptest.Fault{}
	})
	ctx := t.Context()
	_, err := f.sess.Call(ctx, "createKeys", nil)
	var ae *apierr.APIError
	if !errors.Is(err, apierr.ErrTemporary) || !errors.As(err, &ae) || ae.StatusCode != http.StatusBadGateway {
		t.Fatalf("err = %v, want a temporary 502 *APIError", err)
	}
	if n := f.srv.Count(isCall("createKeys")); n != 1 {
		t.Errorf("createKeys sent %d times after a 502, want 1", n)
	}
	if _, err := f.sess.Call(ctx, "listKeys", nil); !errors.Is(err, apierr.ErrTemporary) {
		t.Fatalf("err = %v", err)
	}
	if n := f.srv.Count(isCall("listKeys")); n != 1+transport.DefaultRetryMax {
		t.Errorf("listKeys sent %d times, want %d", n, 1+transport.DefaultRetryMax)
	}
}

func TestToolErrorTextIsScrubbed(t *testing.T) {
	tools := []mcptest.Tool{{Name: "publishTranslations", Run: func(json.RawMessage) (string, bool) {
		return "Forbidden: missing_scope for token svc_oat_tok1 (client-secret-xyz)", true
	}}}
	f := newFixture(t, tools...)
	_, err := f.sess.Call(t.Context(), "publishTranslations", nil)
	var te *apierr.ToolError
	if !errors.As(err, &te) || te.Kind != apierr.ToolMissingScope {
		t.Fatalf("err = %v, want a missing_scope *ToolError", err)
	}
	var mse *apierr.MissingScopeError
	if !errors.As(err, &mse) || mse.Required != "translations:publish" {
		t.Fatalf("want *MissingScopeError requiring translations:publish, got %v", mse)
	}
	for _, s := range []string{err.Error(), te.Text, mse.Error(), fmt.Sprintf("%+v", te)} {
		if strings.Contains(s, "svc_oat_tok1") || strings.Contains(s, "client-secret-xyz") {
			t.Errorf("secret in %q", s)
		}
	}
}

func TestUnknownToolIsToolError(t *testing.T) {
	f := newFixture(t)
	_, err := f.sess.Call(t.Context(), "noSuchTool", nil)
	var te *apierr.ToolError
	if !errors.As(err, &te) || te.Kind != apierr.ToolUnknown || te.Tool != "noSuchTool" {
		t.Fatalf("err = %v, want an unknown-tool *ToolError", err)
	}
}

func TestReadOnlyFromToolsList(t *testing.T) {
	f := newFixture(t, mcptest.Tool{Name: "listThings", ReadOnly: true, Run: func(json.RawMessage) (string, bool) { return "{}", false }},
		mcptest.Tool{Name: "listKeys", Run: func(json.RawMessage) (string, bool) { return "{}", false }})
	if f.sess.ReadOnly("listThings") {
		t.Error("an unknown tool must count as changing something")
	}
	if !f.sess.ReadOnly("listKeys") {
		t.Error("listKeys is documented as read-only")
	}
	tools, err := f.sess.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) != 2 {
		t.Fatalf("%d tools", len(tools))
	}
	if !f.sess.ReadOnly("listThings") || f.sess.ReadOnly("listKeys") {
		t.Error("tools/list's readOnlyHint must win over the built-in list")
	}
}

func TestSharedSessionManyGoroutines(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for i := range 100 {
		wg.Go(func() {
			tool := "listKeys"
			if i%2 == 0 {
				tool = "createKeys"
			}
			if _, err := f.sess.Call(ctx, tool, map[string]any{"i": i}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := f.srv.Count(isMethod("initialize")); n != 1 {
		t.Errorf("%d initialize requests for 100 goroutines, want 1", n)
	}
	if m := f.tokens.Mints(); m != 1 {
		t.Errorf("%d mints, want 1", m)
	}
}

func TestClosedSessionRefusesCalls(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	if _, err := f.sess.Call(ctx, "listKeys", nil); err != nil {
		t.Fatal(err)
	}
	if err := f.sess.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.sess.Call(ctx, "listKeys", nil); !errors.Is(err, mcpsession.ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	goleak.VerifyNone(t, goleak.IgnoreCurrent())
}

func TestTooManyRequestsRetriedPerRetryAfter(t *testing.T) {
	f := newFixture(t)
	var limited atomic.Int32
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		if r.Tool == "createKeys" && limited.Add(1) == 1 {
			return mcptest.Fault{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"0"}}, Body: `{"error":"rate_limited"}`}
		}
		return mcptest.Fault{}
	})
	ctx := t.Context()
	if _, err := f.sess.Call(ctx, "createKeys", nil); err != nil {
		t.Fatalf("a 429 means the call did not run; it must be retried: %v", err)
	}
	if n := f.srv.Count(isCall("createKeys")); n != 2 {
		t.Errorf("createKeys sent %d times, want 2", n)
	}

	// A Retry-After longer than the SDK waits is reported, not waited for.
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		return mcptest.Fault{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3600"}}, Body: `{"error":"rate_limited"}`}
	})
	_, err := f.sess.Call(ctx, "listKeys", nil)
	var ae *apierr.APIError
	if !errors.Is(err, apierr.ErrTemporary) || !errors.As(err, &ae) || ae.RetryAfter != time.Hour {
		t.Fatalf("err = %v, want a temporary *APIError with RetryAfter 1h", err)
	}
}
