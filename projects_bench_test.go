package partner_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
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

// A contender is one function a benchmark times.
type contender struct {
	name string
	run  func(b *testing.B)
}

// compare runs each contender once per iteration, in turn, each timed on
// its own (as webhook's benchmarks do). It reports each one's mean time per
// call (<name>-ns), its allocations per call (<name>-allocs), and the ratio
// of the median time per call of each to that of the first, the baseline
// (<name>-x-<base>), over the last 4096 iterations. Taking turns in one run
// makes a shared and noisy machine slow them alike; medians leave out the
// calls the operating system stopped to run something else.
func compare(b *testing.B, contenders ...contender) {
	spent := make([]time.Duration, len(contenders))
	samples := make([][4096]time.Duration, len(contenders))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		for j, c := range contenders {
			start := time.Now()
			c.run(b)
			d := time.Since(start)
			spent[j] += d
			samples[j][i%len(samples[j])] = d
		}
	}
	n := min(b.N, len(samples[0]))
	median := func(j int) float64 {
		s := slices.Clone(samples[j][:n])
		slices.Sort(s)
		return float64(s[n/2])
	}
	for j, c := range contenders {
		b.ReportMetric(float64(spent[j].Nanoseconds())/float64(b.N), c.name+"-ns")
		b.ReportMetric(testing.AllocsPerRun(100, func() { c.run(b) }), c.name+"-allocs")
		if j > 0 {
			b.ReportMetric(median(j)/median(0), c.name+"-x-"+contenders[0].name)
		}
	}
}

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

	sdk := func(name string, hc *http.Client) contender {
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
		return contender{name, func(b *testing.B) {
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
	bare := contender{"bare", func(b *testing.B) {
		if err := get(); err != nil {
			b.Fatal(err)
		}
	}}
	compare(b, bare, sdk("sdk", hc), sdk("sdk-default", nil))
}
