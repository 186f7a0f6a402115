package otel_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"go.opentelemetry.io/otel/attribute"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// TestDeliveriesAreCountedByOutcome: a delivery signed with another
// secret is counted refused for its signature; a redelivery of a handled
// event is counted a duplicate. (The fake delivers over loopback.)
func TestDeliveriesAreCountedByOutcome(t *testing.T) {
	r := newRigOn(t)
	ctx := t.Context()
	rcv := httptest.NewUnstartedServer(nil)
	wh := r.srv.AddWebhook(r.project.ID, "http://"+rcv.Listener.Addr().String(), webhook.EventKeysCreated)
	v, err := webhook.NewVerifier(wh.Secret)
	if err != nil {
		t.Fatal(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, func(context.Context, *webhook.Event) error { return nil },
		webhook.WithDeduplication(nil), webhook.WithHooks(r.hooks))
	rcv.Start()
	defer rcv.Close()

	data := &webhook.KeysCreated{Org: r.g.Organizations[0].Slug, Project: "web", Keys: []string{"home.title"}}
	if _, err := r.srv.Deliver(ctx, wh.ID, webhook.EventKeysCreated, data, partnertest.SignedWith("whsec_another")); err == nil {
		t.Fatal("a delivery signed with another secret was accepted")
	}
	d, err := r.srv.Deliver(ctx, wh.ID, webhook.EventKeysCreated, data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.srv.Redeliver(ctx, d.EventID); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]attribute.KeyValue{
		{attribute.String("partner.webhook.outcome", "refused"), attribute.String("partner.webhook.reason", "signature")},
		{attribute.String("partner.webhook.outcome", "handled"), attribute.String("partner.webhook.event_type", "keys.created")},
		{attribute.String("partner.webhook.outcome", "duplicate")},
	} {
		if n := r.sum(t, "partner.webhook.deliveries", c...); n != 1 {
			t.Errorf("partner.webhook.deliveries%v = %d, want 1", c, n)
		}
	}
	if n := r.sum(t, "partner.webhook.deliveries"); n != 3 {
		t.Errorf("partner.webhook.deliveries = %d, want 3", n)
	}
}
