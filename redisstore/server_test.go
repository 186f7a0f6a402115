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
	bin  string // empty for PARTNER_TEST_REDIS_URL's
	port int
	dir  string
	cmd  *exec.Cmd
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
		port, err := freePort()
		if err != nil {
			t.Fatal(err)
		}
		s := &testServer{url: fmt.Sprintf("redis://127.0.0.1:%d/0", port), bin: bin, port: port, dir: t.TempDir()}
		if lastErr = s.launch(t); lastErr == nil {
			return s
		}
	}
	t.Fatalf("starting redis-server: %v", lastErr)
	return nil
}

// restart starts the server again, empty, on the same port, after stop.
func (s *testServer) restart(t testing.TB) {
	t.Helper()
	if s.bin == "" {
		t.Fatal("restart of PARTNER_TEST_REDIS_URL's server")
	}
	if err := s.launch(t); err != nil {
		t.Fatalf("restarting redis-server: %v", err)
	}
}

// launch starts redis-server on s.port and waits until it answers.
func (s *testServer) launch(t testing.TB) error {
	cmd := exec.Command(s.bin, "--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--dir", s.dir, "--logfile", s.dir+"/redis.log")
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	s.cmd, s.done = cmd, done
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(s.stop)
	rdb := redis.NewClient(&redis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", s.port)})
	defer rdb.Close()
	for deadline := time.Now().Add(10 * time.Second); ; {
		select {
		case <-done:
			log, _ := os.ReadFile(s.dir + "/redis.log")
			return fmt.Errorf("redis-server exited: %s", log)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := rdb.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			s.stop()
			return fmt.Errorf("redis-server did not answer: %v", err)
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
