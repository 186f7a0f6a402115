package sqlstoretest_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/sqlstore"
	"github.com/locsvc/partner-go/sqlstore/sqlstoretest"
)

// Replicas of an application, each a partner.Pool with a *sql.DB and a
// sqlstore.Store of its own on one database, share each grant's tokens
// through the database: between them they refresh each grant's access
// token as often as one process does, with rotating refresh tokens and
// reuse detection on, and a reconnect saved by one reaches the others.
// These are the real-server counterparts of the root package's
// replicas_test.go, which runs on MemoryStore in a synctest bubble: here
// the clocks are real, so a refresh is due every few seconds.
//
// The SDK refreshes an access token partner.AccessTokenEarlyRefresh (60
// s) before it expires, and takes one that lives less than that to live
// at least 30 s; an installation token it keeps at least a minute unless
// the service refuses it. So the service's access tokens here live 60 s
// and 4 s more, which makes a refresh due every 4 s by the SDK's own
// clock (replicaRefreshEvery), and its installation tokens 6 s, which
// the SDK renews when the service answers 401 (each replica on its own:
// sqlstore shares no installation token).

// The service's token lifetimes in the tests of replicas.
const (
	replicaRefreshEvery     = 4 * time.Second
	replicaAccessLife       = partner.AccessTokenEarlyRefresh + replicaRefreshEvery
	replicaInstallationLife = 6 * time.Second
)

// newReplicaServer starts partnertest on loopback with rotating refresh
// tokens (and reuse detection) and the given token lifetimes.
func newReplicaServer(t *testing.T, access, installation time.Duration) *partnertest.Server {
	t.Helper()
	srv := partnertest.NewServer(partnertest.WithRefreshRotation(), partnertest.WithTokenLifetimes(access, installation))
	t.Cleanup(srv.Close)
	return srv
}

// replica is one replica of the application: its own database handle,
// Store and Pool.
type replica struct {
	store *sqlstore.Store
	pool  *partner.Pool
}

// openStore opens the database at dsn again, as another replica would,
// and returns a Store on it (the schema is migrated already).
func openStore(t *testing.T, e engine, dsn string) *sqlstore.Store {
	t.Helper()
	db, err := sql.Open(e.driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(8) // 10 replicas stay well under the server's max_connections
	t.Cleanup(func() { db.Close() })
	s, err := sqlstore.New(db, e.dialect)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// poolConfig returns the configuration of a replica's Pool on srv.
func poolConfig(srv *partnertest.Server, store *sqlstore.Store) partner.PoolConfig {
	return partner.PoolConfig{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: store, HTTPClient: srv.Client(),
		Pacing: partner.Pacing{Off: true},
	}
}

// newReplicas starts n replicas on the database of e at dsn, each with
// cfg's changes to its PoolConfig.
func newReplicas(t *testing.T, e engine, dsn string, srv *partnertest.Server, n int, cfg func(*partner.PoolConfig)) []replica {
	t.Helper()
	rs := make([]replica, n)
	for i := range rs {
		s := openStore(t, e, dsn)
		pc := poolConfig(srv, s)
		if cfg != nil {
			cfg(&pc)
		}
		p, err := partner.NewPool(pc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		rs[i] = replica{store: s, pool: p}
	}
	return rs
}

// newGrants creates n grants on srv and saves their refresh tokens to s,
// as the code exchange of each user's connection would.
func newGrants(t *testing.T, srv *partnertest.Server, s *sqlstore.Store, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		g := srv.NewGrant()
		if err := s.Save(t.Context(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	return ids
}

// call makes one request of the grant through the Pool.
func call(ctx context.Context, p *partner.Pool, grantID string) error {
	c, err := p.Client(ctx, grantID)
	if err != nil {
		return err
	}
	_, err = c.Organizations.List(ctx)
	return err
}

// errorLog collects the errors of calls made concurrently.
type errorLog struct {
	mu     sync.Mutex
	calls  int
	errs   []error
	reauth int
}

func (l *errorLog) add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls++
	if err == nil {
		return
	}
	l.errs = append(l.errs, err)
	if errors.Is(err, partner.ErrReauthorizationRequired) {
		l.reauth++
	}
}

// check fails t when a call failed, with how many were
// ErrReauthorizationRequired and the first few errors.
func (l *errorLog) check(t *testing.T, what string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.errs) > 0 {
		t.Errorf("%s: %d of %d calls failed, %d with ErrReauthorizationRequired; the first: %v",
			what, len(l.errs), l.calls, l.reauth, errors.Join(l.errs[:min(3, len(l.errs))]...))
	}
}

// balance calls every grant, each from a goroutine of its own, on a
// replica picked at random (a load balancer), about every meanGap, until
// ctx ends.
func balance(ctx context.Context, rs []replica, grants []string, meanGap time.Duration, errs *errorLog) {
	var wg sync.WaitGroup
	for _, id := range grants {
		wg.Go(func() {
			for {
				t := time.NewTimer(rand.N(2 * meanGap))
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
				err := call(ctx, rs[rand.IntN(len(rs))].pool, id)
				if ctx.Err() != nil {
					return // the run ended during the call
				}
				errs.add(err)
			}
		})
	}
	wg.Wait()
}

// checkRotation checks that the service revoked no grant for a reused
// refresh token and that the Store holds each grant's current refresh
// token, once the refreshes in flight when the load stopped committed.
func checkRotation(t *testing.T, srv *partnertest.Server, s *sqlstore.Store, grants []string) {
	t.Helper()
	if c := srv.Counts(); c.ReusedRefreshTokens != 0 || c.ReuseRevocations != 0 {
		t.Errorf("%d refresh tokens sent again, %d grants revoked for it; want none", c.ReusedRefreshTokens, c.ReuseRevocations)
	}
	var problems []string
	deadline := time.Now().Add(10 * time.Second)
	for {
		problems = problems[:0]
		for _, id := range grants {
			g, _ := srv.Grant(id)
			tok, err := s.Load(t.Context(), id)
			switch {
			case err != nil:
				problems = append(problems, fmt.Sprintf("grant %s: %v", id, err))
			case g.Revoked:
				problems = append(problems, fmt.Sprintf("grant %s was revoked", id))
			case tok.RefreshToken != g.RefreshToken:
				problems = append(problems, fmt.Sprintf("grant %s: the Store does not hold the service's current refresh token", id))
			}
		}
		if len(problems) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestReplicasShareRefreshes: 10 replicas serving 200 grants for 30 s
// behind a random load balancer, on one PostgreSQL database, refresh each
// grant's access token as often as one replica serving 20 grants does at
// the same time (within 1 refresh per grant per access-token lifetime),
// with rotation and reuse detection on: no grant revoked, no call failed.
// Twenty users connecting again midway, saved through replica 0's Store,
// cause no ErrReauthorizationRequired on the others.
func TestReplicasShareRefreshes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 30 s of real time")
	}
	const (
		replicas, grants, baseGrants = 10, 200, 20
		run                          = 30 * time.Second
		gap                          = 500 * time.Millisecond // between two calls of a grant
		reconnected                  = 20
	)
	e := postgresEngine(sqlstoretest.StartPostgres(t))

	// One replica serving 20 grants, at the same time: the baseline.
	baseSrv := newReplicaServer(t, replicaAccessLife, replicaInstallationLife)
	baseStore, baseDSN := e.newStore(t)
	base := newReplicas(t, e, baseDSN, baseSrv, 1, nil)
	baseIDs := newGrants(t, baseSrv, baseStore, baseGrants)

	srv := newReplicaServer(t, replicaAccessLife, replicaInstallationLife)
	store, dsn := e.newStore(t)
	rs := newReplicas(t, e, dsn, srv, replicas, nil)
	ids := newGrants(t, srv, store, grants)

	ctx, cancel := context.WithTimeout(t.Context(), run)
	defer cancel()
	start := time.Now()
	var baseErrs, errs errorLog
	var wg sync.WaitGroup
	wg.Go(func() { balance(ctx, base, baseIDs, gap, &baseErrs) })
	wg.Go(func() { balance(ctx, rs, ids, gap, &errs) })
	wg.Go(func() {
		// Midway, twenty users connect again on replica 0, which saves
		// the new token and gives it to its client.
		select {
		case <-ctx.Done():
			return
		case <-time.After(run / 2):
		}
		for _, id := range ids[:reconnected] {
			g := srv.Reconnect(id)
			tok := &oauth2.Token{RefreshToken: g.RefreshToken}
			if err := rs[0].store.Save(ctx, id, tok); err != nil {
				t.Error(err)
				return
			}
			c, err := rs[0].pool.Client(ctx, id)
			if err != nil {
				t.Error(err)
				return
			}
			c.SetToken(tok)
		}
	})
	wg.Wait()
	elapsed := time.Since(start)

	baseErrs.check(t, "one replica")
	errs.check(t, "10 replicas")
	checkRotation(t, baseSrv, baseStore, baseIDs)
	checkRotation(t, srv, store, ids)

	lifetimes := float64(elapsed) / float64(replicaRefreshEvery)
	installLifetimes := float64(elapsed) / float64(replicaInstallationLife)
	perGrant := func(srv *partnertest.Server, ids []string) (refreshes, mints float64, most int) {
		for _, id := range ids {
			c := srv.GrantCounts(id)
			refreshes += float64(c.Refreshes)
			mints += float64(c.Mints)
			most = max(most, c.Refreshes)
		}
		n := float64(len(ids))
		return refreshes / n / lifetimes, mints / n / installLifetimes, most
	}
	br, bm, bmost := perGrant(baseSrv, baseIDs)
	mr, mm, mmost := perGrant(srv, ids)
	t.Logf("%v: per grant and access-token lifetime (%v as the SDK uses it), one replica %.2f refreshes, %d replicas %.2f (most of one grant: %d and %d); per installation-token lifetime (%v), %.2f mints and %.2f (sqlstore shares no installation token); %d and %d calls",
		elapsed.Round(time.Millisecond), replicaRefreshEvery, br, replicas, mr, bmost, mmost,
		replicaInstallationLife, bm, mm, baseErrs.calls, errs.calls)
	if mr > br+1 {
		t.Errorf("%d replicas refreshed %.2f times per grant and access-token lifetime; one replica %.2f (want within 1)", replicas, mr, br)
	}
	// After a refresh the next is due a lifetime later: at most one a
	// lifetime, one at the start and one after the reconnect.
	if limit := int(lifetimes) + 2; mmost > limit {
		t.Errorf("a grant was refreshed %d times in %.1f access-token lifetimes; want at most %d", mmost, lifetimes, limit)
	}
}
