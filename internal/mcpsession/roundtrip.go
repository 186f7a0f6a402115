package mcpsession

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// accept is what the servers require in Accept (mcp-tools.md section 2).
const accept = "application/json, text/event-stream"

// exchange is what the HTTP layer learns about one logical exchange (a
// tool call, a listing, the handshake); it travels in the request's
// context. Messages the go-sdk sends on the same context afterwards (a
// cancellation notice) find it sealed and leave it alone.
type exchange struct {
	retry bool // may be sent again after it may have run

	mu     sync.Mutex
	sealed bool
	sent   int    // attempts that left for the server
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

func (x *exchange) lastToken() string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.token
}

func (x *exchange) failed(err error) {
	x.mu.Lock()
	if !x.sealed {
		x.err = err
	}
	x.mu.Unlock()
}

// seal ends the recording and returns what was recorded.
func (x *exchange) seal() (sent int, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.sealed = true
	return x.sent, x.err
}

// roundTripper is the HTTP layer under the go-sdk. It sends each POST
// through the SDK's one request path (transport.Runner: retries, the
// token, the hosts rule, the 401 replay, typed errors), as a read-only
// call when the exchange may be sent again. Only a 2xx answer (read in
// full) reaches the go-sdk; every other answer becomes an error, which the
// go-sdk reports for the call without closing its connection.
type roundTripper struct {
	s        *Session
	runner   *transport.Runner
	endpoint *url.URL
}

// RoundTrip implements http.RoundTripper.
func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	if x == nil {
		x = &exchange{retry: true} // nothing the SDK sends without one changes anything
	}
	if req.Method != http.MethodPost {
		closeBody(req)
		return nil, fmt.Errorf("partner: the MCP servers are stateless: the SDK sends only POST, not %s", req.Method)
	}
	if !strings.EqualFold(req.URL.Scheme, t.endpoint.Scheme) || !strings.EqualFold(req.URL.Host, t.endpoint.Host) {
		closeBody(req)
		return nil, fmt.Errorf("partner: refusing to send the installation token to %s: it goes only to the configured MCP host", req.URL.Host)
	}
	body, err := readRequest(req)
	if err != nil {
		return nil, err
	}
	resp, err := t.runner.Send(req.Context(), transport.Request{
		Method: http.MethodPost, URL: req.URL, Auth: t.s.tokens, Payload: body,
		Accept: accept, Header: mcpHeaders(req.Header), Idempotent: x.retry, Sent: x.sending,
	})
	if err != nil {
		var ae *apierr.APIError
		if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "" {
			// The server forgot a session it gave out: the go-sdk turns
			// this into ErrSessionMissing, and the Session reconnects.
			return answer(req, http.StatusNotFound, nil, ae.Body), nil
		}
		if errors.As(err, &ae) && ae.StatusCode == http.StatusUnauthorized {
			// Refused after the request path's one replay with a new
			// token: the endpoint refuses installation tokens.
			err = t.s.tokens.refuse(x.lastToken(), err)
		}
		x.failed(err)
		return nil, err
	}
	return answer(req, resp.StatusCode, resp.Header, resp.Body), nil
}

// mcpHeaders returns the headers of the go-sdk's own that the request
// carries (Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID).
func mcpHeaders(h http.Header) http.Header {
	out := make(http.Header, 2)
	for k, v := range h {
		if strings.HasPrefix(k, "Mcp-") || k == "Last-Event-Id" {
			out[k] = v
		}
	}
	return out
}

// answer is the response the go-sdk reads: the body already read in full.
func answer(req *http.Request, status int, h http.Header, body []byte) *http.Response {
	if h == nil {
		h = make(http.Header)
	}
	return &http.Response{
		Status: fmt.Sprintf("%d %s", status, http.StatusText(status)), StatusCode: status,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, Header: h,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
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

// budget is the grant's token source as MCP requests see it: a 401 from
// an MCP endpoint re-mints at most once per installation token. When the
// token that replaced a refused one is refused too, it is remembered:
// MCP calls fail at once with ErrMCPUnauthorized (no further mint) until
// the grant's token changes for another reason, while REST keeps using it.
type budget struct {
	transport.TokenSource

	mu         sync.Mutex
	refused    string
	refusedErr error
}

// Token returns the grant's installation token, or the error of a token
// the endpoint refused.
func (b *budget) Token(ctx context.Context) (string, error) {
	tok, err := b.TokenSource.Token(ctx)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if tok == b.refused {
		return "", b.refusedErr
	}
	return tok, nil
}

// refuse remembers tok, refused after a re-mint, and returns the error for
// it: ErrMCPUnauthorized with the answer. The grant is not gone.
func (b *budget) refuse(tok string, err error) error {
	err = apierr.Classify(apierr.ErrMCPUnauthorized, err,
		"the MCP endpoint refused the installation token; the grant is not gone and REST still works")
	b.mu.Lock()
	defer b.mu.Unlock()
	if tok != "" {
		b.refused, b.refusedErr = tok, err
	}
	return err
}
