package tokens

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
)

// Sharing tokens between processes.
//
// When the Store is an auth.Leaser, the processes sharing it refresh each
// grant's access token one at a time, after this process's own single
// flight (one refresh in flight per grant and process):
//
//   - AcquireLease(KindAccess, due = the token's margin, ttl = LeaseTTL).
//     A stored token that is not due is taken as is, without a refresh.
//   - ErrLeaseHeld: another process is refreshing. Wait (backoff with
//     jitter, bounded by the refresh's Timeout and the caller's patience)
//     and look again; the holder's token is then taken, or the lease,
//     once its ttl ran out.
//   - The lease taken: refresh with the stored refresh token (the newest),
//     outside any store transaction, and CommitLease. ErrLeaseLost (the
//     lease ran out and another took it, or the application saved a new
//     token): the refreshed token is never used; the stored one is taken
//     instead. A failed refresh abandons the lease and is classified as
//     without a Leaser.
//
// When the Store is an auth.InstallationCache too, installation tokens are
// shared the same way: LoadInstallation first; when none is fresh,
// AcquireLease(KindInstallation), mint, CommitLease. A new OAuth token for
// the grant (SetToken, a newer token adopted from the Store) deletes the
// shared installation token.
//
// Store outage policy: a fresh token in memory keeps working (the hot
// path makes no store call). An access token that is due fails closed:
// the call returns an error wrapping the store's, ErrTemporary (not
// final), and the next call tries again; unless Config's
// LocalRefreshOnStoreError is set, which refreshes with the refresh token
// in memory and uses the answer before it is saved (saved later, before
// the next refresh). That is unsafe when the service rotates refresh
// tokens: this process learns of a rotation only by spending the old
// refresh token, which other processes still read from the Store. An
// installation token is minted locally when the cache cannot be reached:
// a mint spends nothing.

// LeaseSlack is added to Timeout for a lease's default time to live, so
// that a holder has ended its refresh or mint before another may take over.
const LeaseSlack = 10 * time.Second

// Backoff of a process waiting for another's lease.
const (
	leaseWaitMin = 50 * time.Millisecond
	leaseWaitMax = 2 * time.Second
)

// abandonTimeout bounds the AbandonLease and DeleteInstallation calls made
// after the caller's context may have ended.
const abandonTimeout = 5 * time.Second

// forever is a due duration that makes any token due.
const forever = 100 * 365 * 24 * time.Hour

// leaser returns the Store as an auth.Leaser, or nil.
func (r *Refresher) leaser() auth.Leaser {
	l, _ := r.cfg.Store.(auth.Leaser)
	return l
}

// rateLimiter returns the Store as an auth.RateLimiter, or nil.
func (r *Refresher) rateLimiter() auth.RateLimiter {
	l, _ := r.cfg.Store.(auth.RateLimiter)
	return l
}

// installationCache returns the Store as an auth.InstallationCache, or nil.
func (r *Refresher) installationCache() auth.InstallationCache {
	c, _ := r.cfg.Store.(auth.InstallationCache)
	return c
}

// DropInstallation deletes the grant's shared installation token, when the
// Store shares them: the grant got a new OAuth token. A failure is logged
// and otherwise ignored: the shared token expires by itself.
func (r *Refresher) DropInstallation(ctx context.Context, grantID string) {
	c := r.installationCache()
	if c == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	if err := c.DeleteInstallation(ctx, grantID); err != nil && r.cfg.Logger != nil {
		r.cfg.Logger.LogAttrs(ctx, slog.LevelWarn, "partner: deleting the shared installation token failed",
			slog.String("grant", grantID), slog.String("error", err.Error()))
	}
}

// waitTurn waits before looking at a held lease again: attempt 0 waits
// leaseWaitMin, each next one twice as long up to leaseWaitMax, with
// jitter so that waiting processes spread out.
func waitTurn(ctx context.Context, attempt int) error {
	d := leaseWaitMin << min(attempt, 10)
	d = min(d, leaseWaitMax)
	d = d/2 + rand.N(d/2+1)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// release ends a lease without saving, on a context of its own: the
// refresh's may have ended. A failure only lets the lease run out.
func release(ctx context.Context, l auth.Leaser, lease *auth.Lease) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	_ = l.AbandonLease(ctx, lease)
}

// state is what refresh reads of the source before it obtains a token.
type state struct {
	tok      oauth2.Token
	have     bool
	unsaved  bool
	margin   time.Duration
	due      time.Duration // margin and the window of refreshing ahead
	lease    *auth.Lease
	lateSave bool
	invalid  string
}

// storeError wraps a failure of a Store that shares tokens: temporary,
// never final.
func (s *AccessSource) storeError(what string, err error) error {
	return fmt.Errorf("partner: grant %s: %s: %w: %w", s.grantID, what, apierr.ErrTemporary, err)
}

// obtainShared is obtain for a Store that is an auth.Leaser: see the
// comment at the top of this file.
func (s *AccessSource) obtainShared(ctx context.Context, l auth.Leaser, st state, gen uint64) outcome {
	if !st.have {
		st.margin, st.due = s.r.cfg.EarlyRefresh, s.r.cfg.EarlyRefresh
	}
	if st.unsaved && st.lease != nil {
		// Refreshed earlier, but the commit failed: commit before use.
		err := l.CommitLease(ctx, st.lease, &st.tok)
		switch {
		case err == nil:
			return outcome{val: st.tok.AccessToken, next: &st.tok, margin: st.margin, life: lifeOf(st.tok.ExpiresIn, st.tok.Expiry)}
		case !errors.Is(err, auth.ErrLeaseLost):
			return outcome{err: s.storeError("saving the refreshed token (it will be saved again before use)", err)}
		}
		// Lost: the token is never used; the holder that took over has
		// the grant's token.
		s.debug(ctx, "partner: a refreshed token lost its lease and is dropped")
	}
	if st.lateSave {
		// In use while the Store was out of reach: the Store must have
		// it before anything refreshes from there.
		if err := s.r.cfg.Store.Save(ctx, s.grantID, &st.tok); err != nil {
			return s.storeDown(ctx, err, st, gen)
		}
	}
	retried := false
	for attempt := 0; ; attempt++ {
		due := st.due
		if st.invalid != "" {
			due = forever // the service refused a token the Store may still hold
		}
		lease, stored, err := l.AcquireLease(ctx, s.grantID, auth.KindAccess, due, s.r.cfg.LeaseTTL)
		switch {
		case errors.Is(err, auth.ErrLeaseHeld):
			if err := waitTurn(ctx, attempt); err != nil {
				return outcome{err: s.storeError("waiting for another process's refresh of the token", err)}
			}
			continue
		case err != nil:
			return s.storeDown(ctx, err, st, gen)
		case lease == nil:
			return s.adopt(stored, st)
		}
		if stored != nil && stored.AccessToken != "" && stored.AccessToken != st.invalid &&
			time.Until(stored.Expiry) > st.due {
			// Leased only to look past a refused token: another process
			// refreshed it meanwhile.
			release(ctx, l, lease)
			return s.adopt(stored, st)
		}
		from := st.tok
		switch {
		case stored != nil:
			from = *stored.WithExtra(nil)
		case !st.have:
			release(ctx, l, lease)
			return outcome{final: true, err: fmt.Errorf("partner: grant %s: %w: %w", s.grantID, apierr.ErrReauthorizationRequired, auth.ErrNoToken)}
		}
		if from.RefreshToken == "" {
			release(ctx, l, lease)
			return outcome{final: true, err: s.gone("the stored token has no refresh token")}
		}
		o := s.exchange(ctx, from)
		if o.err != nil {
			release(ctx, l, lease)
			if o.final && errors.Is(o.err, apierr.ErrReauthorizationRequired) && !retried {
				// Before the grant is declared gone: has the Store a newer
				// token (the user connected again)?
				if t, err := s.r.cfg.Store.Load(ctx, s.grantID); err == nil && t != nil &&
					t.RefreshToken != "" && t.RefreshToken != from.RefreshToken {
					retried, st.invalid = true, ""
					continue
				}
			}
			return o
		}
		err = l.CommitLease(ctx, lease, o.next)
		switch {
		case err == nil:
			return o
		case errors.Is(err, auth.ErrLeaseLost):
			// Another process took over, or the application saved a new
			// token: that one is the grant's, and this one is never used.
			s.debug(ctx, "partner: a refreshed token lost its lease and is dropped")
			st.invalid = ""
			continue
		case s.r.cfg.LocalRefreshOnStoreError:
			o.lateSave = true
			return o
		default:
			o.unsaved, o.lease, o.val = true, lease, ""
			o.err = s.storeError("saving the refreshed token (it will be saved again before use)", err)
			return o
		}
	}
}

// adopt takes a token another process stored as the grant's; st.tok's
// refresh token, if another, was retired by that process's refresh.
func (s *AccessSource) adopt(stored *oauth2.Token, st state) outcome {
	t := *stored.WithExtra(nil)
	// The token's own margin, as the process that refreshed it keeps it,
	// from its whole lifetime. (Adopted only when the Store found it not
	// due.)
	life := lifeOf(t.ExpiresIn, t.Expiry)
	o := outcome{val: t.AccessToken, next: &t, margin: s.r.marginFor(life), life: life}
	if st.tok.RefreshToken != "" && st.tok.RefreshToken != t.RefreshToken {
		o.sent = st.tok.RefreshToken
	}
	return o
}

// storeDown applies the outage policy to a refresh that is due while the
// Store cannot be reached.
func (s *AccessSource) storeDown(ctx context.Context, err error, st state, gen uint64) outcome {
	if !s.r.cfg.LocalRefreshOnStoreError || !st.have || st.tok.RefreshToken == "" {
		return outcome{err: s.storeError("the Store could not be reached to refresh the token", err)}
	}
	s.debug(ctx, "partner: refreshing without the Store (LocalRefreshOnStoreError)")
	o := s.exchange(ctx, st.tok)
	if o.err != nil {
		return o
	}
	o.lateSave = s.save(ctx, o.next, gen, o.sent) != nil
	return o
}

// obtain returns an installation token: with a Store that shares them, one
// another process minted if it is fresh (it expires after its margin and
// window of minting ahead, see InstallationSource.dueFor; by due for a
// token shared without its lifetime) and is not bad; else a new mint,
// shared. renew always mints.
func (s *InstallationSource) obtain(ctx context.Context, due time.Duration, bad string, renew bool) (Minted, error) {
	a := s.cfg.Access
	c := a.r.installationCache()
	if c == nil {
		return s.mintNow(ctx)
	}
	fresh := func(t *oauth2.Token) bool {
		if t == nil || t.AccessToken == "" || t.AccessToken == bad {
			return false
		}
		d := due
		if t.ExpiresIn > 0 {
			d = s.dueFor(lifeOf(t.ExpiresIn, t.Expiry))
		}
		return time.Until(t.Expiry) > d
	}
	l := a.r.leaser()
	if renew || l == nil {
		if !renew {
			if t, err := c.LoadInstallation(ctx, a.grantID); err == nil && fresh(t) {
				return shared(t), nil
			}
		}
		m, err := s.mintNow(ctx)
		if err == nil {
			s.share(ctx, c, m)
		}
		return m, err
	}
	t, err := c.LoadInstallation(ctx, a.grantID)
	switch {
	case err == nil && fresh(t):
		return shared(t), nil
	case err != nil && !errors.Is(err, auth.ErrNoToken):
		// The cache is out of reach: mint here (a mint spends nothing).
		a.debug(ctx, "partner: minting without the shared cache", slog.String("error", err.Error()))
		return s.mintNow(ctx)
	case err == nil && t.ExpiresIn > 0:
		// The Store's due check goes by the shared token's own lifetime.
		due = s.dueFor(lifeOf(t.ExpiresIn, t.Expiry))
	}
	for attempt := 0; ; attempt++ {
		d := due
		if bad != "" {
			d = forever
		}
		lease, stored, err := l.AcquireLease(ctx, a.grantID, auth.KindInstallation, d, a.r.cfg.LeaseTTL)
		switch {
		case errors.Is(err, auth.ErrLeaseHeld):
			if err := waitTurn(ctx, attempt); err != nil {
				return Minted{}, a.storeError("waiting for another process's mint of the installation token", err)
			}
			continue
		case err != nil:
			a.debug(ctx, "partner: minting without the shared cache", slog.String("error", err.Error()))
			return s.mintNow(ctx)
		case lease == nil:
			return shared(stored), nil
		}
		if fresh(stored) {
			release(ctx, l, lease) // leased only to look past a bad token
			return shared(stored), nil
		}
		m, err := s.mintNow(ctx)
		if err != nil {
			release(ctx, l, lease)
			return m, err
		}
		// A commit refused or failed still leaves a valid token: it is
		// used here, only not shared.
		if err := l.CommitLease(ctx, lease, m.oauth2()); err != nil {
			a.debug(ctx, "partner: the minted installation token was not shared", slog.String("error", err.Error()))
		}
		return m, nil
	}
}

// shared is the Minted of a token taken from the cache.
func shared(t *oauth2.Token) Minted {
	m := Minted{Token: t.AccessToken, Expiry: t.Expiry}
	if t.ExpiresIn > 0 {
		m.Life = lifeOf(t.ExpiresIn, t.Expiry)
	}
	return m
}

// oauth2 is m in the form InstallationCache shares it, with its lifetime.
func (m Minted) oauth2() *oauth2.Token {
	return &oauth2.Token{AccessToken: m.Token, TokenType: "Bearer", Expiry: m.Expiry, ExpiresIn: int64(m.Life / time.Second)}
}

// share puts a minted token in the cache; a failure only costs other
// processes a mint.
func (s *InstallationSource) share(ctx context.Context, c auth.InstallationCache, m Minted) {
	if err := c.SaveInstallation(ctx, s.cfg.Access.grantID, m.oauth2()); err != nil {
		s.cfg.Access.debug(ctx, "partner: the minted installation token was not shared", slog.String("error", err.Error()))
	}
}
