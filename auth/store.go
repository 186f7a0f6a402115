package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"

	"golang.org/x/oauth2"
)

// ErrNoToken is returned by Store.Load when the store has no token for the
// grant. The SDK treats it as "the user must connect the application".
var ErrNoToken = errors.New("auth: no token stored for the grant")

// Store keeps each grant's OAuth token (access and refresh token) so that it
// survives a restart.
//
// The application writes the first token, from its code exchange, with
// Save. The SDK calls Load when it needs a grant's token and has none in
// memory, and Save after every refresh, before the new token is used. If
// Save fails, the call that caused the refresh returns an error wrapping
// the store's error; the new token stays in memory (so it is not refreshed
// again) and the next call tries Save again before using it. A token is
// therefore never in use while only in memory.
//
// Before a grant is declared gone (the service refused its refresh token
// or said it was revoked), the SDK calls Load once more, and while a grant
// stays gone it calls Load on each use of it: a refresh token there other
// than the one that failed (the user reconnected and the application saved
// the new token) is taken at once, without a new Client.
//
// Implementations must be safe for concurrent use. Load returns ErrNoToken
// (possibly wrapped) for an unknown grant; a Load that returns a nil token
// and a nil error is taken as ErrNoToken too.
type Store interface {
	Load(ctx context.Context, grantID string) (*oauth2.Token, error)
	Save(ctx context.Context, grantID string, tok *oauth2.Token) error
}

// MemoryStore is a Store that keeps tokens in memory, for tests and for
// applications that do not need tokens to survive a restart. The zero value
// is ready to use.
//
// It is also a Leaser, an InstallationCache and a RateLimiter, so the
// Clients and Pools of one process that share a MemoryStore refresh and
// mint each grant's tokens once between them, as replicas sharing a
// database do, and pace each grant's requests together.
type MemoryStore struct {
	mu     sync.RWMutex
	m      map[string]oauth2.Token
	inst   map[string]oauth2.Token // shared installation tokens
	leases map[leaseKey]memLease   // held leases
	seq    uint64                  // the last lease's fence

	limits     map[string]*memLimiter // RateLimiter's limits, by key
	limitsKept int                    // how many limits were kept at the last sweep
}

// Deleter is a Store that can forget a grant's token. Pool.Disconnect
// deletes the token of a grant it revoked when the Store implements it;
// otherwise the application removes it. Delete of an unknown grant is not
// an error.
type Deleter interface {
	Delete(ctx context.Context, grantID string) error
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore { return &MemoryStore{} }

// Load returns a copy of the grant's token, or ErrNoToken.
func (s *MemoryStore) Load(_ context.Context, grantID string) (*oauth2.Token, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, ok := s.m[grantID]
	if !ok {
		return nil, ErrNoToken
	}
	return &t, nil
}

// Save stores a copy of tok for the grant.
func (s *MemoryStore) Save(_ context.Context, grantID string, tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("auth: Save of a nil token")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saveLocked(KindAccess, grantID, tok)
	// The grant has a newer token: a refresh in flight must not replace it.
	delete(s.leases, leaseKey{grantID, KindAccess})
	return nil
}

// saveLocked stores a copy of tok as the grant's token of kind. s.mu is
// held.
func (s *MemoryStore) saveLocked(kind TokenKind, grantID string, tok *oauth2.Token) {
	if s.m == nil {
		s.m, s.inst = make(map[string]oauth2.Token), make(map[string]oauth2.Token)
	}
	if kind == KindInstallation {
		s.inst[grantID] = oauth2.Token{AccessToken: tok.AccessToken, TokenType: "Bearer", Expiry: tok.Expiry, ExpiresIn: max(tok.ExpiresIn, 0)}
	} else {
		s.m[grantID] = *tok.WithExtra(nil) // without the answer's other fields
	}
}

// Delete forgets the grant's token; an unknown grant is not an error.
func (s *MemoryStore) Delete(_ context.Context, grantID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.m, grantID)
	delete(s.inst, grantID)
	delete(s.leases, leaseKey{grantID, KindAccess})
	delete(s.leases, leaseKey{grantID, KindInstallation})
	return nil
}

// String describes the store without its tokens: only how many grants it
// holds.
func (s *MemoryStore) String() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return fmt.Sprintf("auth.MemoryStore{%d grants}", len(s.m))
}

// Format makes every verb print String, so %+v and %x show no token.
func (s *MemoryStore) Format(f fmt.State, _ rune) { fmt.Fprint(f, s.String()) }

// LogValue makes slog log the store without its tokens.
func (s *MemoryStore) LogValue() slog.Value { return slog.StringValue(s.String()) }
