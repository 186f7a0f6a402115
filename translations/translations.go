package translations

import (
	"encoding/json"
	"time"
)

// Limits the SDK checks before sending anything.
const (
	// MaxSet is the most keys one Set may carry (setTranslations accepts 1
	// to 500). A longer list is refused with ErrInvalidArgument, not split:
	// a split write could fail halfway with an error after some of it was
	// written. Split it yourself (slices.Chunk) if that is what you want.
	MaxSet         = 500
	MaxGetLimit    = 200 // the largest GetOptions.Limit
	MaxContextKeys = 50  // the most keys ContextOptions.KeyIDs may name
	// MaxLanguages is the most languages one ProposeLanguages or
	// ProposeLanguageEdits call may carry.
	MaxLanguages = 50
)

// PendingPublish says that changes wait to be published, as the write
// tools report it.
type PendingPublish struct {
	HasChanges bool   // whether anything waits
	Count      int    // how many changes wait
	Hint       string // the service's advice
}

// Values are the texts to write for one key.
type Values struct {
	KeyID string // the key's UUID; required
	// Text maps language codes to texts (at least one). Codes are
	// lowercased by the service and the source language is ignored.
	Text map[string]string
}

// SetResult is what Set reports. Writes land as approved and merge per
// language; unknown key ids are listed in Errors, not returned as a Go
// error (OK is false only when every id was unknown).
type SetResult struct {
	OK      bool
	Count   int             // the number of keys written (cnt)
	Written int             // the number of texts written (wrote)
	Updated []UpdatedKey    // the keys written
	Errors  []ItemError     // the keys that failed, for example code "not_found"
	Pending *PendingPublish // what now waits to be published
	Hint    string
	Raw     json.RawMessage // the tool's whole answer
}

// UpdatedKey is a key a batch wrote: Translations.Set, or Keys.Update
// (whose UpdateResult lists them too).
type UpdatedKey struct {
	KeyID     string   // the key's UUID
	Name      string   // the key, for example "nav.home"
	Languages []string // the languages written
	Source    bool     // whether the source text changed (Keys.Update)
}

// ItemError is the failure of one key of a batch: Translations.Set, or
// Keys.Update (whose UpdateResult lists them too). Name and Namespace
// are set when the service names the key.
type ItemError struct {
	KeyID     string // the key's UUID, as sent
	Name      string
	Namespace string
	Languages []string // the languages that failed
	Code      string   // the service's code, for example "not_found"
	Message   string
}

// Status is a translation's status in GetOptions.
type Status string

// The statuses GetOptions can filter by.
const (
	StatusMissing   Status = "missing"
	StatusDraft     Status = "draft"
	StatusPublished Status = "published"
	StatusAll       Status = "all"
)

// GetOptions selects the translations Get reads. getTranslations has no paging:
// when Result.HasMore is true, narrow the query.
type GetOptions struct {
	Search     []string // matches key names or texts; several terms match any
	Languages  []string // keeps these languages only
	Namespaces []string // keeps keys of these namespaces only
	Keys       []string // keeps these exact key names only
	// Status filters by status (default StatusAll). It needs Languages:
	// the service ignores it otherwise, so the SDK refuses it.
	Status Status
	// Limit caps the keys returned, 1 to MaxGetLimit; 0 means the
	// service's default (100).
	Limit int
}

// Result is what Get returns.
type Result struct {
	Project        string // the project ("org/project")
	SourceLanguage string // the project's source language
	// Returned is the number of keys in Keys; Total the number that match.
	Returned, Total int
	HasMore         bool              // more keys match than were returned
	Keys            []KeyTranslations // the keys with their translations
	// Namespaces describes the namespaces of Keys, by name, when the
	// service sends them (namespaceDetails).
	Namespaces []Namespace
	Hint       string
	Raw        json.RawMessage // the tool's whole answer
}

// Namespace is a namespace of a project's keys, as GetProject and Get
// describe it.
type Namespace struct {
	Name        string
	Description string
	// KeyCount is the number of keys in the namespace, when the service
	// counts them (GetProject).
	KeyCount int
	// Context is the namespace's context for translators, in the form
	// keys.NewKey takes it (its Description is the namespace's); nil when
	// the service sends none.
	Context *NamespaceContext
	Raw     json.RawMessage // the namespace as the service sent it
}

// NamespaceContext describes a namespace for human and machine
// translators. keys.NamespaceContext is the same type.
type NamespaceContext struct {
	Description string
	Team        string
	Domain      string
	AIPrompt    string // an instruction for machine translation
	Tags        []string
}

// KeyTranslations is one key and its translations.
type KeyTranslations struct {
	KeyID        string
	Name         string
	Namespace    string
	SourceText   string
	Translations map[string]Translation // by language code
}

// Translation is one language's text of a key.
type Translation struct {
	ID     string
	Text   string
	Status string
}

// PendingChanges is what waits to be published in a project.
type PendingChanges struct {
	Project     string                     // the project ("org/project")
	HasChanges  bool                       // whether anything waits
	Summary     PendingSummary             // counts what waits
	ByLanguage  map[string]LanguageChanges // by language code, the translations waiting
	DeletedKeys []PendingDeletion          // keys deleted since the last publish
	// Destination is where a publish goes: "github" (the source-code
	// host), "cdn" or "none".
	Destination     string
	NoPublishReason string          // why publishing is not possible, if it is not
	Recent          []RecentPublish // recent publishes
	Hint            string
	Raw             json.RawMessage // the tool's whole answer
}

// PendingSummary counts pending changes.
type PendingSummary struct {
	Translations    int
	DeletedKeys     int
	LanguageChanges int
	Total           int
}

// LanguageChanges are one language's pending translations.
type LanguageChanges struct {
	Count   int
	Preview []PendingTranslation // some of them
}

// PendingTranslation is a translation waiting to be published.
type PendingTranslation struct {
	KeyID     string
	Name      string
	Namespace string
	Text      string
	Status    string
}

// PendingDeletion is a deleted key waiting for the publish that makes the
// deletion permanent.
type PendingDeletion struct {
	KeyID      string
	Name       string
	Namespace  string
	SourceText string
}

// RecentPublish is a recent publish, as getPendingChanges lists it.
type RecentPublish struct {
	ID     string
	Type   string
	Status string
	At     time.Time // when it happened
	// NewKeys, UpdatedKeys and Files are the service's nk, uk and tf
	// counters as it reports them.
	NewKeys, UpdatedKeys, Files int
}

// PublishOptions selects what Publish publishes. The zero value publishes
// everything pending, including deletions and language changes.
type PublishOptions struct {
	Only []Selection // publishes these translations instead of everything
}

// Selection names one key's translation in one language.
type Selection struct {
	KeyID    string // the key's UUID
	Language string // the language code
}

// PublishResult is what Publish reports. Publishing is asynchronous: follow
// the sync jobs in SyncIDs (WaitSync), or publish with PublishAndWait. A
// project can be published once every PublishCooldown; an earlier call
// fails with ErrTemporary.
type PublishResult struct {
	Success   bool
	Published int      // the number of translations published
	SyncIDs   []string // the sync jobs that ship the publish
	// DeletedKeysProcessed and LanguageChangesProcessed count the other
	// changes the publish included.
	DeletedKeysProcessed, LanguageChangesProcessed int
	Message                                        string
	// Repositories are the source-code repositories the publish commits
	// to, as the service sent them (a count or a list: the service does
	// not pin the shape); nil when it did not say.
	Repositories json.RawMessage
	Hint         string
	Raw          json.RawMessage // the tool's whole answer
}

// SyncStatus is a sync job's state.
type SyncStatus string

// The states of a sync job. Completed, Failed and Cancelled are final.
const (
	SyncPending    SyncStatus = "pending"
	SyncInProgress SyncStatus = "in_progress"
	SyncCompleted  SyncStatus = "completed"
	SyncFailed     SyncStatus = "failed"
	SyncCancelled  SyncStatus = "cancelled"
)

// Done reports whether the state is final.
func (s SyncStatus) Done() bool {
	return s == SyncCompleted || s == SyncFailed || s == SyncCancelled
}

// SyncType is the kind of a sync job.
type SyncType string

// The kinds of sync job.
const (
	SyncInitialImport SyncType = "initial_import"
	SyncSourceSync    SyncType = "source_sync"
	SyncCDNUpload     SyncType = "cdn_upload"
	SyncBatchPublish  SyncType = "batch_publish"
)

// ListSyncsOptions filters ListSyncs. The zero value lists the latest 10 jobs.
type ListSyncsOptions struct {
	// Limit is how many jobs to list, 1 to 50; 0 means the service's
	// default (10).
	Limit int
	// Status keeps jobs in this state: SyncPending, SyncInProgress,
	// SyncCompleted or SyncFailed. The tool cannot filter by
	// SyncCancelled, so ListSyncs refuses it with ErrInvalidArgument
	// before sending anything; "" lists every state.
	Status SyncStatus
	Type   SyncType // keeps jobs of this kind; "" lists every kind
}

// SyncList is what ListSyncs returns.
type SyncList struct {
	Project string
	Total   int // the number of jobs that match
	Syncs   []Sync
	Message string
	Raw     json.RawMessage // the tool's whole answer
}

// Sync is a sync job.
type Sync struct {
	ID     string
	Type   SyncType
	Status SyncStatus
	// StartedAt and CompletedAt are zero when the service did not say.
	StartedAt, CompletedAt time.Time
	Error                  string  // the failure message of a failed job
	TriggeredBy            *Person // who started the job, when known
	// KeysProcessed, Files and FilesProcessed are the service's meta
	// counters kp, tf and pf as it reports them (ListSyncs): keys
	// processed, translation files of the job, files processed so far.
	KeysProcessed, Files, FilesProcessed int
	// Log and AffectedKeys (what the job did to which key) are set by
	// GetSync and WaitSync only.
	Log          []string
	AffectedKeys []AffectedKey
	Hint         string
	Raw          json.RawMessage // the job's record as the service sent it
}

// Person is a user the service names.
type Person struct {
	Name  string
	Image string
}

// AffectedKey is a key a sync job touched.
type AffectedKey struct {
	Name   string
	Action string
}

// CancelReason says what CancelSync did.
type CancelReason string

// The outcomes of CancelSync. Only pending jobs can be cancelled; nothing
// is rolled back.
const (
	CancelDone              CancelReason = "cancelled"
	CancelAlreadyInProgress CancelReason = "already_in_progress"
	CancelTerminalState     CancelReason = "terminal_state"
)

// CancelResult is what CancelSync reports. A job that could not be
// cancelled is a result (Cancelled false), not a Go error.
type CancelResult struct {
	ID             string
	Cancelled      bool
	PreviousStatus SyncStatus
	Reason         CancelReason
	Hint           string
	Raw            json.RawMessage // the tool's whole answer
}

// ContextOptions selects the translation context to read.
type ContextOptions struct {
	KeyIDs []string // asks for memory matches for these keys (at most MaxContextKeys)
	// MatchesPerKey is how many matches per key, 1 to 20; 0 means the
	// service's default (5). Used only with KeyIDs.
	MatchesPerKey int
	Languages     []string // restricts glossary translations to these languages
}

// Context is what translators need to stay on-brand: the project's
// description and tone, its glossary and, per key, similar texts.
type Context struct {
	Project         string
	SourceLanguage  string
	TargetLanguages []string
	Instructions    string // the project's instructions for translators
	// Description, Audience and Category describe the project.
	Description, Audience, Category string
	// Tone is the project's tone of voice, as the service sent it (an
	// object of abbreviated fields); nil when not set.
	Tone          json.RawMessage
	Glossary      []Term // glossary terms (at most 30)
	GlossaryTotal int    // the number of glossary terms in the project
	// Matches lists, per key asked for, similar texts (translation
	// memory, glossary, preferences). Nil when retrieval is unavailable;
	// Hint then says why.
	Matches []KeyMatches
	Hint    string
	Raw     json.RawMessage // the tool's whole answer
}

// Term is a glossary term.
type Term struct {
	Term           string
	Type           string // one of brand, product, technical, terminology
	Description    string
	DoNotTranslate bool              // keep the term as it is
	Translations   map[string]string // by language code
}

// KeyMatches are the similar texts found for one key.
type KeyMatches struct {
	KeyID   string
	Name    string
	Similar []Match
}

// Match is one similar text.
type Match struct {
	Type     string  // one of translation, glossary, preference, instruction, content
	Content  string  // the text, cut to 200 characters
	Score    float64 // the similarity, from 0 to 1
	Language string  // the text's language, "" when none
}

// LanguageStatus is a project language's status.
type LanguageStatus string

// The statuses of a project language.
const (
	LanguageActive   LanguageStatus = "active"
	LanguageDraft    LanguageStatus = "draft"
	LanguageArchived LanguageStatus = "archived"
)

// LanguageProposal is a language to add to a project.
type LanguageProposal struct {
	Code   string         // the language code, 2 to 10 characters
	Status LanguageStatus // LanguageActive (the default when "") or LanguageDraft
}

// ProposeLanguagesResult is what ProposeLanguages reports. Codes the
// project has are skipped; the source language is refused silently.
type ProposeLanguagesResult struct {
	Success        bool
	Added, Skipped int // how many languages were added and skipped
	Results        []LanguageResult
	Project        string
	Pending        *PendingPublish
	Hint           string
	Raw            json.RawMessage // the tool's whole answer
}

// LanguageResult is the outcome for one proposed language.
type LanguageResult struct {
	Code   string
	Status LanguageStatus
	Added  bool
}

// LanguageEdit changes a project language's status.
type LanguageEdit struct {
	Code      string
	NewStatus LanguageStatus
}

// ProposeLanguageEditsResult is what ProposeLanguageEdits reports. Codes the project
// does not have are listed in NotFound, not returned as a Go error.
type ProposeLanguageEditsResult struct {
	Success  bool
	Results  []LanguageEditResult
	NotFound []string
	Project  string
	Pending  *PendingPublish
	Hint     string
	Raw      json.RawMessage // the tool's whole answer
}

// LanguageEditResult is the outcome for one language edit.
type LanguageEditResult struct {
	Code           string
	PreviousStatus LanguageStatus
	NewStatus      LanguageStatus
	Changed        bool
}

// FileStructure is how a project's translation files are laid out (on
// the CDN and in a repository).
type FileStructure string

// The layouts of a project's files. SingleFile is the default when the
// service says nothing.
const (
	SingleFile        FileStructure = "single_file"        // one file per language, {locale}/translations.json
	NamespacedFolders FileStructure = "namespaced_folders" // a folder per language: {locale}/{namespace}.json
)

// KeyFormat is how keys are written in a project's files.
type KeyFormat string

// The formats of keys in a project's files. Nested is the default when
// the service says nothing.
const (
	Nested KeyFormat = "nested" // "a.b" as {"a": {"b": ...}}
	Flat   KeyFormat = "flat"   // "a.b" as {"a.b": ...}
)

// ProjectSummary is a project the grant can use, as ListProjects lists it.
type ProjectSummary struct {
	// ID is the project's id; Slug names it in the tools ("org/project").
	ID, Slug         string
	Name             string
	OrganizationName string // the display name of the project's organization
	SourceLanguage   string
	TargetLanguages  []string
	CDNFormat        string // the format of its CDN files, for example "json"
	// FileStructure and KeyFormat are the project's layout; the service's
	// null is given as its meaning, SingleFile and Nested.
	FileStructure FileStructure
	KeyFormat     KeyFormat
	Raw           json.RawMessage // the project as the service sent it
}

// ProjectList is what ListProjects returns.
type ProjectList struct {
	Projects   []ProjectSummary
	CDNBaseURL string          // the CDN's address, when the service gives it
	Raw        json.RawMessage // the tool's whole answer
}

// Project is a project's overview, as GetProject returns it: what locale
// sync needs to lay out its files.
type Project struct {
	Slug           string // names the project ("org/project")
	SourceLanguage string
	Languages      []string            // the project's target languages
	Namespaces     []Namespace         // the project's namespaces, with their key counts
	TotalKeys      int                 // the number of keys
	Coverage       map[string]Coverage // by target language, how far it is translated
	// CDN says where the published files are; nil when the project
	// publishes nowhere the service serves.
	CDN     *CDN
	Message string          // the service's note, if any
	Raw     json.RawMessage // the tool's whole answer
}

// FileStructure returns the project's file layout: the CDN's, or
// SingleFile when the service does not say.
func (p *Project) FileStructure() FileStructure {
	if p.CDN != nil && p.CDN.FileStructure != "" {
		return p.CDN.FileStructure
	}
	return SingleFile
}

// KeyFormat returns how the project's files write keys: the CDN's, or
// Nested when the service does not say.
func (p *Project) KeyFormat() KeyFormat {
	if p.CDN != nil && p.CDN.KeyFormat != "" {
		return p.CDN.KeyFormat
	}
	return Nested
}

// Coverage is how far one language is translated.
type Coverage struct {
	Translated int // the number of keys with a text in the language
	Percent    int // Translated as a percentage of the keys, 0 to 100
}

// CDN is where a project's published files are served. Prefer these URLs
// to building paths: their layout depends on FileStructure.
type CDN struct {
	BaseURL     string // the project's folder on the CDN
	ManifestURL string // the project's manifest (the files and languages)
	// Pattern is a file's URL with placeholders, for example
	// ".../{locale}/translations.json" or ".../{locale}/{namespace}.json".
	Pattern       string
	Examples      []string // URLs of some of the project's files
	FileStructure FileStructure
	KeyFormat     KeyFormat
}
