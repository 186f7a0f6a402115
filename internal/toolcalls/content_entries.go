package toolcalls

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
)

// entryWire is an entry record: what a write tool answers, a listing's
// item, or the full entry of getContentEntry.
type entryWire struct {
	ID, Sl, St, T, Slang string
	Body                 bodyWire
	PubAt                flexTime `json:"pub_at"`
	CAt                  flexTime `json:"c_at"`
	UAt                  flexTime `json:"u_at"`
	Langs                flexStrings
	Mdl                  modelRef
	Cfv                  fieldValues
	Rels                 json.RawMessage
	Tr                   map[string]struct {
		ID, Lc, T, St string
		Body          bodyWire
		Cfv           fieldValues
	}
	Vers []struct {
		ID, Lc string
		V      int
		Chg    flexText
		CAt    flexTime `json:"c_at"`
		By     *struct{ ID, Nm, Img string }
	}
}

// modelRef is an entry's mdl: {sl, dn, kind}, or the slug alone. It
// never fails.
type modelRef struct{ Sl, Dn, Kind string }

func (m *modelRef) UnmarshalJSON(b []byte) error {
	type plain modelRef
	*m = modelRef{}
	if json.Unmarshal(b, &m.Sl) != nil {
		_ = json.Unmarshal(b, (*plain)(m))
	}
	return nil
}

// bodyWire is a body: markdown text, or a rich-text document (any other
// JSON value, kept as sent). null leaves it empty. It never fails.
type bodyWire struct {
	Text string
	Rich json.RawMessage
}

func (b *bodyWire) UnmarshalJSON(data []byte) error {
	if json.Unmarshal(data, &b.Text) == nil {
		return nil
	}
	b.Rich = present(bytes.Clone(data))
	return nil
}

// entryFrom decodes one entry record; an odd record keeps its Raw.
func entryFrom(tool string, raw json.RawMessage) content.Entry {
	var w entryWire
	_ = decode(tool, raw, &w)
	e := content.Entry{
		ID: w.ID, Slug: w.Sl, Status: content.Status(w.St), Title: w.T, Body: w.Body.Text, RichBody: w.Body.Rich,
		Model: w.Mdl.Sl, ModelName: w.Mdl.Dn, ModelKind: content.ModelKind(w.Mdl.Kind),
		SourceLanguage: w.Slang, Languages: w.Langs, Fields: w.Cfv, Relations: w.Rels,
		PublishedAt: w.PubAt.Time, CreatedAt: w.CAt.Time, UpdatedAt: w.UAt.Time, Raw: raw,
	}
	if len(w.Tr) > 0 {
		e.Translations = make(map[string]content.Translation, len(w.Tr))
		for lang, t := range w.Tr {
			e.Translations[lang] = content.Translation{
				ID: t.ID, Language: cmp.Or(t.Lc, lang), Title: t.T, Body: t.Body.Text, RichBody: t.Body.Rich,
				Status: content.Status(t.St), Fields: t.Cfv,
			}
		}
		src := e.Translations[e.SourceLanguage]
		e.Title = cmp.Or(e.Title, src.Title)
		if e.Body == "" && e.RichBody == nil {
			e.Body, e.RichBody = src.Body, src.RichBody
		}
	}
	for _, v := range w.Vers {
		ver := content.Version{ID: v.ID, Number: v.V, Language: v.Lc, Change: string(v.Chg), CreatedAt: v.CAt.Time}
		if v.By != nil {
			ver.By = &content.Person{ID: v.By.ID, Name: v.By.Nm, Image: v.By.Img}
		}
		e.Versions = append(e.Versions, ver)
	}
	return e
}

func checkStatus(field string, s content.Status, archived bool) error {
	switch s {
	case "", content.StatusDraft, content.StatusPublished:
		return nil
	case content.StatusArchived:
		if archived {
			return nil
		}
		return apierr.ArgumentError(field, "is archived; an entry is created as draft or published")
	}
	return apierr.ArgumentError(field, fmt.Sprintf("%s is not draft, published or archived", apierr.Quote(string(s))))
}

func checkEntryRef(project, id string) error {
	return cmp.Or(checkProject(project), required("entry id", id))
}

type listEntriesArgs struct {
	Project         string            `json:"project"`
	ModelSlug       string            `json:"modelSlug,omitempty"`
	Slugs           any               `json:"slugs,omitempty"`
	Search          any               `json:"search,omitempty"`
	SearchLocales   []string          `json:"searchLocales,omitempty"`
	SearchBody      bool              `json:"includeBody,omitempty"`
	Status          any               `json:"status,omitempty"`
	Language        string            `json:"language,omitempty"`
	LanguageMode    string            `json:"languageMode,omitempty"`
	MissingLanguage string            `json:"missingLanguage,omitempty"`
	Where           map[string]string `json:"where,omitempty"`
	Expand          []string          `json:"expand,omitempty"`
	Compact         bool              `json:"compact,omitempty"`
	Sort            string            `json:"sort,omitempty"`
	Order           string            `json:"order,omitempty"`
	Page            int               `json:"page"`
	Limit           int               `json:"limit,omitempty"`
}

func checkEntryList(project string, opt content.ListOptions) error {
	if err := cmp.Or(checkProject(project), between("PageSize", opt.PageSize, 1, content.MaxPageSize)); err != nil {
		return err
	}
	if opt.SearchBody && opt.Model == "" {
		return apierr.ArgumentError("SearchBody", "needs Model: the service searches bodies only within a model")
	}
	for i, s := range opt.Statuses {
		f := fmt.Sprintf("Statuses[%d]", i)
		if err := cmp.Or(checkStatus(f, s, true), required(f, string(s))); err != nil {
			return err
		}
	}
	return cmp.Or(
		oneOf("LanguageMode", opt.LanguageMode, "any or all", "", content.AnyLanguage, content.AllLanguages),
		oneOf("Sort", opt.Sort, "publishedAt, createdAt, updatedAt or title",
			"", content.SortPublishedAt, content.SortCreatedAt, content.SortUpdatedAt, content.SortTitle),
		oneOf("Order", opt.Order, "asc or desc", "", content.Ascending, content.Descending),
		nonEmpty("Slugs", opt.Slugs), nonEmpty("Expand", opt.Expand),
	)
}

// ListEntries returns one page (from 1) of listContentEntries.
func ListEntries(ctx context.Context, c Caller, project string, opt content.ListOptions, page int) (*content.Page, error) {
	if err := cmp.Or(checkEntryList(project, opt), checkPage(page)); err != nil {
		return nil, err
	}
	return listEntries(ctx, c, project, opt, page)
}

func listEntries(ctx context.Context, c Caller, project string, opt content.ListOptions, page int) (*content.Page, error) {
	args := listEntriesArgs{
		Project: project, ModelSlug: opt.Model, Slugs: search(opt.Slugs), Search: search(opt.Search),
		SearchLocales: opt.SearchLocales, SearchBody: opt.SearchBody, Language: opt.Language,
		LanguageMode: string(opt.LanguageMode), MissingLanguage: opt.MissingLanguage, Where: opt.Where,
		Expand: opt.Expand, Compact: opt.Compact, Sort: string(opt.Sort), Order: string(opt.Order),
		Page: page, Limit: opt.PageSize,
	}
	switch len(opt.Statuses) {
	case 0:
	case 1:
		args.Status = opt.Statuses[0]
	default:
		args.Status = opt.Statuses
	}
	return result(ctx, c, "listContentEntries", args, func(w *listEntriesWire, raw json.RawMessage) *content.Page {
		return &content.Page{Number: page, Total: w.Tot, HasMore: w.More, Raw: raw, Entries: nonNil(records("listContentEntries", w.Items, entryFrom))}
	})
}

type listEntriesWire struct {
	Items []json.RawMessage
	Tot   int
	More  bool
}

// EntryPages iterates over every page of listContentEntries, from the
// first, until the service says there are no more. PageSize 0 fetches
// content.MaxPageSize entries per request. An error ends the iteration
// after it is yielded. A listing that repeats a page, or runs past its
// first page's total by a margin, ends with ErrUnexpectedResponse (see
// pages).
func EntryPages(ctx context.Context, c Caller, project string, opt content.ListOptions) iter.Seq2[*content.Page, error] {
	check := func() error { return checkEntryList(project, opt) }
	opt.PageSize = cmp.Or(opt.PageSize, content.MaxPageSize)
	fetch := func(page int) (*content.Page, error) { return listEntries(ctx, c, project, opt, page) }
	return pages("listContentEntries", opt.PageSize, check, fetch, func(p *content.Page) page {
		return page{more: p.HasMore, total: p.Total, ids: each(p.Entries, func(e content.Entry) string { return cmp.Or(e.ID, string(e.Raw)) })}
	})
}

// AllEntries iterates over every entry of every page of
// listContentEntries.
func AllEntries(ctx context.Context, c Caller, project string, opt content.ListOptions) iter.Seq2[content.Entry, error] {
	return items(EntryPages(ctx, c, project, opt), func(p *content.Page) []content.Entry { return p.Entries })
}

// entryArgs names an entry for the tools that take one; the fields a tool
// does not take are left empty, so they are not sent.
type entryArgs struct {
	Project string   `json:"project"`
	EntryID string   `json:"entryId"`
	Expand  []string `json:"expand,omitempty"`
	Compact bool     `json:"compact,omitempty"`
	NewSlug string   `json:"newSlug,omitempty"`
	entryChangeArg
}

// GetEntry returns one entry with getContentEntry.
func GetEntry(ctx context.Context, c Caller, project, id string, opt content.GetOptions) (*content.Entry, error) {
	if err := cmp.Or(checkEntryRef(project, id), nonEmpty("Expand", opt.Expand)); err != nil {
		return nil, err
	}
	raw, err := call(ctx, c, "getContentEntry", entryArgs{Project: project, EntryID: id, Expand: opt.Expand, Compact: opt.Compact}, &struct{}{})
	if err != nil {
		return nil, err
	}
	e := entryFrom("getContentEntry", raw)
	return &e, nil
}

type languageValuesArg struct {
	Title        string         `json:"title,omitempty"`
	BodyMarkdown string         `json:"bodyMarkdown,omitempty"`
	CustomFields map[string]any `json:"customFields,omitempty"`
}

func translationsArg(field string, ts map[string]content.LanguageValues) (map[string]languageValuesArg, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	out := make(map[string]languageValuesArg, len(ts))
	for _, lang := range slices.Sorted(maps.Keys(ts)) { // the same error every time
		v := ts[lang]
		f := fmt.Sprintf("%s[%q]", field, lang)
		if lang == "" {
			return nil, apierr.ArgumentError(field, "has an empty language code")
		}
		if err := checkValues(f+".Fields", v.Fields); err != nil {
			return nil, err
		}
		if v.Title == "" && v.Body == "" && len(v.Fields) == 0 {
			return nil, apierr.ArgumentError(f, "is empty; want a title, body or fields")
		}
		out[lang] = languageValuesArg{Title: v.Title, BodyMarkdown: v.Body, CustomFields: v.Fields}
	}
	return out, nil
}

type createEntryArgs struct {
	Project            string `json:"project"`
	ModelSlug          string `json:"modelSlug"`
	SourceLanguageCode string `json:"sourceLanguageCode,omitempty"`
	newEntryArg
}

// newEntryArg is one entry of either create tool.
type newEntryArg struct {
	Title        string                       `json:"title"`
	Slug         string                       `json:"slug"`
	BodyMarkdown string                       `json:"bodyMarkdown,omitempty"`
	Status       string                       `json:"status,omitempty"`
	CustomFields map[string]any               `json:"customFields,omitempty"`
	Translations map[string]languageValuesArg `json:"translations,omitempty"`
}

// writeEntry calls a tool that answers with the entry it wrote, and a
// warning.
func writeEntry(ctx context.Context, c Caller, tool string, args any) (*content.Entry, error) {
	e, warn, err := write(ctx, c, tool, args, "entry", entryFrom)
	if err != nil {
		return nil, err
	}
	e.Warning = warn
	return e, nil
}

// newEntryArgs checks the members of a NewEntry that one entry of either
// create tool carries, and returns them; field names it in errors.
func newEntryArgs(field string, e content.NewEntry) (newEntryArg, error) {
	if err := cmp.Or(required(field+"Title", e.Title), required(field+"Slug", e.Slug),
		checkStatus(field+"Status", e.Status, false)); err != nil {
		return newEntryArg{}, err
	}
	if err := checkValues(field+"Fields", e.Fields); err != nil { // encodes them: after the cheap checks
		return newEntryArg{}, err
	}
	tr, err := translationsArg(field+"Translations", e.Translations)
	if err != nil {
		return newEntryArg{}, err
	}
	return newEntryArg{
		Title: e.Title, Slug: e.Slug, BodyMarkdown: e.Body, Status: string(e.Status), CustomFields: e.Fields, Translations: tr,
	}, nil
}

// CreateEntry creates an entry with createContentEntry.
func CreateEntry(ctx context.Context, c Caller, project string, e content.NewEntry) (*content.Entry, error) {
	if err := cmp.Or(checkProject(project), required("Model", e.Model)); err != nil {
		return nil, err
	}
	a, err := newEntryArgs("", e)
	if err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, "createContentEntry", createEntryArgs{project, e.Model, e.SourceLanguage, a})
}

// entryChangeArg is what updateContentEntry and an item of
// bulkUpdateEntries change.
type entryChangeArg struct {
	LanguageCode string                       `json:"languageCode,omitempty"`
	Title        string                       `json:"title,omitempty"`
	Slug         string                       `json:"slug,omitempty"`
	BodyMarkdown string                       `json:"bodyMarkdown,omitempty"`
	Status       string                       `json:"status,omitempty"`
	CustomFields map[string]any               `json:"customFields,omitempty"`
	Translations map[string]languageValuesArg `json:"translations,omitempty"`
}

func entryChange(field string, u content.EntryUpdate) (entryChangeArg, error) {
	if err := checkStatus(field+"Status", u.Status, true); err != nil {
		return entryChangeArg{}, err
	}
	if err := checkValues(field+"Fields", u.Fields); err != nil {
		return entryChangeArg{}, err
	}
	if u.Language != "" && len(u.Translations) > 0 {
		return entryChangeArg{}, apierr.ArgumentError(field+"Language", "is set with Translations; write one language with Language, or several with Translations")
	}
	if u.Language != "" && u.Title == "" && u.Body == "" && len(u.Fields) == 0 {
		return entryChangeArg{}, apierr.ArgumentError(field+"Language", "is set without a Title, Body or Fields to write in it")
	}
	if u.Title == "" && u.Slug == "" && u.Body == "" && u.Status == "" && len(u.Fields) == 0 && len(u.Translations) == 0 {
		return entryChangeArg{}, apierr.ArgumentError(cmp.Or(strings.TrimSuffix(field, "."), "update"), "changes nothing")
	}
	tr, err := translationsArg(field+"Translations", u.Translations)
	if err != nil {
		return entryChangeArg{}, err
	}
	return entryChangeArg{
		LanguageCode: u.Language, Title: u.Title, Slug: u.Slug, BodyMarkdown: u.Body,
		Status: string(u.Status), CustomFields: u.Fields, Translations: tr,
	}, nil
}

// UpdateEntry changes an entry, its status included, with
// updateContentEntry.
func UpdateEntry(ctx context.Context, c Caller, project, id string, u content.EntryUpdate) (*content.Entry, error) {
	if err := checkEntryRef(project, id); err != nil {
		return nil, err
	}
	ch, err := entryChange("", u)
	if err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, "updateContentEntry", entryArgs{Project: project, EntryID: id, entryChangeArg: ch})
}

// PublishEntry publishes an entry with publishContentEntry.
func PublishEntry(ctx context.Context, c Caller, project, id string) (*content.Entry, error) {
	if err := checkEntryRef(project, id); err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, "publishContentEntry", entryArgs{Project: project, EntryID: id})
}

// DeleteEntry deletes an entry for good with deleteContentEntry.
func DeleteEntry(ctx context.Context, c Caller, project, id string) error {
	if err := checkEntryRef(project, id); err != nil {
		return err
	}
	return confirm(ctx, c, "deleteContentEntry", entryArgs{Project: project, EntryID: id})
}

// DuplicateEntry copies an entry as a draft with duplicateContentEntry;
// newSlug "" lets the service choose ("<slug>-copy").
func DuplicateEntry(ctx context.Context, c Caller, project, id, newSlug string) (*content.Entry, error) {
	if err := checkEntryRef(project, id); err != nil {
		return nil, err
	}
	if newSlug != "" {
		if err := pattern("new slug", newSlug, content.MaxSlug, modelSlugRE, "a-z, 0-9 and -"); err != nil {
			return nil, err
		}
	}
	return writeEntry(ctx, c, "duplicateContentEntry", entryArgs{Project: project, EntryID: id, NewSlug: newSlug})
}

// bulkItemWire is an entry a bulk tool wrote: {id, sl, st}, or its id.
type bulkItemWire struct{ ID, Sl, St string }

func (b *bulkItemWire) UnmarshalJSON(data []byte) error {
	type plain bulkItemWire
	*b = bulkItemWire{}
	if json.Unmarshal(data, &b.ID) != nil {
		_ = json.Unmarshal(data, (*plain)(b))
	}
	return nil
}

type bulkFailWire struct {
	Idx                 *int
	ID, Sl              string
	Err, Error, Message errText
}

// bulkWire is the answer of the bulk tools: bulkCreateEntries'
// {created, entries, failed}, bulkUpdateEntries' {updated, entries,
// failed}, and bulkPublishEntries' {pub, fail} or {published, failed}.
type bulkWire struct {
	Created, Updated flexCount
	Pub, Published   json.RawMessage
	Entries          []bulkItemWire
	Failed, Fail     []bulkFailWire
	Warn             flexText
}

// bulkResult decodes a bulk answer. sent lists the batch's ids or slugs,
// to place a failure the service names without its idx.
func bulkResult(sent []string) func(*bulkWire, json.RawMessage) *content.BulkResult {
	return func(w *bulkWire, raw json.RawMessage) *content.BulkResult {
		r := &content.BulkResult{Count: int(cmp.Or(w.Created, w.Updated)), Warning: string(w.Warn), Raw: raw}
		entries := w.Entries
		if pub := cmp.Or(string(w.Pub), string(w.Published)); pub != "" {
			var n flexCount
			_ = n.UnmarshalJSON([]byte(pub))
			r.Count = int(n)
			var items []bulkItemWire
			if json.Unmarshal([]byte(pub), &items) == nil {
				entries = append(entries, items...)
			}
		}
		for _, e := range entries {
			r.Entries = append(r.Entries, content.BulkEntry{ID: e.ID, Slug: e.Sl, Status: content.Status(e.St)})
		}
		for _, f := range append(w.Failed, w.Fail...) {
			bf := content.BulkFailure{Index: -1, ID: f.ID, Slug: f.Sl, Error: string(cmp.Or(f.Err, f.Error, f.Message))}
			switch {
			case f.Idx != nil:
				bf.Index = *f.Idx
			case f.ID != "":
				bf.Index = slices.Index(sent, f.ID)
			case f.Sl != "":
				bf.Index = slices.Index(sent, f.Sl)
			}
			r.Failed = append(r.Failed, bf)
		}
		return r
	}
}

type bulkCreateArgs struct {
	Project   string        `json:"project"`
	ModelSlug string        `json:"modelSlug"`
	Entries   []newEntryArg `json:"entries"`
}

// BulkCreate creates entries of one model with bulkCreateEntries. More
// than content.MaxBulkCreate are refused, not split; entries that fail
// are in the result's Failed.
func BulkCreate(ctx context.Context, c Caller, project, model string, es []content.NewEntry) (*content.BulkResult, error) {
	if err := cmp.Or(checkModelRef(project, model), batch("entries", len(es), content.MaxBulkCreate, "entries")); err != nil {
		return nil, err
	}
	args := bulkCreateArgs{Project: project, ModelSlug: model, Entries: make([]newEntryArg, len(es))}
	slugs := make([]string, len(es))
	for i, e := range es {
		field := fmt.Sprintf("entries[%d].", i)
		switch {
		case e.Model != "" && e.Model != model:
			return nil, apierr.ArgumentError(field+"Model", fmt.Sprintf("is %s, not the batch's model %s", apierr.Quote(e.Model), apierr.Quote(model)))
		case e.SourceLanguage != "":
			return nil, apierr.ArgumentError(field+"SourceLanguage", "is set; bulkCreateEntries does not take it (use Create)")
		}
		a, err := newEntryArgs(field, e)
		if err != nil {
			return nil, err
		}
		args.Entries[i], slugs[i] = a, e.Slug
	}
	return result(ctx, c, "bulkCreateEntries", args, bulkResult(slugs))
}

type bulkUpdateItem struct {
	EntryID string `json:"entryId"`
	entryChangeArg
}

type bulkUpdateArgs struct {
	Project string           `json:"project"`
	Entries []bulkUpdateItem `json:"entries"`
}

// BulkUpdate changes entries with bulkUpdateEntries. More than
// content.MaxBulkUpdate are refused, not split; entries that fail are in
// the result's Failed.
func BulkUpdate(ctx context.Context, c Caller, project string, cs []content.EntryChange) (*content.BulkResult, error) {
	if err := cmp.Or(checkProject(project), batch("entries", len(cs), content.MaxBulkUpdate, "entries")); err != nil {
		return nil, err
	}
	args := bulkUpdateArgs{Project: project, Entries: make([]bulkUpdateItem, len(cs))}
	ids := make([]string, len(cs))
	for i, ch := range cs {
		field := fmt.Sprintf("entries[%d].", i)
		if err := required(field+"ID", ch.ID); err != nil {
			return nil, err
		}
		a, err := entryChange(field, ch.EntryUpdate)
		if err != nil {
			return nil, err
		}
		args.Entries[i] = bulkUpdateItem{EntryID: ch.ID, entryChangeArg: a}
		ids[i] = ch.ID
	}
	return result(ctx, c, "bulkUpdateEntries", args, bulkResult(ids))
}

type bulkPublishArgs struct {
	Project  string   `json:"project"`
	EntryIDs []string `json:"entryIds"`
}

// BulkPublish publishes entries with bulkPublishEntries. More than
// content.MaxBulkPublish ids are refused, not split; entries that fail
// are in the result's Failed.
func BulkPublish(ctx context.Context, c Caller, project string, ids []string) (*content.BulkResult, error) {
	if err := cmp.Or(checkProject(project), batch("ids", len(ids), content.MaxBulkPublish, "entry ids"), nonEmpty("ids", ids)); err != nil {
		return nil, err
	}
	return result(ctx, c, "bulkPublishEntries", bulkPublishArgs{project, ids}, bulkResult(ids))
}
