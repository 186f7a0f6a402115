package tokens

import "context"

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
