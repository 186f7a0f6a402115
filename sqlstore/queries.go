package sqlstore

import (
	"regexp"
	"strings"
)

// All the SQL of the package, in PostgreSQL's spelling. SQLite runs the
// same statements with two substitutions (see dialect.queries): "{now}"
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
	load, saveToken, deleteToken string

	// lockLease makes sure the grant's lease row of a kind exists, locks
	// it until the transaction ends, and returns it with the database's
	// now. In PostgreSQL the no-op DO UPDATE takes the row lock (waiting
	// for a holder that is committing) and returns the row's newest
	// version; in SQLite the write takes the database's write lock.
	lockLease string
	// takeLease sets the fence and expiry of a locked lease row.
	takeLease string
	// endLease frees a lease if it is still held by fence and has not
	// expired; it reports one row when it freed it.
	endLease string
	// abandonLease frees a lease held by fence, expired or not.
	abandonLease string
	// resetLease frees the grant's lease of a kind whoever holds it,
	// creating the row if needed so that it is locked either way.
	resetLease  string
	deleteLease string

	claim, claimState, done, release, purge string
}

var postgresQueries = queries{
	load: `SELECT access_token, token_type, refresh_token, expiry_ns
FROM partner_sdk_tokens WHERE grant_id = $1`,
	saveToken: `INSERT INTO partner_sdk_tokens (grant_id, access_token, token_type, refresh_token, expiry_ns)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (grant_id) DO UPDATE SET
    access_token = excluded.access_token, token_type = excluded.token_type,
    refresh_token = excluded.refresh_token, expiry_ns = excluded.expiry_ns`,
	deleteToken: `DELETE FROM partner_sdk_tokens WHERE grant_id = $1`,

	lockLease: `INSERT INTO partner_sdk_leases (grant_id, kind, fence, expires_ns) VALUES ($1, $2, '', 0)
ON CONFLICT (grant_id, kind) DO UPDATE SET fence = partner_sdk_leases.fence
RETURNING fence, expires_ns, {now}`,
	takeLease: `UPDATE partner_sdk_leases SET fence = $3, expires_ns = $4
WHERE grant_id = $1 AND kind = $2`,
	endLease: `UPDATE partner_sdk_leases SET fence = '', expires_ns = 0
WHERE grant_id = $1 AND kind = $2 AND fence = $3 AND fence <> '' AND expires_ns > {now}`,
	abandonLease: `UPDATE partner_sdk_leases SET fence = '', expires_ns = 0
WHERE grant_id = $1 AND kind = $2 AND fence = $3`,
	resetLease: `INSERT INTO partner_sdk_leases (grant_id, kind, fence, expires_ns) VALUES ($1, $2, '', 0)
ON CONFLICT (grant_id, kind) DO UPDATE SET fence = '', expires_ns = 0`,
	deleteLease: `DELETE FROM partner_sdk_leases WHERE grant_id = $1`,

	// claim takes id when it has no row or only an expired one; it
	// returns a row exactly when it did.
	claim: `INSERT INTO partner_sdk_webhook_events (id, owner, done, expires_ns)
VALUES ($1, $2, false, {now} + $3)
ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, done = false, expires_ns = excluded.expires_ns
WHERE partner_sdk_webhook_events.expires_ns <= {now}
RETURNING owner`,
	// claimState tells, after a claim that took nothing, what holds id.
	claimState: `SELECT done, expires_ns > {now} FROM partner_sdk_webhook_events WHERE id = $1`,
	done: `INSERT INTO partner_sdk_webhook_events (id, owner, done, expires_ns)
VALUES ($1, '', true, {now} + $2)
ON CONFLICT (id) DO UPDATE SET owner = '', done = true, expires_ns = excluded.expires_ns`,
	release: `DELETE FROM partner_sdk_webhook_events WHERE id = $1 AND owner = $2 AND NOT done`,
	purge:   `DELETE FROM partner_sdk_webhook_events WHERE expires_ns <= {now}`,
}

var placeholder = regexp.MustCompile(`\$([0-9]+)`)

// rewrite turns a statement in PostgreSQL's spelling into the dialect's.
func rewrite(q, now string, sqlite bool) string {
	q = strings.ReplaceAll(q, "{now}", now)
	if sqlite {
		q = placeholder.ReplaceAllString(q, "?$1")
	}
	return q
}

// forDialect returns the statements in the dialect's spelling.
func forDialect(d Dialect) queries {
	now, sqlite := nowPostgres, d == SQLite
	if sqlite {
		now = nowSQLite
	}
	q := postgresQueries
	for _, p := range []*string{
		&q.load, &q.saveToken, &q.deleteToken,
		&q.lockLease, &q.takeLease, &q.endLease, &q.abandonLease, &q.resetLease, &q.deleteLease,
		&q.claim, &q.claimState, &q.done, &q.release, &q.purge,
	} {
		*p = rewrite(*p, now, sqlite)
	}
	return q
}
