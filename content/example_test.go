package content_test

import (
	"fmt"
	"slices"
	"sort"

	"github.com/locsvc/partner-go/content"
)

// A model for Content.Models.Create: a localized summary, a required
// enum and a relation to project members.
func ExampleNewModel() {
	m := content.NewModel{
		Slug:        "blog-post",
		DisplayName: "Blog post",
		Fields: []content.NewField{
			{Name: "summary", DisplayName: "Summary", Type: content.FieldTextarea, Localized: true},
			{Name: "category", DisplayName: "Category", Type: content.FieldEnum, Required: true,
				Options: &content.FieldOptions{EnumValues: []content.EnumValue{{Label: "News", Value: "news"}, {Label: "Guide", Value: "guide"}}}},
			{Name: "author", DisplayName: "Author", Type: content.FieldRelation, Relation: &content.Relation{TargetModel: content.UsersModel}},
		},
	}
	for _, f := range m.Fields {
		fmt.Printf("%s (%s) localized=%t\n", f.Name, f.Type, f.Localized)
	}
	// Output:
	// summary (textarea) localized=true
	// category (enum) localized=false
	// author (relation) localized=false
}

// Content.Models.UpdateField changes only what is set: here the field
// becomes localized and optional, and leaves the entry table.
// content.Ptr(false) switches a setting off; nil leaves it as it is.
func ExampleFieldUpdate() {
	u := content.FieldUpdate{Localized: content.Ptr(true), Required: content.Ptr(false),
		Options: &content.FieldOptions{ShowInTable: content.Ptr(false)}}
	fmt.Println(*u.Localized, *u.Required, *u.Options.ShowInTable, u.Options.Unsplash == nil, u.DisplayName == "")
	// Output: true false false true true
}

// An entry for Content.Entries.Create, with a custom field value in the
// source language and a German translation of its title and summary.
func ExampleNewEntry() {
	e := content.NewEntry{
		Model:  "blog-post",
		Title:  "Hello",
		Slug:   "hello",
		Fields: map[string]any{"summary": "A first post", "category": "news"},
		Translations: map[string]content.LanguageValues{
			"de": {Title: "Hallo", Fields: map[string]any{"summary": "Ein erster Beitrag"}},
		},
	}
	fmt.Println(e.Model, e.Slug, e.Translations["de"].Title)
	// Output: blog-post hello Hallo
}

// Content.Entries.Update with a status change: archiving a published
// entry unpublishes it. Language writes one language's texts.
func ExampleEntryUpdate() {
	archive := content.EntryUpdate{Status: content.StatusArchived}
	german := content.EntryUpdate{Language: "de", Title: "Hallo!", Fields: map[string]any{"summary": "Neu"}}
	fmt.Println(archive.Status, german.Language, german.Title)
	// Output: archived de Hallo!
}

// Reading an entry from Content.Entries.Get: field values and
// translations are maps.
func ExampleEntry() {
	e := content.Entry{
		ID: "0b5c6a1e-4c1f-4e0a-9d7b-2f1f7c2f9a10", Slug: "hello", Status: content.StatusPublished,
		SourceLanguage: "en", Fields: map[string]string{"summary": "A first post"},
		Translations: map[string]content.Translation{
			"en": {Title: "Hello"},
			"de": {Title: "Hallo", Fields: map[string]string{"summary": "Ein erster Beitrag"}},
		},
	}
	langs := make([]string, 0, len(e.Translations))
	for lang := range e.Translations {
		langs = append(langs, lang)
	}
	sort.Strings(langs)
	for _, lang := range langs {
		fmt.Printf("%s: %s\n", lang, e.Translations[lang].Title)
	}
	fmt.Println("summary:", e.Fields["summary"])
	// Output:
	// de: Hallo
	// en: Hello
	// summary: A first post
}

// Content.Entries.All with filters: drafts of one model that lack a
// French translation, oldest first.
func ExampleListOptions() {
	opt := content.ListOptions{
		Model:           "blog-post",
		Statuses:        []content.Status{content.StatusDraft},
		MissingLanguage: "fr",
		Sort:            content.SortCreatedAt,
		Order:           content.Ascending,
	}
	fmt.Println(opt.Model, opt.Statuses, opt.MissingLanguage, opt.Sort, opt.Order)
	// Output: blog-post [draft] fr createdAt asc
}

// Content.Entries.BulkUpdate takes one change per entry id.
func ExampleEntryChange() {
	batch := []content.EntryChange{
		{ID: "e-1", EntryUpdate: content.EntryUpdate{Status: content.StatusPublished}},
		{ID: "e-2", EntryUpdate: content.EntryUpdate{Slug: "hello-world"}},
	}
	fmt.Println(len(batch), "changes; at most", content.MaxBulkUpdate)
	// Output: 2 changes; at most 200
}

// Entries a bulk call could not write are part of the result, not an
// error: retry them, or report them.
func ExampleBulkResult() {
	ids := []string{"e-1", "e-2", "e-3"}
	res := content.BulkResult{ // as Content.Entries.BulkPublish(ctx, "acme/web", ids) may return it
		Count:  2,
		Failed: []content.BulkFailure{{Index: 1, ID: "e-2", Error: "Entry not found"}},
	}
	fmt.Println("published:", res.Count)
	for _, f := range res.Failed {
		fmt.Printf("failed: %s (%s)\n", ids[f.Index], f.Error)
	}
	retry := slices.DeleteFunc(slices.Clone(ids), func(id string) bool {
		return !slices.ContainsFunc(res.Failed, func(f content.BulkFailure) bool { return f.ID == id })
	})
	fmt.Println("to retry:", retry)
	// Output:
	// published: 2
	// failed: e-2 (Entry not found)
	// to retry: [e-2]
}
