package partnertest

import (
	"reflect"
	"testing"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// TestDataTypeKnowsEveryEventType: the struct Deliver checks data against
// is, for each type, the one SampleData gives.
func TestDataTypeKnowsEveryEventType(t *testing.T) {
	for _, typ := range webhook.EventTypes() {
		want := reflect.TypeOf(SampleData(typ, time.Now())).Elem()
		if got := dataType(typ); got != want {
			t.Errorf("dataType(%s) = %v, want %v", typ, got, want)
		}
	}
}
