package partner_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/internal/benchcmp"
)

// benchProject is a record the service could really send: the fields the
// SDK models, target languages as bare codes, and fields it does not model
// (timestamps, booleans, nested objects).
const benchProject = `{"id":"p1","organizationId":"org-1","name":"Marketing site","slug":"marketing-site","sourceLanguage":"en",` +
	`"targetLanguages":["de","fr","ja","pt-br"],"cdnBacked":true,"archived":false,` +
	`"createdAt":"2026-01-02T03:04:05.000Z","updatedAt":"2026-03-04T05:06:07.000Z",` +
	`"cdn":{"base":"https://cdn.example.test/acme/marketing-site","fileStructure":"single_file","keyFormat":"nested"},` +
	`"stats":{"keys":1240,"words":18210,"coverage":{"de":0.98,"fr":0.91,"ja":0.75,"pt-br":0.4}},` +
	`"owner":{"id":"usr_1","name":"Ada"}}`

// BenchmarkProjectsGet measures Projects.Get against a local server, next
// to its floor (bare): a net/http GET of the same body with the same
// Authorization header, decoded with encoding/json into an equivalent
// struct, taking turns with it in one run (see compare). sdk gets a client
// on http.DefaultTransport, as bare has: the SDK's own cost; sdk-default
// is what a Config without HTTPClient gets, the SDK's own transport, whose
// response-header timeout costs a timer per request. Read the SDK's
// overhead as sdk-x-bare and sdk-allocs minus bare-allocs.
func BenchmarkProjectsGet(b *testing.B) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/auth/mcp/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"access_token":"at","refresh_token":"rt","expires_in":1800}`)
	})
	mux.HandleFunc("POST /api/oauth-client/installations/g1/tokens", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"token":"svc_oat_bench","expiresIn":3600}`)
	})
	mux.HandleFunc("GET /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, benchProject)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	sdk := func(name string, hc *http.Client) benchcmp.Contender {
		c, err := partner.NewClient(partner.Config{Pacing: noPacing,
			BaseURL: srv.URL, AuthURL: srv.URL, ClientID: "c", ClientSecret: "s",
			GrantID: "g1", Token: &oauth2.Token{RefreshToken: "rt"},
			HTTPClient: hc,
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx := b.Context()
		if _, err := c.Projects.Get(ctx, "p1"); err != nil { // tokens, connection
			b.Fatal(err)
		}
		return benchcmp.Contender{Name: name, Run: func(b *testing.B) {
			if _, err := c.Projects.Get(ctx, "p1"); err != nil {
				b.Fatal(err)
			}
		}}
	}
	hc := &http.Client{Transport: http.DefaultTransport}
	ctx := b.Context()
	url := srv.URL + "/api/oauth-client/v1/projects/p1"
	get := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer svc_oat_bench")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		var p struct {
			ID              string   `json:"id"`
			OrganizationID  string   `json:"organizationId"`
			Name            string   `json:"name"`
			Slug            string   `json:"slug"`
			SourceLanguage  string   `json:"sourceLanguage"`
			TargetLanguages []string `json:"targetLanguages"`
		}
		return json.NewDecoder(resp.Body).Decode(&p)
	}
	if err := get(); err != nil {
		b.Fatal(err)
	}
	bare := benchcmp.Contender{Name: "bare", Run: func(b *testing.B) {
		if err := get(); err != nil {
			b.Fatal(err)
		}
	}}
	benchcmp.Compare(b, bare, sdk("sdk", hc), sdk("sdk-default", nil))
}
