// Command connect is a small web application that connects users to a
// partner application: /connect sends the browser to the service's consent
// page (with state and S256 PKCE), /callback exchanges the code and keeps
// the grants (one per organization the user picked; a refused consent
// gets a page that says so), / lists the
// connected grants with their organizations, and POST /disconnect?grant=...
// revokes one at the service.
//
// With no configuration it runs against partnertest, the SDK's in-process
// fake of the service, whose consent page consents at once for a user who
// picks two organizations. With -demo it then drives the browser's steps
// itself with an HTTP client (connect, list, disconnect), prints one line
// per step and exits; without it, it serves on 127.0.0.1 and prints the
// address to open. To use a real service, set all of
//
//	PARTNER_BASE_URL PARTNER_AUTH_URL PARTNER_CLIENT_ID PARTNER_CLIENT_SECRET
//	PARTNER_REDIRECT_URL
//
// PARTNER_REDIRECT_URL is the callback registered with the service, such as
// http://127.0.0.1:8080/callback: the app listens on 127.0.0.1 at its port
// (or at -addr) and serves the callback at its path.
//
//	go run ./examples/connect -demo
//	go run ./examples/connect
package main

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Getenv, os.Stdout))
}

var required = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_CLIENT_ID",
	"PARTNER_CLIENT_SECRET", "PARTNER_REDIRECT_URL",
}

// scopes are what the app asks the user for; the Pool adds
// partner.ScopeOfflineAccess, for the refresh token it needs.
var scopes = []string{partnertest.ScopeOrgRead, partnertest.ScopeProjectsRead}

// run is the program; it returns the exit code: 0 on success, 1 when a
// step failed, 2 for a bad configuration.
func run(ctx context.Context, args []string, getenv func(string) string, out io.Writer) int {
	flags := flag.NewFlagSet("connect", flag.ContinueOnError)
	flags.SetOutput(out)
	demo := flags.Bool("demo", false, "drive the browser's steps with an HTTP client against the fake service, then exit")
	addr := flags.String("addr", "", "address to listen on (default 127.0.0.1 at PARTNER_REDIRECT_URL's port, or any free port on the fake service)")
	if err := flags.Parse(args); err != nil {
		return 2
	}

	var missing []string
	for _, k := range required {
		if getenv(k) == "" {
			missing = append(missing, k)
		}
	}
	store := auth.NewMemoryStore() // a table in your database, in a real application
	cfg := partner.PoolConfig{Store: store, Scopes: scopes}
	callbackPath := "/callback"
	var fake *partnertest.Server
	switch len(missing) {
	case 0:
		if *demo {
			fmt.Fprintln(out, "connect: -demo consents on the fake service's behalf; with PARTNER_* set, run without -demo and open the address in a browser")
			return 2
		}
		u, err := url.Parse(getenv("PARTNER_REDIRECT_URL"))
		if err != nil || u.Host == "" {
			fmt.Fprintln(out, "connect: PARTNER_REDIRECT_URL must be an absolute URL, the callback registered with the service")
			return 2
		}
		if callbackPath = u.Path; slices.Contains([]string{"", "/", "/connect", "/disconnect"}, callbackPath) {
			fmt.Fprintln(out, "connect: PARTNER_REDIRECT_URL's path must be the app's own callback, such as /callback")
			return 2
		}
		if *addr == "" {
			*addr = net.JoinHostPort("127.0.0.1", cmp.Or(u.Port(), "8080"))
		}
		cfg.BaseURL, cfg.AuthURL = getenv("PARTNER_BASE_URL"), getenv("PARTNER_AUTH_URL")
		cfg.ClientID, cfg.ClientSecret = getenv("PARTNER_CLIENT_ID"), getenv("PARTNER_CLIENT_SECRET")
		cfg.RedirectURL = u.String()
		fmt.Fprintf(out, "Using the service at %s\n", cfg.BaseURL)
	case len(required):
		fake = partnertest.NewServer()
		defer fake.Close()
		// The user picks two organizations on the consent page: the
		// exchange gives one grant for each.
		fake.SetConsent(partnertest.Consent{Organizations: []partnertest.Organization{
			fake.AddOrganization("acme", "Acme"), fake.AddOrganization("globex", "Globex"),
		}})
		cfg.BaseURL, cfg.AuthURL = fake.URL, fake.AuthURL
		cfg.ClientID, cfg.ClientSecret = fake.ClientID(), fake.ClientSecret()
		if *addr == "" {
			*addr = "127.0.0.1:0"
		}
		fmt.Fprintln(out, "No PARTNER_* settings: using the built-in fake service (partnertest).")
		fmt.Fprintf(out, "Set %s to use a real one.\n", strings.Join(required, ", "))
	default:
		fmt.Fprintf(out, "connect: missing settings: %s (set all of them, or none to use the fake service)\n", strings.Join(missing, ", "))
		return 2
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(out, "connect: %v\n", err)
		return 2
	}
	base := "http://" + ln.Addr().String()
	if fake != nil {
		cfg.RedirectURL = base + callbackPath
		fake.AddRedirectURL(cfg.RedirectURL) // registered with the service, as onboarding does
	}
	pool, err := partner.NewPool(cfg)
	if err != nil {
		ln.Close()
		fmt.Fprintf(out, "connect: %v\n", err)
		return 2
	}
	defer pool.Close()

	a := newApp(pool, callbackPath)
	hs := &http.Server{Handler: a.handler(), ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		<-served
	}()

	if *demo {
		if err := runDemo(ctx, base, fake, store, out); err != nil {
			fmt.Fprintf(out, "connect: %v\n", err)
			return 1
		}
		fmt.Fprintln(out, "Done.")
		return 0
	}
	fmt.Fprintf(out, "Open %s/ in a browser (callback %s); Ctrl-C stops.\n", base, cfg.RedirectURL)
	select {
	case <-ctx.Done():
	case err := <-served:
		served <- err // for the deferred Shutdown
		fmt.Fprintf(out, "connect: %v\n", err)
		return 1
	}
	return 0
}

// authRequest is a consent in progress in one browser: what its callback
// must bring back (state) and prove (the PKCE verifier).
type authRequest struct {
	state, verifier string
	expires         time.Time
}

// consentTimeout is how long a browser has to come back from the consent
// page; the service's codes live 10 minutes.
const consentTimeout = 10 * time.Minute

// sessionCookie names the browser's session, the key of its authRequest.
const sessionCookie = "connect_session"

// app is the web application.
type app struct {
	pool     *partner.Pool
	callback string // the path of the redirect URL

	mu      sync.Mutex
	pending map[string]authRequest // by session cookie
	// grants are the connected grants, oldest first. A real application
	// keeps them in its database, next to its own user.
	grants []partner.Grant
}

func newApp(pool *partner.Pool, callbackPath string) *app {
	return &app{pool: pool, callback: callbackPath, pending: make(map[string]authRequest)}
}

// handler routes the app's pages; POSTs from other sites are refused
// (net/http's CrossOriginProtection).
func (a *app) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", a.list)
	mux.HandleFunc("GET /connect", a.connect)
	mux.HandleFunc("GET "+a.callback, a.exchange)
	mux.HandleFunc("POST /disconnect", a.disconnect)
	return http.NewCrossOriginProtection().Handler(mux)
}

// connect sends the browser to the consent page, with a new state and
// PKCE verifier kept server-side for its session.
func (a *app) connect(w http.ResponseWriter, r *http.Request) {
	session := rand.Text()
	req := authRequest{state: rand.Text(), verifier: oauth2.GenerateVerifier(), expires: time.Now().Add(consentTimeout)}
	a.mu.Lock()
	for k, p := range a.pending {
		if time.Now().After(p.expires) {
			delete(a.pending, k)
		}
	}
	a.pending[session] = req
	a.mu.Unlock()
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: session, Path: "/", MaxAge: int(consentTimeout / time.Second),
		HttpOnly: true, Secure: r.TLS != nil,
		SameSite: http.SameSiteLaxMode, // sent on the service's redirect back, a top-level GET
	})
	http.Redirect(w, r, a.pool.AuthCodeURL(req.state, oauth2.S256ChallengeOption(req.verifier)), http.StatusFound)
}

// exchange is the callback: it reads the callback against the state of
// this browser's connection (partner.ReadCallback), exchanges the code
// with the PKCE verifier, keeps the grants and sends the browser to the
// list.
func (a *app) exchange(w http.ResponseWriter, r *http.Request) {
	var req authRequest
	ok := false
	if c, err := r.Cookie(sessionCookie); err == nil {
		a.mu.Lock()
		req, ok = a.pending[c.Value]
		delete(a.pending, c.Value) // one callback per consent
		a.mu.Unlock()
	}
	if !ok || time.Now().After(req.expires) {
		http.Error(w, "No connection in progress in this browser, or it took too long: start again at /connect.", http.StatusBadRequest)
		return
	}
	code, err := partner.ReadCallback(r.URL.Query(), req.state)
	switch {
	case errors.Is(err, partner.ErrConsentDenied):
		http.Error(w, "You did not allow the connection (access_denied): connect again at /connect whenever you like.", http.StatusForbidden)
		return
	case errors.Is(err, partner.ErrInvalidCallback):
		http.Error(w, "This is not the answer to this browser's connection: start again at /connect.", http.StatusBadRequest)
		return
	case err != nil: // the service refused: a scope it does not know, or it is down
		http.Error(w, err.Error(), http.StatusBadGateway) // the SDK's errors never contain a token
		return
	}
	grants, err := a.pool.Exchange(r.Context(), code, oauth2.VerifierOption(req.verifier))
	a.keep(grants) // with an error too: Exchange returns the grants it could not save
	if err != nil {
		status := http.StatusBadGateway
		if errors.Is(err, partner.ErrInvalidGrant) {
			status = http.StatusBadRequest // the code was refused: connect again
		}
		http.Error(w, err.Error(), status) // the code is spent either way: the message says to connect again
		return
	}
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// keep adds grants to the connected ones; a grant connected again (the
// user consented anew) replaces the old entry.
func (a *app) keep(grants []partner.Grant) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, g := range grants {
		a.grants = slices.DeleteFunc(a.grants, func(o partner.Grant) bool { return o.GrantID == g.GrantID })
		a.grants = append(a.grants, g)
	}
}

// grantView is one connected grant as / shows it.
type grantView struct {
	GrantID        string   `json:"grant_id"`
	OrganizationID string   `json:"organization_id,omitempty"` // what the exchange said
	Organizations  []string `json:"organizations"`             // what Organizations.List says: "Name (slug)"
	Error          string   `json:"error,omitempty"`
}

var page = template.Must(template.New("list").Parse(`<!doctype html>
<title>Connected organizations</title>
<h1>Connected organizations</h1>
<p><a href="/connect">Connect organizations</a></p>
{{range .}}<form method="post" action="/disconnect?grant={{.GrantID}}">
<p>{{.GrantID}}: {{range .Organizations}}{{.}} {{end}}{{with .Error}}<em>{{.}}</em>{{end}}
<button>Disconnect</button></p></form>
{{else}}<p>None yet.</p>{{end}}
`))

// list shows the connected grants with their organizations, as HTML or,
// for Accept: application/json, as JSON.
func (a *app) list(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	grants := slices.Clone(a.grants)
	a.mu.Unlock()
	views := make([]grantView, 0, len(grants))
	for _, g := range grants {
		v := grantView{GrantID: g.GrantID, OrganizationID: g.OrganizationID, Organizations: []string{}}
		c, err := a.pool.Client(r.Context(), g.GrantID)
		if err == nil {
			orgs, lerr := c.Organizations.List(r.Context())
			for _, o := range orgs {
				v.Organizations = append(v.Organizations, fmt.Sprintf("%s (%s)", o.Name, o.Slug))
			}
			err = lerr
		}
		switch {
		case errors.Is(err, partner.ErrReauthorizationRequired):
			v.Error = "the user disconnected the application at the service: connect again"
		case err != nil:
			v.Error = err.Error()
		}
		views = append(views, v)
	}
	if strings.Contains(r.Header.Get("Accept"), "application/json") {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(views)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	page.Execute(w, views)
}

// disconnect revokes one connected grant at the service and forgets it.
func (a *app) disconnect(w http.ResponseWriter, r *http.Request) {
	id := r.URL.Query().Get("grant")
	a.mu.Lock()
	known := slices.ContainsFunc(a.grants, func(g partner.Grant) bool { return g.GrantID == id })
	a.mu.Unlock()
	if !known {
		http.Error(w, fmt.Sprintf("No connected grant %q.", id), http.StatusNotFound)
		return
	}
	// Revokes at the service, drops the grant's client and deletes its
	// token from the Store (a MemoryStore is an auth.Deleter).
	if err := a.pool.Disconnect(r.Context(), id); err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	a.mu.Lock()
	a.grants = slices.DeleteFunc(a.grants, func(g partner.Grant) bool { return g.GrantID == id })
	a.mu.Unlock()
	http.Redirect(w, r, "/", http.StatusSeeOther)
}
