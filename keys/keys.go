package keys

import (
	"bytes"
	"encoding/json"

	"github.com/locsvc/partner-go/internal/lenient"
	"github.com/locsvc/partner-go/translations"
)

// Limits the SDK checks before sending anything.
const (
	// MaxDelete is the most key ids one Delete may carry (deleteKeys
	// accepts 1 to 100). A longer list is refused with ErrInvalidArgument,
	// not split: a split delete could fail halfway, leaving some keys
	// deleted and an error. Split it yourself (slices.Chunk) if that is
	// what you want.
	MaxDelete = 100
	// MaxPageSize is the largest ListOptions.PageSize (listKeys limit).
	MaxPageSize = 100
)

// DefaultNamespace is the namespace of a key created without one.
const DefaultNamespace = "default"

// NewKey is a key to create.
type NewKey struct {
	// Name is the key, for example "nav.home". Required.
	Name string `json:"n"`
	// Namespace is the key's namespace; "" means DefaultNamespace. An
	// unknown namespace is created.
	Namespace string `json:"ns,omitempty"`
	// SourceText is the text in the project's source language.
	SourceText string `json:"v,omitempty"`
	// Translations maps language codes to texts. Codes are lowercased by
	// the service; the source language is dropped.
	Translations map[string]string `json:"t,omitempty"`
	// Context describes the key's namespace for translators; nil leaves
	// it as it is.
	Context *NamespaceContext `json:"nc,omitempty"`
}

// NamespaceContext describes a namespace for human and machine
// translators. It is translations.NamespaceContext, so a context read with
// Translations.GetProject can be given to a NewKey as it is.
type NamespaceContext = translations.NamespaceContext

// CreateOptions changes how Create treats the keys.
type CreateOptions struct {
	// Force creates keys even when one would be both a leaf and a parent
	// ("a.b" when "a" exists, or the reverse); without it such a batch
	// fails with ErrConflict.
	Force bool
}

// CreateResult is what Create reports. Keys that already exist with the
// same name and namespace are skipped, not errors.
type CreateResult struct {
	// OK is the service's overall success flag.
	OK bool `json:"ok"`
	// Count is the number of keys created (cnt).
	Count int `json:"cnt"`
	// NewCount, RenamedCount and DuplicateCount are the service's new,
	// ren and dup counters as it reports them; their exact meaning is not
	// documented.
	NewCount       int `json:"new"`
	RenamedCount   int `json:"ren"`
	DuplicateCount int `json:"dup"`
	// Created lists the keys created.
	Created []CreatedKey `json:"k"`
	// Skipped lists keys that were not created (an existing key with the
	// same name and namespace), with the reason.
	Skipped []SkippedKey `json:"skip"`
	// Warnings lists keys whose name also exists in other namespaces.
	Warnings []KeyWarning `json:"warn"`
	// Blocked lists keys the service refused to create, for example
	// because the same source text exists under another key to reuse.
	Blocked []BlockedKey `json:"blocked"`
	// Pending says what now waits to be published, when the service says.
	Pending *translations.PendingPublish `json:"pub"`
	// Hint is the service's advice for the next step, if any.
	Hint string `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// CreatedKey is a key Create made.
type CreatedKey struct {
	Name string `json:"k"`
	ID   string `json:"id"`
	// Translations is what the service reported about the translations
	// written with the key (tr), as sent.
	Translations json.RawMessage `json:"tr"`
}

// SkippedKey is a key Create did not make.
type SkippedKey struct {
	Name   string `json:"k"`
	Reason string `json:"reason"`
}

// KeyWarning reports a created key whose name is also used in other
// namespaces.
type KeyWarning struct {
	Name      string `json:"k"`
	Namespace string `json:"ns"`
	// OtherNamespaces are the namespaces that have the same name.
	OtherNamespaces []string `json:"other"`
}

// UnmarshalJSON decodes an item of createKeys' warn list; a namespace
// sent as an object is taken by its name. It never fails.
func (w *KeyWarning) UnmarshalJSON(b []byte) error {
	type plain KeyWarning
	_ = json.Unmarshal(b, (*plain)(w))
	w.OtherNamespaces = lenient.Get[lenient.Strings](b, "other")
	return nil
}

// BlockedKey is a key Create refused to make.
type BlockedKey struct {
	Name       string `json:"k"`
	Namespace  string `json:"ns"`
	SourceText string `json:"src"`
	// Reuse lists existing keys the service suggests instead.
	Reuse []KeyRef `json:"reuse"`
	// Reason is the service's explanation (why).
	Reason string `json:"why"`
}

// KeyRef names an existing key.
type KeyRef struct {
	Namespace string `json:"ns"`
	Name      string `json:"k"`
	ID        string `json:"id"`
}

// Field selects what List returns for each key.
type Field string

// The fields listKeys can return. Without Fields, the service returns
// FieldID and FieldSourceText.
const (
	FieldID                      Field = "id"
	FieldSourceText              Field = "sourceText"
	FieldTranslations            Field = "translations"
	FieldTranslatedLanguages     Field = "translatedLanguages"
	FieldTranslatedLanguageCount Field = "translatedLanguageCount"
)

// ListOptions filters and shapes a key listing. The zero value lists every
// key with its id and source text.
type ListOptions struct {
	// Search matches key names or texts; several terms match any of them.
	Search []string `json:"-"`
	// Namespaces keeps keys of these namespaces only.
	Namespaces []string `json:"namespaces,omitempty"`
	// MissingLanguage keeps keys without a translation in this language.
	MissingLanguage string `json:"missingLanguage,omitempty"`
	// Fields selects what each Key carries; nil means id and source text.
	Fields []Field `json:"fields,omitempty"`
	// PageSize is how many keys one request fetches, 1 to MaxPageSize;
	// 0 lets the SDK choose (MaxPageSize when iterating over all pages).
	PageSize int `json:"limit,omitempty"`
}

// Key is a translation key as listed.
type Key struct {
	// Name is the key, for example "nav.home".
	Name string `json:"k"`
	// Namespace is the key's namespace.
	Namespace string `json:"ns"`
	// ID is the key's UUID (with FieldID).
	ID string `json:"id"`
	// SourceText is the source-language text (with FieldSourceText).
	SourceText string `json:"src"`
	// TranslatedLanguages lists the languages that have a translation
	// (with FieldTranslatedLanguages).
	TranslatedLanguages []string `json:"tl"`
	// TranslatedLanguageCount is their number (with
	// FieldTranslatedLanguageCount).
	TranslatedLanguageCount int `json:"tlc"`
	// Translations maps language codes to texts (with FieldTranslations).
	Translations map[string]string `json:"tr"`
	// LegacyDuplicate marks a legacy duplicate row of the same key (p).
	LegacyDuplicate bool `json:"p"`
	// Raw is the key's record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a key record of listKeys and keeps it in Raw; a
// language sent as an object is taken by its code. A namespace sent as an
// index into the page's Namespaces is left to the page. It never fails.
func (k *Key) UnmarshalJSON(b []byte) error {
	type plain Key
	_ = json.Unmarshal(b, (*plain)(k))
	k.TranslatedLanguages, k.Raw = lenient.Get[lenient.Strings](b, "tl"), bytes.Clone(b)
	return nil
}

// Page is one page of a key listing.
type Page struct {
	// Total is the number of keys that match (tot).
	Total int `json:"tot"`
	// Number is this page's number, from 1 (pg).
	Number int `json:"pg"`
	// PageSize is the page size the service used (lim).
	PageSize int `json:"lim"`
	// HasMore says whether another page follows.
	HasMore bool `json:"has_more"`
	// Namespaces are the namespaces of the project, as listed.
	Namespaces []string `json:"nss"`
	// Keys are this page's keys.
	Keys []Key `json:"k"`
	// Note is the service's remark, for example on listings above 500
	// keys.
	Note string `json:"note"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// Update changes one language's text of a key.
type Update struct {
	// KeyID is the key's UUID. Required.
	KeyID string `json:"id"`
	// Language is the language code. Required.
	Language string `json:"l"`
	// Text is the new text. Required; it overwrites an approved text.
	Text string `json:"t"`
	// Source marks Text as the new source text (Language must then be
	// the source language).
	Source bool `json:"s,omitempty"`
	// Status sets the translation's status, for example "draft"; "" leaves
	// the service's default.
	Status string `json:"st,omitempty"`
}

// UpdateResult is what Update reports. Unknown keys are listed in Errors,
// not returned as a Go error.
type UpdateResult struct {
	OK bool `json:"ok"`
	// Count is the number of texts changed (cnt).
	Count int `json:"cnt"`
	// Updated lists the keys changed.
	Updated []translations.UpdatedKey `json:"upd"`
	// Errors lists the updates that failed (for example code
	// "not_found").
	Errors []translations.ItemError `json:"errors"`
	// Pending says what now waits to be published.
	Pending *translations.PendingPublish `json:"pub"`
	Hint    string                       `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// DeleteResult is what Delete reports. Deleting is soft: it becomes
// permanent at the next publish.
type DeleteResult struct {
	OK bool `json:"ok"`
	// Count is the number of keys marked deleted (cnt).
	Count int `json:"cnt"`
	// Deleted lists the keys marked deleted.
	Deleted []KeyRef `json:"mk"`
	// Skipped lists ids that were not deleted (unknown, or already
	// deleted).
	Skipped []string `json:"skip"`
	// Pending says what now waits to be published.
	Pending *translations.PendingPublish `json:"pub"`
	Hint    string                       `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}
