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
//		log.Fatal(err) // empty, white space around it, or no whsec_ prefix
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
// 200 when the function returns nil and 500 when it returns an error or
// panics, so the delivery shows as failed and can be redelivered; requests that are
// not genuine get 400, 401, 405 or 413 (see NewHandler). A body that
// arrives empty, as when a middleware read it first, fails with
// ErrEmptyBody rather than as a signature mismatch.
//
// NewVerifier refuses a secret that cannot be right: empty, with white
// space around it (a trailing newline from a file or an environment
// variable), or without the whsec_ prefix the service's secrets carry
// (WithUnprefixedSecret accepts one anyway, for another sender).
//
// # Many webhooks, one receiver
//
// A partner receiving deliveries for many customers, one secret each, uses
// NewTenantHandler: a lookup returns the Verifier for each request (by a
// path value, say), and the callback gets the request to know whose event
// it is. A lookup error that matches ErrUnknownReceiver answers 404; any
// other answers 500, so the delivery can be redelivered.
//
// # Deduplication
//
// The service redelivers an event with the same id. WithDeduplication runs
// the callback until one delivery of an event succeeds, and no more:
// a delivery claims the id in a DedupStore for a processing TTL; on
// success the id is marked done for a retention time (200), on failure
// the claim is released (500) so a redelivery runs again. A duplicate
// arriving while an attempt is running waits for it (up to
// DedupPolicy.MaxWait, inside the service's 10 s): it answers 200 if the
// attempt succeeded, runs the callback itself if the attempt failed, and
// answers 409 Conflict if the wait runs out. A claim whose receiver
// crashed expires after its TTL. MemoryDedup (the zero value works) serves
// one process; a store shared by replicas implements the same three
// methods on Redis or SQL (see DedupStore).
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
// Verify costs little more than the HMAC itself (see BenchmarkVerify). A
// Verifier is immutable and safe for concurrent use: build one at start-up
// and share it.
//
// # Events
//
// Parse decodes, with encoding/json, the envelope into an Event and its
// data into a struct per event type, named next to each EventType
// constant, in one pass over the body. Nullable fields are
// pointers; EntryChange.ChangedLanguages is nil when absent (deleted
// entries) and empty when sent as []. Unknown event types decode to
// *UnknownData rather than failing, and Event.RawData returns the data
// exactly as sent. Sign produces the header the service sends, for tests
// and for fake services.
package webhook
