package otel_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	partnerotel "github.com/locsvc/partner-go/otel"
	"github.com/locsvc/partner-go/partnertest"
)

// rig is a fake service on the in-memory network (usable in a synctest
// bubble), a grant with a project, and the adapter's hooks on an
// in-memory span exporter and a manual metric reader. On cleanup every
// span and metric the test exported is scanned for secrets.
type rig struct {
	srv     *partnertest.Server
	g       partnertest.Grant
	project partnertest.Project
	spans   *tracetest.InMemoryExporter
	reader  *sdkmetric.ManualReader
	hooks   *hooks.Hooks
}

func newRig(t *testing.T, opts ...partnertest.Option) *rig {
	t.Helper()
	return newRigOn(t, append([]partnertest.Option{partnertest.WithInMemoryNetwork()}, opts...)...)
}

// newRigOn is newRig on the network opts say: loopback without
// partnertest.WithInMemoryNetwork.
func newRigOn(t *testing.T, opts ...partnertest.Option) *rig {
	t.Helper()
	srv := partnertest.NewServer(opts...)
	t.Cleanup(srv.Close)
	r := &rig{srv: srv, g: srv.NewGrant(), spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	r.project = srv.AddProject(r.g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(r.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r.reader))
	var err error
	if r.hooks, err = partnerotel.New(partnerotel.WithTracerProvider(tp), partnerotel.WithMeterProvider(mp)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if found := r.scan(t); len(found) > 0 {
			t.Errorf("the exported spans and metrics hold %q", found)
		}
	})
	return r
}

// config is a client's configuration for the rig's grant, with the hooks.
func (r *rig) config() partner.Config {
	return partner.Config{
		BaseURL: r.srv.URL, AuthURL: r.srv.AuthURL, MCPURL: r.srv.MCPURL, ContentMCPURL: r.srv.ContentMCPURL,
		ClientID: r.srv.ClientID(), ClientSecret: r.srv.ClientSecret(),
		GrantID: r.g.ID, Token: &oauth2.Token{RefreshToken: r.g.RefreshToken},
		HTTPClient: r.srv.Client(), Pacing: partner.Pacing{Off: true}, Hooks: r.hooks,
	}
}

func (r *rig) client(t *testing.T, edit ...func(*partner.Config)) *partner.Client {
	t.Helper()
	cfg := r.config()
	for _, e := range edit {
		e(&cfg)
	}
	c, err := partner.NewClient(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// metrics collects the metrics recorded so far.
func (r *rig) metrics(t *testing.T) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := r.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

// sum adds up the counter name's data points that have every attribute
// of want.
func (r *rig) sum(t *testing.T, name string, want ...attribute.KeyValue) int64 {
	t.Helper()
	var n int64
	for _, sm := range r.metrics(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			if s, ok := m.Data.(metricdata.Sum[int64]); ok && m.Name == name {
				for _, dp := range s.DataPoints {
					if has(dp.Attributes, want) {
						n += dp.Value
					}
				}
			}
		}
	}
	return n
}

// histogram returns the count and the largest value of histogram name's
// data points that have every attribute of want.
func (r *rig) histogram(t *testing.T, name string, want ...attribute.KeyValue) (count uint64, largest float64) {
	t.Helper()
	for _, sm := range r.metrics(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == name {
				for _, dp := range h.DataPoints {
					if has(dp.Attributes, want) {
						count += dp.Count
						if v, ok := dp.Max.Value(); ok {
							largest = max(largest, v)
						}
					}
				}
			}
		}
	}
	return count, largest
}

func has(set attribute.Set, want []attribute.KeyValue) bool {
	for _, kv := range want {
		if v, ok := set.Value(kv.Key); !ok || v != kv.Value {
			return false
		}
	}
	return true
}

// span returns the one exported span named name.
func (r *rig) span(t *testing.T, name string) tracetest.SpanStub {
	t.Helper()
	var found []tracetest.SpanStub
	for _, s := range r.spans.GetSpans() {
		if s.Name == name {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d spans named %q, want 1; spans: %v", len(found), name, names(r.spans.GetSpans()))
	}
	return found[0]
}

func names(spans tracetest.SpanStubs) []string {
	var n []string
	for _, s := range spans {
		n = append(n, s.Name)
	}
	return n
}

func attr(attrs []attribute.KeyValue, key string) attribute.Value {
	for _, kv := range attrs {
		if string(kv.Key) == key {
			return kv.Value
		}
	}
	return attribute.Value{}
}

// scan returns what secrets the exported spans and metrics hold: the
// client secret, the grant's refresh token, any token the fake issues (by
// its prefix), a webhook secret, a Bearer header, or a URL query.
func (r *rig) scan(t *testing.T) (found []string) {
	var b strings.Builder
	dump := func(attrs ...attribute.KeyValue) {
		for _, kv := range attrs {
			fmt.Fprintf(&b, "%s=%s\n", kv.Key, kv.Value.String())
		}
	}
	for _, s := range r.spans.GetSpans() {
		fmt.Fprintf(&b, "span %s %s\n", s.Name, s.Status.Description)
		dump(s.Attributes...)
		for _, e := range s.Events {
			fmt.Fprintf(&b, "event %s\n", e.Name)
			dump(e.Attributes...)
		}
		dump(s.Resource.Attributes()...)
	}
	for _, sm := range r.metrics(t).ScopeMetrics {
		for _, m := range sm.Metrics {
			fmt.Fprintf(&b, "metric %s\n", m.Name)
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, dp := range d.DataPoints {
					dump(dp.Attributes.ToSlice()...)
				}
			case metricdata.Histogram[float64]:
				for _, dp := range d.DataPoints {
					dump(dp.Attributes.ToSlice()...)
				}
			default:
				t.Errorf("metric %s: %T not scanned", m.Name, m.Data)
			}
		}
	}
	text := b.String()
	for _, secret := range []string{r.srv.ClientSecret(), r.g.RefreshToken, "pt_rt_", "pt_at_", "svc_oat_", "pt_code_", "whsec_", "Bearer", "?"} {
		if strings.Contains(text, secret) {
			found = append(found, secret)
		}
	}
	return found
}
