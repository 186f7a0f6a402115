package redisstore_test

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/redisstore"
)

// What a child process of TestPoolsAcrossProcesses needs, besides envURL,
// envRun and envIndex: the service's addresses and client credentials,
// the directory of the shared Store of record and the grants.
const (
	envAPI      = "PARTNER_REDISSTORE_CHILD_API_URL"
	envAuth     = "PARTNER_REDISSTORE_CHILD_AUTH_URL"
	envClient   = "PARTNER_REDISSTORE_CHILD_CLIENT_ID"
	envSecret   = "PARTNER_REDISSTORE_CHILD_CLIENT_SECRET"
	envStoreDir = "PARTNER_REDISSTORE_CHILD_STORE_DIR"
	envGrants   = "PARTNER_REDISSTORE_CHILD_GRANTS"
)

// Timing of TestPoolsAcrossProcesses: each round comes when both tokens
// of every grant need renewing, the access token due (62 s - the SDK's
// 60 s early refresh) and the installation token expired at the service.
const (
	procAccessLife       = 62 * time.Second
	procInstallationLife = 2500 * time.Millisecond
	procRoundEvery       = 3 * time.Second
	procGrants           = 5
)

// TestPoolsAcrossProcesses: 5 processes, each a replica with one Pool, its
// own Redis client and a redisstore.Store in front of a Store of record
// they share (files), serve the same grants from 10 goroutines each, 10
// rounds, with rotation and reuse detection on. Each round needs a new
// access and installation token of every grant: the service answers
// exactly one refresh and one mint per grant and round, and no call fails.
func TestPoolsAcrossProcesses(t *testing.T) {
	if os.Getenv(envChild) != "" {
		t.Skip("in a child process")
	}
	if testing.Short() {
		t.Skip("30 s of real time")
	}
	ctx := t.Context()
	srv := newLiveServer(t, procAccessLife, procInstallationLife)
	rs := startRedis(t)
	rdb := rs.client(t)
	run := "test:" + grantID(t, "run")
	backing := fileStore{dir: t.TempDir()}
	var ids []string
	var grants []partnertest.Grant
	for range procGrants {
		g := srv.NewGrant()
		grants = append(grants, g)
		ids = append(ids, g.ID)
		if err := backing.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
	}
	wait := startChildren(t, processes, "pools", rs.url, run,
		envAPI+"="+srv.URL, envAuth+"="+srv.AuthURL,
		envClient+"="+srv.ClientID(), envSecret+"="+srv.ClientSecret(),
		envStoreDir+"="+backing.dir, envGrants+"="+strings.Join(ids, ","))

	prev := make(map[string]partnertest.Counts)
	for r := range rounds {
		start := time.Now()
		if err := rdb.Set(ctx, run+":round", r, 0).Err(); err != nil {
			t.Fatal(err)
		}
		if err := waitCount(ctx, rdb, fmt.Sprintf("%s:done:%d", run, r), processes*goroutines, time.Minute); err != nil {
			t.Errorf("round %d: %v", r, err)
			break
		}
		for _, id := range ids {
			c := srv.GrantCounts(id)
			p := prev[id]
			if c.Refreshes-p.Refreshes != 1 || c.Mints-p.Mints != 1 {
				t.Errorf("round %d, grant %s: %d refreshes and %d mints across %d processes; want 1 and 1",
					r, id, c.Refreshes-p.Refreshes, c.Mints-p.Mints, processes)
			}
			prev[id] = c
		}
		if r < rounds-1 {
			time.Sleep(time.Until(start.Add(procRoundEvery)))
		}
	}
	rdb.Set(ctx, run+":round", rounds, 0) // ends children waiting after a failure
	wait()
	if c := srv.Counts(); c.ReusedRefreshTokens != 0 || c.ReuseRevocations != 0 {
		t.Errorf("%d refresh tokens sent again, %d grants revoked for it; want none", c.ReusedRefreshTokens, c.ReuseRevocations)
	}
	rig := &liveRig{srv: srv, grants: grants}
	rig.checkGrants(t, backing)
	sum, _, _ := rig.counts()
	t.Logf("%d rounds x %d grants, %d processes x %d goroutines: %d refreshes and %d mints in all",
		rounds, procGrants, processes, goroutines, sum.Refreshes, sum.Mints)
}

// childPools is the body of a child process of TestPoolsAcrossProcesses:
// a replica whose goroutines call every grant, in a random order, each
// round the parent starts.
func childPools(ctx context.Context, t *testing.T, rdb *redis.Client, run string) {
	p, err := partner.NewPool(partner.PoolConfig{
		BaseURL: os.Getenv(envAPI), AuthURL: os.Getenv(envAuth),
		ClientID: os.Getenv(envClient), ClientSecret: os.Getenv(envSecret),
		Store:                   redisstore.New(rdb, fileStore{dir: os.Getenv(envStoreDir)}),
		Pacing:                  partner.Pacing{Off: true},
		InstallationTokenMargin: liveInstallationMargin,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ids := strings.Split(os.Getenv(envGrants), ",")
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for r := range rounds {
				if err := waitRound(ctx, rdb, run+":round", r); err != nil {
					t.Error(err)
					return
				}
				for _, i := range rand.Perm(len(ids)) {
					c, err := p.Client(ctx, ids[i])
					if err == nil {
						_, err = c.Organizations.List(ctx)
					}
					if err != nil {
						t.Errorf("round %d, grant %s: %v", r, ids[i], err)
					}
				}
				if err := rdb.Incr(ctx, fmt.Sprintf("%s:done:%d", run, r)).Err(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
}

// waitRound waits until the integer at key is at least r.
func waitRound(ctx context.Context, rdb *redis.Client, key string, r int) error {
	for {
		n, err := rdb.Get(ctx, key).Int()
		if err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
		if err == nil && n >= r {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for round %d: %w", r, ctx.Err())
		case <-time.After(2 * time.Millisecond):
		}
	}
}

// waitCount waits, at most within, until the integer at key is n.
func waitCount(ctx context.Context, rdb *redis.Client, key string, n int, within time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for {
		got, err := rdb.Get(ctx, key).Int()
		if err != nil && !errors.Is(err, redis.Nil) {
			return fmt.Errorf("%d of %d callers done: %w", got, n, err)
		}
		if got >= n {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d callers done: %w", got, n, ctx.Err())
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// fileStore is a Store of record that separate processes share: each
// grant's token as JSON in a file of dir, replaced whole by writing a
// temporary file and renaming it over the old one, so a reader sees the
// old token or the new one, never part of either. It takes no lock, so
// concurrent Saves of a grant are last-writer-wins: for tests only, where
// redisstore's leases decide who writes.
type fileStore struct{ dir string }

func (f fileStore) path(grantID string) string {
	return filepath.Join(f.dir, hex.EncodeToString([]byte(grantID))+".json")
}

func (f fileStore) Load(_ context.Context, grantID string) (*oauth2.Token, error) {
	data, err := os.ReadFile(f.path(grantID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, auth.ErrNoToken
	}
	if err != nil {
		return nil, err
	}
	var tok oauth2.Token
	return &tok, json.Unmarshal(data, &tok)
}

func (f fileStore) Save(_ context.Context, grantID string, tok *oauth2.Token) error {
	data, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(f.dir, ".save-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a failure; gone once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.path(grantID))
}

// TestFileStoreSaveReplacesTheToken: the test's Store of record loads what
// was saved last, and ErrNoToken for a grant never saved.
func TestFileStoreSaveReplacesTheToken(t *testing.T) {
	ctx := t.Context()
	f := fileStore{dir: t.TempDir()}
	if _, err := f.Load(ctx, "g/1"); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("Load of an unknown grant: %v, want ErrNoToken", err)
	}
	for _, name := range []string{"1", "2"} {
		if err := f.Save(ctx, "g/1", token(name, time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if tok, err := f.Load(ctx, "g/1"); err != nil || tok.AccessToken != "at-2" {
		t.Errorf("Load = %+v, %v; want the token saved last", tok, err)
	}
	if n, _ := os.ReadDir(f.dir); len(n) != 1 {
		t.Errorf("%d files in the store's directory; want 1 (no temporary file left)", len(n))
	}
}
