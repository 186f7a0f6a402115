package keys

import (
	"encoding/json"

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
	Name string
	// Namespace is the key's namespace; "" means DefaultNamespace. An
	// unknown namespace is created.
	Namespace string
	// SourceText is the text in the project's source language.
	SourceText string
	// Translations maps language codes to texts. Codes are lowercased by
	// the service; the source language is dropped.
	Translations map[string]string
	// Context describes the key's namespace for translators; nil leaves
	// it as it is.
	Context *NamespaceContext
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
	OK bool
	// Count is the number of keys created (cnt).
	Count int
	// NewCount, RenamedCount and DuplicateCount are the service's new,
	// ren and dup counters as it reports them; their exact meaning is not
	// documented.
	NewCount, RenamedCount, DuplicateCount int
	// Created lists the keys created.
	Created []CreatedKey
	// Skipped lists keys that were not created (an existing key with the
	// same name and namespace), with the reason.
	Skipped []SkippedKey
	// Warnings lists keys whose name also exists in other namespaces.
	Warnings []KeyWarning
	// Blocked lists keys the service refused to create, for example
	// because the same source text exists under another key to reuse.
	Blocked []BlockedKey
	// Pending says what now waits to be published, when the service says.
	Pending *translations.PendingPublish
	// Hint is the service's advice for the next step, if any.
	Hint string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// CreatedKey is a key Create made.
type CreatedKey struct {
	Name string
	ID   string
	// Translations is what the service reported about the translations
	// written with the key (tr), as sent.
	Translations json.RawMessage
}

// SkippedKey is a key Create did not make.
type SkippedKey struct {
	Name   string
	Reason string
}

// KeyWarning reports a created key whose name is also used in other
// namespaces.
type KeyWarning struct {
	Name      string
	Namespace string
	// OtherNamespaces are the namespaces that have the same name.
	OtherNamespaces []string
}

// BlockedKey is a key Create refused to make.
type BlockedKey struct {
	Name       string
	Namespace  string
	SourceText string
	// Reuse lists existing keys the service suggests instead.
	Reuse []KeyRef
	// Reason is the service's explanation (why).
	Reason string
}

// KeyRef names an existing key.
type KeyRef struct {
	Namespace string
	Name      string
	ID        string
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
	Search []string
	// Namespaces keeps keys of these namespaces only.
	Namespaces []string
	// MissingLanguage keeps keys without a translation in this language.
	MissingLanguage string
	// Fields selects what each Key carries; nil means id and source text.
	Fields []Field
	// PageSize is how many keys one request fetches, 1 to MaxPageSize;
	// 0 lets the SDK choose (MaxPageSize when iterating over all pages).
	PageSize int
}

// Key is a translation key as listed.
type Key struct {
	// Name is the key, for example "nav.home".
	Name string
	// Namespace is the key's namespace.
	Namespace string
	// ID is the key's UUID (with FieldID).
	ID string
	// SourceText is the source-language text (with FieldSourceText).
	SourceText string
	// TranslatedLanguages lists the languages that have a translation
	// (with FieldTranslatedLanguages).
	TranslatedLanguages []string
	// TranslatedLanguageCount is their number (with
	// FieldTranslatedLanguageCount).
	TranslatedLanguageCount int
	// Translations maps language codes to texts (with FieldTranslations).
	Translations map[string]string
	// LegacyDuplicate marks a legacy duplicate row of the same key (p).
	LegacyDuplicate bool
	// Raw is the key's record as the service sent it.
	Raw json.RawMessage
}

// Page is one page of a key listing.
type Page struct {
	// Total is the number of keys that match (tot).
	Total int
	// Number is this page's number, from 1 (pg).
	Number int
	// PageSize is the page size the service used (lim).
	PageSize int
	// HasMore says whether another page follows.
	HasMore bool
	// Namespaces are the namespaces of the project, as listed.
	Namespaces []string
	// Keys are this page's keys.
	Keys []Key
	// Note is the service's remark, for example on listings above 500
	// keys.
	Note string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// Update changes one language's text of a key.
type Update struct {
	// KeyID is the key's UUID. Required.
	KeyID string
	// Language is the language code. Required.
	Language string
	// Text is the new text. Required; it overwrites an approved text.
	Text string
	// Source marks Text as the new source text (Language must then be
	// the source language).
	Source bool
	// Status sets the translation's status, for example "draft"; "" leaves
	// the service's default.
	Status string
}

// UpdateResult is what Update reports. Unknown keys are listed in Errors,
// not returned as a Go error.
type UpdateResult struct {
	OK bool
	// Count is the number of texts changed (cnt).
	Count int
	// Updated lists the keys changed.
	Updated []translations.UpdatedKey
	// Errors lists the updates that failed (for example code
	// "not_found").
	Errors []translations.ItemError
	// Pending says what now waits to be published.
	Pending *translations.PendingPublish
	Hint    string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// DeleteResult is what Delete reports. Deleting is soft: it becomes
// permanent at the next publish.
type DeleteResult struct {
	OK bool
	// Count is the number of keys marked deleted (cnt).
	Count int
	// Deleted lists the keys marked deleted.
	Deleted []KeyRef
	// Skipped lists ids that were not deleted (unknown, or already
	// deleted).
	Skipped []string
	// Pending says what now waits to be published.
	Pending *translations.PendingPublish
	Hint    string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}
