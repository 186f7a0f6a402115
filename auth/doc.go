// Package auth is what an application implements or uses to keep its
// users' tokens: the Store interface (load and save a grant's OAuth token,
// so it survives restarts and is shared by every Client of the grant),
// MemoryStore, and ErrNoToken.
//
// The SDK itself refreshes the access token and mints installation tokens
// (package partner wires that); it calls Store.Save with every refreshed
// token before using it, and Store.Load when it needs a grant's token. See
// Store for the whole contract, and the README's "Serving many users".
package auth
