package auth

import (
	"context"
	"errors"
	"time"

	"golang.org/x/oauth2"
)

// TokenKind names the token of a grant a lease is for.
type TokenKind string

// The kinds of token a lease can be for.
const (
	// KindAccess is the grant's OAuth token: its access token is
	// refreshed with its refresh token.
	KindAccess TokenKind = "access"
	// KindInstallation is the grant's installation token, minted with the
	// access token.
	KindInstallation TokenKind = "installation"
)

// Errors of the lease interfaces.
var (
	// ErrLeaseHeld is returned by AcquireLease when another holder has the
	// lease: wait, then look again.
	ErrLeaseHeld = errors.New("auth: another holder has the grant's lease")
	// ErrLeaseLost is returned by CommitLease when the lease expired and
	// may have been taken by another holder: nothing was saved.
	ErrLeaseLost = errors.New("auth: the lease expired or was taken over; the token was not saved")
)

// Lease is the right, for a while, to refresh (KindAccess) or mint
// (KindInstallation) one grant's token for every process that shares the
// store. It is held until CommitLease or AbandonLease, or until its time
// ends by the store's own clock, after which another process may take it.
type Lease struct {
	GrantID string
	Kind    TokenKind
	// Fence identifies this holding. The store refuses to commit a lease
	// whose Fence is no longer the current one, so a holder that stalled
	// past its time cannot overwrite a newer token.
	Fence string
}

// Leaser is a Store that lets the processes sharing it refresh (and, with
// an InstallationCache, mint) each grant's tokens one at a time: a refresh
// token may rotate, and one sent twice can make the service revoke the
// grant. Times are the store's: the caller gives durations, never
// instants, so that clock skew between processes does not matter.
//
// Implementations must be safe for concurrent use by many processes.
type Leaser interface {
	Store
	// AcquireLease looks at the grant's stored token of kind and, in one
	// atomic step:
	//   - when it is not due (it expires more than due from now), returns
	//     nil, that token, nil: use it;
	//   - when another holder has the lease, returns nil, the stored token
	//     (nil if none), ErrLeaseHeld;
	//   - otherwise takes the lease for ttl and returns it with the stored
	//     token (nil if none).
	// For KindAccess the stored token is the Store's (Load's); for
	// KindInstallation it is the InstallationCache's, in the form
	// LoadInstallation gives. A token without an Expiry is due.
	AcquireLease(ctx context.Context, grantID string, kind TokenKind, due, ttl time.Duration) (*Lease, *oauth2.Token, error)
	// CommitLease saves tok as the grant's token of the lease's kind and
	// ends the lease, in one atomic step, if the lease is still held;
	// otherwise it saves nothing and returns ErrLeaseLost. It is the
	// conditional save: a holder that lost its lease never overwrites the
	// token of the one that took over.
	//
	// A newer token for the grant ends a lease of its kind in flight, so
	// that a refresh or mint of the old token never replaces it: Save
	// ends a KindAccess lease (the user connected again), and
	// DeleteInstallation a KindInstallation one.
	CommitLease(ctx context.Context, l *Lease, tok *oauth2.Token) error
	// AbandonLease ends the lease without saving, when the refresh or
	// mint failed; a lease already lost is not an error.
	AbandonLease(ctx context.Context, l *Lease) error
}

// InstallationCache is a Store that shares each grant's installation token
// between the processes using it. It is a cache with a time to live, not a
// record (installation tokens are not meant to be kept in a database), and
// losing one costs only a mint.
//
// An installation token is held as an oauth2.Token: AccessToken is the
// installation token, Expiry its expiry and ExpiresIn its whole lifetime
// in seconds, from its mint to Expiry. Every process computes from that
// lifetime when the token is due, so all of them find it due at the same
// moment, however late each took it. ExpiresIn 0 means the lifetime is
// unknown (a token shared by an older version of the SDK): what is left
// of it stands in for it.
type InstallationCache interface {
	// LoadInstallation returns the grant's shared installation token, with
	// its Expiry and ExpiresIn as saved, or ErrNoToken when there is none
	// (or it expired).
	LoadInstallation(ctx context.Context, grantID string) (*oauth2.Token, error)
	// SaveInstallation shares the grant's installation token until its
	// Expiry, with its ExpiresIn.
	SaveInstallation(ctx context.Context, grantID string, tok *oauth2.Token) error
	// DeleteInstallation drops the grant's shared installation token: the
	// grant got a new OAuth token (the user connected again, SetToken, a
	// code exchange), so its next installation token is minted anew.
	DeleteInstallation(ctx context.Context, grantID string) error
}

// RateLimiter is a Store that paces requests across the processes sharing
// it: the service caps each installation token at a number of requests a
// minute, and replicas serving one grant share its installation token
// (through an InstallationCache), so they take their turns from one limit.
// Without it each process paces its own requests.
//
// Implementations must be safe for concurrent use by many processes.
type RateLimiter interface {
	// TakeTurn waits until key's limit, perMinute turns a minute with
	// bursts of up to burst turns, gives the caller a turn, and takes it.
	// It returns ctx's error when ctx ends first, and the store's error
	// when the store cannot be reached (the SDK then paces in its
	// process). key names one installation token without revealing it (a
	// hash of it); every process asking for one key gives the same
	// perMinute and burst.
	TakeTurn(ctx context.Context, key string, perMinute, burst int) error
}
