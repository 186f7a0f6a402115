package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// fileStore keeps grants' tokens in one JSON file (mode 0600) that the
// processes of one machine share. Every operation takes an exclusive lock
// on PATH.lock, reads the file, and writes a changed file to a temporary
// file renamed over it, so a reader never sees half a file and two
// processes never lose each other's writes. It is an auth.Leaser: the
// processes that share the file refresh each grant's access token one at a
// time, so a refresh token that rotates is spent once. Lease times are
// this machine's clock, which all the processes share.
//
// A token file or lock file that exists with group or other permission
// bits (restored from a cache, copied, made by hand) is made 0600 when
// the store is opened, even by a run that writes nothing; it is not
// refused, since the owner running the command could only do the same.
// On Windows, where permission bits do not apply, nothing is changed.
//
// It is not an auth.InstallationCache: installation tokens are not written
// to disk, and each process mints its own.
type fileStore struct {
	path string
	// turn is held (a token in it taken) while this process uses the
	// file: a flock is per open file, so it does not keep the goroutines
	// of one process apart.
	turn chan struct{}
	lock *flock.Flock
}

// fileData is the file's content.
type fileData struct {
	Grants map[string]*fileGrant `json:"grants"`
}

// fileGrant is one grant's token and the leases held on it.
type fileGrant struct {
	Token  *oauth2.Token                `json:"token,omitempty"`
	Leases map[auth.TokenKind]fileLease `json:"leases,omitempty"`
}

type fileLease struct {
	Fence string    `json:"fence"`
	Until time.Time `json:"until"`
}

// lockRetry is how often a process waiting for the file's lock tries again.
const lockRetry = 5 * time.Millisecond

func newFileStore(path string) (*fileStore, error) {
	if path == "" {
		return nil, usageErrorf("file: needs a path, as in file:/var/lib/partner/tokens.json")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	for _, p := range []string{abs, abs + ".lock"} {
		if err := makePrivate(p); err != nil {
			return nil, err
		}
	}
	s := &fileStore{path: abs, turn: make(chan struct{}, 1), lock: flock.New(abs + ".lock")}
	s.turn <- struct{}{}
	return s, nil
}

// makePrivate makes the file at path mode 0600 if it exists with group or
// other permission bits.
func makePrivate(path string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("file store: %w", err)
	case !fi.Mode().IsRegular() || fi.Mode().Perm()&0o077 == 0:
		return nil
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("file store: %s is open to other users (mode %v) and could not be made 0600: %w", path, fi.Mode().Perm(), err)
	}
	return nil
}

// update runs fn on the file's content under the lock, and writes the
// content back when fn reports a change.
func (s *fileStore) update(ctx context.Context, fn func(d *fileData) (changed bool, err error)) error {
	select {
	case <-s.turn:
		defer func() { s.turn <- struct{}{} }()
	case <-ctx.Done():
		return ctx.Err()
	}
	ok, err := s.lock.TryLockContext(ctx, lockRetry)
	if err != nil {
		return fmt.Errorf("file store %s: locking: %w", s.path, err)
	}
	if !ok {
		return fmt.Errorf("file store %s: could not lock", s.path)
	}
	defer s.lock.Unlock()
	d, err := s.read()
	if err != nil {
		return err
	}
	changed, err := fn(d)
	if err != nil || !changed {
		return err
	}
	return s.write(d)
}

func (s *fileStore) read() (*fileData, error) {
	d := &fileData{Grants: map[string]*fileGrant{}}
	b, err := os.ReadFile(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return nil, fmt.Errorf("file store: %w", err)
	}
	if err := json.Unmarshal(b, d); err != nil {
		return nil, fmt.Errorf("file store %s is not a token file (%v): move it away or choose another path", s.path, err)
	}
	if d.Grants == nil {
		d.Grants = map[string]*fileGrant{}
	}
	return d, nil
}

// write replaces the file atomically: a temporary file in the same
// directory, synced, renamed over it.
func (s *fileStore) write(d *fileData) error {
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(s.path), filepath.Base(s.path)+".tmp*")
	if err != nil {
		return fmt.Errorf("file store: %w", err)
	}
	defer os.Remove(f.Name()) // after a successful rename: nothing to remove
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("file store: %w", err)
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("file store: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("file store: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("file store: %w", err)
	}
	if err := os.Rename(f.Name(), s.path); err != nil {
		return fmt.Errorf("file store: %w", err)
	}
	return nil
}

func (d *fileData) grant(id string) *fileGrant {
	g := d.Grants[id]
	if g == nil {
		g = &fileGrant{}
		d.Grants[id] = g
	}
	return g
}

// Load implements auth.Store.
func (s *fileStore) Load(ctx context.Context, grantID string) (*oauth2.Token, error) {
	var tok *oauth2.Token
	err := s.update(ctx, func(d *fileData) (bool, error) {
		if g := d.Grants[grantID]; g != nil && g.Token != nil {
			tok = g.Token
		}
		return false, nil
	})
	if err == nil && tok == nil {
		err = auth.ErrNoToken
	}
	return tok, err
}

// Save implements auth.Store. It ends an access-token lease in flight: the
// grant has a newer token, which that refresh must not replace.
func (s *fileStore) Save(ctx context.Context, grantID string, tok *oauth2.Token) error {
	if tok == nil {
		return errors.New("file store: Save of a nil token")
	}
	return s.update(ctx, func(d *fileData) (bool, error) {
		g := d.grant(grantID)
		g.Token = tok
		delete(g.Leases, auth.KindAccess)
		return true, nil
	})
}

// Delete implements auth.Deleter.
func (s *fileStore) Delete(ctx context.Context, grantID string) error {
	return s.update(ctx, func(d *fileData) (bool, error) {
		if _, ok := d.Grants[grantID]; !ok {
			return false, nil
		}
		delete(d.Grants, grantID)
		return true, nil
	})
}

// AcquireLease implements auth.Leaser. For auth.KindInstallation the stored
// token is always nil: the file keeps no installation token.
func (s *fileStore) AcquireLease(ctx context.Context, grantID string, kind auth.TokenKind, due, ttl time.Duration) (*auth.Lease, *oauth2.Token, error) {
	if kind != auth.KindAccess && kind != auth.KindInstallation {
		return nil, nil, fmt.Errorf("file store: unknown token kind %q", kind)
	}
	if ttl <= 0 {
		return nil, nil, errors.New("file store: AcquireLease with a ttl that is not positive")
	}
	var (
		lease *auth.Lease
		tok   *oauth2.Token
		held  bool
	)
	err := s.update(ctx, func(d *fileData) (bool, error) {
		now := time.Now()
		g := d.grant(grantID)
		if kind == auth.KindAccess {
			tok = g.Token
		}
		if tok != nil && tok.AccessToken != "" && !tok.Expiry.IsZero() && tok.Expiry.Sub(now) > due {
			return false, nil
		}
		if l, ok := g.Leases[kind]; ok && now.Before(l.Until) {
			held = true
			return false, nil
		}
		if g.Leases == nil {
			g.Leases = map[auth.TokenKind]fileLease{}
		}
		fence := rand.Text()
		g.Leases[kind] = fileLease{Fence: fence, Until: now.Add(ttl)}
		lease = &auth.Lease{GrantID: grantID, Kind: kind, Fence: fence}
		return true, nil
	})
	switch {
	case err != nil:
		return nil, nil, err
	case held:
		return nil, tok, auth.ErrLeaseHeld
	}
	return lease, tok, nil
}

// CommitLease implements auth.Leaser. Committing an installation token
// only ends the lease.
func (s *fileStore) CommitLease(ctx context.Context, l *auth.Lease, tok *oauth2.Token) error {
	if l == nil || tok == nil {
		return errors.New("file store: CommitLease of a nil lease or token")
	}
	lost := false
	err := s.update(ctx, func(d *fileData) (bool, error) {
		g := d.Grants[l.GrantID]
		if g == nil {
			lost = true
			return false, nil
		}
		cur, ok := g.Leases[l.Kind]
		if !ok || cur.Fence != l.Fence || !time.Now().Before(cur.Until) {
			lost = true
			return false, nil
		}
		delete(g.Leases, l.Kind)
		if l.Kind == auth.KindAccess {
			g.Token = tok
		}
		return true, nil
	})
	if err == nil && lost {
		err = auth.ErrLeaseLost
	}
	return err
}

// AbandonLease implements auth.Leaser.
func (s *fileStore) AbandonLease(ctx context.Context, l *auth.Lease) error {
	if l == nil {
		return nil
	}
	return s.update(ctx, func(d *fileData) (bool, error) {
		g := d.Grants[l.GrantID]
		if g == nil || g.Leases[l.Kind].Fence != l.Fence {
			return false, nil
		}
		delete(g.Leases, l.Kind)
		return true, nil
	})
}

// String names the store without its content.
func (s *fileStore) String() string { return "file:" + s.path }

var (
	_ auth.Leaser  = (*fileStore)(nil)
	_ auth.Deleter = (*fileStore)(nil)
)
