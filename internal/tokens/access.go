package tokens

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"
	"weak"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/transport"
)

// Defaults for the token sources.
const (
	// DefaultEarlyRefresh is how long before its expiry an access token is
	// refreshed.
	DefaultEarlyRefresh = 60 * time.Second
	// DefaultInstallationMargin is how long before its one-hour expiry an
	// installation token is replaced.
	DefaultInstallationMargin = 5 * time.Minute
	// DefaultTimeout bounds one refresh or mint, retries included.
	DefaultTimeout = 30 * time.Second
	// ConfigurationHold is how long an ErrConfiguration answer is returned
	// without asking the service again.
	ConfigurationHold = time.Minute
	// MinLifetime is how long a token answered with a lifetime of 0 or
	// less is used, rather than refreshed on every call.
	MinLifetime = 30 * time.Second
	// DefaultAccessLifetime is assumed for an access token answered without
	// expires_in: the service's access tokens live 30 minutes.
	DefaultAccessLifetime = 1800 * time.Second
)

// TokenPath is the token endpoint's default path under {auth_url}.
const TokenPath = "/api/auth/mcp/token"

// Config configures a Refresher: what every grant of a partner
// application shares.
type Config struct {
	// AuthURL is the service's authorization server; the token endpoint
	// is AuthURL + TokenPath.
	AuthURL string
	// TokenPath is the token endpoint's path under AuthURL (default
	// TokenPath).
	TokenPath string
	// AuthSetting names the AuthURL setting in advice ("PoolConfig.AuthURL");
	// the TokenPath setting is named after it ("PoolConfig.TokenPath").
	AuthSetting string
	// ClientID and ClientSecret are the partner application's credentials,
	// sent in the form body (oauth2.AuthStyleInParams).
	ClientID, ClientSecret string
	// Store receives every refreshed token before it is used. Nil means
	// the token lives in memory only.
	Store auth.Store
	// Context prepares the detached context a refresh runs on (the SDK's
	// HTTP client and retry policy for x/oauth2's requests).
	Context func(ctx context.Context, setting string) context.Context
	// EarlyRefresh defaults to DefaultEarlyRefresh; Timeout to
	// DefaultTimeout.
	EarlyRefresh, Timeout time.Duration
	// Logger receives debug lines for refreshes and mints and one warning
	// per grant that fails for good; nil is silent.
	Logger *slog.Logger
	// LocalRefreshOnStoreError: see the outage policy in package auth.
	LocalRefreshOnStoreError bool
	// LeaseTTL is how long a lease is held at most; it defaults to
	// Timeout + LeaseSlack.
	LeaseTTL time.Duration
	// Hooks are told of refreshes, mints, tokens taken from the Store,
	// waits, leases and pacing; nil is off.
	Hooks *hooks.Hooks
}

// Refresher refreshes access tokens at the token endpoint for any number of
// grants; each grant gets a small AccessSource.
type Refresher struct {
	cfg     Config
	oauth   oauth2.Config
	tokPath string

	mu   sync.Mutex
	live map[string]weak.Pointer[AccessSource] // Shared sources, while in use
	peak int                                   // the most entries live held since it was made

	flights flights // every grant's refreshes and mints in flight
}

// Wait waits until no refresh or mint of any grant is in flight (each ends
// within Timeout), or ctx ends.
func (r *Refresher) Wait(ctx context.Context) error { return r.flights.wait(ctx) }

// shrinkFloor is the size under which the map of shared sources is never
// remade smaller: it costs next to nothing.
const shrinkFloor = 64

// NewRefresher returns a Refresher for cfg.
func NewRefresher(cfg Config) *Refresher {
	if cfg.EarlyRefresh <= 0 {
		cfg.EarlyRefresh = DefaultEarlyRefresh
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	cfg.AuthSetting = cmp.Or(cfg.AuthSetting, "AuthURL")
	cfg.TokenPath = cmp.Or(cfg.TokenPath, TokenPath)
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = cfg.Timeout + LeaseSlack
	}
	r := &Refresher{
		cfg: cfg,
		oauth: oauth2.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			Endpoint: oauth2.Endpoint{
				TokenURL: cfg.AuthURL + cfg.TokenPath,
				// Explicit: auto-detection would send the grant twice.
				AuthStyle: oauth2.AuthStyleInParams,
			},
		},
		tokPath: cfg.TokenPath,
	}
	if u, err := url.Parse(r.oauth.Endpoint.TokenURL); err == nil {
		r.tokPath = u.Path
	}
	return r
}

// Source returns the access-token source of grantID, starting from tok;
// when tok is nil the token is loaded from the Store on first use.
func (r *Refresher) Source(grantID string, tok *oauth2.Token) *AccessSource {
	s := &AccessSource{r: r, grantID: grantID, state: state{margin: r.cfg.EarlyRefresh}}
	if tok != nil {
		s.state = r.given(*tok.WithExtra(nil))
	}
	return s
}

// Shared returns the access-token source of grantID that something still
// uses (a client evicted from a Pool while a caller holds it, a refresh in
// flight), or else a new one (made) that loads the token from the Store on
// first use. Every holder of the grant thus shares one refresh in flight
// and the newest refresh token: none is ever sent twice, which a service
// that rotates refresh tokens and detects reuse punishes by revoking the
// grant.
func (r *Refresher) Shared(grantID string) (s *AccessSource, made bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s := r.live[grantID].Value(); s != nil {
		return s, false
	}
	s = r.Source(grantID, nil)
	if r.live == nil {
		r.live = make(map[string]weak.Pointer[AccessSource])
	}
	r.live[grantID] = weak.Make(s)
	r.peak = max(r.peak, len(r.live))
	runtime.AddCleanup(s, r.dropDead, grantID)
	return s, true
}

// Live returns the access-token source of grantID that something still
// uses, as Shared would, or nil when there is none.
func (r *Refresher) Live(grantID string) *AccessSource {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live[grantID].Value()
}

// context bounds ctx by Timeout and prepares it with Context, for one
// refresh or code exchange (store calls and retries included).
func (r *Refresher) context(ctx context.Context) (context.Context, context.CancelFunc) {
	if r.cfg.Context != nil {
		ctx = r.cfg.Context(ctx, r.cfg.AuthSetting)
	}
	return context.WithTimeout(ctx, r.cfg.Timeout)
}

// given is the state of a token given to the source or read from the
// Store: without its whole lifetime, its margin is EarlyRefresh.
func (r *Refresher) given(t oauth2.Token) state {
	st := state{tok: t, have: true, margin: r.cfg.EarlyRefresh, life: lifeOf(t.ExpiresIn, t.Expiry)}
	if t.ExpiresIn > 0 {
		st.margin = r.marginFor(st.life)
	}
	return st
}

// marginFor returns how long before its expiry a token whose whole
// lifetime is life is replaced: EarlyRefresh, or half its lifetime when it
// lives no longer than that.
func (r *Refresher) marginFor(life time.Duration) time.Duration {
	if life > 0 && life <= r.cfg.EarlyRefresh {
		return life / 2
	}
	return r.cfg.EarlyRefresh
}

// dropDead forgets grantID's source once the garbage collector took it.
// A Go map keeps the room it grew to, so once most entries are gone the
// rest move to a map of their size: the Refresher's memory follows the
// sources in use, not every grant ever used at once.
func (r *Refresher) dropDead(grantID string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if wp, ok := r.live[grantID]; ok && wp.Value() == nil {
		delete(r.live, grantID)
	}
	if n := len(r.live); r.peak > shrinkFloor && n < r.peak/4 {
		m := make(map[string]weak.Pointer[AccessSource], n)
		maps.Copy(m, r.live)
		r.live, r.peak = m, n
	}
}

// AccessSource gives the grant's access token, refreshing it EarlyRefresh
// before it expires. It also holds the grant's final state (see the
// package doc), which the grant's installation source asks before every
// mint.
type AccessSource struct {
	r       *Refresher
	grantID string

	mu sync.Mutex
	state
	gen      uint64    // bumped whenever the grant gets a new token
	err      error     // final error, sticky until a new token
	errUntil time.Time // zero: err holds until a new token; else until then
	failedRT string    // the refresh token err is about
	retired  string    // the refresh token the last rotation replaced
	p        *pending[string]
	flights  flights // this grant's refreshes in flight

	refusals transport.Refusals
}

// state is the grant's token, as a refresh reads it before it starts.
type state struct {
	tok     oauth2.Token  // without Raw (WithExtra(nil)); AccessToken "" means "refresh before use"
	margin  time.Duration // how long before tok.Expiry it is refreshed
	life    time.Duration // tok's whole lifetime, which sets the window ahead
	have    bool          // tok holds a refresh token (given or loaded)
	unsaved bool          // tok was refreshed but Store.Save (or CommitLease under lease) failed

	// With a Store that is an auth.Leaser:
	lease    *auth.Lease // the lease to commit the unsaved token under
	lateSave bool        // tok is in use but not in the Store (LocalRefreshOnStoreError)
	invalid  string      // an access token the service refused, not to be adopted again
}

// due is how long before its expiry the token is refreshed ahead.
func (st *state) due() time.Duration { return due(st.life, st.margin) }

// Refusals is the 401 rule's memory for the access token.
func (s *AccessSource) Refusals() *transport.Refusals { return &s.refusals }

// Reload reads the Store once and takes a refresh token there that differs
// from the grant's (the user connected again, maybe with a wider scope).
// It reports whether the grant's token changed since gen.
func (s *AccessSource) Reload(ctx context.Context, gen uint64) bool {
	s.mu.Lock()
	changed, rt := gen != s.gen, s.tok.RefreshToken
	s.mu.Unlock()
	return changed || s.adoptNewer(ctx, rt)
}

// Token returns a valid access token, refreshing it first when it is
// missing or expires within its margin.
func (s *AccessSource) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		if _, err := s.Check(ctx); err != nil {
			return "", err
		}
		s.mu.Lock()
	}
	if s.usableLocked() {
		v := s.tok.AccessToken
		if time.Until(s.tok.Expiry) <= s.due() && s.p == nil {
			s.startLocked(ctx, true)
		}
		s.mu.Unlock()
		return v, nil
	}
	p := s.p
	if p == nil {
		p = s.startLocked(ctx, false)
	}
	s.mu.Unlock()
	start := s.r.now()
	tok, err := p.wait(ctx)
	s.r.token(ctx, hooks.Wait, false, start, err)
	return tok, err
}

// startLocked starts a refresh, on a context detached from ctx. s.mu is
// held.
func (s *AccessSource) startLocked(ctx context.Context, ahead bool) *pending[string] {
	p, gen := newPending[string](), s.gen
	s.p = p
	goFlight(func() { s.refresh(context.WithoutCancel(ctx), p, gen, ahead) }, &s.flights, &s.r.flights)
	return p
}

// Wait waits until no refresh of the grant is in flight, or ctx ends.
func (s *AccessSource) Wait(ctx context.Context) error { return s.flights.wait(ctx) }

// usableLocked reports whether the cached access token is saved and
// expires after its margin. s.mu is held.
func (s *AccessSource) usableLocked() bool {
	return s.have && !s.unsaved && s.tok.AccessToken != "" && time.Until(s.tok.Expiry) > s.margin
}

// Check returns the grant's Generation and the error the grant is stuck
// on, or nil. While the grant is gone, it first takes a refresh token from
// the Store that is not the one that failed (a new code exchange, or
// another holder refreshed).
func (s *AccessSource) Check(ctx context.Context) (uint64, error) {
	s.mu.Lock()
	gen, err, until, failedRT := s.gen, s.err, s.errUntil, s.failedRT
	if err != nil && !until.IsZero() && !time.Now().Before(until) {
		s.err, s.errUntil = nil, time.Time{} // held long enough: ask again
		err = nil
	}
	s.mu.Unlock()
	if err == nil {
		return gen, nil
	}
	if until.IsZero() && s.adoptNewer(ctx, failedRT) {
		return s.Generation(), nil
	}
	// The text does not pass the earlier call's path off as this one's.
	return gen, fmt.Errorf("partner: not sent: grant %s failed on an earlier call: %w", s.grantID, err)
}

// newer reads the Store and returns the token there when its refresh token
// is another than old.
func (s *AccessSource) newer(ctx context.Context, old string) (oauth2.Token, bool) {
	if s.r.cfg.Store == nil {
		return oauth2.Token{}, false
	}
	t, err := s.r.cfg.Store.Load(ctx, s.grantID)
	if err != nil || t == nil || t.RefreshToken == "" || t.RefreshToken == old {
		return oauth2.Token{}, false
	}
	return *t.WithExtra(nil), true
}

// adoptNewer makes the Store's token the grant's when its refresh token is
// another than old. It reports whether it did.
func (s *AccessSource) adoptNewer(ctx context.Context, old string) bool {
	t, ok := s.newer(ctx, old)
	if !ok {
		return false
	}
	s.mu.Lock()
	if s.tok.RefreshToken != old && s.err == nil {
		s.mu.Unlock()
		return true // adopted meanwhile by another caller
	}
	s.setLocked(&t)
	s.mu.Unlock()
	s.r.token(ctx, hooks.Stored, false, time.Time{}, nil)
	s.debug(ctx, "partner: grant took a newer token from the Store")
	s.r.DropInstallation(ctx, s.grantID)
	return true
}

// Invalidate drops tok if it is still the cached access token, so the
// next Token call refreshes. A token already replaced is left alone, so
// many requests refused with the same token cause one refresh.
func (s *AccessSource) Invalidate(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok != "" && s.tok.AccessToken == tok {
		s.tok.AccessToken = ""
		s.invalid = tok
	}
}

// Fail is told that an answer to a request sent under gen says the grant is
// gone. It reports true when the grant has a newer token (given since, or
// found in the Store now) to replay the request with; otherwise err becomes
// final.
func (s *AccessSource) Fail(ctx context.Context, err error, gen uint64) bool {
	s.mu.Lock()
	rt := s.tok.RefreshToken
	s.mu.Unlock()
	if s.Reload(ctx, gen) {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen == s.gen {
		s.failLocked(ctx, err, rt, time.Time{})
	}
	return false
}

// failLocked makes err the grant's final error and says so once in the
// log. s.mu is held.
func (s *AccessSource) failLocked(ctx context.Context, err error, rt string, until time.Time) {
	if l := s.r.cfg.Logger; l != nil && s.err == nil { // without a token
		code, class := "", "reauthorization required"
		var ae *apierr.APIError
		if errors.As(err, &ae) {
			code = ae.Code
		}
		if errors.Is(err, apierr.ErrConfiguration) {
			class = "configuration"
		}
		l.LogAttrs(ctx, slog.LevelWarn, "partner: grant failed for good",
			slog.String("grant", s.grantID), slog.String("class", class), slog.String("code", code))
	}
	s.err, s.errUntil, s.failedRT = err, until, rt
	s.tok.AccessToken = ""
}

// hold makes a configuration error returned without a request for
// ConfigurationHold, for every token of the grant.
func (s *AccessSource) hold(ctx context.Context, err error, gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen == s.gen && s.err == nil {
		s.failLocked(ctx, err, s.tok.RefreshToken, time.Now().Add(ConfigurationHold))
	}
}

// SetToken replaces the token (the user connected again) and clears a
// final error; the grant's installation token, shared ones included, is
// minted anew. A refresh in progress with another refresh token finishes
// for its own callers but is neither kept nor saved. A token with the
// refresh token a refresh in progress sends keeps that refresh, whose
// answer is newer; one with the refresh token the last rotation replaced
// is ignored. Either would otherwise send a retired refresh token, which a
// service that detects reuse punishes by revoking the grant.
func (s *AccessSource) SetToken(tok *oauth2.Token) {
	s.mu.Lock()
	if tok.RefreshToken != "" && tok.RefreshToken == s.retired {
		s.mu.Unlock()
		return
	}
	s.setLocked(tok)
	s.mu.Unlock()
	s.r.DropInstallation(context.Background(), s.grantID)
}

func (s *AccessSource) setLocked(tok *oauth2.Token) {
	t := *tok.WithExtra(nil)
	if t.RefreshToken != s.tok.RefreshToken && s.have {
		s.p = nil // a refresh in flight is about another refresh token
	}
	s.state = s.r.given(t)
	s.err, s.errUntil, s.failedRT = nil, time.Time{}, ""
	s.gen++
}

// Generation changes each time the grant gets a new token from outside
// (SetToken, or a newer token found in the Store).
func (s *AccessSource) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// Secrets returns the grant's refresh and access tokens.
func (s *AccessSource) Secrets() redact.Secrets {
	s.mu.Lock()
	defer s.mu.Unlock()
	return redact.New(s.tok.RefreshToken, s.tok.AccessToken, s.failedRT)
}

// refresh runs in its own goroutine on a context detached from the caller's,
// and finishes p for every waiter.
func (s *AccessSource) refresh(ctx context.Context, p *pending[string], gen uint64, ahead bool) {
	ctx, cancel := s.r.context(ctx)
	defer cancel()
	start := s.r.now()

	s.mu.Lock()
	st := s.state
	s.mu.Unlock()

	var o outcome
	if l, ok := s.r.cfg.Store.(auth.Leaser); ok {
		o = s.obtainShared(ctx, l, st, gen)
	} else {
		o = s.obtain(ctx, st, gen)
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == p {
		s.p = nil
	}
	// A new token meanwhile wins, unless it has the refresh token this
	// refresh sent: the result is newer. A failed refresh ahead leaves a
	// working token in use unless the grant is gone.
	keep := o.err != nil && (o.next == nil || !o.next.unsaved) && !(o.final && o.until.IsZero()) && s.usableLocked()
	if (s.gen == gen || s.rotatedFrom(o.sent)) && !keep {
		if o.next != nil {
			if o.sent != "" && o.next.tok.RefreshToken != o.sent {
				s.retired = o.sent
			}
			if s.invalid == o.next.tok.AccessToken {
				o.next.invalid = s.invalid
			}
			s.state = *o.next
		}
		if o.final {
			s.failLocked(ctx, o.err, s.tok.RefreshToken, o.until)
		}
	}
	s.r.token(ctx, cmp.Or(o.kind, hooks.Refresh), ahead, start, o.err)
	p.finish(o.val, o.err)
}

// outcome is what a refresh ends with.
type outcome struct {
	val   string // the access token, or "" with err
	next  *state // the token to keep in memory; nil: the current one
	final bool   // err holds until a new token, or until until
	until time.Time
	err   error
	sent  string          // the refresh token a successful refresh sent, maybe retired
	kind  hooks.TokenKind // hooks.Stored: taken from the Store; "": refreshed
}

// took is the outcome of using t, whose margin and whole lifetime are
// margin and life.
func took(t oauth2.Token, margin, life time.Duration) outcome {
	return outcome{val: t.AccessToken, next: &state{tok: t, have: true, margin: margin, life: life}}
}

// rotatedFrom reports whether the grant, though it got a token since a
// refresh began, holds the refresh token that refresh sent: the refresh's
// token is then the newer. s.mu is held.
func (s *AccessSource) rotatedFrom(sent string) bool {
	return sent != "" && s.err == nil && s.tok.RefreshToken == sent
}

// obtain does the work of refresh without holding the lock, for a Store
// that is not an auth.Leaser.
func (s *AccessSource) obtain(ctx context.Context, st state, gen uint64) outcome {
	tok := st.tok
	if !st.have {
		if s.r.cfg.Store == nil {
			return outcome{final: true, err: s.gone(auth.ErrNoToken.Error())}
		}
		t, err := s.r.cfg.Store.Load(ctx, s.grantID)
		switch {
		case errors.Is(err, auth.ErrNoToken) || (err == nil && t == nil):
			return outcome{final: true, err: fmt.Errorf("partner: grant %s: %w: %w", s.grantID, apierr.ErrReauthorizationRequired, auth.ErrNoToken)}
		case err != nil:
			return outcome{err: fmt.Errorf("partner: loading the token of grant %s: %w", s.grantID, err)}
		case t.RefreshToken == "":
			return outcome{final: true, err: s.gone("the stored token has no refresh token")}
		}
		tok = *t.WithExtra(nil)
		if o, ok := s.loaded(tok); ok {
			return o
		}
	}
	if st.unsaved { // refreshed earlier, but not stored yet: store before use
		if err := s.save(ctx, &tok, gen, ""); err != nil {
			return outcome{err: err}
		}
		life := lifeOf(tok.ExpiresIn, tok.Expiry)
		return took(tok, s.r.marginFor(life), life)
	}
	if tok.RefreshToken == "" {
		return outcome{final: true, err: s.gone("no refresh token")}
	}
	o := s.exchange(ctx, tok)
	if o.final && errors.Is(o.err, apierr.ErrReauthorizationRequired) {
		// Before the grant is declared gone: has the Store a newer one?
		if t, ok := s.newer(ctx, tok.RefreshToken); ok {
			if o, ok := s.loaded(t); ok {
				return o
			}
			o = s.exchange(ctx, t)
		}
	}
	if o.err != nil {
		return o
	}
	if err := s.save(ctx, &o.next.tok, gen, o.sent); err != nil {
		o.next.unsaved, o.val, o.err = true, "", err // kept in memory, saved before use
	}
	return o
}

// loaded returns the outcome of taking t, read from the Store, as it is,
// when its access token expires after its margin.
func (s *AccessSource) loaded(t oauth2.Token) (outcome, bool) {
	st := s.r.given(t)
	if t.AccessToken == "" || time.Until(t.Expiry) <= st.margin {
		return outcome{}, false
	}
	return outcome{val: t.AccessToken, next: &st}, true
}

func (s *AccessSource) gone(why string) error {
	return fmt.Errorf("partner: grant %s: %w: %s", s.grantID, apierr.ErrReauthorizationRequired, why)
}

// exchange refreshes tok at the token endpoint.
func (s *AccessSource) exchange(ctx context.Context, tok oauth2.Token) outcome {
	// The starting token is given without an access token, so x/oauth2's
	// own expiry check always lets the refresh through; ours ran before.
	got, err := s.r.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		final, until, err := s.r.classify(err, redact.New(tok.RefreshToken, s.r.cfg.ClientSecret))
		// Keep the token tried (maybe just loaded): its refresh token failed.
		tok.AccessToken = ""
		return outcome{next: &state{tok: tok, have: true, margin: s.r.cfg.EarlyRefresh}, final: final, until: until, err: err}
	}
	nt := *got.WithExtra(nil)
	nt.RefreshToken = cmp.Or(nt.RefreshToken, tok.RefreshToken)
	if nt.Expiry.IsZero() {
		nt.Expiry = time.Now().Add(DefaultAccessLifetime)
	}
	// The whole lifetime goes to the Store (ExpiresIn), so that a replica
	// taking the token later computes the same margin.
	life := time.Until(nt.Expiry)
	nt.ExpiresIn = wholeSeconds(life)
	margin := s.r.marginFor(lifeOf(nt.ExpiresIn, nt.Expiry))
	if life <= 0 { // the server's mistake: not a refresh per call
		nt.Expiry, nt.ExpiresIn, margin = time.Now().Add(MinLifetime), 0, 0
	}
	s.debug(ctx, "partner: access token refreshed", slog.Time("expiry", nt.Expiry))
	o := took(nt, margin, lifeOf(nt.ExpiresIn, nt.Expiry))
	o.sent = tok.RefreshToken
	return o
}

// save hands t, the answer to a refresh that sent the refresh token sent,
// to the Store, unless the grant got a newer token since the refresh began
// (which the application stored).
func (s *AccessSource) save(ctx context.Context, t *oauth2.Token, gen uint64, sent string) error {
	if s.r.cfg.Store == nil {
		return nil
	}
	s.mu.Lock()
	stale := s.gen != gen && !s.rotatedFrom(sent)
	s.mu.Unlock()
	if stale {
		return nil
	}
	if err := s.r.cfg.Store.Save(ctx, s.grantID, t); err != nil {
		return fmt.Errorf("partner: saving the refreshed token of grant %s (it will be saved again before use): %w", s.grantID, err)
	}
	return nil
}

// classify turns an x/oauth2 failure at the token endpoint into the SDK's
// error and says whether it is final, and until when. Nothing in scrub
// stays in the error.
func (r *Refresher) classify(err error, scrub redact.Secrets) (final bool, until time.Time, _ error) {
	path := r.tokPath
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status, header := 0, http.Header(nil)
		if re.Response != nil {
			status, header = re.Response.StatusCode, re.Response.Header
		}
		e := apierr.FromResponse(http.MethodPost, path, status, header, re.Body, scrub)
		var ae *apierr.APIError
		errors.As(e, &ae)
		if ae.Code == "" && re.ErrorCode != "" { // a form-encoded error body
			ae.Code = apierr.Clean(re.ErrorCode, scrub)
		}
		switch {
		case ae.GrantGone():
			return true, time.Time{}, apierr.Classify(apierr.ErrReauthorizationRequired, e, apierr.ReconnectAdvice)
		case ae.Code == apierr.CodeInvalidClient ||
			(status >= 400 && status < 500 && status != http.StatusTooManyRequests):
			// The application is refused (RFC 6749 answers a failed client
			// authentication with 401), AuthURL is wrong or a proxy answered:
			// no user can fix it by reconnecting.
			return true, time.Now().Add(ConfigurationHold), apierr.Classify(apierr.ErrConfiguration, e,
				r.checkAdvice(status)+"; users need not reconnect")
		case apierr.Temporary(status):
			return false, time.Time{}, e
		default: // a 2xx or 3xx with an error code
			return false, time.Time{}, apierr.Classify(apierr.ErrUnexpectedResponse, e, "")
		}
	}
	var rde *transport.RedirectError
	if errors.As(err, &rde) {
		return true, time.Now().Add(ConfigurationHold), rde.Configuration(http.MethodPost, path)
	}
	var ne net.Error
	var ue *url.Error
	// x/oauth2 formats a failure to read the answer's body with %v, so
	// only its text tells it apart from an answer it could not parse.
	bodyCut := strings.HasPrefix(err.Error(), "oauth2: cannot fetch token:")
	if bodyCut || errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		if ue != nil {
			err = ue.Err
		}
		return false, time.Time{}, fmt.Errorf("partner: POST %s: %w: %w", path, apierr.ErrTemporary,
			scrub.Error(err))
	}
	// x/oauth2 could not parse a 2xx answer, or it had no access_token.
	if field, want := unreadableField(err.Error()); field != "" {
		return false, time.Time{}, fmt.Errorf("partner: POST %s: %w: the token endpoint sent %s in a form the SDK cannot read (%s)",
			path, apierr.ErrUnexpectedResponse, field, want)
	}
	// Its text may quote the answer: a short, scrubbed prefix is kept.
	return false, time.Time{}, fmt.Errorf("partner: POST %s: %w: the token endpoint's answer could not be read (%s)",
		path, apierr.ErrUnexpectedResponse, apierr.Clean(err.Error(), scrub))
}

// unreadableField names the field of a 2xx token answer that x/oauth2
// could not decode, with what it reads there, or returns "". x/oauth2 keeps
// only the text of its decoding error, which names the field ("Go struct
// field tokenJSON.access_token") or, for expires_in (read with
// strconv.ParseInt of a json.Number), the parse that failed.
func unreadableField(msg string) (field, want string) {
	const wholeSeconds = "golang.org/x/oauth2 reads expires_in only as a whole number of seconds, such as 1800"
	if strings.Contains(msg, "strconv.ParseInt: ") || strings.Contains(msg, "into Number") {
		return "expires_in", wholeSeconds
	}
	_, after, ok := strings.Cut(msg, "Go struct field tokenJSON.")
	if !ok {
		return "", ""
	}
	field, _, _ = strings.Cut(after, " ")
	if field == "expires_in" {
		return field, wholeSeconds
	}
	return apierr.Clean(field, redact.Secrets{}), "a JSON string is expected there"
}

// debug logs a debug line about the grant.
func (s *AccessSource) debug(ctx context.Context, msg string, attrs ...slog.Attr) {
	if l := s.r.cfg.Logger; l != nil {
		l.LogAttrs(ctx, slog.LevelDebug, msg, append(attrs, slog.String("grant", s.grantID))...)
	}
}

// Stuck starts the source on a final error about refresh token rt (a Pool
// rebuilds an evicted grant that had failed): rt is never sent again.
func (s *AccessSource) Stuck(err error, rt string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err, s.errUntil, s.failedRT = err, time.Time{}, rt
	s.tok, s.have = oauth2.Token{RefreshToken: rt}, rt != ""
}

// End makes the grant final with err (the application revoked it) until
// the Store holds another refresh token.
func (s *AccessSource) End(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.err, s.errUntil, s.failedRT = err, time.Time{}, s.tok.RefreshToken
	s.tok = oauth2.Token{RefreshToken: s.tok.RefreshToken}
	s.gen++
}

// Final returns the error the source is stuck on until a new token, with
// the refresh token it is about; a held configuration error is not final.
func (s *AccessSource) Final() (rt string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err == nil || !s.errUntil.IsZero() {
		return "", nil
	}
	return s.failedRT, s.err
}
