package partner

import (
	"fmt"
	"net/http"

	"github.com/locsvc/partner-go/internal/transport"
)

// HTTPClient returns an *http.Client authorised as the grant, for the
// service's REST endpoints the SDK does not wrap yet. Every request
// carries the grant's current installation token, from the same cache as
// the client's own calls (no second token is minted), and only to the
// hosts of BaseURL, MCPURL and ContentMCPURL: a request (or a redirect) to
// any other host fails without being sent.
//
// Answers come back as net/http returns them: a 404 or a 500 is a
// response, not an error. Two answers are acted on first, by the rules
// every call of the client follows. A 401 drops the refused installation
// token, mints a new one and sends the request again once with it; when
// the endpoint refuses the new token too, its next 401s cost no further
// mint until it answers something else. A 410 meaning the grant is gone
// (grant_revoked) makes the grant final, so that every later call of the
// client returns ErrReauthorizationRequired without a request. The
// installation token is the wrong token for GET /api/oauth-client/me: use
// Client.Me.
//
// A request's body is read into memory before it is sent, so that it can
// be sent again after a 401. Requests are sent once, without the SDK's
// retries, through Config.HTTPClient's transport. Each call returns a new
// *http.Client sharing the grant's transport and connection pool; set its
// Timeout as you need.
func (c *Client) HTTPClient() *http.Client {
	return &http.Client{Transport: grantTransport{c}}
}

// grantTransport is HTTPClient's RoundTripper: a Raw request of the one
// request path.
type grantTransport struct{ c *Client }

// RoundTrip implements http.RoundTripper.
func (t grantTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := transport.ReadRequest(req)
	if err != nil {
		return nil, fmt.Errorf("partner: HTTPClient: reading the request body: %w", err)
	}
	if req.URL == nil {
		return nil, fmt.Errorf("partner: HTTPClient: %w: the request has no URL", ErrInvalidArgument)
	}
	resp, err := t.c.sh.runner.Send(req.Context(), transport.Request{Kind: transport.Raw, Method: req.Method,
		URL: req.URL, Header: req.Header, Payload: body, Auth: t.c.install, Op: "Client.HTTPClient"})
	if err != nil {
		return nil, public(err)
	}
	return resp.HTTP, nil
}
