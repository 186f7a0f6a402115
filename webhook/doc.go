// Package webhook verifies and decodes the webhook deliveries the
// localization service sends to a customer's endpoint.
//
// The service POSTs a JSON event to the URL configured in the project's
// Integrations area, signed with the webhook's secret (whsec_..., shown
// once when created or regenerated), and waits 10 seconds for a 2xx
// answer. It does not retry a failed delivery; the dashboard redelivers it
// by hand, with the same event id.
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
// It verifies and parses each delivery, calls the function and answers
// with a status the dashboard's delivery log shows (see NewHandler).
// NewTenantHandler does the same for many webhooks with a secret each.
// WithDeduplication runs the callback until one delivery of an event
// succeeds, and no more, keeping ids in a DedupStore: MemoryDedup for one
// process, or one that replicas share.
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
// The SignatureHeader is "t=<unix seconds>,v1=<hex>,sha256=<hex>", v1
// being the HMAC-SHA256 of "<t>.<body>" under the secret (Sign makes one,
// for tests and fake services). A Verifier checks t against its tolerance
// and compares v1 in constant time; it ignores the legacy sha256, which
// signs no timestamp and so could be replayed forever. The X-Service-Event
// and X-Service-Id headers are not signed and are never used: the type and
// id come from the body. To rotate the secret, run with both for a while:
// NewVerifier(newSecret, WithSecrets(oldSecret)).
//
// # Events
//
// Parse decodes the envelope into an Event, and its data into the struct
// named next to each EventType constant, in one pass of encoding/json over
// the body. An unknown event type decodes to *UnknownData rather than
// failing, and Event.RawData returns the data as sent.
package webhook
