package partnertest

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"time"
)

// Lifetimes of the tokens the Server issues, as in the spec. They are
// measured on the server's clock (see Server.Now).
const (
	AccessTokenLifetime       = 1800 * time.Second
	InstallationTokenLifetime = time.Hour
)

// Default client credentials, accepted unless WithClientCredentials says
// otherwise.
const (
	DefaultClientID     = "test-client"
	DefaultClientSecret = "test-secret"
)

// A Server is a fake of the whole service: a resource API at URL (the
// spec's {base_url}) and a token endpoint at AuthURL ({auth_url}), each on
// its own listener, so a client that mixes them up fails.
//
// A Server is safe for concurrent use. Its helper methods panic when given
// an id the server does not know, as that is a mistake in the test.
type Server struct {
	// URL is the base URL of the resource API, such as
	// "http://127.0.0.1:41231", without a trailing slash.
	URL string
	// AuthURL is the base URL of the server holding the token endpoint
	// (/api/auth/mcp/token), without a trailing slash.
	AuthURL string

	clientID     string
	clientSecret string
	clock        func() time.Time
	offset       atomic.Int64 // nanoseconds added to clock by Advance
	logLimit     int

	api, auth *httptest.Server
	client    *http.Client
	delivery  *http.Client
	done      chan struct{} // closed by Close; releases delayed and hung requests
	closeOnce sync.Once

	mu    sync.Mutex
	state // guarded by mu
}

// An Option configures a Server.
type Option func(*config)

type config struct {
	clientID, clientSecret string
	clock                  func() time.Time
	inMemory               bool
	logLimit               int
}

// WithClientCredentials sets the client id and secret the token endpoint
// accepts, instead of DefaultClientID and DefaultClientSecret.
func WithClientCredentials(id, secret string) Option {
	return func(c *config) { c.clientID, c.clientSecret = id, secret }
}

// WithClock sets the clock the server reads, instead of time.Now. Advance
// adds to whatever it returns.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// WithInMemoryNetwork makes the server listen on in-memory connections
// instead of loopback sockets. Only the client returned by Server.Client can
// reach it; URL and AuthURL look like loopback addresses but no socket
// listens there: any other client fails with "connection refused" to
// 127.0.0.1:1 or 127.0.0.1:2. With the SDK, set partner.Config.HTTPClient
// (or PoolConfig.HTTPClient) to srv.Client().
//
// Use it inside a testing/synctest bubble: a goroutine waiting on a real
// socket is not durably blocked, so a bubble holding a loopback server
// never advances its fake time, while in-memory connections let it.
func WithInMemoryNetwork() Option {
	return func(c *config) { c.inMemory = true }
}

// WithRequestLogLimit sets how many requests the log keeps (see
// Server.Requests); older ones are dropped first. The default is 100,000;
// n <= 0 keeps none.
func WithRequestLogLimit(n int) Option {
	return func(c *config) { c.logLimit = max(n, 0) }
}

// NewServer starts and returns a Server. The caller should call Close when
// finished, to shut it down.
func NewServer(opts ...Option) *Server {
	cfg := config{
		clientID:     DefaultClientID,
		clientSecret: DefaultClientSecret,
		clock:        time.Now,
		logLimit:     100_000,
	}
	for _, o := range opts {
		o(&cfg)
	}
	s := &Server{
		clientID:     cfg.clientID,
		clientSecret: cfg.clientSecret,
		clock:        cfg.clock,
		logLimit:     cfg.logLimit,
		done:         make(chan struct{}),
		state:        newState(),
	}

	tr := &http.Transport{
		MaxIdleConns:        1000,
		MaxIdleConnsPerHost: 1000,
		IdleConnTimeout:     90 * time.Second,
	}
	if cfg.inMemory {
		apiL := newMemListener("127.0.0.1:1")
		authL := newMemListener("127.0.0.1:2")
		s.api = startServer(s.handler(HostAPI), apiL)
		s.auth = startServer(s.handler(HostAuth), authL)
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			switch addr {
			case apiL.addr.String():
				return apiL.dial(ctx)
			case authL.addr.String():
				return authL.dial(ctx)
			}
			return nil, &net.OpError{Op: "dial", Net: network, Err: errNoMemServer}
		}
	} else {
		s.api = httptest.NewServer(s.handler(HostAPI))
		s.auth = httptest.NewServer(s.handler(HostAuth))
	}
	s.URL, s.AuthURL = s.api.URL, s.auth.URL
	s.client = &http.Client{Transport: tr}
	s.delivery = &http.Client{
		Transport: &http.Transport{IdleConnTimeout: 90 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return s
}

func startServer(h http.Handler, l net.Listener) *httptest.Server {
	ts := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	ts.Start()
	return ts
}

// Close shuts both servers down. Requests held by a Delay or Hang fault are
// released first; Close then waits for all requests to finish. Close may be
// called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.api.Close()
		s.auth.Close()
		s.client.CloseIdleConnections()
		s.delivery.CloseIdleConnections()
	})
}

// Client returns an HTTP client that reaches both of the server's
// listeners. It is the only client that works with WithInMemoryNetwork; any
// client works otherwise. Close closes its idle connections.
func (s *Server) Client() *http.Client { return s.client }

// ClientID returns the client id the token endpoint accepts.
func (s *Server) ClientID() string { return s.clientID }

// ClientSecret returns the client secret the token endpoint accepts.
func (s *Server) ClientSecret() string { return s.clientSecret }

// Now returns the server's current time: its clock (time.Now unless
// WithClock says otherwise) plus everything passed to Advance. Token expiry,
// the request log and webhook signatures all use it.
//
// There are two ways to expire tokens in a test without waiting. Call
// Advance, which moves only the server's clock; a client then holds a
// token it believes is fresh and the server refuses it. Or run the test in
// a testing/synctest bubble with WithInMemoryNetwork: time.Now is fake
// there, so time.Sleep moves the client's and the server's clocks together.
func (s *Server) Now() time.Time {
	return s.clock().Add(time.Duration(s.offset.Load()))
}

// Advance moves the server's clock forward by d. It panics if d is
// negative.
func (s *Server) Advance(d time.Duration) {
	if d < 0 {
		panic("partnertest: Advance with a negative duration")
	}
	s.offset.Add(int64(d))
}
