package partner

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// HTTPClient returns an *http.Client authorised as the grant, for the
// service's REST endpoints the SDK does not wrap yet. Every request
// carries the grant's current installation token, from the same cache as
// the client's own calls (no second token is minted), and only to the
// hosts of BaseURL and MCPURL: a request (or a redirect) to any other host
// fails without being sent.
//
// Answers come back as net/http returns them: a 404 or a 500 is a
// response, not an error. Two answers are acted on first. A 401 drops
// the refused installation token, mints a new one and sends the request
// again once with it when its body can be replayed (http.NewRequest's
// bodies can, see http.Request.GetBody); otherwise the 401 is returned
// and the next request carries a new token. When the new token is refused
// too (an endpoint that refuses installation tokens), no further token is
// minted for 401s until an answer other than 401 comes back. A 410 meaning the grant is
// gone (grant_revoked) makes the grant final, so that every later call of
// the client returns ErrReauthorizationRequired without a request. The
// installation token is the wrong token for GET /api/oauth-client/me: use
// Client.Me.
//
// Each call returns a new *http.Client sharing the grant's transport and
// connection pool; set its Timeout as you need. It sends requests through
// Config.HTTPClient's transport, without the SDK's retries.
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{Transport: grantTransport{c}}
}

// grantTransport is HTTPClient's RoundTripper.
type grantTransport struct{ c *Client }

// maxGoneBody is how much of a 410's body is read to find its code; a
// longer body is not judged.
const maxGoneBody = 4 << 10

// RoundTrip implements http.RoundTripper.
func (t grantTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := t.c
	if req.URL == nil || !slices.Contains(c.sh.origins, origin(req.URL)) {
		if req.Body != nil {
			req.Body.Close()
		}
		host := "(no URL)"
		if req.URL != nil {
			host = req.URL.Host
		}
		return nil, fmt.Errorf("partner: HTTPClient: %w: refusing to send the grant's token to %s; it goes only to the hosts of %s.BaseURL and %s.MCPURL",
			ErrInvalidArgument, apierr.Quote(host), c.sh.name, c.sh.name)
	}
	resp, tok, gen, err := t.send(req, req.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode == http.StatusUnauthorized && c.refusedByHTTP(tok) {
		// The token is refused: the next request carries a new one, even
		// when this one cannot be sent again.
		c.install.Invalidate(tok)
		if body, ok := replayBody(req); ok {
			io.Copy(io.Discard, io.LimitReader(resp.Body, maxGoneBody))
			resp.Body.Close()
			if resp, tok, gen, err = t.send(req, body); err != nil {
				return nil, err
			}
			if resp.StatusCode == http.StatusUnauthorized {
				c.refusedByHTTP(tok) // the new token is refused too: spent
			}
		}
	}
	if resp.StatusCode != http.StatusUnauthorized {
		c.acceptedByHTTP()
	}
	if resp.StatusCode == http.StatusGone {
		t.gone(req, resp, gen)
	}
	return resp, nil
}

// replayBody returns a new copy of req's body, to send req again, and
// whether there is one: a body without GetBody cannot be replayed.
func replayBody(req *http.Request) (io.ReadCloser, bool) {
	switch {
	case req.Body == nil || req.Body == http.NoBody:
		return req.Body, true
	case req.GetBody == nil:
		return nil, false
	}
	body, err := req.GetBody()
	return body, err == nil
}

// send sends req with body and the grant's installation token.
func (t grantTransport) send(req *http.Request, body io.ReadCloser) (*http.Response, string, uint64, error) {
	ctx := req.Context()
	gen := t.c.install.Generation()
	tok, err := t.c.install.Token(ctx)
	if err != nil {
		if body != nil {
			body.Close()
		}
		return nil, "", 0, err
	}
	r := req.Clone(ctx)
	r.Body = body
	r.Header.Set("Authorization", "Bearer "+tok)
	if r.Header.Get("User-Agent") == "" {
		r.Header.Set("User-Agent", t.c.sh.runner.UserAgent())
	}
	resp, err := t.c.sh.runner.Base().RoundTrip(r)
	if err != nil {
		return nil, "", 0, fmt.Errorf("partner: %s %s: %w", req.Method, req.URL.Path, cleanErr(t.c, err))
	}
	return resp, tok, gen, nil
}

// gone reads the start of a 410's body, puts it back, and makes the grant
// final when the answer says the grant is gone.
func (t grantTransport) gone(req *http.Request, resp *http.Response, gen uint64) {
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxGoneBody+1))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	if err != nil || len(head) > maxGoneBody {
		// Unreadable, or too long to parse here: a cut JSON body would
		// look code-less, which the spec reads as a revocation. The
		// client's next call finds out for itself.
		return
	}
	gerr := apierr.FromResponse(req.Method, req.URL.Path, resp.StatusCode, head, 0, t.c.sh.runner.Secrets().Merge(t.c.install.Secrets()))
	if errors.Is(gerr, ErrReauthorizationRequired) {
		t.c.install.Fail(req.Context(), gerr, gen)
	}
}

// cleanErr is err with no secret of c in its text (a transport error may
// quote the request); its chain is kept for errors.Is and errors.As.
func cleanErr(c *Client, err error) error {
	s := c.sh.runner.Secrets().Merge(c.install.Secrets())
	return &transport.Cleaned{Text: s.String(err.Error()), Err: err}
}

// httpBudget is HTTPClient's mint budget: a 401 drops the installation
// token for a new one at most once per token, and when the token that
// replaced a refused one is refused too (an endpoint that refuses
// installation tokens), no further token is minted for HTTPClient's 401s
// until an answer other than 401 comes back.
type httpBudget struct {
	armed   atomic.Bool // a token was dropped: the answers that follow reset it
	mu      sync.Mutex
	dropped string // a token dropped after a 401, while no other answer came
	spent   bool   // the token after dropped was refused too
}

// refusedByHTTP reports whether tok, just refused with a 401, is to be
// dropped for a new one.
func (c *Client) refusedByHTTP(tok string) bool {
	b := &c.httpBudget
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.spent || tok == b.dropped:
		return false
	case b.dropped != "":
		b.spent = true // the replacement is refused too
		return false
	}
	b.dropped = tok
	b.armed.Store(true)
	return true
}

// acceptedByHTTP resets the budget after an answer other than 401; with
// nothing dropped, the usual case, it takes no lock.
func (c *Client) acceptedByHTTP() {
	b := &c.httpBudget
	if !b.armed.Load() {
		return
	}
	b.mu.Lock()
	b.dropped, b.spent = "", false
	b.armed.Store(false)
	b.mu.Unlock()
}
