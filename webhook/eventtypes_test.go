package webhook

import (
	"slices"
	"testing"
)

// TestEventTypesAreTheTypedOnes: EventTypes lists each type Parse has a
// struct for, once, and no other.
func TestEventTypesAreTheTypedOnes(t *testing.T) {
	got := EventTypes()
	if len(got) != 21 {
		t.Errorf("%d event types, want the 21 the service documents", len(got))
	}
	seen := map[EventType]bool{}
	for _, et := range got {
		if seen[et] {
			t.Errorf("%s listed twice", et)
		}
		seen[et] = true
		if newData(et) == nil {
			t.Errorf("%s has no data struct", et)
		}
	}
	for et := range dataTypes {
		if !seen[et] {
			t.Errorf("%s has a data struct but is not listed", et)
		}
	}
	got[0] = "changed"
	if !slices.Contains(EventTypes(), EventTranslationsPublished) {
		t.Error("changing the returned slice changed the next one")
	}
}
