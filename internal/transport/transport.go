package transport

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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

// TokenSource gives the bearer token for a request. Both the access-token
// and the installation-token sources of package auth implement it.
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
	// Secrets returns the grant's tokens, which nothing the SDK keeps or
	// logs may contain.
	Secrets() redact.Secrets
}

// Request is one call of the service.
type Request struct {
	Method string
	// Path is relative to the base URL.
	Path string
	// URL, when set, is the absolute address to call instead of the base
	// URL and Path (an MCP endpoint). Authorization goes only to the
	// origin of the address the request was built for.
	URL *url.URL
	// Auth authorises the request; nil sends none.
	Auth TokenSource
	// Body is encoded as JSON; nil sends no body. Payload, when set, is a
	// body already encoded as JSON and is sent as it is.
	Body    any
	Payload []byte
	// Accept replaces the Accept header's "application/json"; Header adds
	// headers (an MCP session's own).
	Accept string
	Header http.Header
	// Idempotent marks a POST that may be sent again after it may have run
	// (a read-only tool): it is retried like a GET.
	Idempotent bool
	// Sent, when set, is told the token each attempt is sent with.
	Sent func(token string)
	// Credential is set for requests that obtain or revoke a credential
	// (the installation-token mint): it names the setting that holds the
	// URL, for the advice of ErrConfiguration. Such a request never follows
	// a redirect to another origin, and an answer without a known error code
	// is ErrConfiguration, not a per-call error.
	Credential string
}

// Options configures a Runner. Zero values take the defaults above.
type Options struct {
	// BaseURL is the resource API's base ({base_url}). Authorization is
	// only ever sent to its scheme and host.
	BaseURL *url.URL
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
	prefix        string // base URL without a trailing slash
	basePath      string // the base URL's path without a trailing slash
	origin        string // scheme://host of the base URL
	rc            *retryablehttp.Client
	std           *http.Client
	ua            string
	uaVals        []string // header values shared by every request;
	jsonVals      []string // net/http never modifies them
	maxBody       int64
	retryAfterMax time.Duration
	secrets       redact.Secrets
	logger        *slog.Logger
	base          http.RoundTripper // the caller's transport, under the SDK's
}

// New returns a Runner for o.
func New(o Options) *Runner {
	r := &Runner{
		prefix:        strings.TrimSuffix(o.BaseURL.String(), "/"),
		basePath:      strings.TrimSuffix(o.BaseURL.Path, "/"),
		origin:        o.BaseURL.Scheme + "://" + o.BaseURL.Host,
		ua:            "partner-go/" + Version,
		maxBody:       o.MaxResponseBytes,
		retryAfterMax: o.RetryAfterMax,
		secrets:       o.Secrets,
		logger:        o.Logger,
	}
	if o.UserAgent != "" {
		r.ua += " " + o.UserAgent
	}
	r.uaVals = []string{r.ua}
	r.jsonVals = []string{"application/json"}
	if r.maxBody <= 0 {
		r.maxBody = DefaultMaxResponseBytes
	}
	if r.retryAfterMax <= 0 {
		r.retryAfterMax = DefaultRetryAfterMax
	}
	var hc http.Client
	if o.HTTPClient != nil {
		hc = *o.HTTPClient // a copy: the caller's client is never modified
	} else {
		hc.Transport = defaultTransport()
	}
	prevRedirect := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if c, _ := req.Context().Value(callKey{}).(*call); c != nil && c.credential != "" && !sameOrigin(req.URL, origin(via[0].URL)) {
			return &RedirectError{Host: req.URL.Host, Setting: c.credential}
		}
		if prevRedirect != nil {
			return prevRedirect(req, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	r.base = base
	hc.Transport = &authTransport{base: base, ua: r.ua}

	retryMax := o.RetryMax
	switch {
	case retryMax == 0:
		retryMax = DefaultRetryMax
	case retryMax < 0:
		retryMax = 0
	}
	r.rc = &retryablehttp.Client{
		HTTPClient:   &hc,
		RetryMax:     retryMax,
		RetryWaitMin: orDefault(o.RetryWaitMin, DefaultRetryWaitMin),
		RetryWaitMax: orDefault(o.RetryWaitMax, DefaultRetryWaitMax),
		CheckRetry:   r.checkRetry,
		Backoff:      backoff,
		ErrorHandler: lastResponse,
	}
	r.std = &http.Client{Transport: &retryablehttp.RoundTripper{Client: r.rc}}
	return r
}

// lastResponse is go-retryablehttp's ErrorHandler: when retries run out
// on a status, the last response is kept so it becomes the typed error.
// With an error (the context ended, a body could not be read) the response
// is closed and dropped: net/http would otherwise discard it unclosed
// when it comes back through a RoundTripper, as on the token path.
func lastResponse(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err != nil && resp != nil {
		resp.Body.Close()
		return nil, err
	}
	return resp, err
}

// defaultTransport is the SDK's own transport when the caller gives no
// client: a clone of http.DefaultTransport with a header timeout, which
// bounds a hanging attempt at the cost of a timer per request (see
// BenchmarkProjectsGet's sdk-default), less than http.Client.Timeout's
// context and timer. When http.DefaultTransport was replaced (tracing and
// metrics libraries wrap it), it is used as it is.
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

// RedirectError is a credential request's redirect to another origin,
// refused: its body (client secret, refresh token) or its answer (a token)
// must not cross to a host the application did not configure. Host is the
// Location's host; the rest of that URL is never kept.
type RedirectError struct {
	Host    string
	Setting string
}

func (e *RedirectError) Error() string {
	return "redirected to another host (" + e.Host + "), refused for a credential request"
}

// Configuration returns e as an ErrConfiguration for method path.
func (e *RedirectError) Configuration(method, path string) error {
	return apierr.Classify(apierr.ErrConfiguration, fmt.Errorf("partner: %s %s: %w", method, path, e),
		"check "+e.Setting+"; users need not reconnect")
}

func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Secrets returns the application's secrets, which nothing the SDK keeps
// or logs may contain.
func (r *Runner) Secrets() redact.Secrets { return r.secrets }

// Base returns the transport every request finally goes through: the
// caller's HTTPClient's, or the SDK's default. It adds nothing.
func (r *Runner) Base() http.RoundTripper { return r.base }

// UserAgent returns the User-Agent the SDK sends.
func (r *Runner) UserAgent() string { return r.ua }

// Logger returns the configured logger, or nil.
func (r *Runner) Logger() *slog.Logger { return r.logger }

// OAuth2Context returns a context for golang.org/x/oauth2 calls: its
// requests go through the Runner's client and retry policy as a POST with
// no Authorization header, and never follow a redirect to another origin
// (setting names the URL setting to check then).
func (r *Runner) OAuth2Context(ctx context.Context, setting string) context.Context {
	ctx = context.WithValue(ctx, callKey{}, &call{r: r, method: http.MethodPost, credential: setting})
	// x/oauth2 finds its HTTP client under this key.
	return context.WithValue(ctx, oauth2.HTTPClient, r.std)
}

// call is the per-request state the retry policy and the auth transport
// share; it travels in the request's context.
type call struct {
	r           *Runner
	method      string
	path        string // the whole path, for log lines
	origin      string // where Authorization may go: the request's own origin
	idempotent  bool
	credential  string // see Request.Credential
	sent        func(token string)
	auth        TokenSource
	token       string // the last token sent
	gen         uint64 // the auth Generation when token was taken
	invalidated bool   // a 401 dropped the cached token: replay once
	replayed    bool
	body        []byte // the final answer's body
	read        bool   // the response handler read it
	preset      bool   // token was just put on the request: the next attempt needs no lookup
}

type callKey struct{}

// Response is a 2xx answer: its status, headers and body (read in full).
type Response struct {
	StatusCode int
	Header     http.Header
	Body       []byte
}

// Do sends q and returns the 2xx body; see Send.
func (r *Runner) Do(ctx context.Context, q Request) ([]byte, error) {
	resp, err := r.Send(ctx, q)
	return resp.Body, err
}

// Send sends q and returns the 2xx answer. A non-2xx answer becomes
// *apierr.APIError or *apierr.MissingScopeError (classified as
// ErrConfiguration for a credential request without a known code, and as
// ErrReauthorizationRequired when it says the grant is gone); a token
// failure is returned as the token source gave it. Every error starts with
// "partner: <method> <whole path>".
func (r *Runner) Send(ctx context.Context, q Request) (Response, error) {
	target, full, origin := r.prefix+q.Path, r.basePath+q.Path, r.origin
	if q.URL != nil {
		target, full, origin = q.URL.String(), q.URL.EscapedPath(), q.URL.Scheme+"://"+q.URL.Host
	}
	payload := q.Payload
	if payload == nil && q.Body != nil {
		var err error
		if payload, err = json.Marshal(q.Body); err != nil {
			return Response{}, fmt.Errorf("partner: %s %s: encoding request: %w", q.Method, full, err)
		}
	}
	c := &call{r: r, method: q.Method, path: full, origin: origin, auth: q.Auth, credential: q.Credential,
		idempotent: q.Idempotent || q.Method == http.MethodGet || q.Method == http.MethodHead, sent: q.Sent}
	ctx = context.WithValue(ctx, callKey{}, c)
	for replays := 0; ; replays++ {
		resp, err := r.attempts(ctx, c, target, payload, &q)
		if err == nil && resp.StatusCode == http.StatusUnauthorized && c.invalidated {
			// The cached token was refused: it has been dropped, so this
			// replay gets a new one. Once only.
			c.invalidated, c.replayed = false, true
			resp, err = r.attempts(ctx, c, target, payload, &q)
		}
		if err != nil {
			return Response{}, r.failure(ctx, c, err)
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return Response{StatusCode: resp.StatusCode, Header: resp.Header, Body: c.body}, nil
		}
		var ra time.Duration
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			ra, _ = RetryAfter(resp.Header.Get("Retry-After"))
		}
		err = apierr.FromResponse(q.Method, full, resp.StatusCode, c.body, ra, r.scrub(c))
		var ae *apierr.APIError
		errors.As(err, &ae)
		switch {
		case ae.GrantGone():
			if q.Auth != nil && q.Auth.Fail(ctx, err, c.gen) && replays == 0 {
				continue // the Store had a newer token: once with it
			}
			err = apierr.Classify(apierr.ErrReauthorizationRequired, err, apierr.ReconnectAdvice)
		case q.Credential != "" && credentialRefused(ae):
			err = apierr.Classify(apierr.ErrConfiguration, err, "check "+q.Credential+"; users need not reconnect")
		}
		return Response{}, err
	}
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

// scrub returns every secret c's answer may echo: the application's and
// the grant's.
func (r *Runner) scrub(c *call) redact.Secrets {
	s := r.secrets
	if c.auth != nil {
		s = s.Merge(c.auth.Secrets())
	}
	return s.With(c.token)
}

// handleResponse is every request's response handler: it reads the final
// answer's body inside the retry loop, so that a GET whose body breaks off
// is retried like any other network failure.
func handleResponse(resp *http.Response) error {
	defer resp.Body.Close()
	var c *call
	if resp.Request != nil { // authTransport makes sure it is set
		c, _ = resp.Request.Context().Value(callKey{}).(*call)
	}
	if c == nil {
		return errors.New("partner-go: response without its request")
	}
	c.read = true
	var err error
	c.body, err = c.r.readBody(resp)
	// go-retryablehttp drains the body before a retry: it has been read.
	resp.Body = http.NoBody
	return err
}

// attempts runs one retryable exchange and returns the final response; its
// body is read and closed, and kept in c.body.
func (r *Runner) attempts(ctx context.Context, c *call, target string, payload []byte, q *Request) (*http.Response, error) {
	var body any // a nil []byte would make a chunked empty body
	if payload != nil {
		body = payload
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, c.method, target, body)
	if err != nil {
		return nil, err
	}
	h := req.Header
	for k, v := range q.Header {
		h[k] = v
	}
	h["User-Agent"] = r.uaVals
	h["Accept"] = r.jsonVals
	if q.Accept != "" {
		h["Accept"] = []string{q.Accept}
	}
	if payload != nil {
		h["Content-Type"] = r.jsonVals
	}
	if c.auth != nil {
		// The first attempt's token goes on our own request, before it is
		// sent; authTransport only replaces it when it changed.
		c.gen = c.auth.Generation()
		tok, err := c.auth.Token(ctx)
		if err != nil {
			return nil, &tokenError{err}
		}
		h["Authorization"] = []string{"Bearer " + tok}
		c.token, c.preset = tok, true
	}
	c.body, c.read = nil, false
	req.SetResponseHandler(handleResponse)
	resp, err := r.rc.Do(req)
	if resp != nil && !c.read {
		// Retries ran out on a retryable status: the handler never saw it.
		c.body, _ = readLimited(resp.Body, errorBodyLimit)
		resp.Body.Close()
	}
	return resp, err
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
	if n := resp.ContentLength; n >= 0 && n < 1<<20 {
		// The usual case: one allocation of the announced size. A body
		// shorter than announced fails with io.ErrUnexpectedEOF.
		b := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, b); err != nil {
			return nil, err
		}
		return b, nil
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

// failure turns a transport-level error into the SDK's error.
func (r *Runner) failure(ctx context.Context, c *call, err error) error {
	var te *tokenError
	if errors.As(err, &te) {
		return te.err
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		return fmt.Errorf("partner: %s %s: %w", c.method, c.path, ctxErr)
	}
	var re *RedirectError
	if errors.As(err, &re) {
		return re.Configuration(c.method, c.path)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the whole URL
	}
	if errors.Is(err, errTooLarge) {
		return fmt.Errorf("partner: %s %s: %w: body over %d bytes", c.method, c.path, apierr.ErrUnexpectedResponse, r.maxBody)
	}
	text := r.clean(c, err)
	if !c.idempotent && !notSent(err) {
		text = "the request may have run on the service and was not sent again: " + text
	}
	return fmt.Errorf("partner: %s %s: %w: %w", c.method, c.path, apierr.ErrTemporary, &Cleaned{Text: text, Err: err})
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

// clean is an error's text made safe for an error or a log line: no
// secret, and no URL beyond its scheme, host and path.
func (r *Runner) clean(c *call, err error) string {
	return redact.URLs(r.scrub(c).String(err.Error()))
}

// checkRetry is the SDK's retry policy (see DESIGN.md): a failure before
// the request was sent, 429 and 503 are retried for every method; other
// network errors, timeouts and 5xx only for GET and HEAD; 4xx never.
func (r *Runner) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	c, _ := ctx.Value(callKey{}).(*call)
	retry := r.shouldRetry(c, resp, err)
	if retry && r.logger != nil && c != nil {
		attrs := []slog.Attr{slog.String("method", c.method), slog.String("path", c.path)}
		if err != nil {
			attrs = append(attrs, slog.String("error", r.clean(c, err)))
		} else {
			attrs = append(attrs, slog.Int("status", resp.StatusCode))
		}
		r.logger.LogAttrs(ctx, slog.LevelDebug, "partner: retrying", attrs...)
	}
	return retry, nil
}

func (r *Runner) shouldRetry(c *call, resp *http.Response, err error) bool {
	idempotent := c != nil && c.idempotent
	if err != nil {
		var te *tokenError
		var re *RedirectError
		if errors.As(err, &te) || errors.As(err, &re) || errors.Is(err, errTooLarge) {
			return false
		}
		return idempotent || notSent(err)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		if d, ok := RetryAfter(resp.Header.Get("Retry-After")); ok && d > r.retryAfterMax {
			return false // longer than we wait: report it instead
		}
		return true
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return idempotent
	}
	return false
}

// notSent reports whether err proves the request never left: the
// connection could not be made.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}

// backoff waits for Retry-After when the answer had one, else an
// exponential delay with jitter in [d/2, d].
func backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil && (resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable) {
		if d, ok := RetryAfter(resp.Header.Get("Retry-After")); ok {
			return d // checkRetry refused anything over the cap
		}
	}
	d := hi
	if attempt < 30 && lo<<attempt < hi {
		d = lo << attempt
	}
	return d/2 + rand.N(d/2+1)
}

// RetryAfter parses a Retry-After value: seconds or an HTTP date.
func RetryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		if s > int64(24*time.Hour/time.Second) {
			s = int64(24 * time.Hour / time.Second)
		}
		return time.Duration(s) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(time.Until(t), 0), true
}

// tokenError carries a token source's failure through net/http and
// go-retryablehttp unchanged; it is never retried.
type tokenError struct{ err error }

func (e *tokenError) Error() string { return e.err.Error() }
func (e *tokenError) Unwrap() error { return e.err }

// authTransport keeps the Authorization header right on every attempt:
// the request's TokenSource is asked again each time, so a retry carries
// the current token, and a request to any origin other than the one the
// request was built for (a redirect) carries none. It also adds the
// User-Agent to requests the SDK did not build (x/oauth2's). It copies a
// request before changing it.
type authTransport struct {
	base http.RoundTripper
	ua   string
}

func (t *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c, _ := req.Context().Value(callKey{}).(*call)
	if c == nil || c.auth == nil || !sameOrigin(req.URL, c.origin) {
		_, hasAuth := req.Header["Authorization"]
		_, hasUA := req.Header["User-Agent"]
		if hasAuth || !hasUA {
			req = cloneHeader(req)
			req.Header.Del("Authorization")
			if !hasUA {
				req.Header.Set("User-Agent", t.ua)
			}
		}
		resp, err := t.base.RoundTrip(req)
		if err == nil && resp.Request == nil {
			resp.Request = req
		}
		return resp, err
	}
	tok := c.token
	if c.preset {
		c.preset = false // the first attempt: attempts just asked
	} else {
		var err error
		c.gen = c.auth.Generation()
		if tok, err = c.auth.Token(req.Context()); err != nil {
			if req.Body != nil {
				req.Body.Close()
			}
			return nil, &tokenError{err}
		}
	}
	if v := req.Header["Authorization"]; len(v) != 1 || !isBearer(v[0], tok) {
		req = cloneHeader(req)
		req.Header["Authorization"] = []string{"Bearer " + tok}
	}
	c.token = tok
	if c.sent != nil {
		c.sent(tok)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.Request == nil { // net/http sets it; some test transports do not
		resp.Request = req
	}
	if resp.StatusCode == http.StatusUnauthorized && !c.replayed {
		// Drop the token (if no other request has yet) and replay once:
		// however many requests were refused with it, single flight
		// makes one new token for all their replays.
		c.auth.Invalidate(tok)
		c.invalidated = true
	}
	return resp, nil
}

func isBearer(v, tok string) bool {
	return len(v) == len("Bearer ")+len(tok) && v[:len("Bearer ")] == "Bearer " && v[len("Bearer "):] == tok
}

// cloneHeader returns a shallow copy of req with its own Header, as a
// RoundTripper must not modify the request it is given.
func cloneHeader(req *http.Request) *http.Request {
	r2 := new(http.Request)
	*r2 = *req
	r2.Header = req.Header.Clone()
	if r2.Header == nil {
		r2.Header = make(http.Header)
	}
	return r2
}

func sameOrigin(u *url.URL, origin string) bool {
	n := len(u.Scheme)
	return len(origin) == n+3+len(u.Host) &&
		strings.EqualFold(origin[:n], u.Scheme) &&
		origin[n:n+3] == "://" &&
		strings.EqualFold(origin[n+3:], u.Host)
}

// Decode unmarshals a 2xx body into v. An empty body or invalid JSON is
// ErrUnexpectedResponse naming the endpoint.
func Decode(method, path string, data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return fmt.Errorf("partner: %s %s: %w: empty body where a record was expected", method, path, apierr.ErrUnexpectedResponse)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("partner: %s %s: %w: %v", method, path, apierr.ErrUnexpectedResponse, err)
	}
	return nil
}

// List returns the elements of a list answer: a bare JSON array, or an
// object holding the array under one of keys (tried in order) or as its
// only array-valued field.
func List(method, path string, data []byte, keys ...string) ([]json.RawMessage, error) {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '[' {
		var items []json.RawMessage
		if err := Decode(method, path, data, &items); err != nil {
			return nil, err
		}
		return items, nil
	}
	var obj map[string]json.RawMessage
	if err := Decode(method, path, data, &obj); err != nil {
		return nil, err
	}
	arrays := func(k string) ([]json.RawMessage, bool) {
		v := bytes.TrimSpace(obj[k])
		if len(v) == 0 || v[0] != '[' {
			return nil, false
		}
		var items []json.RawMessage
		return items, json.Unmarshal(v, &items) == nil
	}
	for _, k := range keys {
		if items, ok := arrays(k); ok {
			return items, nil
		}
	}
	var found []json.RawMessage
	n := 0
	for k := range obj {
		if items, ok := arrays(k); ok {
			found, n = items, n+1
		}
	}
	if n == 1 {
		return found, nil
	}
	return nil, fmt.Errorf("partner: %s %s: %w: no list in the answer", method, path, apierr.ErrUnexpectedResponse)
}

// PathParam checks and escapes a path parameter: it must be non-empty and
// hold no '/', '\' or "..", so that it can only name one path segment.
func PathParam(field, v string) (string, error) {
	switch {
	case v == "":
		return "", apierr.ArgumentError(field, "is empty")
	case strings.ContainsAny(v, `/\`) || strings.Contains(v, "..") || v == ".":
		return "", apierr.ArgumentError(field, fmt.Sprintf("%q must not contain '/', '\\' or '..'", v))
	case strings.IndexFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0:
		return "", apierr.ArgumentError(field, "contains control characters")
	}
	return url.PathEscape(v), nil
}

// FlexString decodes a JSON string or number as a string, so an id the
// service sends as a number still decodes. null decodes as "".
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *FlexString) UnmarshalJSON(b []byte) error {
	switch {
	case len(b) > 0 && b[0] == '"':
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		*s = FlexString(v)
	case string(b) == "null":
		*s = ""
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("expected a string or number, got %.20s", b)
		}
		*s = FlexString(n)
	}
	return nil
}

// Tolerant decodes a 2xx body into fast, a struct of plain types. When
// the body has a field of another type than fast expects (an id sent as a
// number, a language as a bare code), it decodes into loose instead, whose
// types accept the variants, and reports that it did. The fast path keeps
// the common case as cheap as a plain json.Unmarshal.
func Tolerant[L any](method, path string, data []byte, fast any) (loose *L, err error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, Decode(method, path, data, fast)
	}
	if err = json.Unmarshal(data, fast); err == nil {
		return nil, nil
	}
	if te := new(json.UnmarshalTypeError); errors.As(err, &te) {
		loose = new(L)
		return loose, Decode(method, path, data, loose)
	}
	return nil, fmt.Errorf("partner: %s %s: %w: %v", method, path, apierr.ErrUnexpectedResponse, err)
}

// Envelope returns the object held under the first of keys in a JSON
// object (an answer such as {"project": {...}}), or nil.
func Envelope(data []byte, keys ...string) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return nil
	}
	for _, k := range keys {
		if inner := bytes.TrimSpace(obj[k]); len(inner) > 0 && inner[0] == '{' {
			return inner
		}
	}
	return nil
}
