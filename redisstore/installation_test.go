package redisstore_test

import (
	"errors"
	"testing"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
)

func TestInstallationTokenIsSharedUntilItExpires(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	if _, err := s.LoadInstallation(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("LoadInstallation of an unknown grant: %v, want ErrNoToken", err)
	}
	expiry := time.Now().Add(400 * time.Millisecond)
	if err := s.SaveInstallation(ctx, g, &oauth2.Token{AccessToken: "inst-1", Expiry: expiry}); err != nil {
		t.Fatal(err)
	}
	tok, err := s.LoadInstallation(ctx, g)
	if err != nil || tok.AccessToken != "inst-1" {
		t.Fatalf("LoadInstallation = %v, %v", tok, err)
	}
	if d := tok.Expiry.Sub(expiry).Abs(); d > 50*time.Millisecond {
		t.Errorf("expiry is %v off the saved one", d)
	}
	eventually(t, 5*time.Second, func() bool {
		_, err := s.LoadInstallation(ctx, g)
		return errors.Is(err, auth.ErrNoToken)
	})
	if time.Now().Before(expiry) {
		t.Error("the installation token was dropped before its expiry")
	}
}

func TestInstallationTokenThatExpiredIsNotKept(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	if err := s.SaveInstallation(ctx, g, &oauth2.Token{AccessToken: "inst-1", Expiry: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveInstallation(ctx, g, &oauth2.Token{AccessToken: "inst-2", Expiry: time.Now().Add(-time.Second)}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadInstallation(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Fatalf("LoadInstallation after saving an expired token: %v, want ErrNoToken", err)
	}
}

func TestInstallationLeaseSharesTheMintedToken(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	l, tok, err := s.AcquireLease(ctx, g, auth.KindInstallation, time.Minute, 10*time.Second)
	if err != nil || l == nil || tok != nil {
		t.Fatalf("AcquireLease = %v, %+v, %v; want a lease and no token", l, tok, err)
	}
	if l.Kind != auth.KindInstallation {
		t.Errorf("lease kind = %q", l.Kind)
	}
	minted := token("inst", time.Hour)
	if err := s.CommitLease(ctx, l, minted); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadInstallation(ctx, g)
	if err != nil || got.AccessToken != minted.AccessToken || got.Expiry.Sub(minted.Expiry).Abs() > time.Second {
		t.Fatalf("LoadInstallation = %v, %v; want the committed token", got, err)
	}
	l, tok, err = s.AcquireLease(ctx, g, auth.KindInstallation, time.Minute, 10*time.Second)
	if err != nil || l != nil || tok == nil || tok.AccessToken != minted.AccessToken {
		t.Fatalf("AcquireLease of a fresh installation token = %v, %+v, %v", l, tok, err)
	}
	// Due (within two hours of expiry): the lease, with the stored token.
	l, tok, err = s.AcquireLease(ctx, g, auth.KindInstallation, 2*time.Hour, 10*time.Second)
	if err != nil || l == nil || tok == nil || tok.AccessToken != minted.AccessToken {
		t.Fatalf("AcquireLease of a due installation token = %v, %+v, %v", l, tok, err)
	}
	_, tok, err = s.AcquireLease(ctx, g, auth.KindInstallation, 2*time.Hour, 10*time.Second)
	if !errors.Is(err, auth.ErrLeaseHeld) || tok == nil || tok.AccessToken != minted.AccessToken {
		t.Fatalf("AcquireLease while held = %+v, %v; want ErrLeaseHeld and the stored token", tok, err)
	}
}

func TestDeleteInstallationRefusesAMintInFlight(t *testing.T) {
	ctx := t.Context()
	s := redisstore.New(newClient(t), auth.NewMemoryStore())
	g := grantID(t, "g")
	if err := s.SaveInstallation(ctx, g, &oauth2.Token{AccessToken: "old", Expiry: time.Now().Add(30 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	l, _, err := s.AcquireLease(ctx, g, auth.KindInstallation, time.Minute, 10*time.Second)
	if err != nil || l == nil {
		t.Fatal(l, err)
	}
	// The user connected again: the token minted with the former access
	// token must not be shared.
	if err := s.DeleteInstallation(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadInstallation(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("LoadInstallation after DeleteInstallation: %v, want ErrNoToken", err)
	}
	if err := s.CommitLease(ctx, l, token("stale", time.Hour)); !errors.Is(err, auth.ErrLeaseLost) {
		t.Fatalf("CommitLease of a mint in flight: %v, want ErrLeaseLost", err)
	}
	if _, err := s.LoadInstallation(ctx, g); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("the refused commit was shared: %v", err)
	}
}
