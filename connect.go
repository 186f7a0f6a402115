package partner

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/tokens"
	"github.com/locsvc/partner-go/internal/transport"
)

// The scopes the service documents, for PoolConfig.Scopes. The user may
// turn any of them off on the consent screen; projects:write,
// translations:publish, content:publish and glossary:write are off unless
// asked for. MissingScopeError.Required names one of them.
const (
	ScopeOrgRead             = "org:read"
	ScopeProjectsRead        = "projects:read"
	ScopeProjectsWrite       = "projects:write"
	ScopeKeysRead            = "keys:read"
	ScopeKeysWrite           = "keys:write"
	ScopeTranslationsRead    = "translations:read"
	ScopeTranslationsWrite   = "translations:write"
	ScopeTranslationsPublish = "translations:publish"
	ScopeContentRead         = "content:read"
	ScopeContentWrite        = "content:write"
	ScopeContentPublish      = "content:publish"
	ScopeGlossaryRead        = "glossary:read"
	ScopeGlossaryWrite       = "glossary:write"
)

// ScopeOfflineAccess is the OAuth scope that makes the token endpoint
// issue a refresh token, without which the SDK cannot keep a grant.
// AuthCodeURL always asks for it, whatever PoolConfig.Scopes says; it is
// not a permission, so Grant.Scopes leaves it out.
const ScopeOfflineAccess = tokens.ScopeOfflineAccess

// Grant is one grant a consent created or updated: the user's connection
// of the application to one organization. A consent in which the user
// picked several organizations gives one Grant each. However it is printed or
// logged, it never shows the token.
type Grant struct {
	GrantID string // identifies the grant: Pool.Client's argument
	// OrganizationID is the grant's organization, when the service said
	// it in the exchange ("" otherwise; every installation token's mint
	// says it, see InstallationToken).
	OrganizationID string
	Scopes         []string      // the permissions granted, when the service said them (without ScopeOfflineAccess)
	Token          *oauth2.Token // the grant's token, already saved to the Store
}

// String describes the grant without its token.
func (g Grant) String() string {
	return fmt.Sprintf("partner.Grant{GrantID: %q, OrganizationID: %q, Scopes: %q, Token: %s}",
		g.GrantID, g.OrganizationID, g.Scopes, tokenRedacted(g.Token))
}

// Format prints String for every verb, so %+v and %#v show no token either.
func (g Grant) Format(f fmt.State, _ rune) { fmt.Fprint(f, g.String()) }

// LogValue makes slog log the grant without its token.
func (g Grant) LogValue() slog.Value {
	return slog.GroupValue(slog.String("grant_id", g.GrantID), slog.String("organization_id", g.OrganizationID),
		slog.Any("scopes", g.Scopes), slog.String("token", tokenRedacted(g.Token)))
}

// AuthCodeURL returns the address of the service's consent page
// (PoolConfig.AuthURL + PoolConfig.AuthorizePath), to send the user's browser to:
// PoolConfig's ClientID, RedirectURL and Scopes with ScopeOfflineAccess
// added, state (an unguessable value the callback checks, against CSRF),
// and opts. Send PKCE always (the service advertises S256):
//
//	verifier := oauth2.GenerateVerifier() // keep it with state, e.g. in the session
//	http.Redirect(w, r, pool.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), http.StatusFound)
//
// then read the callback with ReadCallback and pass
// oauth2.VerifierOption(verifier) to Exchange.
func (p *Pool) AuthCodeURL(state string, opts ...oauth2.AuthCodeOption) string {
	return p.consent.AuthCodeURL(state, opts...)
}

// Sentinels of ReadCallback, to branch on with errors.Is.
var (
	// ErrConsentDenied: the user did not allow the connection on the
	// consent page (the callback's error=access_denied). There is no code
	// to exchange; offer to connect again.
	ErrConsentDenied = errors.New("the user did not allow the connection (access_denied)")
	// ErrInvalidCallback: the callback is not the answer to this
	// browser's consent request: its state is not the one sent (a forged
	// or stale link, or another tab's consent), a parameter is repeated,
	// or it has neither a code nor an error. Exchange nothing; start the
	// connection again.
	ErrInvalidCallback = errors.New("the callback is not the answer to this browser's consent request")
)

// CallbackError is the error the service sent back to the callback instead
// of a code (error=...&error_description=..., RFC 6749 section 4.1.2.1).
// errors.Is matches it with ErrConsentDenied for access_denied (the user
// refused), ErrConfiguration for invalid_scope (PoolConfig.Scopes names a
// scope the service refuses), invalid_request, unauthorized_client,
// unsupported_response_type and invalid_client, and ErrTemporary for
// server_error and temporarily_unavailable.
type CallbackError struct {
	Code        string // the error parameter, such as access_denied or invalid_scope
	Description string // the error_description, if any, on one bounded line
}

// Error returns "partner: consent: <code>: <description>", then what to do.
func (e *CallbackError) Error() string {
	s := "partner: consent: " + e.Code
	if e.Description != "" {
		s += ": " + e.Description
	}
	switch {
	case e.Code == "access_denied":
		return s + ": the user did not allow the connection"
	case e.Code == "invalid_scope":
		return s + ": check PoolConfig.Scopes"
	case e.Is(ErrConfiguration):
		return s + ": check PoolConfig.ClientID, RedirectURL and AuthorizePath"
	case e.Is(ErrTemporary):
		return s + ": try again later"
	}
	return s
}

// Is reports the class of the error; see CallbackError.
func (e *CallbackError) Is(target error) bool {
	switch e.Code {
	case "access_denied":
		return target == ErrConsentDenied
	case "invalid_scope", "invalid_request", "unauthorized_client", "unsupported_response_type", "invalid_client":
		return target == ErrConfiguration
	case "server_error", "temporarily_unavailable":
		return target == ErrTemporary
	}
	return false
}

// ReadCallback reads the query of the request the service's consent page
// sent the browser back with (r.URL.Query() in the callback handler), and
// returns the code to pass to Exchange. state is the one this browser was
// sent to AuthCodeURL with; it is compared in constant time, before
// anything else. The error is ErrInvalidCallback for a state that does not
// match (or a repeated parameter, or neither code nor error), or a
// *CallbackError when the service sent an error instead of a code, such as
// a consent the user refused (ErrConsentDenied). No error holds the code
// or the state.
func ReadCallback(query url.Values, state string) (code string, err error) {
	if state == "" {
		return "", apierr.ArgumentError("state", "is empty: pass the state this browser was sent to the consent page with")
	}
	for _, k := range []string{"state", "code", "error", "error_description"} {
		if len(query[k]) > 1 {
			return "", fmt.Errorf("partner: consent: %w: %s is repeated", ErrInvalidCallback, k)
		}
	}
	if subtle.ConstantTimeCompare([]byte(query.Get("state")), []byte(state)) != 1 {
		return "", fmt.Errorf("partner: consent: %w: the state does not match", ErrInvalidCallback)
	}
	code = query.Get("code")
	if e := query.Get("error"); e != "" {
		scrub := redact.New(code, state)
		return "", &CallbackError{Code: apierr.Clean(e, scrub), Description: apierr.CleanMessage(query.Get("error_description"), scrub)}
	}
	if code == "" {
		return "", fmt.Errorf("partner: consent: %w: it has neither a code nor an error", ErrInvalidCallback)
	}
	return code, nil
}

// Exchange trades the code the callback received (see ReadCallback) for
// the grants of the user's consent (the client secret goes in the form
// body, as for refresh), saves each grant's token to the Store, and
// returns them once all are saved. A grant with a client in use (the user
// consented again), held by the pool or by a caller, takes the new token
// at once.
//
// The service spends a code at its first exchange, whatever comes of it,
// so every error of Exchange but ErrInvalidArgument (found before any
// request) means the user must go through the consent again:
//
//   - A refused code is ErrInvalidGrant (and ErrReauthorizationRequired):
//     the service does not say whether it expired (after 10 minutes), was
//     used already, or whether redirect_uri or the PKCE verifier did not
//     match the authorize request's, so the error lists these.
//   - A redirect_uri the service says is not the authorize request's is
//     ErrConfiguration naming PoolConfig.RedirectURL; a refused client,
//     ErrConfiguration naming AuthURL, ClientID and ClientSecret; a 404,
//     ErrConfiguration naming AuthURL and TokenPath. Fix it first.
//   - An answer the SDK cannot use is ErrUnexpectedResponse naming every
//     field missing (grant_id, refresh_token), a grant_id that cannot name
//     a grant in a request path (one with '/', '\', '..' or a control
//     character: Client and Disconnect accept every grant Exchange
//     returns), or an answer over 1 MiB (x/oauth2 reads no more of it).
//     Nothing is saved; the tokens are discarded.
//
// If a Save fails, Exchange returns every grant with an error naming the
// ones not saved: save those yourself, as the code cannot be exchanged
// again.
//
// The answer holds grant_id beside the tokens (one organization), or a
// "grants" array of objects each with its grant_id, refresh_token,
// access_token, expires_in, and optionally organization_id and scope.
// Each grant needs a refresh token of its own, as the SDK refreshes each
// on its own: one shared by several is ErrUnexpectedResponse.
func (p *Pool) Exchange(ctx context.Context, code string, opts ...oauth2.AuthCodeOption) ([]Grant, error) {
	switch {
	case code == "":
		return nil, apierr.ArgumentError("code", "is empty (read the callback with ReadCallback)")
	case p.consent.RedirectURL == "":
		return nil, apierr.ArgumentError("PoolConfig.RedirectURL", "is required to exchange a code (the redirect_uri of the authorize request)")
	}
	tok, err := p.sh.ref.Exchange(ctx, &p.consent, "PoolConfig.RedirectURL", code, opts...)
	if err != nil {
		return nil, public(err)
	}
	grants, err := grantsOf(tok)
	if err != nil {
		return nil, fmt.Errorf("partner: POST %s: %w; %s", p.sh.ref.TokenPath(), err, tokens.DiscardedAdvice)
	}
	var unsaved []string
	var errs []error
	for _, g := range grants {
		if err := p.store.Save(ctx, g.GrantID, g.Token); err != nil {
			unsaved = append(unsaved, g.GrantID)
			errs = append(errs, err)
			continue
		}
		p.adopt(g)
	}
	if len(unsaved) > 0 {
		return grants, fmt.Errorf("partner: the tokens of grants %s were not saved to the Store (save them yourself): %w",
			strings.Join(unsaved, ", "), errors.Join(errs...))
	}
	return grants, nil
}

// adopt gives every client of g's grant its new token: the pool's, and
// one evicted that a caller still holds (they share the access source).
func (p *Pool) adopt(g Grant) {
	p.mu.Lock()
	p.unfail(g.GrantID)
	p.mu.Unlock()
	if s := p.sh.ref.Live(g.GrantID); s != nil {
		s.SetToken(g.Token) // drops the shared installation token too
	} else {
		// Replicas sharing the Store mint the grant's next installation
		// token anew.
		p.sh.ref.DropInstallation(context.Background(), g.GrantID)
	}
}

// grantWire is one grant in the exchange's answer.
type grantWire struct {
	GrantID        flexString  `json:"grant_id"`
	OrganizationID flexString  `json:"organization_id"`
	Scope          string      `json:"scope"`
	AccessToken    string      `json:"access_token"`
	TokenType      string      `json:"token_type"`
	RefreshToken   string      `json:"refresh_token"`
	ExpiresIn      json.Number `json:"expires_in"`
}

// grantsOf reads the grants of an exchange's answer. Its errors are
// ErrUnexpectedResponse, without the "partner: " prefix.
func grantsOf(tok *oauth2.Token) ([]Grant, error) {
	bad := func(why string) error { return fmt.Errorf("%w: %s", ErrUnexpectedResponse, why) }
	top := Grant{GrantID: extraString(tok, "grant_id"), OrganizationID: extraString(tok, "organization_id"),
		Scopes: permissions(extraString(tok, "scope")), Token: &oauth2.Token{AccessToken: tok.AccessToken,
			TokenType: tok.TokenType, RefreshToken: tok.RefreshToken, Expiry: tok.Expiry}}
	var list []grantWire
	if raw := tok.Extra("grants"); raw != nil {
		b, err := json.Marshal(raw) // x/oauth2 decoded it into maps
		if err == nil {
			err = json.Unmarshal(b, &list)
		}
		if err != nil {
			return nil, bad(`"grants" is not a list of grants`)
		}
	}
	single := len(list) == 0 // grant_id beside the tokens
	if single {
		list = []grantWire{{GrantID: flexString(top.GrantID)}}
	}
	var missing []string
	for i, w := range list {
		at := fmt.Sprintf("grants[%d].", i)
		if single {
			at = ""
		}
		if w.GrantID == "" {
			missing = append(missing, at+"grant_id")
		}
		if w.RefreshToken == "" && top.Token.RefreshToken == "" {
			missing = append(missing, at+"refresh_token")
		}
	}
	if len(missing) > 0 {
		why := "the answer has no " + strings.Join(missing, ", no ")
		if slices.ContainsFunc(missing, func(f string) bool { return strings.HasSuffix(f, "refresh_token") }) {
			why += " (the SDK needs a refresh token to keep a grant, and asked for " + ScopeOfflineAccess + ")"
		}
		return nil, bad(why)
	}
	out := make([]Grant, 0, len(list))
	for _, w := range list {
		g := Grant{GrantID: string(w.GrantID), OrganizationID: string(w.OrganizationID), Scopes: permissions(w.Scope)}
		// Client and Disconnect put the id in a request path: what they
		// would refuse is refused here, before anything is saved.
		if _, err := pathParam("grant_id", g.GrantID); err != nil {
			return nil, bad(fmt.Sprintf("grant_id %s cannot name a grant in a request path (it has '/', '\\', '..' or a control character)",
				apierr.Quote(g.GrantID)))
		}
		g.Token = top.Token // refused below if several grants would share it
		if w.RefreshToken != "" {
			g.Token = &oauth2.Token{AccessToken: w.AccessToken, TokenType: w.TokenType, RefreshToken: w.RefreshToken}
			if s, err := strconv.ParseInt(string(w.ExpiresIn), 10, 64); err == nil && s > 0 {
				g.Token.Expiry = time.Now().Add(time.Duration(min(s, 86400)) * time.Second)
			}
		}
		if g.OrganizationID == "" && g.GrantID == top.GrantID {
			g.OrganizationID = top.OrganizationID
		}
		if g.Scopes == nil {
			g.Scopes = top.Scopes
		}
		out = append(out, g)
	}
	byRT := make(map[string]string, len(out)) // refresh token -> grant id
	for _, g := range out {
		rt := g.Token.RefreshToken
		switch other, seen := byRT[rt]; {
		case seen && other == g.GrantID:
			return nil, bad(fmt.Sprintf("grant %s is listed twice", apierr.Quote(g.GrantID)))
		case seen:
			return nil, bad("one refresh token came back for several grants; the SDK needs one per grant (it refreshes each on its own)")
		}
		byRT[rt] = g.GrantID
	}
	return out, nil
}

// permissions returns the permissions of a scope parameter: its names but
// ScopeOfflineAccess, or nil if there are none.
func permissions(scope string) []string {
	s := slices.DeleteFunc(strings.Fields(scope), func(n string) bool { return n == ScopeOfflineAccess })
	if len(s) == 0 {
		return nil
	}
	return s
}

// extraString returns a string (or number) field of the token answer, or
// "".
func extraString(tok *oauth2.Token, key string) string {
	switch v := tok.Extra(key).(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return ""
}

// disconnectedAdvice ends the error of calls of a disconnected grant.
const disconnectedAdvice = "the application disconnected the grant; the user must connect the application again"

// Disconnect revokes grantID at the service (DELETE
// /api/oauth-client/installations/<grant>, with its access token), drops
// it from the pool, and deletes its token from the Store when the Store
// implements auth.Deleter. A grant the service already considers gone
// (revoked, unknown, or its refresh token refused) counts as
// disconnected: Disconnect returns nil. Afterwards every call of a client
// of the grant (one held from before included) fails with
// ErrReauthorizationRequired without a request, until the Store holds a
// new token for it.
func (p *Pool) Disconnect(ctx context.Context, grantID string) error {
	c, err := p.Client(ctx, grantID) // checks grantID first
	if err == nil {
		path := "/api/oauth-client/installations/" + url.PathEscape(grantID)
		_, err = c.do(ctx, transport.Request{Method: http.MethodDelete, Path: path, Auth: c.access, Op: "Pool.Disconnect"})
	}
	if err != nil && !errors.Is(err, ErrReauthorizationRequired) && !errors.Is(err, auth.ErrNoToken) {
		return err
	}
	if c != nil {
		c.access.End(apierr.Classify(ErrReauthorizationRequired, fmt.Errorf("partner: grant %s", grantID), disconnectedAdvice))
	}
	p.Forget(grantID)
	if d, ok := p.store.(auth.Deleter); ok {
		if err := d.Delete(ctx, grantID); err != nil {
			return fmt.Errorf("partner: grant %s was revoked, but deleting its token from the Store failed: %w", grantID, err)
		}
	}
	return nil
}
