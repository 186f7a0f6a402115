package auth_test

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// SQLStore keeps tokens in the application's own database, in a table
//
//	CREATE TABLE partner_tokens (
//	    grant_id      TEXT PRIMARY KEY,
//	    access_token  TEXT NOT NULL,
//	    refresh_token TEXT NOT NULL,
//	    expiry        TIMESTAMP
//	);
//
// (the placeholders below are PostgreSQL's; encrypt the columns at rest
// if your database does not).
type SQLStore struct{ DB *sql.DB }

// Load returns the grant's token, or auth.ErrNoToken.
func (s SQLStore) Load(ctx context.Context, grantID string) (*oauth2.Token, error) {
	var t oauth2.Token
	var expiry sql.NullTime
	err := s.DB.QueryRowContext(ctx,
		`SELECT access_token, refresh_token, expiry FROM partner_tokens WHERE grant_id = $1`, grantID,
	).Scan(&t.AccessToken, &t.RefreshToken, &expiry)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, auth.ErrNoToken
	}
	if err != nil {
		return nil, err
	}
	t.Expiry = expiry.Time
	return &t, nil
}

// Save stores the grant's token; the SDK calls it after every refresh,
// before the new token is used.
func (s SQLStore) Save(ctx context.Context, grantID string, t *oauth2.Token) error {
	_, err := s.DB.ExecContext(ctx,
		`INSERT INTO partner_tokens (grant_id, access_token, refresh_token, expiry)
		 VALUES ($1, $2, $3, $4)
		 ON CONFLICT (grant_id) DO UPDATE
		 SET access_token = $2, refresh_token = $3, expiry = $4`,
		grantID, t.AccessToken, t.RefreshToken, sql.NullTime{Time: t.Expiry, Valid: !t.Expiry.IsZero()})
	return err
}

// A Store backed by database/sql: the application saves the token of each
// code exchange, and the SDK keeps it current. (Compiled, not run: it
// needs a database.)
func ExampleStore_sql() {
	var db *sql.DB // sql.Open with the driver the application already uses
	store := SQLStore{DB: db}
	var _ auth.Store = store

	// In the OAuth callback, after the code exchange:
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = store.Save(ctx, "grant-id", &oauth2.Token{RefreshToken: "from the code exchange"})
}
