package sqlstore

import (
	"regexp"
	"strings"
)

// All the SQL of the package, in PostgreSQL's spelling. SQLite runs the
// same statements with two substitutions (see forDialect): "{now}"
// becomes the dialect's reading of the database clock, and "$N" becomes
// "?N", SQLite's own numbered placeholder.
//
// Times are BIGINT Unix nanoseconds in both dialects, so that Load returns
// to the nanosecond the Expiry that Save stored, and every "now" they are
// compared with is read from the database, never from the Go process:
// replicas whose clocks disagree still agree on who holds a lease.

// schema is what Migrate runs, in order. Each statement is idempotent.
var schema = []string{
	// One row per grant: its OAuth token. expiry_ns is NULL for a token
	// without an expiry, which a lease treats as due.
	`CREATE TABLE IF NOT EXISTS partner_sdk_tokens (
    grant_id      TEXT PRIMARY KEY,
    access_token  TEXT NOT NULL,
    token_type    TEXT NOT NULL,
    refresh_token TEXT NOT NULL,
    expiry_ns     BIGINT
)`,
	// One row per grant and kind of token: who may refresh it. fence is ''
	// when nobody holds the lease; a holding ends at expires_ns by the
	// database clock.
	`CREATE TABLE IF NOT EXISTS partner_sdk_leases (
    grant_id   TEXT NOT NULL,
    kind       TEXT NOT NULL,
    fence      TEXT NOT NULL,
    expires_ns BIGINT NOT NULL,
    PRIMARY KEY (grant_id, kind)
)`,
	// One row per webhook event id: a claim (owner, done false) or a done
	// mark (done true), each alive until expires_ns.
	`CREATE TABLE IF NOT EXISTS partner_sdk_webhook_events (
    id         TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    done       BOOLEAN NOT NULL,
    expires_ns BIGINT NOT NULL
)`,
	`CREATE INDEX IF NOT EXISTS partner_sdk_webhook_events_expires
    ON partner_sdk_webhook_events (expires_ns)`,
}

// The database clock, in Unix nanoseconds. PostgreSQL's clock_timestamp()
// rather than now(): now() is the start of the transaction, which may be
// long past when a statement waited for a row lock. SQLite's julianday
// counts days since noon of 24 November 4714 BC; 2440587.5 of them end at
// the Unix epoch.
const (
	nowPostgres = `(extract(epoch from clock_timestamp()) * 1000000000)::bigint`
	nowSQLite   = `(CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 1000000)`
)

// queries holds the statements of one dialect.
type queries struct {
	load, saveToken, deleteToken                                          string
	lockLease, takeLease, endLease, abandonLease, resetLease, deleteLease string
	claim, claimState, done, release, purge                               string
}

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// forDialect returns the statements in the dialect's spelling.
func forDialect(d Dialect) queries {
	now := nowPostgres
	if d == SQLite {
		now = nowSQLite
	}
	q := func(stmt string) string {
		stmt = strings.ReplaceAll(stmt, "{now}", now)
		if d == SQLite {
			stmt = placeholder.ReplaceAllString(stmt, "?$1")
		}
		return stmt
	}
	return queries{
		load: q(`SELECT access_token, token_type, refresh_token, expiry_ns
FROM partner_sdk_tokens WHERE grant_id = $1`),
		saveToken: q(`INSERT INTO partner_sdk_tokens (grant_id, access_token, token_type, refresh_token, expiry_ns)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (grant_id) DO UPDATE SET
    access_token = excluded.access_token, token_type = excluded.token_type,
    refresh_token = excluded.refresh_token, expiry_ns = excluded.expiry_ns`),
		deleteToken: q(`DELETE FROM partner_sdk_tokens WHERE grant_id = $1`),

		// lockLease makes sure the grant's lease row of a kind exists,
		// locks it until the transaction ends, and returns it with the
		// database's now. In PostgreSQL the no-op DO UPDATE takes the row
		// lock (waiting for a holder that is committing) and returns the
		// row's newest version; in SQLite the write takes the database's
		// write lock.
		lockLease: q(`INSERT INTO partner_sdk_leases (grant_id, kind, fence, expires_ns) VALUES ($1, $2, '', 0)
ON CONFLICT (grant_id, kind) DO UPDATE SET fence = partner_sdk_leases.fence
RETURNING fence, expires_ns, {now}`),
		takeLease: q(`UPDATE partner_sdk_leases SET fence = $3, expires_ns = $4
WHERE grant_id = $1 AND kind = $2`),
		// endLease frees a lease still held by fence and not expired; it
		// reports one row when it freed it. abandonLease frees it,
		// expired or not.
		endLease: q(`UPDATE partner_sdk_leases SET fence = '', expires_ns = 0
WHERE grant_id = $1 AND kind = $2 AND fence = $3 AND fence <> '' AND expires_ns > {now}`),
		abandonLease: q(`UPDATE partner_sdk_leases SET fence = '', expires_ns = 0
WHERE grant_id = $1 AND kind = $2 AND fence = $3`),
		// resetLease frees the lease whoever holds it, creating the row if
		// needed so that it is locked either way.
		resetLease: q(`INSERT INTO partner_sdk_leases (grant_id, kind, fence, expires_ns) VALUES ($1, $2, '', 0)
ON CONFLICT (grant_id, kind) DO UPDATE SET fence = '', expires_ns = 0`),
		deleteLease: q(`DELETE FROM partner_sdk_leases WHERE grant_id = $1`),

		// claim takes id when it has no row or only an expired one; it
		// returns a row exactly when it did.
		claim: q(`INSERT INTO partner_sdk_webhook_events (id, owner, done, expires_ns)
VALUES ($1, $2, false, {now} + $3)
ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, done = false, expires_ns = excluded.expires_ns
WHERE partner_sdk_webhook_events.expires_ns <= {now}
RETURNING owner`),
		// claimState tells, after a claim that took nothing, what holds id.
		claimState: q(`SELECT done, expires_ns > {now} FROM partner_sdk_webhook_events WHERE id = $1`),
		done: q(`INSERT INTO partner_sdk_webhook_events (id, owner, done, expires_ns)
VALUES ($1, '', true, {now} + $2)
ON CONFLICT (id) DO UPDATE SET owner = '', done = true, expires_ns = excluded.expires_ns`),
		release: q(`DELETE FROM partner_sdk_webhook_events WHERE id = $1 AND owner = $2 AND NOT done`),
		purge:   q(`DELETE FROM partner_sdk_webhook_events WHERE expires_ns <= {now}`),
	}
}
