package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
	"github.com/locsvc/partner-go/webhook"
)

// The cross-process tests run the test binary again as child processes,
// which find what to do in these variables.
const (
	envChild = "PARTNER_REDISSTORE_CHILD" // "leases", "dedup", "pools" or "pacing"
	envURL   = "PARTNER_REDISSTORE_CHILD_URL"
	envRun   = "PARTNER_REDISSTORE_CHILD_RUN" // the run's key prefix
	envIndex = "PARTNER_REDISSTORE_CHILD_INDEX"
)

const (
	processes  = 5
	goroutines = 10
	rounds     = 10
	grants     = 3 // per round
)

// TestLeasesAcrossProcesses: 5 processes x 10 goroutines ask for the due
// tokens of the same grants, 10 rounds: per grant, kind and round exactly
// one holds the lease and commits, and all take its token.
func TestLeasesAcrossProcesses(t *testing.T) {
	rdb, run := runChildren(t, "leases")
	ctx := t.Context()
	for r := range rounds {
		for g := range grants {
			for _, kind := range []auth.TokenKind{auth.KindAccess, auth.KindInstallation} {
				k := fmt.Sprintf("%s:%s:%d:%d", run, kind, r, g)
				if n, _ := rdb.Get(ctx, k+":wins").Int(); n != 1 {
					t.Errorf("round %d, grant %d, %s: %d lease winners across processes, want 1", r, g, kind, n)
				}
				if n, _ := rdb.SCard(ctx, k+":seen").Result(); n != 1 {
					t.Errorf("round %d, grant %d, %s: the workers got %d different tokens, want 1", r, g, kind, n)
				}
			}
		}
	}
}

// TestDedupAcrossProcesses: 5 processes x 10 goroutines receive the same
// deliveries, 10 rounds: each event's callback runs once.
func TestDedupAcrossProcesses(t *testing.T) {
	rdb, run := runChildren(t, "dedup")
	ctx := t.Context()
	for r := range rounds {
		if n, _ := rdb.Get(ctx, fmt.Sprintf("%s:runs:%d", run, r)).Int(); n != 1 {
			t.Errorf("round %d: the callback ran %d times across processes, want 1", r, n)
		}
	}
}

// runChildren starts a Redis, runs the child processes of mode against it
// and waits for them; it returns a client and the run's key prefix.
func runChildren(t *testing.T, mode string) (*redis.Client, string) {
	if os.Getenv(envChild) != "" {
		t.Skip("in a child process")
	}
	srv := startRedis(t)
	run := "test:" + grantID(t, "run")
	startChildren(t, processes, mode, srv.url, run)()
	return srv.client(t), run
}

// startChildren starts n child processes of mode on the Redis at url,
// with the run's key prefix and env added to their environment; the
// function it returns waits for them and fails t for each that failed.
func startChildren(t *testing.T, n int, mode, url, run string, env ...string) (wait func()) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestChildProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), envChild+"="+mode, envURL+"="+url, envRun+"="+run, envIndex+"="+strconv.Itoa(i))
			cmd.Env = append(cmd.Env, env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("child process %d: %v\n%s", i, err, out)
			}
		})
	}
	return wg.Wait
}

// TestChildProcess is the body of a child process; it does nothing in a
// plain test run.
func TestChildProcess(t *testing.T) {
	mode := os.Getenv(envChild)
	if mode == "" {
		t.Skip("runs only as a child of a cross-process test")
	}
	opt, err := redis.ParseURL(os.Getenv(envURL))
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opt)
	defer rdb.Close()
	run, me := os.Getenv(envRun), os.Getenv(envIndex)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	switch mode {
	case "pools":
		childPools(ctx, t, rdb, run)
		return
	case "pacing":
		childPacing(ctx, t, rdb, run)
		return
	}
	s := redisstore.New(rdb, &redisBacking{rdb: rdb, prefix: run + ":backing:"})
	d := redisstore.NewDedup(rdb)

	var wg sync.WaitGroup
	for w := range goroutines {
		wg.Go(func() {
			who := me + "/" + strconv.Itoa(w)
			for r := range rounds {
				if err := barrier(ctx, rdb, fmt.Sprintf("%s:barrier:%d", run, r)); err != nil {
					t.Error(err)
					return
				}
				var err error
				if mode == "leases" {
					err = leaseRound(ctx, s, rdb, run, r, w%grants, who)
				} else {
					err = dedupRound(ctx, d, rdb, run, r, who)
				}
				if err != nil {
					t.Errorf("%s, round %d: %v", who, r, err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// leaseRound obtains both tokens of the round's grant g, counting a win
// and the token got.
func leaseRound(ctx context.Context, s *redisstore.Store, rdb *redis.Client, run string, r, g int, who string) error {
	grant := fmt.Sprintf("%s-%d-%d", run, r, g)
	for _, kind := range []auth.TokenKind{auth.KindAccess, auth.KindInstallation} {
		tok, won, err := obtain(ctx, s, grant, kind, who)
		if err != nil {
			return err
		}
		k := fmt.Sprintf("%s:%s:%d:%d", run, kind, r, g)
		if won {
			rdb.Incr(ctx, k+":wins")
		}
		rdb.SAdd(ctx, k+":seen", tok.AccessToken)
	}
	return nil
}

// dedupRound delivers the round's event as a webhook handler would.
func dedupRound(ctx context.Context, d *redisstore.Dedup, rdb *redis.Client, run string, r int, who string) error {
	id := fmt.Sprintf("%s-event-%d", run, r)
	st, err := d.Claim(ctx, id, who, 10*time.Second)
	if err != nil || st != webhook.Claimed {
		return err
	}
	rdb.Incr(ctx, fmt.Sprintf("%s:runs:%d", run, r)) // the callback
	return d.Done(ctx, id, time.Hour)
}

// barrier waits until every goroutine of every process reached key.
func barrier(ctx context.Context, rdb *redis.Client, key string) error {
	if err := rdb.Incr(ctx, key).Err(); err != nil {
		return err
	}
	for {
		n, err := rdb.Get(ctx, key).Int()
		if err != nil {
			return err
		}
		if n >= processes*goroutines {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("barrier %s: %d arrived: %w", key, n, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// redisBacking is a Store of record the child processes share, standing in
// for a database: each token as JSON under prefix+grant.
type redisBacking struct {
	rdb    *redis.Client
	prefix string
}

func (b *redisBacking) Load(ctx context.Context, grantID string) (*oauth2.Token, error) {
	data, err := b.rdb.Get(ctx, b.prefix+grantID).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, auth.ErrNoToken
	}
	if err != nil {
		return nil, err
	}
	var tok oauth2.Token
	return &tok, json.Unmarshal(data, &tok)
}

func (b *redisBacking) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	data, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	return b.rdb.Set(ctx, b.prefix+grantID, data, 0).Err()
}
