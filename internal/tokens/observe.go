package tokens

import (
	"context"
	"errors"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/hooks"
)

// The hooks' call sites: each costs nothing when its hook is nil.

// now is the time a timed event starts, or zero without hooks.
func (r *Refresher) now() time.Time {
	if h := r.cfg.Hooks; h != nil && (h.Token != nil || h.Pacing != nil) {
		return time.Now()
	}
	return time.Time{}
}

// token tells the Token hook of token work started at start.
func (r *Refresher) token(ctx context.Context, kind hooks.TokenKind, ahead bool, start time.Time, err error) {
	if h := r.cfg.Hooks; h != nil && h.Token != nil {
		var d time.Duration
		if !start.IsZero() {
			d = time.Since(start)
		}
		h.Token(ctx, hooks.Token{Kind: kind, Ahead: ahead, Duration: d, Err: err})
	}
}

// lease tells the Lease hook what AcquireLease (or CommitLease) gave.
func (r *Refresher) lease(ctx context.Context, kind auth.TokenKind, lease *auth.Lease, err error) {
	h := r.cfg.Hooks
	if h == nil || h.Lease == nil {
		return
	}
	var o hooks.LeaseOutcome
	switch {
	case errors.Is(err, auth.ErrLeaseHeld):
		o = hooks.Held
	case errors.Is(err, auth.ErrLeaseLost):
		o = hooks.Lost
	case err == nil && lease != nil:
		o = hooks.Acquired
	default:
		return // the Store's fresh token (told as a Token event), or out of reach
	}
	h.Lease(ctx, hooks.Lease{Kind: string(kind), Outcome: o})
}

// paced tells the Pacing hook of a wait for a turn that started at start.
func (r *Refresher) paced(ctx context.Context, start time.Time, shared bool) {
	if h := r.cfg.Hooks; h != nil && h.Pacing != nil {
		h.Pacing(ctx, hooks.Pacing{Wait: time.Since(start), Shared: shared})
	}
}
