package partner

import (
	"context"
	"iter"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/toolcalls"
)

// ContentService works with the content CMS through the content tools
// (Config.ContentMCPURL): Models for models and their fields, Entries for
// entries. Projects are named "org/project", as the tools name them.
// Blocks and any other content tool go through Client.Tools.Call with
// ContentTools.
//
// Reads (listing and getting) are sent again after a broken connection;
// writes are not once they may have run: the error then matches
// ErrTemporary, and a read tells whether the write happened.
type ContentService struct {
	Models  *ContentModelsService  // lists, creates, changes and deletes content models and their fields
	Entries *ContentEntriesService // lists, creates, changes, publishes and deletes entries, one at a time or in bulk
}

// ContentModelsService works with content models and their fields. Get it
// from Client.Content.Models.
type ContentModelsService service

// List returns the project's models with their fields and entry counts
// (listContentModels).
func (s *ContentModelsService) List(ctx context.Context, project string) ([]content.Model, error) {
	return toolcalls.ListModels(ctx, caller{s.c, ContentTools}, project)
}

// Get returns the model whose slug is model (getContentModel).
func (s *ContentModelsService) Get(ctx context.Context, project, model string) (*content.Model, error) {
	return toolcalls.GetModel(ctx, caller{s.c, ContentTools}, project, model)
}

// Create creates a model with its first fields (createContentModel). A
// slug the project has fails with a *ToolError.
func (s *ContentModelsService) Create(ctx context.Context, project string, m content.NewModel) (*content.Model, error) {
	return toolcalls.CreateModel(ctx, caller{s.c, ContentTools}, project, m)
}

// Update changes the model whose slug is model (updateContentModel) and
// returns it.
func (s *ContentModelsService) Update(ctx context.Context, project, model string, u content.ModelUpdate) (*content.Model, error) {
	return toolcalls.UpdateModel(ctx, caller{s.c, ContentTools}, project, model, u)
}

// Delete deletes a model with its fields, entries, translations and
// versions (deleteContentModel).
func (s *ContentModelsService) Delete(ctx context.Context, project, model string) error {
	return toolcalls.DeleteModel(ctx, caller{s.c, ContentTools}, project, model)
}

// AddField adds a field to a model (addField) and returns it.
func (s *ContentModelsService) AddField(ctx context.Context, project, model string, f content.NewField) (*content.Field, error) {
	return toolcalls.AddField(ctx, caller{s.c, ContentTools}, project, model, f)
}

// UpdateField changes the field name of a model (updateField) and
// returns it.
func (s *ContentModelsService) UpdateField(ctx context.Context, project, model, name string, u content.FieldUpdate) (*content.Field, error) {
	return toolcalls.UpdateField(ctx, caller{s.c, ContentTools}, project, model, name, u)
}

// RemoveField removes the field name from a model, with its values in
// every entry (removeField).
func (s *ContentModelsService) RemoveField(ctx context.Context, project, model, name string) error {
	return toolcalls.RemoveField(ctx, caller{s.c, ContentTools}, project, model, name)
}

// ReorderFields orders a model's fields as names lists them: names[0]
// comes first (reorderFields).
func (s *ContentModelsService) ReorderFields(ctx context.Context, project, model string, names []string) error {
	return toolcalls.ReorderFields(ctx, caller{s.c, ContentTools}, project, model, names)
}

// ContentEntriesService works with content entries. Get it from
// Client.Content.Entries.
type ContentEntriesService service

// All returns every entry of project matching opt, page after page
// (listContentEntries); it stops at the first error, which it yields.
// Breaking out of the loop stops the listing.
func (s *ContentEntriesService) All(ctx context.Context, project string, opt content.ListOptions) iter.Seq2[content.Entry, error] {
	return toolcalls.AllEntries(ctx, caller{s.c, ContentTools}, project, opt)
}

// Pages returns the pages of project's entries matching opt
// (listContentEntries), with each page's total.
func (s *ContentEntriesService) Pages(ctx context.Context, project string, opt content.ListOptions) iter.Seq2[*content.Page, error] {
	return toolcalls.EntryPages(ctx, caller{s.c, ContentTools}, project, opt)
}

// Get returns the entry id with its translations and versions
// (getContentEntry); content.GetOptions{} gets the whole entry.
func (s *ContentEntriesService) Get(ctx context.Context, project, id string, opt content.GetOptions) (*content.Entry, error) {
	return toolcalls.GetEntry(ctx, caller{s.c, ContentTools}, project, id, opt)
}

// Create creates an entry, a draft unless e.Status is published
// (createContentEntry), and returns its short record.
func (s *ContentEntriesService) Create(ctx context.Context, project string, e content.NewEntry) (*content.Entry, error) {
	return toolcalls.CreateEntry(ctx, caller{s.c, ContentTools}, project, e)
}

// Update changes the entry id (updateContentEntry): texts in one or
// several languages, the slug, field values, and the status (published
// publishes; draft or archived unpublishes). It returns the entry's short
// record.
func (s *ContentEntriesService) Update(ctx context.Context, project, id string, u content.EntryUpdate) (*content.Entry, error) {
	return toolcalls.UpdateEntry(ctx, caller{s.c, ContentTools}, project, id, u)
}

// Publish sets the entry id's status to published (publishContentEntry)
// and returns its short record. It changes the status; it deploys
// nothing.
func (s *ContentEntriesService) Publish(ctx context.Context, project, id string) (*content.Entry, error) {
	return toolcalls.PublishEntry(ctx, caller{s.c, ContentTools}, project, id)
}

// Delete deletes the entry id for good, with its translations, values and
// versions (deleteContentEntry).
func (s *ContentEntriesService) Delete(ctx context.Context, project, id string) error {
	return toolcalls.DeleteEntry(ctx, caller{s.c, ContentTools}, project, id)
}

// Duplicate copies the entry id as a draft whose slug is newSlug, or
// "<slug>-copy" when newSlug is "" (duplicateContentEntry).
func (s *ContentEntriesService) Duplicate(ctx context.Context, project, id, newSlug string) (*content.Entry, error) {
	return toolcalls.DuplicateEntry(ctx, caller{s.c, ContentTools}, project, id, newSlug)
}

// BulkCreate creates entries of model (bulkCreateEntries). More than
// content.MaxBulkCreate are refused with ErrInvalidArgument before any
// request, not split. Entries that could not be created are in the
// result's Failed, not a Go error.
func (s *ContentEntriesService) BulkCreate(ctx context.Context, project, model string, es []content.NewEntry) (*content.BulkResult, error) {
	return toolcalls.BulkCreate(ctx, caller{s.c, ContentTools}, project, model, es)
}

// BulkUpdate changes entries, each by its id (bulkUpdateEntries). More
// than content.MaxBulkUpdate are refused with ErrInvalidArgument before
// any request, not split. Entries that could not be changed are in the
// result's Failed, not a Go error.
func (s *ContentEntriesService) BulkUpdate(ctx context.Context, project string, cs []content.EntryChange) (*content.BulkResult, error) {
	return toolcalls.BulkUpdate(ctx, caller{s.c, ContentTools}, project, cs)
}

// BulkPublish publishes the entries ids (bulkPublishEntries). More than
// content.MaxBulkPublish are refused with ErrInvalidArgument before any
// request, not split. Entries that could not be published are in the
// result's Failed, not a Go error.
func (s *ContentEntriesService) BulkPublish(ctx context.Context, project string, ids []string) (*content.BulkResult, error) {
	return toolcalls.BulkPublish(ctx, caller{s.c, ContentTools}, project, ids)
}
