package mcpsession

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
)

// errorBodyLimit is how much of a non-2xx body is read.
const errorBodyLimit = 64 << 10

// exchange is what the HTTP layer learns about one logical exchange (a
// tool call, a listing, the handshake); it travels in the request's
// context. Messages the go-sdk sends on the same context afterwards (a
// cancellation notice) find it sealed and leave it alone.
type exchange struct {
	retry bool // may be sent again after it may have run

	mu     sync.Mutex
	sealed bool
	sent   int    // requests that left for the server
	token  string // the last token sent
	err    error  // the typed failure
}

type exchangeKey struct{}

func withExchange(ctx context.Context, x *exchange) context.Context {
	return context.WithValue(ctx, exchangeKey{}, x)
}

func (x *exchange) sending(tok string) {
	x.mu.Lock()
	if !x.sealed {
		x.sent++
		x.token = tok
	}
	x.mu.Unlock()
}

func (x *exchange) failed(err error) {
	x.mu.Lock()
	if !x.sealed {
		x.err = err
	}
	x.mu.Unlock()
}

// seal ends the recording and returns what was recorded.
func (x *exchange) seal() (sent int, tok string, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.sealed = true
	return x.sent, x.token, x.err
}

// roundTripper is the HTTP layer under the go-sdk: the token, the hosts
// rule, retries, the 401 re-mint and typed errors. Only a 2xx answer (read
// in full) reaches the go-sdk; every other answer becomes an error, which
// the go-sdk reports for the call without closing its connection.
type roundTripper struct {
	s             *Session
	base          http.RoundTripper
	origin        string   // scheme://host of the endpoint
	ua            []string // header values shared by every request;
	accept        []string // net/http never modifies them
	json          []string
	retryMax      int
	waitMin       time.Duration
	waitMax       time.Duration
	retryAfterMax time.Duration
	maxBody       int64
}

// newHTTPClient returns the client the go-sdk uses: a copy of the
// caller's, with roundTripper over its transport.
func newHTTPClient(s *Session, u *url.URL, cfg Config) *http.Client {
	var hc http.Client
	if cfg.HTTPClient != nil {
		hc = *cfg.HTTPClient
	} else {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.ResponseHeaderTimeout = DefaultResponseHeaderTimeout
		t.MaxIdleConnsPerHost = 64
		hc.Transport = t
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	ua := "partner-go/" + version
	if cfg.UserAgent != "" {
		ua += " " + cfg.UserAgent
	}
	rt := &roundTripper{
		s:             s,
		base:          base,
		origin:        u.Scheme + "://" + u.Host,
		ua:            []string{ua},
		accept:        []string{"application/json, text/event-stream"},
		json:          []string{"application/json"},
		retryMax:      cfg.RetryMax,
		waitMin:       cfg.RetryWaitMin,
		waitMax:       cfg.RetryWaitMax,
		retryAfterMax: cfg.RetryAfterMax,
		maxBody:       cfg.MaxResponseBytes,
	}
	switch {
	case rt.retryMax == 0:
		rt.retryMax = DefaultRetryMax
	case rt.retryMax < 0:
		rt.retryMax = 0
	}
	if rt.waitMin <= 0 {
		rt.waitMin = DefaultRetryWaitMin
	}
	if rt.waitMax <= 0 {
		rt.waitMax = DefaultRetryWaitMax
	}
	if rt.retryAfterMax <= 0 {
		rt.retryAfterMax = DefaultRetryAfterMax
	}
	if rt.maxBody <= 0 {
		rt.maxBody = DefaultMaxResponseBytes
	}
	hc.Transport = rt
	return &hc
}

// errTooLarge is a 2xx body over the limit.
var errTooLarge = errors.New("response body over the size limit")

// RoundTrip sends req with the installation token. It retries network
// failures, 5xx and 429 as the exchange allows, replays once after a 401
// with a fresh token, and returns any other non-2xx answer as the SDK's
// typed error (also recorded in the exchange).
func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		x = &exchange{retry: true} // nothing the SDK sends without one changes anything
	}
	if req.Method != http.MethodPost {
		closeBody(req)
		return nil, fmt.Errorf("partner: the MCP servers are stateless: the SDK sends only POST, not %s", req.Method)
	}
	if !sameOrigin(req.URL, t.origin) {
		closeBody(req)
		return nil, fmt.Errorf("partner: refusing to send the installation token to %s: it goes only to the configured MCP host", req.URL.Host)
	}
	body, err := readRequest(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	replayed := false
	for attempt := 0; ; {
		if err := t.s.finalErr(); err != nil {
			x.failed(err)
			return nil, err
		}
		tok, err := t.s.token(ctx)
		if err != nil {
			x.failed(err)
			return nil, err
		}
		x.sending(tok)
		resp, err := t.base.RoundTrip(t.prepare(req, body, tok))
		var data []byte
		if err == nil {
			data, err = t.read(resp)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if errors.Is(err, errTooLarge) {
				err = fmt.Errorf("%w: body over %d bytes", apierr.ErrUnexpectedResponse, t.maxBody)
				x.failed(err)
				return nil, err
			}
			if attempt < t.retryMax && (x.retry || notSent(err)) {
				attempt++
				if err := sleep(ctx, t.backoff(attempt, 0)); err != nil {
					return nil, err
				}
				continue
			}
			err = t.s.networkError(err, x.retry || notSent(err), tok)
			x.failed(err)
			return nil, err
		}
		status := resp.StatusCode
		if status >= 200 && status < 300 {
			resp.Body = io.NopCloser(bytes.NewReader(data))
			resp.ContentLength = int64(len(data))
			return resp, nil
		}
		if status == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "" {
			// The server forgot a session it gave out: the go-sdk turns
			// this into ErrSessionMissing, and the Session reconnects.
			resp.Body = io.NopCloser(bytes.NewReader(data))
			return resp, nil
		}
		ra, _ := retryAfter(resp.Header.Get("Retry-After"))
		if status == http.StatusUnauthorized && !replayed {
			replayed = true
			if t.s.remint(tok) {
				continue // with the next token; not a retry
			}
		}
		if (status == http.StatusTooManyRequests || status >= 500 && x.retry) && attempt < t.retryMax && ra <= t.retryAfterMax {
			attempt++
			if err := sleep(ctx, t.backoff(attempt, ra)); err != nil {
				return nil, err
			}
			continue
		}
		err = t.s.statusError(status, data, ra, tok)
		x.failed(err)
		return nil, err
	}
}

// prepare returns the request to send: a copy of req with the token, the
// headers the servers require (mcp-tools.md section 2) and a fresh body.
func (t *roundTripper) prepare(req *http.Request, body []byte, tok string) *http.Request {
	r2 := new(http.Request)
	*r2 = *req
	r2.Header = req.Header.Clone()
	if r2.Header == nil {
		r2.Header = make(http.Header)
	}
	r2.Header["Authorization"] = []string{"Bearer " + tok}
	r2.Header["Accept"] = t.accept
	r2.Header["Content-Type"] = t.json
	r2.Header["User-Agent"] = t.ua
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r2.ContentLength = int64(len(body))
	return r2
}

// read reads and closes resp's body: in full for a 2xx (up to the limit),
// a bounded snippet otherwise. A body that breaks off is a network error.
func (t *roundTripper) read(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		b, err := readLimited(resp.Body, errorBodyLimit)
		if errors.Is(err, errTooLarge) {
			err = nil
		}
		return b, err
	}
	if resp.ContentLength > t.maxBody {
		return nil, errTooLarge
	}
	if n := resp.ContentLength; n >= 0 && n < 1<<20 {
		b := make([]byte, n)
		if _, err := io.ReadFull(resp.Body, b); err != nil {
			return nil, err
		}
		return b, nil
	}
	return readLimited(resp.Body, t.maxBody)
}

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

func readRequest(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// backoff waits for Retry-After when the answer had one, else an
// exponential delay with jitter in [d/2, d].
func (t *roundTripper) backoff(attempt int, ra time.Duration) time.Duration {
	if ra > 0 {
		return ra
	}
	d := t.waitMax
	if attempt < 30 && t.waitMin<<attempt < d {
		d = t.waitMin << attempt
	}
	return d/2 + rand.N(d/2+1)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-tm.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
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

// retryAfter parses a Retry-After value: seconds or an HTTP date.
func retryAfter(v string) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, int64(24*time.Hour/time.Second))) * time.Second, true
	}
	tm, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(time.Until(tm), 0), true
}

func sameOrigin(u *url.URL, origin string) bool {
	n := len(u.Scheme)
	return len(origin) == n+3+len(u.Host) &&
		strings.EqualFold(origin[:n], u.Scheme) &&
		origin[n:n+3] == "://" &&
		strings.EqualFold(origin[n+3:], u.Host)
}

// token returns the installation token to send, or at once the error of a
// token the MCP endpoint already refused.
func (s *Session) token(ctx context.Context) (string, error) {
	tok, err := s.tokens.Token(ctx)
	if err != nil {
		return "", err
	}
	s.amu.Lock()
	refused, rerr := s.refused, s.refusedErr
	s.amu.Unlock()
	if tok == refused {
		return "", rerr
	}
	return tok, nil
}

// remint handles a 401 for tok: the first 401 for a token invalidates it
// so that the replay gets a new one (at most one mint per token, however
// many calls were refused with it). It reports whether to replay.
func (s *Session) remint(tok string) bool {
	s.amu.Lock()
	if tok == s.refused {
		s.amu.Unlock()
		return false
	}
	first := s.reminted != tok
	s.reminted = tok
	s.amu.Unlock()
	if first {
		s.tokens.Invalidate(tok)
	}
	return true
}

// statusError turns a failed answer into the SDK's error, and records what
// it means for the grant: a 401 that survived the re-mint makes tok
// refused for MCP; 410 or grant_revoked makes the grant final.
func (s *Session) statusError(status int, body []byte, ra time.Duration, tok string) error {
	err := apierr.FromResponse(http.MethodPost, s.path, status, body, ra, redact.New(s.scrub(tok)...))
	switch {
	case status == http.StatusGone || errors.Is(err, apierr.ErrGrantRevoked):
		if !errors.Is(err, apierr.ErrReauthorizationRequired) {
			err = fmt.Errorf("%w (%w): %w", apierr.ErrReauthorizationRequired, apierr.ErrGrantRevoked, err)
		}
		s.fail(err)
	case errors.Is(err, apierr.ErrReauthorizationRequired):
		s.fail(err)
	case status == http.StatusUnauthorized:
		err = fmt.Errorf("%w: %w", apierr.ErrMCPUnauthorized, err)
		s.amu.Lock()
		s.refused, s.refusedErr = tok, err
		s.amu.Unlock()
	}
	return err
}

// networkError is the error for a request that failed on the way: a
// temporary failure, which for a call that changes something says that it
// may have run.
func (s *Session) networkError(err error, safe bool, tok string) error {
	msg := scrubbed(err.Error(), s.scrub(tok))
	if safe {
		return fmt.Errorf("%w: %s", apierr.ErrTemporary, msg)
	}
	return fmt.Errorf("%w: the call may have run on the server and was not sent again: %s", apierr.ErrTemporary, msg)
}
