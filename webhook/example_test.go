package webhook_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

const secret = "whsec_example"

// A delivery body as the service sends it.
const body = `{"id":"evt_01HV","webhookConfigId":"wh_7f3a","eventType":"translations.published",` +
	`"timestamp":1714557600123,"createdAt":"2024-05-01T10:00:00.123Z","version":"1",` +
	`"data":{"org":"acme","project":"storefront","languages":["de","fr"],` +
	`"publishedAt":"2024-05-01T09:59:58Z","keysCount":1287}}`

// The examples fix the clock at the moment the delivery was signed.
var signedAt = time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)

func ExampleVerifier() {
	v, err := webhook.NewVerifier(secret,
		webhook.WithSecrets("whsec_previous"), // still accepted while rotating
		webhook.WithClock(func() time.Time { return signedAt }),
	)
	if err != nil {
		log.Fatal(err)
	}
	header := webhook.Sign(secret, signedAt, []byte(body)) // what the service sends

	ev, err := v.ConstructEvent([]byte(body), header)
	fmt.Println(ev.Type, err)

	tampered := strings.Replace(body, "1287", "1288", 1)
	_, err = v.ConstructEvent([]byte(tampered), header)
	fmt.Println(errors.Is(err, webhook.ErrSignatureMismatch))

	stale := webhook.Sign(secret, signedAt.Add(-10*time.Minute), []byte(body))
	err = v.Verify([]byte(body), stale)
	fmt.Println(errors.Is(err, webhook.ErrTimestampOutOfTolerance))
	// Output:
	// translations.published <nil>
	// true
	// true
}

func ExampleParse() {
	ev, err := webhook.Parse([]byte(body)) // only after verifying it
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ev.ID, ev.Type, ev.Timestamp.UTC().Format(time.RFC3339Nano))
	d := ev.Data.(*webhook.TranslationsPublished)
	fmt.Println(d.Project, d.Languages, d.KeysCount)
	// Output:
	// evt_01HV translations.published 2024-05-01T10:00:00.123Z
	// storefront [de fr] 1287
}

// Read a field this package does not decode from the data as sent.
func ExampleEvent_RawData() {
	body := []byte(`{"id":"evt_5","eventType":"keys.created",` +
		`"data":{"org":"acme","project":"storefront","keys":["checkout.title"],"namespace":"checkout","branch":"main"}}`)
	ev, err := webhook.Parse(body)
	if err != nil {
		log.Fatal(err)
	}
	var extra struct {
		Branch string `json:"branch"`
	}
	if err := json.Unmarshal(ev.RawData(), &extra); err != nil {
		log.Fatal(err)
	}
	fmt.Println(ev.Data.(*webhook.KeysCreated).Keys, extra.Branch)
	// Output:
	// [checkout.title] main
}

// Act on each event type through a type switch on Data.
func ExampleEvent_typeSwitch() {
	for _, body := range []string{
		body,
		`{"id":"evt_2","eventType":"content.entry.deleted","data":{"org":"acme","project":"blog",` +
			`"actor":{"userId":"usr_81","via":"ui"},"entry":{"id":"ent_7","slug":"hello-world","status":null,` +
			`"previousStatus":null,"publishedAt":null,"sourceLanguageCode":null},"languages":["en"]}}`,
		`{"id":"evt_3","eventType":"content.entry.published","data":{"entry":{"slug":"spring-sale",` +
			`"status":"published"},"changedLanguages":[]}}`,
		`{"id":"evt_4","eventType":"glossary.updated","data":{"term":"cart"}}`,
	} {
		ev, err := webhook.Parse([]byte(body))
		if err != nil {
			log.Fatal(err)
		}
		switch d := ev.Data.(type) {
		case *webhook.TranslationsPublished:
			fmt.Printf("purge CDN for %s/%s %v\n", d.Org, d.Project, d.Languages)
		case *webhook.EntryDeleted:
			fmt.Printf("purge %s (deleted by %s via %s; status %v)\n", d.Entry.Slug, d.Actor.UserID, d.Actor.Via, d.Entry.Status)
		case *webhook.EntryPublished:
			fmt.Printf("rebuild %s; changed languages %v (nil: %t)\n", d.Entry.Slug, d.ChangedLanguages, d.ChangedLanguages == nil)
		case *webhook.UnknownData:
			fmt.Printf("ignore %s: %s\n", ev.Type, d.Raw)
		}
	}
	// Output:
	// purge CDN for acme/storefront [de fr]
	// purge hello-world (deleted by usr_81 via ui; status <nil>)
	// rebuild spring-sale; changed languages [] (nil: false)
	// ignore glossary.updated: {"term":"cart"}
}

func ExampleNewHandler() {
	v, err := webhook.NewVerifier(secret, webhook.WithClock(func() time.Time { return signedAt }))
	if err != nil {
		log.Fatal(err)
	}
	h := webhook.NewHandler(v, func(ctx context.Context, ev *webhook.Event) error {
		fmt.Println("handling", ev.ID, ev.Type)
		return nil // an error answers 500, so the delivery can be redelivered
	}, webhook.WithDeduplication(webhook.NewMemoryDedup(10_000)))
	// In a server: http.Handle("POST /hooks", h)

	deliver := func(header string) {
		r := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(body))
		r.Header.Set(webhook.SignatureHeader, header)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code)
	}
	signed := webhook.Sign(secret, signedAt, []byte(body))
	deliver(signed)
	deliver(signed) // a redelivery: same id, not handled twice
	deliver(webhook.Sign("whsec_wrong", signedAt, []byte(body)))
	// Output:
	// handling evt_01HV translations.published
	// 200
	// 200
	// 401
}

// One handler for many customers, one webhook secret each: the lookup finds
// the customer's Verifier by a path value, and the callback reads it again
// to know whose event it handles.
func ExampleNewTenantHandler() {
	secrets := map[string]string{"acme": "whsec_acme", "globex": "whsec_globex"} // from your database
	lookup := func(r *http.Request) (*webhook.Verifier, error) {
		secret, ok := secrets[r.PathValue("customer")]
		if !ok {
			return nil, webhook.ErrUnknownReceiver // 404
		}
		// Build Verifiers once per customer and cache them in a real
		// receiver; errors other than ErrUnknownReceiver answer 500.
		return webhook.NewVerifier(secret, webhook.WithClock(func() time.Time { return signedAt }))
	}
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{customer}", webhook.NewTenantHandler(lookup,
		func(ctx context.Context, r *http.Request, ev *webhook.Event) error {
			fmt.Println(r.PathValue("customer"), "got", ev.Type)
			return nil
		}))

	deliver := func(customer, secret string) {
		r := httptest.NewRequest(http.MethodPost, "/hooks/"+customer, strings.NewReader(body))
		r.Header.Set(webhook.SignatureHeader, webhook.Sign(secret, signedAt, []byte(body)))
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		fmt.Println(w.Code)
	}
	deliver("acme", "whsec_acme")
	deliver("globex", "whsec_acme") // signed with another customer's secret
	deliver("initech", "whsec_acme")
	// Output:
	// acme got translations.published
	// 200
	// 401
	// 404
}

// A redelivery of an event that is still being handled waits for the first
// attempt; one that comes after a failure runs the callback again.
func ExampleWithDeduplication() {
	v, err := webhook.NewVerifier(secret, webhook.WithClock(func() time.Time { return signedAt }))
	if err != nil {
		log.Fatal(err)
	}
	attempts := 0
	h := webhook.NewHandler(v, func(ctx context.Context, ev *webhook.Event) error {
		attempts++
		if attempts == 1 {
			return errors.New("database unavailable") // 500: not marked handled
		}
		return nil
	}, webhook.WithDeduplication(&webhook.MemoryDedup{}), webhook.WithDedupPolicy(webhook.DedupPolicy{
		ProcessingTTL: time.Minute,    // a crashed attempt blocks redeliveries this long
		Retention:     24 * time.Hour, // a handled id is remembered this long
	}))

	signed := webhook.Sign(secret, signedAt, []byte(body))
	for range 3 {
		r := httptest.NewRequest(http.MethodPost, "/hooks", strings.NewReader(body))
		r.Header.Set(webhook.SignatureHeader, signed)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code, "after", attempts, "attempts")
	}
	// Output:
	// 500 after 1 attempts
	// 200 after 2 attempts
	// 200 after 2 attempts
}
