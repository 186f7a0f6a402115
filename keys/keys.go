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
	MaxDelete   = 100
	MaxPageSize = 100 // the largest ListOptions.PageSize (listKeys limit)
)

// DefaultNamespace is the namespace of a key created without one.
const DefaultNamespace = "default"

// NewKey is a key to create.
type NewKey struct {
	Name string // the key, for example "nav.home"; required
	// Namespace is the key's namespace; "" means DefaultNamespace. An
	// unknown namespace is created.
	Namespace  string
	SourceText string // the text in the project's source language
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
	OK    bool // the service's overall success flag
	Count int  // the number of keys created (cnt)
	// NewCount, RenamedCount and DuplicateCount are the service's new,
	// ren and dup counters as it reports them; their exact meaning is not
	// documented.
	NewCount, RenamedCount, DuplicateCount int
	// Created lists the keys created.
	Created []CreatedKey
	// Skipped lists keys that were not created (an existing key with the
	// same name and namespace), with the reason.
	Skipped  []SkippedKey
	Warnings []KeyWarning // keys whose name also exists in other namespaces
	// Blocked lists keys the service refused to create, for example
	// because the same source text exists under another key to reuse.
	Blocked []BlockedKey
	Pending *translations.PendingPublish // what now waits to be published, when the service says
	Hint    string                       // the service's advice for the next step, if any
	Raw     json.RawMessage              // the tool's whole answer
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
	Name            string
	Namespace       string
	OtherNamespaces []string // the namespaces that have the same name
}

// BlockedKey is a key Create refused to make.
type BlockedKey struct {
	Name       string
	Namespace  string
	SourceText string
	Reuse      []KeyRef // existing keys the service suggests instead
	Reason     string   // the service's explanation (why)
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
	Search          []string // matches key names or texts; several terms match any of them
	Namespaces      []string // keeps keys of these namespaces only
	MissingLanguage string   // keeps keys without a translation in this language
	Fields          []Field  // what each Key carries; nil means id and source text
	// PageSize is how many keys one request fetches, 1 to MaxPageSize;
	// 0 lets the SDK choose (MaxPageSize when iterating over all pages).
	PageSize int
}

// Key is a translation key as listed. A field marked with a Field is
// set only when ListOptions.Fields asks for it.
type Key struct {
	Name                    string            // the key, for example "nav.home"
	Namespace               string            // the key's namespace
	ID                      string            // the key's UUID (FieldID)
	SourceText              string            // the source-language text (FieldSourceText)
	TranslatedLanguages     []string          // the languages that have a translation (FieldTranslatedLanguages)
	TranslatedLanguageCount int               // their number (FieldTranslatedLanguageCount)
	Translations            map[string]string // by language code, the texts (FieldTranslations)
	LegacyDuplicate         bool              // a legacy duplicate row of the same key (p)
	Raw                     json.RawMessage   // the key's record as the service sent it
}

// Page is one page of a key listing.
type Page struct {
	Total      int      // the number of keys that match (tot)
	Number     int      // this page's number, from 1 (pg)
	PageSize   int      // the page size the service used (lim)
	HasMore    bool     // whether another page follows
	Namespaces []string // the namespaces of the project, as listed
	Keys       []Key
	Note       string          // the service's remark, for example on listings above 500 keys
	Raw        json.RawMessage // the tool's whole answer
}

// Update changes one language's text of a key.
type Update struct {
	KeyID    string // the key's UUID; required
	Language string // the language code; required
	Text     string // the new text, required; it overwrites an approved text
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
	OK      bool
	Count   int                          // the number of texts changed (cnt)
	Updated []translations.UpdatedKey    // the keys changed
	Errors  []translations.ItemError     // the updates that failed (for example code "not_found")
	Pending *translations.PendingPublish // what now waits to be published
	Hint    string
	Raw     json.RawMessage // the tool's whole answer
}

// DeleteResult is what Delete reports. Deleting is soft: it becomes
// permanent at the next publish.
type DeleteResult struct {
	OK      bool
	Count   int                          // the number of keys marked deleted (cnt)
	Deleted []KeyRef                     // the keys marked deleted
	Skipped []string                     // ids that were not deleted (unknown, or already deleted)
	Pending *translations.PendingPublish // what now waits to be published
	Hint    string
	Raw     json.RawMessage // the tool's whole answer
}
