package partnertest

import (
	"context"
	"errors"
	"net"
	"sync"
)

var errNoMemServer = errors.New("partnertest: no in-memory server at this address")

// memAddr is a memListener's address: a host name and port that no
// resolver knows.
type memAddr string

func (a memAddr) Network() string { return "tcp" }
func (a memAddr) String() string  { return string(a) }

// memListener is a net.Listener whose connections are net.Pipe pairs made
// by dial. Goroutines blocked on it are durably blocked in the sense of
// testing/synctest, unlike goroutines blocked on a socket.
type memListener struct {
	addr  memAddr
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newMemListener(addr string) *memListener {
	return &memListener{addr: memAddr(addr), conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *memListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *memListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *memListener) Addr() net.Addr { return l.addr }

// dial returns the client end of a new connection, once Accept has taken
// the server end.
func (l *memListener) dial(ctx context.Context) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
		client.Close()
		server.Close()
		return nil, &net.OpError{Op: "dial", Net: "tcp", Addr: l.addr, Err: net.ErrClosed}
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
}
