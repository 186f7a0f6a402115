package redisstore_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"os"
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

// Tests on real time: a partnertest server on loopback whose tokens live
// seconds past the SDK's margins, a redis-server of the test's own, and
// Pools standing for replicas, each with its own Redis client and
// redisstore.Store in front of one Store of record.
//
// The SDK refreshes an access token AccessTokenEarlyRefresh (60 s) before
// it expires, so an access token living 64 s is due every 4 s. (A token
// living less than the early refresh is replaced in the second half of
// its life, and its real expiry is shared: with 4 s access tokens this
// test passes too, but the period arithmetic below assumes the early
// refresh.) Installation tokens are replaced InstallationTokenMargin
// before they expire, at most half their lifetime; a replica that takes a
// shared token keeps its own margin, so 6 s tokens are given a margin of
// 1 s here to keep every replica's margin the same.
const (
	liveAccessLife         = 64 * time.Second
	liveInstallationLife   = 6 * time.Second
	liveInstallationMargin = time.Second
	// liveRefreshEvery is how often an access token is due.
	liveRefreshEvery = liveAccessLife - partner.AccessTokenEarlyRefresh
)

// newLiveServer returns a partnertest server on loopback that rotates
// refresh tokens (and revokes a grant whose old one is sent again) and
// issues tokens living access and installation.
func newLiveServer(t *testing.T, access, installation time.Duration) *partnertest.Server {
	srv := partnertest.NewServer(partnertest.WithRefreshRotation(),
		partnertest.WithTokenLifetimes(access, installation))
	t.Cleanup(srv.Close)
	return srv
}

// liveRig is a set of replicas serving grants of one service: each replica
// a Pool with its own Redis client and redisstore.Store, all in front of
// one Store of record.
type liveRig struct {
	srv    *partnertest.Server
	grants []partnertest.Grant
	stores []*redisstore.Store
	pools  []*partner.Pool
}

// newLiveRig adds grants to srv, saves them in backing and starts
// replicas Pools on Redis server rs, with an InstallationTokenMargin of
// liveInstallationMargin. opt, if not nil, adjusts each replica's Redis
// client options.
func newLiveRig(t *testing.T, srv *partnertest.Server, rs *testServer, backing auth.Store, replicas, grants int, opt func(*redis.Options)) *liveRig {
	return newLiveRigMargin(t, srv, rs, backing, replicas, grants, opt, liveInstallationMargin)
}

// newLiveRigMargin is newLiveRig with the replicas' InstallationTokenMargin.
func newLiveRigMargin(t *testing.T, srv *partnertest.Server, rs *testServer, backing auth.Store, replicas, grants int, opt func(*redis.Options), margin time.Duration) *liveRig {
	t.Helper()
	r := &liveRig{srv: srv}
	for range grants {
		g := srv.NewGrant()
		r.grants = append(r.grants, g)
		if err := backing.Save(t.Context(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
	}
	for range replicas {
		o, err := redis.ParseURL(rs.url)
		if err != nil {
			t.Fatal(err)
		}
		if opt != nil {
			opt(o)
		}
		rdb := redis.NewClient(o)
		t.Cleanup(func() { rdb.Close() })
		s := redisstore.New(rdb, backing)
		p, err := partner.NewPool(partner.PoolConfig{
			BaseURL: srv.URL, AuthURL: srv.AuthURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			Store: s, HTTPClient: srv.Client(),
			Pacing:                  partner.Pacing{Off: true},
			InstallationTokenMargin: margin,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		r.stores = append(r.stores, s)
		r.pools = append(r.pools, p)
	}
	return r
}

// call makes one request of the grant on one replica.
func (r *liveRig) call(ctx context.Context, replica int, grantID string) error {
	c, err := r.pools[replica].Client(ctx, grantID)
	if err != nil {
		return err
	}
	_, err = c.Organizations.List(ctx)
	return err
}

// load sends, every step until d has passed, two requests per grant at
// once, each to a replica picked at random (a load balancer), and records
// every error in errs. each, if not nil, runs before every step with the
// time elapsed.
func (r *liveRig) load(ctx context.Context, d, step time.Duration, errs *errorLog, each func(elapsed time.Duration)) {
	start := time.Now()
	for elapsed := time.Duration(0); elapsed < d; elapsed = time.Since(start) {
		if each != nil {
			each(elapsed)
		}
		var wg sync.WaitGroup
		for _, g := range r.grants {
			for range 2 {
				replica := rand.IntN(len(r.pools))
				wg.Go(func() {
					if err := r.call(ctx, replica, g.ID); err != nil {
						errs.add(err)
					}
				})
			}
		}
		wg.Wait()
		time.Sleep(step)
	}
}

// counts returns the service's counts of every grant of r, summed and at
// most.
func (r *liveRig) counts() (sum, most partnertest.Counts, each map[string]partnertest.Counts) {
	each = make(map[string]partnertest.Counts)
	for _, g := range r.grants {
		c := r.srv.GrantCounts(g.ID)
		each[g.ID] = c
		sum.Refreshes, sum.Mints = sum.Refreshes+c.Refreshes, sum.Mints+c.Mints
		most.Refreshes, most.Mints = max(most.Refreshes, c.Refreshes), max(most.Mints, c.Mints)
	}
	return sum, most, each
}

// checkGrants checks that the service revoked none of r's grants and that
// the Store of record holds each one's current refresh token.
func (r *liveRig) checkGrants(t *testing.T, backing auth.Store) {
	t.Helper()
	for _, g := range r.grants {
		sg, _ := r.srv.Grant(g.ID)
		st, err := backing.Load(t.Context(), g.ID)
		switch {
		case err != nil:
			t.Errorf("grant %s: %v", g.ID, err)
		case sg.Revoked:
			t.Errorf("grant %s was revoked", g.ID)
		case st.RefreshToken != sg.RefreshToken:
			t.Errorf("grant %s: the Store of record does not hold the service's current refresh token", g.ID)
		}
	}
}

// errorLog collects the errors of concurrent calls.
type errorLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err)
}

// count returns how many errors there were, and how many of them were
// ErrReauthorizationRequired.
func (l *errorLog) count() (all, reauth int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, err := range l.errs {
		if errors.Is(err, partner.ErrReauthorizationRequired) {
			reauth++
		}
	}
	return len(l.errs), reauth
}

// check fails the test with a summary of the errors, if any.
func (l *errorLog) check(t *testing.T, what string) {
	t.Helper()
	all, reauth := l.count()
	if all == 0 {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Errorf("%s: %d calls failed, %d with ErrReauthorizationRequired; the first: %v", what, all, reauth, errors.Join(l.errs[:min(3, all)]...))
}

// TestLiveReplicasRefreshAndMintAsOne: 10 replicas serving 200 grants for
// 30 s of real time with random load balancing, an access token due every
// 4 s and installation tokens living 6 s, rotation and reuse detection on, refresh and mint each grant as often
// as one replica does alone (measured at the same time): within one per
// grant. No grant is revoked, no call fails, and 20 users connecting again
// midway on replica 0 cause no ErrReauthorizationRequired on the others.
func TestLiveReplicasRefreshAndMintAsOne(t *testing.T) {
	if testing.Short() {
		t.Skip("30 s of real time")
	}
	const (
		replicas, grants = 10, 200
		d                = 30 * time.Second
		step             = 250 * time.Millisecond
	)
	ctx := t.Context()
	srv := newLiveServer(t, liveAccessLife, liveInstallationLife)
	rs := startRedis(t)
	singleDB, multiDB := auth.NewMemoryStore(), auth.NewMemoryStore()
	single := newLiveRig(t, srv, rs, singleDB, 1, 20, nil) // every grant alike: 20 are enough
	multi := newLiveRig(t, srv, rs, multiDB, replicas, grants, nil)

	var singleErrs, multiErrs errorLog
	var wg sync.WaitGroup
	wg.Go(func() { single.load(ctx, d, step, &singleErrs, nil) })
	reconnected := false
	multi.load(ctx, d, step, &multiErrs, func(elapsed time.Duration) {
		if reconnected || elapsed < d/2 {
			return
		}
		reconnected = true
		// Twenty users connect again on replica 0.
		for _, g := range multi.grants[:20] {
			ng := srv.Reconnect(g.ID)
			tok := &oauth2.Token{RefreshToken: ng.RefreshToken}
			if err := multi.stores[0].Save(ctx, g.ID, tok); err != nil {
				t.Error(err)
			}
			c, err := multi.pools[0].Client(ctx, g.ID)
			if err != nil {
				t.Error(err)
				continue
			}
			c.SetToken(tok)
		}
	})
	wg.Wait()
	singleErrs.check(t, "one replica")
	multiErrs.check(t, "10 replicas")
	single.checkGrants(t, singleDB)
	multi.checkGrants(t, multiDB)
	if c := srv.Counts(); c.ReusedRefreshTokens != 0 || c.ReuseRevocations != 0 {
		t.Errorf("%d refresh tokens sent again, %d grants revoked for it; want none", c.ReusedRefreshTokens, c.ReuseRevocations)
	}

	_, s, _ := single.counts()
	sum, _, each := multi.counts()
	for i, g := range multi.grants {
		m, extra := each[g.ID], 0
		if i < 20 {
			extra = 1 // the reconnect's own refresh and mint
		}
		if m.Refreshes > s.Refreshes+extra+1 || m.Mints > s.Mints+extra+1 {
			t.Errorf("grant %s: %d replicas refreshed it %d times and minted %d; one replica at most %d and %d, %d more for a reconnect (want within 1)",
				g.ID, replicas, m.Refreshes, m.Mints, s.Refreshes, s.Mints, extra)
		}
	}
	accessLives, installLives := float64(d/liveRefreshEvery), float64(d/liveInstallationLife)
	t.Logf("per grant per access-token refresh period (%v): one replica %.2f refreshes, %d replicas %.2f; per installation-token lifetime (%v): %.2f mints, %.2f",
		liveRefreshEvery,
		float64(s.Refreshes)/accessLives, replicas, float64(sum.Refreshes)/grants/accessLives,
		liveInstallationLife, float64(s.Mints)/installLives, float64(sum.Mints)/grants/installLives)
}

// TestLiveReplicasMintOncePerLifetime: 6 replicas on redisstore serve 20
// grants whose installation tokens live 64 s, with the default margin (so
// half the lifetime, 32 s, and a tenth of the 32 s before it ahead: each
// token is replaced 28.8 s after its mint). Every replica computes that due time
// from the token's whole lifetime, shared with it, however late it took
// the token, so together they mint about once per period, as one replica
// alone does (measured at the same time): at most 1.3 times per grant.
func TestLiveReplicasMintOncePerLifetime(t *testing.T) {
	if testing.Short() {
		t.Skip("60 s of real time")
	}
	const (
		replicas, grants = 6, 20
		life             = 64 * time.Second
		period           = (life / 2) * 9 / 10 // replaced this long after its mint
		d                = 2*period + 2*time.Second
		step             = 250 * time.Millisecond
	)
	ctx := t.Context()
	srv := newLiveServer(t, partnertest.AccessTokenLifetime, life)
	rs := startRedis(t)
	single := newLiveRigMargin(t, srv, rs, auth.NewMemoryStore(), 1, grants, nil, partner.DefaultInstallationTokenMargin)
	multi := newLiveRigMargin(t, srv, rs, auth.NewMemoryStore(), replicas, grants, nil, partner.DefaultInstallationTokenMargin)
	var errs errorLog
	for _, r := range []*liveRig{single, multi} { // every grant's first tokens
		r.load(ctx, time.Nanosecond, 0, &errs, nil)
	}
	_, _, single0 := single.counts()
	_, _, multi0 := multi.counts()
	var wg sync.WaitGroup
	wg.Go(func() { single.load(ctx, d, step, &errs, nil) })
	multi.load(ctx, d, step, &errs, nil)
	wg.Wait()
	errs.check(t, "calls")
	perPeriod := func(r *liveRig, start map[string]partnertest.Counts) (mean, most float64) {
		_, _, each := r.counts()
		periods := float64(d) / float64(period)
		for _, g := range r.grants {
			m := float64(each[g.ID].Mints-start[g.ID].Mints) / periods
			mean, most = mean+m/float64(len(r.grants)), max(most, m)
		}
		return mean, most
	}
	sMean, sMost := perPeriod(single, single0)
	mMean, mMost := perPeriod(multi, multi0)
	t.Logf("mints per grant per token period (%v): one replica %.2f (most %.2f), %d replicas %.2f (most %.2f)",
		period, sMean, sMost, replicas, mMean, mMost)
	if mMost > 1.3 {
		t.Errorf("%d replicas minted a grant's installation token %.2f times per period; want at most 1.3", replicas, mMost)
	}
}

// TestLiveReplicasThroughARedisOutage: Redis stopped (by its PID) in the
// middle of a run. Calls whose tokens are fresh keep working; a call that
// needs a refresh that is due fails with ErrTemporary, not a final error, and
// nothing is refreshed meanwhile (without the lease, a rotating refresh
// token could be spent twice). Once Redis is back, empty, every call
// works again, each grant refreshed once between the replicas.
func TestLiveReplicasThroughARedisOutage(t *testing.T) {
	if os.Getenv("PARTNER_TEST_REDIS_URL") != "" {
		t.Skip("stops the server: needs a redis-server of its own")
	}
	const replicas, grants = 3, 10
	ctx := t.Context()
	srv := newLiveServer(t, liveAccessLife, liveInstallationLife)
	rs := startRedis(t)
	backing := auth.NewMemoryStore()
	r := newLiveRig(t, srv, rs, backing, replicas, grants, func(o *redis.Options) {
		// Fail at once against a refused port (see TestRedisOutageKeepsUsersConnected).
		o.MaxRetries, o.DialerRetries = -1, 1
	})
	each := func(f func(replica int, grantID string)) {
		for i := range r.pools {
			for _, g := range r.grants {
				f(i, g.ID)
			}
		}
	}
	each(func(i int, id string) {
		if err := r.call(ctx, i, id); err != nil {
			t.Fatalf("replica %d, grant %s, Redis up: %v", i, id, err)
		}
	})
	// Calls use the installation token; a mint needs the access token.
	// The installation tokens expire at the service liveInstallationLife
	// after their mint, the access tokens are due liveRefreshEvery after
	// their refresh: by then each call needs both renewed.
	due := time.Now().Add(max(liveInstallationLife, liveRefreshEvery))
	before, _, _ := r.counts()

	rs.stop()
	each(func(i int, id string) {
		if err := r.call(ctx, i, id); err != nil {
			t.Errorf("replica %d, grant %s, Redis down, tokens fresh: %v", i, id, err)
		}
	})
	time.Sleep(time.Until(due))
	each(func(i int, id string) {
		for range 2 { // the first failure is not final: the second call tries again
			err := r.call(ctx, i, id)
			if !errors.Is(err, partner.ErrTemporary) || errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Errorf("replica %d, grant %s, Redis down, tokens due: %v; want ErrTemporary", i, id, err)
			}
		}
	})
	if during, _, _ := r.counts(); during.Refreshes != before.Refreshes {
		t.Errorf("%d refreshes while Redis was down; want none", during.Refreshes-before.Refreshes)
	}

	rs.restart(t)
	// A go-redis client that failed PoolSize dials in a row returns its
	// last dial error until a probe, once a second, connects again: a
	// call may still fail with ErrTemporary for about a second.
	each(func(i int, id string) {
		deadline := time.Now().Add(5 * time.Second)
		err := r.call(ctx, i, id)
		for errors.Is(err, partner.ErrTemporary) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			err = r.call(ctx, i, id)
		}
		if err != nil {
			t.Errorf("replica %d, grant %s, Redis back: %v", i, id, err)
		}
	})
	_, _, after := r.counts()
	for _, g := range r.grants {
		if n := after[g.ID].Refreshes; n != 2 {
			t.Errorf("grant %s: %d refreshes in all; want 2 (one before the outage, one after)", g.ID, n)
		}
	}
	r.checkGrants(t, backing)
}
