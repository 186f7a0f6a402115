package sqlstore_test

import (
	"context"
	"database/sql"
	"log"

	"github.com/locsvc/partner-go/sqlstore"
)

// A Store shared by the replicas of an application. (Compiled, not run:
// it needs a database and its driver.)
func ExampleNew() {
	ctx := context.Background()
	// The application opens its database with its driver, for example
	// sql.Open("pgx", dsn) with github.com/jackc/pgx/v5/stdlib.
	var db *sql.DB
	store, err := sqlstore.New(db, sqlstore.Postgres)
	if err != nil {
		log.Fatal(err)
	}
	if err := store.Migrate(ctx); err != nil {
		log.Fatal(err)
	}
	// Give store to partner.PoolConfig.Store, and store.Dedup() to the
	// webhook handler.
	_ = store.Dedup()
}
