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
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Name           string `json:"name"`
	Slug           string `json:"slug"`
	SourceLanguage string `json:"sourceLanguage"`
	// TargetLanguages is nil when the record does not list them. The
	// service may list them as objects or as bare codes; both decode.
	TargetLanguages []Language `json:"targetLanguages"`
	// Raw is the record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// Language is a target language of a project.
type Language struct {
	// Code is the language code, for example "de".
	Code string `json:"code"`
	// Name is the display name, when the service gives one.
	Name string `json:"name"`
	// Raw is the record as the service sent it, for the language
	// AddLanguage returns; in Project.TargetLanguages it is nil (the
	// project's Raw holds the list).
	Raw json.RawMessage `json:"-"`
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
		if err := parseProject(http.MethodGet, path, raw, &ps[i]); err != nil {
			return nil, err
		}
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
	var l looseLanguage
	if err := transport.Decode(http.MethodPost, path, data, &l); err != nil {
		return nil, err
	}
	raw := json.RawMessage(data)
	if l.Code == "" {
		if inner := transport.Envelope(data, "language", "data"); inner != nil {
			if err := transport.Decode(http.MethodPost, path, inner, &l); err != nil {
				return nil, err
			}
			raw = inner
		}
	}
	lang := l.language()
	lang.Raw = raw
	if lang.Code == "" {
		lang.Code = code // the spec does not show the answer; the request said it
	}
	return &lang, nil
}

// decodeProject decodes a single-project answer, unwrapping an envelope
// such as {"project": {...}} when the top level has no id.
func decodeProject(method, path string, data []byte) (*Project, error) {
	p := new(Project)
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

func (w *languageWire) language() Language {
	name := w.Name
	if name == "" {
		name = w.LanguageName
	}
	return Language{Code: w.Code, Name: name}
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
func parseProject(method, path string, data []byte, p *Project) error {
	*p = Project{}
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
		*p = Project{ID: string(lp.ID), OrganizationID: string(lp.OrganizationID),
			Name: lp.Name, Slug: lp.Slug, SourceLanguage: lp.SourceLanguage}
		if lp.TargetLanguages != nil {
			p.TargetLanguages = make([]Language, len(lp.TargetLanguages))
			for i := range lp.TargetLanguages {
				p.TargetLanguages[i] = lp.TargetLanguages[i].language()
			}
		}
	}
	p.Raw = data
	return nil
}

func missingNames(ls []Language) bool {
	for _, l := range ls {
		if l.Name == "" {
			return true
		}
	}
	return false
}
