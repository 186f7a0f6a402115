package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/redisstore"
)

// Timing of TestPacingAcrossProcesses.
const (
	pacingReplicas   = 6
	pacingGoroutines = 8
	pacingFor        = 40 * time.Second
	envPacingStart   = "PARTNER_REDISSTORE_CHILD_START" // Unix ms at which the children start together
)

// TestPacingAcrossProcesses: 6 replica processes, each a Pool on
// redisstore with the default Pacing and 8 goroutines, call one grant as
// fast as pacing lets them for 40 s of real time, against the service's
// cap of 1,000 requests a minute per installation token. They share the
// installation token and take their turns from its one limit in Redis
// (redis_rate): the service answers no 429, no call fails, and together
// they send at least 70% of what the pace allows (a burst of 50 and 900 a
// minute). Each pacing alone, they would send six times the pace.
func TestPacingAcrossProcesses(t *testing.T) {
	if os.Getenv(envChild) != "" {
		t.Skip("in a child process")
	}
	if testing.Short() {
		t.Skip("40 s of real time")
	}
	ctx := t.Context()
	srv := partnertest.NewServer(partnertest.WithRateLimit(1000))
	t.Cleanup(srv.Close)
	rs := startRedis(t)
	rdb := rs.client(t)
	run := "test:" + grantID(t, "run")
	backing := fileStore{dir: t.TempDir()}
	g := srv.NewGrant()
	if err := backing.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(3 * time.Second) // the processes are up by then
	startChildren(t, pacingReplicas, "pacing", rs.url, run,
		envAPI+"="+srv.URL, envAuth+"="+srv.AuthURL,
		envClient+"="+srv.ClientID(), envSecret+"="+srv.ClientSecret(),
		envStoreDir+"="+backing.dir, envGrants+"="+g.ID,
		envPacingStart+"="+strconv.FormatInt(start.UnixMilli(), 10))()
	ok, _ := rdb.Get(ctx, run+":ok").Int()
	failed, _ := rdb.Get(ctx, run+":failed").Int()
	refusals := 0
	for _, r := range srv.Requests() {
		if r.Status == 429 {
			refusals++
		}
	}
	allowed := partner.DefaultPacingBurst + partner.DefaultPacingPerMinute*int(pacingFor/time.Second)/60
	t.Logf("%d processes x %d goroutines, %v: %d calls (the pace allows %d, %.0f%%), %d failed, %d answers 429",
		pacingReplicas, pacingGoroutines, pacingFor, ok, allowed, 100*float64(ok)/float64(allowed), failed, refusals)
	if refusals != 0 || failed != 0 {
		t.Errorf("%d answers 429 and %d failed calls; want none", refusals, failed)
	}
	if ok < allowed*7/10 {
		t.Errorf("%d calls; want at least 70%% of %d", ok, allowed)
	}
}

// childPacing is the body of a child process of TestPacingAcrossProcesses.
func childPacing(ctx context.Context, t *testing.T, rdb *redis.Client, run string) {
	p, err := partner.NewPool(partner.PoolConfig{
		BaseURL: os.Getenv(envAPI), AuthURL: os.Getenv(envAuth),
		ClientID: os.Getenv(envClient), ClientSecret: os.Getenv(envSecret),
		Store: redisstore.New(rdb, fileStore{dir: os.Getenv(envStoreDir)}),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ms, err := strconv.ParseInt(os.Getenv(envPacingStart), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	start := time.UnixMilli(ms)
	time.Sleep(time.Until(start))
	id := os.Getenv(envGrants)
	var ok, failed int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range pacingGoroutines {
		wg.Go(func() {
			ctx, cancel := context.WithDeadline(ctx, start.Add(pacingFor))
			defer cancel()
			for {
				c, err := p.Client(ctx, id)
				if err == nil {
					_, err = c.Organizations.List(ctx)
				}
				if ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
					return // the time is up, or the next turn comes after it
				}
				mu.Lock()
				if err == nil {
					ok++
				} else {
					failed++
					t.Error(fmt.Errorf("call: %w", err))
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	rdb.IncrBy(context.Background(), run+":ok", ok)
	rdb.IncrBy(context.Background(), run+":failed", failed)
}
