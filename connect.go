package partner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/tokens"
	"github.com/locsvc/partner-go/internal/transport"
)

// The scopes the service documents (service-notes section 2), for
// PoolConfig.Scopes. The user may turn any of them off on the consent
// screen; projects:write, translations:publish, content:publish and
// glossary:write are off unless asked for. MissingScopeError.Required
// names one of them.
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

// Grant is one grant a consent created or updated: the user's connection
// of the application to one organization. A consent in which the user
// picked several organizations gives one Grant each. However it is printed or
// logged, it never shows the token.
type Grant struct {
	// GrantID identifies the grant: Pool.Client's argument.
	GrantID string
	// OrganizationID is the grant's organization, when the service said
	// it in the exchange ("" otherwise; every installation token's mint
	// says it, see InstallationToken).
	OrganizationID string
	// Scopes are the scopes granted, when the service said them.
	Scopes []string
	// Token is the grant's token, already saved to the Store.
	Token *oauth2.Token
}

// String describes the grant without its token.
func (g Grant) String() string {
	return fmt.Sprintf("partner.Grant{GrantID: %q, OrganizationID: %q, Scopes: %q, Token: %s}",
		g.GrantID, g.OrganizationID, g.Scopes, tokenRedacted(g.Token))
}

// Format makes every verb print String, so %+v and %#v show no token
// either.
func (g Grant) Format(f fmt.State, _ rune) { fmt.Fprint(f, g.String()) }

// LogValue makes slog log the grant without its token.
func (g Grant) LogValue() slog.Value {
	return slog.GroupValue(slog.String("grant_id", g.GrantID), slog.String("organization_id", g.OrganizationID),
		slog.Any("scopes", g.Scopes), slog.String("token", tokenRedacted(g.Token)))
}

// AuthCodeURL returns the address of the service's consent page, to send
// the user's browser to: PoolConfig's ClientID, RedirectURL and Scopes,
// state (an unguessable value the callback checks, against CSRF), and
// opts. Send PKCE always (the service advertises S256):
//
//	verifier := oauth2.GenerateVerifier() // keep it with state, e.g. in the session
//	http.Redirect(w, r, pool.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), http.StatusFound)
//
// and pass oauth2.VerifierOption(verifier) to Exchange.
func (p *Pool) AuthCodeURL(state string, opts ...oauth2.AuthCodeOption) string {
	return p.consent.AuthCodeURL(state, opts...)
}

// Exchange trades the code the callback received for the grants of the
// user's consent (the client secret goes in the form body, as for
// refresh), saves each grant's token to the Store, and returns them once
// all are saved. A grant with a client in use (the user consented again),
// held by the pool or by a caller, takes the new token at once.
//
// A refused code is ErrInvalidGrant: the service does not say whether it
// expired (after 10 minutes), was used already, or whether redirect_uri or
// the PKCE verifier did not match the authorize request's, so the error
// lists these; send the user through the consent again. If a Save fails,
// Exchange returns every grant with an error naming the ones not saved:
// save those yourself, as the code cannot be exchanged again.
//
// The answer is read in the shapes the service's documentation allows:
// grant_id beside the tokens (one organization), or a "grants" array of
// objects each with its own grant_id, refresh_token, access_token,
// expires_in, and optionally organization_id and scope (several
// organizations). One refresh token for several grants is refused with
// ErrUnexpectedResponse: each grant needs its own, as the SDK refreshes
// each on its own.
func (p *Pool) Exchange(ctx context.Context, code string, opts ...oauth2.AuthCodeOption) ([]Grant, error) {
	switch {
	case code == "":
		return nil, apierr.ArgumentError("code", "is empty")
	case p.consent.RedirectURL == "":
		return nil, apierr.ArgumentError("PoolConfig.RedirectURL", "is required to exchange a code (the redirect_uri of the authorize request)")
	}
	tok, err := p.sh.ref.Exchange(ctx, &p.consent, code, opts...)
	if err != nil {
		return nil, public(err)
	}
	grants, err := grantsOf(tok)
	if err != nil {
		return nil, err
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
	if el, ok := p.fByID[g.GrantID]; ok {
		p.failed.Remove(el)
		delete(p.fByID, g.GrantID)
	}
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
	GrantID        transport.FlexString `json:"grant_id"`
	OrganizationID transport.FlexString `json:"organization_id"`
	Scope          string               `json:"scope"`
	AccessToken    string               `json:"access_token"`
	TokenType      string               `json:"token_type"`
	RefreshToken   string               `json:"refresh_token"`
	ExpiresIn      json.Number          `json:"expires_in"`
}

// grantsOf reads the grants of an exchange's answer.
func grantsOf(tok *oauth2.Token) ([]Grant, error) {
	bad := func(why string) error {
		return fmt.Errorf("partner: POST %s: %w: %s", tokens.TokenPath, ErrUnexpectedResponse, why)
	}
	top := Grant{Token: &oauth2.Token{AccessToken: tok.AccessToken, TokenType: tok.TokenType,
		RefreshToken: tok.RefreshToken, Expiry: tok.Expiry}}
	top.GrantID, _ = extraString(tok, "grant_id")
	top.OrganizationID, _ = extraString(tok, "organization_id")
	if s, ok := extraString(tok, "scope"); ok {
		top.Scopes = strings.Fields(s)
	}
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
	if len(list) == 0 {
		switch {
		case top.GrantID == "":
			return nil, bad("the answer has no grant_id")
		case top.Token.RefreshToken == "":
			return nil, bad("the answer has no refresh_token: the SDK needs one to keep the grant")
		}
		return []Grant{top}, nil
	}
	out := make([]Grant, 0, len(list))
	for i, w := range list {
		g := Grant{GrantID: string(w.GrantID), OrganizationID: string(w.OrganizationID), Scopes: strings.Fields(w.Scope)}
		if g.GrantID == "" {
			return nil, bad(fmt.Sprintf("grants[%d] has no grant_id", i))
		}
		switch {
		case w.RefreshToken == "":
			g.Token = top.Token // refused below if several grants would share it
		default:
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
		case rt == "":
			return nil, bad(fmt.Sprintf("grant %s has no refresh_token: the SDK needs one to keep the grant", apierr.Quote(g.GrantID)))
		case seen && other == g.GrantID:
			return nil, bad(fmt.Sprintf("grant %s is listed twice", apierr.Quote(g.GrantID)))
		case seen:
			return nil, bad("one refresh token came back for several grants; the SDK needs one per grant (it refreshes each on its own)")
		}
		byRT[rt] = g.GrantID
	}
	return out, nil
}

// extraString returns a string field of the token answer.
func extraString(tok *oauth2.Token, key string) (string, bool) {
	switch v := tok.Extra(key).(type) {
	case string:
		return v, v != ""
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	}
	return "", false
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
	if _, err := transport.PathParam("grantID", grantID); err != nil {
		return err
	}
	c, err := p.Client(ctx, grantID)
	if err == nil {
		path := "/api/oauth-client/installations/" + url.PathEscape(grantID)
		_, err = c.do(ctx, transport.Request{Method: http.MethodDelete, Path: path, Auth: c.access})
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
