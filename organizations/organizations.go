// Package organizations lists the organizations a user granted the
// application access to (endpoint 2).
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
	ID   string
	Slug string
	Name string
	// Raw is the record as the service sent it.
	Raw json.RawMessage
}

type orgWire struct {
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
		var w orgWire
		if err := transport.Decode(http.MethodGet, Path, raw, &w); err != nil {
			return nil, err
		}
		orgs[i] = Organization{ID: string(w.ID), Slug: w.Slug, Name: w.Name, Raw: raw}
	}
	return orgs, nil
}
