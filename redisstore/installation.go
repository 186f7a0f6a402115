package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locsvc/partner-go/auth"
)

// LoadInstallation implements auth.InstallationCache: it reads the grant's
// installation token and its time to live in one transaction, and returns
// the expiry as this process's clock now plus that time to live, so that
// a replica whose clock is off still sees the true remaining time.
func (s *Store) LoadInstallation(ctx context.Context, grantID string) (string, time.Time, error) {
	k, err := checkedKeys(grantID, auth.KindInstallation)
	if err != nil {
		return "", time.Time{}, err
	}
	var get *redis.StringCmd
	var pttl *redis.DurationCmd
	_, err = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		get = p.Get(ctx, k.state)
		pttl = p.PTTL(ctx, k.state)
		return nil
	})
	if errors.Is(err, redis.Nil) {
		return "", time.Time{}, auth.ErrNoToken
	}
	if err != nil {
		return "", time.Time{}, fmt.Errorf("redisstore: grant %s: loading the installation token: %w", grantID, err)
	}
	left := pttl.Val()
	if left <= 0 { // expired between the two commands cannot happen in a transaction; no TTL would be a foreign write
		return "", time.Time{}, auth.ErrNoToken
	}
	return get.Val(), time.Now().Add(left), nil
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
		err = s.rdb.Set(ctx, k.state, token, time.Duration(ttl)*time.Millisecond).Err()
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
