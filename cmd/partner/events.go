package main

import (
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// eventTypes returns the event types the service sends, in the order
// "partner trigger --list" prints them.
func eventTypes() []webhook.EventType {
	return []webhook.EventType{
		webhook.EventTranslationsPublished,
		webhook.EventTranslationsUpdated,
		webhook.EventKeysCreated,
		webhook.EventKeysDeleted,
		webhook.EventSyncCompleted,
		webhook.EventLanguageAdded,
		webhook.EventLanguageRemoved,
		webhook.EventEntryCreated,
		webhook.EventEntryUpdated,
		webhook.EventEntryPublished,
		webhook.EventEntryUnpublished,
		webhook.EventEntryDeleted,
		webhook.EventEntriesBulkPublished,
		webhook.EventEntriesBulkUpdated,
		webhook.EventEntriesBulkDeleted,
		webhook.EventModelCreated,
		webhook.EventModelUpdated,
		webhook.EventModelDeleted,
		webhook.EventFieldAdded,
		webhook.EventFieldUpdated,
		webhook.EventFieldDeleted,
	}
}

// sampleData returns realistic data for an event of type t that happened
// at now, for the project the fake seeds (acme/web), or nil for a type the
// service does not send.
func sampleData(t webhook.EventType, now time.Time) any {
	now = now.UTC().Truncate(time.Millisecond)
	const org, project = fakeOrgSlug, fakeProjectSlug
	ptr := func(s string) *string { return &s }
	status := func(s webhook.EntryStatus) *webhook.EntryStatus { return &s }
	meta := func(model string, via webhook.Via, user string) webhook.ContentMeta {
		return webhook.ContentMeta{
			Event: t, Timestamp: now, Org: org, Project: project, Model: ptr(model),
			Actor: &webhook.Actor{UserID: user, Via: via},
		}
	}
	entry := func(st, prev webhook.EntryStatus, published *time.Time) webhook.Entry {
		return webhook.Entry{
			ID: "ent_7Hq2", Slug: "hello-world", Status: status(st), PreviousStatus: status(prev),
			PublishedAt: published, SourceLanguageCode: ptr("en"),
		}
	}
	change := func(via webhook.Via, user string, e webhook.Entry, changed ...string) webhook.EntryChange {
		return webhook.EntryChange{
			ContentMeta: meta("blog-post", via, user), Entry: e,
			Languages: []string{"en", "de", "fr"}, ChangedLanguages: append([]string{}, changed...),
		}
	}
	bulk := func(rows ...webhook.BulkEntry) webhook.BulkChange {
		return webhook.BulkChange{
			ContentMeta: meta("blog-post", webhook.ViaUI, "usr_81"),
			Entries:     rows, Count: len(rows), Languages: []string{"en", "de", "fr"},
		}
	}
	row := func(id, slug string, prev, st *webhook.EntryStatus) webhook.BulkEntry {
		return webhook.BulkEntry{ID: id, Slug: slug, PreviousStatus: prev, Status: st}
	}
	field := func() webhook.FieldChange {
		return webhook.FieldChange{
			ContentMeta: meta("landing-page", webhook.ViaUI, "usr_81"),
			Field:       webhook.Field{Name: "heroImage", Type: "media", Localized: false},
		}
	}
	draft, published, archived := webhook.EntryStatusDraft, webhook.EntryStatusPublished, webhook.EntryStatusArchived

	switch t {
	case webhook.EventTranslationsPublished:
		return &webhook.TranslationsPublished{Org: org, Project: project, Languages: []string{"de", "fr"}, PublishedAt: now.Add(-2 * time.Second).Truncate(time.Second), KeysCount: 1287}
	case webhook.EventTranslationsUpdated:
		return &webhook.TranslationsUpdated{Org: org, Project: project, Language: "de", KeysCount: 3}
	case webhook.EventKeysCreated:
		return &webhook.KeysCreated{Org: org, Project: project, Keys: []string{"checkout.title", "checkout.submit"}, Namespace: "common"}
	case webhook.EventKeysDeleted:
		return &webhook.KeysDeleted{Org: org, Project: project, Keys: []string{"legacy.banner"}, Namespace: "common"}
	case webhook.EventSyncCompleted:
		return &webhook.SyncCompleted{Org: org, Project: project, Status: webhook.SyncStatusCompleted, KeysImported: 412, DurationMS: 5230}
	case webhook.EventLanguageAdded:
		return &webhook.LanguageAdded{Org: org, Project: project, Language: "ja", LanguageName: "Japanese"}
	case webhook.EventLanguageRemoved:
		return &webhook.LanguageRemoved{Org: org, Project: project, Language: "it"}
	case webhook.EventEntryCreated:
		return &webhook.EntryCreated{EntryChange: change(webhook.ViaAPI, "usr_81", webhook.Entry{
			ID: "ent_7Hq2", Slug: "hello-world", Status: status(draft), SourceLanguageCode: ptr("en"),
		}, "en", "de", "fr")}
	case webhook.EventEntryUpdated:
		return &webhook.EntryUpdated{EntryChange: change(webhook.ViaMCP, "agt_translator", entry(draft, draft, nil), "de", "fr")}
	case webhook.EventEntryPublished:
		return &webhook.EntryPublished{EntryChange: change(webhook.ViaAPI, "usr_81", entry(published, draft, &now))}
	case webhook.EventEntryUnpublished:
		return &webhook.EntryUnpublished{EntryChange: change(webhook.ViaUI, "usr_81", entry(draft, published, nil))}
	case webhook.EventEntryDeleted:
		return &webhook.EntryDeleted{EntryChange: webhook.EntryChange{
			ContentMeta: meta("blog-post", webhook.ViaUI, "usr_81"),
			Entry:       webhook.Entry{ID: "ent_7Hq2", Slug: "hello-world"},
			Languages:   []string{"en", "de"},
		}}
	case webhook.EventEntriesBulkPublished:
		return &webhook.EntriesBulkPublished{BulkChange: bulk(
			row("ent_1", "post-1", &draft, &published), row("ent_2", "post-2", &published, &published))}
	case webhook.EventEntriesBulkUpdated:
		return &webhook.EntriesBulkUpdated{BulkChange: bulk(
			row("ent_1", "post-1", &draft, &draft), row("ent_2", "post-2", &published, &archived))}
	case webhook.EventEntriesBulkDeleted:
		return &webhook.EntriesBulkDeleted{BulkChange: bulk(
			row("ent_1", "post-1", &draft, nil), row("ent_2", "post-2", &published, nil))}
	case webhook.EventModelCreated:
		return &webhook.ModelCreated{ContentMeta: meta("landing-page", webhook.ViaUI, "usr_81")}
	case webhook.EventModelUpdated:
		return &webhook.ModelUpdated{ContentMeta: meta("landing-page", webhook.ViaUI, "usr_81")}
	case webhook.EventModelDeleted:
		return &webhook.ModelDeleted{ContentMeta: meta("landing-page", webhook.ViaUI, "usr_81")}
	case webhook.EventFieldAdded:
		return &webhook.FieldAdded{FieldChange: field()}
	case webhook.EventFieldUpdated:
		return &webhook.FieldUpdated{FieldChange: field()}
	case webhook.EventFieldDeleted:
		return &webhook.FieldDeleted{FieldChange: field()}
	}
	return nil
}
