package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// LoadInstallation implements auth.InstallationCache: the grant's
// installation token with the expiry and lifetime it was saved with. Redis
// drops the token when its time to live, set from that expiry, runs out.
func (s *Store) LoadInstallation(ctx context.Context, grantID string) (*oauth2.Token, error) {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return nil, err
	}
	values, err := s.rdb.MGet(ctx, k.state, k.life).Result()
	if err != nil {
		return nil, fmt.Errorf("redisstore: grant %s: loading the installation token: %w", grantID, err)
	}
	value, ok := values[0].(string)
	if !ok {
		return nil, auth.ErrNoToken
	}
	life, _ := values[1].(string)
	tok := installationToken(value, life)
	if tok == nil {
		return nil, fmt.Errorf("redisstore: grant %s: the installation token's key holds no token this package wrote", grantID)
	}
	return tok, nil
}

// SaveInstallation implements auth.InstallationCache: the token is kept
// with PX = its time to expiry, so Redis drops it when it expires. A token
// that already expired is not kept (and drops the one that was).
func (s *Store) SaveInstallation(ctx context.Context, grantID string, tok *oauth2.Token) error {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return err
	}
	if tok == nil {
		return errors.New("redisstore: SaveInstallation of a nil token")
	}
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		ttl := time.Duration(ttlMillis(tok.Expiry)) * time.Millisecond
		if ttl <= 0 {
			p.Del(ctx, k.state, k.life)
			return nil
		}
		p.Set(ctx, k.state, formatInstallation(tok.AccessToken, tok.Expiry), ttl)
		if life := formatLife(tok); life != "" {
			p.Set(ctx, k.life, life, ttl)
		} else {
			p.Del(ctx, k.life)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisstore: grant %s: saving the installation token: %w", grantID, err)
	}
	return nil
}

// DeleteInstallation implements auth.InstallationCache. It deletes the
// installation token and its lease together: a mint in flight with the
// grant's former access token commits nothing.
func (s *Store) DeleteInstallation(ctx context.Context, grantID string) error {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return err
	}
	if err := s.rdb.Del(ctx, k.state, k.lease, k.life).Err(); err != nil {
		return fmt.Errorf("redisstore: grant %s: deleting the installation token: %w", grantID, err)
	}
	return nil
}

// formatInstallation is the value of an installation token's key: its
// expiry in Unix nanoseconds, a colon, the token. The key's time to live
// is what expires it; the expiry is kept so that it reads back as saved.
// Versions before the lifetime was shared read and write this same value.
func formatInstallation(token string, expiry time.Time) string {
	return strconv.FormatInt(expiry.UnixNano(), 10) + ":" + token
}

// parseInstallation reads a value formatInstallation wrote.
func parseInstallation(value string) (token string, expiry time.Time, ok bool) {
	ns, token, ok := strings.Cut(value, ":")
	if !ok {
		return "", time.Time{}, false
	}
	n, err := strconv.ParseInt(ns, 10, 64)
	if err != nil {
		return "", time.Time{}, false
	}
	return token, time.Unix(0, n), true
}

// formatLife is the value of the key that holds an installation token's
// whole lifetime (auth.InstallationCache's ExpiresIn), in a key of its own
// so that the token's value stays as older versions read it: the token's
// expiry in Unix nanoseconds, a colon, the lifetime in seconds. The expiry
// ties it to its token: a token an older version saved over it (which
// leaves this key) is not given another's lifetime. "" when the lifetime
// is unknown.
func formatLife(tok *oauth2.Token) string {
	if tok.ExpiresIn <= 0 {
		return ""
	}
	return strconv.FormatInt(tok.Expiry.UnixNano(), 10) + ":" + strconv.FormatInt(tok.ExpiresIn, 10)
}

// installationToken reads the values of an installation token's keys
// (life may be ""), or returns nil when value is not one this package
// wrote. A lifetime that is missing, unreadable or of another token is
// left 0: unknown.
func installationToken(value, life string) *oauth2.Token {
	token, expiry, ok := parseInstallation(value)
	if !ok {
		return nil
	}
	tok := &oauth2.Token{AccessToken: token, TokenType: "Bearer", Expiry: expiry}
	ns, secs, ok := strings.Cut(life, ":")
	if n, err := strconv.ParseInt(ns, 10, 64); ok && err == nil && n == expiry.UnixNano() {
		if l, err := strconv.ParseInt(secs, 10, 64); err == nil && l > 0 {
			tok.ExpiresIn = l
		}
	}
	return tok
}
