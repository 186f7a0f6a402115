package redisstore_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// testServer is a redis-server the test started, or the one
// PARTNER_TEST_REDIS_URL names.
type testServer struct {
	url  string
	cmd  *exec.Cmd // nil for PARTNER_TEST_REDIS_URL's
	done chan struct{}
}

// startRedis returns a Redis for t: PARTNER_TEST_REDIS_URL's when set,
// else a redis-server of its own on a random loopback port, with no
// persistence, in a temporary directory, stopped by its PID when t ends.
// It skips t when neither is at hand.
func startRedis(t testing.TB) *testServer {
	t.Helper()
	if u := os.Getenv("PARTNER_TEST_REDIS_URL"); u != "" {
		return &testServer{url: u}
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redis-server not found: apt-get install redis-server (or set PARTNER_TEST_REDIS_URL)")
	}
	var lastErr error
	for range 5 { // a port picked free can be taken before the server binds it
		s, err := tryStart(t, bin)
		if err == nil {
			return s
		}
		lastErr = err
	}
	t.Fatalf("starting redis-server: %v", lastErr)
	return nil
}

func tryStart(t testing.TB, bin string) (*testServer, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	dir := t.TempDir()
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", dir, "--logfile", dir+"/redis.log")
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &testServer{url: fmt.Sprintf("redis://127.0.0.1:%d/0", port), cmd: cmd, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(s.done) }()
	t.Cleanup(s.stop)
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", port)})
	defer rdb.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		select {
		case <-s.done:
			log, _ := os.ReadFile(dir + "/redis.log")
			return nil, fmt.Errorf("redis-server exited: %s", log)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return s, nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return nil, fmt.Errorf("redis-server did not answer: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stop kills the server the test started, by its PID, and waits for it.
func (s *testServer) stop() {
	if s.cmd == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Kill()
	<-s.done
}

// client returns a client of the server, closed when t ends.
func (s *testServer) client(t testing.TB) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(s.url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// newClient starts (or finds) a Redis and returns a client of it.
func newClient(t testing.TB) *redis.Client {
	t.Helper()
	return startRedis(t).client(t)
}

// grantID returns a grant id unique to this run, so that tests sharing
// PARTNER_TEST_REDIS_URL's server do not meet.
func grantID(t testing.TB, name string) string {
	return fmt.Sprintf("%s-%s-%s", t.Name(), name, rand.Text()[:8])
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
