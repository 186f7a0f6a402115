// Package auth is what an application implements or uses to keep its
// users' tokens: the Store interface (load and save a grant's OAuth token,
// so it survives restarts and is shared by every Client of the grant),
// MemoryStore, and ErrNoToken.
//
// The SDK itself refreshes the access token and mints installation tokens
// (package partner wires that); it calls Store.Save with every refreshed
// token before using it, and Store.Load when it needs a grant's token. See
// Store for the whole contract, and the README's "Serving many users".
//
// # Many replicas
//
// Replicas of an application that share one Store refresh and mint each
// grant's tokens one at a time between them when the Store implements the
// optional interfaces Leaser and InstallationCache, found by type
// assertion (MemoryStore does, for the Clients and Pools of one process):
// a replica whose token is due takes the grant's lease, refreshes or mints
// outside any transaction and commits; the others wait with backoff and
// take the committed token, or take the lease over once its time to live
// runs out. A commit after that is refused (ErrLeaseLost), and its token is
// never used. A Store that is also a RateLimiter paces each grant's
// requests across the replicas. Package storetest checks a Store against
// this contract.
//
// Store outage policy: a token that is fresh in a replica's memory keeps
// working, since using one makes no store call. An access token that is
// due fails closed: the call returns an error wrapping the store's and
// partner.ErrTemporary (not final; the next call tries again). A replica
// may instead be let refresh on its own with the refresh token in its
// memory and use the answer before it is saved (the SDK's opt-in local
// refresh); that is unsafe when the service rotates refresh tokens, since
// the SDK learns of a rotation only by spending the old refresh token,
// which the other replicas still read from the Store. An installation
// token is minted by the replica itself when the cache cannot be reached:
// a mint spends nothing.
package auth
