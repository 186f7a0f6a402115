package partnertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/locsvc/partner-go/webhook"
)

// DeliveryTimeout is how long a webhook receiver has to answer with a 2xx
// status before the delivery counts as failed, as in the spec.
const DeliveryTimeout = 10 * time.Second

// loggedBodyChars is how much of a receiver's answer a Delivery keeps.
const loggedBodyChars = 500

// A WebhookConfig is a webhook endpoint, as a customer configures it in a
// project's Integrations area: it receives the events of that project
// only.
type WebhookConfig struct {
	// ID is the config's id, with the wh_ prefix; it is the envelope's
	// webhookConfigId.
	ID string
	// ProjectID is the project whose events it receives.
	ProjectID string
	// URL is where deliveries are sent.
	URL string
	// EventTypes are the event types delivered; empty means all.
	EventTypes []webhook.EventType
	// Secret signs deliveries (whsec_ prefix). AddWebhook shows it once;
	// RotateSecret replaces it.
	Secret string
}

// A Delivery is one entry of the delivery log: an attempt to send an event
// to a webhook endpoint.
type Delivery struct {
	EventID   string
	WebhookID string
	EventType webhook.EventType
	// Redelivery reports whether Redeliver sent it.
	Redelivery bool
	// Time is when it was sent, on the server's clock.
	Time time.Time
	// Status is the receiver's HTTP status, or 0 if there was no answer.
	Status int
	// ResponseBody is the first 500 characters of the receiver's answer.
	ResponseBody string
	// Err is why the delivery failed (no answer, a non-2xx status, or no
	// answer within DeliveryTimeout), or nil if it succeeded.
	Err error
	// Body is the envelope sent, byte for byte.
	Body []byte
	// Signature is the X-Service-Signature header sent.
	Signature string
}

// A DeliverOption changes how Deliver or Redeliver signs a delivery, to
// test a receiver's refusals.
type DeliverOption func(*deliverConfig)

type deliverConfig struct {
	signedAt time.Time
	secret   string
}

// SignedAt signs the delivery as of t instead of the server's current
// time, as a stale or replayed delivery would be. The envelope is not
// changed.
func SignedAt(t time.Time) DeliverOption {
	return func(c *deliverConfig) { c.signedAt = t }
}

// SignedWith signs the delivery with secret instead of the config's
// current secret, as a forged delivery or one signed before a rotation
// would be.
func SignedWith(secret string) DeliverOption {
	return func(c *deliverConfig) { c.secret = secret }
}

// event is an event sent once, kept for Redeliver.
type event struct {
	webhookID string
	eventType webhook.EventType
	body      []byte
}

// envelope is the body of every delivery.
type envelope struct {
	ID              string            `json:"id"`
	WebhookConfigID string            `json:"webhookConfigId"`
	EventType       webhook.EventType `json:"eventType"`
	Timestamp       int64             `json:"timestamp"` // Unix milliseconds
	CreatedAt       string            `json:"createdAt"`
	Version         string            `json:"version"`
}

// newEnvelope returns the envelope of an event sent at now.
func newEnvelope(id, webhookID string, t webhook.EventType, now time.Time) envelope {
	return envelope{ID: id, WebhookConfigID: webhookID, EventType: t, Timestamp: now.UnixMilli(),
		CreatedAt: now.UTC().Format("2006-01-02T15:04:05.000Z07:00"), Version: "1"}
}

// envelopeBody returns env as JSON with a last member "data" holding data
// byte for byte (json.Marshal would compact it).
func envelopeBody(env envelope, data []byte) []byte {
	b, err := json.Marshal(env)
	if err != nil {
		panic(err) // strings and a number only
	}
	b = append(b[:len(b)-1], `,"data":`...)
	b = append(b, data...)
	return append(b, '}')
}

// AddWebhook configures a webhook endpoint at url for the events of a
// project (its id) of these types (all of them if none), as the service
// configures webhooks per project, and returns it, with its secret. The
// tools' events of other projects do not reach it. It panics if the
// project is unknown.
func (s *Server) AddWebhook(projectID, url string, eventTypes ...webhook.EventType) WebhookConfig {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.projects[projectID] == nil {
		panic(fmt.Sprintf("partnertest: AddWebhook: unknown project %q", projectID))
	}
	id, _ := s.nextID("wh")
	w := &WebhookConfig{ID: id, ProjectID: projectID, URL: url, EventTypes: slices.Clone(eventTypes), Secret: secret("whsec_")}
	s.webhooks[id] = w
	return w.clone()
}

// RemoveWebhook removes a webhook config: nothing is delivered to it any
// more, and Deliver and Redeliver of it panic as for an unknown config.
// Deliveries already logged stay in Deliveries. It panics if the config is
// unknown.
func (s *Server) RemoveWebhook(webhookID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.webhookLocked("RemoveWebhook", webhookID)
	delete(s.webhooks, webhookID)
}

func (w *WebhookConfig) clone() WebhookConfig {
	c := *w
	c.EventTypes = slices.Clone(w.EventTypes)
	return c
}

func (s *Server) webhookLocked(method, id string) *WebhookConfig {
	w := s.webhooks[id]
	if w == nil {
		panic(fmt.Sprintf("partnertest: %s: unknown webhook config %q", method, id))
	}
	return w
}

// RotateSecret gives a webhook config a new secret and returns it. Later
// deliveries are signed with it only.
func (s *Server) RotateSecret(webhookID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.webhookLocked("RotateSecret", webhookID)
	w.Secret = secret("whsec_")
	return w.Secret
}

// Deliver sends a new event of type eventType to a webhook config's URL,
// as the service does, and logs the attempt. data is the envelope's data:
// a json.RawMessage or []byte holding JSON is sent as is, and anything else
// is marshalled with encoding/json; nil sends {}.
//
// A data struct of package webhook (such as *webhook.TranslationsPublished,
// pointer or not) must be the one the webhook package documents for
// eventType; Deliver refuses any other. For a content event (one whose
// struct embeds webhook.ContentMeta) Deliver fills ContentMeta.Event with
// eventType and ContentMeta.Timestamp with the envelope's time when they
// are empty, as the service sends them, and refuses an Event that names
// another type. The caller's value is not changed. Other values, such as
// maps, are sent as they marshal.
//
// The request is a POST of the envelope {id, webhookConfigId, eventType,
// timestamp, createdAt, version, data} with Content-Type application/json
// and the headers webhook.SignatureHeader (signed with webhook.Sign),
// webhook.EventHeader and webhook.IDHeader. The receiver has
// DeliveryTimeout to answer; ctx can end the attempt sooner. Failed
// deliveries are not retried: call Redeliver.
//
// Deliver returns the log entry, and its Err if the delivery failed. It
// returns an error without sending anything if the config does not
// subscribe to eventType, or data is not valid JSON or is a struct of
// another event type. It panics if the config is unknown.
func (s *Server) Deliver(ctx context.Context, webhookID string, eventType webhook.EventType, data any, opts ...DeliverOption) (Delivery, error) {
	return s.deliver(ctx, webhookID, eventType, data, true, opts)
}

// errRemoved is deliver's answer for a config removed meanwhile.
var errRemoved = errors.New("partnertest: webhook config removed")

// deliver is Deliver; when the config is unknown it panics if mustExist,
// and else returns errRemoved (a tool's event racing RemoveWebhook).
func (s *Server) deliver(ctx context.Context, webhookID string, eventType webhook.EventType, data any, mustExist bool, opts []DeliverOption) (Delivery, error) {
	now := s.Now().Truncate(time.Millisecond)
	raw, err := marshalData(eventType, data, now)
	if err != nil {
		return Delivery{}, err
	}
	id, ev, url, secret, err := s.newEvent(webhookID, eventType, raw, now, mustExist)
	if err != nil {
		return Delivery{}, err
	}
	return s.send(ctx, id, ev, url, secret, false, opts)
}

// newEvent makes and keeps an event, and returns it with where to send it.
func (s *Server) newEvent(webhookID string, eventType webhook.EventType, data []byte, now time.Time, mustExist bool) (id string, ev *event, url, secret string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !mustExist && s.webhooks[webhookID] == nil {
		return "", nil, "", "", errRemoved
	}
	w := s.webhookLocked("Deliver", webhookID)
	if len(w.EventTypes) > 0 && !slices.Contains(w.EventTypes, eventType) {
		return "", nil, "", "", fmt.Errorf("partnertest: webhook config %s does not subscribe to %s", webhookID, eventType)
	}
	id, _ = s.nextID("evt")
	body := envelopeBody(newEnvelope(id, webhookID, eventType, now), data)
	ev = &event{webhookID: webhookID, eventType: eventType, body: body}
	s.events[id] = ev
	return id, ev, w.URL, w.Secret, nil
}

func marshalData(eventType webhook.EventType, data any, now time.Time) (json.RawMessage, error) {
	var raw []byte
	switch d := data.(type) {
	case nil:
		return json.RawMessage("{}"), nil
	case json.RawMessage:
		raw = d
	case []byte:
		raw = d
	default:
		data, err := typedData(eventType, data, now)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(data)
		if err != nil {
			return nil, fmt.Errorf("partnertest: marshalling event data: %w", err)
		}
		return b, nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("partnertest: event data is not valid JSON")
	}
	return bytes.Clone(raw), nil
}

// Redeliver sends an event Deliver sent earlier again, as the dashboard's
// manual redelivery does: the same id and a byte-identical body, to the
// config's current URL, with a fresh signature made with its current
// secret. It returns the new log entry, and its Err if the delivery failed.
// It panics if the event is unknown.
func (s *Server) Redeliver(ctx context.Context, eventID string, opts ...DeliverOption) (Delivery, error) {
	ev, url, secret := s.eventTarget(eventID)
	return s.send(ctx, eventID, ev, url, secret, true, opts)
}

// eventTarget returns a kept event with where to send it now.
func (s *Server) eventTarget(eventID string) (ev *event, url, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ev = s.events[eventID]
	if ev == nil {
		panic(fmt.Sprintf("partnertest: Redeliver: unknown event %q", eventID))
	}
	w := s.webhookLocked("Redeliver", ev.webhookID)
	return ev, w.URL, w.Secret
}

// send makes one delivery attempt and logs it.
func (s *Server) send(ctx context.Context, id string, ev *event, url, secret string, redelivery bool, opts []DeliverOption) (Delivery, error) {
	now := s.Now()
	cfg := deliverConfig{signedAt: now, secret: secret}
	for _, o := range opts {
		o(&cfg)
	}
	d := Delivery{
		EventID:    id,
		WebhookID:  ev.webhookID,
		EventType:  ev.eventType,
		Redelivery: redelivery,
		Time:       now,
		Body:       bytes.Clone(ev.body),
		Signature:  webhook.Sign(cfg.secret, cfg.signedAt, ev.body),
	}
	d.Status, d.ResponseBody, d.Err = s.post(ctx, url, &d)
	s.mu.Lock()
	s.deliveries = append(s.deliveries, d)
	s.mu.Unlock()
	return d, d.Err
}

func (s *Server) post(ctx context.Context, url string, d *Delivery) (status int, answer string, err error) {
	ctx, cancel := context.WithTimeout(ctx, DeliveryTimeout)
	defer cancel()
	req, err := d.Request(ctx, url)
	if err != nil {
		return 0, "", err
	}
	resp, err := s.delivery.Do(req)
	if err != nil {
		return 0, "", fmt.Errorf("partnertest: webhook delivery: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, loggedBodyChars*utf8.UTFMax))
	answer = firstChars(b, loggedBodyChars)
	switch {
	case err != nil:
		return resp.StatusCode, answer, fmt.Errorf("partnertest: webhook delivery: reading the answer: %w", err)
	case resp.StatusCode < 200 || resp.StatusCode > 299:
		return resp.StatusCode, answer, fmt.Errorf("partnertest: webhook delivery: receiver answered %d", resp.StatusCode)
	}
	return resp.StatusCode, answer, nil
}

// firstChars returns the first n characters of b.
func firstChars(b []byte, n int) string {
	for i := range string(b) {
		if n == 0 {
			return string(b[:i])
		}
		n--
	}
	return string(b)
}

// Deliveries returns the delivery log, oldest first.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.deliveries)
	for i := range out {
		out[i].Body = bytes.Clone(out[i].Body)
	}
	return out
}

// webhookPkg is the import path of package webhook.
var webhookPkg = reflect.TypeFor[webhook.Event]().PkgPath()

// typedData checks a data struct of package webhook against eventType and
// returns it with a content event's Event and Timestamp filled in; it
// returns any other value as is.
func typedData(eventType webhook.EventType, data any, now time.Time) (any, error) {
	v := reflect.ValueOf(data)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return nil, fmt.Errorf("partnertest: event data is a nil %T", data)
		}
		v = v.Elem()
	}
	if v.Type().PkgPath() != webhookPkg {
		return data, nil
	}
	want := dataType(eventType)
	switch {
	case want == nil:
		return nil, fmt.Errorf("partnertest: event type %q has no data struct in package webhook; send its data as a json.RawMessage", eventType)
	case v.Type() != want:
		return nil, fmt.Errorf("partnertest: event data is a %v, but %s takes a *%v", v.Type(), eventType, want)
	}
	cp := reflect.New(want).Elem()
	cp.Set(v)
	f := cp.FieldByName("ContentMeta")
	if !f.IsValid() {
		return cp.Addr().Interface(), nil
	}
	meta := f.Addr().Interface().(*webhook.ContentMeta)
	switch meta.Event {
	case "":
		meta.Event = eventType
	case eventType:
	default:
		return nil, fmt.Errorf("partnertest: event data says event %q, but it is sent as %s", meta.Event, eventType)
	}
	if meta.Timestamp.IsZero() {
		meta.Timestamp = now.UTC()
	}
	return cp.Addr().Interface(), nil
}

// dataType returns the data struct package webhook decodes eventType
// into, or nil for a type it does not know.
func dataType(eventType webhook.EventType) reflect.Type {
	switch eventType {
	case webhook.EventTranslationsPublished:
		return reflect.TypeFor[webhook.TranslationsPublished]()
	case webhook.EventTranslationsUpdated:
		return reflect.TypeFor[webhook.TranslationsUpdated]()
	case webhook.EventKeysCreated:
		return reflect.TypeFor[webhook.KeysCreated]()
	case webhook.EventKeysDeleted:
		return reflect.TypeFor[webhook.KeysDeleted]()
	case webhook.EventSyncCompleted:
		return reflect.TypeFor[webhook.SyncCompleted]()
	case webhook.EventLanguageAdded:
		return reflect.TypeFor[webhook.LanguageAdded]()
	case webhook.EventLanguageRemoved:
		return reflect.TypeFor[webhook.LanguageRemoved]()
	case webhook.EventEntryCreated:
		return reflect.TypeFor[webhook.EntryCreated]()
	case webhook.EventEntryUpdated:
		return reflect.TypeFor[webhook.EntryUpdated]()
	case webhook.EventEntryPublished:
		return reflect.TypeFor[webhook.EntryPublished]()
	case webhook.EventEntryUnpublished:
		return reflect.TypeFor[webhook.EntryUnpublished]()
	case webhook.EventEntryDeleted:
		return reflect.TypeFor[webhook.EntryDeleted]()
	case webhook.EventEntriesBulkPublished:
		return reflect.TypeFor[webhook.EntriesBulkPublished]()
	case webhook.EventEntriesBulkUpdated:
		return reflect.TypeFor[webhook.EntriesBulkUpdated]()
	case webhook.EventEntriesBulkDeleted:
		return reflect.TypeFor[webhook.EntriesBulkDeleted]()
	case webhook.EventModelCreated:
		return reflect.TypeFor[webhook.ModelCreated]()
	case webhook.EventModelUpdated:
		return reflect.TypeFor[webhook.ModelUpdated]()
	case webhook.EventModelDeleted:
		return reflect.TypeFor[webhook.ModelDeleted]()
	case webhook.EventFieldAdded:
		return reflect.TypeFor[webhook.FieldAdded]()
	case webhook.EventFieldUpdated:
		return reflect.TypeFor[webhook.FieldUpdated]()
	case webhook.EventFieldDeleted:
		return reflect.TypeFor[webhook.FieldDeleted]()
	}
	return nil
}
