package hooks_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/partnertest"
)

// Hooks without OpenTelemetry: a log line per SDK call and per retried
// attempt. Funcs left nil cost nothing.
func Example() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
	srv.InjectFault(partnertest.Fault{Method: http.MethodGet, Path: "/api/oauth-client/v1/projects/*", Status: http.StatusServiceUnavailable})

	var mu sync.Mutex // the funcs may be called concurrently
	h := &hooks.Hooks{
		CallEnd: func(_ context.Context, c hooks.Call) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Printf("%s.%s: %s after %d attempts\n", c.Service, c.Method, c.Outcome, c.Attempts)
		},
		AttemptEnd: func(_ context.Context, a hooks.Attempt) {
			if a.Retry {
				mu.Lock()
				defer mu.Unlock()
				fmt.Printf("%s %s answered %d: retried\n", a.HTTPMethod, a.Path, a.Status)
			}
		},
	}
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken}, HTTPClient: srv.Client(),
		Hooks: h,
	})
	if err != nil {
		panic(err)
	}
	defer c.Close()
	if _, err := c.Projects.Get(context.Background(), p.ID); err != nil {
		panic(err)
	}
	// Output:
	// Auth.Token: ok after 1 attempts
	// Installations.Mint: ok after 1 attempts
	// GET /api/oauth-client/v1/projects/prj_1 answered 503: retried
	// Projects.Get: ok after 2 attempts
}
