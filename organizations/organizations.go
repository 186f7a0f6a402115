package organizations

import (
	"encoding/json"
	"fmt"
)

// Organization is an organization the grant covers. The record's fields
// are not fixed: the obvious ones are decoded and the whole record is kept
// in Raw.
type Organization struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// Raw is the record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// String describes the organization by id, slug and name; Raw is left out.
func (o Organization) String() string {
	return fmt.Sprintf("organizations.Organization{ID: %q, Slug: %q, Name: %q}", o.ID, o.Slug, o.Name)
}
