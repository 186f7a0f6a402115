package tokens

import (
	"context"
	"sync"
	"time"
)

// pending is one refresh or mint in progress, which every caller that needs
// the token meanwhile waits for, each on its own context.
type pending[T any] struct {
	done chan struct{}
	val  T
	err  error
}

func newPending[T any]() *pending[T] { return &pending[T]{done: make(chan struct{})} }

func (p *pending[T]) wait(ctx context.Context) (T, error) {
	select {
	case <-p.done:
		return p.val, p.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// finish records the result and wakes every waiter.
func (p *pending[T]) finish(val T, err error) {
	p.val, p.err = val, err
	close(p.done)
}

// flights counts the refreshes and mints in flight, so that Close can wait
// for them rather than cancel one: a refresh cut short after its request
// left could spend a refresh token whose successor is never saved. The
// zero value is ready to use.
type flights struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil before the first flight
}

// wait waits until no flight is left, or ctx ends.
func (f *flights) wait(ctx context.Context) error {
	f.mu.Lock()
	idle := f.idle
	f.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// goFlight runs fn in a goroutine counted by every f.
func goFlight(fn func(), fs ...*flights) {
	for _, f := range fs {
		f.mu.Lock()
		if f.n == 0 {
			f.idle = make(chan struct{})
		}
		f.n++
		f.mu.Unlock()
	}
	go func() {
		defer func() {
			for _, f := range fs {
				f.mu.Lock()
				if f.n--; f.n == 0 {
					close(f.idle)
				}
				f.mu.Unlock()
			}
		}()
		fn()
	}()
}

// aheadShare: a call that finds its token within the last tenth of the
// time before its margin goes on with it and starts its replacement in the
// background; only a token inside the margin, or none, makes a call wait.
// The token's whole lifetime, not what is left of it, sets both windows, so
// that every process sharing it finds it due at the same moment.
const aheadShare = 10

// due is how long before its expiry a token whose whole lifetime is life
// and whose margin is margin is replaced in the background.
func due(life, margin time.Duration) time.Duration {
	return margin + max(life-margin, 0)/aheadShare
}

// lifeOf returns a token's whole lifetime: expiresIn seconds, or when that
// is unknown (0), what is left of it now.
func lifeOf(expiresIn int64, exp time.Time) time.Duration {
	if expiresIn > 0 {
		return time.Duration(expiresIn) * time.Second
	}
	return max(time.Until(exp), 0)
}

// wholeSeconds is a lifetime in the whole seconds it is shared in (at least
// 1), which the process that received the token uses too.
func wholeSeconds(d time.Duration) int64 {
	return max(int64((d+time.Second/2)/time.Second), 1)
}
