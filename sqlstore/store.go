package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// Dialect names the SQL database a Store talks to.
type Dialect int

// The dialects a Store speaks.
const (
	// Postgres is PostgreSQL, version 12 or newer, through any
	// database/sql driver (such as github.com/jackc/pgx/v5/stdlib).
	Postgres Dialect = iota + 1
	// SQLite is SQLite, version 3.35 or newer, through any database/sql
	// driver (such as modernc.org/sqlite). Open the database with a busy
	// timeout (for modernc.org/sqlite, "_pragma=busy_timeout(10000)" in
	// the DSN) so that writers wait for each other instead of failing with
	// SQLITE_BUSY; WAL mode lets readers run beside them.
	SQLite
)

// String returns the dialect's name, such as "postgres".
func (d Dialect) String() string {
	switch d {
	case Postgres:
		return "postgres"
	case SQLite:
		return "sqlite"
	}
	return fmt.Sprintf("Dialect(%d)", int(d))
}

// Errors of the package, for errors.Is.
var (
	// ErrInvalid is returned for arguments a Store cannot work with: a
	// nil database, an unknown dialect, a nil token, a lease TTL that is
	// not positive.
	ErrInvalid = errors.New("sqlstore: invalid argument")
	// ErrUnsupportedKind is returned for a lease of a kind of token other
	// than auth.KindAccess and auth.KindInstallation.
	ErrUnsupportedKind = errors.New("sqlstore: unknown kind of token")
)

// Store is an auth.Store in a SQL database that the replicas of an
// application share. It implements auth.Leaser, so that one replica at a
// time refreshes a grant's access token, and auth.Deleter. It is safe for
// concurrent use by many goroutines and processes.
//
// Tokens are stored as they are: encrypt the database at rest, or its
// disk, as for any other credential.
type Store struct {
	db      *sql.DB
	dialect Dialect
	q       queries
}

var (
	_ auth.Leaser  = (*Store)(nil)
	_ auth.Deleter = (*Store)(nil)
)

// New returns a Store on db, which speaks dialect. It does not touch the
// database: call Migrate once (at every start is fine) to create the
// tables.
func New(db *sql.DB, dialect Dialect) (*Store, error) {
	if db == nil {
		return nil, fmt.Errorf("%w: New needs a database", ErrInvalid)
	}
	if dialect != Postgres && dialect != SQLite {
		return nil, fmt.Errorf("%w: unknown %v", ErrInvalid, dialect)
	}
	return &Store{db: db, dialect: dialect, q: forDialect(dialect)}, nil
}

// Migrate creates the Store's tables and index where they do not exist
// yet. It is idempotent, and replicas starting together may all call it.
func (s *Store) Migrate(ctx context.Context) error {
	for _, stmt := range schema {
		var err error
		// PostgreSQL's CREATE ... IF NOT EXISTS can still fail with a
		// unique violation when two sessions create the same table at
		// once; the next attempt then finds it.
		for range 3 {
			if _, err = s.db.ExecContext(ctx, stmt); err == nil || ctx.Err() != nil {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("sqlstore: migrate: %w", err)
		}
	}
	return nil
}

// Load returns the grant's token, or auth.ErrNoToken.
func (s *Store) Load(ctx context.Context, grantID string) (*oauth2.Token, error) {
	tok, err := s.load(ctx, s.db, grantID)
	if tok == nil && err == nil {
		return nil, auth.ErrNoToken
	}
	return tok, err
}

// querier is what load needs of a *sql.DB or a *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// load returns the grant's token, or nil when there is none.
func (s *Store) load(ctx context.Context, db querier, grantID string) (*oauth2.Token, error) {
	var t oauth2.Token
	var expiry sql.NullInt64
	err := db.QueryRowContext(ctx, s.q.load, grantID).Scan(&t.AccessToken, &t.TokenType, &t.RefreshToken, &expiry)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("sqlstore: load token: %w", err)
	}
	if expiry.Valid {
		t.Expiry = time.Unix(0, expiry.Int64)
	}
	return &t, nil
}

// Save stores tok as the grant's token. A token saved outside a lease (a
// code exchange, the user connecting again) is the newest there is: Save
// also ends any lease on the grant's access token, so that a refresh
// already under way cannot commit over it (its CommitLease returns
// auth.ErrLeaseLost).
func (s *Store) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	if tok == nil {
		return fmt.Errorf("%w: Save of a nil token", ErrInvalid)
	}
	return s.inTx(ctx, "save token", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q.resetLease, grantID, string(auth.KindAccess)); err != nil {
			return err
		}
		return s.saveToken(ctx, tx, grantID, tok)
	})
}

func (s *Store) saveToken(ctx context.Context, tx *sql.Tx, grantID string, tok *oauth2.Token) error {
	expiry := sql.NullInt64{Int64: tok.Expiry.UnixNano(), Valid: !tok.Expiry.IsZero()}
	_, err := tx.ExecContext(ctx, s.q.saveToken, grantID, tok.AccessToken, tok.TokenType, tok.RefreshToken, expiry)
	return err
}

// Delete forgets the grant's token and ends its leases; an unknown grant
// is not an error.
func (s *Store) Delete(ctx context.Context, grantID string) error {
	return s.inTx(ctx, "delete token", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.q.deleteLease, grantID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.q.deleteToken, grantID)
		return err
	})
}

// AcquireLease implements auth.Leaser, in one short transaction: it locks
// the grant's lease row of kind, reads the stored token, and takes the
// lease for ttl when the token is due (it expires within due of the
// database's now, or has no expiry) and nobody holds the lease.
//
// The Store keeps no installation tokens (it is not an
// auth.InstallationCache), so for auth.KindInstallation the stored token
// is always nil, and the lease only takes turns: the SDK asks for one
// only from a Store that shares installation tokens, such as redisstore.
func (s *Store) AcquireLease(ctx context.Context, grantID string, kind auth.TokenKind, due, ttl time.Duration) (*auth.Lease, *oauth2.Token, error) {
	if err := checkKind(kind); err != nil {
		return nil, nil, err
	}
	if ttl <= 0 || due < 0 {
		return nil, nil, fmt.Errorf("%w: AcquireLease needs a positive TTL (got %v) and a due margin not negative (got %v)", ErrInvalid, ttl, due)
	}
	var (
		lease *auth.Lease
		tok   *oauth2.Token
	)
	err := s.inTx(ctx, "acquire lease", func(tx *sql.Tx) error {
		lease, tok = nil, nil
		var fence string
		var expires, now int64
		if err := tx.QueryRowContext(ctx, s.q.lockLease, grantID, string(kind)).Scan(&fence, &expires, &now); err != nil {
			return err
		}
		// Read only once the lease row is locked: a holder committing
		// its token has committed by now, and its token is the one read.
		if kind == auth.KindAccess {
			var err error
			if tok, err = s.load(ctx, tx, grantID); err != nil {
				return err
			}
		}
		switch {
		case tok != nil && !tok.Expiry.IsZero() && tok.Expiry.UnixNano() > now+int64(due):
			return nil // fresh: use it
		case fence != "" && expires > now:
			return auth.ErrLeaseHeld // with the stored token
		}
		f := rand.Text() // unguessable by another holder
		if _, err := tx.ExecContext(ctx, s.q.takeLease, grantID, string(kind), f, now+int64(ttl)); err != nil {
			return err
		}
		lease = &auth.Lease{GrantID: grantID, Kind: kind, Fence: f}
		return nil
	})
	if err != nil && !errors.Is(err, auth.ErrLeaseHeld) {
		return nil, nil, err
	}
	return lease, tok, err
}

// CommitLease implements auth.Leaser: in one transaction it ends the
// lease if it is still held by l.Fence and has not expired by the
// database's clock, and saves tok; otherwise it saves nothing and returns
// auth.ErrLeaseLost. For auth.KindInstallation it saves nothing either
// way: the Store keeps no installation tokens.
func (s *Store) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	if l == nil || tok == nil {
		return fmt.Errorf("%w: CommitLease needs a lease and a token", ErrInvalid)
	}
	if err := checkKind(l.Kind); err != nil {
		return err
	}
	return s.inTx(ctx, "commit lease", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.q.endLease, l.GrantID, string(l.Kind), l.Fence)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return auth.ErrLeaseLost
		}
		if l.Kind != auth.KindAccess {
			return nil
		}
		return s.saveToken(ctx, tx, l.GrantID, tok)
	})
}

// AbandonLease implements auth.Leaser: it frees the lease if l.Fence
// still holds it. A lease already lost is not an error.
func (s *Store) AbandonLease(ctx context.Context, l *auth.Lease) error {
	if l == nil {
		return fmt.Errorf("%w: AbandonLease of a nil lease", ErrInvalid)
	}
	if _, err := s.db.ExecContext(ctx, s.q.abandonLease, l.GrantID, string(l.Kind), l.Fence); err != nil {
		return fmt.Errorf("sqlstore: abandon lease: %w", err)
	}
	return nil
}

// checkKind returns ErrUnsupportedKind for a kind the Store does not know.
func checkKind(kind auth.TokenKind) error {
	if kind != auth.KindAccess && kind != auth.KindInstallation {
		return fmt.Errorf("%w: %q", ErrUnsupportedKind, kind)
	}
	return nil
}

// inTx runs f in a transaction and commits it when f returns nil. An
// error of f that is one of the auth package's (auth.ErrLeaseLost,
// auth.ErrLeaseHeld) is returned as is; others are wrapped with what.
func (s *Store) inTx(ctx context.Context, what string, f func(*sql.Tx) error) error {
	var opts *sql.TxOptions
	if s.dialect == Postgres {
		// Each statement must see what committed before it started (and
		// after the lock it waited for), whatever the server's default.
		opts = &sql.TxOptions{Isolation: sql.LevelReadCommitted}
	}
	tx, err := s.db.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	if err := f(tx); err != nil {
		_ = tx.Rollback() // the error of f says what went wrong
		if errors.Is(err, auth.ErrLeaseLost) || errors.Is(err, auth.ErrLeaseHeld) {
			return err
		}
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("sqlstore: %s: %w", what, err)
	}
	return nil
}

// String describes the store without its contents.
func (s *Store) String() string { return "sqlstore.Store{" + s.dialect.String() + "}" }

// LogValue makes slog log the store as String.
func (s *Store) LogValue() slog.Value { return slog.StringValue(s.String()) }
