package redisstore_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
)

// TestRedisOutageKeepsUsersConnected: with Redis gone, the token is still
// loaded from the backing store and saved to it; what needs Redis fails
// with an error that is not ErrLeaseHeld, so no caller waits for a lease.
func TestRedisOutageKeepsUsersConnected(t *testing.T) {
	if os.Getenv("PARTNER_TEST_REDIS_URL") != "" {
		t.Skip("stops the server: needs a redis-server of its own")
	}
	srv := startRedis(t)
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	// No retries: the test is about what fails, not how long go-redis
	// tries (by default 4 attempts of 5 dials each, about 1.7 s a call
	// against a refused port).
	opt, err := redis.ParseURL(srv.url)
	if err != nil {
		t.Fatal(err)
	}
	opt.MaxRetries, opt.DialerRetries = -1, 1
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	s := redisstore.New(rdb, backing)
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	srv.stop()

	tok, err := s.Load(ctx, g)
	if err != nil || tok.AccessToken != "at-1" {
		t.Fatalf("Load with Redis down = %+v, %v; want the backing store's token", tok, err)
	}
	if err := s.Save(ctx, g, token("2", time.Hour)); err != nil {
		t.Fatalf("Save with Redis down: %v", err)
	}
	if tok, _ := backing.Load(ctx, g); tok.AccessToken != "at-2" {
		t.Errorf("backing store has %q after Save with Redis down", tok.AccessToken)
	}
	_, _, err = s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err == nil || errors.Is(err, auth.ErrLeaseHeld) {
		t.Errorf("AcquireLease with Redis down: %v, want Redis's error", err)
	}
	if _, err := s.LoadInstallation(ctx, g); err == nil || errors.Is(err, auth.ErrNoToken) {
		t.Errorf("LoadInstallation with Redis down: %v, want Redis's error", err)
	}
	// Pacing: Redis's error at once, not ctx's (the SDK then paces in its
	// process).
	if err := s.TakeTurn(ctx, "pace:k", 900, 50); err == nil || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		t.Errorf("TakeTurn with Redis down: %v, want Redis's error", err)
	}
}
