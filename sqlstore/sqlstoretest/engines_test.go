package sqlstoretest_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/locsvc/partner-go/sqlstore"
	"github.com/locsvc/partner-go/sqlstore/sqlstoretest"
)

// engine is one database sqlstore runs on in these tests.
type engine struct {
	name    string
	dialect sqlstore.Dialect
	// open returns a new, empty database and its DSN, which a child
	// process opens with driver.
	open   func(tb testing.TB) (*sql.DB, string)
	driver string
}

func sqliteEngine() engine {
	return engine{name: "sqlite", dialect: sqlstore.SQLite, open: sqlstoretest.OpenSQLite, driver: "sqlite"}
}

func postgresEngine(p *sqlstoretest.Postgres) engine {
	return engine{name: "postgres", dialect: sqlstore.Postgres, open: p.Open, driver: "pgx"}
}

// newStore returns a migrated Store on a new, empty database of e, with
// the database's DSN.
func (e engine) newStore(tb testing.TB) (*sqlstore.Store, string) {
	tb.Helper()
	db, dsn := e.open(tb)
	s, err := sqlstore.New(db, e.dialect)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Migrate(ctx); err != nil {
		tb.Fatal(err)
	}
	return s, dsn
}

// The tests of every subject, on each engine. PostgreSQL is started once
// for all of them.

func TestSQLite(t *testing.T) { runAll(t, sqliteEngine()) }

func TestPostgres(t *testing.T) { runAll(t, postgresEngine(sqlstoretest.StartPostgres(t))) }

func runAll(t *testing.T, e engine) {
	t.Run("Migrate", func(t *testing.T) { testMigrate(t, e) })
	t.Run("Conformance", func(t *testing.T) { testConformance(t, e) })
	t.Run("Store", func(t *testing.T) { testStore(t, e) })
	t.Run("Leases", func(t *testing.T) { testLeases(t, e) })
	t.Run("LeaseTakeover", func(t *testing.T) { testLeaseTakeover(t, e) })
	t.Run("LeasesConcurrent", func(t *testing.T) { testLeasesConcurrent(t, e) })
	t.Run("LeasesAcrossProcesses", func(t *testing.T) { testLeasesAcrossProcesses(t, e) })
	t.Run("LeaseHolderKilled", func(t *testing.T) { testLeaseHolderKilled(t, e) })
	t.Run("Dedup", func(t *testing.T) { testDedup(t, e) })
	t.Run("DedupExpiry", func(t *testing.T) { testDedupExpiry(t, e) })
	t.Run("DedupConcurrent", func(t *testing.T) { testDedupConcurrent(t, e) })
	t.Run("DedupAcrossProcesses", func(t *testing.T) { testDedupAcrossProcesses(t, e) })
	t.Run("DedupClaimerKilled", func(t *testing.T) { testDedupClaimerKilled(t, e) })
}

// eventually calls f until it returns true, failing t after limit. The
// times under test are the database's, which no fake clock reaches.
func eventually(t *testing.T, limit time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: still not %s", limit, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
