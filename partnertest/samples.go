package partnertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// SampleData returns realistic data for an event of type t that happened
// at now, in project acme/web: a pointer to the struct of package webhook
// that Parse decodes t's data into, with every field the service
// documents for it set, as Deliver and NewDelivery take it. It returns
// nil for a type not in webhook.EventTypes.
func SampleData(t webhook.EventType, now time.Time) any {
	now = now.UTC().Truncate(time.Millisecond)
	const org, project = "acme", "web"
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

// NewDelivery returns a delivery of an event of type t from the webhook
// config webhookID, as the service would send it at now, signed with
// secret at now, without sending it (see Delivery.Request): a new event
// id, and the envelope with data as Deliver takes it (a data struct of
// package webhook such as SampleData returns, checked against t; a
// json.RawMessage or []byte of JSON, kept byte for byte; nil for {}).
// Status, ResponseBody and Err are zero.
func NewDelivery(webhookID string, t webhook.EventType, data any, secret string, now time.Time) (Delivery, error) {
	now = now.Truncate(time.Millisecond)
	raw, err := marshalData(t, data, now)
	if err != nil {
		return Delivery{}, err
	}
	id := "evt_" + strings.ToLower(rand.Text()[:16])
	body := envelopeBody(newEnvelope(id, webhookID, t, now), raw)
	return Delivery{EventID: id, WebhookID: webhookID, EventType: t, Time: now, Body: body, Signature: webhook.Sign(secret, now, body)}, nil
}

// Request returns the POST of d to url, as the service sends it: the
// envelope with Content-Type application/json and the signature, event
// type and event id headers (webhook.SignatureHeader, EventHeader,
// IDHeader).
func (d Delivery) Request(ctx context.Context, url string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(d.Body))
	if err != nil {
		return nil, fmt.Errorf("partnertest: webhook delivery: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "partnertest")
	req.Header.Set(webhook.SignatureHeader, d.Signature)
	req.Header.Set(webhook.EventHeader, string(d.EventType))
	req.Header.Set(webhook.IDHeader, d.EventID)
	return req, nil
}
