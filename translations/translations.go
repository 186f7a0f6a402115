package translations

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/lenient"
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

// UnmarshalJSON decodes either form the write tools send: {has, cnt,
// hint} or {hasChanges, count, hint}. It never fails.
func (p *PendingPublish) UnmarshalJSON(b []byte) error {
	p.HasChanges = lenient.Get[bool](b, "has") || lenient.Get[bool](b, "hasChanges")
	p.Count = cmp.Or(lenient.Get[int](b, "cnt"), lenient.Get[int](b, "count"))
	p.Hint = lenient.Get[string](b, "hint")
	return nil
}

// Values are the texts to write for one key.
type Values struct {
	// KeyID is the key's UUID. Required.
	KeyID string `json:"id"`
	// Text maps language codes to texts (at least one). Codes are
	// lowercased by the service and the source language is ignored.
	Text map[string]string `json:"t"`
}

// SetResult is what Set reports. Writes land as approved and merge per
// language; unknown key ids are listed in Errors, not returned as a Go
// error (OK is false only when every id was unknown).
type SetResult struct {
	OK bool `json:"ok"`
	// Count is the number of keys written (cnt).
	Count int `json:"cnt"`
	// Written is the number of texts written (wrote).
	Written int `json:"wrote"`
	// Updated lists the keys written.
	Updated []UpdatedKey `json:"upd"`
	// Errors lists the keys that failed, for example code "not_found".
	Errors []ItemError `json:"errors"`
	// Pending says what now waits to be published.
	Pending *PendingPublish `json:"pub"`
	Hint    string          `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// UpdatedKey is a key a batch wrote: Translations.Set, or Keys.Update
// (whose UpdateResult lists them too).
type UpdatedKey struct {
	// KeyID is the key's UUID.
	KeyID string `json:"id"`
	// Name is the key, for example "nav.home".
	Name string `json:"k"`
	// Languages are the languages written.
	Languages []string `json:"lng"`
	// Source reports whether the source text changed (Keys.Update).
	Source bool `json:"src"`
}

// UnmarshalJSON decodes an item of a batch's upd list; a language sent
// as an object is taken by its code. It never fails.
func (u *UpdatedKey) UnmarshalJSON(b []byte) error {
	type plain UpdatedKey
	_ = json.Unmarshal(b, (*plain)(u))
	u.Languages = lenient.Get[lenient.Strings](b, "lng")
	return nil
}

// ItemError is the failure of one key of a batch: Translations.Set, or
// Keys.Update (whose UpdateResult lists them too). Name and Namespace
// are set when the service names the key.
type ItemError struct {
	// KeyID is the key's UUID, as sent.
	KeyID     string `json:"id"`
	Name      string `json:"k"`
	Namespace string `json:"ns"`
	// Languages are the languages that failed.
	Languages []string `json:"l"`
	// Code is the service's code, for example "not_found".
	Code    string `json:"code"`
	Message string `json:"msg"`
}

// UnmarshalJSON decodes an item of a batch's errors list; a language
// sent as an object is taken by its code. It never fails.
func (e *ItemError) UnmarshalJSON(b []byte) error {
	type plain ItemError
	_ = json.Unmarshal(b, (*plain)(e))
	e.Languages = lenient.Get[lenient.Strings](b, "l")
	return nil
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
	Search []string `json:"-"`
	// Languages keeps these languages only.
	Languages []string `json:"languages,omitempty"`
	// Namespaces keeps keys of these namespaces only.
	Namespaces []string `json:"namespaces,omitempty"`
	// Keys keeps these exact key names only.
	Keys []string `json:"keys,omitempty"`
	// Status filters by status (default StatusAll). It needs Languages:
	// the service ignores it otherwise, so the SDK refuses it.
	Status Status `json:"status,omitempty"`
	// Limit caps the keys returned, 1 to MaxGetLimit; 0 means the
	// service's default (100).
	Limit int `json:"limit,omitempty"`
}

// Result is what Get returns.
type Result struct {
	// Project is the project ("org/project").
	Project string `json:"project"`
	// SourceLanguage is the project's source language.
	SourceLanguage string `json:"sourceLanguage"`
	// Returned is the number of keys in Keys; Total the number that match.
	Returned int `json:"returned"`
	Total    int `json:"total"`
	// HasMore says that more keys match than were returned.
	HasMore bool `json:"hasMore"`
	// Keys are the keys with their translations.
	Keys []KeyTranslations `json:"keys"`
	// Namespaces describes the namespaces of Keys, by name, when the
	// service sends them (namespaceDetails).
	Namespaces []Namespace `json:"-"`
	Hint       string      `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
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
	Description string `json:"description,omitempty"`
	Team        string `json:"team,omitempty"`
	Domain      string `json:"domain,omitempty"`
	// AIPrompt is an instruction for machine translation.
	AIPrompt string   `json:"aiPrompt,omitempty"`
	Tags     []string `json:"tags,omitempty"`
}

// KeyTranslations is one key and its translations.
type KeyTranslations struct {
	KeyID      string `json:"id"`
	Name       string `json:"key"`
	Namespace  string `json:"namespace"`
	SourceText string `json:"sourceText"`
	// Translations maps language codes to translations.
	Translations map[string]Translation `json:"translations"`
}

// UnmarshalJSON decodes a key of the getTranslations answer, in its long
// form or its abbreviated one (k, ns, src, tr). It never fails.
func (k *KeyTranslations) UnmarshalJSON(b []byte) error {
	type plain KeyTranslations
	_ = json.Unmarshal(b, (*plain)(k))
	k.Name, k.Namespace = cmp.Or(k.Name, lenient.Get[string](b, "k")), cmp.Or(k.Namespace, lenient.Get[string](b, "ns"))
	k.SourceText = cmp.Or(k.SourceText, lenient.Get[string](b, "src"))
	if k.Translations == nil {
		k.Translations = lenient.Get[map[string]Translation](b, "tr")
	}
	return nil
}

// Translation is one language's text of a key.
type Translation struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Status string `json:"status"`
}

// UnmarshalJSON decodes a translation in its long form or its
// abbreviated one (t, st). It never fails.
func (t *Translation) UnmarshalJSON(b []byte) error {
	type plain Translation
	_ = json.Unmarshal(b, (*plain)(t))
	t.Text, t.Status = cmp.Or(t.Text, lenient.Get[string](b, "t")), cmp.Or(t.Status, lenient.Get[string](b, "st"))
	return nil
}

// PendingChanges is what waits to be published in a project.
type PendingChanges struct {
	// Project is the project ("org/project").
	Project string `json:"prj"`
	// HasChanges reports whether anything waits.
	HasChanges bool `json:"has_chg"`
	// Summary counts what waits.
	Summary PendingSummary `json:"sum"`
	// ByLanguage maps language codes to the translations waiting.
	ByLanguage map[string]LanguageChanges `json:"by_lng"`
	// DeletedKeys are keys deleted since the last publish.
	DeletedKeys []PendingDeletion `json:"del_k"`
	// Destination is where a publish goes: "github" (the source-code
	// host), "cdn" or "none".
	Destination string `json:"pub_dst"`
	// NoPublishReason says why publishing is not possible, if it is not.
	NoPublishReason string `json:"no_pub_rsn"`
	// Recent lists recent publishes.
	Recent []RecentPublish `json:"recent"`
	Hint   string          `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// PendingSummary counts pending changes.
type PendingSummary struct {
	Translations    int `json:"tr"`
	DeletedKeys     int `json:"del_k"`
	LanguageChanges int `json:"lng_chg"`
	Total           int `json:"tot"`
}

// LanguageChanges are one language's pending translations.
type LanguageChanges struct {
	Count int `json:"cnt"`
	// Preview shows some of them.
	Preview []PendingTranslation `json:"prv"`
}

// PendingTranslation is a translation waiting to be published.
type PendingTranslation struct {
	KeyID     string `json:"kid"`
	Name      string `json:"k"`
	Namespace string `json:"ns"`
	Text      string `json:"t"`
	Status    string `json:"st"`
}

// PendingDeletion is a deleted key waiting for the publish that makes the
// deletion permanent.
type PendingDeletion struct {
	KeyID      string `json:"kid"`
	Name       string `json:"k"`
	Namespace  string `json:"ns"`
	SourceText string `json:"src"`
}

// RecentPublish is a recent publish, as getPendingChanges lists it.
type RecentPublish struct {
	ID     string `json:"id"`
	Type   string `json:"tp"`
	Status string `json:"st"`
	// At is when it happened.
	At time.Time `json:"-"`
	// NewKeys, UpdatedKeys and Files are the service's nk, uk and tf
	// counters as it reports them.
	NewKeys     int `json:"nk"`
	UpdatedKeys int `json:"uk"`
	Files       int `json:"tf"`
}

// UnmarshalJSON decodes a publish of getPendingChanges' recent list; at
// is RFC 3339 or Unix milliseconds. It never fails.
func (r *RecentPublish) UnmarshalJSON(b []byte) error {
	type plain RecentPublish
	_ = json.Unmarshal(b, (*plain)(r))
	r.At = lenient.Get[lenient.Time](b, "at").Time
	return nil
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
	KeyID string `json:"keyId"`
	// Language is the language code.
	Language string `json:"languageCode"`
}

// PublishResult is what Publish reports. Publishing is asynchronous: follow
// the sync jobs in SyncIDs (WaitSync). A project can be published once
// every 30 seconds; an earlier call fails with ErrTemporary.
type PublishResult struct {
	Success bool `json:"success"`
	// Published is the number of translations published.
	Published int `json:"published"`
	// SyncIDs are the sync jobs that ship the publish.
	SyncIDs []string `json:"syncJobIds"`
	// DeletedKeysProcessed and LanguageChangesProcessed count the other
	// changes the publish included.
	DeletedKeysProcessed     int    `json:"deletedKeysProcessed"`
	LanguageChangesProcessed int    `json:"languageChangesProcessed"`
	Message                  string `json:"message"`
	// Repositories are the source-code repositories the publish commits
	// to, as the service sent them (a count or a list: the service does
	// not pin the shape); nil when it did not say.
	Repositories json.RawMessage `json:"repositories"`
	Hint         string          `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
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
	Limit int `json:"limit,omitempty"`
	// Status keeps jobs in this state: SyncPending, SyncInProgress,
	// SyncCompleted or SyncFailed. The tool cannot filter by
	// SyncCancelled, so ListSyncs refuses it with ErrInvalidArgument
	// before sending anything; "" lists every state.
	Status SyncStatus `json:"status,omitempty"`
	// Type keeps jobs of this kind; "" lists every kind.
	Type SyncType `json:"type,omitempty"`
}

// SyncList is what ListSyncs returns.
type SyncList struct {
	Project string `json:"prj"`
	// Total is the number of jobs that match.
	Total   int    `json:"tot"`
	Syncs   []Sync `json:"sy"`
	Message string `json:"msg"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// Sync is a sync job.
type Sync struct {
	ID     string     `json:"id"`
	Type   SyncType   `json:"tp"`
	Status SyncStatus `json:"st"`
	// StartedAt and CompletedAt are zero when the service did not say.
	StartedAt   time.Time `json:"-"`
	CompletedAt time.Time `json:"-"`
	// Error is the failure message of a failed job.
	Error string `json:"err_msg"`
	// TriggeredBy is who started the job, when known.
	TriggeredBy *Person `json:"trig_by"`
	// KeysProcessed, Files and FilesProcessed are the service's meta
	// counters kp, tf and pf as it reports them (ListSyncs): keys
	// processed, translation files of the job, files processed so far.
	KeysProcessed  int `json:"-"`
	Files          int `json:"-"`
	FilesProcessed int `json:"-"`
	// Log is the job's log (GetSync and WaitSync only).
	Log []string `json:"log"`
	// AffectedKeys lists what the job did to which key (GetSync and WaitSync
	// only).
	AffectedKeys []AffectedKey `json:"aff_k"`
	Hint         string        `json:"hint"`
	// Raw is the job's record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a sync job as getSync and getSyncs send it: times
// in RFC 3339 or Unix milliseconds, meta counters as numbers or lists,
// log lines as strings or objects. It keeps the record in Raw and never
// fails.
func (s *Sync) UnmarshalJSON(b []byte) error {
	type plain Sync
	_ = json.Unmarshal(b, (*plain)(s))
	s.StartedAt, s.CompletedAt = lenient.Get[lenient.Time](b, "st_at").Time, lenient.Get[lenient.Time](b, "cp_at").Time
	meta := lenient.Get[map[string]lenient.Count](b, "meta")
	s.KeysProcessed, s.Files, s.FilesProcessed = int(meta["kp"]), int(meta["tf"]), int(meta["pf"])
	s.Log, s.Raw = lenient.Get[lenient.Strings](b, "log"), bytes.Clone(b)
	return nil
}

// Person is a user the service names.
type Person struct {
	Name  string `json:"nm"`
	Image string `json:"img"`
}

// AffectedKey is a key a sync job touched.
type AffectedKey struct {
	Name   string `json:"k"`
	Action string `json:"act"`
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
	ID             string       `json:"id"`
	Cancelled      bool         `json:"can"`
	PreviousStatus SyncStatus   `json:"prev"`
	Reason         CancelReason `json:"rsn"`
	Hint           string       `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// ContextOptions selects the translation context to read.
type ContextOptions struct {
	// KeyIDs asks for memory matches for these keys (at most
	// MaxContextKeys).
	KeyIDs []string `json:"keys,omitempty"`
	// MatchesPerKey is how many matches per key, 1 to 20; 0 means the
	// service's default (5). Used only with KeyIDs.
	MatchesPerKey int `json:"kPerKey,omitempty"`
	// Languages restricts glossary translations to these languages.
	Languages []string `json:"languages,omitempty"`
}

// Context is what translators need to stay on-brand: the project's
// description and tone, its glossary and, per key, similar texts.
type Context struct {
	Project         string   `json:"prj"`
	SourceLanguage  string   `json:"src"`
	TargetLanguages []string `json:"tgt"`
	// Instructions are the project's instructions for translators.
	Instructions string `json:"inst"`
	// Description, Audience and Category describe the project.
	Description string `json:"-"`
	Audience    string `json:"-"`
	Category    string `json:"-"`
	// Tone is the project's tone of voice, as the service sent it (an
	// object of abbreviated fields); nil when not set.
	Tone json.RawMessage `json:"-"`
	// Glossary lists glossary terms (at most 30).
	Glossary []Term `json:"gl"`
	// GlossaryTotal is the number of glossary terms in the project.
	GlossaryTotal int `json:"glt"`
	// Matches lists, per key asked for, similar texts (translation
	// memory, glossary, preferences). Nil when retrieval is unavailable;
	// Hint then says why.
	Matches []KeyMatches `json:"rules"`
	Hint    string       `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// Term is a glossary term.
type Term struct {
	Term string `json:"t"`
	// Type is one of brand, product, technical, terminology.
	Type        string `json:"tp"`
	Description string `json:"d"`
	// DoNotTranslate marks a term to keep as it is.
	DoNotTranslate bool `json:"mnt"`
	// Translations maps language codes to the term's translations.
	Translations map[string]string `json:"tr"`
}

// KeyMatches are the similar texts found for one key.
type KeyMatches struct {
	KeyID   string  `json:"id"`
	Name    string  `json:"k"`
	Similar []Match `json:"sim"`
}

// Match is one similar text.
type Match struct {
	// Type is one of translation, glossary, preference, instruction,
	// content.
	Type string `json:"tp"`
	// Content is the text, cut to 200 characters.
	Content string `json:"c"`
	// Score is the similarity, from 0 to 1.
	Score float64 `json:"s"`
	// Language is the text's language, "" when none.
	Language string `json:"l"`
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
	Code string `json:"languageCode"`
	// Status is LanguageActive (the default when "") or LanguageDraft.
	Status LanguageStatus `json:"status,omitempty"`
}

// ProposeLanguagesResult is what ProposeLanguages reports. Codes the
// project has are skipped; the source language is refused silently.
type ProposeLanguagesResult struct {
	Success bool `json:"success"`
	// Added and Skipped count the languages.
	Added   int              `json:"added"`
	Skipped int              `json:"skipped"`
	Results []LanguageResult `json:"results"`
	Project string           `json:"project"`
	Pending *PendingPublish  `json:"pendingPublish"`
	Hint    string           `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// LanguageResult is the outcome for one proposed language.
type LanguageResult struct {
	Code   string         `json:"languageCode"`
	Status LanguageStatus `json:"status"`
	Added  bool           `json:"added"`
}

// LanguageEdit changes a project language's status.
type LanguageEdit struct {
	Code      string         `json:"languageCode"`
	NewStatus LanguageStatus `json:"newStatus"`
}

// ProposeLanguageEditsResult is what ProposeLanguageEdits reports. Codes the project
// does not have are listed in NotFound, not returned as a Go error.
type ProposeLanguageEditsResult struct {
	Success  bool                 `json:"success"`
	Results  []LanguageEditResult `json:"results"`
	NotFound []string             `json:"notFound"`
	Project  string               `json:"project"`
	Pending  *PendingPublish      `json:"pendingPublish"`
	Hint     string               `json:"hint"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// LanguageEditResult is the outcome for one language edit.
type LanguageEditResult struct {
	Code           string         `json:"languageCode"`
	PreviousStatus LanguageStatus `json:"previousStatus"`
	NewStatus      LanguageStatus `json:"newStatus"`
	Changed        bool           `json:"changed"`
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
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
	// OrganizationName is the display name of the project's organization.
	OrganizationName string   `json:"organizationName"`
	SourceLanguage   string   `json:"sourceLanguage"`
	TargetLanguages  []string `json:"targetLanguages"`
	// CDNFormat is the format of its CDN files, for example "json".
	CDNFormat string `json:"cdnFormat"`
	// FileStructure and KeyFormat are the project's layout; the service's
	// null is given as its meaning, SingleFile and Nested.
	FileStructure FileStructure `json:"fileStructure"`
	KeyFormat     KeyFormat     `json:"keyFormat"`
	// Raw is the project as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a project of listProjects; the service's null
// layout is given as SingleFile and Nested. It keeps the record in Raw
// and never fails.
func (p *ProjectSummary) UnmarshalJSON(b []byte) error {
	type plain ProjectSummary
	_ = json.Unmarshal(b, (*plain)(p))
	p.TargetLanguages = lenient.Get[lenient.Strings](b, "targetLanguages")
	p.FileStructure, p.KeyFormat = cmp.Or(p.FileStructure, SingleFile), cmp.Or(p.KeyFormat, Nested)
	p.Raw = bytes.Clone(b)
	return nil
}

// ProjectList is what ListProjects returns.
type ProjectList struct {
	Projects []ProjectSummary `json:"projects"`
	// CDNBaseURL is the CDN's address, when the service gives it.
	CDNBaseURL string `json:"cdnBaseUrl"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
}

// Project is a project's overview, as GetProject returns it: what locale
// sync needs to lay out its files.
type Project struct {
	// Slug names the project ("org/project").
	Slug           string `json:"prj"`
	SourceLanguage string `json:"sl"`
	// Languages are the project's target languages.
	Languages []string `json:"lng"`
	// Namespaces are the project's namespaces, with their key counts.
	Namespaces []Namespace `json:"-"`
	// TotalKeys is the number of keys.
	TotalKeys int `json:"tk"`
	// Coverage maps target languages to how far they are translated.
	Coverage map[string]Coverage `json:"cov"`
	// CDN says where the published files are; nil when the project
	// publishes nowhere the service serves.
	CDN *CDN `json:"cdn"`
	// Message is the service's note, if any.
	Message string `json:"msg"`
	// Raw is the tool's whole answer.
	Raw json.RawMessage `json:"-"`
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
	Translated int `json:"tr"`
	// Percent is Translated as a percentage of the keys, 0 to 100.
	Percent int `json:"pct"`
}

// CDN is where a project's published files are served. Prefer these URLs
// to building paths: their layout depends on FileStructure.
type CDN struct {
	// BaseURL is the project's folder on the CDN.
	BaseURL string `json:"base"`
	// ManifestURL is the project's manifest (the files and languages).
	ManifestURL string `json:"mfst"`
	// Pattern is a file's URL with placeholders, for example
	// ".../{locale}/translations.json" or ".../{locale}/{namespace}.json".
	Pattern string `json:"pat"`
	// Examples are URLs of some of the project's files.
	Examples      []string      `json:"ex"`
	FileStructure FileStructure `json:"fs"`
	KeyFormat     KeyFormat     `json:"kf"`
}

// UnmarshalJSON decodes getProject's cdn object; BaseURL loses any
// trailing slash. It never fails.
func (c *CDN) UnmarshalJSON(b []byte) error {
	type plain CDN
	_ = json.Unmarshal(b, (*plain)(c))
	c.Examples, c.BaseURL = lenient.Get[lenient.Strings](b, "ex"), strings.TrimRight(c.BaseURL, "/")
	return nil
}
