package partnertest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

const sampleSecret = "whsec_SAMPLESECRETFORTESTS234567"

var sampleTime = time.Date(2026, 5, 1, 10, 0, 0, 123e6, time.UTC)

// TestSampleDeliveriesDecodeIntoTheirTypes: each type's sample delivery
// verifies, and decodes into its typed event with every field the sample
// set, its id and type as sent.
func TestSampleDeliveriesDecodeIntoTheirTypes(t *testing.T) {
	v, err := webhook.NewVerifier(sampleSecret, webhook.WithClock(func() time.Time { return sampleTime }))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range webhook.EventTypes() {
		t.Run(string(typ), func(t *testing.T) {
			sample := partnertest.SampleData(typ, sampleTime)
			d, err := partnertest.NewDelivery("wh_sample", typ, sample, sampleSecret, sampleTime)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := v.ConstructEvent(d.Body, d.Signature)
			if err != nil {
				t.Fatal(err)
			}
			if ev.ID != d.EventID || ev.Type != typ || ev.WebhookConfigID != "wh_sample" || !ev.Timestamp.Equal(sampleTime) {
				t.Errorf("event %s %s from %s at %v; want %s %s from wh_sample at %v", ev.ID, ev.Type, ev.WebhookConfigID, ev.Timestamp, d.EventID, typ, sampleTime)
			}
			if diff := cmp.Diff(sample, ev.Data); diff != "" {
				t.Errorf("decoded data differs from the sample (-sample +decoded):\n%s", diff)
			}
		})
	}
	if d := partnertest.SampleData("glossary.updated", sampleTime); d != nil {
		t.Errorf("SampleData of an unknown type = %v, want nil", d)
	}
}

// TestSampleDataHasTheSpecsFields: each sample's data has the members of
// the spec's example of that type (webhook/testdata/events), and no
// other, at every level.
func TestSampleDataHasTheSpecsFields(t *testing.T) {
	for _, typ := range webhook.EventTypes() {
		t.Run(string(typ), func(t *testing.T) {
			golden, err := os.ReadFile(filepath.Join("..", "webhook", "testdata", "events", string(typ)+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var env struct{ Data any }
			if err := json.Unmarshal(golden, &env); err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(partnertest.SampleData(typ, sampleTime))
			if err != nil {
				t.Fatal(err)
			}
			var got any
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			// Below a member the example sends as null, the sample may say more.
			nulls := nullMembers(env.Data, "")
			sample := slices.DeleteFunc(members(got, ""), func(p string) bool {
				return slices.ContainsFunc(nulls, func(n string) bool { return strings.HasPrefix(p, n+".") })
			})
			if diff := cmp.Diff(members(env.Data, ""), sample); diff != "" {
				t.Errorf("members differ from the spec's example (-spec +sample):\n%s", diff)
			}
		})
	}
}

// members lists the paths of v's object members, array elements merged.
func members(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			out = append(out, path+"."+k)
			out = append(out, members(x, path+"."+k)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, members(x, path+"[]")...)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// nullMembers lists the paths of v's members that are null.
func nullMembers(v any, path string) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				out = append(out, path+"."+k)
			}
			out = append(out, nullMembers(x, path+"."+k)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, nullMembers(x, path+"[]")...)
		}
	}
	return out
}

// TestDeliveryRequestReachesAHandler: the request of a delivery carries
// what webhook.NewHandler checks, and the handler gets the event.
func TestDeliveryRequestReachesAHandler(t *testing.T) {
	d, err := partnertest.NewDelivery("wh_sample", webhook.EventKeysCreated, partnertest.SampleData(webhook.EventKeysCreated, time.Now()), sampleSecret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	v, err := webhook.NewVerifier(sampleSecret)
	if err != nil {
		t.Fatal(err)
	}
	var got *webhook.Event
	h := webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error { got = ev; return nil })
	req, err := d.Request(t.Context(), "http://receiver.test/hooks")
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || got == nil || got.ID != d.EventID {
		t.Fatalf("handler answered %d, event %v; want 200 and %s", rec.Code, got, d.EventID)
	}
	if k, ok := got.Data.(*webhook.KeysCreated); !ok || !strings.Contains(strings.Join(k.Keys, ","), "checkout") {
		t.Errorf("data %#v, want the sample's KeysCreated", got.Data)
	}
}
