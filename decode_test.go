package partner_test

// Decoding answers into records: the shapes the spec leaves open.

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/organizations"
	"github.com/locsvc/partner-go/projects"
)

// TestDecodeVariants: list and record answers in the shapes the spec
// leaves open decode to the same values, unknown fields are ignored and
// Raw keeps the record.
func TestDecodeVariants(t *testing.T) {
	wantOrg := []organizations.Organization{{ID: "42", Slug: "acme", Name: "Acme"}}
	orgBodies := map[string]string{
		"bare array":         `[{"id":42,"slug":"acme","name":"Acme","plan":"pro"}]`,
		"organizations key":  `{"organizations":[{"id":"42","slug":"acme","name":"Acme"}],"total":1}`,
		"data key":           `{"data":[{"id":"42","slug":"acme","name":"Acme"}]}`,
		"only array field":   `{"orgs":[{"id":"42","slug":"acme","name":"Acme"}],"next":null}`,
		"unknown nested obj": `{"items":[{"id":"42","slug":"acme","name":"Acme","owner":{"id":1}}]}`,
	}
	for name, body := range orgBodies {
		t.Run("organizations/"+name, func(t *testing.T) {
			s := newScript()
			s.then(epOrgs, reply{status: 200, body: body})
			got, err := s.client(t, s.config()).Organizations.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(wantOrg, got, cmpopts.IgnoreFields(organizations.Organization{}, "Raw")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !json.Valid(got[0].Raw) || !strings.Contains(string(got[0].Raw), "acme") {
				t.Errorf("Raw = %s", got[0].Raw)
			}
		})
	}

	wantProject := &projects.Project{ID: "p1", OrganizationID: "org-1", Name: "Site", Slug: "site", SourceLanguage: "en",
		TargetLanguages: []projects.Language{{Code: "de", Name: "German"}, {Code: "fr"}}}
	projectBodies := map[string]string{
		"plain":           `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"],"cdn":{"url":"x"}}`,
		"envelope":        `{"project":{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","languageName":"German"},{"code":"fr"}]}}`,
		"data envelope":   `{"data":{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"]}}`,
		"numeric org id ": `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"},"fr"],"createdAt":12}`,
	}
	for name, body := range projectBodies {
		t.Run("project/"+name, func(t *testing.T) {
			s := newScript()
			s.then(epGet, reply{status: 200, body: body})
			got, err := s.client(t, s.config()).Projects.Get(t.Context(), "p1")
			if err != nil {
				t.Fatal(err)
			}
			opt := cmpopts.IgnoreFields(projects.Project{}, "Raw")
			if diff := cmp.Diff(wantProject, got, opt, cmpopts.IgnoreFields(projects.Language{}, "Raw")); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !json.Valid(got.Raw) || !strings.Contains(string(got.Raw), `"p1"`) {
				t.Errorf("Raw = %s", got.Raw)
			}
		})
	}

	mintBodies := map[string]string{
		"token/expiresAt":                `{"token":"svc_oat_v","expiresAt":"2000-01-01T01:00:00Z"}`,
		"installationToken/expires_at":   `{"installationToken":"svc_oat_v","expires_at":"2000-01-01T01:00:00Z"}`,
		"installation_token/expiresIn":   `{"installation_token":"svc_oat_v","expiresIn":3600}`,
		"access_token/expires_in string": `{"access_token":"svc_oat_v","expires_in":"3600"}`,
		"no expiry":                      `{"token":"svc_oat_v"}`,
		// A mint answer's expiry is read as a number of seconds, fraction
		// or not (unlike x/oauth2's reading of the token endpoint's).
		"token/expires_in with a fraction": `{"token":"svc_oat_v","expires_in":3600.0}`,
	}
	for name, body := range mintBodies {
		t.Run("mint/"+name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				s.then(epMint, reply{status: 201, body: body})
				tok, err := s.client(t, s.config()).Installations.CreateToken(t.Context())
				if err != nil {
					t.Fatal(err)
				}
				want := time.Date(2000, 1, 1, 1, 0, 0, 0, time.UTC)
				if tok.Token != "svc_oat_v" || !tok.ExpiresAt.Equal(want) {
					t.Errorf("got %q expiring %v, want svc_oat_v expiring %v", tok.Token, tok.ExpiresAt, want)
				}
				if s := fmt.Sprint(tok); strings.Contains(s, "svc_oat_v") {
					t.Errorf("Token prints its secret: %s", s)
				}
			})
		})
	}
	for name, body := range map[string]string{
		"expiry not RFC 3339":   `{"token":"svc_oat_v","expiresAt":"tomorrow"}`,
		"expires_in negative":   `{"token":"svc_oat_v","expires_in":-5}`,
		"no token at all":       `{"expiresIn":3600}`,
		"token is not a string": `{"token":5}`,
	} {
		t.Run("mint/bad/"+name, func(t *testing.T) {
			s := newScript()
			s.then(epMint, reply{status: 201, body: body})
			_, err := s.client(t, s.config()).Installations.CreateToken(t.Context())
			if !errors.Is(err, partner.ErrUnexpectedResponse) {
				t.Errorf("err = %v, want ErrUnexpectedResponse", err)
			}
		})
	}

	t.Run("me", func(t *testing.T) {
		want := &partner.Identity{UserID: "usr_1", Email: "ada@example.test", Name: "Ada", AccountID: "acc_1", AccountName: "Ada's"}
		for _, body := range []string{
			`{"id":"usr_1","email":"ada@example.test","name":"Ada","account":{"id":"acc_1","name":"Ada's"}}`,
			`{"user":{"id":"usr_1","email":"ada@example.test","name":"Ada"},"account":{"id":"acc_1","name":"Ada's"},"scopes":["x"]}`,
			`{"userId":"usr_1","email":"ada@example.test","name":"Ada","accountId":"acc_1","account":{"name":"Ada's"}}`,
		} {
			s := newScript()
			s.then(epMe, reply{status: 200, body: body})
			got, err := s.client(t, s.config()).Me(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(partner.Identity{}, "Raw")); diff != "" {
				t.Errorf("%s (-want +got):\n%s", body, diff)
			}
		}
	})
}
