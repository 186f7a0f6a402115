package webhook

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/locsvc/partner-go/hooks"
)

// A HandlerOption configures NewHandler and NewTenantHandler.
type HandlerOption func(*handler)

// Defaults of DedupPolicy. The service waits 10 s for an answer.
const (
	DefaultProcessingTTL = time.Minute     // a claim's lifetime, well above 10 s, and the longest a crashed receiver blocks others
	DefaultRetention     = 24 * time.Hour  // how long a handled event's id is remembered
	DefaultMaxWait       = 8 * time.Second // leaves a waiting duplicate time to answer within the 10 s
)

// DedupPolicy sets the times deduplication works with (see
// WithDeduplication). A field that is zero or negative takes its default.
type DedupPolicy struct {
	// ProcessingTTL is the lifetime of a claim (DefaultProcessingTTL).
	// Keep it above the callback's longest run: after it, another delivery
	// of the event may run the callback concurrently.
	ProcessingTTL time.Duration
	Retention     time.Duration // how long a handled id is remembered (DefaultRetention)
	// MaxWait bounds how long a duplicate waits for an attempt in progress
	// before answering 409 Conflict (DefaultMaxWait), as does the request's
	// context.
	MaxWait time.Duration
}

// withDefaults returns p with every field that is not positive at its
// default.
func (p DedupPolicy) withDefaults() DedupPolicy {
	return DedupPolicy{
		ProcessingTTL: cmp.Or(max(p.ProcessingTTL, 0), DefaultProcessingTTL),
		Retention:     cmp.Or(max(p.Retention, 0), DefaultRetention),
		MaxWait:       cmp.Or(max(p.MaxWait, 0), DefaultMaxWait),
	}
}

// WithDeduplication makes the handler run the callback at most once per
// event id that succeeded, as redeliveries from the dashboard keep the id.
// The rule, per delivery:
//
//   - the handler claims the id in store for the policy's ProcessingTTL;
//   - with the claim, it runs the callback: on success it marks the id
//     done for the Retention and answers 200; on an error or a panic it
//     releases the claim and answers 500, so a redelivery runs the callback
//     again;
//   - an id already done is answered 200 without calling the callback;
//   - an id claimed by an attempt still running waits for that attempt,
//     polling the store, up to MaxWait or until the request is canceled:
//     if the attempt succeeds, 200 without calling; if it fails (or its
//     claim expires, as when its receiver crashed), this delivery claims
//     the id and runs the callback itself; if the wait ends first, 409
//     Conflict, which the service shows as a failed delivery.
//
// A nil store means a new MemoryDedup, which only sees the deliveries of
// this process; replicas need one DedupStore they share (see DedupStore
// for how it maps onto SQL and Redis). Set the times with WithDedupPolicy.
func WithDeduplication(store DedupStore) HandlerOption {
	if store == nil {
		store = NewMemoryDedup(0)
	}
	return func(h *handler) { h.dedup = store }
}

// WithDedupPolicy sets the times WithDeduplication works with; without it
// every field has its default.
func WithDedupPolicy(p DedupPolicy) HandlerOption {
	return func(h *handler) { h.policy = p.withDefaults() }
}

// WithLogger makes the handler log refused deliveries (Warn), duplicates
// (Info) and callback or store failures (Error) to l. By default it logs
// nothing. Log records carry the error and the event id, never the secret.
func WithLogger(l *slog.Logger) HandlerOption {
	return func(h *handler) {
		if l != nil {
			h.log = l
		}
	}
}

// WithHooks makes the handler tell h.Delivery of each delivery it answers:
// handled, refused (and why), a duplicate, or failed. Nil is off.
func WithHooks(hk *hooks.Hooks) HandlerOption {
	return func(h *handler) {
		if hk != nil {
			h.hooks = hk.Delivery
		}
	}
}

type handler struct {
	hooks    func(context.Context, hooks.Delivery)
	verifier func(*http.Request) (*Verifier, error)
	fn       func(context.Context, *http.Request, *Event) error
	dedup    DedupStore
	policy   DedupPolicy
	log      *slog.Logger
}

// NewHandler returns an http.Handler that receives deliveries: it verifies
// each with v, parses it, and calls fn with the request's context and the
// event. The event comes from the signed body only; the unsigned
// X-Service-Event and X-Service-Id headers are ignored. It answers:
//
//   - 405 Method Not Allowed, with Allow: POST, to any method but POST;
//   - 413 Request Entity Too Large for a body over v's limit;
//   - 400 Bad Request for a malformed signature header, an empty or
//     unreadable body, or a body Parse refuses;
//   - 401 Unauthorized for a missing header, a header without v1, a
//     timestamp out of tolerance or a signature that does not match: the
//     request did not prove it came from the service;
//   - 200 OK when fn returns nil, or for an event already handled
//     (WithDeduplication);
//   - 409 Conflict for a duplicate that waited in vain for another
//     delivery of its event to finish (WithDeduplication);
//   - 500 Internal Server Error when fn returns an error or panics, so the
//     delivery shows as failed in the dashboard and can be redelivered. The
//     error's text is not sent (WithLogger logs it, with the stack of a
//     panic); a 4xx body is only the sentinel's short message.
//
// The service waits 10 seconds for an answer: do slow work after fn
// returns, by queueing the event. NewHandler panics if v or fn is nil.
func NewHandler(v *Verifier, fn func(context.Context, *Event) error, opts ...HandlerOption) http.Handler {
	if v == nil || fn == nil {
		panic("webhook: NewHandler needs a Verifier and a callback")
	}
	return NewTenantHandler(
		func(*http.Request) (*Verifier, error) { return v, nil },
		func(ctx context.Context, _ *http.Request, ev *Event) error { return fn(ctx, ev) },
		opts...)
}

// NewTenantHandler is NewHandler for a receiver that serves many webhooks
// with one secret each, such as a partner receiving deliveries for many
// customers. For each request, verifier returns the Verifier of the webhook
// the request is for, typically found by a path value (r.PathValue) or the
// host; fn gets the request too, to tell whose event it handles.
//
// A lookup that fails never reaches fn and is answered:
//
//   - 404 Not Found when the error matches ErrUnknownReceiver: the URL
//     names no receiver (a deleted customer, a typo in the dashboard), as
//     the delivery log then shows. No secret is tried;
//   - 500 Internal Server Error for any other error, or a nil Verifier
//     with a nil error (its database is down, say), so the delivery can
//     be redelivered. The error is logged (WithLogger), never sent.
//
// Otherwise the handler behaves as NewHandler's, with the same options;
// deduplication keys on the event's webhook configuration and id, so
// tenants sharing a store do not collide. NewTenantHandler panics if
// verifier or fn is nil.
func NewTenantHandler(verifier func(*http.Request) (*Verifier, error), fn func(context.Context, *http.Request, *Event) error, opts ...HandlerOption) http.Handler {
	if verifier == nil || fn == nil {
		panic("webhook: NewTenantHandler needs a verifier lookup and a callback")
	}
	h := &handler{verifier: verifier, fn: fn, policy: DedupPolicy{}.withDefaults(), log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(h)
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.tell(r, hooks.Refused, "method", nil, http.StatusMethodNotAllowed)
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	v, err := h.verifier(r)
	switch {
	case errors.Is(err, ErrUnknownReceiver):
		h.refuse(w, r, err)
		return
	case err != nil || v == nil:
		h.tell(r, hooks.Failed, "lookup", nil, http.StatusInternalServerError)
		h.fail(w, r, cmp.Or(err, errors.New("webhook: lookup returned no Verifier")), "webhook: verifier lookup failed")
		return
	}
	body, err := v.VerifyRequest(r)
	if err != nil {
		h.refuse(w, r, err)
		return
	}
	ev, err := Parse(body)
	if err != nil {
		h.refuse(w, r, err)
		return
	}
	if h.dedup != nil {
		h.serveOnce(w, r, ev)
		return
	}
	h.answer(w, r, ev, h.call(r, ev))
}

// serveOnce runs the callback under WithDeduplication's rule, keyed by the
// event's id within its webhook configuration when the envelope names one.
func (h *handler) serveOnce(w http.ResponseWriter, r *http.Request, ev *Event) {
	ctx := r.Context()
	key := ev.ID
	if ev.WebhookConfigID != "" {
		key = ev.WebhookConfigID + "/" + ev.ID
	}
	owner := rand.Text()
	state, err := h.claim(ctx, key, owner)
	switch {
	case err != nil:
		h.tell(r, hooks.Failed, "dedup_store", ev, http.StatusInternalServerError)
		h.fail(w, r, err, "webhook: dedup store failed", "event", ev.ID)
	case state == Handled:
		h.tell(r, hooks.Duplicate, "", ev, http.StatusOK)
		h.log.InfoContext(ctx, "webhook: duplicate delivery dropped", "event", ev.ID, "type", ev.Type)
		w.WriteHeader(http.StatusOK)
	case state != Claimed:
		h.tell(r, hooks.Duplicate, "", ev, http.StatusConflict)
		h.log.WarnContext(ctx, "webhook: duplicate delivery still in progress elsewhere", "event", ev.ID, "type", ev.Type, "waited", h.policy.MaxWait)
		http.Error(w, "webhook: event is being handled by another delivery", http.StatusConflict)
	default:
		// Neither store call is canceled with the request. The claim is
		// released on every way out but success, runtime.Goexit included.
		done := false
		defer func() {
			if done {
				return
			}
			if err := h.dedup.Release(context.WithoutCancel(ctx), key, owner); err != nil {
				h.log.ErrorContext(ctx, "webhook: dedup release failed", "event", ev.ID, "error", err)
			}
		}()
		err := h.call(r, ev)
		if done = err == nil; done {
			// The event is handled even if this fails: answer 200 and let
			// the claim expire; a redelivery after that runs the callback
			// again.
			if err := h.dedup.Done(context.WithoutCancel(ctx), key, h.policy.Retention); err != nil {
				h.log.ErrorContext(ctx, "webhook: dedup done mark failed", "event", ev.ID, "error", err)
			}
		}
		h.answer(w, r, ev, err)
	}
}

// claim claims key, waiting while another attempt holds it: until the
// attempt ends, MaxWait passes or ctx is done. Polling starts at 20 ms and
// backs off to 500 ms.
func (h *handler) claim(ctx context.Context, key, owner string) (ClaimState, error) {
	deadline := time.Now().Add(h.policy.MaxWait)
	for delay := 20 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		state, err := h.dedup.Claim(ctx, key, owner, h.policy.ProcessingTTL)
		if err != nil || state != InProgress {
			return state, err
		}
		wait := min(delay, time.Until(deadline))
		if wait <= 0 {
			return InProgress, nil
		}
		select {
		case <-ctx.Done():
			return InProgress, nil
		case <-time.After(wait):
		}
	}
}

// call runs the callback with the request's context. A panic in it becomes
// its error, with the stack, so that the delivery is answered 500 (and its
// claim released) rather than net/http dropping the connection without a
// status.
func (h *handler) call(r *http.Request, ev *Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("webhook: callback panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return h.fn(r.Context(), r, ev)
}

// answer writes 200 for a callback that succeeded, 500 for one that failed.
func (h *handler) answer(w http.ResponseWriter, r *http.Request, ev *Event, err error) {
	if err != nil {
		h.tell(r, hooks.Failed, "callback", ev, http.StatusInternalServerError)
		h.fail(w, r, err, "webhook: callback failed", "event", ev.ID, "type", ev.Type)
		return
	}
	h.tell(r, hooks.Handled, "", ev, http.StatusOK)
	w.WriteHeader(http.StatusOK)
}

// tell gives the Delivery hook a delivery's outcome.
func (h *handler) tell(r *http.Request, outcome, reason string, ev *Event, status int) {
	if h.hooks == nil {
		return
	}
	d := hooks.Delivery{Outcome: outcome, Reason: reason, Status: status}
	if ev != nil {
		d.EventType = string(ev.Type)
	}
	h.hooks(r.Context(), d)
}

// fail logs err and answers 500 without it.
func (h *handler) fail(w http.ResponseWriter, r *http.Request, err error, msg string, attrs ...any) {
	h.log.ErrorContext(r.Context(), msg, append(attrs, "error", err)...)
	http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
}

// refuse logs and answers a request refused for err, an error of the
// lookup, VerifyRequest or Parse, sending only the sentinel's message.
func (h *handler) refuse(w http.ResponseWriter, r *http.Request, err error) {
	code, msg, reason := http.StatusBadRequest, "webhook: unreadable body", "payload"
	for _, s := range []struct {
		err    error
		code   int
		reason string
	}{
		{ErrUnknownReceiver, http.StatusNotFound, "unknown_receiver"},
		{ErrMissingHeader, http.StatusUnauthorized, "missing_header"},
		{ErrNoSignature, http.StatusUnauthorized, "no_signature"},
		{ErrTimestampOutOfTolerance, http.StatusUnauthorized, "timestamp"},
		{ErrSignatureMismatch, http.StatusUnauthorized, "signature"},
		{ErrBodyTooLarge, http.StatusRequestEntityTooLarge, "size"},
		{ErrMalformedHeader, http.StatusBadRequest, "malformed_header"},
		{ErrEmptyBody, http.StatusBadRequest, "empty_body"},
		{ErrInvalidPayload, http.StatusBadRequest, "payload"},
	} {
		if errors.Is(err, s.err) {
			code, msg, reason = s.code, s.err.Error(), s.reason
			break
		}
	}
	h.tell(r, hooks.Refused, reason, nil, code)
	h.log.WarnContext(r.Context(), "webhook: delivery refused", "status", code, "error", err)
	http.Error(w, msg, code)
}
