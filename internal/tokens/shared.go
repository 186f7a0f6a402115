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
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
)

// With a Store that is an auth.Leaser, a due access token is refreshed
// under the grant's lease, after this process's own single flight, and
// with an auth.InstallationCache too installation tokens are minted the
// same way: package auth states the protocol and the Store outage policy,
// whose opt-in exception is LocalRefreshOnStoreError.

// LeaseSlack is added to Timeout for a lease's default time to live, so
// that a holder ends its refresh or mint before another may take over.
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

// DropInstallation deletes the grant's shared installation token, if any:
// the grant got a new OAuth token. A failure is only logged: the shared
// token expires by itself.
func (r *Refresher) DropInstallation(ctx context.Context, grantID string) {
	c, ok := r.cfg.Store.(auth.InstallationCache)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	if err := c.DeleteInstallation(ctx, grantID); err != nil && r.cfg.Logger != nil {
		r.cfg.Logger.LogAttrs(ctx, slog.LevelWarn, "partner: deleting the shared installation token failed",
			slog.String("grant", grantID), slog.String("error", err.Error()))
	}
}

// waitTurn waits before looking at a held lease again: exponential backoff
// from leaseWaitMin to leaseWaitMax, with jitter.
func waitTurn(ctx context.Context, attempt int) error {
	d := min(leaseWaitMin<<min(attempt, 10), leaseWaitMax)
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

// release ends a lease without saving, on a context of its own (the
// refresh's may have ended); a failure only lets the lease run out.
func release(ctx context.Context, l auth.Leaser, lease *auth.Lease) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abandonTimeout)
	defer cancel()
	_ = l.AbandonLease(ctx, lease)
}

// storeError wraps a failure of a Store that shares tokens: temporary,
// never final.
func (s *AccessSource) storeError(what string, err error) error {
	return fmt.Errorf("partner: grant %s: %s: %w: %w", s.grantID, what, apierr.ErrTemporary, err)
}

// obtainShared is obtain for a Store that is an auth.Leaser.
func (s *AccessSource) obtainShared(ctx context.Context, l auth.Leaser, st state, gen uint64) outcome {
	if !st.have {
		st.margin, st.life = s.r.cfg.EarlyRefresh, 0
	}
	if st.unsaved && st.lease != nil {
		// Refreshed earlier, but the commit failed: commit before use.
		err := l.CommitLease(ctx, st.lease, &st.tok)
		switch {
		case err == nil:
			return took(st.tok, st.margin, lifeOf(st.tok.ExpiresIn, st.tok.Expiry))
		case !errors.Is(err, auth.ErrLeaseLost):
			return outcome{err: s.storeError("saving the refreshed token (it will be saved again before use)", err)}
		}
		s.debug(ctx, "partner: a refreshed token lost its lease and is dropped")
	}
	if st.lateSave {
		// In use while the Store was out of reach: saved before a refresh.
		if err := s.r.cfg.Store.Save(ctx, s.grantID, &st.tok); err != nil {
			return s.storeDown(ctx, err, st, gen)
		}
	}
	retried := false
	for attempt := 0; ; attempt++ {
		d := st.due()
		if st.invalid != "" {
			d = forever // the service refused a token the Store may still hold
		}
		lease, stored, err := l.AcquireLease(ctx, s.grantID, auth.KindAccess, d, s.r.cfg.LeaseTTL)
		s.r.lease(ctx, auth.KindAccess, lease, err)
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
			time.Until(stored.Expiry) > st.due() {
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
				// Before the grant is declared gone: has the Store a newer one?
				if _, ok := s.newer(ctx, from.RefreshToken); ok {
					retried, st.invalid = true, ""
					continue
				}
			}
			return o
		}
		err = l.CommitLease(ctx, lease, &o.next.tok)
		switch {
		case err == nil:
			return o
		case errors.Is(err, auth.ErrLeaseLost): // the stored token is the grant's
			s.r.lease(ctx, auth.KindAccess, nil, err)
			s.debug(ctx, "partner: a refreshed token lost its lease and is dropped")
			st.invalid = ""
			continue
		case s.r.cfg.LocalRefreshOnStoreError:
			o.next.lateSave = true
			return o
		default:
			o.next.unsaved, o.next.lease, o.val = true, lease, ""
			o.err = s.storeError("saving the refreshed token (it will be saved again before use)", err)
			return o
		}
	}
}

// adopt takes a token another process stored (not due) as the grant's;
// st.tok's refresh token, if another, was retired by that process.
func (s *AccessSource) adopt(stored *oauth2.Token, st state) outcome {
	t := *stored.WithExtra(nil)
	life := lifeOf(t.ExpiresIn, t.Expiry)
	o := took(t, s.r.marginFor(life), life)
	o.kind = hooks.Stored
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
	o.next.lateSave = s.save(ctx, &o.next.tok, gen, o.sent) != nil
	return o
}

// obtain returns an installation token: a fresh one another process shared
// that is not bad (due by its lifetime, or by due if shared without it),
// else a new mint, shared. renew always mints.
func (s *InstallationSource) obtain(ctx context.Context, due time.Duration, bad string, renew bool) (Minted, error) {
	a := s.cfg.Access
	c, ok := a.r.cfg.Store.(auth.InstallationCache)
	if !ok {
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
	var t *oauth2.Token
	var err error
	if !renew {
		if t, err = c.LoadInstallation(ctx, a.grantID); err == nil && fresh(t) {
			return shared(t), nil
		}
	}
	l, ok := a.r.cfg.Store.(auth.Leaser)
	if renew || !ok {
		m, err := s.mintNow(ctx)
		if err == nil {
			if err := c.SaveInstallation(ctx, a.grantID, m.oauth2()); err != nil { // costs others a mint
				a.debug(ctx, "partner: the minted installation token was not shared", slog.String("error", err.Error()))
			}
		}
		return m, err
	}
	switch {
	case err != nil && !errors.Is(err, auth.ErrNoToken): // the cache is out of reach
		a.debug(ctx, "partner: minting without the shared cache", slog.String("error", err.Error()))
		return s.mintNow(ctx)
	case err == nil && t.ExpiresIn > 0: // the Store's due check by its lifetime
		due = s.dueFor(lifeOf(t.ExpiresIn, t.Expiry))
	}
	for attempt := 0; ; attempt++ {
		d := due
		if bad != "" {
			d = forever
		}
		lease, stored, err := l.AcquireLease(ctx, a.grantID, auth.KindInstallation, d, a.r.cfg.LeaseTTL)
		a.r.lease(ctx, auth.KindInstallation, lease, err)
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
		// A commit refused or failed leaves a token used here, not shared.
		if err := l.CommitLease(ctx, lease, m.oauth2()); err != nil {
			a.debug(ctx, "partner: the minted installation token was not shared", slog.String("error", err.Error()))
		}
		return m, nil
	}
}

// shared is the Minted of a token taken from the cache.
func shared(t *oauth2.Token) Minted {
	m := Minted{Token: t.AccessToken, Expiry: t.Expiry, stored: true}
	if t.ExpiresIn > 0 {
		m.Life = lifeOf(t.ExpiresIn, t.Expiry)
	}
	return m
}

// oauth2 is m in the form InstallationCache shares it, with its lifetime.
func (m Minted) oauth2() *oauth2.Token {
	return &oauth2.Token{AccessToken: m.Token, TokenType: "Bearer", Expiry: m.Expiry, ExpiresIn: int64(m.Life / time.Second)}
}
