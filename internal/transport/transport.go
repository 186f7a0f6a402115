package transport

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
)

// Version is the SDK's version, sent in the User-Agent.
const Version = "0.1.0"

// Defaults for Options fields left zero. DefaultAttemptTimeout bounds the
// wait for an answer's headers on the SDK's own transport.
const (
	DefaultRetryMax         = 3
	DefaultRetryWaitMin     = 250 * time.Millisecond
	DefaultRetryWaitMax     = 5 * time.Second
	DefaultRetryAfterMax    = 30 * time.Second
	DefaultMaxResponseBytes = 8 << 20
	DefaultAttemptTimeout   = 30 * time.Second

	errorBodyLimit = 64 << 10 // of a non-2xx body: any JSON error fits
)

// TokenSource gives the bearer token for a request: the grant's access-
// and installation-token sources.
type TokenSource interface {
	Token(ctx context.Context) (string, error) // valid, refreshed if needed
	Invalidate(tok string)                     // drops tok if it is still cached
	Generation() uint64                        // the grant's current credentials
	// Fail is told that an answer to a request sent under gen says the
	// grant is gone: it reports whether the Store had a newer token (the
	// request is replayed once); if not, err is the grant's final state.
	Fail(ctx context.Context, err error, gen uint64) bool
	// Reload takes a refresh token from the Store that differs from the
	// grant's at gen, and reports whether the token changed since gen.
	Reload(ctx context.Context, gen uint64) bool
	Secrets() redact.Secrets // the grant's tokens, scrubbed from errors
	Refusals() *Refusals     // the source's memory for the 401 rule
}

// Kind says which rules a request follows beyond the common ones.
type Kind int

const (
	REST Kind = iota // a 2xx body is returned, anything else is a typed error
	MCP              // a POST to an MCP endpoint: a 401 after a re-mint is ErrMCPUnauthorized
	// Raw is a Client.HTTPClient request: sent once, only to a configured
	// host, its answer returned unread whatever its status.
	Raw
	// Credential obtains or revokes a credential: no redirect to another
	// origin, and a refusal without a known code is ErrConfiguration.
	Credential
)

// Request is one call of the service.
type Request struct {
	Kind       Kind
	Method     string
	Path       string      // relative to the base URL
	URL        *url.URL    // when set, the absolute address to call instead
	Auth       TokenSource // nil sends no token
	Body       any         // encoded as JSON, unless Payload is set
	Payload    []byte      // sent as it is
	Header     http.Header // added; Accept and Content-Type default to JSON
	Idempotent bool        // a POST that may run twice (a read-only tool)
	// Setting names the configuration field that holds the URL
	// ("Config.MCPURL"), for ErrConfiguration's advice. On a REST request
	// it marks an endpoint without an id in its path, where a 404 or 405
	// without an error code means a wrong URL, not a missing record.
	Setting string
	Op      string // "Projects.Get": the SDK call, for hooks
	Project string // the project the call is about, for hooks
}

// Options configures a Runner. Zero values take the defaults above.
type Options struct {
	BaseURL                    *url.URL
	Origins                    []string       // scheme://host of the other configured URLs: with BaseURL's, where a token may go
	Name                       string         // the configuration type's name ("Config"), for advice
	HTTPClient                 *http.Client   // the caller's; copied, never modified
	Logger                     *slog.Logger   // a debug line per retry; nil is silent
	UserAgent                  string         // appended to "partner-go/<version>"
	RetryMax                   int            // retries per request; negative: none
	RetryWaitMin, RetryWaitMax time.Duration  // the backoff's bounds
	RetryAfterMax              time.Duration  // a longer Retry-After ends the retries
	MaxResponseBytes           int64          // caps a 2xx body
	Secrets                    redact.Secrets // the application's, scrubbed from errors
	Hooks                      *hooks.Hooks   // nil: off
}

// Runner sends requests. It holds no per-grant state: a pool's clients
// share one.
type Runner struct {
	prefix   string // base URL without a trailing slash
	basePath string // the base URL's path without a trailing slash
	origins  []string
	name     string
	hc       http.Client // copied once into each call value, with its redirect rule
	calls    sync.Pool   // of *call, each made once with its clients and closures
	ua       string
	policy   policy
	maxBody  int64
	secrets  redact.Secrets
	logger   *slog.Logger
	hooks    *hooks.Hooks
	host     string // the base URL's, for hooks
}

// New returns a Runner for o.
func New(o Options) *Runner {
	r := &Runner{
		prefix:   strings.TrimSuffix(o.BaseURL.String(), "/"),
		basePath: strings.TrimSuffix(o.BaseURL.Path, "/"),
		origins:  []string{Origin(o.BaseURL)},
		name:     cmp.Or(o.Name, "Config"),
		ua:       strings.TrimSpace("partner-go/" + Version + " " + o.UserAgent),
		maxBody:  cmp.Or(max(o.MaxResponseBytes, 0), DefaultMaxResponseBytes),
		secrets:  o.Secrets,
		logger:   o.Logger,
		hooks:    o.Hooks,
		host:     o.BaseURL.Host,
		policy: policy{ // zero takes the default; a negative RetryMax, no retry
			retryMax:      max(cmp.Or(o.RetryMax, DefaultRetryMax), 0),
			waitMin:       cmp.Or(max(o.RetryWaitMin, 0), DefaultRetryWaitMin),
			waitMax:       cmp.Or(max(o.RetryWaitMax, 0), DefaultRetryWaitMax),
			retryAfterMax: cmp.Or(max(o.RetryAfterMax, 0), DefaultRetryAfterMax),
		},
	}
	for _, o := range o.Origins {
		if o = strings.ToLower(o); !slices.Contains(r.origins, o) {
			r.origins = append(r.origins, o)
		}
	}
	if o.HTTPClient != nil {
		r.hc = *o.HTTPClient // a copy: the caller's client is never modified
	}
	base := r.hc.Transport
	if base == nil {
		base = defaultTransport()
	}
	r.hc.Transport = roundTripper{base}
	return r
}

// roundTripper hides the caller's transport's CloseIdleConnections, which
// go-retryablehttp calls after a failed call (it would close every
// grant's connections), and sets Response.Request where a test transport
// leaves it nil.
type roundTripper struct{ base http.RoundTripper }

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.Request == nil {
		resp.Request = req
	}
	return resp, err
}

// defaultTransport is a clone of http.DefaultTransport with a header
// timeout, or http.DefaultTransport itself when a library replaced it.
func defaultTransport() http.RoundTripper {
	dt, ok := http.DefaultTransport.(*http.Transport)
	if !ok {
		return http.DefaultTransport
	}
	t := dt.Clone()
	t.ResponseHeaderTimeout = DefaultAttemptTimeout
	t.MaxIdleConnsPerHost = 64
	return t
}

// Origin is u's scheme://host, lowercased: what the hosts rule compares.
func Origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// Allowed reports whether a token may go to u: the hosts rule.
func (r *Runner) Allowed(u *url.URL) bool { return u != nil && slices.Contains(r.origins, Origin(u)) }

// Secrets returns the application's secrets.
func (r *Runner) Secrets() redact.Secrets { return r.secrets }

// OAuth2Context returns a context whose golang.org/x/oauth2 requests are
// Credential requests of setting on this Runner.
func (r *Runner) OAuth2Context(ctx context.Context, setting string) context.Context {
	hc := &http.Client{Transport: credentialTransport{r: r, setting: setting}}
	// x/oauth2 finds its HTTP client under this key: its own convention.
	return context.WithValue(ctx, oauth2.HTTPClient, hc)
}

// credentialTransport sends x/oauth2's requests as calls of the pipeline.
type credentialTransport struct {
	r       *Runner
	setting string
}

func (t credentialTransport) RoundTrip(req *http.Request) (resp *http.Response, err error) {
	body, err := ReadRequest(req)
	if err != nil {
		return nil, err
	}
	q := Request{Kind: Credential, Method: req.Method, URL: req.URL, Payload: body, Header: req.Header, Setting: t.setting, Op: "Auth.Token"}
	c := t.r.newCall(q)
	defer t.r.release(c)
	ctx := req.Context()
	if t.r.hooks != nil {
		ctx = c.begin(ctx)
		defer func() { c.end(ctx, c.status, err) }()
	}
	resp, err = c.exchange(ctx)
	if err != nil {
		return nil, c.failure(ctx, err)
	}
	// x/oauth2 reads the answer itself: hand back the body the handler read.
	resp.Body = io.NopCloser(bytes.NewReader(c.body))
	resp.ContentLength = int64(len(c.body))
	return resp, nil
}

// Response is an answer, its body read; a Raw request's is HTTP, unread.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	HTTP       *http.Response
}

// Send sends q by every rule of the package doc. A non-2xx answer becomes
// *apierr.APIError or *apierr.MissingScopeError; every error starts with
// "partner: <method> <whole path>".
func (r *Runner) Send(ctx context.Context, q Request) (resp Response, err error) {
	if q.Payload == nil && q.Body != nil {
		if q.Payload, err = json.Marshal(q.Body); err != nil {
			return Response{}, fmt.Errorf("partner: %s %s: encoding request: %w", q.Method, r.basePath+q.Path, err)
		}
	}
	c := r.newCall(q)
	defer r.release(c)
	if r.hooks != nil && q.Kind != MCP { // an MCP POST is an attempt of its tool call
		ctx = c.begin(ctx)
		defer func() { c.end(ctx, resp.StatusCode, err) }()
	}
	if q.Auth != nil && q.URL != nil && !r.Allowed(q.URL) {
		return Response{}, fmt.Errorf("partner: %s %s: %w", q.Method, c.path, r.hostError(q.URL.Host))
	}
	var replayed401, replayedGone, reloaded bool
	for {
		resp, err := c.exchange(ctx)
		if err != nil {
			return Response{}, c.failure(ctx, err)
		}
		if q.Auth != nil && q.Auth.Refusals().answered(c.endpoint, c.token, resp.StatusCode, replayed401) {
			q.Auth.Invalidate(c.token)
			replayed401 = true
			io.Copy(io.Discard, io.LimitReader(resp.Body, errorBodyLimit)) // a Raw answer is unread
			resp.Body.Close()
			continue
		}
		if q.Kind == Raw {
			if resp.StatusCode == http.StatusGone && q.Auth != nil {
				c.gone(ctx, resp)
			}
			return Response{StatusCode: resp.StatusCode, Header: resp.Header, HTTP: resp}, nil
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: c.body}, nil
		}
		err = apierr.FromResponse(q.Method, c.path, resp.StatusCode, resp.Header, c.body, c.scrub())
		var ae *apierr.APIError
		errors.As(err, &ae)
		switch {
		case ae.GrantGone() && q.Auth != nil:
			if q.Auth.Fail(ctx, err, c.gen) && !replayedGone {
				replayedGone = true
				continue // the Store had a newer token: once with it
			}
			err = apierr.Classify(apierr.ErrReauthorizationRequired, err, apierr.ReconnectAdvice)
		case ae.Code == apierr.CodeMissingScope && q.Auth != nil && !reloaded:
			if reloaded = true; q.Auth.Reload(ctx, c.gen) {
				continue // a wider grant in the Store: once with it
			}
		case q.Kind == MCP && ae.StatusCode == http.StatusUnauthorized:
			err = apierr.Classify(apierr.ErrMCPUnauthorized, err,
				"the MCP endpoint refused the installation token; the grant is not gone and REST still works")
			q.Auth.Refusals().remember(c.endpoint, c.token, err)
		case q.Kind == Credential && ae.BlamesApplication(),
			q.Kind == REST && q.Setting != "" && ae.Code == "" && ae.WrongURL():
			err = apierr.Classify(apierr.ErrConfiguration, err, "check "+q.Setting+"; users need not reconnect")
		}
		return Response{}, err
	}
}

// call is one Send's state, shared by the policies its retry loop runs.
// A call value is made once, with its go-retryablehttp client, its copy of
// the http.Client and the method values bound to it, and reused through
// Runner.calls: newCall sets every per-call field. Nothing a caller gets
// (a body, a header, an error) points into it.
type call struct {
	r          *Runner
	q          Request
	target     string // the address to call
	endpoint          // the request's origin, where Authorization may go, and its whole path
	idempotent bool
	token      string          // the token of the latest attempt
	sent       []string        // every token an attempt carried
	gen        uint64          // the auth Generation when token was taken
	body       []byte          // the final answer's body
	done       bool            // the response handler read it
	host       string          // the target's, for hooks
	attempts   int             // attempts sent (with hooks)
	status     int             // the latest attempt's answer, 0 without one (with hooks)
	open       bool            // an attempt was started and not ended (with hooks)
	actx       context.Context // the context of the attempts (with hooks)
	astart     time.Time       // when the open attempt started (with hooks)
	obs        hooks.Call      // the SDK call, from begin to end (with hooks)
	start      time.Time       // when begin ran (with hooks)

	hc     http.Client          // the Runner's, under this call's redirect rule
	rc     retryablehttp.Client // on hc, under this call's retry rule
	handle func(*http.Response) error
	bearer [2]string // a token and its Authorization header, made once per token
}

// endpoint is what a refusal is remembered for: an origin and a path (for
// errors and log lines, the whole path).
type endpoint struct{ origin, path string }

// newCall returns a call value for q, from the pool or made now.
func (r *Runner) newCall(q Request) *call {
	c, _ := r.calls.Get().(*call)
	if c == nil {
		c = &call{r: r, hc: r.hc}
		c.hc.CheckRedirect = c.redirect
		c.rc = retryablehttp.Client{HTTPClient: &c.hc, RetryMax: r.policy.retryMax,
			RetryWaitMin: r.policy.waitMin, RetryWaitMax: r.policy.waitMax,
			CheckRetry: c.checkRetry, Backoff: r.policy.backoff, ErrorHandler: lastResponse, PrepareRetry: c.authorize}
		c.handle = c.read
		if h := r.hooks; h != nil && (h.AttemptStart != nil || h.AttemptEnd != nil || h.CallEnd != nil) {
			// CallEnd's Attempts are counted as the attempts start.
			c.rc.RequestLogHook, c.rc.Backoff = c.attemptStart, c.backoff
		}
	}
	c.q, c.sent, c.gen, c.token = q, c.sent[:0], 0, ""
	c.attempts, c.status, c.open, c.host = 0, 0, false, r.host
	c.idempotent = q.Idempotent || q.Method == http.MethodGet || q.Method == http.MethodHead
	if q.URL == nil {
		// A path under the base URL, escaped by the caller: no parse.
		c.target, c.path, c.origin = r.prefix+q.Path, cmp.Or(r.basePath+q.Path, "/"), r.origins[0]
	} else {
		c.target, c.path, c.origin = q.URL.String(), cmp.Or(q.URL.EscapedPath(), "/"), Origin(q.URL)
		c.host = q.URL.Host
	}
	return c
}

// release puts c back in the pool, holding nothing of its request.
func (r *Runner) release(c *call) {
	clear(c.sent)
	c.q, c.body, c.actx = Request{}, nil, nil
	r.calls.Put(c)
}

// exchange runs one go-retryablehttp loop on the call's http.Client and
// returns the final response; unless the request is Raw, its body is in
// c.body.
func (c *call) exchange(ctx context.Context) (*http.Response, error) {
	var body any // a nil []byte would make a chunked empty body
	if c.q.Payload != nil {
		body = c.q.Payload
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, c.q.Method, c.target, body)
	if err != nil {
		return nil, err
	}
	h := req.Header
	for k, v := range c.q.Header {
		if k != "Host" && (k != "Authorization" || c.q.Auth == nil) {
			h[k] = v
		}
	}
	if c.q.Kind != Raw || h.Get("User-Agent") == "" {
		h.Set("User-Agent", c.r.ua)
	}
	if c.q.Kind != Raw && h.Get("Accept") == "" {
		h.Set("Accept", "application/json")
	}
	if c.q.Kind != Raw && c.q.Payload != nil && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	if err := c.authorize(req.Request); err != nil {
		return nil, err
	}
	c.body, c.done = nil, false
	if c.q.Kind != Raw {
		req.SetResponseHandler(c.handle)
	}
	resp, err := c.rc.Do(req)
	if c.open {
		c.attemptEnd(false, 0)
	}
	if resp != nil && c.q.Kind != Raw && !c.done {
		// Retries ran out on a retryable status: the handler never saw it.
		c.body, _ = c.r.readBody(resp)
		resp.Body.Close()
	}
	return resp, err
}

// authorize puts the grant's current token on each attempt.
func (c *call) authorize(req *http.Request) error {
	a := c.q.Auth
	if a == nil {
		return nil
	}
	c.gen = a.Generation()
	tok, err := a.Token(req.Context())
	if err == nil && c.q.Kind == MCP {
		err = a.Refusals().sending(c.endpoint, tok)
	}
	if err != nil {
		return &tokenError{err}
	}
	if c.bearer[0] != tok {
		c.bearer = [2]string{tok, "Bearer " + tok}
	}
	req.Header.Set("Authorization", c.bearer[1])
	c.token = tok
	if !slices.Contains(c.sent, tok) {
		c.sent = append(c.sent, tok)
	}
	return nil
}

// redirect is the call's redirect rule: the token never goes to another
// origin than the request's own; a credential request refuses such a
// redirect, and a Raw one unless it goes to another configured host.
func (c *call) redirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	if Origin(req.URL) == c.origin {
		return nil
	}
	switch {
	case c.q.Kind == Credential:
		return &RedirectError{Host: req.URL.Host, Setting: c.q.Setting}
	case c.q.Kind == Raw && !c.r.Allowed(req.URL):
		return c.r.hostError(req.URL.Host)
	case c.q.Kind == Raw: // net/http dropped the token, which may go there
		req.Header.Set("Authorization", "Bearer "+c.token)
		return nil
	}
	req.Header.Del("Authorization")
	return nil
}

// hostError is the hosts rule's refusal of host.
func (r *Runner) hostError(host string) error {
	return fmt.Errorf("%w: refusing to send the grant's token to %s; it goes only to the hosts of %s.BaseURL, %[3]s.MCPURL and %[3]s.ContentMCPURL",
		apierr.ErrInvalidArgument, apierr.Quote(host), r.name)
}

// read is the response handler: it reads the answer's body inside the
// retry loop, so that a GET whose body breaks off is retried like any
// network failure.
func (c *call) read(resp *http.Response) error {
	defer resp.Body.Close()
	c.done = true
	var err error
	c.body, err = c.r.readBody(resp)
	resp.Body = http.NoBody // go-retryablehttp drains the body before a retry
	return err
}

// gone makes the grant final when a Raw 410's body says it is gone; the
// body is put back.
func (c *call) gone(ctx context.Context, resp *http.Response) {
	const limit = 4 << 10
	head, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil || len(head) > limit {
		return // a cut body would read as a code-less revocation
	}
	gerr := apierr.FromResponse(c.q.Method, c.path, resp.StatusCode, nil, head, c.scrub())
	if errors.Is(gerr, apierr.ErrReauthorizationRequired) {
		c.q.Auth.Fail(ctx, gerr, c.gen)
	}
}

// scrub returns the application's and the grant's secrets and every
// token the call was sent with.
func (c *call) scrub() redact.Secrets {
	s := c.r.secrets
	if c.q.Auth != nil {
		s = s.Merge(c.q.Auth.Secrets())
	}
	return s.With(c.sent...)
}

// failure turns a transport-level error into the SDK's error.
func (c *call) failure(ctx context.Context, err error) error {
	var te *tokenError
	if errors.As(err, &te) {
		return te.err
	}
	method, path := c.q.Method, c.path
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("partner: %s %s: %w", method, path, ctxErr)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the whole URL, which may hold a token
	}
	var re *RedirectError
	switch {
	case errors.As(err, &re):
		return re.Configuration(method, path)
	case errors.Is(err, apierr.ErrInvalidArgument): // the hosts rule refused a redirect
		return fmt.Errorf("partner: %s %s: %w", method, path, err)
	case errors.Is(err, errTooLarge):
		return fmt.Errorf("partner: %s %s: %w: body over %d bytes", method, path, apierr.ErrUnexpectedResponse, c.r.maxBody)
	}
	if !c.idempotent && !notSent(err) {
		return fmt.Errorf("partner: %s %s: %w: the request may have run on the service and was not sent again: %w", method, path, apierr.ErrTemporary, c.scrub().Error(err))
	}
	return fmt.Errorf("partner: %s %s: %w: %w", method, path, apierr.ErrTemporary, c.scrub().Error(err))
}

// checkRetry is the call's CheckRetry: the policy's decision, logged. A Raw
// request is sent once.
func (c *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	status, header := 0, http.Header(nil)
	if resp != nil {
		status, header = resp.StatusCode, resp.Header
	}
	c.status = status
	retry := c.q.Kind != Raw && c.r.policy.retry(c.idempotent, status, header, err)
	if retry && c.r.logger != nil {
		why := slog.Int("status", status)
		if err != nil {
			why = slog.String("error", c.scrub().Error(err).Error())
		}
		c.r.logger.LogAttrs(ctx, slog.LevelDebug, "partner: retrying", slog.String("method", c.q.Method), slog.String("path", c.path), why)
	}
	return retry, nil
}

// lastResponse is go-retryablehttp's ErrorHandler: when retries run out
// on a status, the last response becomes the typed error.
func lastResponse(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err != nil && resp != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, err
}

// ReadRequest reads and closes req's body: nil when there is none.
func ReadRequest(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// errTooLarge is returned for a 2xx body over the limit.
var errTooLarge = errors.New("response body over the size limit")

// readBody reads an answer's body: a 2xx one up to the limit, past which
// it is errTooLarge; another up to errorBodyLimit, cut there (a snippet is
// all an error needs).
func (r *Runner) readBody(resp *http.Response) ([]byte, error) {
	ok := resp.StatusCode >= 200 && resp.StatusCode <= 299
	limit := int64(errorBodyLimit)
	if ok {
		limit = r.maxBody
	}
	if ok && resp.ContentLength > limit {
		return nil, errTooLarge
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err == nil && int64(len(b)) > limit {
		b = b[:limit]
		if ok {
			err = errTooLarge
		}
	}
	return b, err
}

// RedirectError is a credential request's redirect to another origin,
// refused: its body or answer holds secrets. Only the Location's host is
// kept.
type RedirectError struct {
	Host    string
	Setting string
}

func (e *RedirectError) Error() string {
	return "redirected to another host (" + e.Host + "), refused: the request goes only to the configured host"
}

// Configuration returns e as an ErrConfiguration for method path.
func (e *RedirectError) Configuration(method, path string) error {
	return apierr.Classify(apierr.ErrConfiguration, fmt.Errorf("partner: %s %s: %w", method, path, e),
		"check "+e.Setting+"; users need not reconnect")
}

// tokenError carries a token source's failure through the retry loop.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// Refusals is one token source's memory for the 401 rule, alike for REST,
// MCP and HTTPClient: a 401 drops the refused token and the request is
// replayed once with a new one; a new token refused too is remembered for
// that endpoint, so that its next 401 costs no mint and an MCP endpoint is
// not sent it again (ErrMCPUnauthorized at once). Another answer from the
// endpoint, or a new token, ends the memory. The zero value is ready.
type Refusals struct {
	mu   sync.Mutex
	m    map[endpoint]refusal // the token an endpoint refused after a re-mint
	last map[endpoint]string  // the token last sent to an MCP endpoint
}

type refusal struct {
	token string
	err   error // for MCP: what the calls that are not sent return
}

// answered applies the rule to an answer of status from endpoint to a
// request sent with tok, replayed or not; it reports whether the request
// is to be replayed with a new token.
func (f *Refusals) answered(at endpoint, tok string, status int, replayed bool) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, known := f.m[at]
	switch {
	case status != http.StatusUnauthorized:
		delete(f.m, at)
	case known && r.token == tok: // refused after a re-mint: no mint
	case !replayed:
		return true
	default:
		if f.m == nil {
			f.m = make(map[endpoint]refusal)
		}
		f.m[at] = refusal{token: tok}
	}
	return false
}

// remember keeps err for the MCP calls that endpoint's refusal of tok
// stops before they are sent.
func (f *Refusals) remember(at endpoint, tok string, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.m[at]; ok && r.token == tok {
		f.m[at] = refusal{token: tok, err: err}
	}
}

// sending returns the error for sending tok to an MCP endpoint that
// refused it after a re-mint, or nil; it remembers tok as the last token
// sent there.
func (f *Refusals) sending(at endpoint, tok string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.m[at]; r.token == tok && r.err != nil {
		return r.err
	}
	if f.last == nil {
		f.last = make(map[endpoint]string)
	}
	f.last[at] = tok
	return nil
}

// ToolUnauthorized applies the rule to a tool's "Unauthorized" result from
// the MCP endpoint at u (the tool did not run), replayed or not: it
// reports whether the call is to be replayed with a new token; if not,
// err is what later calls fail with at once.
func (f *Refusals) ToolUnauthorized(src TokenSource, u *url.URL, replayed bool, err error) bool {
	at := endpoint{Origin(u), cmp.Or(u.EscapedPath(), "/")}
	f.mu.Lock()
	tok := f.last[at]
	f.mu.Unlock()
	if tok != "" && f.answered(at, tok, http.StatusUnauthorized, replayed) { // "": no token known to drop
		src.Invalidate(tok)
		return true
	}
	f.remember(at, tok, err)
	return false
}
