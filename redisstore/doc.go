// Package redisstore shares a partner application's token state between
// its replicas through Redis, in front of the database that keeps the
// tokens (the Store of record), and deduplicates webhook deliveries
// between the instances of a receiver.
//
// It is a module of its own, so that the SDK's core does not depend on a
// Redis client:
//
//	go get github.com/locsvc/partner-go/redisstore
//
// New returns a Store to give to partner.PoolConfig.Store (or
// Config.Store): an auth.Store whose tokens live in the backing Store
// (sqlstore, or the application's own), and an auth.Leaser,
// auth.InstallationCache and auth.RateLimiter whose leases, installation
// tokens and rate limits live in Redis. With it, the replicas serving a
// grant refresh its access token and mint its installation token once
// between them, take turns from one rate limit per installation token
// (github.com/go-redis/redis_rate), and a reconnect saved on one replica
// is seen by all. NewDedup returns a webhook.DedupStore.
//
// # Losing Redis
//
// Refresh tokens never go to Redis: Load and Save reach the backing store
// whatever Redis does, so no user is disconnected by a Redis outage or a
// flushed Redis. What needs Redis (leases, the shared installation token,
// webhook dedup) fails with Redis's error meanwhile, and the SDK's outage
// policy applies. A restarted, empty Redis costs each grant at most one
// look at the backing store (see AcquireLease). While Redis is down each
// replica paces its requests on its own, so together they may send up to
// as many times the pace as there are replicas. How long a call waits for
// a Redis that is down is the redis client's settings (DialTimeout,
// MaxRetries, DialerRetries). Once Redis is back, a go-redis client whose
// last PoolSize dials failed keeps returning the last dial error until
// its background probe, once a second, connects: expect about a second
// more of ErrTemporary after the outage.
//
// # Keys
//
// Each grant's keys carry the hash tag {grantID}, so one grant's keys are
// in one Cluster slot and every script runs on Redis Cluster:
//
//	partner:{grantID}:access:fp           fingerprint of the stored OAuth token, PX = its time to expiry
//	partner:{grantID}:access:lease        fence of the access token's lease, PX = the lease's TTL
//	partner:{grantID}:installation:tok    "<expiry ns>:<installation token>", PX = its time to expiry
//	partner:{grantID}:installation:life   "<expiry ns>:<lifetime s>", the token's whole lifetime, PX = the same
//	partner:{grantID}:installation:lease  fence of the installation token's lease
//	rate:partner:{pace:<hash>}            redis_rate's state of one installation token's limit (a SHA-256 of the token)
//	partner:webhook:<event id>            "c:<owner>" (claim, PX = processing TTL) or "d" (done, PX = retention)
//
// The fingerprint and the rate limit's key are truncated SHA-256 hashes,
// never a token.
// All expiry is by Redis's clock (PX, PTTL): replicas whose clocks
// disagree agree on whether a token is due and on who holds a lease.
package redisstore
