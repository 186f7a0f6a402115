package partner

import (
	"bytes"
	"cmp"
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
	data, err := c.do(ctx, transport.Request{Method: http.MethodGet, Path: orgsPath, Auth: c.install, Setting: c.sh.name + ".BaseURL"})
	if err != nil {
		return nil, err
	}
	full := c.fullPath(orgsPath)
	items, err := decodeList(http.MethodGet, full, data, "organizations", "data", "items")
	if err != nil {
		return nil, err
	}
	orgs := make([]organizations.Organization, len(items))
	for i, raw := range items {
		var w struct {
			ID   flexString `json:"id"`
			Slug string     `json:"slug"`
			Name string     `json:"name"`
		}
		if err := decode(http.MethodGet, full, raw, &w); err != nil {
			return nil, err
		}
		orgs[i] = organizations.Organization{ID: string(w.ID), Slug: w.Slug, Name: w.Name, Raw: raw}
	}
	return orgs, nil
}

const projectsV1 = "/api/oauth-client/v1/projects"

// List returns the projects of organization orgID (GET
// /api/oauth-client/organizations/<orgID>/projects). It needs the
// projects:read scope.
func (s *ProjectsService) List(ctx context.Context, orgID string) ([]projects.Project, error) {
	id, err := pathParam("orgID", orgID)
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
	items, err := decodeList(http.MethodGet, full, data, "projects", "data", "items")
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
	data, err := c.do(ctx, transport.Request{Method: http.MethodPost, Path: projectsV1, Auth: c.install, Body: p, Setting: c.sh.name + ".BaseURL"})
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodPost, c.fullPath(projectsV1), data)
}

// Get returns project projectID (GET /api/oauth-client/v1/projects/<id>).
// It needs the projects:read scope.
func (s *ProjectsService) Get(ctx context.Context, projectID string) (*projects.Project, error) {
	id, err := pathParam("projectID", projectID)
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
	id, err := pathParam("projectID", projectID)
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
	var l languageWire
	if err := decode(http.MethodPost, full, data, &l); err != nil {
		return nil, err
	}
	raw := json.RawMessage(data)
	if l.Code == "" {
		if inner := envelope(data, "language", "data"); inner != nil {
			if err := decode(http.MethodPost, full, inner, &l); err != nil {
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
		if inner := envelope(data, "project", "data"); inner != nil {
			if err := parseProject(method, path, inner, p); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}

// languageWire is a target language: an object, with its display name
// under either of two names, or a bare code.
type languageWire struct {
	Code         string `json:"code"`
	Name         string `json:"name"`
	LanguageName string `json:"languageName"`
}

// UnmarshalJSON accepts a language object or a bare code string.
func (l *languageWire) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*l = languageWire{}
		return json.Unmarshal(b, &l.Code)
	}
	type plain languageWire
	return json.Unmarshal(b, (*plain)(l))
}

func (w *languageWire) language() projects.Language {
	return projects.Language{Code: w.Code, Name: cmp.Or(w.Name, w.LanguageName)}
}

// parseProject decodes one project record into p, accepting ids sent as
// numbers and languages sent as bare codes.
func parseProject(method, path string, data []byte, p *projects.Project) error {
	var w struct {
		ID              flexString     `json:"id"`
		OrganizationID  flexString     `json:"organizationId"`
		Name            string         `json:"name"`
		Slug            string         `json:"slug"`
		SourceLanguage  string         `json:"sourceLanguage"`
		TargetLanguages []languageWire `json:"targetLanguages"`
	}
	if err := decode(method, path, data, &w); err != nil {
		return err
	}
	*p = projects.Project{ID: string(w.ID), OrganizationID: string(w.OrganizationID),
		Name: w.Name, Slug: w.Slug, SourceLanguage: w.SourceLanguage, Raw: data}
	if w.TargetLanguages != nil {
		p.TargetLanguages = make([]projects.Language, len(w.TargetLanguages))
		for i := range w.TargetLanguages {
			p.TargetLanguages[i] = w.TargetLanguages[i].language()
		}
	}
	return nil
}
