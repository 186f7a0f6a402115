package sqlstoretest_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/sqlstore"
)

func testMigrate(t *testing.T, e engine) {
	db, _ := e.open(t)
	s, err := sqlstore.New(db, e.dialect)
	if err != nil {
		t.Fatal(err)
	}
	// Replicas starting together all migrate.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = s.Migrate(t.Context()) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatalf("concurrent Migrate: %v", err)
		}
	}
	if err := s.Migrate(t.Context()); err != nil {
		t.Fatalf("Migrate again: %v", err)
	}
	if err := s.Save(t.Context(), "g", &oauth2.Token{AccessToken: "a"}); err != nil {
		t.Fatalf("Save after Migrate: %v", err)
	}
}

func testStore(t *testing.T, e engine) {
	s, _ := e.newStore(t)
	ctx := t.Context()

	if _, err := s.Load(ctx, "unknown"); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("Load of an unknown grant = %v, want auth.ErrNoToken", err)
	}
	want := &oauth2.Token{
		AccessToken: "access-1", TokenType: "Bearer", RefreshToken: "refresh-1",
		Expiry: time.Date(2031, 2, 3, 4, 5, 6, 789012345, time.UTC),
	}
	if err := s.Save(ctx, "g1", want); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.Comparer(time.Time.Equal), cmp.AllowUnexported(oauth2.Token{})); diff != "" {
		t.Errorf("Load after Save (-saved +loaded):\n%s", diff)
	}

	// A token without an expiry keeps none; Save replaces.
	noExpiry := &oauth2.Token{AccessToken: "access-2", RefreshToken: "refresh-2"}
	if err := s.Save(ctx, "g1", noExpiry); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Load(ctx, "g1"); err != nil || got.AccessToken != "access-2" || !got.Expiry.IsZero() {
		t.Errorf("Load after a second Save = %+v, %v; want access-2 without expiry", got, err)
	}
	if err := s.Save(ctx, "g2", want); err != nil {
		t.Fatal(err)
	}

	if err := s.Save(ctx, "g1", nil); !errors.Is(err, sqlstore.ErrInvalid) {
		t.Errorf("Save(nil) = %v, want ErrInvalid", err)
	}
	if err := s.Delete(ctx, "g1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, "g1"); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("Load after Delete = %v, want auth.ErrNoToken", err)
	}
	if got, err := s.Load(ctx, "g2"); err != nil || got.AccessToken != "access-1" {
		t.Errorf("Load of another grant after Delete = %v, %v", got, err)
	}
	if err := s.Delete(ctx, "unknown"); err != nil {
		t.Errorf("Delete of an unknown grant = %v", err)
	}
}
