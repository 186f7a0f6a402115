package redisstore_test

import (
	"context"
	"errors"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
)

// obtain does what a client does for a grant's token of kind: take the
// stored one if fresh, else the lease, "refresh" (a token named after the
// grant and who), commit; or wait for the holder's token. won reports that
// this call held the lease and committed.
func obtain(ctx context.Context, s *redisstore.Store, grant string, kind auth.TokenKind, who string) (tok *oauth2.Token, won bool, err error) {
	for {
		l, tok, err := s.AcquireLease(ctx, grant, kind, time.Minute, 10*time.Second)
		switch {
		case errors.Is(err, auth.ErrLeaseHeld):
			select {
			case <-ctx.Done():
				return nil, false, ctx.Err()
			case <-time.After(2 * time.Millisecond):
			}
			continue
		case err != nil:
			return nil, false, err
		case l == nil:
			return tok, false, nil
		}
		time.Sleep(time.Millisecond) // the refresh: others pile up meanwhile
		fresh := &oauth2.Token{AccessToken: "at-" + grant + "#" + who, RefreshToken: "rt-" + grant + "#" + who, Expiry: time.Now().Add(time.Hour)}
		if err := s.CommitLease(ctx, l, fresh); err != nil {
			return nil, true, err
		}
		return fresh, true, nil
	}
}
