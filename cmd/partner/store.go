package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
	"github.com/locsvc/partner-go/sqlstore"
)

// storeSyntax is what PARTNER_STORE and --store take, for error messages.
const storeSyntax = "file:PATH, sqlite:PATH, postgres://... (a PostgreSQL DSN), " +
	"or redis://HOST:PORT/DB?store=<one of the others, URL-escaped>"

// openStore opens the token store that spec names (see storeSyntax) and
// returns it with a function that closes what it opened.
func openStore(ctx context.Context, spec string) (auth.Store, func(), error) {
	scheme, rest, _ := strings.Cut(spec, ":")
	switch scheme {
	case "file":
		s, err := newFileStore(rest)
		return s, func() {}, err
	case "sqlite":
		if rest == "" {
			return nil, nil, usageErrorf("sqlite: needs a path, as in sqlite:/var/lib/partner/tokens.db")
		}
		dsn := "file:" + rest + "?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)"
		return openSQL(ctx, "sqlite", dsn, sqlstore.SQLite)
	case "postgres", "postgresql":
		// Parsed here: pgx's own errors quote the setting, with its
		// password redacted on a best effort.
		if _, err := pgx.ParseConfig(spec); err != nil {
			return nil, nil, usageErrorf("PARTNER_STORE: not a PostgreSQL URL: %s", urlProblem(err))
		}
		return openSQL(ctx, "pgx", spec, sqlstore.Postgres)
	case "redis", "rediss":
		return openRedis(ctx, spec)
	}
	kind := ""
	if schemeRE.MatchString(scheme) {
		kind = " " + strconv.Quote(scheme)
	}
	return nil, nil, usageErrorf("PARTNER_STORE: unknown kind of store%s; use %s", kind, storeSyntax)
}

// schemeRE matches a URL scheme short enough to be one, which an error
// may quote (the rest of a store setting may hold a password).
var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]{0,19}$`)

// urlProblem says what is wrong with a store URL that err refused,
// without quoting any of it: the parsers' messages quote parts of the
// URL, and a password written without escapes shifts into those parts.
func urlProblem(err error) string {
	msg := err.Error()
	for _, p := range []struct{ in, say string }{
		{"invalid port", "the port is not a number (or a password holds /, ?, # or @ unescaped: write them as %2F, %3F, %23 and %40)"},
		{"invalid URL escape", "a %-escape is not two hex digits (write a password's %, @, /, ?, # and : as %25, %40, %2F, %3F, %23 and %3A)"},
		{"missing ']'", "an IPv6 host lacks its ']'"},
		{"invalid character", "the host holds a character URLs do not allow"},
		{"invalid control character", "it holds a control character"},
		{"invalid database number", "the database after the host is not a number"},
		{"invalid URL scheme", "the scheme is not redis or rediss"},
	} {
		if strings.Contains(msg, p.in) {
			return p.say
		}
	}
	return "it does not parse (the setting is not shown: it may hold a password)"
}

func openSQL(ctx context.Context, driver, dsn string, d sqlstore.Dialect) (auth.Store, func(), error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the %s store: %w", driver, err)
	}
	s, err := sqlstore.New(db, d)
	if err == nil {
		err = s.Migrate(ctx)
	}
	if err != nil {
		db.Close()
		return nil, nil, fmt.Errorf("opening the %s store: %w", driver, err)
	}
	return s, func() { db.Close() }, nil
}

// openRedis opens Redis in front of the store named by the URL's store
// parameter: leases and installation tokens in Redis, refresh tokens in
// the backing store.
func openRedis(ctx context.Context, spec string) (auth.Store, func(), error) {
	u, err := url.Parse(spec)
	if err != nil {
		return nil, nil, usageErrorf("PARTNER_STORE: not a Redis URL: %s", urlProblem(err))
	}
	q := u.Query()
	backing := q.Get("store")
	if backing == "" || strings.HasPrefix(backing, "redis") {
		return nil, nil, usageErrorf("PARTNER_STORE: Redis keeps no refresh token: name the store of record with ?store=, as in redis://localhost:6379/0?store=sqlite:/var/lib/partner/tokens.db")
	}
	q.Del("store")
	u.RawQuery = q.Encode()
	opt, err := redis.ParseURL(u.String())
	if err != nil {
		return nil, nil, usageErrorf("PARTNER_STORE: not a Redis URL: %s", urlProblem(err))
	}
	back, closeBack, err := openStore(ctx, backing)
	if err != nil {
		return nil, nil, err
	}
	rdb := redis.NewClient(opt)
	return redisstore.New(rdb, back), func() { rdb.Close(); closeBack() }, nil
}

// redactSpec returns a store setting for messages: every password
// replaced with xxxxx, that of its URL, of a password parameter, and of
// the store a Redis URL names with ?store=, however deep. A setting that
// does not parse is shown as its kind alone.
func redactSpec(spec string) string {
	scheme, _, _ := strings.Cut(spec, ":")
	switch scheme {
	case "file", "sqlite":
		return spec // a path
	}
	u, err := url.Parse(spec)
	if err != nil || !schemeRE.MatchString(scheme) {
		if schemeRE.MatchString(scheme) {
			return scheme + ":..."
		}
		return "..."
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k, vs := range q {
			for i, v := range vs {
				switch {
				case strings.Contains(strings.ToLower(k), "password"):
					vs[i] = "xxxxx"
				case k == "store":
					vs[i] = redactSpec(v)
				}
			}
		}
		u.RawQuery = q.Encode()
	}
	return u.Redacted()
}

// seed saves tok as the grant's token if store has none, and reports
// whether it did. With an auth.Leaser the look and the save are one step
// against the other processes (a process that is refreshing holds the
// lease, and its new token is never replaced by the seed).
func seed(ctx context.Context, store auth.Store, grantID string, tok *oauth2.Token) (bool, error) {
	l, ok := store.(auth.Leaser)
	if !ok {
		_, err := store.Load(ctx, grantID)
		if !errors.Is(err, auth.ErrNoToken) {
			return false, err
		}
		return true, store.Save(ctx, grantID, tok)
	}
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, time.Second) {
		lease, stored, err := l.AcquireLease(ctx, grantID, auth.KindAccess, 0, 10*time.Second)
		switch {
		case errors.Is(err, auth.ErrLeaseHeld) && stored != nil:
			return false, nil // another process is refreshing the stored token
		case errors.Is(err, auth.ErrLeaseHeld):
			// another process is seeding: look again once it has
		case err != nil:
			return false, err
		case lease == nil:
			return false, nil // a fresh token is stored
		case stored != nil:
			return false, l.AbandonLease(ctx, lease)
		default:
			return true, l.CommitLease(ctx, lease, tok)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}
