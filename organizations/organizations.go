package organizations

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/locsvc/partner-go/internal/transport"
)

// Organization is an organization the grant covers. The spec does not show
// the record's fields: the obvious ones are decoded and the whole record is
// kept in Raw.
type Organization struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// Raw is the record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// orgLoose accepts an id sent as a number.
type orgLoose struct {
	ID   transport.FlexString `json:"id"`
	Slug string               `json:"slug"`
	Name string               `json:"name"`
}

// Service calls the organization endpoints. Get one from
// partner.Client.Organizations.
type Service struct {
	r    *transport.Runner
	auth transport.TokenSource
}

// New returns a Service that sends requests through r, authorised by the
// grant's installation token. It is meant for package partner.
func New(r *transport.Runner, auth transport.TokenSource) *Service {
	return &Service{r: r, auth: auth}
}

// Path is endpoint 2's path.
const Path = "/api/oauth-client/organizations"

// List returns the organizations the user granted access to (GET
// /api/oauth-client/organizations).
func (s *Service) List(ctx context.Context) ([]Organization, error) {
	data, err := s.r.Do(ctx, http.MethodGet, Path, s.auth, nil)
	if err != nil {
		return nil, err
	}
	items, err := transport.List(http.MethodGet, Path, data, "organizations", "data", "items")
	if err != nil {
		return nil, err
	}
	orgs := make([]Organization, len(items))
	for i, raw := range items {
		o := &orgs[i]
		loose, err := transport.Tolerant[orgLoose](http.MethodGet, Path, raw, o)
		if err != nil {
			return nil, err
		}
		if loose != nil {
			*o = Organization{ID: string(loose.ID), Slug: loose.Slug, Name: loose.Name}
		}
		o.Raw = raw
	}
	return orgs, nil
}
