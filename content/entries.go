package content

import (
	"bytes"
	"cmp"
	"encoding/json"
	"time"

	"github.com/locsvc/partner-go/internal/lenient"
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
	ID string `json:"id"`
	// Model is the slug of the entry's model; ModelName and ModelKind are
	// its display name and kind, when the service sends them.
	Model     string    `json:"-"`
	ModelName string    `json:"-"`
	ModelKind ModelKind `json:"-"`
	// Title is the entry's title: the listing's, or else the source
	// language's from Translations. Empty in the short record.
	Title string `json:"t"`
	// Slug is shared by all languages.
	Slug   string `json:"sl"`
	Status Status `json:"st"`
	// Body is the markdown body in the source language: the source
	// language's Translations body (Entries.Get). Listings and the short
	// record carry no body.
	Body string `json:"-"`
	// RichBody is the source language's body when the service sends it
	// as a rich-text document (JSON, a Plate editor document) instead of
	// markdown text; Body is then empty. Nil otherwise.
	RichBody json.RawMessage `json:"-"`
	// SourceLanguage is the language Fields and Title are in.
	SourceLanguage string `json:"slang"`
	// Languages are the languages the entry has.
	Languages []string `json:"-"`
	// Fields maps field names to their values in the source language, as
	// text; a field without a value is absent.
	Fields map[string]string `json:"-"`
	// Translations maps language codes to the entry's text in that
	// language (Entries.Get).
	Translations map[string]Translation `json:"tr"`
	// Versions lists the entry's saved versions (Entries.Get).
	Versions []Version `json:"vers"`
	// Relations are the related entries expanded with Expand, as sent.
	Relations json.RawMessage `json:"rels"`
	// PublishedAt is zero for an entry never published.
	PublishedAt time.Time `json:"-"`
	CreatedAt   time.Time `json:"-"`
	UpdatedAt   time.Time `json:"-"`
	// Warning is the service's advice on the write that returned the
	// entry, for example that a body starts with a "# " heading. It is
	// not an error.
	Warning string `json:"-"`
	// Raw is the entry as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes an entry record of the content tools (the short
// record, a listing's item or the whole entry) and keeps it in Raw: times
// in RFC 3339 or Unix milliseconds, the model as an object or its slug,
// field values as text. A missing title or body is the source
// language's. It never fails.
func (e *Entry) UnmarshalJSON(b []byte) error {
	type plain Entry
	_ = json.Unmarshal(b, (*plain)(e))
	e.Body, e.RichBody = body(b)
	if mdl := lenient.Get[json.RawMessage](b, "mdl"); json.Unmarshal(mdl, &e.Model) != nil {
		e.Model, e.ModelName = lenient.Get[string](mdl, "sl"), lenient.Get[string](mdl, "dn")
		e.ModelKind = lenient.Get[ModelKind](mdl, "kind")
	}
	e.Languages, e.Fields = lenient.Get[lenient.Strings](b, "langs"), fieldValues(b)
	e.PublishedAt = lenient.Get[lenient.Time](b, "pub_at").Time
	e.CreatedAt, e.UpdatedAt = lenient.Get[lenient.Time](b, "c_at").Time, lenient.Get[lenient.Time](b, "u_at").Time
	e.Raw = bytes.Clone(b)
	if len(e.Translations) == 0 {
		e.Translations = nil
		return nil
	}
	for lang, t := range e.Translations {
		t.Language = cmp.Or(t.Language, lang)
		e.Translations[lang] = t
	}
	src := e.Translations[e.SourceLanguage]
	e.Title = cmp.Or(e.Title, src.Title)
	if e.Body == "" && e.RichBody == nil {
		e.Body, e.RichBody = src.Body, src.RichBody
	}
	return nil
}

// Translation is an entry's content in one language.
type Translation struct {
	// ID is the translation's UUID.
	ID string `json:"id"`
	// Language is the language code.
	Language string `json:"lc"`
	Title    string `json:"t"`
	// Body is the markdown body, when the service sends the body as text.
	Body string `json:"-"`
	// RichBody is the body when the service sends it as a rich-text
	// document (JSON, a Plate editor document: a list of nodes) instead
	// of text; Body is then empty. Nil otherwise.
	RichBody json.RawMessage `json:"-"`
	Status   Status          `json:"st"`
	// Fields maps localized field names to their values in this
	// language, as text.
	Fields map[string]string `json:"-"`
}

// UnmarshalJSON decodes a language of an entry's tr object. It never
// fails.
func (t *Translation) UnmarshalJSON(b []byte) error {
	type plain Translation
	_ = json.Unmarshal(b, (*plain)(t))
	t.Body, t.RichBody = body(b)
	t.Fields = fieldValues(b)
	return nil
}

// Version is a saved version of an entry.
type Version struct {
	ID string `json:"id"`
	// Number counts the versions, from the service's v.
	Number int `json:"v"`
	// Language is the language the version saved.
	Language string `json:"lc"`
	// Change describes what changed, as the service sends it.
	Change    string    `json:"-"`
	CreatedAt time.Time `json:"-"`
	// By is who made the version; nil when the service does not say.
	By *Person `json:"by"`
}

// UnmarshalJSON decodes an item of an entry's vers list. It never fails.
func (v *Version) UnmarshalJSON(b []byte) error {
	type plain Version
	_ = json.Unmarshal(b, (*plain)(v))
	v.Change, v.CreatedAt = string(lenient.Get[lenient.Text](b, "chg")), lenient.Get[lenient.Time](b, "c_at").Time
	return nil
}

// Person is a user the service names.
type Person struct {
	ID    string `json:"id"`
	Name  string `json:"nm"`
	Image string `json:"img"`
}

// NewEntry is an entry to create with Entries.Create or BulkCreate. It
// is created as a draft unless Status is StatusPublished.
type NewEntry struct {
	// Model is the model's slug. Required for Create; for BulkCreate it
	// must be "" or the batch's model.
	Model string `json:"modelSlug,omitempty"`
	// Title is the source-language title. Required.
	Title string `json:"title"`
	// Slug is shared by all languages. Required.
	Slug string `json:"slug"`
	// SourceLanguage is the entry's source language; "" means the
	// project's. BulkCreate does not take it.
	SourceLanguage string `json:"sourceLanguageCode,omitempty"`
	// Body is the markdown body in the source language.
	Body string `json:"bodyMarkdown,omitempty"`
	// Status is StatusDraft (when "") or StatusPublished.
	Status Status `json:"status,omitempty"`
	// Fields maps field names to values in the source language (any
	// value that encodes to JSON).
	Fields map[string]any `json:"customFields,omitempty"`
	// Translations maps language codes to the entry's content in other
	// languages.
	Translations map[string]LanguageValues `json:"translations,omitempty"`
}

// LanguageValues is an entry's content in one language, to write. Empty
// members are left out.
type LanguageValues struct {
	Title string `json:"title,omitempty"`
	// Body is the markdown body.
	Body string `json:"bodyMarkdown,omitempty"`
	// Fields maps localized field names to values in this language.
	Fields map[string]any `json:"customFields,omitempty"`
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
	Language string `json:"languageCode,omitempty"`
	Title    string `json:"title,omitempty"`
	// Slug changes the slug of every language.
	Slug string `json:"slug,omitempty"`
	// Body is the markdown body.
	Body string `json:"bodyMarkdown,omitempty"`
	// Status changes the status: StatusPublished publishes, StatusDraft
	// or StatusArchived unpublishes a published entry.
	Status Status `json:"status,omitempty"`
	// Fields maps field names to new values (any value that encodes to
	// JSON).
	Fields map[string]any `json:"customFields,omitempty"`
	// Translations maps language codes to new content in that language.
	Translations map[string]LanguageValues `json:"translations,omitempty"`
}

// EntryChange is one entry of a BulkUpdate: its id and what to change.
type EntryChange struct {
	// ID is the entry's UUID. Required.
	ID string `json:"entryId"`
	EntryUpdate
}

// GetOptions shape what Entries.Get returns.
type GetOptions struct {
	// Expand names relation fields whose entries to include in
	// Entry.Relations.
	Expand []string `json:"expand,omitempty"`
	// Compact returns the short record: no translations or versions.
	Compact bool `json:"compact,omitempty"`
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
	Model string `json:"modelSlug,omitempty"`
	// Slugs keeps entries with these slugs.
	Slugs []string `json:"-"`
	// Search matches entries' texts; several terms match any of them.
	Search []string `json:"-"`
	// SearchLocales limits Search to these languages.
	SearchLocales []string `json:"searchLocales,omitempty"`
	// SearchBody makes Search match the entries' body text too, not only
	// titles and slugs. It needs Model. It does not add bodies to the
	// listing: read an entry's body with Entries.Get.
	SearchBody bool `json:"includeBody,omitempty"`
	// Statuses keeps entries with any of these statuses.
	Statuses []Status `json:"-"`
	// Language keeps entries that have this language; LanguageMode says
	// how it matches.
	Language     string       `json:"language,omitempty"`
	LanguageMode LanguageMode `json:"languageMode,omitempty"`
	// MissingLanguage keeps entries that lack this language.
	MissingLanguage string `json:"missingLanguage,omitempty"`
	// Where keeps entries whose fields have exactly these values (all of
	// them).
	Where map[string]string `json:"where,omitempty"`
	// Expand names relation fields whose entries to include.
	Expand []string `json:"expand,omitempty"`
	// Compact lists only id, slug, status, title and languages.
	Compact bool `json:"compact,omitempty"`
	// Sort and Order order the listing; "" means the service's default.
	Sort  SortField `json:"sort,omitempty"`
	Order Order     `json:"order,omitempty"`
	// PageSize is how many entries one request fetches, 1 to
	// MaxPageSize; 0 lets the SDK choose (MaxPageSize when iterating
	// over all pages).
	PageSize int `json:"limit,omitempty"`
}

// Page is one page of an entry listing.
type Page struct {
	// Number is this page's number, from 1.
	Number int `json:"-"`
	// Total is the number of entries that match.
	Total int `json:"tot"`
	// HasMore says whether another page follows.
	HasMore bool `json:"more"`
	// Entries are this page's entries.
	Entries []Entry `json:"items"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
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
	ID     string `json:"id"`
	Slug   string `json:"sl"`
	Status Status `json:"st"`
}

// UnmarshalJSON decodes an entry a bulk tool lists: {id, sl, st}, or its
// id. It never fails.
func (e *BulkEntry) UnmarshalJSON(b []byte) error {
	if json.Unmarshal(b, &e.ID) == nil {
		return nil
	}
	type plain BulkEntry
	_ = json.Unmarshal(b, (*plain)(e))
	return nil
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

// body reads the body of an entry record: markdown text, or a rich-text
// document (any other JSON value, kept as sent). null or none is empty.
func body(b []byte) (text string, rich json.RawMessage) {
	raw := lenient.Get[json.RawMessage](b, "body")
	if json.Unmarshal(raw, &text) == nil {
		return text, nil
	}
	return "", lenient.Present(raw)
}

// fieldValues reads the custom field values (cfv) of an entry record as
// text: strings as they are, other values as JSON text; nulls are left
// out.
func fieldValues(b []byte) map[string]string {
	m := lenient.Get[map[string]json.RawMessage](b, "cfv")
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, raw := range m {
		if lenient.Present(raw) != nil {
			var t lenient.Text
			_ = json.Unmarshal(raw, &t)
			out[k] = string(t)
		}
	}
	return out
}
