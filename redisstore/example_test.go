package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
	"github.com/locsvc/partner-go/webhook"
)

// A Store in front of the database that keeps the tokens: give it to
// every replica's partner.PoolConfig.Store. (Here the database is a
// MemoryStore; use sqlstore or your own auth.Store.)
func ExampleNew() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	var database auth.Store = auth.NewMemoryStore()

	store := redisstore.New(rdb, database)
	var _ auth.Leaser = store // replicas refresh each grant once between them
	var _ auth.InstallationCache = store
	fmt.Println(store)
}

// What a client does with a grant whose access token is due, which the
// SDK does for you: take the stored token if another replica refreshed
// it, else the lease, refresh, and commit.
func ExampleStore_AcquireLease() {
	ctx := context.Background()
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	store := redisstore.New(rdb, auth.NewMemoryStore())

	lease, tok, err := store.AcquireLease(ctx, "grant-1", auth.KindAccess, time.Minute, 30*time.Second)
	switch {
	case err != nil: // auth.ErrLeaseHeld: another replica refreshes; look again soon
		fmt.Println(err)
	case lease == nil: // fresh: use it
		fmt.Println(tok.Expiry)
	default: // refresh tok.RefreshToken, then:
		refreshed := tok
		if err := store.CommitLease(ctx, lease, refreshed); err != nil {
			fmt.Println(err) // auth.ErrLeaseLost: another replica took over
		}
	}
}

// A webhook receiver whose instances share one dedup: a delivery the
// service sends again, to whichever instance, runs the callback once.
func ExampleNewDedup() {
	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	defer rdb.Close()
	v, err := webhook.NewVerifier("the webhook secret")
	if err != nil {
		fmt.Println(err)
		return
	}
	h := webhook.NewHandler(v, func(ctx context.Context, e *webhook.Event) error {
		return nil // handle e
	}, webhook.WithDeduplication(redisstore.NewDedup(rdb)))
	http.Handle("/webhooks", h)
}
