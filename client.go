package partner

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/installations"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
	"github.com/locsvc/partner-go/organizations"
	"github.com/locsvc/partner-go/projects"
)

// Version is the SDK's version; it is sent in the User-Agent.
const Version = transport.Version

// Config configures a Client. BaseURL, AuthURL, ClientID, ClientSecret and
// GrantID are required, and so is Token unless Store holds the grant's
// token. Its String, GoString and LogValue never show a secret.
type Config struct {
	// BaseURL is the resource API's base address (the spec's {base_url}).
	BaseURL string
	// AuthURL is the token endpoint's base address (the spec's {auth_url}).
	AuthURL string
	// ClientID and ClientSecret are the partner application's credentials.
	ClientID     string
	ClientSecret string
	// GrantID identifies the user's grant (the connection).
	GrantID string
	// Token is the token from the code exchange; only RefreshToken is
	// required. An access token with an Expiry more than a minute away is
	// used until then. When nil, the token is loaded from Store.
	Token *oauth2.Token
	// Store keeps the grant's token; every refreshed token is saved to it
	// before use. Nil keeps tokens in memory only.
	Store auth.Store
	// HTTPClient sends every request (one connection pool may serve many
	// clients). It is copied, never modified. Nil uses a clone of
	// http.DefaultTransport that waits at most 30 s for an answer's
	// headers, shared by nothing else.
	HTTPClient *http.Client
	// Logger receives retry and token events at debug level and warnings;
	// nil is silent. Nothing logged holds a token or secret.
	Logger *slog.Logger
	// UserAgent is appended to "partner-go/<version>".
	UserAgent string
	// AllowInsecureHTTP permits http:// URLs to hosts other than loopback.
	// Tokens would cross the network in clear text: only for test rigs.
	AllowInsecureHTTP bool
	// InstallationTokenMargin is how long before expiry an installation
	// token is replaced (default 5 minutes).
	InstallationTokenMargin time.Duration
	// RefreshTimeout bounds one token refresh or mint, retries included
	// (default 30 s).
	RefreshTimeout time.Duration
	// RetryMax is how many times a failed request may be retried (default
	// 3; negative: never). RetryAfterMax caps how long the SDK waits for a
	// Retry-After (default 30 s); a longer one is returned as the error.
	RetryMax      int
	RetryAfterMax time.Duration
	// MaxResponseBytes caps a response body (default 8 MiB).
	MaxResponseBytes int64
}

// Client calls the partner API for one grant. Tokens are handled for it:
// the access token is refreshed and the installation token minted when
// needed, once however many goroutines call at the same time. A Client is
// safe for concurrent use.
type Client struct {
	// Organizations lists the organizations the user granted (endpoint 2).
	Organizations *organizations.Service
	// Projects lists, creates and reads projects and adds target languages
	// (endpoints 3 to 6).
	Projects *projects.Service
	// Installations mints installation tokens (endpoint 8). The client
	// does this itself; call it only to mint a token by hand.
	Installations *installations.Service

	grantID string
	runner  *transport.Runner
	access  *auth.AccessSource
	install *auth.InstallationSource
}

// NewClient checks cfg and returns a Client. It sends no request: the
// first call refreshes the tokens it needs. A bad field gives an error
// matching ErrInvalidArgument that names it.
func NewClient(cfg Config) (*Client, error) {
	pc := cfg.pool()
	sh, err := pc.build("Config") // URLs and credentials first, in field order
	if err != nil {
		return nil, err
	}
	if _, err := transport.PathParam("Config.GrantID", cfg.GrantID); err != nil {
		return nil, err
	}
	switch {
	case cfg.Token == nil && cfg.Store == nil:
		return nil, apierr.ArgumentError("Config.Token", "is required (the token from the code exchange) unless Config.Store holds it")
	case cfg.Token != nil && cfg.Token.RefreshToken == "":
		return nil, apierr.ArgumentError("Config.Token.RefreshToken", "is required")
	}
	return sh.client(cfg.GrantID, cfg.Token), nil
}

// pool returns the settings cfg shares with a PoolConfig.
func (cfg *Config) pool() PoolConfig {
	return PoolConfig{
		BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL,
		ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		Store: cfg.Store, HTTPClient: cfg.HTTPClient, Logger: cfg.Logger,
		UserAgent: cfg.UserAgent, AllowInsecureHTTP: cfg.AllowInsecureHTTP,
		InstallationTokenMargin: cfg.InstallationTokenMargin, RefreshTimeout: cfg.RefreshTimeout,
		RetryMax: cfg.RetryMax, RetryAfterMax: cfg.RetryAfterMax, MaxResponseBytes: cfg.MaxResponseBytes,
	}
}

// shared is what every client of a partner application can share: one
// request runner (one connection pool) and one refresher.
type shared struct {
	runner          *transport.Runner
	ref             *auth.Refresher
	margin, timeout time.Duration
}

// build checks the settings and makes the shared parts. name is the
// config type's name, for error messages.
func (pc *PoolConfig) build(name string) (*shared, error) {
	base, err := checkURL(name+".BaseURL", pc.BaseURL, pc.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	authURL, err := checkURL(name+".AuthURL", pc.AuthURL, pc.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	switch {
	case pc.ClientID == "":
		return nil, apierr.ArgumentError(name+".ClientID", "is required")
	case pc.ClientSecret == "":
		return nil, apierr.ArgumentError(name+".ClientSecret", "is required")
	}
	r := transport.New(transport.Options{
		BaseURL:          base,
		HTTPClient:       pc.HTTPClient,
		Logger:           pc.Logger,
		UserAgent:        pc.UserAgent,
		RetryMax:         pc.RetryMax,
		RetryAfterMax:    pc.RetryAfterMax,
		MaxResponseBytes: pc.MaxResponseBytes,
		Secrets:          []string{pc.ClientSecret},
	})
	ref := auth.NewRefresher(auth.RefresherConfig{
		AuthURL:      strings.TrimSuffix(authURL.String(), "/"),
		ClientID:     pc.ClientID,
		ClientSecret: pc.ClientSecret,
		Store:        pc.Store,
		Context:      r.OAuth2Context,
		Timeout:      pc.RefreshTimeout,
		Logger:       pc.Logger,
	})
	return &shared{runner: r, ref: ref, margin: pc.InstallationTokenMargin, timeout: pc.RefreshTimeout}, nil
}

// client wires one grant's client; tok nil means "load it from the Store
// on first use".
func (sh *shared) client(grantID string, tok *oauth2.Token) *Client {
	c := &Client{grantID: grantID, runner: sh.runner}
	c.access = sh.ref.Source(grantID, tok)
	c.Installations = installations.New(sh.runner, c.access)
	c.install = auth.NewInstallationSource(auth.InstallationConfig{
		Mint: func(ctx context.Context) (string, time.Time, error) {
			t, err := c.Installations.CreateToken(ctx, c.grantID)
			if err != nil {
				return "", time.Time{}, err
			}
			return t.Token, t.ExpiresAt, nil
		},
		Access:  c.access,
		Margin:  sh.margin,
		Timeout: sh.timeout,
	})
	c.Organizations = organizations.New(sh.runner, c.install)
	c.Projects = projects.New(sh.runner, c.install)
	return c
}

// GrantID returns the grant the client acts for.
func (c *Client) GrantID() string { return c.grantID }

// SetToken gives the client a new token after the user connected the
// application again, ending an ErrReauthorizationRequired state. It does
// not write the token to the Store: the application does that with the
// token from its code exchange.
func (c *Client) SetToken(tok *oauth2.Token) { c.access.SetToken(tok) }

// Identity is the connected user and their account (endpoint 1). The spec
// does not show the record: the obvious fields are decoded from the top
// level or from "user" and "account" objects, and the whole record is kept
// in Raw.
type Identity struct {
	UserID      string
	Email       string
	Name        string
	AccountID   string
	AccountName string
	// Raw is the record as the service sent it.
	Raw json.RawMessage
}

type person struct {
	ID     transport.FlexString `json:"id"`
	UserID transport.FlexString `json:"userId"`
	Email  string               `json:"email"`
	Name   string               `json:"name"`
}

type identityWire struct {
	person
	AccountID transport.FlexString `json:"accountId"`
	User      *person              `json:"user"`
	Account   *struct {
		ID   transport.FlexString `json:"id"`
		Name string               `json:"name"`
	} `json:"account"`
}

const mePath = "/api/oauth-client/me"

// Me returns the connected user's identity (GET /api/oauth-client/me). It
// uses the access token, so it works right after the code exchange,
// before any installation token exists.
func (c *Client) Me(ctx context.Context) (*Identity, error) {
	data, err := c.runner.Do(ctx, http.MethodGet, mePath, c.access, nil)
	if err != nil {
		return nil, err
	}
	var w identityWire
	if err := transport.Decode(http.MethodGet, mePath, data, &w); err != nil {
		return nil, err
	}
	p := w.person
	if w.User != nil {
		p = *w.User
	}
	id := &Identity{
		UserID:    string(p.ID),
		Email:     p.Email,
		Name:      p.Name,
		AccountID: string(w.AccountID),
		Raw:       data,
	}
	if id.UserID == "" {
		id.UserID = string(p.UserID)
	}
	if w.Account != nil {
		id.AccountName = w.Account.Name
		if id.AccountID == "" {
			id.AccountID = string(w.Account.ID)
		}
	}
	return id, nil
}

// checkURL accepts an absolute https URL, or http to a loopback host
// (or to any host when insecure is set), without query, fragment or user.
func checkURL(field, raw string, insecure bool) (*url.URL, error) {
	if raw == "" {
		return nil, apierr.ArgumentError(field, "is required")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, apierr.ArgumentError(field, "is not a URL")
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, apierr.ArgumentError(field, "must be an https:// URL")
	case u.Host == "":
		return nil, apierr.ArgumentError(field, "has no host")
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return nil, apierr.ArgumentError(field, "must not have user info, a query or a fragment")
	case u.Scheme == "http" && !insecure && !loopback(u.Hostname()):
		return nil, apierr.ArgumentError(field, "must use https:// (plain http is allowed for loopback hosts, or with Config.AllowInsecureHTTP)")
	}
	return u, nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// String describes the configuration without its secrets.
func (cfg Config) String() string {
	pc := cfg.pool()
	return pc.describe("partner.Config", fmt.Sprintf(", GrantID: %q, Token: %s", cfg.GrantID, tokenRedacted(cfg.Token)))
}

// GoString is String, so %#v shows no secret either.
func (cfg Config) GoString() string { return cfg.String() }

// LogValue makes slog log the configuration without its secrets.
func (cfg Config) LogValue() slog.Value {
	pc := cfg.pool()
	return slog.GroupValue(append(pc.attrs(),
		slog.String("grant_id", cfg.GrantID),
		slog.String("token", tokenRedacted(cfg.Token)))...)
}

// String describes the configuration without its secrets.
func (pc PoolConfig) String() string { return pc.describe("partner.PoolConfig", "") }

// GoString is String, so %#v shows no secret either.
func (pc PoolConfig) GoString() string { return pc.String() }

// LogValue makes slog log the configuration without its secrets.
func (pc PoolConfig) LogValue() slog.Value { return slog.GroupValue(pc.attrs()...) }

func (pc *PoolConfig) describe(typ, extra string) string {
	return fmt.Sprintf("%s{BaseURL: %q, AuthURL: %q, ClientID: %q, ClientSecret: %s%s}",
		typ, pc.BaseURL, pc.AuthURL, pc.ClientID, redacted(pc.ClientSecret), extra)
}

func (pc *PoolConfig) attrs() []slog.Attr {
	return []slog.Attr{
		slog.String("base_url", pc.BaseURL),
		slog.String("auth_url", pc.AuthURL),
		slog.String("client_id", pc.ClientID),
		slog.String("client_secret", redacted(pc.ClientSecret)),
	}
}

func redacted(s string) string {
	if s == "" {
		return `""`
	}
	return "[redacted]"
}

func tokenRedacted(t *oauth2.Token) string {
	if t == nil {
		return "nil"
	}
	return "[redacted]"
}
