package partner_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// deliveryRig is a receiver built with webhook.NewHandler, fed by
// partnertest's deliveries.
type deliveryRig struct {
	srv     *partnertest.Server
	hook    partnertest.WebhookConfig
	handled atomic.Int32
	fail    atomic.Bool // the callback returns an error
	secrets []string    // the receiver's verifier secrets; the first is the current one
}

// deliveryRow is one webhook-delivery scenario: what the service sends,
// the status the receiver answers with its last delivery, and how many
// times the application's callback ran.
type deliveryRow struct {
	name    string
	send    func(context.Context, *deliveryRig) (partnertest.Delivery, error)
	status  int
	handled int32
}

func deliver(typ webhook.EventType, data any, opts ...partnertest.DeliverOption) func(context.Context, *deliveryRig) (partnertest.Delivery, error) {
	return func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		return r.srv.Deliver(ctx, r.hook.ID, typ, data, opts...)
	}
}

// signedAt delivers an event signed d from the server's clock at the
// moment it is sent (not when the table was built, which may be minutes
// earlier in a long test run).
func signedAt(d time.Duration) func(context.Context, *deliveryRig) (partnertest.Delivery, error) {
	return func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		return deliver(webhook.EventKeysCreated, keysCreated, partnertest.SignedAt(r.srv.Now().Add(d)))(ctx, r)
	}
}

var keysCreated = &webhook.KeysCreated{Org: "acme", Project: "site", Keys: []string{"home.title"}, Namespace: "web"}

var deliveryMatrix = []deliveryRow{
	{name: "a genuine delivery", send: deliver(webhook.EventKeysCreated, keysCreated), status: 200, handled: 1},
	{name: "signed with another secret", send: deliver(webhook.EventKeysCreated, keysCreated, partnertest.SignedWith("whsec_forged")), status: 401},
	{name: "signed 301 s ago", send: signedAt(-301 * time.Second), status: 401},
	{name: "signed 301 s ahead", send: signedAt(301 * time.Second), status: 401},
	{name: "the callback fails: 500, the delivery shows failed", send: func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		r.fail.Store(true)
		return deliver(webhook.EventKeysCreated, keysCreated)(ctx, r)
	}, status: 500, handled: 1},
	{name: "redelivered after a failure: handled again", send: func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		r.fail.Store(true)
		d, _ := deliver(webhook.EventKeysCreated, keysCreated)(ctx, r)
		r.fail.Store(false)
		return r.srv.Redeliver(ctx, d.EventID)
	}, status: 200, handled: 2},
	{name: "redelivered after success: dropped as a duplicate", send: func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		d, _ := deliver(webhook.EventKeysCreated, keysCreated)(ctx, r)
		return r.srv.Redeliver(ctx, d.EventID)
	}, status: 200, handled: 1},
	{name: "signed with the previous secret, receiver holds both (rotation)", send: func(ctx context.Context, r *deliveryRig) (partnertest.Delivery, error) {
		return deliver(webhook.EventKeysCreated, keysCreated, partnertest.SignedWith(r.secrets[1]))(ctx, r)
	}, status: 200, handled: 1},
	{name: "an event type the SDK does not know", send: deliver(webhook.EventType("glossary.updated"), json.RawMessage(`{"org":"acme"}`)), status: 200, handled: 1},
	{name: "a body over the receiver's limit", send: deliver(webhook.EventKeysCreated, &webhook.KeysCreated{Keys: []string{strings.Repeat("k", 2<<20)}}), status: 413},
}

// TestDeliveryMatrix: each scenario against a receiver made with
// webhook.NewHandler, as the service (partnertest) delivers it.
func TestDeliveryMatrix(t *testing.T) {
	for _, row := range deliveryMatrix {
		t.Run(row.name, func(t *testing.T) {
			srv := partnertest.NewServer()
			defer srv.Close()
			r := &deliveryRig{srv: srv}
			rcv := httptest.NewUnstartedServer(nil)
			// No types: the config subscribes to all, unknown ones included.
			org := srv.AddOrganization("acme", "Acme")
			p := srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
			r.hook = srv.AddWebhook(p.ID, "http://"+rcv.Listener.Addr().String()+"/hooks")
			r.secrets = []string{r.hook.Secret, "whsec_previous"}
			v, err := webhook.NewVerifier(r.secrets[0], webhook.WithSecrets(r.secrets[1:]...))
			if err != nil {
				t.Fatal(err)
			}
			rcv.Config.Handler = webhook.NewHandler(v, func(ctx context.Context, ev *webhook.Event) error {
				r.handled.Add(1)
				if r.fail.Load() {
					return errors.New("database is down")
				}
				return nil
			}, webhook.WithDeduplication(nil))
			rcv.Start()
			defer rcv.Close()

			d, err := row.send(t.Context(), r)
			if d.Status != row.status {
				t.Errorf("receiver answered %d (%v), want %d", d.Status, err, row.status)
			}
			if (err == nil) != (row.status/100 == 2) {
				t.Errorf("delivery error %v with status %d", err, d.Status)
			}
			if n := r.handled.Load(); n != row.handled {
				t.Errorf("the callback ran %d times, want %d", n, row.handled)
			}
			if strings.Contains(d.ResponseBody, "database is down") {
				t.Errorf("the callback's error text reached the service: %q", d.ResponseBody)
			}
			for _, sec := range r.secrets {
				if strings.Contains(d.ResponseBody, sec) {
					t.Errorf("a secret reached the service: %q", d.ResponseBody)
				}
			}
		})
	}
}
