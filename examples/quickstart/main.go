// Command quickstart shows the partner API client at work: who the user
// is, their organizations and projects, a new project with a target
// language, and what the application sees when a grant is revoked.
//
// With no configuration it runs against partnertest, the SDK's in-process
// fake of the service, and says so. To use a real service, set all of
//
//	PARTNER_BASE_URL PARTNER_AUTH_URL PARTNER_CLIENT_ID PARTNER_CLIENT_SECRET
//	PARTNER_REFRESH_TOKEN PARTNER_GRANT_ID
//
// and optionally PARTNER_SOURCE_LANGUAGE (default en) and
// PARTNER_TARGET_LANGUAGE (default de).
//
//	go run ./examples/quickstart
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Getenv, os.Stdout))
}

var required = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_CLIENT_ID",
	"PARTNER_CLIENT_SECRET", "PARTNER_REFRESH_TOKEN", "PARTNER_GRANT_ID",
}

// run is the program; it returns the exit code: 0 on success, 1 when the
// service refused (with one line saying what to do), 2 for a bad
// configuration.
func run(ctx context.Context, getenv func(string) string, out io.Writer) int {
	var missing []string
	for _, k := range required {
		if getenv(k) == "" {
			missing = append(missing, k)
		}
	}
	source, target := or(getenv("PARTNER_SOURCE_LANGUAGE"), "en"), or(getenv("PARTNER_TARGET_LANGUAGE"), "de")

	var cfg partner.Config
	var fake *partnertest.Server
	switch len(missing) {
	case 0:
		cfg = partner.Config{
			BaseURL: getenv("PARTNER_BASE_URL"), AuthURL: getenv("PARTNER_AUTH_URL"),
			ClientID: getenv("PARTNER_CLIENT_ID"), ClientSecret: getenv("PARTNER_CLIENT_SECRET"),
			GrantID: getenv("PARTNER_GRANT_ID"),
			Token:   &oauth2.Token{RefreshToken: getenv("PARTNER_REFRESH_TOKEN")},
		}
		fmt.Fprintf(out, "Using the service at %s\n", cfg.BaseURL)
	case len(required):
		fake = partnertest.NewServer()
		defer fake.Close()
		g := fake.NewGrant()
		cfg = partner.Config{
			BaseURL: fake.URL, AuthURL: fake.AuthURL,
			ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		}
		fmt.Fprintln(out, "No PARTNER_* settings: using the built-in fake service (partnertest).")
		fmt.Fprintf(out, "Set %s to use a real one.\n", strings.Join(required, ", "))
	default:
		fmt.Fprintf(out, "quickstart: missing settings: %s (set all of them, or none to use the fake service)\n", strings.Join(missing, ", "))
		return 2
	}

	c, err := partner.NewClient(cfg)
	if err != nil {
		fmt.Fprintf(out, "quickstart: %v\n", err)
		return 2
	}
	if err := tour(ctx, c, source, target, out); err != nil {
		fmt.Fprintln(out, advice(err))
		return 1
	}

	if fake != nil {
		fmt.Fprintln(out, "\nNow the user revokes the grant (fake service only):")
		fake.Revoke(cfg.GrantID)
		_, err := c.Organizations.List(ctx)
		fmt.Fprintf(out, "  Organizations.List: %v\n", err)
		fmt.Fprintf(out, "  errors.Is(err, partner.ErrReauthorizationRequired) = %v\n", errors.Is(err, partner.ErrReauthorizationRequired))
		fmt.Fprintf(out, "  what to tell the user: %s\n", advice(err))
		before := len(fake.Requests())
		_, err = c.Projects.List(ctx, "any")
		fmt.Fprintf(out, "  a later call: same error %v, requests sent %d\n",
			errors.Is(err, partner.ErrReauthorizationRequired), len(fake.Requests())-before)
	}
	return 0
}

// tour makes one call to each endpoint and prints what it got.
func tour(ctx context.Context, c *partner.Client, source, target string, out io.Writer) error {
	me, err := c.Me(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\nConnected as %s <%s> (account %s)\n", or(me.Name, me.UserID), me.Email, or(me.AccountName, me.AccountID))

	orgs, err := c.Organizations.List(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Organizations granted: %d\n", len(orgs))
	if len(orgs) == 0 {
		return nil
	}
	org := orgs[0]
	ps, err := c.Projects.List(ctx, org.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Projects in %s: %d\n", or(org.Slug, org.ID), len(ps))

	slug := "quickstart-" + rand.Text()[:8]
	p, err := c.Projects.Create(ctx, projects.NewProject{Name: "Quickstart " + slug, Slug: strings.ToLower(slug), SourceLanguage: source})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Created project %s (id %s, source %s)\n", p.Slug, p.ID, p.SourceLanguage)

	if p, err = c.Projects.Get(ctx, p.ID); err != nil {
		return err
	}
	lang, err := c.Projects.AddLanguage(ctx, p.ID, target)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Added target language %s%s to %s\n", lang.Code, paren(lang.Name), p.Slug)
	return nil
}

// advice says in one line what the application should do about err.
func advice(err error) string {
	var scope *partner.MissingScopeError
	switch {
	case errors.As(err, &scope):
		return fmt.Sprintf("Ask the user to re-authorize the application with the scope %q. (%v)", scope.Required, err)
	case errors.Is(err, partner.ErrConfiguration):
		return fmt.Sprintf("Check PARTNER_CLIENT_ID, PARTNER_CLIENT_SECRET and PARTNER_AUTH_URL: the service refused the application. (%v)", err)
	case errors.Is(err, partner.ErrReauthorizationRequired):
		return "The user must reconnect the application: the grant was revoked or its token refused."
	case errors.Is(err, partner.ErrTemporary):
		return fmt.Sprintf("The service is unavailable right now; try again later. (%v)", err)
	case errors.Is(err, context.Canceled):
		return "Stopped."
	}
	return fmt.Sprintf("Unexpected error: %v", err)
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
