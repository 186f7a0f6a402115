package sqlstoretest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/sqlstore/sqlstoretest"
)

// TestReplicasStoreOutage: PostgreSQL stops (by its PID) while replicas
// run. Calls with fresh tokens keep working, as using one asks nothing
// of the Store. A call whose access token is due fails closed: an
// ErrTemporary wrapping the database's error, not final (the next call
// tries again) and never ErrReauthorizationRequired, and no refresh
// token is spent. A replica with PoolConfig.LocalRefreshOnStoreError
// refreshes on its own instead, and its calls succeed.
func TestReplicasStoreOutage(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 15 s of real time")
	}
	// Access tokens fall due 2 s after their refresh by the SDK's clock;
	// installation tokens live 10 s, long enough to stop the server
	// while they are fresh.
	const refreshEvery, installationLife, grants = 2 * time.Second, 10 * time.Second, 5
	pg := sqlstoretest.StartPostgres(t)
	if pg.PID() == 0 {
		t.Skipf("the server of %s is not ours to stop", sqlstoretest.DSNEnv)
	}
	e := postgresEngine(pg)
	srv := newReplicaServer(t, partner.AccessTokenEarlyRefresh+refreshEvery, installationLife)
	store, dsn := e.newStore(t)
	closed := newReplicas(t, e, dsn, srv, 1, nil)[0]
	local := newReplicas(t, e, dsn, srv, 1, func(pc *partner.PoolConfig) { pc.LocalRefreshOnStoreError = true })[0]
	closedIDs := newGrants(t, srv, store, grants)
	localIDs := newGrants(t, srv, store, grants)
	ctx := t.Context()

	served := []struct {
		pool *partner.Pool
		ids  []string
	}{{closed.pool, closedIDs}, {local.pool, localIDs}}
	for _, r := range served {
		for _, id := range r.ids {
			if err := call(ctx, r.pool, id); err != nil {
				t.Fatalf("before the outage: %v", err)
			}
		}
	}
	minted := time.Now()
	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}

	// Fresh tokens: no store call, so the outage does not show.
	for _, r := range served {
		for _, id := range r.ids {
			if err := call(ctx, r.pool, id); err != nil {
				t.Errorf("grant %s with fresh tokens, the Store down: %v", id, err)
			}
		}
	}
	if since := time.Since(minted); since >= installationLife {
		t.Fatalf("stopping PostgreSQL took %v, past the installation tokens' %v: the calls above did not test fresh tokens", since, installationLife)
	}

	// Both tokens due: the installation token expired, so a new one is
	// minted, with an access token that is due.
	time.Sleep(installationLife - time.Since(minted) + 250*time.Millisecond)
	for _, id := range closedIDs {
		before := srv.GrantCounts(id).Refreshes
		for attempt := range 2 {
			err := call(ctx, closed.pool, id)
			var connErr *pgconn.ConnectError
			if id == closedIDs[0] && attempt == 0 {
				t.Logf("a due refresh with the Store down: %v", err)
			}
			switch {
			case errors.Is(err, partner.ErrReauthorizationRequired):
				t.Errorf("grant %s, attempt %d, a due refresh with the Store down: %v; want ErrTemporary, not ErrReauthorizationRequired", id, attempt, err)
			case !errors.Is(err, partner.ErrTemporary) || !errors.As(err, &connErr):
				t.Errorf("grant %s, attempt %d, a due refresh with the Store down: %v; want ErrTemporary wrapping the database's error", id, attempt, err)
			}
		}
		if n := srv.GrantCounts(id).Refreshes - before; n != 0 {
			t.Errorf("grant %s: %d refreshes with the Store down; want none (fail closed)", id, n)
		}
	}
	for _, id := range localIDs {
		before := srv.GrantCounts(id).Refreshes
		if err := call(ctx, local.pool, id); err != nil {
			t.Errorf("grant %s, a due refresh with the Store down and LocalRefreshOnStoreError: %v", id, err)
		}
		if n := srv.GrantCounts(id).Refreshes - before; n != 1 {
			t.Errorf("grant %s: %d refreshes with LocalRefreshOnStoreError; want 1", id, n)
		}
	}
	if c := srv.Counts(); c.ReuseRevocations != 0 {
		t.Errorf("%d grants revoked for a reused refresh token; want none", c.ReuseRevocations)
	}
}
