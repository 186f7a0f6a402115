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
	ID              string
	WebhookConfigID string    // the webhook configuration that fired the event (wh_ prefix)
	Type            EventType // the event type
	// Timestamp is when the service dispatched the event (sent as Unix
	// milliseconds); CreatedAt is the same moment, sent as an ISO 8601
	// string. Each is zero if absent.
	Timestamp, CreatedAt time.Time
	Version              string // the envelope version, currently "1"
	// Data is a pointer to the struct named next to Type's constant
	// (*TranslationsPublished for EventTranslationsPublished, and so on),
	// or *UnknownData for a type this package does not know.
	Data any

	raw  json.RawMessage // the data as sent, when decoding kept it
	body []byte          // the body, to find the data in when raw is nil
}

// RawData returns the data object exactly as sent, for fields this package
// does not decode, or nil if the body had no data or e was not made by
// Parse. Do not modify it. Parse keeps no copy of the data, so RawData
// reads the body given to Parse again (in about half the time Parse took):
// call it once, and keep that body unchanged until then.
func (e *Event) RawData() json.RawMessage {
	if e.raw != nil || e.body == nil {
		return e.raw
	}
	return dataIn(e.body)
}

// dataIn returns the data member of body, a JSON object Parse accepted, as
// sent: the last one if it is repeated, nil if there is none.
func dataIn(body []byte) json.RawMessage {
	var env struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(body, &env) // Parse has decoded it
	return env.Data
}

// UnknownData is Event.Data for an event type this package does not know,
// such as one the service added later. Parse does not fail on it.
type UnknownData struct {
	Raw json.RawMessage // the data object exactly as sent
}

// Parse decodes a delivery body into an Event without verifying it: call
// Verify first, or use ConstructEvent or NewHandler, which do both.
//
// The body must be a JSON object with a non-empty id and eventType;
// otherwise, or if a field has the wrong JSON type, Parse fails with
// ErrInvalidPayload. Unknown fields are ignored. An unknown event type is
// not an error: its data becomes *UnknownData. Keys match as encoding/json
// matches struct fields: case-insensitively, and when a key is repeated
// (the service never does) the last value wins, except that a repeated
// data object is merged into the one struct.
//
// The event refers to body, which Event.RawData reads: do not modify body
// while you may still call it.
func Parse(body []byte) (*Event, error) {
	if trimmed := bytes.TrimLeft(body, " \t\r\n"); len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("%w: not a JSON object", ErrInvalidPayload) // json.Unmarshal takes null
	}
	env, err := decodeEnvelope(body, true)
	if env.typed != nil && env.typedAs != env.EventType.t {
		// eventType changed after the data's struct was chosen by an
		// earlier one: decode again, keeping the data as sent.
		env, err = decodeEnvelope(body, false)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidPayload, err)
	}
	ev := &Event{ID: env.ID, WebhookConfigID: env.WebhookConfigID, Type: env.EventType.t}
	if json.Unmarshal(env.Version, &ev.Version) != nil { // not a string (null leaves ""): the value's text
		ev.Version = string(env.Version)
	}
	if ev.ID == "" {
		return nil, fmt.Errorf("%w: no id", ErrInvalidPayload)
	}
	if ev.Type == "" {
		return nil, fmt.Errorf("%w: no eventType", ErrInvalidPayload)
	}
	if ev.Timestamp, err = unixMillis(env.Timestamp); err != nil {
		return nil, fmt.Errorf("%w: timestamp: %w", ErrInvalidPayload, err)
	}
	if env.CreatedAt != "" {
		if ev.CreatedAt, err = time.Parse(time.RFC3339Nano, env.CreatedAt); err != nil {
			return nil, fmt.Errorf("%w: createdAt: %w", ErrInvalidPayload, err)
		}
	}
	if env.typed != nil && env.Data == env.typed {
		ev.Data, ev.body = env.typed, body // decoded in the one pass
		return ev, nil
	}
	// The data came before eventType, or eventType changed, or the data is
	// null or came after a null: decode it as sent into the struct of the
	// type.
	ev.raw = dataIn(body)
	if ev.Data = newData(ev.Type); ev.Data == nil {
		ev.Data = &UnknownData{Raw: ev.raw}
	} else if ev.raw != nil {
		if err := json.Unmarshal(ev.raw, ev.Data); err != nil {
			return nil, fmt.Errorf("%w: data of %s: %w", ErrInvalidPayload, ev.Type, err)
		}
	}
	return ev, nil
}

// envelope is the wire form of an Event.
type envelope struct {
	ID              string          `json:"id"`
	WebhookConfigID string          `json:"webhookConfigId"`
	EventType       typeField       `json:"eventType"`
	Timestamp       json.Number     `json:"timestamp"`
	CreatedAt       string          `json:"createdAt"`
	Version         json.RawMessage `json:"version"` // "1", or 1
	Data            any             `json:"data"`    // &raw, or typed (see decodeEnvelope)
	raw             json.RawMessage
	typing          bool
	typed           any       // the struct of typedAs, when Data points at it
	typedAs         EventType // the eventType typed was made for
}

// decodeEnvelope decodes body, a JSON object, into an envelope in one
// json.Unmarshal. With typing, eventType, which the service sends before
// data, points Data at the struct of the type, so that the data is decoded
// straight into it, as a map would be, rather than read again from a
// json.RawMessage. Without typing, or when data comes first, the data is
// kept as sent.
func decodeEnvelope(body []byte, typing bool) (*envelope, error) {
	env := &envelope{typing: typing}
	env.EventType.env = env
	env.Data = &env.raw
	return env, json.Unmarshal(body, env)
}

// typeField is the envelope's eventType: a TextUnmarshaler, so that
// encoding/json gives it a string (null leaves it alone, any other JSON
// type is a type error) and it can point Data at the struct of the type.
type typeField struct {
	t   EventType
	env *envelope
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (f *typeField) UnmarshalText(b []byte) error {
	f.t = EventType(b)
	if env := f.env; env.typing && env.typed == nil && env.raw == nil {
		if d := newData(f.t); d != nil {
			env.Data, env.typed, env.typedAs = d, d, f.t
		}
	}
	return nil
}

// newData returns a pointer to a new data struct for t, or nil if t is
// unknown.
func newData(t EventType) any {
	if f := dataTypes[t]; f != nil {
		return f()
	}
	return nil
}

// dataTypes maps each EventType constant to its data struct. It is never
// written.
var dataTypes = map[EventType]func() any{
	EventTranslationsPublished: newOf[TranslationsPublished],
	EventTranslationsUpdated:   newOf[TranslationsUpdated],
	EventKeysCreated:           newOf[KeysCreated],
	EventKeysDeleted:           newOf[KeysDeleted],
	EventSyncCompleted:         newOf[SyncCompleted],
	EventLanguageAdded:         newOf[LanguageAdded],
	EventLanguageRemoved:       newOf[LanguageRemoved],
	EventEntryCreated:          newOf[EntryCreated],
	EventEntryUpdated:          newOf[EntryUpdated],
	EventEntryPublished:        newOf[EntryPublished],
	EventEntryUnpublished:      newOf[EntryUnpublished],
	EventEntryDeleted:          newOf[EntryDeleted],
	EventEntriesBulkPublished:  newOf[EntriesBulkPublished],
	EventEntriesBulkUpdated:    newOf[EntriesBulkUpdated],
	EventEntriesBulkDeleted:    newOf[EntriesBulkDeleted],
	EventModelCreated:          newOf[ModelCreated],
	EventModelUpdated:          newOf[ModelUpdated],
	EventModelDeleted:          newOf[ModelDeleted],
	EventFieldAdded:            newOf[FieldAdded],
	EventFieldUpdated:          newOf[FieldUpdated],
	EventFieldDeleted:          newOf[FieldDeleted],
}

func newOf[T any]() any { return new(T) }

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
	return time.UnixMicro(int64(f * 1000)), err
}

// ConstructEvent verifies body against header as Verify does and, if it is
// genuine, parses it as Parse does.
func (v *Verifier) ConstructEvent(body []byte, header string) (*Event, error) {
	if err := v.Verify(body, header); err != nil {
		return nil, err
	}
	return Parse(body)
}
