package installations_test

import (
	"context"
	"fmt"
	"strings"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/installations"
	"github.com/locsvc/partner-go/partnertest"
)

// The client mints installation tokens by itself; minting one by hand is
// for tools that hand a token to another process.
func ExampleService_CreateToken() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	tok, err := c.Installations.CreateToken(context.Background(), g.ID)
	if err != nil {
		panic(err)
	}
	fmt.Println(strings.HasPrefix(tok.Token, installations.Prefix), time.Until(tok.ExpiresAt) > 59*time.Minute)
	// Output: true true
}
