package partner

import (
	"cmp"
	"container/list"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/tokens"
)

// DefaultMaxClients is how many grants' clients a Pool keeps by default.
const DefaultMaxClients = 10_000

// PoolConfig configures a Pool: the settings every grant's client shares.
// Config has the same fields for a single Client, documented here. BaseURL,
// AuthURL, ClientID, ClientSecret and Store are required. Its String,
// GoString and LogValue never show a secret.
type PoolConfig struct {
	// BaseURL is the resource API's base address, for example
	// "https://api.example.com". Every URL must be https://, or http://
	// to a loopback host (see AllowInsecureHTTP).
	BaseURL string
	// AuthURL is the base address of the token endpoint and the consent
	// page, for example "https://auth.example.com".
	AuthURL string
	// MCPURL is the address of the service's translation tools (an MCP
	// server), needed only by Keys, Translations and Tools. The
	// installation token goes to its host as to BaseURL's, and nowhere
	// else.
	MCPURL string
	// ContentMCPURL is the address of the service's content tools (an MCP
	// server), needed only by Content and by Tools with ContentTools. The
	// installation token goes to its host too.
	ContentMCPURL string
	// ClientID and ClientSecret are the partner application's
	// credentials.
	ClientID     string
	ClientSecret string
	// Store keeps every grant's token; every refreshed token is saved to
	// it before use. See auth.Store for the contract. A Pool builds each
	// grant's client from the token stored for it.
	Store auth.Store
	// HTTPClient sends every request of every grant (one connection
	// pool). It is copied, never modified. Nil uses a clone of
	// http.DefaultTransport that waits at most 30 s for an answer's
	// headers, shared by nothing else.
	HTTPClient *http.Client
	// Logger receives debug lines (each retry, each refresh and mint, with
	// the grant id) and one warning per grant that fails for good (grant
	// id and error code); nil is silent. Nothing is logged at error level:
	// a failure the retries did not fix is the returned error. Nothing
	// logged holds a token, a secret or a URL's query.
	Logger *slog.Logger
	// Hooks are told of every call and its attempts, each token refresh,
	// mint, wait and lease, and each pacing wait, for metrics and traces
	// (package github.com/locsvc/partner-go/otel adapts them to
	// OpenTelemetry). Nil is off and costs nothing.
	Hooks     *hooks.Hooks
	UserAgent string // appended to "partner-go/<version>"
	// AllowInsecureHTTP permits http:// URLs to hosts other than loopback.
	// Tokens would cross the network in clear text: only for test rigs.
	AllowInsecureHTTP       bool
	InstallationTokenMargin time.Duration // how long before expiry an installation token is replaced (default 5 minutes)
	RefreshTimeout          time.Duration // bounds one token refresh or mint, retries included (default 30 s)
	// RetryMax is how many times a failed request may be retried (default
	// 3; negative: never). RetryAfterMax caps how long the SDK waits for a
	// Retry-After (default 30 s); a longer one is returned as the error.
	RetryMax         int
	RetryAfterMax    time.Duration
	MaxResponseBytes int64 // caps a response body (default 8 MiB)
	// Pacing spaces each grant's requests under the service's rate limit
	// (default: DefaultPacingPerMinute with a burst of DefaultPacingBurst).
	Pacing Pacing
	// LocalRefreshOnStoreError matters only with a Store shared by
	// replicas (an auth.Leaser). When the Store cannot be reached and the
	// access token is due, a call fails (ErrTemporary) by default; with
	// this set, the client refreshes with the refresh token in its memory
	// and saves the result once the Store is back. Unsafe when the
	// service rotates refresh tokens: another replica may refresh with
	// the same one, and the service may then revoke the grant.
	LocalRefreshOnStoreError bool

	// RedirectURL is the application's callback, registered with the
	// service: the redirect_uri of AuthCodeURL and Exchange.
	RedirectURL string
	// Scopes are the scopes AuthCodeURL asks for, e.g. ScopeOrgRead,
	// ScopeKeysWrite; ScopeOfflineAccess is always added, and none asks for
	// the service's defaults.
	Scopes []string
	// AuthorizePath and TokenPath are the consent page's and the token
	// endpoint's paths under AuthURL (default /api/auth/mcp/authorize and
	// /api/auth/mcp/token): a service that moves them, for example to
	// /oauth2/authorize and /oauth2/token, needs only these set. A 404
	// from the token endpoint is ErrConfiguration naming TokenPath.
	AuthorizePath, TokenPath string

	// MaxClients is how many grants' clients the pool keeps in memory
	// (default DefaultMaxClients). Past that the least recently used is
	// dropped, and rebuilt from the Store when next asked for. What the
	// pool holds follows MaxClients (and the clients callers still hold),
	// not how many grants it ever served; see Pool for the failed grants
	// it remembers.
	MaxClients int
}

// Pool gives the Client of any grant of a partner application connected to
// many users. Every client shares one HTTP client (one connection pool) and
// one token refresher; each grant costs about 1.4 KiB while idle. A Pool
// is safe for concurrent use.
//
// A grant whose tokens failed for good (ErrReauthorizationRequired) stays
// refused, without a request to the service, until the Store holds a new
// token for it: save the token of the new code exchange, and the next call
// of the grant's client (one held from before included) picks it up. Once
// such a grant's client is evicted, the pool remembers the failure for as
// many grants as MaxClients, the most recently evicted; a grant forgotten
// past that, asked for again, costs one refresh that the service refuses
// before it is refused without requests again.
//
// A client that was evicted (or forgotten) while a caller still holds it
// keeps working, and shares its grant's access token with the client
// Pool.Client returns next: one refresh in flight per grant within a Pool
// whatever holds it, so no refresh token is sent twice (a service that
// rotates refresh tokens revokes a grant whose old one comes back). The
// two mint installation tokens on their own: keep MaxClients above the
// number of grants in use at once. Across processes, see the README's
// "Running many replicas". Eviction lets go of the client's MCP
// connection once its calls in flight end; a tool call on it after that
// connects again, and that connection is the holder's to Close.
type Pool struct {
	sh      *shared
	consent oauth2.Config // AuthCodeURL and Exchange
	store   auth.Store
	max     int

	mu     sync.Mutex
	closed bool
	lru    list.List // of *Client, most recently used first
	byID   map[string]*list.Element
	failed list.List // of failedGrant, most recent first; at most max
	fByID  map[string]*list.Element
}

// failedGrant remembers why an evicted grant was refused, so that its
// rebuild does not ask the service again with the same refresh token.
type failedGrant struct {
	grantID      string
	refreshToken string
	err          error
}

// NewPool checks cfg and returns a Pool. It sends no request.
func NewPool(cfg PoolConfig) (*Pool, error) {
	if cfg.Store == nil {
		return nil, apierr.ArgumentError("PoolConfig.Store", "is required: the pool builds each grant's client from its stored token")
	}
	sh, err := cfg.build("PoolConfig")
	if err != nil {
		return nil, err
	}
	if cfg.RedirectURL != "" {
		u, err := url.Parse(cfg.RedirectURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.Fragment != "" {
			return nil, apierr.ArgumentError("PoolConfig.RedirectURL", "must be an absolute http(s) URL without a fragment, as registered with the service")
		}
	}
	authorize := cmp.Or(cfg.AuthorizePath, tokens.AuthorizePath)
	if err := checkPath("PoolConfig.AuthorizePath", authorize); err != nil {
		return nil, err
	}
	return &Pool{sh: sh, store: cfg.Store, max: cmp.Or(max(cfg.MaxClients, 0), DefaultMaxClients), consent: sh.ref.Consent(authorize, cfg.RedirectURL, cfg.Scopes),
		byID: make(map[string]*list.Element), fByID: make(map[string]*list.Element)}, nil
}

// Client returns the client of grantID, building it on first use; its
// token is loaded from the Store by its first request. Concurrent first
// uses of one grant build it once. For a grant stuck on a final error it
// returns that error, unless the Store now holds a new token.
func (p *Pool) Client(ctx context.Context, grantID string) (*Client, error) {
	if _, err := pathParam("grantID", grantID); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	var c *Client
	var evicted []*Client
	if el, ok := p.byID[grantID]; ok {
		p.lru.MoveToFront(el)
		c = el.Value.(*Client)
	} else {
		// The grant's token source is the one a caller may still hold
		// (with a client evicted earlier): one refresh in flight per grant,
		// and no refresh token sent twice.
		access, made := p.sh.ref.Shared(grantID)
		c = p.sh.client(grantID, access)
		if f, ok := p.unfail(grantID); ok && made {
			// Rebuilt stuck, on the refresh token that failed, so that
			// nothing sends it again: the Store is read instead.
			access.Stuck(f.err, f.refreshToken)
		}
		p.byID[grantID] = p.lru.PushFront(c)
		for p.lru.Len() > p.max {
			evicted = append(evicted, p.evict(p.lru.Back()))
		}
	}
	p.mu.Unlock()
	for _, e := range evicted {
		e.drain()
	}
	if _, err := c.access.Check(ctx); err != nil {
		return nil, public(err)
	}
	return c, nil
}

// evict drops el and returns its client, whose MCP connection the caller
// drains once p.mu is released; a grant stuck on a final error is
// remembered, up to as many as the pool keeps clients (the oldest is
// forgotten past that). p.mu is held.
func (p *Pool) evict(el *list.Element) *Client {
	c := p.lru.Remove(el).(*Client)
	delete(p.byID, c.grantID)
	if rt, err := c.access.Final(); err != nil {
		p.fByID[c.grantID] = p.failed.PushFront(failedGrant{grantID: c.grantID, refreshToken: rt, err: err})
		for p.failed.Len() > p.max {
			delete(p.fByID, p.failed.Remove(p.failed.Back()).(failedGrant).grantID)
		}
	}
	return c
}

// unfail forgets that grantID failed and returns what was remembered.
// p.mu is held.
func (p *Pool) unfail(grantID string) (f failedGrant, ok bool) {
	if el, ok := p.fByID[grantID]; ok {
		delete(p.fByID, grantID)
		return p.failed.Remove(el).(failedGrant), true
	}
	return f, false
}

// Forget drops grantID from the pool, for example after the user
// disconnected the application, and lets go of its MCP connection (calls
// in flight finish). It does not touch the Store.
func (p *Pool) Forget(grantID string) {
	p.mu.Lock()
	var c *Client
	if el, ok := p.byID[grantID]; ok {
		c = p.lru.Remove(el).(*Client)
		delete(p.byID, grantID)
	}
	p.unfail(grantID)
	p.mu.Unlock()
	if c != nil {
		c.drain()
	}
}

// Close closes the MCP sessions of every client the pool holds and leaves
// no goroutine behind: it waits for the token refreshes and mints in
// flight, of evicted clients too (see Client.Close). Pool.Client returns
// ErrClosed after it. Clients taken from the pool before keep working for
// REST. It is safe to call more than once, and returns nil.
func (p *Pool) Close() error {
	p.mu.Lock()
	p.closed = true
	var cs []*Client
	for el := p.lru.Front(); el != nil; el = el.Next() {
		cs = append(cs, el.Value.(*Client))
	}
	p.lru.Init()
	clear(p.byID)
	p.mu.Unlock()
	for _, c := range cs {
		c.Close()
	}
	_ = p.sh.ref.Wait(context.Background()) // each ends within RefreshTimeout
	return nil
}

// Len returns how many grants' clients the pool holds.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lru.Len()
}

// String describes the pool by its size, without any token.
func (p *Pool) String() string {
	return fmt.Sprintf("partner.Pool{Clients: %d, MaxClients: %d}", p.Len(), p.max)
}

// Format prints String for every verb, so %+v and %#v show no token either.
func (p *Pool) Format(f fmt.State, _ rune) { fmt.Fprint(f, p.String()) }

// LogValue makes slog log the pool without any token.
func (p *Pool) LogValue() slog.Value { return slog.StringValue(p.String()) }
