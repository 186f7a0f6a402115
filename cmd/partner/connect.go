package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"runtime"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
)

// connectResult is what "partner connect --json" prints.
type connectResult struct {
	// Grants are the grants the consent created or updated, one per
	// organization the user picked.
	Grants []connectGrant `json:"grants"`
	// Store is where their tokens were saved (without a password).
	Store string `json:"store"`
}

type connectGrant struct {
	GrantID        string   `json:"grantId"`
	OrganizationID string   `json:"organizationId"`
	Scopes         []string `json:"scopes"`
}

// defaultScopes returns the scopes connect asks for without --scopes:
// what push (with --publish: translations:publish), pull, status
// (getProject: projects:read) and adding a language (projects:write)
// need, where the service's defaults lack translations:publish and
// projects:write.
func defaultScopes() []string {
	return []string{
		partner.ScopeOrgRead, partner.ScopeProjectsRead, partner.ScopeProjectsWrite,
		partner.ScopeKeysRead, partner.ScopeKeysWrite,
		partner.ScopeTranslationsRead, partner.ScopeTranslationsWrite, partner.ScopeTranslationsPublish,
	}
}

// consentTimeout is how long connect waits for the browser to come back;
// the service's codes live 10 minutes.
const consentTimeout = 10 * time.Minute

// connectOptions are what connect is asked to do: its flags, and the app
// it runs in.
type connectOptions struct {
	app       *app
	scopes    []string
	noBrowser bool
}

func (a *app) connectCmd() *cobra.Command {
	opts := &connectOptions{app: a}
	cmd := &cobra.Command{
		Use:   "connect [--scopes SCOPE,...] [--store STORE] [--no-browser]",
		Short: "Connect a user (the consent flow) and save the grants' tokens to the store",
		Long: `connect runs the consent flow: it listens on PARTNER_REDIRECT_URL (an http URL on a
loopback address, registered with the service byte for byte), prints the
consent page's URL on stderr and opens it in a browser unless --no-browser.
When the browser comes back, it exchanges the code, saves each grant's token to
the store (--store, else PARTNER_STORE) and prints the grant ids. Set
PARTNER_GRANT_ID to one of them for the other commands.

--scopes are the permissions to ask for (offline_access is always added);
without it connect asks for what the other commands need: org:read,
projects:read, projects:write (adding a language), keys:read, keys:write,
translations:read, translations:write and translations:publish (push
--publish, publish).`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runConnect(cmd.Context(), opts) },
	}
	cmd.Flags().StringSliceVar(&opts.scopes, "scopes", defaultScopes(), "scopes to ask for, comma-separated")
	cmd.Flags().BoolVar(&opts.noBrowser, "no-browser", false, "only print the URL to open; do not start a browser")
	return cmd
}

// runConnect runs "partner connect": the consent flow, then the grants'
// tokens saved to the store.
func runConnect(ctx context.Context, opts *connectOptions) error {
	a := opts.app
	v, err := a.need("PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_CLIENT_ID", "PARTNER_CLIENT_SECRET", "PARTNER_REDIRECT_URL")
	if err != nil {
		return err
	}
	redirect, err := loopbackURL(v[4])
	if err != nil {
		return err
	}
	spec := a.storeSpec()
	if spec == "" {
		return usageErrorf("connect saves the tokens it gets: give --store or set PARTNER_STORE (%s)", storeSyntax)
	}
	store, closeStore, err := openStore(ctx, spec)
	if err != nil {
		return err
	}
	defer closeStore()
	pool, err := partner.NewPool(partner.PoolConfig{
		BaseURL: v[0], AuthURL: v[1], ClientID: v[2], ClientSecret: v[3],
		RedirectURL: v[4], Scopes: opts.scopes, Store: store, UserAgent: "partner-cli", HTTPClient: a.httpClient,
	})
	if err != nil {
		return err
	}
	defer pool.Close()

	l, err := net.Listen("tcp", redirect.Host)
	if err != nil {
		return fmt.Errorf("listening for the callback on %s: %w (is another `partner connect` running?)", redirect.Host, err)
	}
	state, verifier := rand.Text(), oauth2.GenerateVerifier()
	type outcome struct {
		grants []partner.Grant
		err    error
	}
	done := make(chan outcome, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+redirect.EscapedPath(), func(w http.ResponseWriter, r *http.Request) {
		code, err := partner.ReadCallback(r.URL.Query(), state)
		if errors.Is(err, partner.ErrInvalidCallback) {
			// not the answer to this consent: keep waiting for it
			http.Error(w, "This is not the answer to this `partner connect`: use the URL it printed.", http.StatusBadRequest)
			return
		}
		var grants []partner.Grant
		if err == nil {
			grants, err = pool.Exchange(r.Context(), code, oauth2.VerifierOption(verifier))
		}
		if err != nil {
			http.Error(w, "Not connected: "+err.Error()+"\nSee the terminal.", http.StatusBadGateway)
		} else {
			fmt.Fprintln(w, "Connected. You can close this window and go back to the terminal.")
		}
		select {
		case done <- outcome{grants, err}:
		default:
		}
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	defer func() {
		// Shutdown, not Close: the browser's answer is still being
		// written when the exchange's outcome arrives here.
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()

	consent := pool.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier))
	a.errOut.printf("Open this URL in a browser to connect (waiting on %s):\n%s\n", redirect, consent)
	if !opts.noBrowser {
		if err := openBrowser(consent); err != nil {
			a.errOut.printf("partner: could not start a browser (%v): open the URL yourself\n", err)
		}
	}
	wait, cancel := context.WithTimeout(ctx, consentTimeout)
	defer cancel()
	var out outcome
	select {
	case out = <-done:
	case <-wait.Done():
		if ctx.Err() != nil {
			return errors.New("connect cancelled before the browser came back: nothing was saved")
		}
		return fmt.Errorf("no answer from the browser within %v: run `partner connect` again", consentTimeout)
	}
	if out.err != nil {
		return out.err
	}
	res := connectResult{Grants: []connectGrant{}, Store: redactSpec(spec)}
	for _, g := range out.grants {
		org := g.OrganizationID
		if org == "" {
			// With one organization the service names it in the
			// installation token's answer only.
			org = grantOrganization(ctx, pool, g.GrantID)
		}
		res.Grants = append(res.Grants, connectGrant{GrantID: g.GrantID, OrganizationID: org, Scopes: append([]string{}, g.Scopes...)})
	}
	if a.json {
		return a.printJSON(res)
	}
	for _, g := range res.Grants {
		a.out.printf("connected grant %s", g.GrantID)
		if g.OrganizationID != "" {
			a.out.printf(" (organization %s)", g.OrganizationID)
		}
		a.out.println("")
	}
	a.errOut.printf("Tokens saved to %s. Set PARTNER_GRANT_ID to the grant to use.\n", res.Store)
	return nil
}

// grantOrganization returns the organization of a grant the pool holds,
// as its installation token's answer names it, or "" when it cannot say:
// the grant is connected all the same.
func grantOrganization(ctx context.Context, pool *partner.Pool, grantID string) string {
	c, err := pool.Client(ctx, grantID)
	if err != nil {
		return ""
	}
	tok, err := c.Installations.CreateToken(ctx)
	if err != nil {
		return ""
	}
	return tok.OrganizationID
}

// loopbackURL parses the redirect URL connect listens on: http, a loopback
// host and a port.
func loopbackURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, usageErrorf("PARTNER_REDIRECT_URL: %v", err)
	}
	host := u.Hostname()
	ip := net.ParseIP(host)
	if u.Scheme != "http" || u.Port() == "" || (host != "localhost" && (ip == nil || !ip.IsLoopback())) {
		return nil, usageErrorf("PARTNER_REDIRECT_URL %q: connect listens on it, so it must be http://127.0.0.1:PORT/PATH (or localhost, [::1]), registered with the service", s)
	}
	if u.Path == "" {
		u.Path = "/"
	}
	return u, nil
}

// openBrowser opens u in the user's browser.
func openBrowser(u string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", u)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.Command("xdg-open", u)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
