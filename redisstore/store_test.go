package redisstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
)

// token returns a token whose access token expires in d.
func token(name string, d time.Duration) *oauth2.Token {
	return &oauth2.Token{AccessToken: "at-" + name, RefreshToken: "rt-" + name, TokenType: "Bearer", Expiry: time.Now().Add(d)}
}

func TestStoreLoadAndSaveGoToTheBackingStore(t *testing.T) {
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	s := redisstore.New(newClient(t), backing)
	g := grantID(t, "g")

	if _, err := s.Load(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("Load of an unknown grant: %v, want ErrNoToken", err)
	}
	tok := token("1", time.Hour)
	if err := s.Save(ctx, g, tok); err != nil {
		t.Fatal(err)
	}
	got, err := backing.Load(ctx, g)
	if err != nil || got.AccessToken != tok.AccessToken || got.RefreshToken != tok.RefreshToken {
		t.Fatalf("backing store has %+v, %v; want the saved token", got, err)
	}
	got, err = s.Load(ctx, g)
	if err != nil || got.RefreshToken != tok.RefreshToken || !got.Expiry.Equal(tok.Expiry) {
		t.Fatalf("Load = %+v, %v; want the saved token", got, err)
	}
	if err := s.Save(ctx, g, nil); err == nil {
		t.Error("Save of a nil token succeeded")
	}
}

func TestStoreSaveSharesTheTokenAsFresh(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, tok, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err != nil || l != nil || tok == nil || tok.AccessToken != "at-1" {
		t.Fatalf("AcquireLease after Save = %v, %+v, %v; want no lease and the saved token", l, tok, err)
	}
}

func TestStoreDeleteForgetsTheGrant(t *testing.T) {
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	s := redisstore.New(newClient(t), backing)
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveInstallation(ctx, g, &oauth2.Token{AccessToken: "inst", Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := backing.Load(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("backing store after Delete: %v, want ErrNoToken", err)
	}
	if _, err := s.LoadInstallation(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("installation token after Delete: %v, want ErrNoToken", err)
	}
	l, tok, err := s.AcquireLease(ctx, g, auth.KindAccess, time.Minute, time.Second)
	if err != nil || l == nil || tok != nil {
		t.Errorf("AcquireLease after Delete = %v, %+v, %v; want a lease and no token", l, tok, err)
	}
	if err := s.Delete(ctx, grantID(t, "unknown")); err != nil {
		t.Errorf("Delete of an unknown grant: %v", err)
	}
}

// loadOnly is a Store of record that cannot delete.
type loadOnly struct{ auth.Store }

func TestStoreDeleteWithABackingThatCannotDelete(t *testing.T) {
	ctx := t.Context()
	backing := auth.NewMemoryStore()
	s := redisstore.New(newClient(t), loadOnly{backing})
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := backing.Load(ctx, g); err != nil {
		t.Errorf("the backing store lost the token though it is no Deleter: %v", err)
	}
}

func TestStoreKeepsNoTokenOfTheGrantInRedisButTheInstallationToken(t *testing.T) {
	ctx := t.Context()
	rdb := newClient(t)
	s := redisstore.New(rdb, auth.NewMemoryStore())
	g := grantID(t, "g")
	if err := s.Save(ctx, g, token("secret1", time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, _, err := s.AcquireLease(ctx, g, auth.KindInstallation, time.Minute, time.Minute)
	if err != nil || l == nil {
		t.Fatalf("AcquireLease(installation) = %v, %v", l, err)
	}
	if _, _, err := s.AcquireLease(ctx, g, auth.KindAccess, 2*time.Hour, time.Minute); err != nil {
		t.Fatal(err) // the access token is due within 2h: this takes its lease
	}
	want := map[string]bool{
		"partner:{" + g + "}:access:fp":          true,
		"partner:{" + g + "}:access:lease":       true,
		"partner:{" + g + "}:installation:lease": true,
	}
	keys, err := rdb.Keys(ctx, "partner:{"+g+"}:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !want[k] {
			t.Errorf("unexpected key %q", k)
		}
		delete(want, k)
		v, err := rdb.Get(ctx, k).Result()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(v, "secret1") {
			t.Errorf("key %q holds the OAuth token: %q", k, v)
		}
	}
	for k := range want {
		t.Errorf("key %q missing", k)
	}
}

func TestStoreRejectsBadArguments(t *testing.T) {
	ctx := context.Background()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	for name, call := range map[string]func() error{
		"empty grant": func() error {
			_, _, err := s.AcquireLease(ctx, "", auth.KindAccess, 0, time.Second)
			return err
		},
		"unknown kind": func() error {
			_, _, err := s.AcquireLease(ctx, g, "refresh", 0, time.Second)
			return err
		},
		"negative due": func() error {
			_, _, err := s.AcquireLease(ctx, g, auth.KindAccess, -time.Second, time.Second)
			return err
		},
		"zero ttl": func() error {
			_, _, err := s.AcquireLease(ctx, g, auth.KindAccess, 0, 0)
			return err
		},
		"commit of nil lease": func() error { return s.CommitLease(ctx, nil, token("x", time.Hour)) },
		"commit of nil token": func() error {
			return s.CommitLease(ctx, &auth.Lease{GrantID: g, Kind: auth.KindAccess, Fence: "f"}, nil)
		},
		"abandon of nil lease": func() error { return s.AbandonLease(ctx, nil) },
		"installation of empty": func() error {
			return s.SaveInstallation(ctx, "", &oauth2.Token{AccessToken: "t", Expiry: time.Now().Add(time.Hour)})
		},
	} {
		if err := call(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
