package tokens

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/transport"
)

// Minted is what one mint of an installation token gave.
type Minted struct {
	Token  string
	Expiry time.Time
	Detail any           // whatever else the mint function read from the answer
	Life   time.Duration // the whole lifetime in whole seconds; 0: unknown
	stored bool          // taken from the Store, not minted here
}

// MintFunc mints a new installation token for the grant with its access
// token (POST /api/oauth-client/installations/{grant}/tokens).
type MintFunc func(ctx context.Context) (Minted, error)

// InstallationConfig configures an InstallationSource.
type InstallationConfig struct {
	// Mint mints the grant's installation token.
	Mint MintFunc
	// Access is the grant's access-token source: it holds the grant's
	// final state, and a new Generation makes a new mint.
	Access *AccessSource
	// Margin is how long before expiry the token is replaced; it defaults
	// to DefaultInstallationMargin. Timeout defaults to DefaultTimeout.
	Margin, Timeout time.Duration
	// Pace, when set, spaces the requests sent with the token: every
	// Token call (one per request) waits for it.
	Pace *rate.Limiter
	// PerMinute and Burst are Pace's rate, for a Store that is an
	// auth.RateLimiter: processes sharing it take turns from one limit per
	// installation token, and from Pace while it cannot be reached.
	PerMinute, Burst int
}

// InstallationSource gives the grant's installation token: minted when
// missing or within Margin of expiry, and cached.
type InstallationSource struct {
	cfg InstallationConfig

	mu      sync.Mutex
	cur     Minted
	gen     uint64        // the access Generation cur was minted under
	margin  time.Duration // how long before cur.Expiry it is replaced
	p       *pending[Minted]
	flights flights   // this grant's mints in flight
	pMint   bool      // p mints (Renew), rather than maybe taking a shared token
	bad     string    // a token the service refused, not to be taken from the cache again
	prev    [3]string // tokens cur replaced, newest last: still valid, to scrub

	refusals transport.Refusals // the 401 rule's memory for installation tokens
}

// Refusals is the 401 rule's memory for the grant's installation tokens.
func (s *InstallationSource) Refusals() *transport.Refusals { return &s.refusals }

// Reload is the access source's Reload.
func (s *InstallationSource) Reload(ctx context.Context, gen uint64) bool {
	return s.cfg.Access.Reload(ctx, gen)
}

// replaceLocked makes m the cached token and keeps the one it replaces
// among prev. s.mu is held.
func (s *InstallationSource) replaceLocked(m Minted) {
	if s.cur.Token != "" && s.cur.Token != m.Token {
		copy(s.prev[:], s.prev[1:])
		s.prev[len(s.prev)-1] = s.cur.Token
	}
	s.cur = m
}

// NewInstallationSource returns an InstallationSource for cfg.
func NewInstallationSource(cfg InstallationConfig) *InstallationSource {
	if cfg.Margin <= 0 {
		cfg.Margin = DefaultInstallationMargin
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	return &InstallationSource{cfg: cfg}
}

// Token returns a valid installation token for one request, minting one
// first if needed, and with Pace set waits for the request's turn.
func (s *InstallationSource) Token(ctx context.Context) (string, error) {
	m, err := s.get(ctx, false)
	if err != nil {
		return "", err
	}
	if s.cfg.Pace == nil {
		return m.Token, nil
	}
	if l, ok := s.cfg.Access.r.cfg.Store.(auth.RateLimiter); ok {
		// The service caps each installation token: its limit is named
		// without revealing it.
		h := sha256.Sum256([]byte(m.Token))
		start := s.cfg.Access.r.now()
		err := l.TakeTurn(ctx, "pace:"+hex.EncodeToString(h[:16]), s.cfg.PerMinute, s.cfg.Burst)
		switch {
		case err == nil:
			s.cfg.Access.r.paced(ctx, start, true)
			return m.Token, nil
		case ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled):
			return "", fmt.Errorf("partner: waiting for the grant's turn under Pacing: %w", err)
		}
		s.cfg.Access.debug(ctx, "partner: pacing in this process: the shared limit could not be reached", slog.String("error", err.Error()))
	}
	start := s.cfg.Access.r.now()
	if err := s.cfg.Pace.Wait(ctx); err != nil {
		if ctx.Err() != nil {
			err = context.Cause(ctx)
		} else {
			err = context.DeadlineExceeded // rate's own text says only that it would pass it
		}
		return "", fmt.Errorf("partner: waiting for the grant's turn under Pacing: %w", err)
	}
	s.cfg.Access.r.paced(ctx, start, false)
	return m.Token, nil
}

// Renew mints a new token now, whatever the cached one's age, and makes it
// the cached one; it joins a mint already in progress.
func (s *InstallationSource) Renew(ctx context.Context) (Minted, error) {
	return s.get(ctx, true)
}

func (s *InstallationSource) get(ctx context.Context, renew bool) (Minted, error) {
	gen, err := s.cfg.Access.Check(ctx)
	if err != nil {
		return Minted{}, err
	}
	s.mu.Lock()
	if s.gen != gen { // the grant got a new token, maybe with another scope
		s.replaceLocked(Minted{})
		s.gen = gen
	}
	if left := time.Until(s.cur.Expiry); !renew && s.cur.Token != "" && left > s.margin {
		m := s.cur
		if left <= due(s.cur.Life, s.margin) && s.p == nil {
			s.startLocked(ctx, gen, false, true)
		}
		s.mu.Unlock()
		return m, nil
	}
	p := s.p
	if p == nil || (renew && !s.pMint) { // Renew reads a mint's Detail
		p = s.startLocked(ctx, gen, renew, false)
	}
	s.mu.Unlock()
	start := s.cfg.Access.r.now()
	m, err := p.wait(ctx)
	s.cfg.Access.r.token(ctx, hooks.Wait, false, start, err)
	return m, err
}

// startLocked starts a mint, on a context detached from ctx. s.mu is held.
func (s *InstallationSource) startLocked(ctx context.Context, gen uint64, renew, ahead bool) *pending[Minted] {
	p := newPending[Minted]()
	s.p, s.pMint = p, renew
	goFlight(func() { s.mint(context.WithoutCancel(ctx), p, gen, renew, ahead) }, &s.flights, &s.cfg.Access.r.flights)
	return p
}

// Wait waits until no mint of the grant's installation token is in
// flight, or ctx ends.
func (s *InstallationSource) Wait(ctx context.Context) error { return s.flights.wait(ctx) }

// Invalidate drops tok if it is still the cached installation token, so
// that many requests refused with one token cause one mint.
func (s *InstallationSource) Invalidate(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok != "" && s.cur.Token == tok {
		s.replaceLocked(Minted{})
		s.bad = tok
	}
}

// Generation is the access source's Generation.
func (s *InstallationSource) Generation() uint64 { return s.cfg.Access.Generation() }

// Fail is the access source's Fail; the cached token is dropped when the
// grant is gone.
func (s *InstallationSource) Fail(ctx context.Context, err error, gen uint64) bool {
	retry := s.cfg.Access.Fail(ctx, err, gen)
	if !retry {
		s.mu.Lock()
		s.cur = Minted{}
		s.mu.Unlock()
	}
	return retry
}

// Secrets returns the grant's tokens, the installation tokens replaced
// but still valid included.
func (s *InstallationSource) Secrets() redact.Secrets {
	s.mu.Lock()
	toks := append([]string{s.cur.Token}, s.prev[:]...)
	s.mu.Unlock()
	return s.cfg.Access.Secrets().With(toks...)
}

func (s *InstallationSource) mint(ctx context.Context, p *pending[Minted], gen uint64, renew, ahead bool) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	start := s.cfg.Access.r.now()
	s.mu.Lock()
	// A token shared without its lifetime is due as the current one is.
	d, bad := s.cfg.Margin, s.bad
	if s.margin > 0 {
		d = due(s.cur.Life, s.margin)
	}
	s.mu.Unlock()
	m, err := s.obtain(ctx, d, bad, renew)
	kind := hooks.Mint
	if m.stored {
		kind = hooks.Stored
	}
	s.cfg.Access.r.token(ctx, kind, ahead, start, err)
	s.mu.Lock()
	working := s.cur.Token != "" && time.Until(s.cur.Expiry) > s.margin
	s.mu.Unlock()
	// A failed mint ahead leaves the working token in use; a configuration
	// error is held only when no token works. Not under s.mu: hold logs.
	if errors.Is(err, apierr.ErrConfiguration) && !working {
		s.cfg.Access.hold(ctx, err, gen)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == p {
		s.p = nil
	}
	if err == nil && s.gen == gen {
		if s.bad != m.Token {
			s.bad = ""
		}
		if m.Life <= 0 { // shared without its lifetime: what is left stands for it
			m.Life = lifeOf(0, m.Expiry)
		}
		s.margin = s.marginFor(m.Life)
		// Detail goes to this mint's callers only, not into every idle grant.
		s.replaceLocked(Minted{Token: m.Token, Expiry: m.Expiry, Life: m.Life})
		s.cfg.Access.debug(ctx, "partner: installation token minted", slog.Time("expiry", m.Expiry))
	}
	p.finish(m, err)
}

// mintNow mints a token and records its whole lifetime. An expiry already
// past (the server's mistake, or clock skew) is taken as a minute from now,
// rather than a mint per call; so is one so near that the token would be
// due on arrival (an expiry in whole seconds less than about half a second
// ahead: its lifetime rounds up to a second, and its margin to half that).
func (s *InstallationSource) mintNow(ctx context.Context) (Minted, error) {
	m, err := s.cfg.Mint(ctx)
	if err != nil {
		return m, err
	}
	now := time.Now()
	if left := m.Expiry.Sub(now); left <= s.dueFor(time.Duration(wholeSeconds(left))*time.Second) {
		m.Expiry = now.Add(time.Minute)
	}
	m.Life = time.Duration(wholeSeconds(m.Expiry.Sub(now))) * time.Second
	return m, nil
}

// marginFor returns how long before its expiry a token whose whole
// lifetime is life is replaced: Margin, but at most half its lifetime.
func (s *InstallationSource) marginFor(life time.Duration) time.Duration {
	return min(s.cfg.Margin, life/2)
}

// dueFor is due for a token whose whole lifetime is life.
func (s *InstallationSource) dueFor(life time.Duration) time.Duration {
	return due(life, s.marginFor(life))
}
