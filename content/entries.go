package content

import (
	"encoding/json"
	"time"
)

// Limits of entry calls the SDK checks before sending anything. A longer
// batch is refused with ErrInvalidArgument, not split: a split batch
// could fail halfway with an error after some of it was written. Split it
// yourself (slices.Chunk) if that is what you want.
const (
	// MaxBulkCreate is the most entries one BulkCreate may carry.
	MaxBulkCreate = 200
	// MaxBulkUpdate is the most entries one BulkUpdate may carry.
	MaxBulkUpdate = 200
	// MaxBulkPublish is the most entry ids one BulkPublish may carry.
	MaxBulkPublish = 500
	// MaxPageSize is the largest ListOptions.PageSize.
	MaxPageSize = 50
	// MaxSlug is the longest slug Entries.Duplicate takes.
	MaxSlug = 200
)

// Status is a content entry's status.
type Status string

// The statuses of an entry. A new entry is a draft; Publish makes it
// published; archived takes it out of use without deleting it.
const (
	StatusDraft     Status = "draft"
	StatusPublished Status = "published"
	StatusArchived  Status = "archived"
)

// Entry is a content entry. Which members are set depends on the call:
// Entries.Get fills Translations and Versions; the write calls return the
// service's short record, which has no title, body or translations.
type Entry struct {
	// ID is the entry's UUID.
	ID string
	// Model is the slug of the entry's model; ModelName and ModelKind are
	// its display name and kind, when the service sends them.
	Model     string
	ModelName string
	ModelKind ModelKind
	// Title is the entry's title: the listing's, or else the source
	// language's from Translations. Empty in the short record.
	Title string
	// Slug is shared by all languages.
	Slug   string
	Status Status
	// Body is the markdown body in the source language: the source
	// language's Translations body (Entries.Get). Listings and the short
	// record carry no body.
	Body string
	// RichBody is the source language's body when the service sends it
	// as a rich-text document (JSON, a Plate editor document) instead of
	// markdown text; Body is then empty. Nil otherwise.
	RichBody json.RawMessage
	// SourceLanguage is the language Fields and Title are in.
	SourceLanguage string
	// Languages are the languages the entry has.
	Languages []string
	// Fields maps field names to their values in the source language, as
	// text; a field without a value is absent.
	Fields map[string]string
	// Translations maps language codes to the entry's text in that
	// language (Entries.Get).
	Translations map[string]Translation
	// Versions lists the entry's saved versions (Entries.Get).
	Versions []Version
	// Relations are the related entries expanded with Expand, as sent.
	Relations json.RawMessage
	// PublishedAt is zero for an entry never published.
	PublishedAt time.Time
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// Warning is the service's advice on the write that returned the
	// entry, for example that a body starts with a "# " heading. It is
	// not an error.
	Warning string
	// Raw is the entry as the service sent it.
	Raw json.RawMessage
}

// Translation is an entry's content in one language.
type Translation struct {
	// ID is the translation's UUID.
	ID string
	// Language is the language code.
	Language string
	Title    string
	// Body is the markdown body, when the service sends the body as text.
	Body string
	// RichBody is the body when the service sends it as a rich-text
	// document (JSON, a Plate editor document: a list of nodes) instead
	// of text; Body is then empty. Nil otherwise.
	RichBody json.RawMessage
	Status   Status
	// Fields maps localized field names to their values in this
	// language, as text.
	Fields map[string]string
}

// Version is a saved version of an entry.
type Version struct {
	ID string
	// Number counts the versions, from the service's v.
	Number int
	// Language is the language the version saved.
	Language string
	// Change describes what changed, as the service sends it.
	Change    string
	CreatedAt time.Time
	// By is who made the version; nil when the service does not say.
	By *Person
}

// Person is a user the service names.
type Person struct {
	ID    string
	Name  string
	Image string
}

// NewEntry is an entry to create with Entries.Create or BulkCreate. It
// is created as a draft unless Status is StatusPublished.
type NewEntry struct {
	// Model is the model's slug. Required for Create; for BulkCreate it
	// must be "" or the batch's model.
	Model string
	// Title is the source-language title. Required.
	Title string
	// Slug is shared by all languages. Required.
	Slug string
	// SourceLanguage is the entry's source language; "" means the
	// project's. BulkCreate does not take it.
	SourceLanguage string
	// Body is the markdown body in the source language.
	Body string
	// Status is StatusDraft (when "") or StatusPublished.
	Status Status
	// Fields maps field names to values in the source language (any
	// value that encodes to JSON).
	Fields map[string]any
	// Translations maps language codes to the entry's content in other
	// languages.
	Translations map[string]LanguageValues
}

// LanguageValues is an entry's content in one language, to write. Empty
// members are left out.
type LanguageValues struct {
	Title string
	// Body is the markdown body.
	Body string
	// Fields maps localized field names to values in this language.
	Fields map[string]any
}

// EntryUpdate changes an entry with Entries.Update or BulkUpdate. Empty
// members are left unchanged (a body or title cannot be cleared here).
// The tools take three forms: one language (Language with Title, Slug,
// Body or Fields), several languages (Translations), or metadata only
// (Slug, Status, Fields of the source language); Language and
// Translations together are refused.
type EntryUpdate struct {
	// Language is the language Title, Body and Fields write; "" means
	// the source language.
	Language string
	Title    string
	// Slug changes the slug of every language.
	Slug string
	// Body is the markdown body.
	Body string
	// Status changes the status: StatusPublished publishes, StatusDraft
	// or StatusArchived unpublishes a published entry.
	Status Status
	// Fields maps field names to new values (any value that encodes to
	// JSON).
	Fields map[string]any
	// Translations maps language codes to new content in that language.
	Translations map[string]LanguageValues
}

// EntryChange is one entry of a BulkUpdate: its id and what to change.
type EntryChange struct {
	// ID is the entry's UUID. Required.
	ID string
	EntryUpdate
}

// GetOptions shape what Entries.Get returns.
type GetOptions struct {
	// Expand names relation fields whose entries to include in
	// Entry.Relations.
	Expand []string
	// Compact returns the short record: no translations or versions.
	Compact bool
}

// SortField orders a listing.
type SortField string

// The orders of a listing. The service's default is SortUpdatedAt.
const (
	SortPublishedAt SortField = "publishedAt"
	SortCreatedAt   SortField = "createdAt"
	SortUpdatedAt   SortField = "updatedAt"
	SortTitle       SortField = "title"
)

// Order is the direction of a listing's order. The service's default is
// Descending.
type Order string

// The directions of a listing.
const (
	Ascending  Order = "asc"
	Descending Order = "desc"
)

// LanguageMode says how ListOptions.Language matches.
type LanguageMode string

// The modes of ListOptions.Language.
const (
	AnyLanguage  LanguageMode = "any"
	AllLanguages LanguageMode = "all"
)

// ListOptions filters and shapes an entry listing (listContentEntries).
// The zero value lists every entry of every model, most recently updated
// first.
type ListOptions struct {
	// Model keeps entries of this model (its slug); UsersModel lists
	// the project's members.
	Model string
	// Slugs keeps entries with these slugs.
	Slugs []string
	// Search matches entries' texts; several terms match any of them.
	Search []string
	// SearchLocales limits Search to these languages.
	SearchLocales []string
	// SearchBody makes Search match the entries' body text too, not only
	// titles and slugs. It needs Model. It does not add bodies to the
	// listing: read an entry's body with Entries.Get.
	SearchBody bool
	// Statuses keeps entries with any of these statuses.
	Statuses []Status
	// Language keeps entries that have this language; LanguageMode says
	// how it matches.
	Language     string
	LanguageMode LanguageMode
	// MissingLanguage keeps entries that lack this language.
	MissingLanguage string
	// Where keeps entries whose fields have exactly these values (all of
	// them).
	Where map[string]string
	// Expand names relation fields whose entries to include.
	Expand []string
	// Compact lists only id, slug, status, title and languages.
	Compact bool
	// Sort and Order order the listing; "" means the service's default.
	Sort  SortField
	Order Order
	// PageSize is how many entries one request fetches, 1 to
	// MaxPageSize; 0 lets the SDK choose (MaxPageSize when iterating
	// over all pages).
	PageSize int
}

// Page is one page of an entry listing.
type Page struct {
	// Number is this page's number, from 1.
	Number int
	// Total is the number of entries that match.
	Total int
	// HasMore says whether another page follows.
	HasMore bool
	// Entries are this page's entries.
	Entries []Entry
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// BulkResult is what BulkCreate, BulkUpdate and BulkPublish report.
// Entries that failed are listed in Failed, not returned as a Go error.
type BulkResult struct {
	// Count is the number of entries created, updated or published, as
	// the service counts them.
	Count int
	// Entries are the entries written, with their ids, slugs (BulkCreate)
	// and statuses, as far as the service lists them.
	Entries []BulkEntry
	// Failed lists the entries that were not written.
	Failed []BulkFailure
	// Warning is the service's advice, for example that a body starts
	// with a "# " heading. It is not an error.
	Warning string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// BulkEntry is one entry a bulk call wrote.
type BulkEntry struct {
	ID     string
	Slug   string
	Status Status
}

// BulkFailure is one entry a bulk call could not write.
type BulkFailure struct {
	// Index is the entry's position in the batch, from 0: the service's
	// idx, or else the position of ID (BulkUpdate, BulkPublish) or Slug
	// (BulkCreate) in what was sent; -1 when neither tells.
	Index int
	// ID is the entry's UUID (BulkUpdate, BulkPublish).
	ID string
	// Slug is the entry's slug (BulkCreate).
	Slug string
	// Error is the service's message.
	Error string
}
