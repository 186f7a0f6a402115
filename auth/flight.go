package auth

import "context"

// pending is one refresh or mint in progress. Every caller that needs the
// token meanwhile waits on the same pending, so one request reaches the
// service however many goroutines ask; each caller can still give up on its
// own context while the work carries on for the others.
type pending struct {
	done chan struct{}
	val  string
	err  error
}

func newPending() *pending { return &pending{done: make(chan struct{})} }

func (p *pending) wait(ctx context.Context) (string, error) {
	select {
	case <-p.done:
		return p.val, p.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// finish records the result and wakes every waiter.
func (p *pending) finish(val string, err error) {
	p.val, p.err = val, err
	close(p.done)
}
