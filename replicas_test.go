package partner_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// Replicas of an application, here Pools in one process, share one Store
// that is an auth.Leaser and an auth.InstallationCache (MemoryStore is
// both): between them they refresh and mint each grant's tokens as often
// as one process does, with rotating refresh tokens and reuse detection
// on, and a reconnect saved by one reaches the others.

// plainStore hides a Store's optional interfaces: a Store that shares no
// lease and no installation token, as before replicas could share them.
type plainStore struct{ auth.Store }

// countingStore is a MemoryStore that counts the calls made to it.
type countingStore struct {
	*auth.MemoryStore
	calls atomic.Int64
}

func (s *countingStore) Load(ctx context.Context, id string) (*oauth2.Token, error) {
	s.calls.Add(1)
	return s.MemoryStore.Load(ctx, id)
}

func (s *countingStore) Save(ctx context.Context, id string, tok *oauth2.Token) error {
	s.calls.Add(1)
	return s.MemoryStore.Save(ctx, id, tok)
}

func (s *countingStore) AcquireLease(ctx context.Context, id string, k auth.TokenKind, due, ttl time.Duration) (*auth.Lease, *oauth2.Token, error) {
	s.calls.Add(1)
	return s.MemoryStore.AcquireLease(ctx, id, k, due, ttl)
}

func (s *countingStore) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	s.calls.Add(1)
	return s.MemoryStore.CommitLease(ctx, l, tok)
}

func (s *countingStore) AbandonLease(ctx context.Context, l *auth.Lease) error {
	s.calls.Add(1)
	return s.MemoryStore.AbandonLease(ctx, l)
}

func (s *countingStore) LoadInstallation(ctx context.Context, id string) (*oauth2.Token, error) {
	s.calls.Add(1)
	return s.MemoryStore.LoadInstallation(ctx, id)
}

func (s *countingStore) SaveInstallation(ctx context.Context, id string, tok *oauth2.Token) error {
	s.calls.Add(1)
	return s.MemoryStore.SaveInstallation(ctx, id, tok)
}

func (s *countingStore) DeleteInstallation(ctx context.Context, id string) error {
	s.calls.Add(1)
	return s.MemoryStore.DeleteInstallation(ctx, id)
}

// replicaRig is a rotating fake service, its grants saved in one Store,
// and replicas Pools sharing that Store.
type replicaRig struct {
	srv    *partnertest.Server
	store  *countingStore
	grants []partnertest.Grant
	pools  []*partner.Pool
}

func newReplicaRig(t *testing.T, replicas, grants int, timeout time.Duration) *replicaRig {
	t.Helper()
	r := &replicaRig{
		srv:   partnertest.NewServer(partnertest.WithInMemoryNetwork(), partnertest.WithRefreshRotation()),
		store: &countingStore{MemoryStore: auth.NewMemoryStore()},
	}
	t.Cleanup(r.srv.Close)
	for range grants {
		g := r.srv.NewGrant()
		r.grants = append(r.grants, g)
		r.store.MemoryStore.Save(t.Context(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
	}
	for range replicas {
		p, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing,
			BaseURL: r.srv.URL, AuthURL: r.srv.AuthURL,
			ClientID: r.srv.ClientID(), ClientSecret: r.srv.ClientSecret(),
			Store: r.store, HTTPClient: r.srv.Client(), RefreshTimeout: timeout,
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		r.pools = append(r.pools, p)
	}
	return r
}

// call makes one request of the grant on one replica.
func (r *replicaRig) call(ctx context.Context, replica int, grantID string) error {
	c, err := r.pools[replica].Client(ctx, grantID)
	if err != nil {
		return err
	}
	_, err = c.Organizations.List(ctx)
	return err
}

// load sends, every step for d, two requests per grant at once, each to
// a replica picked at random (a load balancer), and logs every error.
func (r *replicaRig) load(t *testing.T, d, step time.Duration, errs *errorLog, each func(elapsed time.Duration)) {
	for elapsed := time.Duration(0); elapsed < d; elapsed += step {
		if each != nil {
			each(elapsed)
		}
		var wg sync.WaitGroup
		for _, g := range r.grants {
			for range 2 {
				replica := rand.IntN(len(r.pools))
				wg.Go(func() {
					if err := r.call(t.Context(), replica, g.ID); err != nil {
						errs.add(err)
					}
				})
			}
		}
		wg.Wait()
		time.Sleep(step)
	}
}

// TestReplicasRefreshAndMintAsOne: 10 replicas serving 200 grants for 3
// hours refresh and mint each grant as often as one replica does, with
// rotation and reuse detection on: no grant revoked, no call failed. A
// user reconnecting on one replica midway (the new token saved to the
// Store) causes no ErrReauthorizationRequired on the others.
func TestReplicasRefreshAndMintAsOne(t *testing.T) {
	// Requests come every step: the SDK renews a token when the first
	// request after it is due comes, so the step does not change how
	// often it renews, only how long the test runs.
	const grants, hours, step = 200, 3 * time.Hour, 15 * time.Minute
	var single, multi map[string]partnertest.Counts
	var storeCalls int64
	synctest.Test(t, func(t *testing.T) {
		r := newReplicaRig(t, 1, 20, 0) // every grant alike: 20 are enough
		var errs errorLog
		r.load(t, hours, step, &errs, nil)
		errs.check(t)
		single = grantCounts(r)
	})
	synctest.Test(t, func(t *testing.T) {
		r := newReplicaRig(t, 10, grants, 0)
		var errs errorLog
		r.load(t, hours, step, &errs, func(elapsed time.Duration) {
			if elapsed != 90*time.Minute {
				return
			}
			// Twenty users connect again on replica 0.
			for _, g := range r.grants[:20] {
				ng := r.srv.Reconnect(g.ID)
				tok := &oauth2.Token{RefreshToken: ng.RefreshToken}
				if err := r.store.Save(t.Context(), g.ID, tok); err != nil {
					t.Fatal(err)
				}
				c, err := r.pools[0].Client(t.Context(), g.ID)
				if err != nil {
					t.Fatal(err)
				}
				c.SetToken(tok)
			}
		})
		errs.check(t)
		checkRotation(t, r.srv, r.store, r.grants)
		multi = grantCounts(r)
		storeCalls = r.store.calls.Load()
	})
	// The single replica's figure is the most any of its grants needed.
	var s partnertest.Counts
	for _, c := range single {
		s.Refreshes, s.Mints = max(s.Refreshes, c.Refreshes), max(s.Mints, c.Mints)
	}
	var mr, mm int
	for id, m := range multi {
		mr, mm = mr+m.Refreshes, mm+m.Mints
		if m.Refreshes > s.Refreshes+1 || m.Mints > s.Mints+1 {
			t.Errorf("grant %s: 10 replicas refreshed %d times and minted %d; one replica %d and %d (want within 1)",
				id, m.Refreshes, m.Mints, s.Refreshes, s.Mints)
		}
	}
	lifetimes := float64(hours / partnertest.AccessTokenLifetime)
	t.Logf("per grant per access-token lifetime: one replica %.2f refreshes, 10 replicas %.2f; per installation-token lifetime: %.2f mints, %.2f",
		float64(s.Refreshes)/lifetimes, float64(mr)/grants/lifetimes,
		float64(s.Mints)/float64(hours/partnertest.InstallationTokenLifetime), float64(mm)/grants/float64(hours/partnertest.InstallationTokenLifetime))
	requests := 2 * grants * int64(hours/step)
	t.Logf("store calls: %d for %d requests (%.3f per request; %.2f per replica, grant and access-token lifetime)",
		storeCalls, requests, float64(storeCalls)/float64(requests), float64(storeCalls)/10/grants/lifetimes)
}

// grantCounts returns the service's counts of every grant of r.
func grantCounts(r *replicaRig) map[string]partnertest.Counts {
	m := make(map[string]partnertest.Counts)
	for _, g := range r.grants {
		m[g.ID] = r.srv.GrantCounts(g.ID)
	}
	return m
}

// TestReplicasHotPathCallsNoStore: fresh tokens cost no store call; each
// replica makes a few store calls per grant and token lifetime.
func TestReplicasHotPathCallsNoStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const replicas, grants = 10, 20
		r := newReplicaRig(t, replicas, grants, 0)
		for i := range replicas {
			for _, g := range r.grants {
				if err := r.call(t.Context(), i, g.ID); err != nil {
					t.Fatal(err)
				}
			}
		}
		before := r.store.calls.Load()
		for range 1000 {
			if err := r.call(t.Context(), rand.IntN(replicas), r.grants[rand.IntN(grants)].ID); err != nil {
				t.Fatal(err)
			}
		}
		if n := r.store.calls.Load() - before; n != 0 {
			t.Errorf("%d store calls for 1,000 requests with fresh tokens; want 0", n)
		}
		// One installation-token lifetime later: every replica renews
		// each grant's tokens once, from the Store or by refreshing and
		// minting.
		time.Sleep(partnertest.InstallationTokenLifetime)
		before = r.store.calls.Load()
		for i := range 1000 {
			if err := r.call(t.Context(), i%replicas, r.grants[(i/replicas)%grants].ID); err != nil {
				t.Fatal(err)
			}
		}
		n := r.store.calls.Load() - before
		// Per replica and grant: a look at the cache and one at the
		// lease; the one replica minting also leases, refreshes and
		// commits the access token.
		if max := int64(2*replicas*grants + 3*grants); n > max {
			t.Errorf("%d store calls for 1,000 requests over a token renewal; want at most %d (two per replica and grant, and three more per grant)", n, max)
		}
		t.Logf("%d store calls for 1,000 requests over a token renewal by %d replicas of %d grants", n, replicas, grants)
	})
}

// TestReplicasSurviveAHungRefresh: the replica refreshing a grant hangs
// at the token endpoint. It gives up after its refresh timeout and ends
// its leases; the others wait for it meanwhile, then take over. The hung
// refresh sent the refresh token the Store still holds, but the service
// never answered it, so the grant survives rotation and reuse detection.
func TestReplicasSurviveAHungRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 10 * time.Second
		r := newReplicaRig(t, 4, 1, timeout)
		id := r.grants[0].ID
		for i := range r.pools {
			if err := r.call(t.Context(), i, id); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(partnertest.InstallationTokenLifetime) // both tokens are due
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Hang: true})
		hung := make(chan error)
		go func() { hung <- r.call(t.Context(), 0, id) }()
		time.Sleep(time.Second)
		start := time.Now()
		if err := r.call(t.Context(), 1, id); err != nil && !errors.Is(err, partner.ErrTemporary) {
			t.Errorf("a replica waiting for the hung one: %v; want success or ErrTemporary", err)
		}
		if waited := time.Since(start); waited > timeout+time.Second {
			t.Errorf("a replica waited %v for the hung one; want at most its refresh timeout, %v", waited, timeout)
		}
		if err := <-hung; err == nil || errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Errorf("the hung replica: %v; want a temporary failure", err)
		}
		for i := range r.pools {
			if err := r.call(t.Context(), i, id); err != nil {
				t.Errorf("replica %d after the hung refresh: %v", i, err)
			}
		}
		if got := r.srv.GrantCounts(id); got.Refreshes != 2 || got.Mints != 2 {
			t.Errorf("%d refreshes and %d mints answered; want 2 and 2 (one hour apart)", got.Refreshes, got.Mints)
		}
		checkRotation(t, r.srv, r.store, r.grants)
	})
}

// TestReplicasTakeOverADeadHolder: a replica died holding a grant's
// leases. The others wait for it (failing with ErrTemporary after their
// refresh timeout) until its leases run out, then take over; the dead
// holder's commit, were it to come back, is refused.
func TestReplicasTakeOverADeadHolder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const timeout = 10 * time.Second
		const ttl = timeout + 10*time.Second // the SDK's lease: the refresh timeout and a margin
		r := newReplicaRig(t, 4, 1, timeout)
		id := r.grants[0].ID
		ctx := t.Context()
		var dead []*auth.Lease
		for _, k := range []auth.TokenKind{auth.KindAccess, auth.KindInstallation} {
			l, _, err := r.store.AcquireLease(ctx, id, k, time.Hour, ttl)
			if err != nil || l == nil {
				t.Fatalf("AcquireLease(%s): %v, %v", k, l, err)
			}
			dead = append(dead, l)
		}
		start := time.Now()
		if err := r.call(ctx, 1, id); !errors.Is(err, partner.ErrTemporary) {
			t.Errorf("a replica waiting for a dead holder: %v; want ErrTemporary", err)
		}
		if waited := time.Since(start); waited > timeout+time.Second {
			t.Errorf("a replica waited %v for a dead holder; want at most its refresh timeout, %v", waited, timeout)
		}
		time.Sleep(ttl - time.Since(start))
		for i := range r.pools {
			if err := r.call(ctx, i, id); err != nil {
				t.Errorf("replica %d after the dead holder's leases ran out: %v", i, err)
			}
		}
		for _, l := range dead {
			if err := r.store.CommitLease(ctx, l, &oauth2.Token{AccessToken: "stale", RefreshToken: "stale", Expiry: time.Now().Add(time.Hour)}); !errors.Is(err, auth.ErrLeaseLost) {
				t.Errorf("the dead holder's CommitLease(%s): %v; want ErrLeaseLost", l.Kind, err)
			}
		}
		if got := r.srv.GrantCounts(id); got.Refreshes != 1 || got.Mints != 1 {
			t.Errorf("%d refreshes and %d mints answered; want 1 and 1", got.Refreshes, got.Mints)
		}
		checkRotation(t, r.srv, r.store, r.grants)
	})
}
