package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"

	"github.com/locsvc/partner-go/auth"
)

var _ auth.RateLimiter = (*Store)(nil)

// ratePrefix is put before every key of TakeTurn, under redis_rate's own
// prefix ("rate:"): partner:{key}.
const ratePrefix = "partner:"

// TakeTurn implements auth.RateLimiter with github.com/go-redis/redis_rate
// (the generic cell rate algorithm, one Lua script per turn): every
// process asking for key shares one limit of perMinute turns a minute
// with bursts of burst. When the limit allows no turn now, it waits for
// the time redis_rate says a turn frees up and asks again. An error of
// Redis is returned at once, so that the SDK paces in its process instead.
func (s *Store) TakeTurn(ctx context.Context, key string, perMinute, burst int) error {
	if perMinute <= 0 || burst <= 0 {
		return errors.New("redisstore: TakeTurn needs a positive rate and burst")
	}
	limit := redis_rate.Limit{Rate: perMinute, Burst: burst, Period: time.Minute}
	k := ratePrefix + "{" + key + "}"
	for {
		res, err := s.rate.Allow(ctx, k, limit)
		if err != nil {
			if ctx.Err() != nil {
				return context.Cause(ctx)
			}
			return fmt.Errorf("redisstore: taking a turn of the shared rate limit: %w", err)
		}
		if res.Allowed > 0 {
			return nil
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < res.RetryAfter {
			return context.DeadlineExceeded // the turn would come after ctx's deadline
		}
		t := time.NewTimer(res.RetryAfter)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return context.Cause(ctx)
		}
	}
}
