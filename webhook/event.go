package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// An EventType names a kind of event, as in the envelope's eventType.
type EventType string

// The event types the service documents. Parse decodes each into its own
// struct in Event.Data; the comment names it.
const (
	EventTranslationsPublished EventType = "translations.published" // *TranslationsPublished
	EventTranslationsUpdated   EventType = "translations.updated"   // *TranslationsUpdated
	EventKeysCreated           EventType = "keys.created"           // *KeysCreated
	EventKeysDeleted           EventType = "keys.deleted"           // *KeysDeleted
	EventSyncCompleted         EventType = "sync.completed"         // *SyncCompleted
	EventLanguageAdded         EventType = "language.added"         // *LanguageAdded
	EventLanguageRemoved       EventType = "language.removed"       // *LanguageRemoved

	EventEntryCreated     EventType = "content.entry.created"     // *EntryCreated
	EventEntryUpdated     EventType = "content.entry.updated"     // *EntryUpdated
	EventEntryPublished   EventType = "content.entry.published"   // *EntryPublished
	EventEntryUnpublished EventType = "content.entry.unpublished" // *EntryUnpublished
	EventEntryDeleted     EventType = "content.entry.deleted"     // *EntryDeleted

	EventEntriesBulkPublished EventType = "content.entry.bulkPublished" // *EntriesBulkPublished
	EventEntriesBulkUpdated   EventType = "content.entry.bulkUpdated"   // *EntriesBulkUpdated
	EventEntriesBulkDeleted   EventType = "content.entry.bulkDeleted"   // *EntriesBulkDeleted

	EventModelCreated EventType = "content.model.created" // *ModelCreated
	EventModelUpdated EventType = "content.model.updated" // *ModelUpdated
	EventModelDeleted EventType = "content.model.deleted" // *ModelDeleted

	EventFieldAdded   EventType = "content.field.added"   // *FieldAdded
	EventFieldUpdated EventType = "content.field.updated" // *FieldUpdated
	EventFieldDeleted EventType = "content.field.deleted" // *FieldDeleted
)

// An Event is a decoded delivery: the envelope, and its data as a typed
// struct.
type Event struct {
	// ID is the event id (evt_ prefix). Manual redeliveries keep it, so it
	// is the idempotency key.
	ID string
	// WebhookConfigID is the webhook configuration that fired the event
	// (wh_ prefix).
	WebhookConfigID string
	// Type is the event type.
	Type EventType
	// Timestamp is when the service dispatched the event (sent as Unix
	// milliseconds); zero if absent.
	Timestamp time.Time
	// CreatedAt is the same moment, sent as an ISO 8601 string; zero if
	// absent.
	CreatedAt time.Time
	// Version is the envelope version, currently "1".
	Version string
	// Data is the event's data: a pointer to the struct named next to
	// Type's constant (*TranslationsPublished for
	// EventTranslationsPublished, and so on), or *UnknownData for a type
	// this package does not know.
	Data any
	// RawData is the data object exactly as sent, for fields this package
	// does not decode.
	RawData json.RawMessage
}

// UnknownData is Event.Data for an event type this package does not know,
// such as one the service added later. Parse does not fail on it.
type UnknownData struct {
	// Raw is the data object exactly as sent.
	Raw json.RawMessage
}

// envelope is the wire form of an Event.
type envelope struct {
	ID              string          `json:"id"`
	WebhookConfigID string          `json:"webhookConfigId"`
	EventType       EventType       `json:"eventType"`
	Timestamp       json.Number     `json:"timestamp"`
	CreatedAt       string          `json:"createdAt"`
	Version         json.RawMessage `json:"version"`
	Data            json.RawMessage `json:"data"`
}

// Parse decodes a delivery body into an Event without verifying it: call
// Verify first, or use ConstructEvent or NewHandler, which do both.
//
// The body must be a JSON object with a non-empty id and eventType;
// otherwise, or if a field has the wrong JSON type, Parse fails with
// ErrInvalidPayload. Unknown fields are ignored. An unknown event type is
// not an error: its data becomes *UnknownData.
//
// Parse uses encoding/json twice: once for the envelope, keeping data as
// raw JSON (which becomes RawData), then for data into the struct of the
// event type. The data structs are plain fields, so encoding/json needs no
// custom unmarshaler for them.
func Parse(body []byte) (*Event, error) {
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidPayload)
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	if env.ID == "" {
		return nil, fmt.Errorf("%w: no id", ErrInvalidPayload)
	}
	if env.EventType == "" {
		return nil, fmt.Errorf("%w: no eventType", ErrInvalidPayload)
	}
	ev := &Event{
		ID:              env.ID,
		WebhookConfigID: env.WebhookConfigID,
		Type:            env.EventType,
		Version:         jsonScalar(env.Version),
		RawData:         env.Data,
	}
	var err error
	if ev.Timestamp, err = unixMillis(env.Timestamp); err != nil {
		return nil, fmt.Errorf("%w: timestamp: %w", ErrInvalidPayload, err)
	}
	if ev.CreatedAt, err = parseCreatedAt(env.CreatedAt); err != nil {
		return nil, fmt.Errorf("%w: createdAt: %w", ErrInvalidPayload, err)
	}
	data := newData(ev.Type)
	if data == nil {
		ev.Data = &UnknownData{Raw: env.Data}
		return ev, nil
	}
	if len(env.Data) > 0 {
		if err := json.Unmarshal(env.Data, data); err != nil {
			return nil, fmt.Errorf("%w: data of %s: %w", ErrInvalidPayload, ev.Type, err)
		}
	}
	ev.Data = data
	return ev, nil
}

// newData returns a pointer to a new data struct for t, or nil if t is
// unknown.
func newData(t EventType) any {
	switch t {
	case EventTranslationsPublished:
		return new(TranslationsPublished)
	case EventTranslationsUpdated:
		return new(TranslationsUpdated)
	case EventKeysCreated:
		return new(KeysCreated)
	case EventKeysDeleted:
		return new(KeysDeleted)
	case EventSyncCompleted:
		return new(SyncCompleted)
	case EventLanguageAdded:
		return new(LanguageAdded)
	case EventLanguageRemoved:
		return new(LanguageRemoved)
	case EventEntryCreated:
		return new(EntryCreated)
	case EventEntryUpdated:
		return new(EntryUpdated)
	case EventEntryPublished:
		return new(EntryPublished)
	case EventEntryUnpublished:
		return new(EntryUnpublished)
	case EventEntryDeleted:
		return new(EntryDeleted)
	case EventEntriesBulkPublished:
		return new(EntriesBulkPublished)
	case EventEntriesBulkUpdated:
		return new(EntriesBulkUpdated)
	case EventEntriesBulkDeleted:
		return new(EntriesBulkDeleted)
	case EventModelCreated:
		return new(ModelCreated)
	case EventModelUpdated:
		return new(ModelUpdated)
	case EventModelDeleted:
		return new(ModelDeleted)
	case EventFieldAdded:
		return new(FieldAdded)
	case EventFieldUpdated:
		return new(FieldUpdated)
	case EventFieldDeleted:
		return new(FieldDeleted)
	}
	return nil
}

// unixMillis converts the envelope timestamp, Unix milliseconds sent as a
// JSON number (or a numeric string), to a time; "" gives the zero time.
func unixMillis(n json.Number) (time.Time, error) {
	if n == "" {
		return time.Time{}, nil
	}
	if ms, err := n.Int64(); err == nil {
		return time.UnixMilli(ms), nil
	}
	f, err := n.Float64()
	if err != nil {
		return time.Time{}, err
	}
	return time.UnixMicro(int64(f * 1000)), nil
}

// parseCreatedAt parses the envelope's createdAt; "" gives the zero time.
func parseCreatedAt(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.RFC3339Nano, s)
}

// jsonScalar returns a JSON string's value, or any other JSON value's text:
// the version is documented as the string "1" but a number 1 reads the same.
func jsonScalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// ConstructEvent verifies body against header as Verify does and, if it is
// genuine, parses it as Parse does.
func (v *Verifier) ConstructEvent(body []byte, header string) (*Event, error) {
	if err := v.Verify(body, header); err != nil {
		return nil, err
	}
	return Parse(body)
}
