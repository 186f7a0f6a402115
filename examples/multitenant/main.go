// Command multitenant shows the replicas of an application serving many
// users. It starts the fake service and 4 replicas: 4 Pools, each with its
// own connection to one database shared through sqlstore, as separate
// processes would have. It connects 1,000 users, runs 10 calls per user
// from 50 workers, each call on a replica picked at random (a load
// balancer), revokes 10 grants midway, and prints what happened: calls
// made; refreshes (one per grant across the replicas, thanks to the
// store's lease) and mints (one per replica that served the grant:
// sqlstore shares no installation tokens); the revoked grants' outcome;
// and the heap the pools keep per grant.
//
// The database is a SQLite file in a temporary directory, or the
// PostgreSQL database at PARTNER_PG_DSN when that is set:
//
//	cd examples/multitenant && go run .
//	PARTNER_PG_DSN=postgres://app@localhost/app go run .
//
// The example is a module of its own so that the SDK's go.mod carries no
// database driver.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
	"golang.org/x/oauth2"
	_ "modernc.org/sqlite" // registers "sqlite"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/sqlstore"
)

const (
	replicas = 4
	users    = 1000
	calls    = 10 // per user
	workers  = 50
	revoked  = 10
)

func main() {
	if err := run(context.Background(), os.Stdout, os.Getenv("PARTNER_PG_DSN")); err != nil {
		fmt.Fprintln(os.Stderr, "multitenant:", err)
		os.Exit(1)
	}
}

type result struct {
	ok, reauth, other atomic.Int64
}

// database says how a replica opens the shared database.
type database struct {
	name, driver, dsn string
	dialect           sqlstore.Dialect
}

// replica is one process of the application: its own connection pool to
// the shared database, its own Pool.
type replica struct {
	db    *sql.DB
	store *sqlstore.Store
	pool  *partner.Pool
}

// run runs the demo on PostgreSQL at pgDSN, or on a new SQLite file when
// pgDSN is empty.
func run(ctx context.Context, out io.Writer, pgDSN string) error {
	srv := partnertest.NewServer()
	defer srv.Close()

	d := database{name: "PostgreSQL", driver: "pgx", dsn: pgDSN, dialect: sqlstore.Postgres}
	if pgDSN == "" {
		dir, err := os.MkdirTemp("", "multitenant-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		// The busy timeout makes writers from many connections wait for
		// each other instead of failing with SQLITE_BUSY.
		d = database{name: "SQLite", driver: "sqlite", dialect: sqlstore.SQLite,
			dsn: "file:" + filepath.Join(dir, "partner.db") +
				"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"}
	}

	reps := make([]*replica, replicas)
	for i := range reps {
		r, err := startReplica(ctx, d, srv)
		if err != nil {
			return err
		}
		defer r.db.Close()
		defer r.pool.Close()
		reps[i] = r
	}

	// Each user connected the application; the tokens are in the shared
	// database. (A demo on your database leaves none behind.)
	grants := make([]partnertest.Grant, users)
	defer func() {
		for _, g := range grants {
			if g.ID != "" {
				reps[0].store.Delete(context.WithoutCancel(ctx), g.ID)
			}
		}
	}()
	for i := range grants {
		grants[i] = srv.NewGrant()
		if err := reps[0].store.Save(ctx, grants[i].ID, &oauth2.Token{RefreshToken: grants[i].RefreshToken}); err != nil {
			return err
		}
	}

	// The jobs: call i of every user, for i in 0..9, so that the revoked
	// users are revoked after some calls succeeded.
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for j := range users * calls {
			if j == users*calls/2 {
				for _, g := range grants[:revoked] {
					srv.Revoke(g.ID) // users who disconnect mid-run
				}
			}
			jobs <- j
		}
	}()
	var live, gone result
	var outMu sync.Mutex                          // out is any io.Writer: one worker writes at a time
	served := make([]atomic.Bool, replicas*users) // [replica*users+user]: a live grant served there
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				u, rep := j%users, rand.IntN(replicas)
				g := grants[u]
				r := &live
				if u < revoked {
					r = &gone
				}
				c, err := reps[rep].pool.Client(ctx, g.ID)
				if err == nil {
					_, err = c.Projects.List(ctx, g.Organizations[0].ID)
				}
				switch {
				case err == nil:
					r.ok.Add(1)
					if u >= revoked {
						served[rep*users+u].Store(true)
					}
				case errors.Is(err, partner.ErrReauthorizationRequired):
					r.reauth.Add(1)
				default:
					r.other.Add(1)
					outMu.Lock()
					fmt.Fprintln(out, "unexpected:", err)
					outMu.Unlock()
				}
			}
		})
	}
	wg.Wait()

	// What the pools keep: the heap with them, less the heap without them
	// (the fake service's state and the database connections stay in both).
	with := heap()
	for _, r := range reps {
		if err := r.pool.Close(); err != nil {
			return err
		}
		r.pool = nil
	}
	perGrant := float64(int64(with)-int64(heap())) / (users * replicas)

	var liveRefreshes, liveMints, goneRequests, pairs int
	for i, g := range grants {
		n := srv.GrantCounts(g.ID)
		if i >= revoked {
			liveRefreshes += n.Refreshes
			liveMints += n.Mints
		}
	}
	for i := range served {
		if served[i].Load() {
			pairs++
		}
	}
	for _, r := range srv.Requests() {
		for _, g := range grants[:revoked] {
			if r.GrantID == g.ID && (r.Status == 410 || r.Status == 400) {
				goneRequests++
			}
		}
	}

	const liveGrants = users - revoked
	fmt.Fprintf(out, "users %d, calls %d from %d workers, each on one of %d replicas (Pools) sharing one %s database, picked at random\n",
		users, users*calls, workers, replicas, d.name)
	fmt.Fprintf(out, "live grants (%d): %d calls ok, %d failed\n", liveGrants, live.ok.Load(), live.reauth.Load()+live.other.Load())
	fmt.Fprintf(out, "  refreshes %d, mints %d: %.2f and %.2f per grant\n", liveRefreshes, liveMints,
		float64(liveRefreshes)/liveGrants, float64(liveMints)/liveGrants)
	fmt.Fprintf(out, "  (the store's lease keeps refreshes at one per grant across replicas; mints are one per replica that served the grant, %d such pairs, as sqlstore shares no installation tokens)\n", pairs)
	fmt.Fprintf(out, "revoked grants (%d): %d calls ok before, %d refused with ErrReauthorizationRequired, %d other errors\n",
		revoked, gone.ok.Load(), gone.reauth.Load(), gone.other.Load())
	fmt.Fprintf(out, "  refused answers from the service for them: %d (at most one per grant and replica; later calls never left the process)\n", goneRequests)
	fmt.Fprintf(out, "heap kept by the pools: about %.0f bytes per grant and replica\n", perGrant)

	if live.reauth.Load()+live.other.Load()+gone.other.Load() > 0 || goneRequests > revoked*replicas ||
		liveRefreshes != liveGrants || liveMints != pairs {
		return errors.New("unexpected outcome (see above)")
	}
	return nil
}

// startReplica opens the shared database, creates the tables if needed
// (every replica may, at start) and returns a replica with a Pool on it.
func startReplica(ctx context.Context, d database, srv *partnertest.Server) (*replica, error) {
	db, err := sql.Open(d.driver, d.dsn)
	if err != nil {
		return nil, err
	}
	store, err := sqlstore.New(db, d.dialect)
	if err == nil {
		err = store.Migrate(ctx)
	}
	var pool *partner.Pool
	if err == nil {
		pool, err = partner.NewPool(partner.PoolConfig{
			BaseURL: srv.URL, AuthURL: srv.AuthURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			Store: store,
			// A refresh's lease and save may wait their turn behind
			// those of workers-1 others (SQLite takes one writer at a
			// time): on a slow machine, longer than the 30 s default.
			RefreshTimeout: 2 * time.Minute,
		})
	}
	if err != nil {
		db.Close()
		return nil, err
	}
	return &replica{db: db, store: store, pool: pool}, nil
}

// heap returns the live heap after a collection.
func heap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
