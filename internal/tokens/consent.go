package tokens

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/transport"
)

// AuthorizePath is the consent page's default path under {auth_url}.
const AuthorizePath = "/api/auth/mcp/authorize"

// ScopeOfflineAccess is the scope that makes the token endpoint issue a
// refresh token; the consent flow always asks for it.
const ScopeOfflineAccess = "offline_access"

// MaxExchangeAnswer is how much of the code exchange's answer x/oauth2
// reads, silently.
const MaxExchangeAnswer = 1 << 20

// SpentAdvice ends the errors of a code exchange: the service spends a code
// at its first exchange.
const SpentAdvice = "the code is spent: send the user through the consent again"

// DiscardedAdvice ends the error of an exchange whose answer the SDK could
// not use.
const DiscardedAdvice = "the answer's tokens were discarded and " + SpentAdvice

// Consent returns the x/oauth2 configuration of the consent flow, the
// refresh's with AuthURL + authorizePath, redirectURL, and scopes with
// ScopeOfflineAccess added (without a refresh token no grant is kept).
func (r *Refresher) Consent(authorizePath, redirectURL string, scopes []string) oauth2.Config {
	c := r.oauth
	c.Endpoint.AuthURL = r.cfg.AuthURL + authorizePath
	c.RedirectURL = redirectURL
	c.Scopes = scopes
	if !slices.Contains(scopes, ScopeOfflineAccess) {
		c.Scopes = append(scopes[:len(scopes):len(scopes)], ScopeOfflineAccess)
	}
	return c
}

// TokenPath returns the token endpoint's whole path, for error messages.
func (r *Refresher) TokenPath() string { return r.tokPath }

// checkAdvice says which settings to check when the token endpoint refuses
// the application with status: a 404 means nothing answers at the path.
func (r *Refresher) checkAdvice(status int) string {
	if status == http.StatusNotFound {
		return "no token endpoint at this address: check " + r.cfg.AuthSetting + " and " +
			strings.TrimSuffix(r.cfg.AuthSetting, "AuthURL") + "TokenPath"
	}
	return "check " + r.cfg.AuthSetting + ", ClientID and ClientSecret"
}

// Exchange trades an authorization code for tokens within the refresh
// timeout. Every error says whether the code is spent, and never holds the
// code, a token or the secret:
//
//   - a refused code (invalid_grant, or invalid_request as for a wrong or
//     missing PKCE verifier) is ErrInvalidGrant and
//     ErrReauthorizationRequired, with advice that lists why;
//   - a redirect_uri that is not the authorize request's is
//     ErrConfiguration naming redirectSetting;
//   - a 404 is ErrConfiguration naming the AuthURL and TokenPath
//     settings, and any other refusal of the application names AuthURL,
//     ClientID and ClientSecret;
//   - an answer cut at MaxExchangeAnswer is ErrUnexpectedResponse saying so.
//
// An answer without access_token is returned as a token without one, its
// fields in Extra, so that the caller names every field missing.
func (r *Refresher) Exchange(ctx context.Context, cfg *oauth2.Config, redirectSetting, code string, opts ...oauth2.AuthCodeOption) (*oauth2.Token, error) {
	ctx, cancel := r.context(ctx)
	defer cancel()
	hc, _ := ctx.Value(oauth2.HTTPClient).(*http.Client)
	hc = cmp.Or(hc, http.DefaultClient)
	w := &answerWatch{base: hc.Transport}
	watched := *hc
	watched.Transport = w
	ctx = context.WithValue(ctx, oauth2.HTTPClient, &watched)

	tok, err := cfg.Exchange(ctx, code, opts...)
	if err == nil {
		return tok, nil
	}
	path := r.tokPath
	switch {
	case w.cut:
		return nil, fmt.Errorf("partner: POST %s: %w: the answer was cut at %d bytes (1 MiB), where x/oauth2 stops reading; %s",
			path, apierr.ErrUnexpectedResponse, MaxExchangeAnswer, DiscardedAdvice)
	case strings.Contains(err.Error(), "server response missing access_token") && w.body != nil:
		var fields map[string]any // a JSON object is returned as it is
		if json.Unmarshal(w.body.read, &fields) == nil && fields != nil {
			rt, _ := fields["refresh_token"].(string)
			return (&oauth2.Token{RefreshToken: rt}).WithExtra(fields), nil
		}
	}
	var rde *transport.RedirectError
	if errors.As(err, &rde) {
		return nil, apierr.Classify(apierr.ErrConfiguration, fmt.Errorf("partner: POST %s: %w", path, rde),
			"check "+rde.Setting+"; "+SpentAdvice+" once it is fixed")
	}
	scrub := redact.New(code, r.cfg.ClientSecret)
	if w.body != nil {
		// A 2xx answer x/oauth2 could not use: the code is spent. x/oauth2's
		// text quotes the body of an answer with an error code.
		why := apierr.Clean(err.Error(), scrub)
		var re *oauth2.RetrieveError
		if errors.As(err, &re) {
			why = "error " + strconv.Quote(apierr.Clean(re.ErrorCode, scrub))
		}
		return nil, fmt.Errorf("partner: POST %s: %w: the answer could not be used (%s); %s",
			path, apierr.ErrUnexpectedResponse, why, DiscardedAdvice)
	}
	_, _, err = r.classify(err, scrub)
	var ae *apierr.APIError
	if errors.As(err, &ae) { // else a network error or a timeout
		redirect := strings.Contains(strings.ToLower(ae.Message), "redirect_uri")
		switch {
		case redirect && (ae.Code == apierr.CodeInvalidClient || ae.Code == apierr.CodeInvalidGrant):
			return nil, apierr.Classify(apierr.ErrConfiguration, ae,
				"check "+redirectSetting+": it must be the redirect_uri of the authorize request (AuthCodeURL's), "+
					"as registered with the service; "+SpentAdvice+" once it is fixed")
		case ae.Code == apierr.CodeInvalidGrant || ae.Code == apierr.CodeInvalidRequest: // whatever code the service sent
			return nil, apierr.Classify(errors.Join(apierr.ErrInvalidGrant, apierr.ErrReauthorizationRequired), ae,
				"the code was refused and is spent: it expired (it lives 10 minutes) or was used already, "+
					"or redirect_uri or the PKCE verifier did not match the authorize request's; send the user through the consent again")
		case ae.StatusCode == http.StatusNotFound:
			return nil, apierr.Classify(apierr.ErrConfiguration, ae, r.checkAdvice(ae.StatusCode)+
				"; the code reached no token endpoint, but will have expired by then: send the user through the consent again once it is fixed")
		case ae.Code == apierr.CodeInvalidClient ||
			(ae.StatusCode < 500 && ae.StatusCode != http.StatusTooManyRequests):
			return nil, apierr.Classify(apierr.ErrConfiguration, ae, r.checkAdvice(ae.StatusCode)+"; "+SpentAdvice+" once it is fixed")
		}
	}
	return nil, fmt.Errorf("%w; the code may be spent: if trying again fails, send the user through the consent again", err)
}

// answerWatch is the code exchange's transport: it keeps what x/oauth2
// reads of a 2xx answer, and notes one longer than that.
type answerWatch struct {
	base http.RoundTripper
	body *watchedBody // of the last 2xx answer
	cut  bool
}

func (w *answerWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := cmp.Or(w.base, http.DefaultTransport).RoundTrip(req)
	if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		w.body = &watchedBody{ReadCloser: resp.Body, w: w}
		resp.Body = w.body
	}
	return resp, err
}

// watchedBody keeps what is read of an answer and, when it is closed after
// MaxExchangeAnswer bytes, whether more was left.
type watchedBody struct {
	io.ReadCloser
	w    *answerWatch
	read []byte // the first MaxExchangeAnswer bytes
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read = append(b.read, p[:min(n, MaxExchangeAnswer-len(b.read))]...)
	return n, err
}

func (b *watchedBody) Close() error {
	if len(b.read) >= MaxExchangeAnswer {
		var one [1]byte
		n, _ := io.ReadFull(b.ReadCloser, one[:])
		b.w.cut = b.w.cut || n > 0
	}
	return b.ReadCloser.Close()
}
