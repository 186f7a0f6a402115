package partner

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// DefaultMaxClients is how many grants' clients a Pool keeps by default.
const DefaultMaxClients = 10_000

// PoolConfig configures a Pool: the settings of Config that every grant
// shares. Store is required, since the pool builds each grant's client
// from the token stored for it. Its String, GoString and LogValue never
// show a secret.
type PoolConfig struct {
	BaseURL, AuthURL       string
	ClientID, ClientSecret string
	// Store holds every grant's token; see auth.Store for the contract.
	Store auth.Store
	// HTTPClient is shared by every grant: one connection pool.
	HTTPClient        *http.Client
	Logger            *slog.Logger
	UserAgent         string
	AllowInsecureHTTP bool

	InstallationTokenMargin time.Duration
	RefreshTimeout          time.Duration
	RetryMax                int
	RetryAfterMax           time.Duration
	MaxResponseBytes        int64

	// MaxClients is how many grants' clients the pool keeps in memory
	// (default DefaultMaxClients). Past that the least recently used is
	// dropped, and rebuilt from the Store when next asked for.
	MaxClients int
}

// Pool gives the Client of any grant of a partner application connected to
// many users. Every client shares one HTTP client (one connection pool) and
// one token refresher; each grant costs about a kilobyte while idle. A Pool
// is safe for concurrent use.
//
// A grant whose tokens failed for good (ErrReauthorizationRequired) stays
// refused, without a request to the service, until the Store holds a new
// token for it: save the token of the new code exchange and the next
// Client call picks it up.
//
// Keep MaxClients above the number of grants in use at once: a client that
// was evicted (or forgotten) while a caller still holds it keeps working,
// but its token cache is no longer the one Pool.Client returns, so the
// grant may be refreshed by both.
type Pool struct {
	sh    *shared
	store auth.Store
	max   int

	mu     sync.Mutex
	lru    list.List // of *Client, most recently used first
	byID   map[string]*list.Element
	failed map[string]failedGrant // evicted grants stuck on a final error
}

// failedGrant remembers why an evicted grant was refused, so that its
// rebuild does not ask the service again with the same refresh token.
type failedGrant struct {
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
	max := cfg.MaxClients
	if max <= 0 {
		max = DefaultMaxClients
	}
	return &Pool{sh: sh, store: cfg.Store, max: max,
		byID: make(map[string]*list.Element), failed: make(map[string]failedGrant)}, nil
}

// Client returns the client of grantID, building it on first use; its
// token is loaded from the Store by its first request. Concurrent first
// uses of one grant build it once. For a grant stuck on a final error it
// returns that error, unless the Store now holds a new token.
func (p *Pool) Client(ctx context.Context, grantID string) (*Client, error) {
	if _, err := transport.PathParam("grantID", grantID); err != nil {
		return nil, err
	}
	p.mu.Lock()
	if el, ok := p.byID[grantID]; ok {
		p.lru.MoveToFront(el)
		c := el.Value.(*Client)
		p.mu.Unlock()
		return p.revive(ctx, c)
	}
	f, failed := p.failed[grantID]
	var c *Client
	if failed {
		// Rebuilt stuck, holding the refresh token that failed, so that
		// nothing sends it again and revive can tell a new one apart.
		var tok *oauth2.Token
		if f.refreshToken != "" {
			tok = &oauth2.Token{RefreshToken: f.refreshToken}
		}
		c = p.sh.client(grantID, tok)
		c.access.Fail(f.err, c.access.Generation())
	} else {
		c = p.sh.client(grantID, nil)
	}
	p.byID[grantID] = p.lru.PushFront(c)
	for p.lru.Len() > p.max {
		p.evict(p.lru.Back())
	}
	p.mu.Unlock()
	return p.revive(ctx, c)
}

// revive returns c, unless it is stuck on a final error: then it gives c
// the Store's token if that is not the refresh token that failed (which c
// still holds), or returns the error without calling the service.
func (p *Pool) revive(ctx context.Context, c *Client) (*Client, error) {
	err := c.finalErr()
	if err == nil {
		return c, nil
	}
	failedRT := c.access.RefreshToken()
	tok, lerr := p.store.Load(ctx, c.grantID)
	switch {
	case lerr != nil && !errors.Is(lerr, auth.ErrNoToken):
		return nil, fmt.Errorf("partner: loading the token of grant %s: %w", c.grantID, lerr)
	case lerr != nil || tok.RefreshToken == "" || tok.RefreshToken == failedRT:
		return nil, err
	}
	c.SetToken(tok)
	p.mu.Lock()
	delete(p.failed, c.grantID)
	p.mu.Unlock()
	return c, nil
}

// evict drops el; a grant stuck on a final error is remembered. p.mu is
// held.
func (p *Pool) evict(el *list.Element) {
	c := p.lru.Remove(el).(*Client)
	delete(p.byID, c.grantID)
	if err := c.finalErr(); err != nil {
		p.failed[c.grantID] = failedGrant{refreshToken: c.access.RefreshToken(), err: err}
	}
}

// Forget drops grantID from the pool, for example after the user
// disconnected the application. It does not touch the Store.
func (p *Pool) Forget(grantID string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if el, ok := p.byID[grantID]; ok {
		p.lru.Remove(el)
		delete(p.byID, grantID)
	}
	delete(p.failed, grantID)
}

// Len returns how many grants' clients the pool holds.
func (p *Pool) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lru.Len()
}

// finalErr returns the error c is stuck on, or nil.
func (c *Client) finalErr() error {
	if err := c.access.Err(); err != nil {
		return err
	}
	return c.install.Err()
}
