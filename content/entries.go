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
	MaxBulkCreate  = 200 // the most entries one BulkCreate may carry
	MaxBulkUpdate  = 200 // the most entries one BulkUpdate may carry
	MaxBulkPublish = 500 // the most entry ids one BulkPublish may carry
	MaxPageSize    = 50  // the largest ListOptions.PageSize
	MaxSlug        = 200 // the longest slug Entries.Duplicate takes
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
	ID string // the entry's UUID
	// Model is the slug of the entry's model; ModelName and ModelKind are
	// its display name and kind, when the service sends them.
	Model     string
	ModelName string
	ModelKind ModelKind
	// Title is the entry's title: the listing's, or else the source
	// language's from Translations. Empty in the short record.
	Title  string
	Slug   string // shared by all languages
	Status Status
	// Body is the markdown body in the source language: the source
	// language's Translations body (Entries.Get). Listings and the short
	// record carry no body.
	Body string
	// RichBody is the source language's body when the service sends it
	// as a rich-text document, as Translation.RichBody; Body is then empty.
	RichBody       json.RawMessage
	SourceLanguage string   // the language Fields and Title are in
	Languages      []string // the languages the entry has
	// Fields maps field names to their values in the source language, as
	// text; a field without a value is absent.
	Fields       map[string]string
	Translations map[string]Translation // by language code, the entry's text (Entries.Get)
	Versions     []Version              // the entry's saved versions (Entries.Get)
	Relations    json.RawMessage        // the related entries expanded with Expand, as sent
	PublishedAt  time.Time              // zero for an entry never published
	CreatedAt    time.Time
	UpdatedAt    time.Time
	// Warning is the service's advice on the write that returned the
	// entry, for example that a body starts with a "# " heading. It is
	// not an error.
	Warning string
	Raw     json.RawMessage // the entry as the service sent it
}

// Translation is an entry's content in one language.
type Translation struct {
	ID       string // the translation's UUID
	Language string // the language code
	Title    string
	Body     string // the markdown body, when the service sends the body as text
	// RichBody is the body when the service sends it as a rich-text
	// document (JSON, a Plate editor document: a list of nodes) instead
	// of text; Body is then empty. Nil otherwise.
	RichBody json.RawMessage
	Status   Status
	Fields   map[string]string // by localized field name, the values in this language, as text
}

// Version is a saved version of an entry.
type Version struct {
	ID        string
	Number    int    // counts the versions, from the service's v
	Language  string // the language the version saved
	Change    string // what changed, as the service sends it
	CreatedAt time.Time
	By        *Person // who made the version; nil when the service does not say
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
	Title string // the source-language title; required
	Slug  string // shared by all languages; required
	// SourceLanguage is the entry's source language; "" means the
	// project's. BulkCreate does not take it.
	SourceLanguage string
	Body           string                    // the markdown body in the source language
	Status         Status                    // StatusDraft (when "") or StatusPublished
	Fields         map[string]any            // by field name, source-language values (any that encode to JSON)
	Translations   map[string]LanguageValues // by language code, the entry's content in other languages
}

// LanguageValues is an entry's content in one language, to write. Empty
// members are left out.
type LanguageValues struct {
	Title  string
	Body   string         // the markdown body
	Fields map[string]any // by localized field name, the values in this language
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
	Slug     string // changes the slug of every language
	Body     string // the markdown body
	// Status changes the status: StatusPublished publishes, StatusDraft
	// or StatusArchived unpublishes a published entry.
	Status       Status
	Fields       map[string]any            // by field name, new values (any that encode to JSON)
	Translations map[string]LanguageValues // by language code, new content in that language
}

// EntryChange is one entry of a BulkUpdate: its id and what to change.
type EntryChange struct {
	ID string // the entry's UUID; required
	EntryUpdate
}

// GetOptions shape what Entries.Get returns.
type GetOptions struct {
	Expand  []string // names relation fields whose entries to include in Entry.Relations
	Compact bool     // returns the short record: no translations or versions
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
	Model         string
	Slugs         []string // keeps entries with these slugs
	Search        []string // matches entries' texts; several terms match any of them
	SearchLocales []string // limits Search to these languages
	// SearchBody makes Search match the entries' body text too, not only
	// titles and slugs. It needs Model. It does not add bodies to the
	// listing: read an entry's body with Entries.Get.
	SearchBody bool
	Statuses   []Status // keeps entries with any of these statuses
	// Language keeps entries that have this language; LanguageMode says
	// how it matches.
	Language        string
	LanguageMode    LanguageMode
	MissingLanguage string            // keeps entries that lack this language
	Where           map[string]string // keeps entries whose fields have exactly these values (all of them)
	Expand          []string          // names relation fields whose entries to include
	Compact         bool              // lists only id, slug, status, title and languages
	// Sort and Order order the listing; "" means the service's default.
	Sort  SortField
	Order Order
	// PageSize is how many entries one request fetches, 1 to MaxPageSize;
	// 0 lets the SDK choose (MaxPageSize when iterating over all pages).
	PageSize int
}

// Page is one page of an entry listing. A listing of every page
// (Entries.All, Entries.Pages) always ends: a page that repeats the
// entries of earlier pages, or more pages than the first page's Total
// allows (ceil(Total/PageSize), plus 2 and a tenth for entries added
// meanwhile), end it with partner.ErrUnexpectedResponse; without a total,
// the bound is 10,000 pages and the margin.
type Page struct {
	Number  int  // this page's number, from 1
	Total   int  // the number of entries that match
	HasMore bool // whether another page follows
	Entries []Entry
	Raw     json.RawMessage // the tool's whole answer
}

// BulkResult is what BulkCreate, BulkUpdate and BulkPublish report.
// Entries that failed are listed in Failed, not returned as a Go error.
type BulkResult struct {
	Count int // the entries created, updated or published, as the service counts them
	// Entries are the entries written, with their ids, slugs (BulkCreate)
	// and statuses, as far as the service lists them.
	Entries []BulkEntry
	Failed  []BulkFailure   // the entries that were not written
	Warning string          // the service's advice, as Entry.Warning; not an error
	Raw     json.RawMessage // the tool's whole answer
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
	ID    string // the entry's UUID (BulkUpdate, BulkPublish)
	Slug  string // the entry's slug (BulkCreate)
	Error string // the service's message
}
