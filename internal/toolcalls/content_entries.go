package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/lenient"
)

// Entry tool names on the content server.
const (
	toolListEntries  = "listContentEntries"
	toolGetEntry     = "getContentEntry"
	toolCreateEntry  = "createContentEntry"
	toolUpdateEntry  = "updateContentEntry"
	toolPublishEntry = "publishContentEntry"
	toolDeleteEntry  = "deleteContentEntry"
	toolDuplicate    = "duplicateContentEntry"
	toolBulkCreate   = "bulkCreateEntries"
	toolBulkUpdate   = "bulkUpdateEntries"
	toolBulkPublish  = "bulkPublishEntries"
)

func checkStatus(field string, s content.Status, archived bool) error {
	if s == content.StatusArchived && !archived {
		return apierr.ArgumentError(field, "is archived; an entry is created as draft or published")
	}
	return oneOf(field, s, "draft, published or archived", "", content.StatusDraft, content.StatusPublished, content.StatusArchived)
}

func checkEntryRef(project, id string) error {
	return cmp.Or(checkProject(project), required("entry id", id))
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
		nonEmpty("Slugs", opt.Slugs), nonEmpty("Expand", opt.Expand))
}

// ListEntries returns one page (from 1) of listContentEntries.
func ListEntries(ctx context.Context, c Caller, project string, opt content.ListOptions, page int) (*content.Page, error) {
	if err := cmp.Or(checkEntryList(project, opt), checkPage(page)); err != nil {
		return nil, err
	}
	return listEntries(ctx, c, project, opt, page)
}

func listEntries(ctx context.Context, c Caller, project string, opt content.ListOptions, page int) (*content.Page, error) {
	args := struct {
		Project string `json:"project"`
		Slugs   any    `json:"slugs,omitempty"`
		Search  any    `json:"search,omitempty"`
		Status  any    `json:"status,omitempty"`
		content.ListOptions
		Page int `json:"page"`
	}{project, search(opt.Slugs), search(opt.Search), search(opt.Statuses), opt, page}
	p := content.Page{Number: page}
	if err := fill(ctx, c, toolListEntries, args, &p, &p.Raw); err != nil {
		return nil, err
	}
	p.Entries = append([]content.Entry{}, p.Entries...)
	return &p, nil
}

// EntryPages iterates over every page of listContentEntries, from the
// first, until the service says there are no more. PageSize 0 fetches
// content.MaxPageSize entries per request. An error ends the iteration
// after it is yielded.
func EntryPages(ctx context.Context, c Caller, project string, opt content.ListOptions) iter.Seq2[*content.Page, error] {
	check := checkEntryList(project, opt)
	if opt.PageSize == 0 {
		opt.PageSize = content.MaxPageSize
	}
	return pages(check, func(page int) (*content.Page, error) {
		return listEntries(ctx, c, project, opt, page)
	}, func(p *content.Page) bool { return p.HasMore && len(p.Entries) > 0 })
}

// AllEntries iterates over every entry of every page of
// listContentEntries.
func AllEntries(ctx context.Context, c Caller, project string, opt content.ListOptions) iter.Seq2[content.Entry, error] {
	return items(EntryPages(ctx, c, project, opt), func(p *content.Page) []content.Entry { return p.Entries })
}

type entryIDArgs struct {
	Project string `json:"project"`
	EntryID string `json:"entryId"`
}

// GetEntry returns one entry with getContentEntry.
func GetEntry(ctx context.Context, c Caller, project, id string, opt content.GetOptions) (*content.Entry, error) {
	if err := cmp.Or(checkEntryRef(project, id), nonEmpty("Expand", opt.Expand)); err != nil {
		return nil, err
	}
	args := struct {
		entryIDArgs
		content.GetOptions
	}{entryIDArgs{project, id}, opt}
	var e content.Entry
	return result(ctx, c, toolGetEntry, args, &e, &e.Raw)
}

// checkTranslations checks the languages of an entry to write.
func checkTranslations(field string, ts map[string]content.LanguageValues) error {
	for lang, v := range ts {
		f := fmt.Sprintf("%s[%q]", field, lang)
		if lang == "" {
			return apierr.ArgumentError(field, "has an empty language code")
		}
		if err := checkValues(f+".Fields", v.Fields); err != nil {
			return err
		}
		if v.Title == "" && v.Body == "" && len(v.Fields) == 0 {
			return apierr.ArgumentError(f, "is empty; want a title, body or fields")
		}
	}
	return nil
}

// checkNewEntry checks the members of a NewEntry that one entry of either
// create tool carries; field names it in errors.
func checkNewEntry(field string, e content.NewEntry) error {
	return cmp.Or(required(field+"Title", e.Title, field+"Slug", e.Slug), checkStatus(field+"Status", e.Status, false),
		checkValues(field+"Fields", e.Fields), checkTranslations(field+"Translations", e.Translations))
}

// writeEntry calls a tool that answers with the entry it wrote, and
// the service's warning.
func writeEntry(ctx context.Context, c Caller, tool string, args any) (*content.Entry, error) {
	e, text, err := write[content.Entry](ctx, c, "entry", tool, args)
	if err != nil {
		return nil, err
	}
	e.Warning = string(lenient.Get[lenient.Text](text, "warn"))
	return e, nil
}

// CreateEntry creates an entry with createContentEntry.
func CreateEntry(ctx context.Context, c Caller, project string, e content.NewEntry) (*content.Entry, error) {
	if err := cmp.Or(checkProject(project), required("Model", e.Model), checkNewEntry("", e)); err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, toolCreateEntry, struct {
		Project string `json:"project"`
		content.NewEntry
	}{project, e})
}

// checkUpdate checks what updateContentEntry and an item of
// bulkUpdateEntries change; field names it in errors.
func checkUpdate(field string, u content.EntryUpdate) error {
	if err := cmp.Or(checkStatus(field+"Status", u.Status, true), checkValues(field+"Fields", u.Fields)); err != nil {
		return err
	}
	if u.Language != "" && len(u.Translations) > 0 {
		return apierr.ArgumentError(field+"Language", "is set with Translations; write one language with Language, or several with Translations")
	}
	if u.Language != "" && u.Title == "" && u.Body == "" && len(u.Fields) == 0 {
		return apierr.ArgumentError(field+"Language", "is set without a Title, Body or Fields to write in it")
	}
	if u.Title == "" && u.Slug == "" && u.Body == "" && u.Status == "" && len(u.Fields) == 0 && len(u.Translations) == 0 {
		return apierr.ArgumentError(cmp.Or(strings.TrimSuffix(field, "."), "update"), "changes nothing")
	}
	return checkTranslations(field+"Translations", u.Translations)
}

// UpdateEntry changes an entry, its status included, with
// updateContentEntry.
func UpdateEntry(ctx context.Context, c Caller, project, id string, u content.EntryUpdate) (*content.Entry, error) {
	if err := cmp.Or(checkEntryRef(project, id), checkUpdate("", u)); err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, toolUpdateEntry, struct {
		entryIDArgs
		content.EntryUpdate
	}{entryIDArgs{project, id}, u})
}

// PublishEntry publishes an entry with publishContentEntry.
func PublishEntry(ctx context.Context, c Caller, project, id string) (*content.Entry, error) {
	if err := checkEntryRef(project, id); err != nil {
		return nil, err
	}
	return writeEntry(ctx, c, toolPublishEntry, entryIDArgs{project, id})
}

// DeleteEntry deletes an entry for good with deleteContentEntry.
func DeleteEntry(ctx context.Context, c Caller, project, id string) error {
	if err := checkEntryRef(project, id); err != nil {
		return err
	}
	return confirm(ctx, c, toolDeleteEntry, entryIDArgs{project, id})
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
	return writeEntry(ctx, c, toolDuplicate, struct {
		entryIDArgs
		NewSlug string `json:"newSlug,omitempty"`
	}{entryIDArgs{project, id}, newSlug})
}

// bulk calls a bulk tool and decodes its answer: bulkCreateEntries'
// {created, entries, failed}, bulkUpdateEntries' {updated, entries,
// failed}, or bulkPublishEntries' {pub, fail} or {published, failed}.
// sent lists the batch's ids or slugs, to place a failure the service
// names without its idx.
func bulk(ctx context.Context, c Caller, tool string, args any, sent []string) (*content.BulkResult, error) {
	type failure struct { // keys match case-insensitively
		Idx                 *int
		ID, Sl              string
		Err, Error, Message errText
	}
	var w struct {
		Created, Updated lenient.Count
		Pub, Published   json.RawMessage
		Entries          []content.BulkEntry
		Failed, Fail     []failure
		Warn             lenient.Text
	}
	raw, err := call(ctx, c, tool, args, &w)
	if err != nil {
		return nil, err
	}
	r := &content.BulkResult{Count: int(cmp.Or(w.Created, w.Updated)), Entries: w.Entries, Warning: string(w.Warn), Raw: raw}
	if pub := cmp.Or(string(w.Pub), string(w.Published)); pub != "" {
		var n lenient.Count
		_ = n.UnmarshalJSON([]byte(pub))
		r.Count = int(n)
		var items []content.BulkEntry
		if json.Unmarshal([]byte(pub), &items) == nil {
			r.Entries = append(r.Entries, items...)
		}
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
	return r, nil
}

// BulkCreate creates entries of one model with bulkCreateEntries. More
// than content.MaxBulkCreate are refused, not split; entries that fail
// are in the result's Failed.
func BulkCreate(ctx context.Context, c Caller, project, model string, es []content.NewEntry) (*content.BulkResult, error) {
	if err := cmp.Or(checkModelRef(project, model), batch("entries", len(es), content.MaxBulkCreate, "entries")); err != nil {
		return nil, err
	}
	items := slices.Clone(es)
	slugs := make([]string, len(es))
	for i, e := range es {
		field := fmt.Sprintf("entries[%d].", i)
		switch {
		case e.Model != "" && e.Model != model:
			return nil, apierr.ArgumentError(field+"Model", fmt.Sprintf("is %s, not the batch's model %s", apierr.Quote(e.Model), apierr.Quote(model)))
		case e.SourceLanguage != "":
			return nil, apierr.ArgumentError(field+"SourceLanguage", "is set; bulkCreateEntries does not take it (use Create)")
		}
		if err := checkNewEntry(field, e); err != nil {
			return nil, err
		}
		items[i].Model, slugs[i] = "", e.Slug // the batch names the model once
	}
	return bulk(ctx, c, toolBulkCreate, struct {
		modelSlugArgs
		Entries []content.NewEntry `json:"entries"`
	}{modelSlugArgs{project, model}, items}, slugs)
}

// BulkUpdate changes entries with bulkUpdateEntries. More than
// content.MaxBulkUpdate are refused, not split; entries that fail are in
// the result's Failed.
func BulkUpdate(ctx context.Context, c Caller, project string, cs []content.EntryChange) (*content.BulkResult, error) {
	if err := cmp.Or(checkProject(project), batch("entries", len(cs), content.MaxBulkUpdate, "entries")); err != nil {
		return nil, err
	}
	ids := make([]string, len(cs))
	for i, ch := range cs {
		field := fmt.Sprintf("entries[%d].", i)
		if err := cmp.Or(required(field+"ID", ch.ID), checkUpdate(field, ch.EntryUpdate)); err != nil {
			return nil, err
		}
		ids[i] = ch.ID
	}
	return bulk(ctx, c, toolBulkUpdate, struct {
		Project string                `json:"project"`
		Entries []content.EntryChange `json:"entries"`
	}{project, cs}, ids)
}

// BulkPublish publishes entries with bulkPublishEntries. More than
// content.MaxBulkPublish ids are refused, not split; entries that fail
// are in the result's Failed.
func BulkPublish(ctx context.Context, c Caller, project string, ids []string) (*content.BulkResult, error) {
	err := cmp.Or(checkProject(project), batch("ids", len(ids), content.MaxBulkPublish, "entry ids"), nonEmpty("ids", ids))
	if err != nil {
		return nil, err
	}
	return bulk(ctx, c, toolBulkPublish, struct {
		Project  string   `json:"project"`
		EntryIDs []string `json:"entryIds"`
	}{project, ids}, ids)
}
