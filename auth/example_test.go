package auth_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
)

// The application saves the token from its code exchange; the SDK loads it
// when it needs the grant and saves every refreshed token back.
func ExampleMemoryStore() {
	ctx := context.Background()
	store := auth.NewMemoryStore()

	// After the user connected the application:
	err := store.Save(ctx, "grant-1", &oauth2.Token{RefreshToken: "from-the-code-exchange"})
	if err != nil {
		panic(err)
	}

	tok, err := store.Load(ctx, "grant-1")
	fmt.Println(tok.RefreshToken, err)

	_, err = store.Load(ctx, "grant-2")
	fmt.Println(errors.Is(err, auth.ErrNoToken))
	// Output:
	// from-the-code-exchange <nil>
	// true
}

// An InstallationSource mints once and serves the cached token until it is
// within its margin of expiry.
func ExampleInstallationSource() {
	mints := 0
	src := auth.NewInstallationSource(auth.InstallationConfig{
		Mint: func(ctx context.Context) (string, time.Time, error) {
			mints++
			return fmt.Sprintf("svc_oat_%d", mints), time.Now().Add(time.Hour), nil
		},
	})
	ctx := context.Background()
	a, _ := src.Token(ctx)
	b, _ := src.Token(ctx)
	fmt.Println(a, b, mints)
	// Output: svc_oat_1 svc_oat_1 1
}
