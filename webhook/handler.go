package webhook

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
)

// A HandlerOption configures NewHandler.
type HandlerOption func(*handler)

// WithDeduplication makes the handler claim each event id in store before
// calling the callback and answer 200 without calling it when the id was
// already claimed, as happens when a delivery is redelivered from the
// dashboard. When the callback fails or panics the claim is released, so a
// redelivery is processed. A nil store means NewMemoryDedup(0), which only
// sees the deliveries of this process.
func WithDeduplication(store DedupStore) HandlerOption {
	if store == nil {
		store = NewMemoryDedup(0)
	}
	return func(h *handler) { h.dedup = store }
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

type handler struct {
	v     *Verifier
	fn    func(context.Context, *Event) error
	dedup DedupStore
	log   *slog.Logger
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
//   - 200 OK when fn returns nil, or for a duplicate (WithDeduplication);
//   - 500 Internal Server Error when fn returns an error, so the delivery
//     shows as failed in the dashboard and can be redelivered. The error's
//     text is not sent; a 4xx body is only the sentinel's short message.
//
// The service waits 10 seconds for an answer: do slow work after fn
// returns, for example by queueing the event. NewHandler panics if v or fn
// is nil.
func NewHandler(v *Verifier, fn func(context.Context, *Event) error, opts ...HandlerOption) http.Handler {
	if v == nil || fn == nil {
		panic("webhook: NewHandler needs a Verifier and a callback")
	}
	h := &handler{v: v, fn: fn, log: slog.New(slog.DiscardHandler)}
	for _, opt := range opts {
		opt(h)
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	body, err := h.v.VerifyRequest(r)
	if err != nil {
		code, msg := refusal(err)
		h.log.WarnContext(ctx, "webhook: delivery refused", "status", code, "error", err)
		http.Error(w, msg, code)
		return
	}
	ev, err := Parse(body)
	if err != nil {
		h.log.WarnContext(ctx, "webhook: delivery refused", "status", http.StatusBadRequest, "error", err)
		http.Error(w, ErrInvalidPayload.Error(), http.StatusBadRequest)
		return
	}
	if h.dedup != nil {
		first, err := h.dedup.Claim(ctx, ev.ID)
		if err != nil {
			h.log.ErrorContext(ctx, "webhook: dedup store failed", "event", ev.ID, "error", err)
			http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
			return
		}
		if !first {
			h.log.InfoContext(ctx, "webhook: duplicate delivery dropped", "event", ev.ID, "type", ev.Type)
			w.WriteHeader(http.StatusOK)
			return
		}
	}
	if err := h.call(ctx, ev); err != nil {
		h.log.ErrorContext(ctx, "webhook: callback failed", "event", ev.ID, "type", ev.Type, "error", err)
		http.Error(w, http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// call runs the callback and, with deduplication, releases the event's
// claim unless the callback succeeded, also when it panics.
func (h *handler) call(ctx context.Context, ev *Event) error {
	ok := false
	if h.dedup != nil {
		defer func() {
			if ok {
				return
			}
			if err := h.dedup.Release(context.WithoutCancel(ctx), ev.ID); err != nil {
				h.log.ErrorContext(ctx, "webhook: dedup release failed", "event", ev.ID, "error", err)
			}
		}()
	}
	err := h.fn(ctx, ev)
	ok = err == nil
	return err
}

// refusal maps a VerifyRequest error to a status and the short message sent
// back.
func refusal(err error) (int, string) {
	for _, e := range []error{ErrMissingHeader, ErrNoSignature, ErrTimestampOutOfTolerance, ErrSignatureMismatch} {
		if errors.Is(err, e) {
			return http.StatusUnauthorized, e.Error()
		}
	}
	switch {
	case errors.Is(err, ErrBodyTooLarge):
		return http.StatusRequestEntityTooLarge, ErrBodyTooLarge.Error()
	case errors.Is(err, ErrMalformedHeader):
		return http.StatusBadRequest, ErrMalformedHeader.Error()
	case errors.Is(err, ErrEmptyBody):
		return http.StatusBadRequest, ErrEmptyBody.Error()
	}
	return http.StatusBadRequest, "webhook: unreadable body"
}
