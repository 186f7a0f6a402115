package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locsvc/partner-go/auth"
)

// LoadInstallation implements auth.InstallationCache: the grant's
// installation token and the expiry it was saved with. Redis drops the
// token when its time to live, set from that expiry, runs out.
func (s *Store) LoadInstallation(ctx context.Context, grantID string) (string, time.Time, error) {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return "", time.Time{}, err
	}
	value, err := s.rdb.Get(ctx, k.state).Result()
	if errors.Is(err, redis.Nil) {
		return "", time.Time{}, auth.ErrNoToken
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("redisstore: grant %s: loading the installation token: %w", grantID, err)
	}
	token, expiry, ok := parseInstallation(value)
	if !ok {
		return "", time.Time{}, fmt.Errorf("redisstore: grant %s: the installation token's key holds no token this package wrote", grantID)
	}
	return token, expiry, nil
}

// SaveInstallation implements auth.InstallationCache: the token is kept
// with PX = its time to expiry, so Redis drops it when it expires. A token
// that already expired is not kept (and drops the one that was).
func (s *Store) SaveInstallation(ctx context.Context, grantID, token string, expiry time.Time) error {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return err
	}
	if ttl := ttlMillis(expiry); ttl > 0 {
		err = s.rdb.Set(ctx, k.state, formatInstallation(token, expiry), time.Duration(ttl)*time.Millisecond).Err()
	} else {
		err = s.rdb.Del(ctx, k.state).Err()
	}
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
	if err := s.rdb.Del(ctx, k.state, k.lease).Err(); err != nil {
		return fmt.Errorf("redisstore: grant %s: deleting the installation token: %w", grantID, err)
	}
	return nil
}

// formatInstallation is the value of an installation token's key: its
// expiry in Unix nanoseconds, a colon, the token. The key's time to live
// is what expires it; the expiry is kept so that it reads back as saved.
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
