package partnertest

import (
	"crypto/rand"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	partner "github.com/locsvc/partner-go"
)

// The scopes the service documents: package partner's Scope constants.
// The resource endpoints need these:
//
//	the user's identity (GET .../me)        none
//	list organizations                      ScopeOrgRead
//	list projects, get a project            ScopeProjectsRead
//	create a project, add a language        ScopeProjectsWrite
//	mint an installation token              none
//
// The translation tools on the MCP listener need the scopes the service
// documents for them; see Server.MCPURL.
const (
	ScopeOrgRead             = partner.ScopeOrgRead
	ScopeProjectsRead        = partner.ScopeProjectsRead
	ScopeProjectsWrite       = partner.ScopeProjectsWrite
	ScopeKeysRead            = partner.ScopeKeysRead
	ScopeKeysWrite           = partner.ScopeKeysWrite
	ScopeTranslationsRead    = partner.ScopeTranslationsRead
	ScopeTranslationsWrite   = partner.ScopeTranslationsWrite
	ScopeTranslationsPublish = partner.ScopeTranslationsPublish
	ScopeContentRead         = partner.ScopeContentRead
	ScopeContentWrite        = partner.ScopeContentWrite
	ScopeContentPublish      = partner.ScopeContentPublish
	ScopeGlossaryRead        = partner.ScopeGlossaryRead
	ScopeGlossaryWrite       = partner.ScopeGlossaryWrite
)

// AllScopes returns every scope the service documents, in the order of its
// table. NewGrant grants them all unless WithScopes says otherwise.
func AllScopes() []string {
	return []string{
		ScopeOrgRead, ScopeProjectsRead, ScopeProjectsWrite,
		ScopeKeysRead, ScopeKeysWrite,
		ScopeTranslationsRead, ScopeTranslationsWrite, ScopeTranslationsPublish,
		ScopeContentRead, ScopeContentWrite, ScopeContentPublish,
		ScopeGlossaryRead, ScopeGlossaryWrite,
	}
}

// DefaultScopes returns the scopes the service's consent screen turns on
// by default: all of AllScopes except projects:write,
// translations:publish, content:publish and glossary:write, which a user
// must opt in to. Pass them to WithScopes to test an application against a
// user who accepted the defaults.
func DefaultScopes() []string {
	return []string{
		ScopeOrgRead, ScopeProjectsRead,
		ScopeKeysRead, ScopeKeysWrite,
		ScopeTranslationsRead, ScopeTranslationsWrite,
		ScopeContentRead, ScopeContentWrite,
		ScopeGlossaryRead,
	}
}

// A User is the identity a grant acts for, as GET /me returns it.
type User struct {
	ID      string  `json:"id"`
	Email   string  `json:"email"`
	Name    string  `json:"name"`
	Account Account `json:"account"`
}

// An Account is the account a User belongs to.
type Account struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// An Organization owns projects; GET /organizations lists those a grant may use.
type Organization struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// A Project is a project as the project endpoints return it.
type Project struct {
	ID              string     `json:"id"`
	OrganizationID  string     `json:"organizationId"`
	Name            string     `json:"name"`
	Slug            string     `json:"slug"`
	SourceLanguage  string     `json:"sourceLanguage"`
	CDN             bool       `json:"cdn"`
	TargetLanguages []Language `json:"targetLanguages"`
	CreatedAt       time.Time  `json:"createdAt"`
}

// A Language is a project's target language, as POST .../languages returns it.
type Language struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// A Grant is a user's connection of the partner application, as a test sees
// it right after the code exchange.
type Grant struct {
	// ID is the grant id, for the mint's path.
	ID string
	// RefreshToken is what the code exchange would have returned; trade it
	// for an access token at the token endpoint.
	RefreshToken string
	// User is who granted access; GET /me returns it.
	User User
	// Organizations are the organizations granted, in order. POST /v1/projects
	// creates projects in the first one.
	Organizations []Organization
	// Scopes are the scopes granted. An installation token carries the
	// grant's scopes as they were when it was minted.
	Scopes []string
	// Revoked reports whether the grant is revoked: by Revoke, by the
	// partner's DELETE, or by reuse detection. Only Server.Grant reads it
	// after the fact; NewGrant and Reconnect return a live grant.
	Revoked bool
}

// A GrantOption configures a grant made by NewGrant.
type GrantOption func(*grantConfig)

type grantConfig struct {
	scopes []string
	orgs   []Organization
	set    bool // orgs given, even if none
}

// WithScopes grants exactly these scopes instead of AllScopes (see also
// DefaultScopes). With none, the grant can call only GET /me and the mint.
func WithScopes(scopes ...string) GrantOption {
	return func(c *grantConfig) { c.scopes = slices.Clone(scopes) }
}

// WithOrganizations grants these organizations, made earlier with
// AddOrganization or NewGrant, instead of one new organization. With none,
// the grant has no organization and cannot create projects.
func WithOrganizations(orgs ...Organization) GrantOption {
	return func(c *grantConfig) { c.orgs, c.set = slices.Clone(orgs), true }
}

// Counts are numbers of what the endpoints did, over all grants
// (Server.Counts) or for one (Server.GrantCounts). Refused attempts are not
// counted unless said below; find them in the request log. Tokens made by
// IssueAccessToken and IssueInstallationToken are not counted.
type Counts struct {
	// Refreshes counts access tokens issued for a refresh token, and
	// Mints installation tokens issued by the mint.
	Refreshes int
	Mints     int
	// Exchanges counts grants issued or renewed by the code exchange: one
	// per organization of the consent, so a grant's GrantCounts show 1
	// for each exchange that gave it tokens.
	Exchanges int
	// ReusedRefreshTokens counts refresh tokens sent again after rotation
	// replaced them (WithRefreshRotation), and ReusedCodes authorization
	// codes sent again after their exchange. Both are refused with 400
	// invalid_grant, and both revoke the grant.
	ReusedRefreshTokens int
	ReusedCodes         int
	// ReuseRevocations counts grants revoked because a rotated refresh
	// token or a used code was sent again (for one grant: 0 or 1).
	ReuseRevocations int
	// PartnerRevocations counts grants revoked by the partner's DELETE
	// /api/oauth-client/installations/<grant_id> (for one grant: 0 or 1).
	PartnerRevocations int
}

// state is everything a Server remembers. It is guarded by Server.mu.
type state struct {
	seq        map[string]int // last id number per prefix
	grants     map[string]*grant
	refresh    map[string]*grant // by refresh token
	tokens     map[string]*token // access and installation tokens
	orgs       map[string]*org
	projects   map[string]*Project
	counts     Counts
	faults     []*faultState
	log        []Request // ring of at most logLimit
	logNext    int       // where the next entry goes once log is full
	webhooks   map[string]*WebhookConfig
	events     map[string]*event
	deliveries []Delivery
	windows    map[string]*rateWindow // by installation token, with WithRateLimit

	redirectURLs map[string]bool         // registered redirect URIs, byte for byte
	consent      Consent                 // what the next consents grant (SetConsent)
	defaultUser  *User                   // who consents unless Consent.User says otherwise
	firstOrgs    map[string]Organization // each consenting user's first organization
	codes        map[string]*authCode    // authorization codes, used ones included
	rotated      map[string]*grant       // refresh tokens replaced by rotation

	tprojects    map[string]*tproject // translation state by project id
	pendingFires []firing             // webhooks of completed sync jobs, not yet sent
	cprojects    map[string]*cproject // content CMS state by project id
	contentClock time.Time            // the last content mutation's time
}

type grant struct {
	Grant
	scopes  map[string]bool
	revoked bool
	counts  Counts
}

type token struct {
	kind    TokenKind
	grant   *grant
	expires time.Time
	scopes  map[string]bool // an installation token's, fixed at its mint
}

type org struct {
	Organization
	projects []*Project // in creation order
}

func newState() state {
	return state{
		seq:      map[string]int{},
		grants:   map[string]*grant{},
		refresh:  map[string]*grant{},
		tokens:   map[string]*token{},
		orgs:     map[string]*org{},
		projects: map[string]*Project{},
		webhooks: map[string]*WebhookConfig{},
		events:   map[string]*event{},
		windows:  map[string]*rateWindow{},

		redirectURLs: map[string]bool{},
		firstOrgs:    map[string]Organization{},
		codes:        map[string]*authCode{},
		rotated:      map[string]*grant{},

		tprojects: map[string]*tproject{},
		cprojects: map[string]*cproject{},
	}
}

// nextID returns prefix + "_" + the next number for that prefix: ids are
// predictable within one Server.
func (st *state) nextID(prefix string) (id string, n int) {
	st.seq[prefix]++
	n = st.seq[prefix]
	return prefix + "_" + strconv.Itoa(n), n
}

// secret returns prefix followed by 26 random base32 characters.
func secret(prefix string) string { return prefix + rand.Text() }

// AddOrganization adds an organization with this slug and name (made up
// when empty) and returns it. Grant it with WithOrganizations.
func (s *Server) AddOrganization(slug, name string) Organization {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addOrgLocked(slug, name)
}

func (s *Server) addOrgLocked(slug, name string) Organization {
	id, n := s.nextID("org")
	if slug == "" {
		slug = "org-" + strconv.Itoa(n)
	}
	if name == "" {
		name = "Organization " + strconv.Itoa(n)
	}
	o := &org{Organization: Organization{ID: id, Slug: slug, Name: name}}
	s.orgs[id] = o
	return o.Organization
}

// NewGrant makes a grant, as if a user had just connected the application,
// and returns it. By default it has AllScopes and one new organization.
func (s *Server) NewGrant(opts ...GrantOption) Grant {
	cfg := grantConfig{scopes: AllScopes()}
	for _, o := range opts {
		o(&cfg)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !cfg.set {
		cfg.orgs = []Organization{s.addOrgLocked("", "")}
	}
	for _, o := range cfg.orgs {
		if s.orgs[o.ID] == nil {
			panic(fmt.Sprintf("partnertest: NewGrant: unknown organization %q", o.ID))
		}
	}
	id, _ := s.nextID("grant")
	g := &grant{
		Grant: Grant{
			ID:            id,
			RefreshToken:  secret("pt_rt_"),
			User:          s.newUserLocked(),
			Organizations: cfg.orgs,
		},
	}
	g.setScopes(cfg.scopes)
	s.grants[id] = g
	s.refresh[g.RefreshToken] = g
	return g.public()
}

// newUserLocked makes up a user with the next usr_N id.
func (s *Server) newUserLocked() User {
	uid, n := s.nextID("usr")
	return User{
		ID:      uid,
		Email:   "user" + strconv.Itoa(n) + "@example.com",
		Name:    "User " + strconv.Itoa(n),
		Account: Account{ID: "acc_" + strconv.Itoa(n), Name: "Account " + strconv.Itoa(n)},
	}
}

func (g *grant) setScopes(scopes []string) {
	g.Scopes = slices.Clone(scopes)
	g.scopes = make(map[string]bool, len(scopes))
	for _, sc := range scopes {
		g.scopes[sc] = true
	}
}

func (g *grant) public() Grant {
	p := g.Grant
	p.Revoked = g.revoked
	p.Organizations = slices.Clone(p.Organizations)
	p.Scopes = slices.Clone(p.Scopes)
	return p
}

func (s *Server) grantLocked(method, id string) *grant {
	g := s.grants[id]
	if g == nil {
		panic(fmt.Sprintf("partnertest: %s: unknown grant %q", method, id))
	}
	return g
}

// Revoke revokes a grant, as the user can at any time. From then on every
// API call with its tokens fails with 410 grant_revoked, and refreshing its
// refresh token fails with 400 invalid_grant. Only Reconnect brings it
// back; or make a new grant.
func (s *Server) Revoke(grantID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grantLocked("Revoke", grantID).revoked = true
}

// Reconnect is the user connecting the application again on the same grant,
// after a revocation or to change its scopes (WithScopes; other options are
// ignored). The grant works with a new refresh token, returned in the
// Grant; its old refresh token is refused from then on (400 invalid_grant),
// and so are those WithRefreshRotation retired, without reuse detection.
//
// Tokens issued before are handled as the service does. After a
// revocation they stay refused (401 invalid_token). On a grant that was not
// revoked they keep working until they expire, and an installation token
// keeps the scopes it was minted with: only installation tokens minted
// after Reconnect carry the new scopes. So an application that keeps using
// an installation token it cached before the user widened the scopes still
// gets 403 missing_scope; it must drop that token when it gets the new
// refresh token, and mint a new one.
//
// Use it to test how an application recovers: Client.SetToken, or a Pool
// whose Store gets the new token.
func (s *Server) Reconnect(grantID string, opts ...GrantOption) Grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	g := s.grantLocked("Reconnect", grantID)
	cfg := grantConfig{scopes: g.Scopes}
	for _, o := range opts {
		o(&cfg)
	}
	g.setScopes(cfg.scopes)
	if g.revoked {
		for v, t := range s.tokens {
			if t.grant == g {
				delete(s.tokens, v)
			}
		}
	}
	g.revoked = false
	s.newRefreshTokenLocked(g)
	return g.public()
}

// SetScopes replaces a grant's scopes, as a user's new consent does. Like
// the service, it binds scopes per installation token: tokens minted
// before keep the scopes they were minted with until they expire, and only
// tokens minted after SetScopes carry the new ones. To test a narrowed
// scope on a token in use, call SetScopes and then let the token expire
// (Advance by InstallationTokenLifetime), or use WithScopes on NewGrant.
func (s *Server) SetScopes(grantID string, scopes ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grantLocked("SetScopes", grantID).setScopes(scopes)
}

// IssueAccessToken returns a new access token for the grant, as the token
// endpoint would, without a request. It is not counted in Counts.
func (s *Server) IssueAccessToken(grantID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issueLocked(s.grantLocked("IssueAccessToken", grantID), TokenAccess, s.Now())
}

// IssueInstallationToken returns a new installation token for the grant,
// as the mint would, without a request. It is not counted in Counts.
func (s *Server) IssueInstallationToken(grantID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.issueLocked(s.grantLocked("IssueInstallationToken", grantID), TokenInstallation, s.Now())
}

func (s *Server) issueLocked(g *grant, kind TokenKind, now time.Time) string {
	var v string
	t := &token{kind: kind, grant: g}
	switch kind {
	case TokenAccess:
		v, t.expires = secret("pt_at_"), now.Add(s.accessLife)
	case TokenInstallation:
		v, t.expires = secret("svc_oat_"), now.Add(s.installLife)
		t.scopes = maps.Clone(g.scopes)
	default:
		panic("partnertest: cannot issue a token of kind " + kind.String())
	}
	s.tokens[v] = t
	return v
}

// Counts returns how many tokens the endpoints issued, over all grants.
func (s *Server) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts
}

// GrantCounts returns how many tokens the endpoints issued for one grant.
func (s *Server) GrantCounts(grantID string) Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.grantLocked("GrantCounts", grantID).counts
}

// AddProject adds a project to an organization, as if made in the
// dashboard, and returns it. ID, OrganizationID and CreatedAt are filled in
// (CreatedAt only if zero); the other fields are kept as given. It panics
// if the organization is unknown or already has a project with this slug.
func (s *Server) AddProject(orgID string, p Project) Project {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[orgID]
	if o == nil {
		panic(fmt.Sprintf("partnertest: AddProject: unknown organization %q", orgID))
	}
	if o.hasSlug(p.Slug) {
		panic(fmt.Sprintf("partnertest: AddProject: organization %q already has a project with slug %q", orgID, p.Slug))
	}
	if p.CreatedAt.IsZero() {
		p.CreatedAt = s.Now()
	}
	return s.addProjectLocked(o, p).clone()
}

func (s *Server) addProjectLocked(o *org, p Project) *Project {
	p.ID, _ = s.nextID("prj")
	p.OrganizationID = o.ID
	p.CreatedAt = p.CreatedAt.UTC().Truncate(time.Millisecond)
	p.TargetLanguages = slices.Clone(p.TargetLanguages)
	if p.TargetLanguages == nil {
		p.TargetLanguages = []Language{}
	}
	s.projects[p.ID] = &p
	o.projects = append(o.projects, &p)
	return &p
}

func (o *org) hasSlug(slug string) bool {
	for _, p := range o.projects {
		if p.Slug == slug {
			return true
		}
	}
	return false
}

func (p *Project) clone() Project {
	c := *p
	c.TargetLanguages = slices.Clone(p.TargetLanguages)
	return c
}

// Project returns the project with this id, and whether there is one.
func (s *Server) Project(id string) (Project, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[id]
	if p == nil {
		return Project{}, false
	}
	return p.clone(), true
}

// Projects returns an organization's projects in the order they were made.
// It panics if the organization is unknown.
func (s *Server) Projects(orgID string) []Project {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orgs[orgID]
	if o == nil {
		panic(fmt.Sprintf("partnertest: Projects: unknown organization %q", orgID))
	}
	ps := make([]Project, len(o.projects))
	for i, p := range o.projects {
		ps[i] = p.clone()
	}
	return ps
}

// languageName is the display name of a language code, or the code itself
// for codes the fake does not know.
func languageName(code string) string {
	switch code {
	case "ar":
		return "Arabic"
	case "cs":
		return "Czech"
	case "da":
		return "Danish"
	case "de":
		return "German"
	case "el":
		return "Greek"
	case "en":
		return "English"
	case "es":
		return "Spanish"
	case "fi":
		return "Finnish"
	case "fr":
		return "French"
	case "he":
		return "Hebrew"
	case "hi":
		return "Hindi"
	case "hu":
		return "Hungarian"
	case "id":
		return "Indonesian"
	case "it":
		return "Italian"
	case "ja":
		return "Japanese"
	case "ko":
		return "Korean"
	case "nl":
		return "Dutch"
	case "no", "nb":
		return "Norwegian"
	case "pl":
		return "Polish"
	case "pt":
		return "Portuguese"
	case "pt-BR":
		return "Portuguese (Brazil)"
	case "ro":
		return "Romanian"
	case "ru":
		return "Russian"
	case "sv":
		return "Swedish"
	case "th":
		return "Thai"
	case "tr":
		return "Turkish"
	case "uk":
		return "Ukrainian"
	case "vi":
		return "Vietnamese"
	case "zh":
		return "Chinese"
	case "zh-CN":
		return "Chinese (Simplified)"
	case "zh-TW":
		return "Chinese (Traditional)"
	}
	return code
}
