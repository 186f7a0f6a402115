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

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
)

// Version is the SDK's version, sent in the User-Agent.
const Version = "0.1.0"

// Defaults for Options fields left zero.
const (
	DefaultRetryMax         = 3
	DefaultRetryWaitMin     = 250 * time.Millisecond
	DefaultRetryWaitMax     = 5 * time.Second
	DefaultRetryAfterMax    = 30 * time.Second
	DefaultMaxResponseBytes = 8 << 20
	// DefaultAttemptTimeout bounds the wait for an answer's headers when
	// the SDK makes its own transport; a caller's client keeps its own
	// settings.
	DefaultAttemptTimeout = 30 * time.Second

	// errorBodyLimit is how much of a non-2xx body is read: enough for any
	// JSON error body, small enough to be cheap.
	errorBodyLimit = 64 << 10
)

// TokenSource gives the bearer token for a request. The grant's access-
// and installation-token sources implement it.
type TokenSource interface {
	// Token returns a valid token, refreshing it if needed.
	Token(ctx context.Context) (string, error)
	// Invalidate drops tok if it is still the cached token; a request
	// refused with 401 then replays once with whatever Token gives.
	Invalidate(tok string)
	// Generation identifies the grant's current credentials; it changes
	// when the grant is given a new token.
	Generation() uint64
	// Fail is told that an answer to a request sent under Generation gen
	// says the grant is gone (err matches ErrReauthorizationRequired). The
	// source reads its Store once more: it reports true when that gave the
	// grant a newer token (the user reconnected, another holder refreshed),
	// and the request is then replayed once; otherwise err becomes final.
	Fail(ctx context.Context, err error, gen uint64) bool
	// Reload reads the Store once and takes a refresh token there that
	// differs from the one the grant had at gen (the user connected again,
	// maybe with a wider scope). It reports whether the grant's token
	// changed since gen; nothing becomes final.
	Reload(ctx context.Context, gen uint64) bool
	// Secrets returns the grant's tokens, which nothing the SDK keeps or
	// logs may contain.
	Secrets() redact.Secrets
	// Refusals is the source's memory for the 401 rule (see Refusals).
	Refusals() *Refusals
}

// Kind says which rules a request follows beyond the common ones.
type Kind int

const (
	// REST is a call of the resource API: a 2xx body is read and returned,
	// anything else is a typed error.
	REST Kind = iota
	// MCP is a POST to an MCP endpoint. Once the endpoint has refused a
	// freshly minted token too, calls fail at once with ErrMCPUnauthorized
	// until the grant's token changes.
	MCP
	// Raw is a request of Client.HTTPClient: it goes out once (no retries),
	// only to a configured host, and its answer comes back unread whatever
	// its status. It follows the 401 rule and the grant-gone rule.
	Raw
	// Credential obtains or revokes a credential (the installation-token
	// mint, the token endpoint): it never follows a redirect to another
	// origin, and an answer without a known error code is ErrConfiguration
	// naming Setting.
	Credential
)

// Request is one call of the service.
type Request struct {
	Kind   Kind
	Method string
	// Path is relative to the base URL.
	Path string
	// URL, when set, is the absolute address to call instead of the base
	// URL and Path (an MCP endpoint, an HTTPClient request).
	URL *url.URL
	// Auth authorises the request; nil sends none.
	Auth TokenSource
	// Body is encoded as JSON; nil sends no body. Payload, when set, is a
	// body already encoded and is sent as it is.
	Body    any
	Payload []byte
	// Accept replaces the Accept header's "application/json"; Header adds
	// headers (an MCP session's own, an HTTPClient request's).
	Accept string
	Header http.Header
	// Idempotent marks a POST that may be sent again after it may have run
	// (a read-only tool): it is retried like a GET.
	Idempotent bool
	// Setting names the configuration field that holds the URL, for the
	// advice of ErrConfiguration ("Config.MCPURL"). On a REST request it
	// marks an endpoint that always exists (no id in its path): a 404 or
	// 405 without an error code (a page, not the service's JSON) then
	// means the URL is wrong, not that a record is missing.
	Setting string
}

// Options configures a Runner. Zero values take the defaults above.
type Options struct {
	// BaseURL is the resource API's base ({base_url}).
	BaseURL *url.URL
	// Origins are the scheme://host of every URL the application
	// configured (the base URL's and the MCP endpoints'): the only places
	// a token is sent. The base URL's origin is always one.
	Origins []string
	// Name is the configuration type's name ("Config" or "PoolConfig"),
	// for advice.
	Name string
	// HTTPClient is the caller's client; it is copied, never modified.
	HTTPClient *http.Client
	// Logger receives the SDK's debug lines about retries; nil is silent.
	// go-retryablehttp's own logging is never used.
	Logger *slog.Logger
	// UserAgent is appended to "partner-go/<version>".
	UserAgent string
	// RetryMax is how many times a request may be retried; negative means
	// never.
	RetryMax                   int
	RetryWaitMin, RetryWaitMax time.Duration
	// RetryAfterMax caps a Retry-After the SDK waits for; a longer one ends
	// the retries and is reported in APIError.RetryAfter.
	RetryAfterMax time.Duration
	// MaxResponseBytes caps a 2xx body.
	MaxResponseBytes int64
	// Secrets are the application's (its client secret): scrubbed, with
	// the grant's tokens, from every error and log line.
	Secrets redact.Secrets
}

// Runner sends requests. It is safe for concurrent use and is meant to be
// shared by every client of a pool: it holds no per-grant state.
type Runner struct {
	prefix   string // base URL without a trailing slash
	basePath string // the base URL's path without a trailing slash
	origins  []string
	name     string
	hc       http.Client // copied per call, with that call's redirect rule
	ua       string
	policy   policy
	maxBody  int64
	secrets  redact.Secrets
	logger   *slog.Logger
}

// New returns a Runner for o.
func New(o Options) *Runner {
	r := &Runner{
		prefix:   strings.TrimSuffix(o.BaseURL.String(), "/"),
		basePath: strings.TrimSuffix(o.BaseURL.Path, "/"),
		origins:  []string{Origin(o.BaseURL)},
		name:     cmp.Or(o.Name, "Config"),
		ua:       "partner-go/" + Version,
		maxBody:  o.MaxResponseBytes,
		secrets:  o.Secrets,
		logger:   o.Logger,
		policy: policy{
			retryMax:      o.RetryMax,
			waitMin:       orDefault(o.RetryWaitMin, DefaultRetryWaitMin),
			waitMax:       orDefault(o.RetryWaitMax, DefaultRetryWaitMax),
			retryAfterMax: orDefault(o.RetryAfterMax, DefaultRetryAfterMax),
		},
	}
	for _, o := range o.Origins {
		if o = strings.ToLower(o); !slices.Contains(r.origins, o) {
			r.origins = append(r.origins, o)
		}
	}
	switch {
	case r.policy.retryMax == 0:
		r.policy.retryMax = DefaultRetryMax
	case r.policy.retryMax < 0:
		r.policy.retryMax = 0
	}
	if o.UserAgent != "" {
		r.ua += " " + o.UserAgent
	}
	if r.maxBody <= 0 {
		r.maxBody = DefaultMaxResponseBytes
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

// roundTripper is the caller's transport as every call uses it. It hides
// CloseIdleConnections, which go-retryablehttp calls after every failed
// call and which would close the connections every other grant shares,
// and it sets Response.Request where a test transport leaves it nil.
type roundTripper struct{ base http.RoundTripper }

func (t roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.Request == nil {
		resp.Request = req
	}
	return resp, err
}

// defaultTransport is the SDK's own transport when the caller gives no
// client: a clone of http.DefaultTransport with a header timeout. When
// http.DefaultTransport was replaced (tracing and metrics libraries wrap
// it), it is used as it is.
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

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Origin is u's scheme://host, lowercased: what the hosts rule compares.
func Origin(u *url.URL) string { return strings.ToLower(u.Scheme + "://" + u.Host) }

// Allowed reports whether a token may go to u: the hosts rule.
func (r *Runner) Allowed(u *url.URL) bool { return u != nil && slices.Contains(r.origins, Origin(u)) }

// Secrets returns the application's secrets, which nothing the SDK keeps
// or logs may contain.
func (r *Runner) Secrets() redact.Secrets { return r.secrets }

// Logger returns the configured logger, or nil.
func (r *Runner) Logger() *slog.Logger { return r.logger }

// OAuth2Context returns a context for golang.org/x/oauth2 calls: their
// requests go through the SDK's retry policy as Credential requests of
// setting (no Authorization header, no redirect to another origin).
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

func (t credentialTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := ReadRequest(req)
	if err != nil {
		return nil, err
	}
	q := Request{Kind: Credential, Method: req.Method, URL: req.URL, Payload: body, Header: req.Header, Setting: t.setting}
	c := t.r.newCall(&q)
	resp, err := c.exchange(req.Context())
	if err != nil {
		return nil, c.failure(req.Context(), err)
	}
	// x/oauth2 reads the answer itself: hand back the body the handler read.
	resp.Body = io.NopCloser(bytes.NewReader(c.body))
	resp.ContentLength = int64(len(c.body))
	return resp, nil
}

// Response is an answer: its status, headers and body (read in full), or
// for a Raw request the answer itself, unread.
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
	HTTP       *http.Response
}

// Do sends q and returns the 2xx body; see Send.
func (r *Runner) Do(ctx context.Context, q Request) ([]byte, error) {
	resp, err := r.Send(ctx, q)
	return resp.Body, err
}

// Send sends q: the one request path. It applies, each in one place:
// the hosts rule (a token goes only to a configured origin, a redirect to
// another origin drops it), the retry policy, the 401 rule (a refused
// token is dropped, a new one taken and the request replayed once; a new
// token refused too is remembered for that endpoint, Refusals), the
// grant-gone rule (the Store is read once more, then the grant is final),
// the missing-scope reload (a newer token in the Store is taken and the
// request replayed once) and the scrub (no secret, no token the request
// was sent with and no URL query in any error). A non-2xx answer becomes
// *apierr.APIError or *apierr.MissingScopeError. Every error starts with
// "partner: <method> <whole path>".
func (r *Runner) Send(ctx context.Context, q Request) (Response, error) {
	if q.Payload == nil && q.Body != nil {
		var err error
		if q.Payload, err = json.Marshal(q.Body); err != nil {
			return Response{}, fmt.Errorf("partner: %s %s: encoding request: %w", q.Method, r.basePath+q.Path, err)
		}
	}
	c := r.newCall(&q)
	if q.Auth != nil && q.URL != nil && !r.Allowed(q.URL) {
		return Response{}, fmt.Errorf("partner: %s %s: %w", q.Method, c.path, r.hostError(q.URL.Host))
	}
	var replayed401, replayedGone, reloaded bool
	for {
		resp, err := c.exchange(ctx)
		if err != nil {
			return Response{}, c.failure(ctx, err)
		}
		if q.Auth != nil {
			if resp.StatusCode == http.StatusUnauthorized {
				if !replayed401 && q.Auth.Refusals().first(c.endpoint(), c.token) {
					q.Auth.Invalidate(c.token)
					replayed401 = true
					discard(resp)
					continue
				}
				if replayed401 {
					q.Auth.Refusals().refuse(c.endpoint(), c.token)
				}
			} else {
				q.Auth.Refusals().accepted(c.origin, c.path)
			}
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
		var ra time.Duration
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			ra, _ = RetryAfter(resp.Header.Get("Retry-After"))
		}
		err = apierr.FromResponse(q.Method, c.path, resp.StatusCode, c.body, ra, c.scrub())
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
			err = q.Auth.Refusals().mcpError(c.endpoint(), c.token, err)
		case q.Kind == Credential && credentialRefused(ae),
			q.Kind == REST && q.Setting != "" && ae.Code == "" && ae.WrongURL():
			err = apierr.Classify(apierr.ErrConfiguration, err, "check "+q.Setting+"; users need not reconnect")
		}
		return Response{}, err
	}
}

// call is one Send's state, shared by the closures its retry loop runs.
type call struct {
	r          *Runner
	q          *Request
	target     string // the address to call
	path       string // the whole path, for errors and log lines
	origin     string // where Authorization may go: the request's own origin
	idempotent bool
	token      string   // the token of the latest attempt
	sent       []string // every token an attempt carried
	sentBuf    [2]string
	// hc and rc are this call's clients: the shared http.Client with the
	// call's redirect rule, and go-retryablehttp's loop with its closures.
	hc   http.Client
	rc   retryablehttp.Client
	gen  uint64 // the auth Generation when token was taken
	body []byte // the final answer's body
	read bool   // the response handler read it
}

func (r *Runner) newCall(q *Request) *call {
	c := &call{r: r, q: q,
		idempotent: q.Idempotent || q.Method == http.MethodGet || q.Method == http.MethodHead}
	c.sent = c.sentBuf[:0]
	if q.URL == nil {
		// A path under the base URL, escaped by the caller: no parse.
		c.target, c.path, c.origin = r.prefix+q.Path, cmp.Or(r.basePath+q.Path, "/"), r.origins[0]
		return c
	}
	c.target, c.path, c.origin = q.URL.String(), cmp.Or(q.URL.EscapedPath(), "/"), Origin(q.URL)
	return c
}

// endpoint is what a refusal is remembered for: the origin and path.
func (c *call) endpoint() string { return c.origin + c.path }

// exchange runs one go-retryablehttp loop and returns the final response.
// Unless the request is Raw, its body has been read (into c.body) and
// closed.
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
	switch {
	case c.q.Accept != "":
		h.Set("Accept", c.q.Accept)
	case c.q.Kind != Raw:
		h.Set("Accept", "application/json")
	}
	if c.q.Payload != nil && c.q.Kind != Raw && h.Get("Content-Type") == "" {
		h.Set("Content-Type", "application/json")
	}
	if err := c.authorize(req.Request); err != nil {
		return nil, err
	}
	c.hc = c.r.hc
	c.hc.CheckRedirect = c.redirect
	retryMax := c.r.policy.retryMax
	if c.q.Kind == Raw {
		retryMax = 0
	}
	c.rc = retryablehttp.Client{
		HTTPClient:   &c.hc,
		RetryMax:     retryMax,
		RetryWaitMin: c.r.policy.waitMin,
		RetryWaitMax: c.r.policy.waitMax,
		CheckRetry:   c.checkRetry,
		Backoff:      c.r.policy.backoff,
		ErrorHandler: lastResponse,
		PrepareRetry: c.authorize,
	}
	c.body, c.read = nil, false
	if c.q.Kind != Raw {
		req.SetResponseHandler(c.handle)
	}
	resp, err := c.rc.Do(req)
	if resp != nil && c.q.Kind != Raw && !c.read {
		// Retries ran out on a retryable status: the handler never saw it.
		c.body, _ = readLimited(resp.Body, errorBodyLimit)
		resp.Body.Close()
	}
	return resp, err
}

// authorize puts the grant's current token on req (every attempt asks
// again, so a retry carries the newest token), after the pacing wait the
// token source makes.
func (c *call) authorize(req *http.Request) error {
	a := c.q.Auth
	if a == nil {
		return nil
	}
	c.gen = a.Generation()
	tok, err := a.Token(req.Context())
	if err == nil && c.q.Kind == MCP {
		err = a.Refusals().sending(c.endpoint(), tok)
	}
	if err != nil {
		return &tokenError{err}
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	c.token = tok
	if !slices.Contains(c.sent, tok) {
		c.sent = append(c.sent, tok)
	}
	return nil
}

// redirect is the call's redirect rule: the token never goes to another
// origin than the request's own; a credential request and an HTTPClient
// request refuse such a redirect outright (a credential's body or the
// caller's headers may hold secrets).
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
	case c.q.Kind == Raw:
		// Another configured host: net/http dropped the token, which may
		// go there.
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

// handle is the response handler: it reads the final answer's body inside
// the retry loop, so that a GET whose body breaks off is retried like any
// other network failure.
func (c *call) handle(resp *http.Response) error {
	defer resp.Body.Close()
	c.read = true
	var err error
	c.body, err = c.r.readBody(resp)
	resp.Body = http.NoBody // go-retryablehttp drains the body before a retry
	return err
}

// gone reads the start of a Raw 410's body, puts it back, and makes the
// grant final when the answer says it is gone.
func (c *call) gone(ctx context.Context, resp *http.Response) {
	const limit = 4 << 10
	head, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil || len(head) > limit {
		// A cut JSON body would look code-less, which reads as a
		// revocation: the next call finds out for itself.
		return
	}
	gerr := apierr.FromResponse(c.q.Method, c.path, resp.StatusCode, head, 0, c.scrub())
	if errors.Is(gerr, apierr.ErrReauthorizationRequired) {
		c.q.Auth.Fail(ctx, gerr, c.gen)
	}
}

// scrub returns every secret the call's answer may echo: the
// application's, the grant's, and every token the call was sent with.
func (c *call) scrub() redact.Secrets {
	s := c.r.secrets
	if c.q.Auth != nil {
		s = s.Merge(c.q.Auth.Secrets())
	}
	return s.With(c.sent...)
}

// clean is an error's text made safe for an error or a log line: no
// secret, and no URL beyond its scheme, host and path.
func (c *call) clean(err error) string {
	return redact.URLs(c.scrub().String(err.Error()))
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
	}
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("partner: %s %s: %w: body over %d bytes", method, path, apierr.ErrUnexpectedResponse, c.r.maxBody)
	}
	text := c.clean(err)
	if !c.idempotent && !notSent(err) {
		text = "the request may have run on the service and was not sent again: " + text
	}
	return fmt.Errorf("partner: %s %s: %w: %w", method, path, apierr.ErrTemporary, &Cleaned{Text: text, Err: err})
}

// checkRetry is go-retryablehttp's CheckRetry for this call: the policy's
// decision, and a debug line for each retry.
func (c *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	status, header := 0, http.Header(nil)
	if resp != nil {
		status, header = resp.StatusCode, resp.Header
	}
	retry := c.r.policy.retry(c.idempotent, status, header, err)
	if retry && c.r.logger != nil {
		attrs := []slog.Attr{slog.String("method", c.q.Method), slog.String("path", c.path)}
		if err != nil {
			attrs = append(attrs, slog.String("error", c.clean(err)))
		} else {
			attrs = append(attrs, slog.Int("status", status))
		}
		c.r.logger.LogAttrs(ctx, slog.LevelDebug, "partner: retrying", attrs...)
	}
	return retry, nil
}

// lastResponse is go-retryablehttp's ErrorHandler: when retries run out
// on a status, the last response is kept so it becomes the typed error.
// With an error the response is closed and dropped.
func lastResponse(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err != nil && resp != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, err
}

func discard(resp *http.Response) {
	if resp.Body != nil {
		io.Copy(io.Discard, io.LimitReader(resp.Body, errorBodyLimit))
		resp.Body.Close()
	}
}

// ReadRequest reads and closes req's body: nil when there is none.
func ReadRequest(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// credentialRefused reports whether an answer to a credential request
// says the application, not the grant, is wrong: invalid_client, or a 4xx
// other than 429 without a code the service documents (a wrong URL's 404
// or 405, a proxy's page, a gateway's 400 or 403).
func credentialRefused(e *apierr.APIError) bool {
	if e.Code == apierr.CodeInvalidClient {
		return true
	}
	if e.StatusCode < 400 || e.StatusCode >= 500 || e.StatusCode == http.StatusTooManyRequests {
		return false
	}
	switch e.Code {
	case apierr.CodeMissingScope, apierr.CodeWrongOrganization, apierr.CodeRateLimited:
		return false
	}
	return true
}

// errTooLarge is returned for a 2xx body over the limit.
var errTooLarge = errors.New("response body over the size limit")

func (r *Runner) readBody(resp *http.Response) ([]byte, error) {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, err := readLimited(resp.Body, errorBodyLimit)
		if errors.Is(err, errTooLarge) {
			err = nil // a snippet is all an error needs
		}
		return b, err
	}
	if resp.ContentLength > r.maxBody {
		return nil, errTooLarge
	}
	return readLimited(resp.Body, r.maxBody)
}

// readLimited reads at most limit bytes, returning errTooLarge (with the
// first limit bytes) when there is more.
func readLimited(rd io.Reader, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if err != nil {
		return b, err
	}
	if int64(len(b)) > limit {
		return b[:limit], errTooLarge
	}
	return b, nil
}

// RedirectError is a redirect to another origin, refused: a credential's
// body (client secret, refresh token) or its answer (a token), or an
// HTTPClient request's headers, must not cross to a host the application
// did not configure. Host is the Location's host; the rest of that URL is
// never kept.
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

// Cleaned is an error whose text was made safe (no secret, no URL query)
// while its chain is kept for errors.Is, so that a caller can still find
// syscall.ECONNRESET or a *net.OpError in it.
type Cleaned struct {
	Text string
	Err  error
}

func (e *Cleaned) Error() string { return e.Text }
func (e *Cleaned) Unwrap() error { return e.Err }

// tokenError carries a token source's failure through net/http and
// go-retryablehttp unchanged; it is never retried.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// Refusals is one token source's memory for the 401 rule, the same for
// REST, MCP and HTTPClient requests: a 401 drops the refused token and the
// request is replayed once with a new one; when an endpoint refuses the
// new token too, that token is remembered for the endpoint. Another 401
// from it with that token then costs no further mint; an MCP endpoint is
// not sent that token again at all (ErrMCPUnauthorized at once). Any
// other answer from the endpoint, or a new token, ends the memory. The
// zero value is ready to use.
type Refusals struct {
	mu   sync.Mutex
	m    map[string]refusal // endpoint -> the token it refused after a re-mint
	last map[string]string  // MCP endpoint -> the token last sent to it
}

type refusal struct {
	token string
	err   error // for MCP: what the calls that are not sent return
}

// first reports whether tok, just refused by endpoint, is to be dropped
// for a new one: it is, unless the endpoint refused it after a re-mint.
func (f *Refusals) first(endpoint, tok string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.m[endpoint].token != tok
}

// refuse remembers tok, refused by endpoint although it was new.
func (f *Refusals) refuse(endpoint, tok string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.m == nil {
		f.m = make(map[string]refusal)
	}
	if f.m[endpoint].token != tok {
		f.m[endpoint] = refusal{token: tok}
	}
}

// accepted forgets the refusal of the endpoint at origin and path after
// an answer other than 401.
func (f *Refusals) accepted(origin, path string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.m) > 0 {
		delete(f.m, origin+path)
	}
}

// mcpError classifies an MCP endpoint's 401 as ErrMCPUnauthorized (the
// grant is not gone: REST keeps its token) and keeps it for the calls that
// refused will fail.
func (f *Refusals) mcpError(endpoint, tok string, err error) error {
	err = apierr.Classify(apierr.ErrMCPUnauthorized, err,
		"the MCP endpoint refused the installation token; the grant is not gone and REST still works")
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.m[endpoint]; ok && r.token == tok {
		f.m[endpoint] = refusal{token: tok, err: err}
	}
	return err
}

// sending returns the error for sending tok to an MCP endpoint that
// refused it after a re-mint, or nil; it remembers tok as the last token
// sent there.
func (f *Refusals) sending(endpoint, tok string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.m[endpoint]; r.token == tok && r.err != nil {
		return r.err
	}
	if f.last == nil {
		f.last = make(map[string]string)
	}
	f.last[endpoint] = tok
	return nil
}

// ToolUnauthorized applies the 401 rule to a tool's "Unauthorized" result
// from the MCP endpoint at url (the tool did not run): it reports whether
// the call is to be replayed with a new token. When replayed is true (the
// call already was), the token is remembered as refused and err, the
// tool's error, is what later calls fail with at once.
func (f *Refusals) ToolUnauthorized(src TokenSource, u *url.URL, replayed bool, err error) bool {
	endpoint := Origin(u) + u.EscapedPath()
	f.mu.Lock()
	tok := f.last[endpoint]
	f.mu.Unlock()
	if !replayed && f.first(endpoint, tok) {
		src.Invalidate(tok)
		return true
	}
	f.refuse(endpoint, tok)
	f.mu.Lock()
	f.m[endpoint] = refusal{token: tok, err: err}
	f.mu.Unlock()
	return false
}
