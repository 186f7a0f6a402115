package tokens

import (
	"context"
	"sync"
	"time"
)

// pending is one refresh or mint in progress. Every caller that needs the
// token meanwhile waits on the same pending, so one request reaches the
// service however many goroutines ask; each caller can still give up on its
// own context while the work carries on for the others.
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
// for them: none is cancelled, since a refresh cut short after its request
// left could spend a refresh token whose successor is never saved. Each
// ends within the Timeout. The zero value is ready to use.
type flights struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed when n drops to 0; nil before the first flight
}

func (f *flights) start() {
	f.mu.Lock()
	if f.n == 0 {
		f.idle = make(chan struct{})
	}
	f.n++
	f.mu.Unlock()
}

func (f *flights) end() {
	f.mu.Lock()
	if f.n--; f.n == 0 {
		close(f.idle)
	}
	f.mu.Unlock()
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
		f.start()
	}
	go func() {
		defer func() {
			for _, f := range fs {
				f.end()
			}
		}()
		fn()
	}()
}

// Refreshing ahead: a token is used until its margin (EarlyRefresh for
// access tokens, Margin for installation tokens) before it expires, and a
// call that finds it within the last tenth of the time before that margin
// starts its replacement in the background and goes on with it; only a
// call that finds it inside the margin, or none, makes a call wait. So a
// token is replaced after nine tenths of the time it would be used for
// without refreshing ahead. A token's whole lifetime, not what is left of
// it when a process took it, sets both windows, so that every process
// sharing it through a Store finds it due at the same moment.
const aheadShare = 10

// ahead is how long before its margin a token whose whole lifetime is
// life is replaced in the background.
func ahead(life, margin time.Duration) time.Duration {
	return max(life-margin, 0) / aheadShare
}

// lifeOf returns a token's whole lifetime: expiresIn seconds as shared
// with it, or, when that is unknown (0: a token an older version shared),
// what is left of it now.
func lifeOf(expiresIn int64, exp time.Time) time.Duration {
	if expiresIn > 0 {
		return time.Duration(expiresIn) * time.Second
	}
	return max(time.Until(exp), 0)
}

// wholeSeconds is a lifetime in the whole seconds it is shared in
// (oauth2.Token's ExpiresIn), at least 1; the process that received the
// token uses the rounded value too, so that it agrees with the others.
func wholeSeconds(d time.Duration) int64 {
	return max(int64((d+time.Second/2)/time.Second), 1)
}
