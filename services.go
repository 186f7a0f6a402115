package partner

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
	"github.com/locsvc/partner-go/organizations"
	"github.com/locsvc/partner-go/projects"
)

// service is what every resource service holds: the client it belongs to.
// The services are defined on it (go-github's pattern), so that they need
// no exported constructor.
type service struct{ c *Client }

// OrganizationsService lists the organizations of the grant (GET
// /api/oauth-client/organizations). Get it from Client.Organizations.
type OrganizationsService service

// ProjectsService lists, creates and reads projects and adds target
// languages (/api/oauth-client/organizations/<id>/projects and
// /api/oauth-client/v1/projects). Get it from Client.Projects.
type ProjectsService service

const orgsPath = "/api/oauth-client/organizations"

// List returns the organizations the user granted access to (GET
// /api/oauth-client/organizations). It needs the org:read scope.
func (s *OrganizationsService) List(ctx context.Context) ([]organizations.Organization, error) {
	c := s.c
	data, err := c.do(ctx, transport.Request{Method: http.MethodGet, Path: orgsPath, Auth: c.install})
	if err != nil {
		return nil, err
	}
	full := c.fullPath(orgsPath)
	items, err := transport.List(http.MethodGet, full, data, "organizations", "data", "items")
	if err != nil {
		return nil, err
	}
	orgs := make([]organizations.Organization, len(items))
	for i, raw := range items {
		o := &orgs[i]
		loose, err := transport.Tolerant[orgLoose](http.MethodGet, full, raw, o)
		if err != nil {
			return nil, err
		}
		if loose != nil {
			*o = organizations.Organization{ID: string(loose.ID), Slug: loose.Slug, Name: loose.Name}
		}
		o.Raw = raw
	}
	return orgs, nil
}

// orgLoose accepts an id sent as a number.
type orgLoose struct {
	ID   transport.FlexString `json:"id"`
	Slug string               `json:"slug"`
	Name string               `json:"name"`
}

const projectsV1 = "/api/oauth-client/v1/projects"

// List returns the projects of organization orgID (GET
// /api/oauth-client/organizations/<orgID>/projects). It needs the
// projects:read scope.
func (s *ProjectsService) List(ctx context.Context, orgID string) ([]projects.Project, error) {
	id, err := transport.PathParam("orgID", orgID)
	if err != nil {
		return nil, err
	}
	c := s.c
	path := orgsPath + "/" + id + "/projects"
	data, err := c.do(ctx, transport.Request{Method: http.MethodGet, Path: path, Auth: c.install})
	if err != nil {
		return nil, err
	}
	full := c.fullPath(path)
	items, err := transport.List(http.MethodGet, full, data, "projects", "data", "items")
	if err != nil {
		return nil, err
	}
	ps := make([]projects.Project, len(items))
	for i, raw := range items {
		if err := parseProject(http.MethodGet, full, raw, &ps[i]); err != nil {
			return nil, err
		}
	}
	return ps, nil
}

// Create creates a CDN-backed project in the granted organization (POST
// /api/oauth-client/v1/projects). It needs the projects:write scope (off by
// default at consent); without it the error is a *MissingScopeError. A slug
// already in use is an *APIError matching ErrConflict.
func (s *ProjectsService) Create(ctx context.Context, p projects.NewProject) (*projects.Project, error) {
	switch {
	case p.Name == "":
		return nil, apierr.ArgumentError("NewProject.Name", "is empty")
	case p.Slug == "":
		return nil, apierr.ArgumentError("NewProject.Slug", "is empty")
	case p.SourceLanguage == "":
		return nil, apierr.ArgumentError("NewProject.SourceLanguage", "is empty")
	}
	c := s.c
	data, err := c.do(ctx, transport.Request{Method: http.MethodPost, Path: projectsV1, Auth: c.install, Body: p})
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodPost, c.fullPath(projectsV1), data)
}

// Get returns project projectID (GET /api/oauth-client/v1/projects/<id>).
// It needs the projects:read scope.
func (s *ProjectsService) Get(ctx context.Context, projectID string) (*projects.Project, error) {
	id, err := transport.PathParam("projectID", projectID)
	if err != nil {
		return nil, err
	}
	c := s.c
	path := projectsV1 + "/" + id
	data, err := c.do(ctx, transport.Request{Method: http.MethodGet, Path: path, Auth: c.install})
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodGet, c.fullPath(path), data)
}

// AddLanguage adds target language code to project projectID (POST
// /api/oauth-client/v1/projects/<id>/languages) and returns it. It needs
// the projects:write scope.
func (s *ProjectsService) AddLanguage(ctx context.Context, projectID, code string) (*projects.Language, error) {
	id, err := transport.PathParam("projectID", projectID)
	if err != nil {
		return nil, err
	}
	if code == "" {
		return nil, apierr.ArgumentError("code", "is empty")
	}
	c := s.c
	path := projectsV1 + "/" + id + "/languages"
	data, err := c.do(ctx, transport.Request{Method: http.MethodPost, Path: path, Auth: c.install, Body: struct {
		Code string `json:"code"`
	}{code}})
	if err != nil {
		return nil, err
	}
	full := c.fullPath(path)
	var l looseLanguage
	if err := transport.Decode(http.MethodPost, full, data, &l); err != nil {
		return nil, err
	}
	raw := json.RawMessage(data)
	if l.Code == "" {
		if inner := transport.Envelope(data, "language", "data"); inner != nil {
			if err := transport.Decode(http.MethodPost, full, inner, &l); err != nil {
				return nil, err
			}
			raw = inner
		}
	}
	lang := l.language()
	lang.Raw = raw
	if lang.Code == "" {
		lang.Code = code // an answer without the code: the request said it
	}
	return &lang, nil
}

// decodeProject decodes a single-project answer, unwrapping an envelope
// such as {"project": {...}} when the top level has no id.
func decodeProject(method, path string, data []byte) (*projects.Project, error) {
	p := new(projects.Project)
	if err := parseProject(method, path, data, p); err != nil {
		return nil, err
	}
	if p.ID == "" {
		if inner := transport.Envelope(data, "project", "data"); inner != nil {
			if err := parseProject(method, path, inner, p); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// languageWire accepts both names the display name may come under;
// looseLanguage and looseProject accept the variants a plain Project does
// not (ids as numbers, languages as bare codes).
type languageWire struct {
	Code         string `json:"code"`
	Name         string `json:"name"`
	LanguageName string `json:"languageName"`
}

func (w *languageWire) language() projects.Language {
	name := w.Name
	if name == "" {
		name = w.LanguageName
	}
	return projects.Language{Code: w.Code, Name: name}
}

type looseLanguage struct{ languageWire }

// UnmarshalJSON accepts a language object or a bare code string.
func (l *looseLanguage) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		l.languageWire = languageWire{}
		return json.Unmarshal(b, &l.Code)
	}
	return json.Unmarshal(b, &l.languageWire)
}

type looseProject struct {
	ID              transport.FlexString `json:"id"`
	OrganizationID  transport.FlexString `json:"organizationId"`
	Name            string               `json:"name"`
	Slug            string               `json:"slug"`
	SourceLanguage  string               `json:"sourceLanguage"`
	TargetLanguages []looseLanguage      `json:"targetLanguages"`
}

// parseProject decodes one project record into p. The usual record
// decodes straight into the Project; a variant goes through looseProject.
func parseProject(method, path string, data []byte, p *projects.Project) error {
	*p = projects.Project{}
	lp, err := transport.Tolerant[looseProject](method, path, data, p)
	if err != nil {
		return err
	}
	if lp == nil && missingNames(p.TargetLanguages) && bytes.Contains(data, []byte(`"languageName"`)) {
		// Display names under the events' field name.
		lp = new(looseProject)
		if err := transport.Decode(method, path, data, lp); err != nil {
			return err
		}
	}
	if lp != nil {
		*p = projects.Project{ID: string(lp.ID), OrganizationID: string(lp.OrganizationID),
			Name: lp.Name, Slug: lp.Slug, SourceLanguage: lp.SourceLanguage}
		if lp.TargetLanguages != nil {
			p.TargetLanguages = make([]projects.Language, len(lp.TargetLanguages))
			for i := range lp.TargetLanguages {
				p.TargetLanguages[i] = lp.TargetLanguages[i].language()
			}
		}
	}
	p.Raw = data
	return nil
}

func missingNames(ls []projects.Language) bool {
	for _, l := range ls {
		if l.Name == "" {
			return true
		}
	}
	return false
}
