package tokens

import (
	"context"
	"errors"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
)

// AuthorizePath is the consent page's path under {auth_url}.
const AuthorizePath = "/api/auth/mcp/authorize"

// ExchangeAdvice lists why the service refuses a code: it does not say
// which.
const ExchangeAdvice = "the code expired (it lives 10 minutes) or was used already, or redirect_uri or the PKCE verifier does not match the authorize request's; send the user through the consent again"

// Consent returns the x/oauth2 configuration of the consent flow: the
// authorize URL, the token endpoint with the client secret in the form
// body (as for refresh), redirectURL and scopes.
func (r *Refresher) Consent(redirectURL string, scopes []string) oauth2.Config {
	c := r.oauth
	c.Endpoint.AuthURL = r.cfg.AuthURL + AuthorizePath
	c.RedirectURL = redirectURL
	c.Scopes = scopes
	return c
}

// Exchange trades an authorization code for tokens at the token endpoint,
// through the SDK's HTTP client, within the refresh timeout. A refused code
// is ErrInvalidGrant with ExchangeAdvice; no error holds the code, a token
// or the secret.
func (r *Refresher) Exchange(ctx context.Context, cfg *oauth2.Config, code string, opts ...oauth2.AuthCodeOption) (*oauth2.Token, error) {
	if r.cfg.Context != nil {
		ctx = r.cfg.Context(ctx, r.cfg.AuthSetting)
	}
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	tok, err := cfg.Exchange(ctx, code, opts...)
	if err == nil {
		return tok, nil
	}
	_, _, err = r.classify(err, redact.New(code, r.cfg.ClientSecret))
	var ae *apierr.APIError
	if errors.As(err, &ae) && ae.Code == apierr.CodeInvalidGrant {
		return nil, apierr.Classify(apierr.ErrInvalidGrant, ae, ExchangeAdvice)
	}
	return nil, err
}
