package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/partnertest"
)

// The fake's seeded state.
const (
	fakeOrgSlug     = "acme"
	fakeProjectSlug = "web"
)

// fakeOptions are what fake is asked to do: its flags, and the app it
// runs in.
type fakeOptions struct {
	app              *app
	addr, hook       string
	printEnv, rotate bool
	lifetime         time.Duration
}

func (a *app) fakeCmd() *cobra.Command {
	opts := &fakeOptions{app: a}
	cmd := &cobra.Command{
		Use:   "fake [--addr HOST:PORT] [--print-env] [--webhook URL] [--rotate]",
		Short: "Run a fake of the service on loopback, for tests in any language",
		Long: `fake runs the SDK's fake of the whole service (package partnertest) as a
standalone server: the resource API at --addr, and the token endpoint and both
MCP tool servers on free ports of the same host. It seeds an organization
(acme), a project (acme/web: source language en, targets de and fr) and a
ready grant, and auto-consents for "partner connect" (the redirect URL it
prints is registered). With --print-env it prints KEY=VALUE lines for every
PARTNER_* setting on stdout once it is listening: among them PARTNER_STORE, a
file store in a temporary folder the fake owns (removed when it stops), seeded
with the grant's refresh token, so commands keep the token there and warn of
nothing; and PARTNER_CDN_URL, the fake CDN's address. It serves until SIGINT
or SIGTERM; its state lives in memory.

Refresh tokens do not rotate unless --rotate is given, so the printed
PARTNER_REFRESH_TOKEN stays usable by any number of processes. With --rotate,
each refresh returns a new refresh token and a retired one sent again revokes
the grant, as the service may do: the printed PARTNER_STORE is shared by the
processes that use it.`,
		Example: `  partner fake --print-env > fake.env &
  set -a; . ./fake.env; set +a     # once fake.env holds PARTNER_WEBHOOK_SECRET
  partner status`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runFake(cmd.Context(), opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.addr, "addr", "127.0.0.1:0", "where the resource API listens (port 0: a free one); the other listeners take free ports on the same host")
	f.BoolVar(&opts.printEnv, "print-env", false, "print KEY=VALUE lines for every PARTNER_* setting on stdout")
	f.StringVar(&opts.hook, "webhook", "", "send the events the tools fire to this URL, signed with PARTNER_WEBHOOK_SECRET")
	f.BoolVar(&opts.rotate, "rotate", false, "rotate refresh tokens on every refresh, and revoke a grant whose retired refresh token comes back")
	// Short-lived access tokens make every run refresh, for tests of
	// rotation; not part of the documented interface.
	f.DurationVar(&opts.lifetime, "access-token-lifetime", 0, "how long access tokens live (default 30m)")
	f.MarkHidden("access-token-lifetime")
	return cmd
}

// runFake runs "partner fake": it serves the fake, seeded, until ctx ends.
func runFake(ctx context.Context, opts *fakeOptions) error {
	a := opts.app
	l, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("fake: listening on %s: %w", opts.addr, err)
	}
	redirect, err := freeRedirectURL(l)
	if err != nil {
		l.Close()
		return err
	}
	srvOpts := []partnertest.Option{partnertest.WithListener(l), partnertest.WithRedirectURLs(redirect)}
	if opts.rotate {
		srvOpts = append(srvOpts, partnertest.WithRefreshRotation())
	}
	if opts.lifetime > 0 {
		srvOpts = append(srvOpts, partnertest.WithTokenLifetimes(opts.lifetime, 0))
	}
	srv := partnertest.NewServer(srvOpts...)
	defer srv.Close()
	proj, g := seedFake(srv)
	secret := "whsec_" + rand.Text()
	if opts.hook != "" {
		secret = srv.AddWebhook(proj.ID, opts.hook).Secret
	}
	store, err := seedFakeStore(ctx, g)
	if err != nil {
		return err
	}
	defer os.RemoveAll(filepath.Dir(strings.TrimPrefix(store, "file:")))
	if opts.printEnv {
		for _, kv := range fakeEnv(srv, g, store, redirect, secret) {
			a.out.printf("%s=%s\n", kv[0], kv[1])
		}
	}
	a.errOut.printf("partner fake: serving the API at %s, project %s/%s, grant %s; stop with Ctrl-C\n",
		srv.URL, fakeOrgSlug, fakeProjectSlug, g.ID)
	<-ctx.Done()
	n := srv.Counts()
	a.errOut.printf("partner fake: stopped after %d refreshes, %d installation tokens, %d code exchanges; %d refresh tokens reused, %d grants revoked for reuse\n",
		n.Refreshes, n.Mints, n.Exchanges, n.ReusedRefreshTokens, n.ReuseRevocations)
	return nil
}

// seedFake seeds the fake's state: organization acme, project acme/web
// (source en; de, fr; a CDN), a ready grant, which it returns with the
// project, and the consent "partner connect" gets.
func seedFake(srv *partnertest.Server) (partnertest.Project, partnertest.Grant) {
	org := srv.AddOrganization(fakeOrgSlug, "Acme")
	proj := srv.AddProject(org.ID, partnertest.Project{
		Name: "Web", Slug: fakeProjectSlug, SourceLanguage: "en", CDN: true,
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}, {Code: "fr", Name: "French"}},
	})
	g := srv.NewGrant(partnertest.WithOrganizations(org))
	// A consent (partner connect) picks the seeded organization, as
	// another user than the seeded grant's: the printed refresh token
	// stays valid.
	srv.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{org}})
	return proj, g
}

// seedFakeStore makes a file store in a new temporary folder, which the
// caller removes, holding g's refresh token, and returns its PARTNER_STORE
// value: commands run with the fake's settings keep the token there, as
// they should with the service, and warn of nothing.
func seedFakeStore(ctx context.Context, g partnertest.Grant) (string, error) {
	dir, err := os.MkdirTemp("", "partner-fake-")
	if err != nil {
		return "", fmt.Errorf("fake: a folder for the token store: %w", err)
	}
	spec := "file:" + filepath.Join(dir, "tokens.json")
	store, closeStore, err := openStore(ctx, spec)
	if err == nil {
		_, err = seed(ctx, store, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken})
		closeStore()
	}
	if err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("fake: seeding the token store: %w", err)
	}
	return spec, nil
}

// fakeEnv returns the settings for the fake srv and its grant g, whose
// token the store holds, as "partner fake --print-env" prints them: KEY,
// VALUE.
func fakeEnv(srv *partnertest.Server, g partnertest.Grant, store, redirect, secret string) [][2]string {
	return [][2]string{
		{"PARTNER_BASE_URL", srv.URL},
		{"PARTNER_AUTH_URL", srv.AuthURL},
		{"PARTNER_MCP_URL", srv.MCPURL},
		{"PARTNER_CONTENT_MCP_URL", srv.ContentMCPURL},
		{"PARTNER_CLIENT_ID", srv.ClientID()},
		{"PARTNER_CLIENT_SECRET", srv.ClientSecret()},
		{"PARTNER_GRANT_ID", g.ID},
		{"PARTNER_REFRESH_TOKEN", g.RefreshToken},
		{"PARTNER_STORE", store},
		{"PARTNER_CDN_URL", srv.CDNURL},
		{"PARTNER_PROJECT", fakeOrgSlug + "/" + fakeProjectSlug},
		{"PARTNER_REDIRECT_URL", redirect},
		{"PARTNER_WEBHOOK_SECRET", secret},
	}
}

// freeRedirectURL returns a callback URL for "partner connect" on a port of
// l's host that is free now.
func freeRedirectURL(l net.Listener) (string, error) {
	host, _, _ := net.SplitHostPort(l.Addr().String())
	cl, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return "", fmt.Errorf("fake: finding a port for the redirect URL: %w", err)
	}
	defer cl.Close()
	return "http://" + cl.Addr().String() + "/callback", nil
}
