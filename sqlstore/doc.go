// Package sqlstore keeps the SDK's shared state in a SQL database that
// the replicas of an application already share: each grant's OAuth token,
// the lease that lets one replica at a time refresh it, and webhook
// deduplication. It speaks PostgreSQL and SQLite through database/sql and
// depends on no driver: open the database with the driver the application
// uses, then
//
//	store, err := sqlstore.New(db, sqlstore.Postgres)
//	err = store.Migrate(ctx)          // creates the tables if needed
//	pool, err := partner.NewPool(partner.PoolConfig{..., Store: store})
//	handler := webhook.NewHandler(..., webhook.WithDeduplication(store.Dedup()))
//
// # Guarantees
//
// The Store implements auth.Store, auth.Leaser and auth.Deleter. Per grant
// and access-token lifetime, one replica refreshes and the others take
// the token it committed (see AcquireLease and CommitLease); the refresh
// itself (an HTTP call) runs outside any transaction, and a replica that
// stalled past its lease never overwrites a newer token. A lease whose
// holder crashed expires after its TTL. Every time is read from the
// database's clock (clock_timestamp() on PostgreSQL, julianday('now') on
// SQLite), never the replica's. No session advisory lock is used, so the
// Store works behind a transaction pooler such as PgBouncer.
//
// The Store is not an auth.InstallationCache: the service advises never
// to keep installation tokens in a database, so with sqlstore alone each
// replica mints its own installation token. Put redisstore in front of it
// to share those too.
//
// The tables (see Migrate) are partner_sdk_tokens, partner_sdk_leases
// and partner_sdk_webhook_events. Tokens are stored as they are: encrypt
// the database at rest.
package sqlstore
