package partner

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/oauth2"
	"golang.org/x/time/rate"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/tokens"
	"github.com/locsvc/partner-go/internal/transport"
)

// Version is the SDK's version; it is sent in the User-Agent.
const Version = transport.Version

// Token timing defaults (see Config).
const (
	// AccessTokenEarlyRefresh is how long before it expires the access
	// token is refreshed. A token that lives no longer than this is used
	// until it expires instead.
	AccessTokenEarlyRefresh        = tokens.DefaultEarlyRefresh
	DefaultInstallationTokenMargin = tokens.DefaultInstallationMargin // Config.InstallationTokenMargin's default
	DefaultRefreshTimeout          = tokens.DefaultTimeout            // Config.RefreshTimeout's default
)

// Config configures a Client for one grant: the settings it shares with
// PoolConfig, documented there, and the grant's own, GrantID and Token
// (required unless Store holds the grant's token). BaseURL, AuthURL,
// ClientID and ClientSecret are required. Its String, GoString and
// LogValue never show a secret.
type Config struct {
	BaseURL                  string        // as PoolConfig.BaseURL
	AuthURL                  string        // as PoolConfig.AuthURL
	TokenPath                string        // as PoolConfig.TokenPath
	MCPURL                   string        // as PoolConfig.MCPURL
	ContentMCPURL            string        // as PoolConfig.ContentMCPURL
	ClientID                 string        // as PoolConfig.ClientID
	ClientSecret             string        // as PoolConfig.ClientSecret
	Store                    auth.Store    // as PoolConfig.Store, but optional: nil keeps tokens in memory only
	HTTPClient               *http.Client  // as PoolConfig.HTTPClient
	Logger                   *slog.Logger  // as PoolConfig.Logger
	Hooks                    *hooks.Hooks  // as PoolConfig.Hooks
	UserAgent                string        // as PoolConfig.UserAgent
	AllowInsecureHTTP        bool          // as PoolConfig.AllowInsecureHTTP
	InstallationTokenMargin  time.Duration // as PoolConfig.InstallationTokenMargin
	RefreshTimeout           time.Duration // as PoolConfig.RefreshTimeout
	RetryMax                 int           // as PoolConfig.RetryMax
	RetryAfterMax            time.Duration // as PoolConfig.RetryAfterMax
	MaxResponseBytes         int64         // as PoolConfig.MaxResponseBytes
	Pacing                   Pacing        // as PoolConfig.Pacing
	LocalRefreshOnStoreError bool          // as PoolConfig.LocalRefreshOnStoreError

	// GrantID identifies the user's grant (the connection). Required.
	GrantID string
	// Token is the token from the code exchange; only RefreshToken is
	// required. An access token with an Expiry more than a minute away is
	// used until then. When nil, the token is loaded from Store.
	Token *oauth2.Token
}

// Pacing defaults: at most 950 requests in any minute, under the service's
// 1,000 a minute per installation token.
const (
	DefaultPacingPerMinute = 900
	DefaultPacingBurst     = 50
)

// Pacing spaces the requests a grant's client sends with its installation
// token (REST calls, MCP tool calls and HTTPClient requests, retries
// included) so that the service's rate limit of 1,000 requests a minute
// per installation token is not reached: a request waits for its turn, or
// until its context ends. A request that still meets a 429 waits for its
// Retry-After as before. PerMinute + Burst is the most requests in any
// minute. The zero value takes the defaults.
//
// With a Store that is an auth.RateLimiter (redisstore.Store,
// auth.MemoryStore), every process and Pool sharing it takes a grant's
// turns from one limit per installation token, so replicas together stay
// under the service's limit; they are expected to run the same Pacing
// (the limit follows the settings of whichever asks, so the slowest and
// fastest settings take turns from one bucket). While that Store cannot
// be reached, and with any other Store, each Client paces on its own.
type Pacing struct {
	PerMinute int  // requests a minute the grant may send in the long run (default DefaultPacingPerMinute)
	Burst     int  // requests that may go at once after a quiet spell (default DefaultPacingBurst)
	Off       bool // no pacing: for tests and benchmarks, or an application that paces its calls itself
}

// Client calls the partner API for one grant. Tokens are handled for it:
// the access token is refreshed and the installation token minted when
// needed, once however many goroutines call at the same time. A Client is
// safe for concurrent use.
//
// Two Clients built with NewClient for the same grant share nothing: each
// refreshes on its own, which a service that rotates refresh tokens
// punishes. To serve a grant from many places, take its Client from one
// Pool.
type Client struct {
	Organizations *OrganizationsService // lists the organizations the user granted
	Projects      *ProjectsService      // lists, creates and reads projects and adds target languages
	Installations *InstallationsService // mints an installation token by hand (the client mints its own)
	Keys          *KeysService          // creates, lists, updates and deletes translation keys (translation tools; needs Config.MCPURL)
	Translations  *TranslationsService  // reads, writes and publishes translations, follows syncs, reads glossary context (translation tools)
	Content       *ContentService       // content models, fields and entries (content tools; needs Config.ContentMCPURL)
	Tools         *ToolsService         // lists and calls any tool of the service's MCP servers

	grantID string
	sh      *shared
	access  *tokens.AccessSource
	install *tokens.InstallationSource
	common  service // what the services point at: no allocation per service
	content ContentService

	lastMint atomic.Pointer[InstallationToken] // what the latest mint said, without the token

	mcpMu  sync.Mutex
	mcp    [2]*mcpsession.Session // by the index of shared.mcp, made on first use
	closed bool
}

// NewClient checks cfg and returns a Client. It sends no request: the
// first call refreshes the tokens it needs. A bad field gives an error
// matching ErrInvalidArgument that names it.
func NewClient(cfg Config) (*Client, error) {
	sh, err := cfg.pool().build("Config") // URLs and credentials first, in field order
	if err != nil {
		return nil, err
	}
	if _, err := pathParam("Config.GrantID", cfg.GrantID); err != nil {
		return nil, err
	}
	switch {
	case cfg.Token == nil && cfg.Store == nil:
		return nil, apierr.ArgumentError("Config.Token", "is required (the token from the code exchange) unless Config.Store holds it")
	case cfg.Token != nil && cfg.Token.RefreshToken == "":
		return nil, apierr.ArgumentError("Config.Token.RefreshToken", "is required")
	}
	return sh.client(cfg.GrantID, sh.ref.Source(cfg.GrantID, cfg.Token)), nil
}

// pool returns the settings cfg shares with a PoolConfig: NewClient checks
// and builds from them as NewPool does (PoolConfig.build).
func (cfg *Config) pool() PoolConfig {
	return PoolConfig{
		BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL, TokenPath: cfg.TokenPath, MCPURL: cfg.MCPURL, ContentMCPURL: cfg.ContentMCPURL,
		ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret,
		Store: cfg.Store, HTTPClient: cfg.HTTPClient, Logger: cfg.Logger, Hooks: cfg.Hooks,
		UserAgent: cfg.UserAgent, AllowInsecureHTTP: cfg.AllowInsecureHTTP,
		InstallationTokenMargin: cfg.InstallationTokenMargin, RefreshTimeout: cfg.RefreshTimeout,
		RetryMax: cfg.RetryMax, RetryAfterMax: cfg.RetryAfterMax, MaxResponseBytes: cfg.MaxResponseBytes,
		Pacing: cfg.Pacing, LocalRefreshOnStoreError: cfg.LocalRefreshOnStoreError,
	}
}

// shared is what every client of a partner application can share: one
// request runner (one connection pool) and one refresher.
type shared struct {
	runner      *transport.Runner
	ref         *tokens.Refresher
	install     tokens.InstallationConfig // every grant's, but for Mint, Access and Pace
	paced       bool                      // each grant gets a Pace of install's rate
	logger      *slog.Logger
	hooks       *hooks.Hooks
	baseSetting string // "Config.BaseURL" or "PoolConfig.BaseURL", for advice
	basePath    string // the base URL's path, without a trailing slash

	mcp [2]struct{ url, setting, host, path string } // TranslationTools' and ContentTools' ("" url: not configured)
}

// build checks the settings and makes the shared parts. name is the
// config type's name, for error messages.
func (pc PoolConfig) build(name string) (*shared, error) {
	base, err := checkURL(name+".BaseURL", pc.BaseURL, pc.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	authURL, err := checkURL(name+".AuthURL", pc.AuthURL, pc.AllowInsecureHTTP)
	if err != nil {
		return nil, err
	}
	tokenPath := cmp.Or(pc.TokenPath, tokens.TokenPath)
	if err := checkPath(name+".TokenPath", tokenPath); err != nil {
		return nil, err
	}
	sh := &shared{logger: pc.Logger, hooks: pc.Hooks, paced: !pc.Pacing.Off, baseSetting: name + ".BaseURL", basePath: strings.TrimSuffix(base.Path, "/"),
		install: tokens.InstallationConfig{Margin: pc.InstallationTokenMargin, Timeout: pc.RefreshTimeout,
			PerMinute: cmp.Or(pc.Pacing.PerMinute, DefaultPacingPerMinute), Burst: cmp.Or(pc.Pacing.Burst, DefaultPacingBurst)}}
	var origins []string
	for i, f := range [2]struct{ field, raw string }{{".MCPURL", pc.MCPURL}, {".ContentMCPURL", pc.ContentMCPURL}} {
		sh.mcp[i].setting = name + f.field
		if f.raw != "" {
			u, err := checkURL(sh.mcp[i].setting, f.raw, pc.AllowInsecureHTTP)
			if err != nil {
				return nil, err
			}
			sh.mcp[i].url, origins = u.String(), append(origins, transport.Origin(u))
			sh.mcp[i].host, sh.mcp[i].path = u.Host, u.EscapedPath()
		}
	}
	switch {
	case pc.Pacing.PerMinute < 0:
		return nil, apierr.ArgumentError(name+".Pacing.PerMinute", "is negative")
	case pc.Pacing.Burst < 0:
		return nil, apierr.ArgumentError(name+".Pacing.Burst", "is negative")
	case pc.ClientID == "":
		return nil, apierr.ArgumentError(name+".ClientID", "is required")
	case pc.ClientSecret == "":
		return nil, apierr.ArgumentError(name+".ClientSecret", "is required")
	}
	sh.runner = transport.New(transport.Options{
		BaseURL:          base,
		Origins:          origins,
		Name:             name,
		HTTPClient:       pc.HTTPClient,
		Logger:           pc.Logger,
		Hooks:            pc.Hooks,
		UserAgent:        pc.UserAgent,
		RetryMax:         pc.RetryMax,
		RetryAfterMax:    pc.RetryAfterMax,
		MaxResponseBytes: pc.MaxResponseBytes,
		Secrets:          redact.New(pc.ClientSecret),
	})
	sh.ref = tokens.NewRefresher(tokens.Config{
		AuthURL:      strings.TrimSuffix(authURL.String(), "/"),
		TokenPath:    tokenPath,
		AuthSetting:  name + ".AuthURL",
		ClientID:     pc.ClientID,
		ClientSecret: pc.ClientSecret,
		Store:        pc.Store,
		Context:      sh.runner.OAuth2Context,
		Timeout:      pc.RefreshTimeout,
		Logger:       pc.Logger,
		Hooks:        pc.Hooks,

		LocalRefreshOnStoreError: pc.LocalRefreshOnStoreError,
	})
	return sh, nil
}

// checkPath checks a path setting under AuthURL: absolute, without a
// query, a fragment or a "..".
func checkPath(field, p string) error {
	if !strings.HasPrefix(p, "/") || strings.ContainsAny(p, "?#") || strings.Contains(p, "..") ||
		strings.IndexFunc(p, func(r rune) bool { return r <= ' ' || r == 0x7f }) >= 0 {
		return apierr.ArgumentError(field, "must be a path starting with '/', without a query, a fragment, '..' or spaces")
	}
	return nil
}

// client wires one grant's client on its access-token source.
func (sh *shared) client(grantID string, access *tokens.AccessSource) *Client {
	c := &Client{grantID: grantID, sh: sh, access: access}
	c.common.c = c
	ic := sh.install
	ic.Mint, ic.Access = c.mint, access
	if sh.paced {
		ic.Pace = rate.NewLimiter(rate.Limit(float64(ic.PerMinute)/60), ic.Burst)
	}
	c.install = tokens.NewInstallationSource(ic)
	c.Organizations = (*OrganizationsService)(&c.common)
	c.Projects = (*ProjectsService)(&c.common)
	c.Installations = (*InstallationsService)(&c.common)
	c.Keys = (*KeysService)(&c.common)
	c.Translations = (*TranslationsService)(&c.common)
	c.Tools = (*ToolsService)(&c.common)
	c.content = ContentService{Models: (*ContentModelsService)(&c.common), Entries: (*ContentEntriesService)(&c.common)}
	c.Content = &c.content
	return c
}

// do sends one request of the grant: the one request path.
func (c *Client) do(ctx context.Context, q transport.Request) ([]byte, error) {
	resp, err := c.sh.runner.Send(ctx, q)
	return resp.Body, public(err)
}

// observeTool calls tool on s between the hooks' CallStart and CallEnd.
func (c *Client) observeTool(ctx context.Context, h *hooks.Hooks, s *mcpsession.Session, server MCPServer, tool string, args any) ([]byte, error) {
	at := c.sh.mcp[slices.Index([]MCPServer{TranslationTools, ContentTools}, server)]
	call := hooks.Call{Kind: hooks.Tool, Service: string(server), Method: tool, HTTPMethod: http.MethodPost, Path: at.path, Server: at.host}
	if m, ok := args.(map[string]any); ok {
		call.Project, _ = m["project"].(string)
	}
	start := time.Now()
	if h.CallStart != nil {
		if d := h.CallStart(ctx, call); d != nil {
			ctx = d
		}
	}
	data, err := s.Call(ctx, tool, args)
	err = public(err)
	if h.CallEnd != nil {
		call.Outcome, call.Duration, call.Err = transport.Outcome(err), time.Since(start), err
		h.CallEnd(ctx, call)
	}
	return data, err
}

// fullPath is path as requested, with the base URL's own path.
func (c *Client) fullPath(path string) string { return c.sh.basePath + path }

// GrantID returns the grant the client acts for.
func (c *Client) GrantID() string { return c.grantID }

// SetToken gives the client a new token after the user connected the
// application again, ending an ErrReauthorizationRequired state; the
// grant's installation token is minted anew with it (a reconnect may have
// changed the scopes). It does not write the token to the Store: the
// application does that with the token from its code exchange. A client
// with a Store does not need it: it reads the Store again by itself while
// its grant is gone. Given the refresh token a refresh in flight just sent,
// or one that an earlier refresh replaced (read from the Store before a
// rotation), it keeps the newer token it has: no refresh token is sent
// twice.
func (c *Client) SetToken(tok *oauth2.Token) { c.access.SetToken(tok) }

// Identity is the connected user and their account (GET
// /api/oauth-client/me). The record's shape is not fixed: the obvious
// fields are decoded from the top level or from "user" and "account"
// objects, and the whole record is kept in Raw.
type Identity struct {
	UserID      string
	Email       string
	Name        string
	AccountID   string
	AccountName string
	Raw         json.RawMessage // the record as the service sent it
}

// String describes the identity; Raw is left out.
func (id Identity) String() string {
	return fmt.Sprintf("partner.Identity{UserID: %q, Email: %q, Name: %q, AccountID: %q, AccountName: %q}",
		id.UserID, id.Email, id.Name, id.AccountID, id.AccountName)
}

type person struct {
	ID     flexString `json:"id"`
	UserID flexString `json:"userId"`
	Email  string     `json:"email"`
	Name   string     `json:"name"`
}

type identityWire struct {
	person
	AccountID flexString `json:"accountId"`
	User      *person    `json:"user"`
	Account   *struct {
		ID   flexString `json:"id"`
		Name string     `json:"name"`
	} `json:"account"`
}

const mePath = "/api/oauth-client/me"

// Me returns the connected user's identity (GET /api/oauth-client/me). It
// uses the access token, so it works right after the code exchange,
// before any installation token exists.
func (c *Client) Me(ctx context.Context) (*Identity, error) {
	data, err := c.do(ctx, transport.Request{Method: http.MethodGet, Path: mePath, Auth: c.access, Setting: c.sh.baseSetting, Op: "Client.Me"})
	if err != nil {
		return nil, err
	}
	var w identityWire
	if err := decode(http.MethodGet, c.fullPath(mePath), data, &w); err != nil {
		return nil, err
	}
	p := w.person
	if w.User != nil {
		p = *w.User
	}
	id := &Identity{UserID: string(cmp.Or(p.ID, p.UserID)), Email: p.Email, Name: p.Name, AccountID: string(w.AccountID), Raw: data}
	if w.Account != nil {
		id.AccountName, id.AccountID = w.Account.Name, cmp.Or(id.AccountID, string(w.Account.ID))
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
	case u.Scheme == "http" && !insecure && !strings.EqualFold(u.Hostname(), "localhost") && !net.ParseIP(u.Hostname()).IsLoopback():
		return nil, apierr.ArgumentError(field, "must use https:// (plain http is allowed for loopback hosts, or with Config.AllowInsecureHTTP)")
	}
	return u, nil
}

// String describes the client by its grant, without any token.
func (c *Client) String() string { return "partner.Client{GrantID: " + strconv.Quote(c.grantID) + "}" }

// Format prints String for every verb, so %+v and %#v show no token either.
func (c *Client) Format(f fmt.State, _ rune) { fmt.Fprint(f, c.String()) }

// LogValue makes slog log the client by its grant, without any token.
func (c *Client) LogValue() slog.Value { return slog.StringValue(c.String()) }

// String describes the configuration without its secrets.
func (cfg Config) String() string {
	return cfg.pool().describe("partner.Config", fmt.Sprintf(", GrantID: %q, Token: %s", cfg.GrantID, tokenRedacted(cfg.Token)))
}

// GoString is String, so %#v shows no secret either.
func (cfg Config) GoString() string { return cfg.String() }

// LogValue makes slog log the configuration without its secrets.
func (cfg Config) LogValue() slog.Value {
	return slog.GroupValue(append(cfg.pool().attrs(),
		slog.String("grant_id", cfg.GrantID),
		slog.String("token", tokenRedacted(cfg.Token)))...)
}

// String describes the configuration without its secrets.
func (pc PoolConfig) String() string { return pc.describe("partner.PoolConfig", "") }

// GoString is String, so %#v shows no secret either.
func (pc PoolConfig) GoString() string { return pc.String() }

// LogValue makes slog log the configuration without its secrets.
func (pc PoolConfig) LogValue() slog.Value { return slog.GroupValue(pc.attrs()...) }

func (pc PoolConfig) describe(typ, extra string) string {
	return fmt.Sprintf("%s{BaseURL: %q, AuthURL: %q, MCPURL: %q, ContentMCPURL: %q, ClientID: %q, ClientSecret: %s%s}",
		typ, pc.BaseURL, pc.AuthURL, pc.MCPURL, pc.ContentMCPURL, pc.ClientID, redacted(pc.ClientSecret), extra)
}

func (pc PoolConfig) attrs() []slog.Attr {
	return []slog.Attr{
		slog.String("base_url", pc.BaseURL),
		slog.String("auth_url", pc.AuthURL),
		slog.String("mcp_url", pc.MCPURL),
		slog.String("content_mcp_url", pc.ContentMCPURL),
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
