package otel_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"testing/synctest"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
)

// TestRESTCallWithARetry: a GET answered 503, then 200, is one call span
// with its two attempts as children, outcome ok, two attempts; the
// metrics count one call, two attempts and one retry.
func TestRESTCallWithARetry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		r.srv.InjectFault(partnertest.Fault{Method: http.MethodGet, Path: "/api/oauth-client/v1/projects/*", Status: http.StatusServiceUnavailable})
		if _, err := c.Projects.Get(t.Context(), r.project.ID); err != nil {
			t.Fatal(err)
		}
		call := r.span(t, "Projects.Get")
		if got := attr(call.Attributes, "partner.outcome").AsString(); got != "ok" {
			t.Errorf("partner.outcome = %q, want ok", got)
		}
		if got := attr(call.Attributes, "partner.attempts").AsInt64(); got != 2 {
			t.Errorf("partner.attempts = %d, want 2", got)
		}
		if got := attr(call.Attributes, "http.response.status_code").AsInt64(); got != 200 {
			t.Errorf("http.response.status_code = %d, want 200", got)
		}
		var statuses []int64
		for _, s := range r.spans.GetSpans() {
			if s.Parent.SpanID() == call.SpanContext.SpanID() && s.Name == http.MethodGet {
				statuses = append(statuses, attr(s.Attributes, "http.response.status_code").AsInt64())
			}
		}
		if len(statuses) != 2 || statuses[0] != 503 || statuses[1] != 200 {
			t.Errorf("attempt spans under the call answered %v, want [503 200]", statuses)
		}
		get := []attribute.KeyValue{attribute.String("partner.service", "Projects"), attribute.String("partner.method", "Get")}
		if n := r.sum(t, "partner.calls", append(get, attribute.String("partner.outcome", "ok"))...); n != 1 {
			t.Errorf("partner.calls{Projects.Get, ok} = %d, want 1", n)
		}
		if n := r.sum(t, "partner.attempts", attribute.String("http.request.method", "GET")); n != 2 {
			t.Errorf("partner.attempts{GET} = %d, want 2", n)
		}
		if n := r.sum(t, "partner.retries", attribute.Int("http.response.status_code", 503)); n != 1 {
			t.Errorf("partner.retries{503} = %d, want 1", n)
		}
	})
}

// TestFailedCallOutcome: a call that fails is counted by its error class,
// and its span says so without the error's text.
func TestFailedCallOutcome(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		if _, err := c.Projects.Get(t.Context(), "prj_missing"); err == nil {
			t.Fatal("no error for a missing project")
		}
		call := r.span(t, "Projects.Get")
		if call.Status.Code != codes.Error || call.Status.Description != "not_found" {
			t.Errorf("status = %v %q, want Error not_found", call.Status.Code, call.Status.Description)
		}
		if n := r.sum(t, "partner.calls", attribute.String("error.type", "not_found")); n != 1 {
			t.Errorf("partner.calls{error.type=not_found} = %d, want 1", n)
		}
	})
}

// TestToolCallNamesTheTool: a tool call's span is named server/tool and
// carries the rpc attributes.
func TestToolCallNamesTheTool(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		var out json.RawMessage
		project := r.g.Organizations[0].Slug + "/web"
		if err := c.Tools.Call(t.Context(), partner.TranslationTools, "getProject", map[string]any{"project": project}, &out); err != nil {
			t.Fatal(err)
		}
		call := r.span(t, "translations/getProject")
		for key, want := range map[string]string{"rpc.method": "getProject", "rpc.service": "translations", "gen_ai.tool.name": "getProject", "partner.project": project} {
			if got := attr(call.Attributes, key).AsString(); got != want {
				t.Errorf("%s = %q, want %q", key, got, want)
			}
		}
		posts := 0
		for _, s := range r.spans.GetSpans() {
			if s.Parent.SpanID() == call.SpanContext.SpanID() && s.Name == http.MethodPost {
				posts++
			}
		}
		if posts == 0 {
			t.Error("no POST attempt span under the tool call's")
		}
		if n := r.sum(t, "partner.calls", attribute.String("rpc.method", "getProject"), attribute.String("partner.outcome", "ok")); n != 1 {
			t.Errorf("partner.calls{rpc.method=getProject, ok} = %d, want 1", n)
		}
	})
}

// TestRateLimitedAnswersAreCounted: a 429 is counted, and waited out.
func TestRateLimitedAnswersAreCounted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		r.srv.InjectFault(partnertest.Fault{Path: "/api/oauth-client/organizations", Status: http.StatusTooManyRequests, RetryAfter: "2"})
		if _, err := c.Organizations.List(t.Context()); err != nil {
			t.Fatal(err)
		}
		if n := r.sum(t, "partner.rate_limited"); n != 1 {
			t.Errorf("partner.rate_limited = %d, want 1", n)
		}
		var wait float64
		for _, s := range r.spans.GetSpans() {
			if s.Name == http.MethodGet && attr(s.Attributes, "http.response.status_code").AsInt64() == 429 {
				wait = attr(s.Attributes, "partner.retry.wait").AsFloat64()
			}
		}
		if wait != 2 {
			t.Errorf("the 429 attempt's partner.retry.wait = %v, want 2 (its Retry-After)", wait)
		}
	})
}

// spanRecorder is a transport that keeps the span each request's context
// carries, as an otelhttp transport would parent its spans.
type spanRecorder struct {
	next    http.RoundTripper
	parents map[string]trace.SpanID // by path
}

func (s *spanRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	s.parents[req.URL.Path] = trace.SpanContextFromContext(req.Context()).SpanID()
	return s.next.RoundTrip(req)
}

// TestTransportSpansNestUnderTheCall: the request a transport sees
// carries the SDK call's span, so an instrumented transport's spans nest
// under it.
func TestTransportSpansNestUnderTheCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		rec := &spanRecorder{next: r.srv.Client().Transport, parents: map[string]trace.SpanID{}}
		c := r.client(t, func(cfg *partner.Config) { cfg.HTTPClient = &http.Client{Transport: rec} })
		if _, err := c.Projects.Get(t.Context(), r.project.ID); err != nil {
			t.Fatal(err)
		}
		call := r.span(t, "Projects.Get")
		if got := rec.parents["/api/oauth-client/v1/projects/"+r.project.ID]; got != call.SpanContext.SpanID() {
			t.Errorf("the GET's context carries span %v, want the call's %v", got, call.SpanContext.SpanID())
		}
		mint := r.span(t, "Installations.Mint")
		if got := rec.parents["/api/oauth-client/installations/"+r.g.ID+"/tokens"]; got != mint.SpanContext.SpanID() {
			t.Errorf("the mint's request carries span %v, want the mint's %v", got, mint.SpanContext.SpanID())
		}
	})
}
