package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/transport"
)

// Project is a project of an organization. The spec shows only the fields
// given at creation; the others are decoded where the service sends them
// under the obvious names, and the whole record is kept in Raw.
type Project struct {
	ID             string
	OrganizationID string
	Name           string
	Slug           string
	SourceLanguage string
	// TargetLanguages is nil when the record does not list them.
	TargetLanguages []Language
	// Raw is the record as the service sent it.
	Raw json.RawMessage
}

// Language is a target language of a project.
type Language struct {
	// Code is the language code, for example "de".
	Code string
	// Name is the display name, when the service gives one.
	Name string
	// Raw is the record as the service sent it.
	Raw json.RawMessage
}

// UnmarshalJSON accepts a language as an object {"code", "name"} (also
// "languageName") or as a bare code string.
func (l *Language) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		*l = Language{Raw: append(json.RawMessage(nil), b...)}
		return json.Unmarshal(b, &l.Code)
	}
	var w struct {
		Code         string `json:"code"`
		Name         string `json:"name"`
		LanguageName string `json:"languageName"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	name := w.Name
	if name == "" {
		name = w.LanguageName
	}
	*l = Language{Code: w.Code, Name: name, Raw: append(json.RawMessage(nil), b...)}
	return nil
}

type projectWire struct {
	ID              transport.FlexString `json:"id"`
	OrganizationID  transport.FlexString `json:"organizationId"`
	Name            string               `json:"name"`
	Slug            string               `json:"slug"`
	SourceLanguage  string               `json:"sourceLanguage"`
	TargetLanguages []Language           `json:"targetLanguages"`
}

func (w *projectWire) project(raw json.RawMessage) *Project {
	return &Project{
		ID:              string(w.ID),
		OrganizationID:  string(w.OrganizationID),
		Name:            w.Name,
		Slug:            w.Slug,
		SourceLanguage:  w.SourceLanguage,
		TargetLanguages: w.TargetLanguages,
		Raw:             raw,
	}
}

// CreateParams are the fields of a new project. All three are required.
type CreateParams struct {
	Name           string `json:"name"`
	Slug           string `json:"slug"`
	SourceLanguage string `json:"sourceLanguage"`
}

// Service calls the project endpoints. Get one from partner.Client.Projects.
type Service struct {
	r    *transport.Runner
	auth transport.TokenSource
}

// New returns a Service that sends requests through r, authorised by the
// grant's installation token. It is meant for package partner.
func New(r *transport.Runner, auth transport.TokenSource) *Service {
	return &Service{r: r, auth: auth}
}

const v1 = "/api/oauth-client/v1/projects"

// List returns the projects of organization orgID (GET
// /api/oauth-client/organizations/<orgID>/projects).
func (s *Service) List(ctx context.Context, orgID string) ([]Project, error) {
	id, err := transport.PathParam("orgID", orgID)
	if err != nil {
		return nil, err
	}
	path := "/api/oauth-client/organizations/" + id + "/projects"
	data, err := s.r.Do(ctx, http.MethodGet, path, s.auth, nil)
	if err != nil {
		return nil, err
	}
	items, err := transport.List(http.MethodGet, path, data, "projects", "data", "items")
	if err != nil {
		return nil, err
	}
	ps := make([]Project, len(items))
	for i, raw := range items {
		var w projectWire
		if err := transport.Decode(http.MethodGet, path, raw, &w); err != nil {
			return nil, err
		}
		ps[i] = *w.project(raw)
	}
	return ps, nil
}

// Create creates a CDN-backed project in the granted organization (POST
// /api/oauth-client/v1/projects). It needs the scope that lets the grant
// create projects; without it the error is a *partner.MissingScopeError.
func (s *Service) Create(ctx context.Context, p CreateParams) (*Project, error) {
	switch {
	case p.Name == "":
		return nil, apierr.ArgumentError("CreateParams.Name", "is empty")
	case p.Slug == "":
		return nil, apierr.ArgumentError("CreateParams.Slug", "is empty")
	case p.SourceLanguage == "":
		return nil, apierr.ArgumentError("CreateParams.SourceLanguage", "is empty")
	}
	data, err := s.r.Do(ctx, http.MethodPost, v1, s.auth, p)
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodPost, v1, data)
}

// Get returns project projectID (GET /api/oauth-client/v1/projects/<id>).
func (s *Service) Get(ctx context.Context, projectID string) (*Project, error) {
	id, err := transport.PathParam("projectID", projectID)
	if err != nil {
		return nil, err
	}
	path := v1 + "/" + id
	data, err := s.r.Do(ctx, http.MethodGet, path, s.auth, nil)
	if err != nil {
		return nil, err
	}
	return decodeProject(http.MethodGet, path, data)
}

func decodeProject(method, path string, data []byte) (*Project, error) {
	var w projectWire
	raw, err := transport.Record(method, path, data, &w, func() bool { return w.ID != "" }, "project", "data")
	if err != nil {
		return nil, err
	}
	return w.project(raw), nil
}

// AddLanguage adds target language code to project projectID (POST
// /api/oauth-client/v1/projects/<id>/languages) and returns it.
func (s *Service) AddLanguage(ctx context.Context, projectID, code string) (*Language, error) {
	id, err := transport.PathParam("projectID", projectID)
	if err != nil {
		return nil, err
	}
	if code == "" {
		return nil, apierr.ArgumentError("code", "is empty")
	}
	path := v1 + "/" + id + "/languages"
	data, err := s.r.Do(ctx, http.MethodPost, path, s.auth, struct {
		Code string `json:"code"`
	}{code})
	if err != nil {
		return nil, err
	}
	var l Language
	if _, err := transport.Record(http.MethodPost, path, data, &l, func() bool { return l.Code != "" }, "language", "data"); err != nil {
		return nil, err
	}
	if l.Code == "" {
		l.Code = code // the spec does not show the answer; the request said it
	}
	return &l, nil
}
