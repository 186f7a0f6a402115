package partnertest

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TokenPath is the token endpoint's path on the AuthURL server, unless
// WithAuthPaths moves it.
const TokenPath = "/api/auth/mcp/token"

// maxBodyBytes caps request bodies the server reads.
const maxBodyBytes = 1 << 20

// errorBody is every error answer's body.
type errorBody struct {
	Error    string `json:"error"`
	Message  string `json:"message,omitempty"`
	Required string `json:"required,omitempty"`
}

// call is one request being served.
type call struct {
	s       *Server
	w       http.ResponseWriter
	r       *http.Request
	now     time.Time
	kind    TokenKind
	tok     *token // nil unless kind is TokenAccess or TokenInstallation
	tokText string // the Bearer token as sent
	grantID string
	fault   *Fault
	status  int
	host    Host
	logged  bool
	rpc     rpcRequest   // an MCP request's JSON-RPC method and id
	rpcErr  bool         // an MCP request's body is not JSON
	tool    string       // the tool of an MCP tools/call
	mcp     *mcpListener // the MCP listener served; nil on the API and auth hosts
}

// log adds the request to the request log, once. A request is logged
// before its connection is dropped, so that a client that sees the drop
// finds the request in the log.
func (c *call) log() {
	if c.logged {
		return
	}
	c.logged = true
	c.s.logRequest(Request{
		Host:    c.host,
		Method:  c.r.Method,
		Path:    c.r.URL.Path,
		Token:   c.kind,
		GrantID: c.grantID,
		Status:  c.status,
		Fault:   c.fault != nil,
		RPC:     c.rpc.Method,
		Tool:    c.tool,
		Time:    c.now,
	})
}

// handler serves one of the listeners: faults first, then the
// endpoints, then the request log.
func (s *Server) handler(h Host) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{s: s, w: w, r: r, now: s.Now(), host: h, mcp: s.listener(h)}
		c.bearer()
		defer c.log() // also when abort panics
		c.readRPC()
		if c.fault = s.takeFault(h, r, c.tool); c.fault != nil && c.applyFault() {
			return
		}
		switch h {
		case HostAPI:
			c.serveAPI()
		case HostAuth:
			c.serveAuth()
		case HostCDN:
			c.serveCDN()
		default:
			c.serveMCP()
		}
	})
}

// bearer finds the request's Bearer token.
func (c *call) bearer() {
	v := c.r.Header.Get("Authorization")
	if len(v) < 7 || !strings.EqualFold(v[:7], "Bearer ") || strings.TrimSpace(v[7:]) == "" {
		return
	}
	c.tokText = strings.TrimSpace(v[7:])
	c.s.mu.Lock()
	c.tok = c.s.tokens[c.tokText]
	c.s.mu.Unlock()
	if c.tok == nil {
		c.kind = TokenUnknown
		return
	}
	c.kind, c.grantID = c.tok.kind, c.tok.grant.ID
}

// applyFault carries out c.fault and reports whether that answered the
// request (or gave up on it); if not, the request is served normally.
func (c *call) applyFault() bool {
	f := c.fault
	if f.Delay > 0 || f.Hang {
		// Read the whole request first, as a server does before it is slow:
		// net/http notices a client that gives up only once the body is read.
		body, _ := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes))
		c.r.Body = io.NopCloser(bytes.NewReader(body))
	}
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-c.r.Context().Done():
			c.abort()
			return true
		case <-c.s.done:
			c.abort()
			return true
		}
	}
	switch {
	case f.Hang:
		select {
		case <-c.r.Context().Done():
		case <-c.s.done:
		}
		c.abort()
		return true
	case f.Drop:
		c.abort()
		return true
	case f.ToolError != "" && c.tool != "":
		c.toolResult(c.rpc.ID, strings.ReplaceAll(f.ToolError, "{token}", c.tokText), true)
		return true
	case f.Status != 0:
		if f.RetryAfter != "" {
			c.w.Header().Set("Retry-After", f.RetryAfter)
		}
		if f.Location != "" {
			c.w.Header().Set("Location", f.Location)
		}
		body, ctype := faultBody(f)
		c.write(f.Status, ctype, body)
		return true
	}
	return false
}

// abort closes the connection without an answer.
func (c *call) abort() {
	c.log()
	conn, _, err := http.NewResponseController(c.w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	conn.Close()
}

// write answers with body, cut in half if the fault says Truncate: the
// Content-Length promises more than is sent, and net/http closes the
// connection after a short body.
func (c *call) write(status int, ctype string, body []byte) {
	h := c.w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	c.w.WriteHeader(status)
	c.status = status
	if c.fault != nil && c.fault.Truncate {
		body = body[:len(body)/2]
	}
	c.w.Write(body)
}

func (c *call) json(status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only our own types get here
	}
	c.write(status, "application/json", append(b, '\n'))
}

func (c *call) error(status int, code, msg string) {
	c.json(status, errorBody{Error: code, Message: msg})
}

func (c *call) notFound() {
	c.error(http.StatusNotFound, "not_found", "no such resource")
}

// unauthorized answers 401 with the error code also in WWW-Authenticate,
// as RFC 6750 has it.
func (c *call) unauthorized(code, msg string) {
	c.w.Header().Set("WWW-Authenticate", `Bearer error="`+code+`"`)
	c.error(http.StatusUnauthorized, code, msg)
}

// Token kinds an endpoint accepts.
const (
	anyToken          = TokenNone // either kind, as GET /me takes
	accessToken       = TokenAccess
	installationToken = TokenInstallation
)

// authorize checks the Bearer token against what the endpoint takes and
// returns its grant, or answers the request and returns nil.
func (c *call) authorize(want TokenKind, scope string) *grant {
	switch {
	case c.kind == TokenNone:
		c.unauthorized("invalid_token", "no Bearer token")
		return nil
	case c.tok == nil:
		c.unauthorized("invalid_token", "unknown token")
		return nil
	}
	g := c.tok.grant
	c.s.mu.Lock()
	revoked, hasScope := g.revoked, scope == "" || c.tok.scopes[scope]
	c.s.mu.Unlock()
	switch {
	case revoked:
		c.error(http.StatusGone, "grant_revoked", "the grant was revoked")
	case want != anyToken && c.kind != want:
		c.unauthorized("invalid_token", fmt.Sprintf("this endpoint takes an %s token, not an %s token", want, c.kind))
	case !c.now.Before(c.tok.expires):
		c.unauthorized("invalid_token", fmt.Sprintf("the %s token expired at %s", c.kind, c.tok.expires.UTC().Format(time.RFC3339)))
	case c.rateLimited():
		// answered
	case !hasScope:
		c.json(http.StatusForbidden, errorBody{
			Error:    "missing_scope",
			Required: scope,
			Message:  "the grant lacks scope " + scope + "; the user must authorize it",
		})
	default:
		return g
	}
	return nil
}

// rateLimited counts a request made with an installation token against
// the token's cap (WithRateLimit) and reports whether it went over; if so,
// it has answered 429 rate_limited with Retry-After.
func (c *call) rateLimited() bool {
	limit := c.s.rateLimit
	if limit <= 0 || c.kind != TokenInstallation {
		return false
	}
	start := c.now.Truncate(time.Minute)
	c.s.mu.Lock()
	w := c.s.windows[c.tokText]
	if w == nil || !w.start.Equal(start) {
		w = &rateWindow{start: start}
		c.s.windows[c.tokText] = w
	}
	w.n++
	over := w.n > limit
	c.s.mu.Unlock()
	if !over {
		return false
	}
	wait := start.Add(time.Minute).Sub(c.now)
	secs := int((wait + time.Second - 1) / time.Second)
	c.w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	c.error(http.StatusTooManyRequests, "rate_limited",
		fmt.Sprintf("more than %d requests this minute with this installation token", limit))
	return true
}

// rateWindow counts one installation token's requests in a fixed minute of
// the server's clock.
type rateWindow struct {
	start time.Time
	n     int
}

// serveAPI routes a request to the resource API.
func (c *call) serveAPI() {
	rest, ok := strings.CutPrefix(c.r.URL.EscapedPath(), "/api/oauth-client/")
	if !ok {
		c.notFound()
		return
	}
	seg := strings.Split(rest, "/")
	var (
		method string
		serve  func(*call, string)
		param  string
	)
	switch {
	case len(seg) == 1 && seg[0] == "me":
		method, serve = http.MethodGet, (*call).me
	case len(seg) == 1 && seg[0] == "organizations":
		method, serve = http.MethodGet, (*call).listOrganizations
	case len(seg) == 3 && seg[0] == "organizations" && seg[2] == "projects":
		method, serve, param = http.MethodGet, (*call).listProjects, seg[1]
	case len(seg) == 2 && seg[0] == "v1" && seg[1] == "projects":
		method, serve = http.MethodPost, (*call).createProject
	case len(seg) == 3 && seg[0] == "v1" && seg[1] == "projects":
		method, serve, param = http.MethodGet, (*call).getProject, seg[2]
	case len(seg) == 4 && seg[0] == "v1" && seg[1] == "projects" && seg[3] == "languages":
		method, serve, param = http.MethodPost, (*call).addLanguage, seg[2]
	case len(seg) == 3 && seg[0] == "installations" && seg[2] == "tokens":
		method, serve, param = http.MethodPost, (*call).mint, seg[1]
	case len(seg) == 2 && seg[0] == "installations":
		method, serve, param = http.MethodDelete, (*call).revokeInstallation, seg[1]
	default:
		c.notFound()
		return
	}
	if len(seg) == 3 || len(seg) == 4 || seg[0] == "installations" {
		var err error
		if param, err = url.PathUnescape(param); err != nil || param == "" {
			c.notFound()
			return
		}
	}
	if c.r.Method != method {
		c.w.Header().Set("Allow", method)
		c.error(http.StatusMethodNotAllowed, "method_not_allowed", "use "+method)
		return
	}
	serve(c, param)
}

// GET /api/oauth-client/me.
func (c *call) me(string) {
	if g := c.authorize(anyToken, ""); g != nil {
		c.json(http.StatusOK, g.User)
	}
}

// GET /api/oauth-client/organizations.
func (c *call) listOrganizations(string) {
	g := c.authorize(installationToken, ScopeOrgRead)
	if g == nil {
		return
	}
	orgs := g.Organizations // never changed after NewGrant
	if orgs == nil {
		orgs = []Organization{}
	}
	c.json(http.StatusOK, struct {
		Organizations []Organization `json:"organizations"`
	}{orgs})
}

// GET /api/oauth-client/organizations/<org_id>/projects.
func (c *call) listProjects(orgID string) {
	g := c.authorize(installationToken, ScopeProjectsRead)
	if g == nil {
		return
	}
	if !c.ownOrg(g, orgID) {
		return
	}
	c.json(http.StatusOK, struct {
		Projects []Project `json:"projects"`
	}{c.s.Projects(orgID)})
}

// ownOrg reports whether the grant covers the organization; if not, it
// answers 404 not_found for an organization the server does not know and
// 403 wrong_organization for another one.
func (c *call) ownOrg(g *grant, orgID string) bool {
	if g.hasOrg(orgID) {
		return true
	}
	c.s.mu.Lock()
	known := c.s.orgs[orgID] != nil
	c.s.mu.Unlock()
	if !known {
		c.notFound()
		return false
	}
	c.error(http.StatusForbidden, "wrong_organization", "the resource belongs to an organization this grant does not cover")
	return false
}

func (g *grant) hasOrg(id string) bool {
	return slices.ContainsFunc(g.Organizations, func(o Organization) bool { return o.ID == id })
}

// POST /api/oauth-client/v1/projects.
func (c *call) createProject(string) {
	g := c.authorize(installationToken, ScopeProjectsWrite)
	if g == nil {
		return
	}
	var in struct {
		Name           string `json:"name"`
		Slug           string `json:"slug"`
		SourceLanguage string `json:"sourceLanguage"`
	}
	if !c.readJSON(&in) {
		return
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"name", in.Name}, {"slug", in.Slug}, {"sourceLanguage", in.SourceLanguage}} {
		if f.v == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		c.error(http.StatusBadRequest, "invalid_request", "missing "+strings.Join(missing, ", "))
		return
	}
	if len(g.Organizations) == 0 {
		c.error(http.StatusBadRequest, "invalid_request", "the grant has no organization to create the project in")
		return
	}
	s := c.s
	s.mu.Lock()
	o := s.orgs[g.Organizations[0].ID]
	if o.hasSlug(in.Slug) {
		s.mu.Unlock()
		c.error(http.StatusConflict, "conflict", "a project with slug "+strconv.Quote(in.Slug)+" already exists in the organization")
		return
	}
	p := s.addProjectLocked(o, Project{
		Name:           in.Name,
		Slug:           in.Slug,
		SourceLanguage: in.SourceLanguage,
		CDN:            true,
		CreatedAt:      c.now,
	}).clone()
	s.mu.Unlock()
	c.json(http.StatusCreated, p)
}

// GET /api/oauth-client/v1/projects/<project_id>.
func (c *call) getProject(id string) {
	g := c.authorize(installationToken, ScopeProjectsRead)
	if g == nil {
		return
	}
	c.s.mu.Lock()
	p := c.s.projects[id]
	var out Project
	if p != nil {
		out = p.clone()
	}
	c.s.mu.Unlock()
	if p == nil {
		c.notFound()
		return
	}
	if !c.ownOrg(g, out.OrganizationID) {
		return
	}
	c.json(http.StatusOK, out)
}

// POST /api/oauth-client/v1/projects/<project_id>/languages.
func (c *call) addLanguage(projectID string) {
	g := c.authorize(installationToken, ScopeProjectsWrite)
	if g == nil {
		return
	}
	var in struct {
		Code string `json:"code"`
	}
	if !c.readJSON(&in) {
		return
	}
	if in.Code == "" {
		c.error(http.StatusBadRequest, "invalid_request", "missing code")
		return
	}
	s := c.s
	s.mu.Lock()
	p := s.projects[projectID]
	switch {
	case p == nil:
		s.mu.Unlock()
		c.notFound()
	case !g.hasOrg(p.OrganizationID):
		s.mu.Unlock()
		c.error(http.StatusForbidden, "wrong_organization", "the project belongs to an organization this grant does not cover")
	case slices.ContainsFunc(p.TargetLanguages, func(l Language) bool { return l.Code == in.Code }):
		s.mu.Unlock()
		c.error(http.StatusConflict, "conflict", "the project already has target language "+strconv.Quote(in.Code))
	default:
		l := Language{Code: in.Code, Name: languageName(in.Code)}
		p.TargetLanguages = append(p.TargetLanguages, l)
		s.mu.Unlock()
		c.json(http.StatusCreated, l)
	}
}

// POST /api/oauth-client/installations/<grantId>/tokens.
func (c *call) mint(grantID string) {
	g := c.authorize(accessToken, "")
	if g == nil {
		return
	}
	if g.ID != grantID {
		// Unknown, deleted, or another grant's: this token sees no such
		// grant.
		c.error(http.StatusNotFound, "grant_not_found", "no grant "+strconv.Quote(grantID)+" for this access token")
		return
	}
	s := c.s
	s.mu.Lock()
	tok := s.issueLocked(g, TokenInstallation, c.now)
	expires := s.tokens[tok].expires
	s.counts.Mints++
	g.counts.Mints++
	scopes := append([]string{}, g.Scopes...)
	var org string
	if len(g.Organizations) > 0 {
		org = g.Organizations[0].ID
	}
	s.mu.Unlock()
	// The documented answer (the service's public documentation); project_ids [] =
	// every project of the organization.
	c.json(http.StatusCreated, struct {
		Token          string   `json:"installation_token"`
		TokenType      string   `json:"token_type"`
		ExpiresAt      string   `json:"expires_at"`
		ExpiresIn      int      `json:"expires_in"`
		OrganizationID string   `json:"organization_id"`
		ProjectIDs     []string `json:"project_ids"`
		Scopes         []string `json:"scopes"`
	}{tok, "Bearer", expires.UTC().Format(time.RFC3339), int(expires.Sub(c.now).Seconds()), org, []string{}, scopes})
}

// readJSON decodes a JSON request body into v, or answers 415 or 400 and
// returns false.
func (c *call) readJSON(v any) bool {
	if mt, _, err := mime.ParseMediaType(c.r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		c.error(http.StatusUnsupportedMediaType, "unsupported_media_type", "Content-Type must be application/json")
		return false
	}
	dec := json.NewDecoder(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes))
	if err := dec.Decode(v); err != nil {
		c.error(http.StatusBadRequest, "invalid_request", "body is not a valid JSON object: "+err.Error())
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		c.error(http.StatusBadRequest, "invalid_request", "body has data after the JSON object")
		return false
	}
	return true
}

// serveAuth serves the token endpoint and the authorize
// endpoint.
func (c *call) serveAuth() {
	switch c.r.URL.Path {
	case c.s.tokenPath:
	case c.s.authorizePath:
		c.consentScreen()
		return
	default:
		c.notFound()
		return
	}
	if c.r.Method != http.MethodPost {
		c.w.Header().Set("Allow", http.MethodPost)
		c.error(http.StatusMethodNotAllowed, "method_not_allowed", "use POST")
		return
	}
	if mt, _, err := mime.ParseMediaType(c.r.Header.Get("Content-Type")); err != nil || mt != "application/x-www-form-urlencoded" {
		c.error(http.StatusBadRequest, "invalid_request", "Content-Type must be application/x-www-form-urlencoded")
		return
	}
	raw, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes))
	if err != nil {
		c.error(http.StatusBadRequest, "invalid_request", "cannot read the body")
		return
	}
	form, err := url.ParseQuery(string(raw))
	if err != nil {
		c.error(http.StatusBadRequest, "invalid_request", "the body is not a valid form")
		return
	}
	for _, k := range []string{"grant_type", "refresh_token", "client_id", "client_secret", "code", "redirect_uri", "code_verifier"} {
		if len(form[k]) > 1 {
			c.error(http.StatusBadRequest, "invalid_request", k+" is repeated")
			return
		}
	}
	s := c.s
	id, secret := form.Get("client_id"), form.Get("client_secret")
	if id == "" || secret == "" {
		msg := "client_id and client_secret are required in the form body"
		if _, _, ok := c.r.BasicAuth(); ok {
			msg += "; HTTP Basic authentication is not accepted"
		}
		if form.Get("grant_type") == "authorization_code" {
			c.spendCode(form.Get("code"))
		}
		c.error(http.StatusUnauthorized, "invalid_client", msg)
		return
	}
	if subtle.ConstantTimeCompare([]byte(id), []byte(s.clientID)) != 1 ||
		subtle.ConstantTimeCompare([]byte(secret), []byte(s.clientSecret)) != 1 {
		if form.Get("grant_type") == "authorization_code" {
			c.spendCode(form.Get("code"))
		}
		c.error(http.StatusUnauthorized, "invalid_client", "unknown client or wrong secret")
		return
	}
	switch form.Get("grant_type") {
	case "refresh_token":
		c.refresh(form)
	case "authorization_code":
		c.exchange(form)
	default:
		c.error(http.StatusBadRequest, "unsupported_grant_type", "grant_type must be refresh_token or authorization_code")
	}
}

// refresh serves grant_type=refresh_token at the token endpoint, once the
// client's credentials were checked.
func (c *call) refresh(form url.Values) {
	s := c.s
	rt := form.Get("refresh_token")
	if rt == "" {
		c.error(http.StatusBadRequest, "invalid_request", "missing refresh_token")
		return
	}
	s.mu.Lock()
	g := s.refresh[rt]
	if r := s.rotated[rt]; g == nil && r != nil {
		s.counts.ReusedRefreshTokens++
		r.counts.ReusedRefreshTokens++
		s.revokeByReuseLocked(r)
		s.mu.Unlock()
		c.grantID = r.ID
		c.error(http.StatusBadRequest, "invalid_grant", "the refresh token was replaced by rotation already; sending it again revoked the grant")
		return
	}
	if g == nil || g.revoked {
		s.mu.Unlock()
		if g != nil {
			c.grantID = g.ID
		}
		c.error(http.StatusBadRequest, "invalid_grant", "the refresh token is unknown or its grant was revoked")
		return
	}
	c.grantID = g.ID
	tok := s.issueLocked(g, TokenAccess, c.now)
	s.counts.Refreshes++
	g.counts.Refreshes++
	if s.rotation {
		delete(s.refresh, rt)
		s.rotated[rt] = g
		rt = secret("pt_rt_")
		g.RefreshToken = rt
		s.refresh[rt] = g
	}
	s.mu.Unlock()
	c.w.Header().Set("Cache-Control", "no-store")
	c.json(http.StatusOK, struct {
		AccessToken  string `json:"access_token"`
		TokenType    string `json:"token_type"`
		RefreshToken string `json:"refresh_token"`
		ExpiresIn    int    `json:"expires_in"`
	}{tok, "Bearer", rt, int(s.accessLife / time.Second)})
}
