package partner_test

// The fixtures of this package's tests. One builder, newRig(t, options...),
// makes every client or Pool that runs against partnertest (see rig);
// newScript makes the scripted service (see script), an httpmock
// transport, for the tests of exact request shapes and scripted answers.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// Credentials of scripted tests; tests check that none of them, nor any
// token the script issued, appears in an error or a log line.
const (
	baseURL      = "https://api.example.test"
	authURL      = "https://auth.example.test"
	clientID     = "client-id-1"
	clientSecret = "client-secret-S3CR3T"
	refreshTok   = "refresh-token-R3FR3SH"
	grantID      = "grant-1"
)

// Endpoint names, for scripts and counts.
const (
	epToken  = "token"
	epMint   = "mint"
	epMe     = "me"
	epOrgs   = "orgs"
	epList   = "list"
	epCreate = "create"
	epGet    = "get"
	epLang   = "lang"
)

// endpoints are the service's endpoints a script answers for: host,
// method and escaped path, where * stands for one path segment.
var endpoints = [...]struct{ name, host, method, path string }{
	{epToken, authURL, "POST", "/api/auth/mcp/token"},
	{epMint, baseURL, "POST", "/api/oauth-client/installations/*/tokens"},
	{epMe, baseURL, "GET", "/api/oauth-client/me"},
	{epOrgs, baseURL, "GET", "/api/oauth-client/organizations"},
	{epList, baseURL, "GET", "/api/oauth-client/organizations/*/projects"},
	{epCreate, baseURL, "POST", "/api/oauth-client/v1/projects"},
	{epGet, baseURL, "GET", "/api/oauth-client/v1/projects/*"},
	{epLang, baseURL, "POST", "/api/oauth-client/v1/projects/*/languages"},
}

const projectJSON = `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"}]}`

// reply is one scripted answer.
type reply struct {
	status int
	body   string
	ctype  string // default application/json
	header http.Header
	err    error // a transport error instead of an answer
	hang   bool  // block until the request's context ends
	// wait, if set, holds the answer until it is closed; then the
	// endpoint answers its default.
	wait <-chan struct{}
	// truncate makes the body fail with io.ErrUnexpectedEOF after the
	// given text.
	truncate bool
	// delay holds the answer this long, whatever the request's context
	// says, as a slow proxy would.
	delay time.Duration
}

func jsonReply(status int, v any) reply {
	b, _ := json.Marshal(v)
	return reply{status: status, body: string(b)}
}

func errReply(status int, code string) reply {
	return jsonReply(status, map[string]string{"error": code})
}

// captured is what a test sees of one request.
type captured struct {
	Method, Host, Path, Auth, UA, ContentType string
	Body                                      string
}

// script answers for the service in tests of exact request shapes and
// scripted answers, with no network (so it works inside testing/synctest
// bubbles). It is an httpmock.MockTransport with one responder per
// endpoint; a request for no endpoint (another host, a wrong path) gets
// the plain-text 404 page a web server answers. Every endpoint answers a
// fixed success (the token and mint endpoints number their tokens: at-1,
// svc_oat_1, ...) unless a test queues replies with then or sets a handler
// with handle. It checks nothing about tokens or scopes: tests of the
// service's rules run against partnertest (newRig).
//
// What it adds to httpmock's responders is what httpmock does not do: a
// sequence of answers per endpoint, answers that hang, wait, break or cut
// their body short, the record of every request in order with its body
// (the shape tests compare the whole exchange, order included), and the
// count of response bodies the client has not closed.
type script struct {
	*httpmock.MockTransport
	mu     sync.Mutex
	queue  map[string][]reply
	on     map[string]func(*http.Request) reply
	count  map[string]int
	issued []string // tokens answered by default
	reqs   []captured
	open   atomic.Int32 // response bodies not closed yet
}

func newScript() *script {
	s := &script{MockTransport: httpmock.NewMockTransport(),
		queue: map[string][]reply{}, on: map[string]func(*http.Request) reply{}, count: map[string]int{}}
	for _, e := range endpoints {
		path := strings.ReplaceAll(regexp.QuoteMeta(e.path), `\*`, `[^/]*`)
		s.RegisterRegexpResponder(e.method, regexp.MustCompile("^"+regexp.QuoteMeta(e.host)+path+"$"), s.responder(e.name))
	}
	s.RegisterNoResponder(s.responder(""))
	return s
}

// then queues replies for the next requests to endpoint ep.
func (s *script) then(ep string, rs ...reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue[ep] = append(s.queue[ep], rs...)
}

// handle makes h answer endpoint ep once its queue is empty.
func (s *script) handle(ep string, h func(*http.Request) reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.on[ep] = h
}

// n returns how many requests reached endpoint ep ("" counts the
// requests no endpoint matched).
func (s *script) n(ep string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.count[ep]
}

// total returns how many requests reached the script.
func (s *script) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// requests returns every request so far, in order.
func (s *script) requests() []captured {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]captured(nil), s.reqs...)
}

// secrets lists the client secret, the refresh token and every token the
// script issued.
func (s *script) secrets() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string{clientSecret, refreshTok}, s.issued...)
}

// config returns a client configuration that talks to the script, with
// the given edits made.
func (s *script) config(edits ...func(*partner.Config)) partner.Config {
	cfg := partner.Config{Pacing: noPacing,
		BaseURL: baseURL, AuthURL: authURL,
		ClientID: clientID, ClientSecret: clientSecret,
		GrantID:    grantID,
		Token:      &oauth2.Token{RefreshToken: refreshTok},
		HTTPClient: &http.Client{Transport: s},
	}
	for _, e := range edits {
		e(&cfg)
	}
	return cfg
}

// withMCPURL is a config edit that sets MCPURL to the script's (unanswered)
// MCP endpoint.
func withMCPURL(cfg *partner.Config) { cfg.MCPURL = mcpURL }

// client returns a client for cfg, failing the test if NewClient refuses.
func (s *script) client(t *testing.T, cfg partner.Config) *partner.Client {
	t.Helper()
	c, err := partner.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RoundTrip hands req to httpmock with its cancellation hidden, so that
// the responder runs on the caller's goroutine as a transport does:
// httpmock would otherwise race a cancelled request against the responder
// and drop a late answer unclosed, where the tests of slow answers need the
// client to get it. The responders watch the caller's context (ctxOf).
func (s *script) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	return s.MockTransport.RoundTrip(req.WithContext(context.WithValue(context.WithoutCancel(ctx), callerCtx{}, ctx)))
}

type callerCtx struct{}

// ctxOf returns the context of the caller's request.
func ctxOf(req *http.Request) context.Context {
	return req.Context().Value(callerCtx{}).(context.Context)
}

// responder answers for endpoint ep ("" for a request no endpoint
// matched).
func (s *script) responder(ep string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		var body []byte
		if req.Body != nil {
			body, _ = io.ReadAll(req.Body)
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		s.mu.Lock()
		s.reqs = append(s.reqs, captured{req.Method, req.URL.Host, req.URL.EscapedPath(), req.Header.Get("Authorization"),
			req.Header.Get("User-Agent"), req.Header.Get("Content-Type"), string(body)})
		s.count[ep]++
		n := s.count[ep]
		var r reply
		q := s.queue[ep]
		scripted := len(q) > 0
		if scripted {
			r, s.queue[ep] = q[0], q[1:]
		}
		h := s.on[ep]
		s.mu.Unlock()
		answer := func() reply {
			if h != nil {
				return h(req)
			}
			return s.byDefault(ep, n)
		}
		switch {
		case r.wait != nil:
			select {
			case <-r.wait:
				r = answer()
			case <-ctxOf(req).Done():
				return nil, ctxOf(req).Err()
			}
		case !scripted:
			r = answer()
		}
		time.Sleep(r.delay)
		if r.hang {
			<-ctxOf(req).Done()
			return nil, ctxOf(req).Err()
		}
		if r.err != nil {
			return nil, r.err
		}
		resp := httpmock.NewStringResponse(r.status, r.body)
		resp.Header.Set("Content-Type", cmp.Or(r.ctype, "application/json"))
		maps.Copy(resp.Header, r.header)
		resp.ContentLength, resp.Request = int64(len(r.body)), req
		if r.truncate {
			resp.ContentLength = -1
			resp.Body = io.NopCloser(io.MultiReader(strings.NewReader(r.body), errReader{}))
		}
		s.open.Add(1)
		resp.Body = &trackedBody{ReadCloser: resp.Body, open: &s.open}
		return resp, nil
	}
}

// unclosed returns how many response bodies the client has not closed.
func (s *script) unclosed() int { return int(s.open.Load()) }

// trackedBody counts itself out of open when closed.
type trackedBody struct {
	io.ReadCloser
	open *atomic.Int32
	once sync.Once
}

func (b *trackedBody) Close() error {
	b.once.Do(func() { b.open.Add(-1) })
	return b.ReadCloser.Close()
}

// byDefault is endpoint ep's answer to its nth request when nothing is
// scripted.
func (s *script) byDefault(ep string, n int) reply {
	switch ep {
	case epToken:
		tok := fmt.Sprintf("at-%d", n)
		s.issue(tok)
		return jsonReply(200, map[string]any{"access_token": tok, "token_type": "Bearer", "refresh_token": refreshTok, "expires_in": 1800})
	case epMint: // the answer the service documents
		tok := fmt.Sprintf("svc_oat_%d", n)
		s.issue(tok)
		return jsonReply(201, map[string]any{"installation_token": tok, "token_type": "Bearer",
			"expires_at": time.Now().Add(time.Hour).UTC().Format(time.RFC3339), "expires_in": 3600,
			"organization_id": "org-1", "project_ids": []string{}, "scopes": []string{"org:read", "projects:read"}})
	case epMe:
		return reply{status: 200, body: `{"id":"usr_1","email":"ada@example.test","name":"Ada","account":{"id":"acc_1","name":"Ada's"}}`}
	case epOrgs:
		return reply{status: 200, body: `{"organizations":[{"id":"org-1","slug":"acme","name":"Acme"}]}`}
	case epList:
		return reply{status: 200, body: `{"projects":[` + projectJSON + `]}`}
	case epGet:
		return reply{status: 200, body: projectJSON}
	case epCreate:
		return reply{status: 201, body: projectJSON}
	case epLang:
		return reply{status: 201, body: `{"code":"de","name":"German"}`}
	}
	return reply{status: http.StatusNotFound, ctype: "text/plain; charset=utf-8", body: "404 page not found\n"}
}

func (s *script) issue(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.issued = append(s.issued, tok)
}

// logBuffer collects a client's log records (Config.Logger) at debug
// level as JSON lines; safe for the client's goroutines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// debugLogs points cfg's Logger at a new logBuffer.
func debugLogs(cfg *partner.Config) *logBuffer {
	b := new(logBuffer)
	cfg.Logger = slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return b
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// records returns the JSON log records so far.
func (b *logBuffer) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// noPacing turns pacing off in tests that are not about it: a scripted
// service answers at once, and thousands of calls would otherwise wait
// for their turn.
var noPacing = partner.Pacing{Off: true}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

// rig is this package's one fixture against partnertest, built by newRig
// with options. By default: a server, a client for one new grant of it,
// and the project "<org slug>/web" (source en, targets de and fr) that
// tool calls work in. withPool(n, max) builds a Pool instead of the
// client: n grants whose tokens are in a MemoryStore, no project. The
// server runs on the in-memory network (so the rig works inside
// testing/synctest) unless onLoopback says otherwise; the client or pool
// is closed, then the server, when the test ends. Every Bearer token the
// client sends is recorded (r.tokens()) and its debug log kept (r.logs).
//
// Tests of exact request shapes and of scripted answers do not need a
// service with rules; they use script (newScript) instead.
type rig struct {
	srv     *partnertest.Server
	c       *partner.Client
	g       partnertest.Grant
	p       partnertest.Project
	project string // "org/project", as the tools name it
	logs    *logBuffer
	sent    *tokenRecorder

	pool   *partner.Pool // with withPool
	store  *auth.MemoryStore
	grants []partnertest.Grant
}

// rigOption changes what newRig builds.
type rigOption func(*rigSetup)

type rigSetup struct {
	loopback bool
	srv      []partnertest.Option
	grant    []partnertest.GrantOption
	config   []func(*partner.Config)
	wrap     []func(http.RoundTripper, *rig) http.RoundTripper
	after    []func(*rig)
	pooled   bool
	grants   int
	pool     []func(*partner.PoolConfig)
}

// withPool makes the rig a Pool keeping at most max clients (0: the
// default), over n grants whose tokens are saved in r.store, instead of a
// client.
func withPool(n, max int) rigOption {
	return func(s *rigSetup) {
		s.pooled, s.grants = true, n
		s.pool = append(s.pool, func(cfg *partner.PoolConfig) { cfg.MaxClients = max })
	}
}

// withPoolConfig edits the Pool's configuration before NewPool.
func withPoolConfig(f func(*partner.PoolConfig)) rigOption {
	return func(s *rigSetup) { s.pool = append(s.pool, f) }
}

// withGrant passes options to the grant's creation (scopes, ...).
func withGrant(opts ...partnertest.GrantOption) rigOption {
	return func(s *rigSetup) { s.grant = append(s.grant, opts...) }
}

// onLoopback runs the server on loopback sockets instead of the in-memory
// network, for tests that deliver webhooks to a receiver of their own.
func onLoopback() rigOption { return func(s *rigSetup) { s.loopback = true } }

// withServer passes options to the server's creation (rate limits, ...).
func withServer(opts ...partnertest.Option) rigOption {
	return func(s *rigSetup) { s.srv = append(s.srv, opts...) }
}

// withConfig edits the client's configuration before NewClient.
func withConfig(f func(*partner.Config)) rigOption {
	return func(s *rigSetup) { s.config = append(s.config, f) }
}

// withTransport puts a RoundTripper of the test's in front of the
// server's; it may use the rig, whose client exists once requests flow.
func withTransport(f func(next http.RoundTripper, r *rig) http.RoundTripper) rigOption {
	return func(s *rigSetup) { s.wrap = append(s.wrap, f) }
}

// withPostModel seeds the content model "post" (a localized text field
// "summary", a number "rank") in the project, with no request and no
// event.
func withPostModel() rigOption {
	return func(s *rigSetup) {
		s.after = append(s.after, func(r *rig) {
			r.srv.AddContentModel(r.p.ID, partnertest.ContentModel{Slug: "post", Fields: []partnertest.ContentField{
				{Name: "summary", Localized: true}, {Name: "rank", Type: "number"}}})
		})
	}
}

// newRig builds the fixture; see rig.
func newRig(t testing.TB, opts ...rigOption) *rig {
	t.Helper()
	var s rigSetup
	for _, o := range opts {
		o(&s)
	}
	if !s.loopback {
		s.srv = append(s.srv, partnertest.WithInMemoryNetwork())
	}
	srv := partnertest.NewServer(s.srv...)
	t.Cleanup(srv.Close)
	if s.pooled {
		return buildPool(t, srv, &s)
	}
	r := &rig{srv: srv, g: srv.NewGrant(s.grant...), logs: new(logBuffer)}
	org := r.g.Organizations[0]
	r.p = srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}, {Code: "fr", Name: "French"}}})
	r.project = org.Slug + "/web"
	var rt http.RoundTripper = srv.Client().Transport
	for _, w := range s.wrap {
		rt = w(rt, r)
	}
	r.sent = &tokenRecorder{next: rt}
	cfg := clientConfig(srv, r.g)
	hc := *srv.Client()
	hc.Transport = r.sent
	cfg.HTTPClient = &hc
	cfg.Logger = slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for _, f := range s.config {
		f(&cfg)
	}
	c, err := partner.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	r.c = c
	for _, f := range s.after {
		f(r)
	}
	return r
}

// buildPool is newRig with withPool.
func buildPool(t testing.TB, srv *partnertest.Server, s *rigSetup) *rig {
	t.Helper()
	r := &rig{srv: srv, store: auth.NewMemoryStore()}
	for range s.grants {
		g := srv.NewGrant(s.grant...)
		if err := r.store.Save(context.Background(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
		r.grants = append(r.grants, g)
	}
	if len(r.grants) > 0 {
		r.g = r.grants[0]
	}
	cfg := poolConfig(srv, r.store)
	for _, f := range s.pool {
		f(&cfg)
	}
	pool, err := partner.NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	r.pool = pool
	return r
}

// poolConfig returns newRig's Pool configuration for srv, the grants'
// tokens in store.
func poolConfig(srv *partnertest.Server, store auth.Store) partner.PoolConfig {
	return partner.PoolConfig{Pacing: noPacing,
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL, ContentMCPURL: srv.ContentMCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: store, HTTPClient: srv.Client(),
	}
}

// clientConfig returns newRig's client configuration for grant g of
// srv, for tests that make more clients of one server.
func clientConfig(srv *partnertest.Server, g partnertest.Grant) partner.Config {
	return partner.Config{Pacing: noPacing,
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL, ContentMCPURL: srv.ContentMCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		HTTPClient: srv.Client(),
	}
}

// tokens returns every Bearer token the client sent so far.
func (r *rig) tokens() []string { return r.sent.tokens() }

// secrets lists the client secret, the refresh token, the installation
// tokens' prefix and every token the client sent.
func (r *rig) secrets() []string {
	return append([]string{r.srv.ClientSecret(), r.g.RefreshToken, "svc_oat_"}, r.tokens()...)
}

// tokenRecorder records every Bearer token the client sends.
type tokenRecorder struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (tr *tokenRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if v, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer "); ok {
		tr.mu.Lock()
		tr.seen = append(tr.seen, v)
		tr.mu.Unlock()
	}
	return tr.next.RoundTrip(req)
}

func (tr *tokenRecorder) tokens() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return append([]string(nil), tr.seen...)
}

func getProject(ctx context.Context, c *partner.Client) error {
	_, err := c.Projects.Get(ctx, "p1")
	return err
}

func createProject(ctx context.Context, c *partner.Client) error {
	_, err := c.Projects.Create(ctx, projects.NewProject{Name: "Site", Slug: "site", SourceLanguage: "en"})
	return err
}

// Transport errors a script answers with.
var (
	connReset = &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}
	dialFail  = &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
)

func assertNoSecret(t *testing.T, s string, secrets []string) {
	t.Helper()
	for _, sec := range secrets {
		if strings.Contains(s, sec) {
			t.Errorf("%q contains the secret %q", s, sec)
		}
	}
}

// flakyStore fails Save while fail is set. Tests set fail only between
// calls, so no lock is needed. It is a plain auth.Store, not a Leaser (its
// MemoryStore is not embedded), so refreshed tokens go through its Save.
type flakyStore struct {
	MemoryStore *auth.MemoryStore
	fail        error
}

func (s *flakyStore) Load(ctx context.Context, id string) (*oauth2.Token, error) {
	return s.MemoryStore.Load(ctx, id)
}

func (s *flakyStore) Save(ctx context.Context, id string, tok *oauth2.Token) error {
	if s.fail != nil {
		return s.fail
	}
	return s.MemoryStore.Save(ctx, id, tok)
}
