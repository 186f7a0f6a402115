package webhook

import (
	"math"
	"time"
)

// Data structs of the translation and project events. Org and Project are
// slugs; language codes are as the project uses them (for example "de").

// TranslationsPublished is the data of EventTranslationsPublished:
// translations were published to the CDN or committed to the source-code
// host.
type TranslationsPublished struct {
	Org         string    `json:"org"`
	Project     string    `json:"project"`
	Languages   []string  `json:"languages"`
	PublishedAt time.Time `json:"publishedAt"`
	KeysCount   int       `json:"keysCount"`
}

// TranslationsUpdated is the data of EventTranslationsUpdated: a translation
// was edited in the dashboard and is not yet published.
type TranslationsUpdated struct {
	Org       string `json:"org"`
	Project   string `json:"project"`
	Language  string `json:"language"`
	KeysCount int    `json:"keysCount"`
}

// KeysCreated is the data of EventKeysCreated: keys were added to a project.
type KeysCreated struct {
	Org       string   `json:"org"`
	Project   string   `json:"project"`
	Keys      []string `json:"keys"` // key names
	Namespace string   `json:"namespace"`
}

// KeysDeleted is the data of EventKeysDeleted: keys were removed.
type KeysDeleted struct {
	Org       string   `json:"org"`
	Project   string   `json:"project"`
	Keys      []string `json:"keys"` // key names
	Namespace string   `json:"namespace"`
}

// SyncCompleted is the data of EventSyncCompleted: a source-code host sync
// job finished, with success or failure.
type SyncCompleted struct {
	Org     string `json:"org"`
	Project string `json:"project"`
	// Status is the outcome. The service documents only
	// SyncStatusCompleted; anything else should be read as a failure.
	Status       string  `json:"status"`
	KeysImported int     `json:"keysImported"`
	DurationMS   float64 `json:"duration"` // the job's duration in milliseconds, as sent; see Duration
}

// SyncStatusCompleted is the SyncCompleted.Status of a successful sync.
const SyncStatusCompleted = "completed"

// Duration returns DurationMS as a time.Duration, rounded to the
// nanosecond.
func (s *SyncCompleted) Duration() time.Duration {
	return time.Duration(math.Round(s.DurationMS * float64(time.Millisecond)))
}

// LanguageAdded is the data of EventLanguageAdded: a target language was
// added to a project.
type LanguageAdded struct {
	Org          string `json:"org"`
	Project      string `json:"project"`
	Language     string `json:"language"`     // code, for example "de"
	LanguageName string `json:"languageName"` // display name, for example "German"
}

// LanguageRemoved is the data of EventLanguageRemoved: a target language was
// removed from a project.
type LanguageRemoved struct {
	Org      string `json:"org"`
	Project  string `json:"project"`
	Language string `json:"language"`
}

// ContentMeta holds the fields every content CMS event carries. It is
// embedded in each content data struct, so its fields read directly, as in
// d.Org or d.Actor.
type ContentMeta struct {
	Event     EventType `json:"event"`     // repeats the envelope's event type
	Timestamp time.Time `json:"timestamp"` // when the mutation occurred
	Org       string    `json:"org"`
	Project   string    `json:"project"`
	Model     *string   `json:"model"` // the content model's slug; nil when the service sends null
	Actor     *Actor    `json:"actor"` // who triggered the mutation; nil when the service sends null
}

// An Actor is who triggered a content mutation.
type Actor struct {
	UserID string `json:"userId"` // the user's id, or the agent's id when Via is ViaMCP
	Via    Via    `json:"via"`    // where the mutation came from
}

// Via says where a content mutation came from.
type Via string

// The origins the service documents for Actor.Via.
const (
	ViaUI     Via = "ui"     // the dashboard
	ViaMCP    Via = "mcp"    // an agent through the service's MCP tools
	ViaAPI    Via = "api"    // the API
	ViaSystem Via = "system" // the service itself
)

// EntryStatus is the status of a content entry.
type EntryStatus string

// The entry statuses the service documents.
const (
	EntryStatusDraft     EntryStatus = "draft"
	EntryStatusPublished EntryStatus = "published"
	EntryStatusArchived  EntryStatus = "archived"
)

// An Entry is the content entry an entry event is about. The pointer fields
// are nil when the service sends null, as it does for all of them in
// EntryDeleted.
type Entry struct {
	ID                 string       `json:"id"` // ent_ prefix
	Slug               string       `json:"slug"`
	Status             *EntryStatus `json:"status"`
	PreviousStatus     *EntryStatus `json:"previousStatus"`
	PublishedAt        *time.Time   `json:"publishedAt"`
	SourceLanguageCode *string      `json:"sourceLanguageCode"`
}

// EntryChange holds the data the five single-entry events share. It is
// embedded in EntryCreated, EntryUpdated, EntryPublished, EntryUnpublished
// and EntryDeleted.
type EntryChange struct {
	ContentMeta
	Entry     Entry    `json:"entry"`
	Languages []string `json:"languages"`
	// ChangedLanguages lists the languages the mutation touched. It is nil
	// when the field is absent (as on EntryDeleted) and empty, not nil,
	// when the service sends [] (as a publish may).
	ChangedLanguages []string `json:"changedLanguages,omitzero"`
}

// EntryCreated is the data of EventEntryCreated: a new entry was inserted,
// in status draft.
type EntryCreated struct{ EntryChange }

// EntryUpdated is the data of EventEntryUpdated: an entry was edited without
// a status change. An edit that changes the status sends EntryPublished or
// EntryUnpublished instead.
type EntryUpdated struct{ EntryChange }

// EntryPublished is the data of EventEntryPublished: an entry moved to
// status published, by an edit or a bulk publish.
type EntryPublished struct{ EntryChange }

// EntryUnpublished is the data of EventEntryUnpublished: a published entry
// reverted to draft or archived.
type EntryUnpublished struct{ EntryChange }

// EntryDeleted is the data of EventEntryDeleted: an entry was hard-deleted.
// Entry.ID and Entry.Slug are set so caches can be purged; the other entry
// fields are nil and ChangedLanguages is absent (nil).
type EntryDeleted struct{ EntryChange }

// A BulkEntry is one row of a bulk rollup event.
type BulkEntry struct {
	ID             string       `json:"id"`
	Slug           string       `json:"slug"`
	PreviousStatus *EntryStatus `json:"previousStatus"`
	Status         *EntryStatus `json:"status"`
}

// BulkChange holds the data the three bulk rollup events share. It is
// embedded in EntriesBulkPublished, EntriesBulkUpdated and
// EntriesBulkDeleted. The service also sends one single-entry event per
// affected entry.
type BulkChange struct {
	ContentMeta
	Entries   []BulkEntry `json:"entries"` // the affected entries, each with its own PreviousStatus and Status
	Count     int         `json:"count"`
	Languages []string    `json:"languages"`
}

// EntriesBulkPublished is the data of EventEntriesBulkPublished.
type EntriesBulkPublished struct{ BulkChange }

// EntriesBulkUpdated is the data of EventEntriesBulkUpdated.
type EntriesBulkUpdated struct{ BulkChange }

// EntriesBulkDeleted is the data of EventEntriesBulkDeleted.
type EntriesBulkDeleted struct{ BulkChange }

// ModelCreated is the data of EventModelCreated; ContentMeta.Model names the
// model.
type ModelCreated struct{ ContentMeta }

// ModelUpdated is the data of EventModelUpdated.
type ModelUpdated struct{ ContentMeta }

// ModelDeleted is the data of EventModelDeleted.
type ModelDeleted struct{ ContentMeta }

// A Field is a field of a content model.
type Field struct {
	Name      string `json:"name"`
	Type      string `json:"type"` // for example "media"
	Localized bool   `json:"localized"`
}

// FieldChange holds the data the three field events share. It is embedded
// in FieldAdded, FieldUpdated and FieldDeleted.
type FieldChange struct {
	ContentMeta
	Field Field `json:"field"`
}

// FieldAdded is the data of EventFieldAdded: a field was added to a model.
type FieldAdded struct{ FieldChange }

// FieldUpdated is the data of EventFieldUpdated.
type FieldUpdated struct{ FieldChange }

// FieldDeleted is the data of EventFieldDeleted.
type FieldDeleted struct{ FieldChange }
