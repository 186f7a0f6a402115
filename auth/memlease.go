package auth

import (
	"context"
	"errors"
	"strconv"
	"time"

	"golang.org/x/oauth2"
)

// leaseKey names one lease: a grant and a kind of token.
type leaseKey struct {
	grantID string
	kind    TokenKind
}

// memLease is a held lease: its fence and when it ends.
type memLease struct {
	fence string
	until time.Time
}

// AcquireLease implements Leaser: see there.
func (s *MemoryStore) AcquireLease(_ context.Context, grantID string, kind TokenKind, due, ttl time.Duration) (*Lease, *oauth2.Token, error) {
	if err := checkKind(kind); err != nil {
		return nil, nil, err
	}
	if ttl <= 0 {
		return nil, nil, errors.New("auth: AcquireLease with a ttl that is not positive")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := time.Now()
	tok := s.storedLocked(grantID, kind, now)
	if tok != nil && tok.AccessToken != "" && !tok.Expiry.IsZero() && tok.Expiry.Sub(now) > due {
		return nil, tok, nil
	}
	k := leaseKey{grantID, kind}
	if l, ok := s.leases[k]; ok && now.Before(l.until) {
		return nil, tok, ErrLeaseHeld
	}
	s.seq++
	fence := strconv.FormatUint(s.seq, 10)
	if s.leases == nil {
		s.leases = make(map[leaseKey]memLease)
	}
	s.leases[k] = memLease{fence: fence, until: now.Add(ttl)}
	return &Lease{GrantID: grantID, Kind: kind, Fence: fence}, tok, nil
}

// storedLocked returns a copy of the grant's stored token of kind, or nil
// (an installation token's ends at its expiry). s.mu is held.
func (s *MemoryStore) storedLocked(grantID string, kind TokenKind, now time.Time) *oauth2.Token {
	m := s.m
	if kind == KindInstallation {
		m = s.inst
	}
	t, ok := m[grantID]
	if !ok || kind == KindInstallation && !now.Before(t.Expiry) {
		return nil
	}
	return &t
}

// CommitLease implements Leaser: see there.
func (s *MemoryStore) CommitLease(_ context.Context, l *Lease, tok *oauth2.Token) error {
	if l == nil || tok == nil {
		return errors.New("auth: CommitLease of a nil lease or token")
	}
	if err := checkKind(l.Kind); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := leaseKey{l.GrantID, l.Kind}
	cur, ok := s.leases[k]
	if !ok || cur.fence != l.Fence || !time.Now().Before(cur.until) {
		return ErrLeaseLost
	}
	delete(s.leases, k)
	s.saveLocked(l.Kind, l.GrantID, tok)
	return nil
}

// AbandonLease implements Leaser: see there.
func (s *MemoryStore) AbandonLease(_ context.Context, l *Lease) error {
	if l == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := leaseKey{l.GrantID, l.Kind}
	if cur, ok := s.leases[k]; ok && cur.fence == l.Fence {
		delete(s.leases, k)
	}
	return nil
}

// LoadInstallation implements InstallationCache: see there.
func (s *MemoryStore) LoadInstallation(_ context.Context, grantID string) (*oauth2.Token, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if tok := s.storedLocked(grantID, KindInstallation, time.Now()); tok != nil {
		return tok, nil
	}
	return nil, ErrNoToken
}

// SaveInstallation implements InstallationCache: see there.
func (s *MemoryStore) SaveInstallation(_ context.Context, grantID string, tok *oauth2.Token) error {
	if tok == nil || tok.AccessToken == "" {
		return errors.New("auth: SaveInstallation of an empty token")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.saveLocked(KindInstallation, grantID, tok)
	return nil
}

// DeleteInstallation implements InstallationCache: see there.
func (s *MemoryStore) DeleteInstallation(_ context.Context, grantID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.inst, grantID)
	delete(s.leases, leaseKey{grantID, KindInstallation})
	return nil
}

func checkKind(k TokenKind) error {
	if k != KindAccess && k != KindInstallation {
		return errors.New("auth: unknown token kind " + strconv.Quote(string(k)))
	}
	return nil
}

var (
	_ Leaser            = (*MemoryStore)(nil)
	_ InstallationCache = (*MemoryStore)(nil)
	_ RateLimiter       = (*MemoryStore)(nil)
)
