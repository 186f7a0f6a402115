package partnertest

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// AuthorizePath is the authorize endpoint's path on the AuthURL server:
// where an application sends the browser to connect a user (unless
// WithAuthPaths moves it).
const AuthorizePath = "/api/auth/mcp/authorize"

// The OpenID Connect scopes the token server accepts beside the service's
// permissions (AllScopes), as its OAuth metadata lists them. They grant no
// permission: ScopeOfflineAccess makes the code exchange issue a refresh
// token, which it does not without it; the others change nothing here.
const (
	ScopeOfflineAccess = "offline_access"
	ScopeOpenID        = "openid"
	ScopeProfile       = "profile"
	ScopeEmail         = "email"
)

// oidcScope reports whether name is one of the OpenID Connect scopes.
func oidcScope(name string) bool {
	switch name {
	case ScopeOfflineAccess, ScopeOpenID, ScopeProfile, ScopeEmail:
		return true
	}
	return false
}

// WithAuthPaths serves the authorize endpoint and the token endpoint at
// these paths on the AuthURL server instead of AuthorizePath and
// TokenPath, as a token server that moved them does (for example
// "/oauth2/authorize" and "/oauth2/token"): the old paths then answer 404.
func WithAuthPaths(authorize, token string) Option {
	return func(c *config) { c.authorizePath, c.tokenPath = authorize, token }
}

// AuthorizationCodeLifetime is how long an authorization code can be
// exchanged, on the server's clock, as the service documents.
const AuthorizationCodeLifetime = 10 * time.Minute

// WithRedirectURLs registers redirect URIs the authorize endpoint accepts,
// as the service's onboarding does; Server.AddRedirectURL adds more later
// (for a callback server started after NewServer). A redirect_uri must
// equal one of them byte for byte, trailing slash and query included. None
// is registered by default, so the authorize endpoint refuses every
// request until the test registers its callback. It panics on a URL that
// is not absolute or has a fragment.
func WithRedirectURLs(urls ...string) Option {
	return func(c *config) { c.redirectURLs = append(c.redirectURLs, urls...) }
}

// WithPKCERequired makes the authorize endpoint refuse a request without a
// code_challenge (error=invalid_request). By default PKCE is optional, as
// the service's server-side example omits it; an S256 challenge, when
// sent, is always checked at the code exchange.
func WithPKCERequired() Option {
	return func(c *config) { c.pkce = true }
}

// WithRefreshRotation makes every refresh return a new refresh token and
// retire the one sent, as the service documents it may ("the refresh token
// MAY rotate on each use"). Reuse is detected as careful OAuth servers do:
// a retired refresh token sent again is refused with 400 invalid_grant and
// revokes the whole grant, so that its tokens get 410 grant_revoked and
// its current refresh token invalid_grant too. Counts.ReusedRefreshTokens
// and Counts.ReuseRevocations count what happened. Without the option the
// refresh token stays the same, as the spec says.
func WithRefreshRotation() Option {
	return func(c *config) { c.rotation = true }
}

// AddRedirectURL registers one more redirect URI; see WithRedirectURLs.
// It panics on a URL that is not absolute or has a fragment.
func (s *Server) AddRedirectURL(u string) {
	p, err := url.Parse(u)
	if err != nil || p.Scheme == "" || p.Host == "" || p.Fragment != "" || strings.Contains(u, "#") {
		panic(fmt.Sprintf("partnertest: AddRedirectURL: %q is not an absolute URL without a fragment", u))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.redirectURLs[u] = true
}

// A Consent is what the user chooses on the service's consent screen: who
// they are, which organizations they pick and which permissions they
// leave on. SetConsent sets it for the authorize requests that follow;
// the zero Consent is the default.
type Consent struct {
	// User is who consents. The zero User means the server's default
	// consenting user, made at the first consent (with an id usr_N like
	// NewGrant's users).
	User User
	// Organizations are the organizations the user picks, made earlier
	// with AddOrganization or NewGrant: the exchange issues one grant for
	// each, in this order. Nil picks the user's first organization, one
	// made for that user at their first consent.
	Organizations []Organization
	// Scopes are the scopes the user leaves on. Nil grants the scopes the
	// request asked for (DefaultScopes when it names none of AllScopes);
	// non-nil grants exactly these, whatever was asked, as a user who
	// toggled permissions.
	Scopes []string
	// Deny makes the user refuse: the browser goes to
	// redirect_uri?error=access_denied&state=...
	Deny bool
}

// SetConsent sets what the user chooses on the consent screen for the
// authorize requests that follow. It panics on an organization the server
// does not know, an empty non-nil Organizations, or an unknown scope, as
// those are mistakes in the test.
func (s *Server) SetConsent(c Consent) {
	if c.Organizations != nil && len(c.Organizations) == 0 {
		panic("partnertest: SetConsent: the user picks at least one organization (nil picks their first)")
	}
	for _, sc := range c.Scopes {
		if !slices.Contains(AllScopes(), sc) {
			panic(fmt.Sprintf("partnertest: SetConsent: unknown scope %q", sc))
		}
	}
	c.Organizations = slices.Clone(c.Organizations)
	c.Scopes = slices.Clone(c.Scopes)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, o := range c.Organizations {
		if s.orgs[o.ID] == nil {
			panic(fmt.Sprintf("partnertest: SetConsent: unknown organization %q", o.ID))
		}
	}
	s.consent = c
}

// Grant returns the grant with this id as it is now (its current refresh
// token, which rotation changes; its scopes; whether it is revoked), and
// whether there is one. Grants issued by the code exchange are found here.
func (s *Server) Grant(id string) (Grant, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.grants[id]
	if g == nil {
		return Grant{}, false
	}
	return g.public(), true
}

// authCode is an authorization code and what the consent behind it chose.
type authCode struct {
	redirectURI string
	challenge   string // S256 code_challenge, or empty
	user        User
	orgs        []Organization
	scopes      []string
	offline     bool // offline_access was asked for: the exchange issues refresh tokens
	expires     time.Time
	used        bool
	spent       string   // why an exchange of it was refused, which spent it
	grants      []*grant // issued by its exchange
}

// consentScreen serves the authorize endpoint: it checks the request as
// RFC 6749 section 4.1 and RFC 7636 have it, consents at once as
// Server.SetConsent says, and sends the browser back with a code.
func (c *call) consentScreen() {
	if c.r.Method != http.MethodGet {
		c.w.Header().Set("Allow", http.MethodGet)
		c.error(http.StatusMethodNotAllowed, "method_not_allowed", "use GET")
		return
	}
	q, err := url.ParseQuery(c.r.URL.RawQuery)
	if err != nil {
		c.error(http.StatusBadRequest, "invalid_request", "the query is not valid")
		return
	}
	s := c.s
	// Without a known client and a registered redirect URI, the error is
	// shown to the user, never redirected.
	for _, k := range []string{"client_id", "redirect_uri"} {
		if len(q[k]) > 1 {
			c.error(http.StatusBadRequest, "invalid_request", k+" is repeated")
			return
		}
	}
	id, redirect := q.Get("client_id"), q.Get("redirect_uri")
	s.mu.Lock()
	registered := s.redirectURLs[redirect]
	s.mu.Unlock()
	switch {
	case id == "":
		c.error(http.StatusBadRequest, "invalid_request", "missing client_id")
		return
	case subtle.ConstantTimeCompare([]byte(id), []byte(s.clientID)) != 1:
		c.error(http.StatusBadRequest, "invalid_client", "unknown client_id")
		return
	case redirect == "":
		c.error(http.StatusBadRequest, "invalid_request", "missing redirect_uri")
		return
	case !registered:
		c.error(http.StatusBadRequest, "invalid_request", "redirect_uri "+strconv.Quote(redirect)+
			" is not registered (it must match byte for byte; register it with WithRedirectURLs or Server.AddRedirectURL)")
		return
	}
	back := url.Values{}
	if q.Has("state") {
		back.Set("state", q.Get("state"))
	}
	fail := func(code, msg string) {
		back.Set("error", code)
		back.Set("error_description", msg)
		c.redirect(redirect, back)
	}
	for _, k := range slices.Sorted(maps.Keys(q)) {
		if len(q[k]) > 1 {
			fail("invalid_request", k+" is repeated")
			return
		}
	}
	switch rt := q.Get("response_type"); rt {
	case "code":
	case "":
		fail("invalid_request", "missing response_type")
		return
	default:
		fail("unsupported_response_type", "response_type must be code")
		return
	}
	requested, offline, unknown := parseScope(q.Get("scope"))
	if unknown != "" {
		fail("invalid_scope", "unknown scope "+strconv.Quote(unknown))
		return
	}
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	switch {
	case challenge == "" && method != "":
		fail("invalid_request", "code_challenge_method without code_challenge")
		return
	case challenge == "" && s.pkceRequired:
		fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256")
		return
	case challenge != "" && method != "S256":
		// An absent method means plain (RFC 7636 section 4.3).
		fail("invalid_request", "code_challenge_method must be S256; plain is not supported")
		return
	case challenge != "" && !validChallenge(challenge):
		fail("invalid_request", "code_challenge must be the unpadded base64url SHA-256 of the verifier (43 characters)")
		return
	}

	s.mu.Lock()
	consent := s.consent
	if consent.Deny {
		s.mu.Unlock()
		fail("access_denied", "the user denied access")
		return
	}
	user := consent.User
	if user.ID == "" {
		if s.defaultUser == nil {
			u := s.newUserLocked()
			s.defaultUser = &u
		}
		user = *s.defaultUser
	}
	orgs := consent.Organizations
	if orgs == nil {
		o, ok := s.firstOrgs[user.ID]
		if !ok {
			o = s.addOrgLocked("", "")
			s.firstOrgs[user.ID] = o
		}
		orgs = []Organization{o}
	}
	scopes := consent.Scopes
	if scopes == nil {
		scopes = requested
	}
	code := secret("pt_code_")
	s.codes[code] = &authCode{
		redirectURI: redirect,
		challenge:   challenge,
		user:        user,
		orgs:        orgs,
		scopes:      scopes,
		offline:     offline,
		expires:     c.now.Add(AuthorizationCodeLifetime),
	}
	s.mu.Unlock()
	back.Set("code", code)
	c.redirect(redirect, back)
}

// parseScope splits a scope parameter into the permissions it asks for
// (DefaultScopes when it names none) and whether it asks for
// offline_access. It returns the first unknown scope, if any.
func parseScope(v string) (scopes []string, offline bool, unknown string) {
	for _, sc := range strings.Fields(v) {
		switch {
		case oidcScope(sc):
			offline = offline || sc == ScopeOfflineAccess
		case !slices.Contains(AllScopes(), sc):
			return nil, false, sc
		case !slices.Contains(scopes, sc):
			scopes = append(scopes, sc)
		}
	}
	if scopes == nil {
		scopes = DefaultScopes()
	}
	return scopes, offline, ""
}

// validChallenge reports whether v is an S256 code challenge: the
// unpadded base64url encoding of 32 bytes.
func validChallenge(v string) bool {
	b, err := base64.RawURLEncoding.DecodeString(v)
	return err == nil && len(b) == sha256.Size
}

// validVerifier reports whether v is a code verifier as RFC 7636 section
// 4.1 allows: 43 to 128 characters of [A-Za-z0-9-._~].
func validVerifier(v string) bool {
	if len(v) < 43 || len(v) > 128 {
		return false
	}
	for _, r := range v {
		if !('A' <= r && r <= 'Z' || 'a' <= r && r <= 'z' || '0' <= r && r <= '9' || strings.ContainsRune("-._~", r)) {
			return false
		}
	}
	return true
}

// s256 returns the S256 code challenge of a verifier.
func s256(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// redirect answers 302 to target with params added to its query.
func (c *call) redirect(target string, params url.Values) {
	u, err := url.Parse(target)
	if err != nil {
		panic(err) // registered URLs were parsed by AddRedirectURL
	}
	q := u.Query()
	for k, v := range params {
		q[k] = v
	}
	u.RawQuery = q.Encode()
	c.w.Header().Set("Location", u.String())
	c.w.Header().Set("Cache-Control", "no-store")
	c.write(http.StatusFound, "text/plain; charset=utf-8", nil)
}

// grantTokens are one grant's tokens in the code exchange's answer.
type grantTokens struct {
	AccessToken    string `json:"access_token"`
	TokenType      string `json:"token_type"`
	ExpiresIn      int    `json:"expires_in"`
	RefreshToken   string `json:"refresh_token,omitempty"`
	Scope          string `json:"scope"`
	GrantID        string `json:"grant_id"`
	OrganizationID string `json:"organization_id,omitempty"`
}

// exchange serves grant_type=authorization_code at the token endpoint,
// once the client's credentials were checked. As the service's token
// server does, it spends a code it refuses for any cause but being unknown,
// used or expired: the code cannot be exchanged after that.
func (c *call) exchange(form url.Values) {
	code, redirect, verifier := form.Get("code"), form.Get("redirect_uri"), form.Get("code_verifier")
	if code == "" {
		c.error(http.StatusBadRequest, "invalid_request", "missing code")
		return
	}
	s := c.s
	s.mu.Lock()
	ac := s.codes[code]
	status, errCode, msg := http.StatusBadRequest, "invalid_grant", ""
	switch {
	case ac == nil:
		msg = "unknown authorization code"
	case ac.spent != "":
		msg = "the authorization code was spent by an exchange refused earlier (" + ac.spent + ")"
	case ac.used:
		msg = "the authorization code was used already; the grants it issued are revoked"
		s.counts.ReusedCodes++
		for _, g := range ac.grants {
			g.counts.ReusedCodes++
			s.revokeByReuseLocked(g)
		}
		if len(ac.grants) > 0 {
			c.grantID = ac.grants[0].ID
		}
	case !c.now.Before(ac.expires):
		msg = "the authorization code expired at " + ac.expires.UTC().Format(time.RFC3339)
	case redirect == "":
		errCode, msg = "invalid_request", "missing redirect_uri"
	case redirect != ac.redirectURI:
		status, errCode, msg = http.StatusUnauthorized, "invalid_client", "invalid redirect_uri: it differs from the authorize request's"
	case ac.challenge != "" && verifier == "":
		errCode, msg = "invalid_request", "code verifier is missing: the authorize request had a code_challenge"
	case ac.challenge == "" && verifier != "":
		status, errCode, msg = http.StatusUnauthorized, "invalid_request", "code verification failed: code_verifier sent, but the authorize request had no code_challenge"
	case ac.challenge != "" && !validVerifier(verifier):
		status, errCode, msg = http.StatusUnauthorized, "invalid_request", "code verification failed: code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9 and -._~"
	case ac.challenge != "" && subtle.ConstantTimeCompare([]byte(s256(verifier)), []byte(ac.challenge)) != 1:
		status, errCode, msg = http.StatusUnauthorized, "invalid_request", "code verification failed: code_verifier does not match the code_challenge"
	}
	if msg != "" {
		if ac != nil && ac.spent == "" && !ac.used && c.now.Before(ac.expires) {
			ac.spent = msg
		}
		s.mu.Unlock()
		c.error(status, errCode, msg)
		return
	}
	ac.used = true
	answers := make([]grantTokens, 0, len(ac.orgs))
	for _, o := range ac.orgs {
		g := s.consentGrantLocked(ac.user, o, ac.scopes, ac.offline)
		ac.grants = append(ac.grants, g)
		s.counts.Exchanges++
		g.counts.Exchanges++
		gt := grantTokens{
			AccessToken:    s.issueLocked(g, TokenAccess, c.now),
			TokenType:      "Bearer",
			ExpiresIn:      int(s.accessLife / time.Second),
			Scope:          strings.Join(g.Scopes, " "),
			GrantID:        g.ID,
			OrganizationID: o.ID,
		}
		if ac.offline {
			gt.RefreshToken = g.RefreshToken
		}
		answers = append(answers, gt)
	}
	s.mu.Unlock()
	c.grantID = answers[0].GrantID
	// One organization: the documented shape. Several: the first grant's
	// tokens at the top, and every grant's in "grants".
	out := struct {
		grantTokens
		Grants []grantTokens `json:"grants,omitempty"`
	}{grantTokens: answers[0]}
	out.OrganizationID = ""
	if len(answers) > 1 {
		out.Grants = answers
	}
	c.w.Header().Set("Cache-Control", "no-store")
	c.json(http.StatusOK, out)
}

// spendCode spends code, if it could still be exchanged, as an exchange of
// it refused for the client's credentials does.
func (c *call) spendCode(code string) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if ac := s.codes[code]; ac != nil && ac.spent == "" && !ac.used && c.now.Before(ac.expires) {
		ac.spent = "the client was refused"
	}
}

// consentGrantLocked returns the grant a consent gives the user for one
// organization: their live grant for exactly that organization, updated
// in place (new scopes, and a new refresh token if offline), or a new
// grant.
func (s *Server) consentGrantLocked(user User, o Organization, scopes []string, offline bool) *grant {
	for _, g := range s.grants {
		if g.User.ID == user.ID && !g.revoked && len(g.Organizations) == 1 && g.Organizations[0].ID == o.ID {
			g.setScopes(scopes)
			if offline {
				s.newRefreshTokenLocked(g)
			}
			return g
		}
	}
	id, _ := s.nextID("grant")
	g := &grant{Grant: Grant{ID: id, User: user, Organizations: []Organization{o}}}
	g.setScopes(scopes)
	s.grants[id] = g
	s.newRefreshTokenLocked(g)
	return g
}

// newRefreshTokenLocked gives g a new refresh token; the old one is
// unknown from then on, and so are those rotation retired.
func (s *Server) newRefreshTokenLocked(g *grant) {
	delete(s.refresh, g.RefreshToken)
	maps.DeleteFunc(s.rotated, func(_ string, r *grant) bool { return r == g })
	g.RefreshToken = secret("pt_rt_")
	s.refresh[g.RefreshToken] = g
}

// revokeByReuseLocked revokes g because a retired refresh token or a used
// code was sent again.
func (s *Server) revokeByReuseLocked(g *grant) {
	if g.revoked {
		return
	}
	g.revoked = true
	s.counts.ReuseRevocations++
	g.counts.ReuseRevocations++
}

// revokeInstallation serves the partner's DELETE
// /api/oauth-client/installations/<grant_id>: with the grant's access
// token it revokes the grant and answers 204.
func (c *call) revokeInstallation(grantID string) {
	g := c.authorize(accessToken, "")
	if g == nil {
		return // 410 grant_revoked if it was revoked already
	}
	if g.ID != grantID {
		c.error(http.StatusNotFound, "grant_not_found", "no grant "+strconv.Quote(grantID)+" for this access token")
		return
	}
	s := c.s
	s.mu.Lock()
	if !g.revoked {
		g.revoked = true
		s.counts.PartnerRevocations++
		g.counts.PartnerRevocations++
	}
	s.mu.Unlock()
	c.w.WriteHeader(http.StatusNoContent)
	c.status = http.StatusNoContent
}
