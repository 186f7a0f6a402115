package partnertest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"time"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// The receiver under test is an ordinary HTTP server; its URL goes into
// the webhook config, and the config's secret into its verifier.
func ExampleServer_AddWebhook() {
	srv := partnertest.NewServer()
	defer srv.Close()

	rcv := httptest.NewUnstartedServer(nil)
	org := srv.AddOrganization("acme", "Acme")
	p := srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
	// Webhooks are configured per project: this one receives the web
	// project's keys.created events.
	wh := srv.AddWebhook(p.ID, "http://"+rcv.Listener.Addr().String()+"/hooks", webhook.EventKeysCreated)
	v, err := webhook.NewVerifier(wh.Secret)
	if err != nil {
		panic(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		d := ev.Data.(*webhook.KeysCreated)
		fmt.Println("received", ev.ID, ev.Type, d.Keys)
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	fmt.Println(wh.ID, strings.HasPrefix(wh.Secret, "whsec_"))
	if _, err := srv.Deliver(context.Background(), wh.ID, webhook.EventKeysCreated,
		&webhook.KeysCreated{Org: "acme", Project: "web", Keys: []string{"home.title"}}); err != nil {
		fmt.Println(err)
	}
	_, err = srv.Deliver(context.Background(), wh.ID, webhook.EventKeysDeleted, &webhook.KeysDeleted{})
	fmt.Println(err)
	// Output:
	// wh_1 true
	// received evt_1 keys.created [home.title]
	// partnertest: webhook config wh_1 does not subscribe to keys.deleted
}

// Deliver takes typed data or raw JSON, and returns the delivery log entry.
func ExampleServer_Deliver() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		switch d := ev.Data.(type) {
		case *webhook.TranslationsPublished:
			fmt.Println(ev.Type, d.Org, d.Project, d.Languages, d.KeysCount)
		case *webhook.LanguageAdded:
			fmt.Println(ev.Type, d.Language, d.LanguageName)
		}
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	ctx := context.Background()
	d, err := srv.Deliver(ctx, wh.ID, webhook.EventTranslationsPublished, &webhook.TranslationsPublished{
		Org: "acme", Project: "web", Languages: []string{"de", "fr"}, PublishedAt: time.Now(), KeysCount: 42,
	})
	fmt.Println(d.EventID, d.Status, err)
	d, err = srv.Deliver(ctx, wh.ID, webhook.EventLanguageAdded,
		json.RawMessage(`{"org":"acme","project":"web","language":"de","languageName":"German"}`))
	fmt.Println(d.EventID, d.Status, err)
	// Output:
	// translations.published acme web [de fr] 42
	// evt_1 200 <nil>
	// language.added de German
	// evt_2 200 <nil>
}

// A content event's struct gets its event type and time filled in, as the
// service sends them; data of another event type is refused.
func ExampleServer_Deliver_content() {
	srv := partnertest.NewServer(partnertest.WithClock(func() time.Time {
		return time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	}))
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		d := ev.Data.(*webhook.EntryPublished)
		fmt.Println(d.Event, d.Timestamp, d.Entry.Slug)
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	ctx := context.Background()
	_, err := srv.Deliver(ctx, wh.ID, webhook.EventEntryPublished, &webhook.EntryPublished{EntryChange: webhook.EntryChange{
		ContentMeta: webhook.ContentMeta{Org: "acme", Project: "site"},
		Entry:       webhook.Entry{ID: "ent_1", Slug: "hello-world"},
	}})
	fmt.Println(err)
	_, err = srv.Deliver(ctx, wh.ID, webhook.EventEntryPublished, &webhook.EntryUpdated{})
	fmt.Println(err)
	// Output:
	// content.entry.published 2026-05-06 07:08:09 +0000 UTC hello-world
	// <nil>
	// partnertest: event data is a webhook.EntryUpdated, but content.entry.published takes a *webhook.EntryPublished
}

// A failed delivery is not retried; Redeliver sends it again with the same
// id and body, as the dashboard's redelivery does.
func ExampleServer_Redeliver() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	var down atomic.Bool
	down.Store(true)
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		if down.Load() {
			return errors.New("database unavailable")
		}
		fmt.Println("processed", ev.ID)
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	first, err := srv.Deliver(context.Background(), wh.ID, webhook.EventSyncCompleted, &webhook.SyncCompleted{Status: "completed"})
	fmt.Println(first.Status, err)

	down.Store(false)
	again, err := srv.Redeliver(context.Background(), first.EventID)
	fmt.Println(again.Status, err, again.Redelivery, again.EventID == first.EventID, string(again.Body) == string(first.Body))
	// Output:
	// 500 partnertest: webhook delivery: receiver answered 500
	// processed evt_1
	// 200 <nil> true true true
}

// After a rotation, a receiver that knows only the old secret refuses
// deliveries; one that accepts both would take them.
func ExampleServer_RotateSecret() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	rcv.Config.Handler = webhook.NewHandler(v, func(context.Context, *webhook.Event) error { return nil })
	rcv.Start()
	defer rcv.Close()

	newSecret := srv.RotateSecret(wh.ID)
	d, _ := srv.Deliver(context.Background(), wh.ID, webhook.EventKeysCreated, nil)
	fmt.Print(d.Status, " ", d.ResponseBody)

	// The logged body and signature verify with the new secret.
	v, _ = webhook.NewVerifier(newSecret, webhook.WithSecrets(wh.Secret))
	fmt.Println(v.Verify(d.Body, d.Signature))
	// Output:
	// 401 webhook: signature mismatch
	// <nil>
}

// The delivery log has what the service's dashboard shows: status, event
// type, time and the start of the receiver's answer.
func ExampleServer_Deliveries() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	rcv.Config.Handler = webhook.NewHandler(v, func(context.Context, *webhook.Event) error { return nil })
	rcv.Start()
	defer rcv.Close()

	ctx := context.Background()
	srv.Deliver(ctx, wh.ID, webhook.EventKeysCreated, nil)
	srv.Deliver(ctx, wh.ID, webhook.EventKeysDeleted, nil, partnertest.SignedWith("whsec_wrong"))
	for _, d := range srv.Deliveries() {
		fmt.Printf("%s %s %d %q %v\n", d.EventID, d.EventType, d.Status, d.ResponseBody, d.Err)
	}
	// Output:
	// evt_1 keys.created 200 "" <nil>
	// evt_2 keys.deleted 401 "webhook: signature mismatch\n" partnertest: webhook delivery: receiver answered 401
}

// A delivery signed ten minutes ago is outside the receiver's five-minute
// tolerance.
func ExampleSignedAt() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	rcv.Config.Handler = webhook.NewHandler(v, func(context.Context, *webhook.Event) error { return nil })
	rcv.Start()
	defer rcv.Close()

	d, _ := srv.Deliver(context.Background(), wh.ID, webhook.EventKeysCreated, nil,
		partnertest.SignedAt(srv.Now().Add(-10*time.Minute)))
	fmt.Print(d.Status, " ", d.ResponseBody)
	// Output: 401 webhook: timestamp outside tolerance
}

// A delivery signed with another secret, as a forger would send it.
func ExampleSignedWith() {
	srv := partnertest.NewServer()
	defer srv.Close()
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(aProject(srv), "http://"+rcv.Listener.Addr().String())
	v, _ := webhook.NewVerifier(wh.Secret)
	rcv.Config.Handler = webhook.NewHandler(v, func(context.Context, *webhook.Event) error { return nil })
	rcv.Start()
	defer rcv.Close()

	d, _ := srv.Deliver(context.Background(), wh.ID, webhook.EventKeysCreated, nil,
		partnertest.SignedWith("whsec_not_the_secret"))
	fmt.Print(d.Status, " ", d.ResponseBody)
	// Output: 401 webhook: signature mismatch
}

// aProject adds an organization and a project to srv and returns the
// project's id, for a webhook config.
func aProject(srv *partnertest.Server) string {
	org := srv.AddOrganization("acme", "Acme")
	return srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"}).ID
}
