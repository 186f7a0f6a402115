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
	MaxSet = 500
	// MaxGetLimit is the largest GetOptions.Limit.
	MaxGetLimit = 200
	// MaxContextKeys is the most keys ContextOptions.KeyIDs may name.
	MaxContextKeys = 50
	// MaxLanguages is the most languages one ProposeLanguages or
	// ProposeLanguageEdits call may carry.
	MaxLanguages = 50
)

// PendingPublish says that changes wait to be published, as the write
// tools report it.
type PendingPublish struct {
	// HasChanges reports whether anything waits.
	HasChanges bool
	// Count is how many changes wait.
	Count int
	// Hint is the service's advice.
	Hint string
}

// Values are the texts to write for one key.
type Values struct {
	// KeyID is the key's UUID. Required.
	KeyID string
	// Text maps language codes to texts (at least one). Codes are
	// lowercased by the service and the source language is ignored.
	Text map[string]string
}

// SetResult is what Set reports. Writes land as approved and merge per
// language; unknown key ids are listed in Errors, not returned as a Go
// error (OK is false only when every id was unknown).
type SetResult struct {
	OK bool
	// Count is the number of keys written (cnt).
	Count int
	// Written is the number of texts written (wrote).
	Written int
	// Updated lists the keys written.
	Updated []UpdatedKey
	// Errors lists the keys that failed, for example code "not_found".
	Errors []ItemError
	// Pending says what now waits to be published.
	Pending *PendingPublish
	Hint    string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// UpdatedKey is a key a batch wrote: Translations.Set, or Keys.Update
// (whose UpdateResult lists them too).
type UpdatedKey struct {
	// KeyID is the key's UUID.
	KeyID string
	// Name is the key, for example "nav.home".
	Name string
	// Languages are the languages written.
	Languages []string
	// Source reports whether the source text changed (Keys.Update).
	Source bool
}

// ItemError is the failure of one key of a batch: Translations.Set, or
// Keys.Update (whose UpdateResult lists them too). Name and Namespace
// are set when the service names the key.
type ItemError struct {
	// KeyID is the key's UUID, as sent.
	KeyID     string
	Name      string
	Namespace string
	// Languages are the languages that failed.
	Languages []string
	// Code is the service's code, for example "not_found".
	Code    string
	Message string
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
	// Search matches key names or texts; several terms match any.
	Search []string
	// Languages keeps these languages only.
	Languages []string
	// Namespaces keeps keys of these namespaces only.
	Namespaces []string
	// Keys keeps these exact key names only.
	Keys []string
	// Status filters by status (default StatusAll). It needs Languages:
	// the service ignores it otherwise, so the SDK refuses it.
	Status Status
	// Limit caps the keys returned, 1 to MaxGetLimit; 0 means the
	// service's default (100).
	Limit int
}

// Result is what Get returns.
type Result struct {
	// Project is the project ("org/project").
	Project string
	// SourceLanguage is the project's source language.
	SourceLanguage string
	// Returned is the number of keys in Keys; Total the number that match.
	Returned, Total int
	// HasMore says that more keys match than were returned.
	HasMore bool
	// Keys are the keys with their translations.
	Keys []KeyTranslations
	// Namespaces describes the namespaces of Keys, by name, when the
	// service sends them (namespaceDetails).
	Namespaces []Namespace
	Hint       string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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
	// Raw is the namespace as the service sent it.
	Raw json.RawMessage
}

// NamespaceContext describes a namespace for human and machine
// translators. keys.NamespaceContext is the same type.
type NamespaceContext struct {
	Description string
	Team        string
	Domain      string
	// AIPrompt is an instruction for machine translation.
	AIPrompt string
	Tags     []string
}

// KeyTranslations is one key and its translations.
type KeyTranslations struct {
	KeyID      string
	Name       string
	Namespace  string
	SourceText string
	// Translations maps language codes to translations.
	Translations map[string]Translation
}

// Translation is one language's text of a key.
type Translation struct {
	ID     string
	Text   string
	Status string
}

// PendingChanges is what waits to be published in a project.
type PendingChanges struct {
	// Project is the project ("org/project").
	Project string
	// HasChanges reports whether anything waits.
	HasChanges bool
	// Summary counts what waits.
	Summary PendingSummary
	// ByLanguage maps language codes to the translations waiting.
	ByLanguage map[string]LanguageChanges
	// DeletedKeys are keys deleted since the last publish.
	DeletedKeys []PendingDeletion
	// Destination is where a publish goes: "github" (the source-code
	// host), "cdn" or "none".
	Destination string
	// NoPublishReason says why publishing is not possible, if it is not.
	NoPublishReason string
	// Recent lists recent publishes.
	Recent []RecentPublish
	Hint   string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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
	Count int
	// Preview shows some of them.
	Preview []PendingTranslation
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
	// At is when it happened.
	At time.Time
	// NewKeys, UpdatedKeys and Files are the service's nk, uk and tf
	// counters as it reports them.
	NewKeys, UpdatedKeys, Files int
}

// PublishOptions selects what Publish publishes. The zero value publishes
// everything pending, including deletions and language changes.
type PublishOptions struct {
	// Only publishes these translations instead of everything.
	Only []Selection
}

// Selection names one key's translation in one language.
type Selection struct {
	// KeyID is the key's UUID.
	KeyID string
	// Language is the language code.
	Language string
}

// PublishResult is what Publish reports. Publishing is asynchronous: follow
// the sync jobs in SyncIDs (WaitSync). A project can be published once
// every 30 seconds; an earlier call fails with ErrTemporary.
type PublishResult struct {
	Success bool
	// Published is the number of translations published.
	Published int
	// SyncIDs are the sync jobs that ship the publish.
	SyncIDs []string
	// DeletedKeysProcessed and LanguageChangesProcessed count the other
	// changes the publish included.
	DeletedKeysProcessed, LanguageChangesProcessed int
	Message                                        string
	// Repositories are the source-code repositories the publish commits
	// to, as the service sent them (a count or a list: the service does
	// not pin the shape); nil when it did not say.
	Repositories json.RawMessage
	Hint         string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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
	// Type keeps jobs of this kind; "" lists every kind.
	Type SyncType
}

// SyncList is what ListSyncs returns.
type SyncList struct {
	Project string
	// Total is the number of jobs that match.
	Total   int
	Syncs   []Sync
	Message string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// Sync is a sync job.
type Sync struct {
	ID     string
	Type   SyncType
	Status SyncStatus
	// StartedAt and CompletedAt are zero when the service did not say.
	StartedAt, CompletedAt time.Time
	// Error is the failure message of a failed job.
	Error string
	// TriggeredBy is who started the job, when known.
	TriggeredBy *Person
	// KeysProcessed, Files and FilesProcessed are the service's meta
	// counters kp, tf and pf as it reports them (ListSyncs): keys
	// processed, translation files of the job, files processed so far.
	KeysProcessed, Files, FilesProcessed int
	// Log is the job's log (GetSync and WaitSync only).
	Log []string
	// AffectedKeys lists what the job did to which key (GetSync and WaitSync
	// only).
	AffectedKeys []AffectedKey
	Hint         string
	// Raw is the job's record as the service sent it.
	Raw json.RawMessage
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
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// ContextOptions selects the translation context to read.
type ContextOptions struct {
	// KeyIDs asks for memory matches for these keys (at most
	// MaxContextKeys).
	KeyIDs []string
	// MatchesPerKey is how many matches per key, 1 to 20; 0 means the
	// service's default (5). Used only with KeyIDs.
	MatchesPerKey int
	// Languages restricts glossary translations to these languages.
	Languages []string
}

// Context is what translators need to stay on-brand: the project's
// description and tone, its glossary and, per key, similar texts.
type Context struct {
	Project         string
	SourceLanguage  string
	TargetLanguages []string
	// Instructions are the project's instructions for translators.
	Instructions string
	// Description, Audience and Category describe the project.
	Description, Audience, Category string
	// Tone is the project's tone of voice, as the service sent it (an
	// object of abbreviated fields); nil when not set.
	Tone json.RawMessage
	// Glossary lists glossary terms (at most 30).
	Glossary []Term
	// GlossaryTotal is the number of glossary terms in the project.
	GlossaryTotal int
	// Matches lists, per key asked for, similar texts (translation
	// memory, glossary, preferences). Nil when retrieval is unavailable;
	// Hint then says why.
	Matches []KeyMatches
	Hint    string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// Term is a glossary term.
type Term struct {
	Term string
	// Type is one of brand, product, technical, terminology.
	Type        string
	Description string
	// DoNotTranslate marks a term to keep as it is.
	DoNotTranslate bool
	// Translations maps language codes to the term's translations.
	Translations map[string]string
}

// KeyMatches are the similar texts found for one key.
type KeyMatches struct {
	KeyID   string
	Name    string
	Similar []Match
}

// Match is one similar text.
type Match struct {
	// Type is one of translation, glossary, preference, instruction,
	// content.
	Type string
	// Content is the text, cut to 200 characters.
	Content string
	// Score is the similarity, from 0 to 1.
	Score float64
	// Language is the text's language, "" when none.
	Language string
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
	// Code is the language code, 2 to 10 characters.
	Code string
	// Status is LanguageActive (the default when "") or LanguageDraft.
	Status LanguageStatus
}

// ProposeLanguagesResult is what ProposeLanguages reports. Codes the
// project has are skipped; the source language is refused silently.
type ProposeLanguagesResult struct {
	Success bool
	// Added and Skipped count the languages.
	Added, Skipped int
	Results        []LanguageResult
	Project        string
	Pending        *PendingPublish
	Hint           string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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

// The layouts of a project's files.
const (
	// SingleFile is one file per language, {locale}/translations.json
	// (the default when the service says nothing).
	SingleFile FileStructure = "single_file"
	// NamespacedFolders is a folder per language with a file per
	// namespace, {locale}/{namespace}.json.
	NamespacedFolders FileStructure = "namespaced_folders"
)

// KeyFormat is how keys are written in a project's files.
type KeyFormat string

// The formats of keys in a project's files.
const (
	// Nested writes "a.b" as {"a": {"b": ...}} (the default when the
	// service says nothing).
	Nested KeyFormat = "nested"
	// Flat writes "a.b" as {"a.b": ...}.
	Flat KeyFormat = "flat"
)

// ProjectSummary is a project the grant can use, as ListProjects lists it.
type ProjectSummary struct {
	// ID is the project's id; Slug names it in the tools ("org/project").
	ID, Slug string
	Name     string
	// OrganizationName is the display name of the project's organization.
	OrganizationName string
	SourceLanguage   string
	TargetLanguages  []string
	// CDNFormat is the format of its CDN files, for example "json".
	CDNFormat string
	// FileStructure and KeyFormat are the project's layout; the service's
	// null is given as its meaning, SingleFile and Nested.
	FileStructure FileStructure
	KeyFormat     KeyFormat
	// Raw is the project as the service sent it.
	Raw json.RawMessage
}

// ProjectList is what ListProjects returns.
type ProjectList struct {
	Projects []ProjectSummary
	// CDNBaseURL is the CDN's address, when the service gives it.
	CDNBaseURL string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
}

// Project is a project's overview, as GetProject returns it: what locale
// sync needs to lay out its files.
type Project struct {
	// Slug names the project ("org/project").
	Slug           string
	SourceLanguage string
	// Languages are the project's target languages.
	Languages []string
	// Namespaces are the project's namespaces, with their key counts.
	Namespaces []Namespace
	// TotalKeys is the number of keys.
	TotalKeys int
	// Coverage maps target languages to how far they are translated.
	Coverage map[string]Coverage
	// CDN says where the published files are; nil when the project
	// publishes nowhere the service serves.
	CDN *CDN
	// Message is the service's note, if any.
	Message string
	// Raw is the tool's whole answer.
	Raw json.RawMessage
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
	// Translated is the number of keys with a text in the language.
	Translated int
	// Percent is Translated as a percentage of the keys, 0 to 100.
	Percent int
}

// CDN is where a project's published files are served. Prefer these URLs
// to building paths: their layout depends on FileStructure.
type CDN struct {
	// BaseURL is the project's folder on the CDN.
	BaseURL string
	// ManifestURL is the project's manifest (the files and languages).
	ManifestURL string
	// Pattern is a file's URL with placeholders, for example
	// ".../{locale}/translations.json" or ".../{locale}/{namespace}.json".
	Pattern string
	// Examples are URLs of some of the project's files.
	Examples      []string
	FileStructure FileStructure
	KeyFormat     KeyFormat
}
