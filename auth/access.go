package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/internal/apierr"
)

// Defaults for the token sources.
const (
	// DefaultEarlyRefresh is how long before its expiry an access token is
	// refreshed (the spec's client-side practice is 60 s).
	DefaultEarlyRefresh = 60 * time.Second
	// DefaultInstallationMargin is how long before its one-hour expiry an
	// installation token is replaced.
	DefaultInstallationMargin = 5 * time.Minute
	// DefaultTimeout bounds one refresh or mint, retries included. It runs
	// on a context detached from the caller's, so one caller giving up
	// does not fail the others waiting for the same token.
	DefaultTimeout = 30 * time.Second
)

// TokenPath is the token endpoint's path under {auth_url} (endpoint 7).
const TokenPath = "/api/auth/mcp/token"

// RefresherConfig configures a Refresher: what every grant of a partner
// application shares.
type RefresherConfig struct {
	// AuthURL is the spec's {auth_url}; the token endpoint is
	// AuthURL + TokenPath.
	AuthURL string
	// ClientID and ClientSecret are the partner application's credentials,
	// sent in the form body (oauth2.AuthStyleInParams).
	ClientID, ClientSecret string
	// Store receives every refreshed token before it is used. Nil means
	// the token lives in memory only.
	Store Store
	// Context prepares the detached context a refresh runs on; the SDK
	// uses it to route x/oauth2's requests through its own HTTP client
	// and retry policy (never http.DefaultClient).
	Context func(context.Context) context.Context
	// EarlyRefresh defaults to DefaultEarlyRefresh; Timeout to
	// DefaultTimeout.
	EarlyRefresh, Timeout time.Duration
	// Logger receives one debug line per refresh; nil is silent.
	Logger *slog.Logger
}

// Refresher refreshes access tokens at the token endpoint for any number of
// grants. It holds the partner application's credentials once; each grant
// gets a small AccessSource from Source.
type Refresher struct {
	cfg     RefresherConfig
	oauth   oauth2.Config
	tokPath string
}

// NewRefresher returns a Refresher for cfg.
func NewRefresher(cfg RefresherConfig) *Refresher {
	if cfg.EarlyRefresh <= 0 {
		cfg.EarlyRefresh = DefaultEarlyRefresh
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	r := &Refresher{
		cfg: cfg,
		oauth: oauth2.Config{
			ClientID:     cfg.ClientID,
			ClientSecret: cfg.ClientSecret,
			Endpoint: oauth2.Endpoint{
				TokenURL: cfg.AuthURL + TokenPath,
				// Explicit: auto-detection would send the grant twice.
				AuthStyle: oauth2.AuthStyleInParams,
			},
		},
		tokPath: TokenPath,
	}
	if u, err := url.Parse(r.oauth.Endpoint.TokenURL); err == nil {
		r.tokPath = u.Path
	}
	return r
}

// Source returns the access-token source of grantID, starting from tok;
// when tok is nil the token is loaded from the Store on first use.
func (r *Refresher) Source(grantID string, tok *oauth2.Token) *AccessSource {
	s := &AccessSource{r: r, grantID: grantID}
	if tok != nil {
		s.tok, s.have = strip(tok), true
	}
	return s
}

// AccessSource gives the grant's access token, refreshing it with the
// refresh token at the token endpoint EarlyRefresh before it expires (the
// starting token included). It is safe for concurrent use: however many
// goroutines ask at once, one refresh happens.
//
// A refusal that no retry can fix (invalid_grant, or any 4xx other than
// 429) is final: the source stops calling the service and keeps returning
// that error, which matches apierr.ErrReauthorizationRequired, until
// SetToken gives it a new token. Network errors, 429 and 5xx are retried
// by the transport and then returned as ErrTemporary, and the next call
// tries again. (The spec says any non-2xx refresh failure means
// revocation; an outage of the token endpoint must not disconnect every
// user, so the SDK deliberately differs there.)
type AccessSource struct {
	r       *Refresher
	grantID string

	mu      sync.Mutex
	tok     oauth2.Token // AccessToken "" means "refresh before use"
	have    bool         // tok holds a refresh token (given or loaded)
	unsaved bool         // tok was refreshed but Store.Save failed
	gen     uint64       // bumped by SetToken
	err     error        // final error, sticky until SetToken
	p       *pending
}

// Token returns a valid access token, refreshing it first when it is
// missing or expires within EarlyRefresh. A caller whose ctx ends while a
// refresh is in progress gets ctx's error at once; the refresh carries on.
func (s *AccessSource) Token(ctx context.Context) (string, error) {
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return "", earlier(s.grantID, err)
	}
	if s.have && !s.unsaved && s.fresh(&s.tok) {
		v := s.tok.AccessToken
		s.mu.Unlock()
		return v, nil
	}
	p := s.p
	if p == nil {
		p = newPending()
		s.p = p
		go s.refresh(context.WithoutCancel(ctx), p, s.gen)
	}
	s.mu.Unlock()
	return p.wait(ctx)
}

func (s *AccessSource) fresh(t *oauth2.Token) bool {
	return t.AccessToken != "" && time.Until(t.Expiry) > s.r.cfg.EarlyRefresh
}

// earlier wraps a final error for the calls after the one that met it, so
// that their text does not pass the earlier call's path off as theirs.
func earlier(grantID string, err error) error {
	return fmt.Errorf("not sent: grant %s failed for good on an earlier call: %w", grantID, err)
}

// Invalidate drops tok if it is still the cached access token, so the
// next Token call refreshes. A token already replaced is left alone, so
// many requests refused with the same token cause one refresh.
func (s *AccessSource) Invalidate(tok string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if tok != "" && s.tok.AccessToken == tok {
		s.tok.AccessToken = ""
	}
}

// Fail makes err final, as if the token endpoint had refused the refresh:
// Token returns err from now on without calling the service, until
// SetToken. gen is the Generation the failing request was sent under: a
// failure that arrives after SetToken gave a new token is about the old
// one, and is ignored. The SDK calls it when the service says the grant is
// gone.
func (s *AccessSource) Fail(err error, gen uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if gen != s.gen {
		return
	}
	if s.err == nil {
		s.err = err
	}
	s.tok.AccessToken = ""
}

// SetToken replaces the token (after the user connected the application
// again) and clears a final error. A refresh already in progress finishes
// for its own callers but is neither kept nor saved; later callers use the
// new token.
func (s *AccessSource) SetToken(tok *oauth2.Token) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tok, s.have, s.unsaved, s.err = strip(tok), true, false, nil
	s.gen++
	s.p = nil
}

// Generation changes each time SetToken is called; the installation source
// uses it to forget a final error once the grant has a new token.
func (s *AccessSource) Generation() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gen
}

// RefreshToken returns the refresh token in use, or "" before one was
// given or loaded. A Pool compares it with the Store's to notice that the
// user connected again.
func (s *AccessSource) RefreshToken() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tok.RefreshToken
}

// Err returns the final error the source is stuck on, or nil.
func (s *AccessSource) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// refresh runs in its own goroutine on a context detached from the caller
// that started it, and finishes p for every waiter.
func (s *AccessSource) refresh(ctx context.Context, p *pending, gen uint64) {
	ctx, cancel := context.WithTimeout(ctx, s.r.cfg.Timeout)
	defer cancel()
	if s.r.cfg.Context != nil {
		ctx = s.r.cfg.Context(ctx)
	}

	s.mu.Lock()
	tok, have, unsaved := s.tok, s.have, s.unsaved
	s.mu.Unlock()

	o := s.obtain(ctx, tok, have, unsaved, gen)

	s.mu.Lock()
	defer s.mu.Unlock()
	if s.p == p {
		s.p = nil
	}
	if s.gen == gen { // SetToken meanwhile wins over this result
		if o.next != nil {
			s.tok, s.have, s.unsaved = *o.next, true, o.unsaved
		}
		if o.final {
			s.err = o.err
		}
	}
	p.finish(o.val, o.err)
}

// outcome is what a refresh ends with: the access token or an error, the
// token to keep in memory (nil: keep the current one), whether that token
// still has to be saved, and whether the error is final.
type outcome struct {
	val     string
	next    *oauth2.Token
	unsaved bool
	final   bool
	err     error
}

// obtain does the work of refresh without holding the lock.
func (s *AccessSource) obtain(ctx context.Context, tok oauth2.Token, have, unsaved bool, gen uint64) outcome {
	if !have {
		if s.r.cfg.Store == nil {
			return outcome{final: true, err: fmt.Errorf("%w: grant %s: %w", apierr.ErrReauthorizationRequired, s.grantID, ErrNoToken)}
		}
		t, err := s.r.cfg.Store.Load(ctx, s.grantID)
		switch {
		case errors.Is(err, ErrNoToken):
			return outcome{final: true, err: fmt.Errorf("%w: grant %s: %w", apierr.ErrReauthorizationRequired, s.grantID, err)}
		case err != nil:
			return outcome{err: fmt.Errorf("auth: loading the token of grant %s: %w", s.grantID, err)}
		case t == nil || t.RefreshToken == "":
			return outcome{final: true, err: fmt.Errorf("%w: grant %s: the stored token has no refresh token", apierr.ErrReauthorizationRequired, s.grantID)}
		}
		tok = strip(t)
		if s.fresh(&tok) {
			return outcome{val: tok.AccessToken, next: &tok}
		}
	}
	if unsaved { // refreshed earlier, but not stored yet: store before use
		if err := s.save(ctx, &tok, gen); err != nil {
			return outcome{err: err}
		}
		return outcome{val: tok.AccessToken, next: &tok}
	}
	if tok.RefreshToken == "" {
		return outcome{final: true, err: fmt.Errorf("%w: grant %s: no refresh token", apierr.ErrReauthorizationRequired, s.grantID)}
	}

	// The starting token is given without an access token, so x/oauth2's
	// own expiry check always lets the refresh through; ours ran above.
	got, err := s.r.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: tok.RefreshToken}).Token()
	if err != nil {
		final, err := s.classify(err, tok.RefreshToken)
		// Keep the token the refresh was tried with (it may have just been
		// loaded), so that RefreshToken names the one that failed.
		tok.AccessToken = ""
		return outcome{next: &tok, final: final, err: err}
	}
	nt := strip(got)
	if nt.RefreshToken == "" {
		nt.RefreshToken = tok.RefreshToken
	}
	if nt.Expiry.IsZero() {
		// The spec gives 1800 s; a token without expires_in is assumed to
		// live that long rather than forever.
		nt.Expiry = time.Now().Add(1800 * time.Second)
	}
	if l := s.r.cfg.Logger; l != nil {
		l.LogAttrs(ctx, slog.LevelDebug, "partner: access token refreshed",
			slog.String("grant", s.grantID), slog.Time("expiry", nt.Expiry))
	}
	if err := s.save(ctx, &nt, gen); err != nil {
		return outcome{next: &nt, unsaved: true, err: err} // kept in memory, saved before use
	}
	return outcome{val: nt.AccessToken, next: &nt}
}

// save hands t to the Store, unless SetToken gave the source a newer token
// since the refresh began: the application has stored that one, and a
// stale refresh must not overwrite it.
func (s *AccessSource) save(ctx context.Context, t *oauth2.Token, gen uint64) error {
	if s.r.cfg.Store == nil {
		return nil
	}
	s.mu.Lock()
	stale := s.gen != gen
	s.mu.Unlock()
	if stale {
		return nil
	}
	if err := s.r.cfg.Store.Save(ctx, s.grantID, t); err != nil {
		return fmt.Errorf("auth: saving the refreshed token of grant %s (it will be saved again before use): %w", s.grantID, err)
	}
	return nil
}

// classify turns an x/oauth2 failure into the SDK's error and says whether
// it is final. The error never holds the refresh token or client secret.
func (s *AccessSource) classify(err error, refreshToken string) (final bool, _ error) {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		status := 0
		if re.Response != nil {
			status = re.Response.StatusCode
		}
		e := apierr.FromResponse("POST", s.r.tokPath, status, re.Body, 0,
			refreshToken, s.r.cfg.ClientSecret)
		var ae *apierr.APIError
		errors.As(e, &ae)
		if ae.Code == "" && re.ErrorCode != "" { // a form-encoded error body
			ae.Code = apierr.Clean(re.ErrorCode, refreshToken, s.r.cfg.ClientSecret)
		}
		switch {
		case ae.Code == apierr.CodeInvalidGrant:
			return true, fmt.Errorf("%w: %w", apierr.ErrReauthorizationRequired, e)
		case ae.Code == apierr.CodeInvalidClient, status == http.StatusUnauthorized,
			status == http.StatusNotFound, status == http.StatusMethodNotAllowed:
			// The application is refused (RFC 6749 answers a failed client
			// authentication with 401), or AuthURL is wrong: the same for
			// every grant, and no user can fix it by reconnecting.
			return true, fmt.Errorf("%w: %w", apierr.ErrConfiguration, e)
		case status >= 400 && status < 500 && status != http.StatusTooManyRequests:
			return true, fmt.Errorf("%w: %w", apierr.ErrReauthorizationRequired, e)
		case apierr.Temporary(status):
			return false, e
		default: // a 2xx or 3xx with an error code
			return false, fmt.Errorf("%w: %w", apierr.ErrUnexpectedResponse, e)
		}
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
		return false, fmt.Errorf("POST %s: %w: %w", s.r.tokPath, apierr.ErrTemporary, err)
	}
	// x/oauth2 could not parse a 2xx answer, or it had no access_token.
	return false, fmt.Errorf("POST %s: %w: %v", s.r.tokPath, apierr.ErrUnexpectedResponse, err)
}
