package otel_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	metricnoop "go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	partnerotel "github.com/locsvc/partner-go/otel"
)

const benchProject = `{"id":"p1","name":"Web","slug":"web","sourceLanguage":"en","organizationId":"o1"}`

// BenchmarkProjectsGetHooks measures Projects.Get on a warm client against
// a local server: without hooks (off), with the adapter on no-op
// providers (noop: the adapter's own cost), and on the SDK's providers
// with an in-memory exporter and a manual reader (sdk). The sub-benchmarks
// run in one process: read the extra allocations per call as noop-allocs
// minus off-allocs.
func BenchmarkProjectsGetHooks(b *testing.B) {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/auth/mcp/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"access_token":"at","refresh_token":"rt","expires_in":1800}`))
	})
	mux.HandleFunc("POST /api/oauth-client/installations/g1/tokens", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"token":"svc_oat_bench","expiresIn":3600}`))
	})
	mux.HandleFunc("GET /api/oauth-client/v1/projects/p1", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(benchProject))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	noop, err := partnerotel.New(partnerotel.WithTracerProvider(tracenoop.NewTracerProvider()), partnerotel.WithMeterProvider(metricnoop.NewMeterProvider()))
	if err != nil {
		b.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(tracetest.NewNoopExporter()))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	sdk, err := partnerotel.New(partnerotel.WithTracerProvider(tp), partnerotel.WithMeterProvider(mp))
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		hooks *hooks.Hooks
	}{{"off", nil}, {"noop", noop}, {"sdk", sdk}} {
		client, err := partner.NewClient(partner.Config{Pacing: partner.Pacing{Off: true},
			BaseURL: srv.URL, AuthURL: srv.URL, ClientID: "c", ClientSecret: "s",
			GrantID: "g1", Token: &oauth2.Token{RefreshToken: "rt"},
			HTTPClient: &http.Client{Transport: http.DefaultTransport}, Hooks: c.hooks,
		})
		if err != nil {
			b.Fatal(err)
		}
		ctx := b.Context()
		if _, err := client.Projects.Get(ctx, "p1"); err != nil { // tokens, connection
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := client.Projects.Get(ctx, "p1"); err != nil {
					b.Fatal(err)
				}
			}
		})
		client.Close()
	}
}
