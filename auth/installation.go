package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
)

// MintFunc mints a new installation token (endpoint 8) and returns it with
// its expiry.
type MintFunc func(ctx context.Context) (token string, expiry time.Time, err error)

// InstallationConfig configures an InstallationSource.
type InstallationConfig struct {
	// Mint calls endpoint 8; the SDK passes Installations.CreateToken.
	Mint MintFunc
	// Access is the grant's access-token source: once it has a new token
	// (SetToken), a final mint error is forgotten.
	Access *AccessSource
	// Margin is how long before expiry the token is replaced; it defaults
	// to DefaultInstallationMargin. Timeout defaults to DefaultTimeout.
	Margin, Timeout time.Duration
}

// InstallationSource gives the grant's installation token: minted when
// missing or within Margin of expiry, cached, and shared by every request
// of the grant. However many goroutines ask at once, one mint happens.
//
// A mint refused with a 4xx other than 429 (grant_revoked, for one) is
// final, as for AccessSource, until the access source gets a new token.
type InstallationSource struct {
	cfg InstallationConfig

	mu     sync.Mutex
	tok    string
	exp    time.Time     // when tok expires
	margin time.Duration // how long before exp it is replaced
	err    error         // final error, valid while errGen is the access generation
	errGen uint64
	p      *pending
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

// Token returns a valid installation token, minting one first if needed. A
// caller whose ctx ends while a mint is in progress gets ctx's error at
// once; the mint carries on for the others.
func (s *InstallationSource) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	if err := s.stuck(); err != nil {
		s.mu.Unlock()
		return "", earlier(s.grantID(), err)
	}
	if s.tok != "" && time.Until(s.exp) > s.margin {
		v := s.tok
		s.mu.Unlock()
		return v, nil
	}
	p := s.p
	if p == nil {
		p = newPending()
		s.p = p
		go s.mint(context.WithoutCancel(ctx), p, s.Generation())
	}
	s.mu.Unlock()
	return p.wait(ctx)
}

func (s *InstallationSource) grantID() string {
	if s.cfg.Access == nil {
		return "?"
	}
	return s.cfg.Access.grantID
}

// Err returns the final error the source is stuck on, or nil.
func (s *InstallationSource) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stuck()
}

// stuck returns the final error if it is about the grant's current token,
// and forgets it once the grant has a new one. s.mu is held.
func (s *InstallationSource) stuck() error {
	if s.err != nil && s.errGen != s.Generation() {
		s.err = nil
	}
	return s.err
}

// Invalidate drops tok if it is still the cached installation token, so
// the next Token call mints. A token already replaced is left alone, so
// many requests refused with the same token cause one mint.
func (s *InstallationSource) Invalidate(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok != "" && s.tok == tok {
		s.tok, s.exp = "", time.Time{}
	}
}

// Generation is the access source's Generation: it changes when the grant
// gets a new token.
func (s *InstallationSource) Generation() uint64 {
	if s.cfg.Access == nil {
		return 0
	}
	return s.cfg.Access.Generation()
}

// Fail makes err final for the installation token and for the access
// token behind it: no further request is sent for the grant until the
// access source gets a new token. gen is the Generation the failing request
// was sent under; a failure about an older token is ignored. The SDK calls
// it when the service says the grant is gone.
func (s *InstallationSource) Fail(err error, gen uint64) {
	if s.cfg.Access != nil {
		s.cfg.Access.Fail(err, gen)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.Generation() != gen {
		return // about a token the grant no longer has
	}
	if s.err == nil {
		s.err, s.errGen = err, gen
	}
	s.tok, s.exp = "", time.Time{}
}

func (s *InstallationSource) mint(ctx context.Context, p *pending, gen uint64) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	tok, exp, err := s.cfg.Mint(ctx)
	final := false
	if err != nil {
		final = isFinal(err)
		if final && !classified(err) {
			err = fmt.Errorf("%w: minting an installation token: %w", apierr.ErrReauthorizationRequired, err)
		}
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == p {
		s.p = nil
	}
	switch {
	case err == nil:
		s.tok = tok
		s.exp, s.margin = s.keep(exp)
	case final:
		s.err, s.errGen = err, gen
	}
	p.finish(tok, err)
}

// classified reports whether err is already in a final class.
func classified(err error) bool {
	return errors.Is(err, apierr.ErrReauthorizationRequired) || errors.Is(err, apierr.ErrConfiguration)
}

// keep returns how long a token just minted is kept: until exp, replaced
// Margin before it but at most half its lifetime, so that a token living
// less than twice the margin is still used rather than minted again on
// every call. A lifetime under a minute (or an expiry in the past, from
// clock skew) is taken as a minute; a 401 replaces the token sooner if the
// service disagrees.
func (s *InstallationSource) keep(exp time.Time) (time.Time, time.Duration) {
	now := time.Now()
	if exp.Sub(now) < time.Minute {
		exp = now.Add(time.Minute)
	}
	return exp, min(s.cfg.Margin, exp.Sub(now)/2)
}

// isFinal reports whether a mint failure is one no retry can fix: a final
// access-token error, or a 4xx answer other than 429.
func isFinal(err error) bool {
	if classified(err) {
		return true
	}
	var ae *apierr.APIError
	return errors.As(err, &ae) && ae.StatusCode >= 400 && ae.StatusCode < 500 &&
		ae.StatusCode != http.StatusTooManyRequests
}
