// Package content holds the types of the content CMS a partner works with
// through the service's content tools (the MCP server at Config.ContentMCPURL): models and
// their fields (listContentModels, getContentModel, createContentModel,
// updateContentModel, deleteContentModel, addField, updateField,
// removeField, reorderFields) and entries (listContentEntries,
// getContentEntry, createContentEntry, updateContentEntry,
// publishContentEntry, deleteContentEntry, duplicateContentEntry and the
// bulk forms bulkCreateEntries, bulkUpdateEntries, bulkPublishEntries).
// The calls themselves are methods of partner.Client.Content; blocks and
// any other content tool go through partner.Client.Tools.Call with
// partner.ContentTools.
//
// Projects are named "org/project" (the project's slug), models and
// fields by their slug and name, entries by their UUID.
//
// Custom field values and languages are plain Go maps:
//
//   - What you send (NewEntry.Fields, EntryUpdate.Fields,
//     LanguageValues.Fields) maps a field name to any value that encodes
//     to JSON: a string, a number, a bool, a slice of relation ids.
//     Top-level Fields always write the entry's source language; a
//     localized field in another language goes in Translations[lang] or
//     in an EntryUpdate with Language set.
//   - What you read (Entry.Fields, Translation.Fields) maps a field name
//     to its value as text, the way the tools report them; a field without
//     a value is absent. A value the service sends as another JSON type
//     (a number, a list) is kept as its JSON text.
//   - Translations map a language code ("de", "fr") to that language's
//     title, body and field values. The tools lowercase the codes.
//
// Partial failures of the bulk calls (an entry that could not be created,
// updated or published) are listed in BulkResult.Failed, never dropped and
// never a Go error. Every result keeps what the service sent in Raw,
// because the tools change more often than their documentation.
package content
