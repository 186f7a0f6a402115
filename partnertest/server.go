package partnertest

import (
	"cmp"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
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
	// "http://127.0.0.1:41231" (with WithInMemoryNetwork,
	// "https://api.in-memory.partnertest.invalid"), without a trailing
	// slash.
	URL string
	// AuthURL is the base URL of the server holding the token endpoint
	// (/api/auth/mcp/token), without a trailing slash.
	AuthURL string
	// MCPURL is the translation tools' endpoint, the spec's {mcp_url}:
	// the path MCPPath on its own host. Give it to partner.Config.MCPURL.
	MCPURL string
	// ContentMCPURL is the content tools' endpoint, the spec's
	// {content_mcp_url}: the path MCPPath on a host of its own, apart
	// from MCPURL's. Give it to partner.Config.ContentMCPURL.
	ContentMCPURL string
	// CDNURL is the public CDN's origin, the service's {cdn_url}: what
	// publishing shipped, without a token, on a host of its own (see
	// HostCDN). getProject names its URLs.
	CDNURL string

	clientID      string
	clientSecret  string
	clock         func() time.Time
	offset        atomic.Int64 // nanoseconds added to clock by Advance
	logLimit      int
	rateLimit     int           // requests per minute per installation token; 0: none
	rotation      bool          // WithRefreshRotation
	pkceRequired  bool          // WithPKCERequired
	authorizePath string        // WithAuthPaths
	tokenPath     string        // WithAuthPaths
	accessLife    time.Duration // WithTokenLifetimes
	installLife   time.Duration // WithTokenLifetimes

	api, auth    *httptest.Server
	cdn          *httptest.Server
	mcp, content *mcpListener // the translation and content tools' listeners
	tlsConf      *tls.Config  // with WithInMemoryNetwork; nil otherwise
	netMu        sync.Mutex
	listeners    map[string]*memListener // in-memory listeners by host:port; guarded by netMu
	apps         []*httptest.Server      // StartApp's; guarded by netMu
	appSeq       int                     // guarded by netMu
	client       *http.Client
	delivery     *http.Client
	done         chan struct{} // closed by Close; releases delayed and hung requests
	closeOnce    sync.Once

	mu    sync.Mutex
	state // guarded by mu
}

// An Option configures a Server.
type Option func(*config)

type config struct {
	clientID, clientSecret   string
	clock                    func() time.Time
	inMemory                 bool
	logLimit                 int
	rateLimit                int
	redirectURLs             []string
	rotation, pkce           bool
	accessLife, installLife  time.Duration
	authorizePath, tokenPath string
	listener                 net.Listener
}

// WithClientCredentials sets the client id and secret the token endpoint
// accepts, instead of DefaultClientID and DefaultClientSecret.
func WithClientCredentials(id, secret string) Option {
	return func(c *config) { c.clientID, c.clientSecret = id, secret }
}

// WithTokenLifetimes sets how long the access and installation tokens the
// server issues live, instead of AccessTokenLifetime and
// InstallationTokenLifetime: seconds, say, for a test on real time that
// needs many refreshes. A lifetime <= 0 keeps the default.
func WithTokenLifetimes(access, installation time.Duration) Option {
	return func(c *config) { c.accessLife, c.installLife = access, installation }
}

// WithClock sets the clock the server reads, instead of time.Now. Advance
// adds to whatever it returns.
func WithClock(now func() time.Time) Option {
	return func(c *config) { c.clock = now }
}

// WithInMemoryNetwork makes the server listen on in-memory connections
// instead of loopback sockets, and speak HTTPS over them with a
// certificate only Server.Client trusts. URL and AuthURL are then
// https://api.in-memory.partnertest.invalid and
// https://auth.in-memory.partnertest.invalid: names under the .invalid
// top-level domain, which no resolver knows (RFC 6761). Only the client
// returned by Server.Client can dial them; with any other client every
// request fails at once with an error such as
//
//	dial tcp: lookup api.in-memory.partnertest.invalid: no such host
//
// The fix is to use srv.Client(): with the SDK, set
// partner.Config.HTTPClient (or PoolConfig.HTTPClient) to it.
//
// Use it inside a testing/synctest bubble: a goroutine waiting on a real
// socket is not durably blocked, so a bubble holding a loopback server
// never advances its fake time (time.Sleep would hang), while in-memory
// connections let it. NewServer panics when it is called inside a bubble
// without WithInMemoryNetwork, rather than let the test hang.
func WithInMemoryNetwork() Option {
	return func(c *config) { c.inMemory = true }
}

// WithRateLimit caps the requests each installation token may make in a
// minute, as the service does (its default cap is 1,000): REST and MCP
// requests alike, in one count per token. Minutes are
// fixed 60 s windows on the server's clock (Server.Now), starting on whole
// minutes. A request over the cap is answered 429 rate_limited, with
// Retry-After set to the whole seconds until the window ends. n <= 0, the
// default, sets no cap.
func WithRateLimit(n int) Option {
	return func(c *config) { c.rateLimit = max(n, 0) }
}

// WithListener serves the resource API (Server.URL) on l instead of a
// new loopback listener, as a standalone fake on a chosen address does;
// the other listeners take free ports on l's host. Close closes l. It
// is ignored with WithInMemoryNetwork.
func WithListener(l net.Listener) Option {
	return func(c *config) { c.listener = l }
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
		accessLife:   AccessTokenLifetime,
		installLife:  InstallationTokenLifetime,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if !cfg.inMemory && inSynctestBubble() {
		panic("partnertest: NewServer inside a testing/synctest bubble needs WithInMemoryNetwork(): " +
			"a server on loopback sockets keeps the bubble's fake clock from advancing, so the test would hang")
	}
	s := &Server{
		clientID:      cfg.clientID,
		clientSecret:  cfg.clientSecret,
		clock:         cfg.clock,
		logLimit:      cfg.logLimit,
		rateLimit:     cfg.rateLimit,
		rotation:      cfg.rotation,
		pkceRequired:  cfg.pkce,
		authorizePath: cmp.Or(cfg.authorizePath, AuthorizePath),
		tokenPath:     cmp.Or(cfg.tokenPath, TokenPath),
		accessLife:    cmp.Or(max(cfg.accessLife, 0), AccessTokenLifetime),
		installLife:   cmp.Or(max(cfg.installLife, 0), InstallationTokenLifetime),
		done:          make(chan struct{}),
		state:         newState(),
	}

	for _, u := range cfg.redirectURLs {
		s.AddRedirectURL(u)
	}
	s.mcp = s.newMCPListener(HostMCP, "partnertest-translations",
		"partnertest: a fake of the localization service's translation tools.", toolDefs())
	s.content = s.newMCPListener(HostContentMCP, "partnertest-content",
		"partnertest: a fake of the localization service's content CMS tools.", contentToolDefs())
	tr := &http.Transport{
		MaxIdleConns:        1000,
		MaxIdleConnsPerHost: 1000,
		IdleConnTimeout:     90 * time.Second,
	}
	if cfg.inMemory {
		cert, pool := memCert(memHostAPI, memHostAuth, memHostMCP, memHostContent, "*."+memDomain)
		s.tlsConf = &tls.Config{Certificates: []tls.Certificate{cert}}
		s.listeners = map[string]*memListener{}
		s.api = s.startMem(memHostAPI, s.handler(HostAPI))
		s.auth = s.startMem(memHostAuth, s.handler(HostAuth))
		s.mcp.ts = s.startMem(memHostMCP, s.handler(HostMCP))
		s.content.ts = s.startMem(memHostContent, s.handler(HostContentMCP))
		s.cdn = s.startMem(memHostCDN, s.handler(HostCDN))
		s.URL, s.AuthURL, s.CDNURL = "https://"+memHostAPI, "https://"+memHostAuth, "https://"+memHostCDN
		s.mcp.origin, s.content.origin = "https://"+memHostMCP, "https://"+memHostContent
		tr.TLSClientConfig = &tls.Config{RootCAs: pool}
		tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			s.netMu.Lock()
			l := s.listeners[addr]
			s.netMu.Unlock()
			if l != nil {
				return l.dial(ctx)
			}
			return nil, &net.OpError{Op: "dial", Net: network, Err: errNoMemServer}
		}
	} else {
		start := httptest.NewServer
		if l := cfg.listener; l != nil {
			start = listenNear(l)
		}
		s.api = start(s.handler(HostAPI))
		s.auth = start(s.handler(HostAuth))
		s.mcp.ts = start(s.handler(HostMCP))
		s.content.ts = start(s.handler(HostContentMCP))
		s.cdn = start(s.handler(HostCDN))
		s.URL, s.AuthURL, s.CDNURL = s.api.URL, s.auth.URL, s.cdn.URL
		s.mcp.origin, s.content.origin = s.mcp.ts.URL, s.content.ts.URL
	}
	s.MCPURL, s.ContentMCPURL = s.mcp.url(), s.content.url()
	s.client = &http.Client{Transport: tr}
	s.delivery = &http.Client{
		Transport: &http.Transport{IdleConnTimeout: 90 * time.Second},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return s
}

// listenNear returns a function that starts a server on first, then
// each next one on a free port of first's host.
func listenNear(first net.Listener) func(http.Handler) *httptest.Server {
	host, _, _ := net.SplitHostPort(first.Addr().String())
	return func(h http.Handler) *httptest.Server {
		ts := httptest.NewUnstartedServer(h)
		ts.Listener.Close()
		if first != nil {
			ts.Listener, first = first, nil
		} else {
			l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
			if err != nil {
				panic("partnertest: listening next to WithListener's address: " + err.Error())
			}
			ts.Listener = l
		}
		ts.Start()
		return ts
	}
}

// Host names of the in-memory listeners (WithInMemoryNetwork).
const (
	memDomain   = "in-memory.partnertest.invalid"
	memHostAPI  = "api." + memDomain
	memHostAuth = "auth." + memDomain
	memHostMCP  = "mcp." + memDomain
	// memHostContent is the content tools' host.
	memHostContent = "content." + memDomain
	memHostCDN     = "cdn." + memDomain
)

// startMem starts h on a new in-memory listener at host:443.
func (s *Server) startMem(host string, h http.Handler) *httptest.Server {
	l := newMemListener(host + ":443")
	s.netMu.Lock()
	s.listeners[host+":443"] = l
	s.netMu.Unlock()
	ts := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}, TLS: s.tlsConf}
	ts.StartTLS()
	return ts
}

// StartApp starts h as a web application next to the fake, such as the
// callback behind a redirect URI, and returns its base URL, without a
// trailing slash. Server.Client reaches it, so a client following the
// authorize endpoint's redirect lands there. On loopback it is an
// httptest server; with WithInMemoryNetwork it is
// https://app-N.in-memory.partnertest.invalid, on the in-memory network
// (usable inside a testing/synctest bubble, and only with Server.Client).
// Close stops it, before the fake's own listeners; start it before Close.
func (s *Server) StartApp(h http.Handler) string {
	var ts *httptest.Server
	if s.tlsConf != nil {
		s.netMu.Lock()
		s.appSeq++
		host := "app-" + strconv.Itoa(s.appSeq) + "." + memDomain
		s.netMu.Unlock()
		ts = s.startMem(host, h)
		ts.URL = "https://" + host
	} else {
		ts = httptest.NewServer(h)
	}
	s.netMu.Lock()
	s.apps = append(s.apps, ts)
	s.netMu.Unlock()
	return ts.URL
}

// inSynctestBubble reports whether the caller runs in a testing/synctest
// bubble, whose fake clock starts at midnight UTC on 2000-01-01: no real
// clock reads a time before 2001.
func inSynctestBubble() bool {
	return time.Now().Before(time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC))
}

// Close shuts the servers down, StartApp's first. Requests held by a
// Delay or Hang fault are released first; Close then waits for all
// requests to finish. Close may be called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.done)
		s.netMu.Lock()
		apps := s.apps
		s.netMu.Unlock()
		for _, a := range apps {
			a.Close() // first: an application may call the fake while it ends
		}
		s.api.Close()
		s.auth.Close()
		s.mcp.ts.Close()
		s.content.ts.Close()
		s.cdn.Close()
		s.client.CloseIdleConnections()
		s.delivery.CloseIdleConnections()
	})
}

// Client returns an HTTP client that reaches all of the server's
// listeners. It is the only client that works with WithInMemoryNetwork
// (any other fails at once with "no such host"; see there); any client
// works otherwise. Close closes its idle connections.
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
	s.mu.Lock()
	s.settleLocked(s.Now())
	s.mu.Unlock()
	s.fire(nil)
}
