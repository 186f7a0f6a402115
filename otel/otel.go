// Package otel turns the SDK's hooks into OpenTelemetry traces and
// metrics. Give New's hooks to partner.Config.Hooks (or PoolConfig.Hooks),
// webhook.WithHooks and the locales options:
//
//	h, err := otel.New() // the global providers, or WithTracerProvider, WithMeterProvider
//	client, err := partner.NewClient(partner.Config{..., Hooks: h})
//
// Each SDK call is a span ("Projects.Get", "translations/getProject") with
// one child span per HTTP attempt; token work, leases and pacing waits are
// events on the span of the call that caused them. Attribute names follow
// the OpenTelemetry semantic conventions where they have one
// (http.request.method, http.response.status_code, server.address,
// url.path, error.type, rpc.*); the SDK's own start with "partner.". No
// attribute holds a token, a secret, an error's text or a URL's query.
// The README's Observability section lists every span, event and
// instrument.
package otel

import (
	"context"
	"strconv"
	"time"

	global "go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/locsvc/partner-go/hooks"
)

// ScopeName is the instrumentation scope of every span and instrument.
const ScopeName = "github.com/locsvc/partner-go/otel"

// Attribute keys of the SDK's own, beside the semantic conventions'.
const (
	KeyCallKind      = attribute.Key("partner.call.kind")       // rest, tool, raw, credential
	KeyService       = attribute.Key("partner.service")         // "Projects"; a tool's server
	KeyMethod        = attribute.Key("partner.method")          // "Get"; a tool's name
	KeyProject       = attribute.Key("partner.project")         // the project a call or sync is about (spans only)
	KeyOutcome       = attribute.Key("partner.outcome")         // hooks.OK or an error class
	KeyAttempts      = attribute.Key("partner.attempts")        // a call's HTTP attempts
	KeyRetry         = attribute.Key("partner.retry")           // another attempt follows
	KeyRetryWait     = attribute.Key("partner.retry.wait")      // seconds before it
	KeyTokenKind     = attribute.Key("partner.token.kind")      // refresh, mint, store, wait
	KeyTokenAhead    = attribute.Key("partner.token.ahead")     // started ahead of expiry
	KeyLeaseKind     = attribute.Key("partner.lease.kind")      // access, installation
	KeyLeaseOutcome  = attribute.Key("partner.lease.outcome")   // acquired, held, lost
	KeyPacingShared  = attribute.Key("partner.pacing.shared")   // the Store's shared limit
	KeyWebhookResult = attribute.Key("partner.webhook.outcome") // handled, refused, duplicate, failed
	KeyWebhookReason = attribute.Key("partner.webhook.reason")  // why refused or failed
	KeyEventType     = attribute.Key("partner.webhook.event_type")
	KeySyncPhase     = attribute.Key("partner.sync.phase")  // planned, applied, pulled
	KeySyncAction    = attribute.Key("partner.sync.action") // create, update, delete, skip, fail, text

	keyMethod     = attribute.Key("http.request.method")
	keyStatus     = attribute.Key("http.response.status_code")
	keyServer     = attribute.Key("server.address")
	keyPath       = attribute.Key("url.path")
	keyErrorType  = attribute.Key("error.type")
	keyResend     = attribute.Key("http.request.resend_count")
	keyRPCSystem  = attribute.Key("rpc.system")
	keyRPCService = attribute.Key("rpc.service")
	keyRPCMethod  = attribute.Key("rpc.method")
	keyMCPMethod  = attribute.Key("mcp.method.name")
	keyToolName   = attribute.Key("gen_ai.tool.name")
)

// Option configures New.
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets the provider of the spans; by default the
// global one.
func WithTracerProvider(tp trace.TracerProvider) Option { return func(c *config) { c.tp = tp } }

// WithMeterProvider sets the provider of the instruments; by default the
// global one.
func WithMeterProvider(mp metric.MeterProvider) Option { return func(c *config) { c.mp = mp } }

// recorder holds the tracer and the instruments.
type recorder struct {
	tracer trace.Tracer

	calls        metric.Int64Counter
	callDuration metric.Float64Histogram
	attempts     metric.Int64Counter
	retries      metric.Int64Counter
	rateLimited  metric.Int64Counter
	pacingWait   metric.Float64Histogram
	tokens       metric.Int64Counter
	tokenTime    metric.Float64Histogram
	leases       metric.Int64Counter
	deliveries   metric.Int64Counter
	syncItems    metric.Int64Counter
}

// New returns hooks that record the SDK's spans and metrics with the
// providers of opts. It fails only if an instrument cannot be made.
func New(opts ...Option) (*hooks.Hooks, error) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.tp == nil {
		c.tp = global.GetTracerProvider()
	}
	if c.mp == nil {
		c.mp = global.GetMeterProvider()
	}
	r := &recorder{tracer: c.tp.Tracer(ScopeName)}
	m := c.mp.Meter(ScopeName)
	var err error
	counter := func(name, unit, desc string) metric.Int64Counter {
		var ct metric.Int64Counter
		if err == nil {
			ct, err = m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		}
		return ct
	}
	histogram := func(name, desc string) metric.Float64Histogram {
		var h metric.Float64Histogram
		if err == nil {
			h, err = m.Float64Histogram(name, metric.WithUnit("s"), metric.WithDescription(desc))
		}
		return h
	}
	r.calls = counter("partner.calls", "{call}", "SDK calls, by service and method (or tool) and outcome")
	r.callDuration = histogram("partner.call.duration", "How long SDK calls take, retries and waits included")
	r.attempts = counter("partner.attempts", "{attempt}", "HTTP attempts, by method, server and status")
	r.retries = counter("partner.retries", "{retry}", "HTTP attempts followed by a retry")
	r.rateLimited = counter("partner.rate_limited", "{answer}", "429 Too Many Requests answers")
	r.pacingWait = histogram("partner.pacing.wait", "How long requests waited for their turn under Pacing")
	r.tokens = counter("partner.token.operations", "{operation}", "Token refreshes, mints, tokens taken from the Store, and calls' waits for them, by outcome")
	r.tokenTime = histogram("partner.token.duration", "How long token refreshes, mints and waits take")
	r.leases = counter("partner.lease.outcomes", "{lease}", "Lease outcomes in a shared Store")
	r.deliveries = counter("partner.webhook.deliveries", "{delivery}", "Webhook deliveries, by outcome and reason")
	r.syncItems = counter("partner.sync.items", "{item}", "Locale sync items, by phase and action")
	if err != nil {
		return nil, err
	}
	return &hooks.Hooks{
		CallStart:  r.callStart,
		CallEnd:    r.callEnd,
		AttemptEnd: r.attemptEnd,
		Token:      r.token,
		Lease:      r.lease,
		Pacing:     r.pacing,
		Delivery:   r.delivery,
		Sync:       r.sync,
	}, nil
}

// callName is a call's span name.
func callName(c hooks.Call) string {
	if c.Kind == hooks.Tool {
		return c.Service + "/" + c.Method
	}
	return c.Service + "." + c.Method
}

// callAttrs are the attributes a call's span and metrics share.
func callAttrs(c hooks.Call) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 10) // the most callStart and callEnd add
	a = append(a, KeyCallKind.String(string(c.Kind)), keyServer.String(c.Server))
	if c.Kind == hooks.Tool {
		return append(a, keyRPCSystem.String("jsonrpc"), keyRPCService.String(c.Service), keyRPCMethod.String(c.Method),
			keyMCPMethod.String("tools/call"), keyToolName.String(c.Method))
	}
	return append(a, KeyService.String(c.Service), KeyMethod.String(c.Method), keyMethod.String(c.HTTPMethod))
}

func (r *recorder) callStart(ctx context.Context, c hooks.Call) context.Context {
	kind := trace.SpanKindInternal
	if c.Kind == hooks.Tool {
		kind = trace.SpanKindClient
	}
	attrs := append(callAttrs(c), keyPath.String(c.Path))
	if c.Project != "" {
		attrs = append(attrs, KeyProject.String(c.Project))
	}
	ctx, _ = r.tracer.Start(ctx, callName(c), trace.WithSpanKind(kind), trace.WithAttributes(attrs...))
	return ctx
}

func (r *recorder) callEnd(ctx context.Context, c hooks.Call) {
	attrs := append(callAttrs(c), KeyOutcome.String(c.Outcome))
	if c.Outcome != hooks.OK {
		attrs = append(attrs, keyErrorType.String(c.Outcome))
	}
	set := metric.WithAttributes(attrs...)
	r.calls.Add(ctx, 1, set)
	r.callDuration.Record(ctx, c.Duration.Seconds(), set)

	span := trace.SpanFromContext(ctx)
	if span.IsRecording() {
		span.SetAttributes(KeyOutcome.String(c.Outcome), KeyAttempts.Int(c.Attempts))
		if c.Status != 0 {
			span.SetAttributes(keyStatus.Int(c.Status))
		}
		if c.Outcome != hooks.OK {
			span.SetAttributes(keyErrorType.String(c.Outcome))
			span.SetStatus(codes.Error, c.Outcome) // the class only: an error's text may quote the service
		}
	}
	span.End()
}

func (r *recorder) attemptEnd(ctx context.Context, a hooks.Attempt) {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, keyMethod.String(a.HTTPMethod), keyServer.String(a.Server))
	if a.Status != 0 {
		attrs = append(attrs, keyStatus.Int(a.Status))
	}
	switch {
	case a.Failed:
		attrs = append(attrs, keyErrorType.String("no_answer"))
	case a.Status >= 400:
		attrs = append(attrs, keyErrorType.String(strconv.Itoa(a.Status)))
	}
	set := metric.WithAttributes(append(attrs, KeyRetry.Bool(a.Retry))...)
	r.attempts.Add(ctx, 1, set)
	if a.Retry {
		r.retries.Add(ctx, 1, set)
	}
	if a.Status == 429 {
		r.rateLimited.Add(ctx, 1, metric.WithAttributes(keyServer.String(a.Server)))
	}

	if !trace.SpanFromContext(ctx).IsRecording() {
		return // the call is not traced (or not sampled): nor are its attempts
	}
	end := time.Now()
	attrs = append(attrs, keyPath.String(a.Path), KeyRetry.Bool(a.Retry))
	if a.Number > 1 {
		attrs = append(attrs, keyResend.Int(a.Number-1))
	}
	if a.Retry {
		attrs = append(attrs, KeyRetryWait.Float64(a.Wait.Seconds()))
	}
	_, span := r.tracer.Start(ctx, a.HTTPMethod, trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(end.Add(-a.Duration)), trace.WithAttributes(attrs...))
	if a.Failed || a.Status >= 400 {
		span.SetStatus(codes.Error, "")
	}
	span.End(trace.WithTimestamp(end))
}

func (r *recorder) token(ctx context.Context, t hooks.Token) {
	outcome := hooks.OK
	if t.Err != nil {
		outcome = "error"
	}
	attrs := []attribute.KeyValue{KeyTokenKind.String(string(t.Kind)), KeyTokenAhead.Bool(t.Ahead), KeyOutcome.String(outcome)}
	set := metric.WithAttributes(attrs...)
	r.tokens.Add(ctx, 1, set)
	if t.Kind != hooks.Stored {
		r.tokenTime.Record(ctx, t.Duration.Seconds(), set)
	}
	trace.SpanFromContext(ctx).AddEvent("partner.token."+string(t.Kind), trace.WithAttributes(attrs...))
}

func (r *recorder) lease(ctx context.Context, l hooks.Lease) {
	attrs := []attribute.KeyValue{KeyLeaseKind.String(l.Kind), KeyLeaseOutcome.String(string(l.Outcome))}
	r.leases.Add(ctx, 1, metric.WithAttributes(attrs...))
	trace.SpanFromContext(ctx).AddEvent("partner.lease", trace.WithAttributes(attrs...))
}

func (r *recorder) pacing(ctx context.Context, p hooks.Pacing) {
	r.pacingWait.Record(ctx, p.Wait.Seconds(), metric.WithAttributes(KeyPacingShared.Bool(p.Shared)))
	trace.SpanFromContext(ctx).AddEvent("partner.pacing.wait",
		trace.WithAttributes(KeyPacingShared.Bool(p.Shared), KeyRetryWait.Float64(p.Wait.Seconds())))
}

func (r *recorder) delivery(ctx context.Context, d hooks.Delivery) {
	attrs := []attribute.KeyValue{KeyWebhookResult.String(d.Outcome), keyStatus.Int(d.Status)}
	if d.Reason != "" {
		attrs = append(attrs, KeyWebhookReason.String(d.Reason))
	}
	if d.EventType != "" {
		attrs = append(attrs, KeyEventType.String(d.EventType))
	}
	r.deliveries.Add(ctx, 1, metric.WithAttributes(attrs...))
	trace.SpanFromContext(ctx).AddEvent("partner.webhook.delivery", trace.WithAttributes(attrs...))
}

func (r *recorder) sync(ctx context.Context, s hooks.Sync) {
	phase := KeySyncPhase.String(string(s.Phase))
	attrs := []attribute.KeyValue{phase, KeyProject.String(s.Project)}
	for action, n := range s.Items {
		r.syncItems.Add(ctx, int64(n), metric.WithAttributes(phase, KeySyncAction.String(action)))
		attrs = append(attrs, attribute.Int("partner.sync."+action, n))
	}
	if s.Err != nil {
		attrs = append(attrs, KeyOutcome.String("error"))
	}
	trace.SpanFromContext(ctx).AddEvent("partner.sync."+string(s.Phase), trace.WithAttributes(attrs...))
}
