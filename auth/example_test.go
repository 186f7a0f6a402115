package auth_test

import (
	"context"
	"errors"
	"fmt"

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
