// Package webhook verifies and decodes the webhook deliveries the
// localization service sends to a customer's endpoint.
//
// # Receiving deliveries
//
// The service POSTs a JSON event to the URL configured in the project's
// Integrations area and signs it with the webhook's secret (whsec_...,
// shown once when created or regenerated). The receiver must answer 2xx
// within 10 seconds; failed deliveries are not retried, but can be
// redelivered by hand from the dashboard with the same event id.
//
// The shortest receiver is NewHandler:
//
//	v, err := webhook.NewVerifier(os.Getenv("WEBHOOK_SECRET"))
//	if err != nil {
//		log.Fatal(err) // an empty secret is an error, never "skip verification"
//	}
//	http.Handle("POST /hooks", webhook.NewHandler(v,
//		func(ctx context.Context, ev *webhook.Event) error {
//			switch d := ev.Data.(type) {
//			case *webhook.TranslationsPublished:
//				return purgeCDN(ctx, d.Org, d.Project, d.Languages)
//			case *webhook.EntryPublished, *webhook.EntryUnpublished:
//				return queue.Add(ctx, ev) // slow work after answering
//			}
//			return nil // ignore the rest, *webhook.UnknownData included
//		},
//		webhook.WithDeduplication(nil), // drop redeliveries of a handled id
//	))
//
// The handler reads at most the body limit, verifies the signature, parses
// the event and calls the function with the request's context. It answers
// 200 when the function returns nil and 500 when it returns an error, so
// the delivery shows as failed and can be redelivered; requests that are
// not genuine get 400, 401, 405 or 413 (see NewHandler).
//
// With another router or framework, do the same steps by hand:
//
//	body, err := v.VerifyRequest(r) // raw body, size-limited, verified
//	if err != nil { ... }           // see the Err* sentinels
//	ev, err := webhook.Parse(body)
//
// or, with a body already read, v.ConstructEvent(body, header). Always
// verify the raw bytes as received: a body decoded and re-encoded no longer
// matches its signature.
//
// # Signatures
//
// The SignatureHeader is "t=<unix seconds>,v1=<hex>,sha256=<hex>". v1 is
// HMAC-SHA256 of "<t>.<body>" under the secret; a Verifier accepts a
// delivery when t is within its tolerance (DefaultTolerance, 5 minutes,
// both ways) and any v1 matches under any of its secrets, compared in
// constant time. The legacy sha256 component signs no timestamp, so it
// could be replayed forever: it is ignored, and a header with only sha256
// fails with ErrNoSignature. The X-Service-Event and X-Service-Id headers
// are not signed and are never used; the type and id come from the body.
//
// To rotate the secret, regenerate it in the dashboard and run with both
// for a while: NewVerifier(newSecret, WithSecrets(oldSecret)).
//
// Verify allocates nothing and costs little more than the HMAC itself
// (see BenchmarkVerify). A Verifier is immutable and safe for concurrent
// use: build one at start-up and share it.
//
// # Events
//
// Parse decodes the envelope into an Event and its data into a struct per
// event type, named next to each EventType constant. Nullable fields are
// pointers; EntryChange.ChangedLanguages is nil when absent (deleted
// entries) and empty when sent as []. Unknown event types decode to
// *UnknownData rather than failing, and every event keeps its data as
// RawData. Sign produces the header the service sends, for tests and for
// fake services.
package webhook
