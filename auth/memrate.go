package auth

import (
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"
)

// memLimiter is one key's limit in a MemoryStore.
type memLimiter struct {
	lim  *rate.Limiter
	used time.Time // the last turn taken, to forget limits no one uses
}

// idleLimit is how long a MemoryStore keeps a limit no one took a turn
// of: long enough for its bucket to be full again at any rate above one a
// minute, after which a new one is the same.
const idleLimit = 2 * time.Minute

// TakeTurn implements RateLimiter for the Pools and Clients of one process
// that share the MemoryStore, with golang.org/x/time/rate.
func (s *MemoryStore) TakeTurn(ctx context.Context, key string, perMinute, burst int) error {
	if perMinute <= 0 || burst <= 0 {
		return errors.New("auth: TakeTurn needs a positive rate and burst")
	}
	now := time.Now()
	s.mu.Lock()
	if s.limits == nil {
		s.limits = make(map[string]*memLimiter)
	}
	l, ok := s.limits[key]
	if !ok {
		if len(s.limits) >= 2*s.limitsKept+16 {
			for k, o := range s.limits {
				if now.Sub(o.used) > idleLimit {
					delete(s.limits, k)
				}
			}
			s.limitsKept = len(s.limits)
		}
		l = &memLimiter{lim: rate.NewLimiter(rate.Limit(float64(perMinute)/60), burst)}
		s.limits[key] = l
	}
	l.used = now
	lim := l.lim
	s.mu.Unlock()
	if err := lim.Wait(ctx); err != nil {
		if ctx.Err() == nil {
			return context.DeadlineExceeded // rate's own text says only that the wait would pass it
		}
		return context.Cause(ctx)
	}
	return nil
}
