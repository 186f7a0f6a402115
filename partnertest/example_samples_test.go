package partnertest_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// Test a receiver's handler with one signed sample delivery of each event
// type, without a server: NewDelivery builds what the service would send,
// and Request makes it an *http.Request.
func ExampleNewDelivery() {
	const secret = "whsec_EXAMPLESECRET234567ABCDEFGH"
	v, err := webhook.NewVerifier(secret)
	if err != nil {
		panic(err)
	}
	handled := 0
	h := webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		if _, unknown := ev.Data.(*webhook.UnknownData); !unknown {
			handled++
		}
		return nil
	})
	now := time.Now()
	for _, typ := range webhook.EventTypes() {
		d, err := partnertest.NewDelivery("wh_test", typ, partnertest.SampleData(typ, now), secret, now)
		if err != nil {
			panic(err)
		}
		req, err := d.Request(context.Background(), "http://receiver.test/hooks")
		if err != nil {
			panic(err)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 200 {
			fmt.Println(typ, "answered", rec.Code)
		}
	}
	fmt.Println("typed events handled:", handled)
	// Output:
	// typed events handled: 21
}
