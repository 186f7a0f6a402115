package partner

import (
	"cmp"
	"context"
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

// OrganizationsService lists the grant's organizations. Get it from Client.Organizations.
type OrganizationsService service

// ProjectsService lists, creates and reads projects and adds target
// languages. Get it from Client.Projects.
type ProjectsService service

const orgsPath = "/api/oauth-client/organizations"

// List returns the organizations the user granted access to (GET
// /api/oauth-client/organizations). It needs the org:read scope.
func (s *OrganizationsService) List(ctx context.Context) ([]organizations.Organization, error) {
	data, err := s.c.do(ctx, transport.Request{Method: http.MethodGet, Path: orgsPath, Auth: s.c.install, Setting: s.c.sh.baseSetting, Op: "Organizations.List"})
	if err != nil {
		return nil, err
	}
	full := s.c.fullPath(orgsPath)
	items, err := decodeList(http.MethodGet, full, data, "organizations", "data", "items")
	if err != nil {
		return nil, err
	}
	orgs := make([]organizations.Organization, len(items))
	for i, raw := range items {
		var w struct {
			organizations.Organization
			ID flexString `json:"id"` // also a number
		}
		if err := decode(http.MethodGet, full, raw, &w); err != nil {
			return nil, err
		}
		w.Organization.ID, w.Organization.Raw = string(w.ID), raw
		orgs[i] = w.Organization
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
	path := orgsPath + "/" + id + "/projects"
	data, err := s.c.do(ctx, transport.Request{Method: http.MethodGet, Path: path, Auth: s.c.install, Op: "Projects.List"})
	if err != nil {
		return nil, err
	}
	full := s.c.fullPath(path)
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
	for _, f := range [...]struct{ name, v string }{{"Name", p.Name}, {"Slug", p.Slug}, {"SourceLanguage", p.SourceLanguage}} {
		if f.v == "" {
			return nil, apierr.ArgumentError("NewProject."+f.name, "is empty")
		}
	}
	data, err := s.c.do(ctx, transport.Request{Method: http.MethodPost, Path: projectsV1, Auth: s.c.install, Body: p, Setting: s.c.sh.baseSetting, Op: "Projects.Create"})
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodPost, s.c.fullPath(projectsV1), data)
}

// Get returns project projectID (GET /api/oauth-client/v1/projects/<id>).
// It needs the projects:read scope.
func (s *ProjectsService) Get(ctx context.Context, projectID string) (*projects.Project, error) {
	id, err := pathParam("projectID", projectID)
	if err != nil {
		return nil, err
	}
	path := projectsV1 + "/" + id
	data, err := s.c.do(ctx, transport.Request{Method: http.MethodGet, Path: path, Auth: s.c.install, Op: "Projects.Get", Project: projectID})
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodGet, s.c.fullPath(path), data)
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
	path := projectsV1 + "/" + id + "/languages"
	data, err := s.c.do(ctx, transport.Request{Method: http.MethodPost, Path: path, Auth: s.c.install, Body: map[string]string{"code": code}, Op: "Projects.AddLanguage", Project: projectID})
	if err != nil {
		return nil, err
	}
	full := s.c.fullPath(path)
	var lang projects.Language
	if err := decode(http.MethodPost, full, data, &lang); err != nil {
		return nil, err
	}
	lang.Raw = data
	if lang.Code == "" {
		if inner := envelope(data, "language", "data"); inner != nil {
			outer := lang.Name
			if err := decode(http.MethodPost, full, inner, &lang); err != nil {
				return nil, err
			}
			lang.Name, lang.Raw = cmp.Or(lang.Name, outer), inner
		}
	}
	lang.Code = cmp.Or(lang.Code, code) // an answer without the code: the request said it
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

// parseProject decodes one project record into p, accepting ids sent as
// numbers.
func parseProject(method, path string, data []byte, p *projects.Project) error {
	var w struct {
		projects.Project
		ID             flexString `json:"id"`
		OrganizationID flexString `json:"organizationId"`
	}
	if err := decode(method, path, data, &w); err != nil {
		return err
	}
	*p = w.Project
	p.ID, p.OrganizationID, p.Raw = string(w.ID), string(w.OrganizationID), data
	return nil
}
