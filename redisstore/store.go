package redisstore

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/go-redis/redis_rate/v10"
	"github.com/redis/go-redis/v9"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// SaveWindow bounds the write to the Store of record that CommitLease makes
// for an access token: the lease is made to last at least SaveWindow plus
// a margin of saveMargin before the write starts, and the write is given a
// context that ends after SaveWindow, so it cannot outlive the lease.
const SaveWindow = 10 * time.Second

// saveMargin is how much longer than SaveWindow the lease lasts for the
// write: room for the reply of guardScript to reach the client.
const saveMargin = 5 * time.Second

// Store keeps each grant's OAuth token in a Store of record (its backing
// store, a database) and shares, through Redis, what the processes of a
// partner application need to refresh and mint each grant's tokens one at
// a time: leases (auth.Leaser), the installation token
// (auth.InstallationCache), a fingerprint of the access token with its
// time to live, and each installation token's rate limit
// (auth.RateLimiter). Losing Redis loses nothing but that sharing: Load reads
// the backing store only, so users stay connected.
//
// A Store is safe for concurrent use by many goroutines and processes.
// The zero value is not usable: call New.
type Store struct {
	rdb     redis.UniversalClient
	backing auth.Store
	rate    *redis_rate.Limiter // TakeTurn's limits
}

var (
	_ auth.Leaser            = (*Store)(nil)
	_ auth.InstallationCache = (*Store)(nil)
	_ auth.Deleter           = (*Store)(nil)
)

// New returns a Store that keeps tokens in backing, the Store of record,
// and shares leases and the installation token through rdb (a client of
// one Redis server, Sentinel or Cluster).
func New(rdb redis.UniversalClient, backing auth.Store) *Store {
	return &Store{rdb: rdb, backing: backing, rate: redis_rate.NewLimiter(rdb)}
}

// String describes the store without a token.
func (s *Store) String() string { return "redisstore.Store" }

// Load returns the grant's token from the backing store. It never reads
// Redis, so a Redis outage does not stop a grant whose token is fresh.
func (s *Store) Load(ctx context.Context, grantID string) (*oauth2.Token, error) {
	return s.backing.Load(ctx, grantID)
}

// Save writes tok to the backing store and then records its fingerprint
// and time to live in Redis. A token saved outside a lease (the user
// connected again, SetToken, a code exchange) is newer than whatever a
// lease holder is refreshing, so Save ends the grant's access lease,
// before and after the write: the holder's CommitLease then saves nothing.
//
// Save fails only when the backing store does. A Redis error is ignored:
// the backing store has the token, and the fingerprint that was not
// updated no longer matches it, which AcquireLease notices.
func (s *Store) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("redisstore: Save of a nil token")
	}
	k := keysFor(grantID, auth.KindAccess)
	_ = s.rdb.Del(ctx, k.lease).Err() // best effort: see the doc comment
	if err := s.backing.Save(ctx, grantID, tok); err != nil {
		return err
	}
	_, _ = s.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		if ttl := ttlMillis(tok.Expiry); ttl > 0 {
			p.Set(ctx, k.state, fingerprint(tok), time.Duration(ttl)*time.Millisecond)
		} else {
			p.Del(ctx, k.state)
		}
		p.Del(ctx, k.lease)
		return nil
	})
	return nil
}

// Delete forgets the grant: it deletes the token from the backing store
// when that is an auth.Deleter (otherwise the application removes it
// there, as with any Store that is not one) and the grant's state in
// Redis: the installation token, the fingerprint and any lease.
func (s *Store) Delete(ctx context.Context, grantID string) error {
	if d, ok := s.backing.(auth.Deleter); ok {
		if err := d.Delete(ctx, grantID); err != nil {
			return err
		}
	}
	a, i := keysFor(grantID, auth.KindAccess), keysFor(grantID, auth.KindInstallation)
	if err := s.rdb.Del(ctx, a.state, a.lease, i.state, i.lease, i.life).Err(); err != nil {
		return fmt.Errorf("redisstore: grant %s: deleting its shared state: %w", grantID, err)
	}
	return nil
}

// AcquireLease implements auth.Leaser. The due check and the take are one
// script (see acquireScript), on the grant's state key in Redis:
//
//   - KindInstallation: the state is the installation token itself, with
//     PX = its time to expiry;
//   - KindAccess: the token is in the backing store, so the state is its
//     fingerprint (a hash of it, never the token) with PX = its time to
//     expiry, written by CommitLease and Save. When the fingerprint says
//     fresh, the token is loaded from the backing store and must match it;
//     a mismatch (the backing store was written without this Store) drops
//     the fingerprint and looks again. When there is no fingerprint (Redis
//     restarted) or it says due, the lease is taken, the token loaded, and
//     if the loaded token is fresh after all, the fingerprint is written
//     and the lease ended in one script: the caller gets the token, with
//     no lease, as if it had been fresh.
//
// For a token not due, the lease is never taken; for a due one, exactly
// one caller at a time gets the lease however many processes ask.
func (s *Store) AcquireLease(ctx context.Context, grantID string, kind auth.TokenKind, due, ttl time.Duration) (*auth.Lease, *oauth2.Token, error) {
	k, err := checkedKeys(grantID, kind)
	if err != nil {
		return nil, nil, err
	}
	if due < 0 || ttl < time.Millisecond {
		return nil, nil, fmt.Errorf("redisstore: AcquireLease needs due >= 0 and ttl >= 1ms (got %v and %v)", due, ttl)
	}
	// A stale fingerprint is dropped and the check run again; twice is
	// plenty, since only a write that bypasses this Store makes one.
	for range 3 {
		fence := newFence()
		res, err := acquireScript.Run(ctx, s.rdb, k.names(),
			due.Milliseconds(), ttl.Milliseconds(), fence).Slice()
		if err != nil {
			return nil, nil, fmt.Errorf("redisstore: grant %s: acquiring the %s lease: %w", grantID, kind, err)
		}
		state, value, pttl, life, err := parseAcquire(res)
		if err != nil {
			return nil, nil, fmt.Errorf("redisstore: grant %s: acquiring the %s lease: %w", grantID, kind, err)
		}
		if kind == auth.KindInstallation {
			return s.acquiredInstallation(grantID, state, value, life, pttl, fence)
		}
		l, tok, err, again := s.acquiredAccess(ctx, grantID, k, state, value, due, fence)
		if !again {
			return l, tok, err
		}
	}
	return nil, nil, fmt.Errorf("redisstore: grant %s: the backing store keeps changing under the access token's fingerprint", grantID)
}

// acquiredInstallation turns the reply of acquireScript for an
// installation token into AcquireLease's results.
func (s *Store) acquiredInstallation(grantID string, state int64, value, life string, pttl int64, fence string) (*auth.Lease, *oauth2.Token, error) {
	var tok *oauth2.Token
	if pttl > 0 {
		tok = installationToken(value, life)
	}
	switch state {
	case acquireFresh:
		return nil, tok, nil
	case acquireHeld:
		return nil, tok, auth.ErrLeaseHeld
	}
	return &auth.Lease{GrantID: grantID, Kind: auth.KindInstallation, Fence: fence}, tok, nil
}

// acquiredAccess turns the reply of acquireScript for an access token into
// AcquireLease's results, loading the token from the backing store. again
// reports a stale fingerprint, dropped: the caller looks again.
func (s *Store) acquiredAccess(ctx context.Context, grantID string, k keys, state int64, value string, due time.Duration, fence string) (l *auth.Lease, tok *oauth2.Token, err error, again bool) {
	tok, err = s.loadOrNil(ctx, grantID)
	if err != nil {
		if state == acquireTaken {
			_ = releaseScript.Run(ctx, s.rdb, []string{k.lease}, fence).Err()
		}
		return nil, nil, err, false
	}
	switch state {
	case acquireFresh:
		if tok != nil && fingerprint(tok) == value {
			return nil, tok, nil, false
		}
		// The backing store was written without this Store: the
		// fingerprint describes another token.
		if err := forgetScript.Run(ctx, s.rdb, []string{k.state}, value).Err(); err != nil {
			return nil, nil, fmt.Errorf("redisstore: grant %s: dropping a stale fingerprint: %w", grantID, err), false
		}
		return nil, nil, nil, true
	case acquireHeld:
		return nil, tok, auth.ErrLeaseHeld, false
	}
	l = &auth.Lease{GrantID: grantID, Kind: auth.KindAccess, Fence: fence}
	if tok == nil || !fresh(tok, due) {
		return l, tok, nil, false
	}
	// Fresh after all (no fingerprint yet, or a stale one): share it and
	// end the lease, in one step.
	ok, err := commitScript.Run(ctx, s.rdb, []string{k.state, k.lease},
		fence, fingerprint(tok), ttlMillis(tok.Expiry)).Int()
	if err != nil {
		return nil, nil, fmt.Errorf("redisstore: grant %s: sharing the access token's fingerprint: %w", grantID, err), false
	}
	if ok == 0 { // the lease ran out meanwhile: look again
		return nil, nil, nil, true
	}
	return nil, tok, nil, false
}

// CommitLease implements auth.Leaser.
//
// KindInstallation: one script saves the token (tok.AccessToken) and its
// expiry with PX = its time to expiry and ends the lease, if the fence is still the lease's.
//
// KindAccess: the token goes to the backing store, which Redis cannot
// write in the same step, so the commit has three: guardScript checks the
// fence and makes the lease last at least SaveWindow + 5 s more; the
// backing store's Save runs with a context that ends after SaveWindow;
// commitScript records the fingerprint and ends the lease if the fence is
// still the lease's. A holder that lost its lease before the commit saves
// nothing (ErrLeaseLost). The window is the write itself: the lease cannot
// expire during it, since it outlasts the write's deadline; what remains
// is a write the database applies after its client gave up on it, or a
// Redis that loses the lease key (a restart, a failover). If the last step
// finds the lease lost, the backing store may hold tok: CommitLease
// returns an error wrapping ErrLeaseLost, and a later AcquireLease finds
// whichever token the backing store has.
//
// If the backing store's Save fails, the lease stays held until its time
// ends, so that the holder may commit again and no one else refreshes
// with a refresh token the service may already have rotated.
func (s *Store) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	if l == nil || tok == nil {
		return errors.New("redisstore: CommitLease needs a lease and a token")
	}
	k, err := checkedKeys(l.GrantID, l.Kind)
	if err != nil {
		return err
	}
	value, life := fingerprint(tok), ""
	if l.Kind == auth.KindInstallation {
		value, life = formatInstallation(tok.AccessToken, tok.Expiry), formatLife(tok)
	} else {
		held, err := guardScript.Run(ctx, s.rdb, []string{k.lease}, l.Fence, (SaveWindow + saveMargin).Milliseconds()).Int()
		if err != nil {
			return fmt.Errorf("redisstore: grant %s: checking the %s lease: %w", l.GrantID, l.Kind, err)
		}
		if held == 0 {
			return auth.ErrLeaseLost
		}
		sctx, cancel := context.WithTimeout(ctx, SaveWindow)
		err = s.backing.Save(sctx, l.GrantID, tok)
		cancel()
		if err != nil {
			return err
		}
	}
	ok, err := commitScript.Run(ctx, s.rdb, k.names(), l.Fence, value, ttlMillis(tok.Expiry), life).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisstore: grant %s: committing the %s lease: %w", l.GrantID, l.Kind, err)
	case ok == 0 && l.Kind == auth.KindAccess:
		return fmt.Errorf("redisstore: grant %s: the backing store may hold the token: %w", l.GrantID, auth.ErrLeaseLost)
	case ok == 0:
		return auth.ErrLeaseLost
	}
	return nil
}

// AbandonLease implements auth.Leaser: it deletes the lease only while its
// fence is l's, so a lease already taken over is left alone.
func (s *Store) AbandonLease(ctx context.Context, l *auth.Lease) error {
	if l == nil {
		return errors.New("redisstore: AbandonLease of a nil lease")
	}
	k, err := checkedKeys(l.GrantID, l.Kind)
	if err != nil {
		return err
	}
	if err := releaseScript.Run(ctx, s.rdb, []string{k.lease}, l.Fence).Err(); err != nil {
		return fmt.Errorf("redisstore: grant %s: abandoning the %s lease: %w", l.GrantID, l.Kind, err)
	}
	return nil
}

// loadOrNil loads the grant's token from the backing store; no token is
// nil, not an error.
func (s *Store) loadOrNil(ctx context.Context, grantID string) (*oauth2.Token, error) {
	tok, err := s.backing.Load(ctx, grantID)
	if errors.Is(err, auth.ErrNoToken) {
		return nil, nil
	}
	return tok, err
}

// keys are the Redis keys of one grant's token of one kind. Every key of a
// grant has the hash tag {grantID}, so that they are in one Cluster slot.
type keys struct {
	state string // the installation token, or the access token's fingerprint
	lease string // the lease's fence
	life  string // the installation token's lifetime (see formatLife); "" for an access token
}

// names are the keys the scripts take: state, lease and, for an
// installation token, life.
func (k keys) names() []string {
	if k.life == "" {
		return []string{k.state, k.lease}
	}
	return []string{k.state, k.lease, k.life}
}

// keysFor returns the keys of grantID's token of kind:
//
//	partner:{grantID}:access:fp        the access token's fingerprint
//	partner:{grantID}:access:lease     its lease
//	partner:{grantID}:installation:tok the installation token (see formatInstallation)
//	partner:{grantID}:installation:life its lifetime (see formatLife)
//	partner:{grantID}:installation:lease its lease
//
// No suffix ends another, so no two grants' keys can be the same string
// whatever their ids hold.
func keysFor(grantID string, kind auth.TokenKind) keys {
	p := "partner:{" + grantID + "}:" + string(kind)
	if kind == auth.KindInstallation {
		return keys{state: p + ":tok", lease: p + ":lease", life: p + ":life"}
	}
	return keys{state: p + ":fp", lease: p + ":lease"}
}

// checkedKeys is keysFor for a known kind and a grant id that is not empty.
func checkedKeys(grantID string, kind auth.TokenKind) (keys, error) {
	if grantID == "" {
		return keys{}, errors.New("redisstore: empty grant id")
	}
	if kind != auth.KindAccess && kind != auth.KindInstallation {
		return keys{}, fmt.Errorf("redisstore: unknown token kind %q", kind)
	}
	return keysFor(grantID, kind), nil
}

// parseAcquire reads the reply of acquireScript.
func parseAcquire(res []any) (state int64, value string, pttl int64, life string, err error) {
	if len(res) != 3 && len(res) != 4 {
		return 0, "", 0, "", fmt.Errorf("unexpected reply of %d values", len(res))
	}
	state, ok1 := res[0].(int64)
	value, _ = res[1].(string) // nil when the key is absent
	pttl, ok2 := res[2].(int64)
	if !ok1 || !ok2 || state < acquireFresh || state > acquireTaken {
		return 0, "", 0, "", fmt.Errorf("unexpected reply %v", res)
	}
	if len(res) == 4 {
		life, _ = res[3].(string)
	}
	return state, value, pttl, life, nil
}

// fingerprint identifies a token without revealing it: the first 16 bytes
// of the SHA-256 of its access and refresh tokens and its expiry, in hex.
func fingerprint(tok *oauth2.Token) string {
	h := sha256.New()
	fmt.Fprintf(h, "%d\x00%s\x00%s\x00%d", len(tok.AccessToken), tok.AccessToken, tok.RefreshToken, tok.Expiry.UnixMilli())
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// fresh reports whether tok expires more than due from now, by this
// process's clock (used only when Redis has no fingerprint to go by).
func fresh(tok *oauth2.Token, due time.Duration) bool {
	return !tok.Expiry.IsZero() && time.Until(tok.Expiry) > due
}

// ttlMillis is the time until expiry in whole milliseconds: what PX is set
// to, so that Redis's clock runs the rest. Zero or less means none (an
// expiry that passed, or none at all).
func ttlMillis(expiry time.Time) int64 {
	if expiry.IsZero() {
		return 0
	}
	// Rounded up, plus one: Redis counts whole milliseconds from when it
	// runs the command, so a rounded-down TTL could drop a token a
	// millisecond or two before it expires. Kept a millisecond longer, it
	// is still known by its expiry.
	d := time.Until(expiry)
	if d <= 0 {
		return 0
	}
	return int64((d+time.Millisecond-1)/time.Millisecond) + 1
}

// newFence returns a random fence: 128 bits, in base32.
func newFence() string {
	return rand.Text()
}
