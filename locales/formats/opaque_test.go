package formats_test

import (
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// The formats whose keys are identifiers the platform chooses say so:
// their keys are taken whole ("a" beside "a.b", "Loading...", "%s: done").
func TestIdentifierKeyFormatsHaveOpaqueKeys(t *testing.T) {
	for _, f := range []locales.Format{formats.XLIFF{}, formats.XCStrings{}, formats.Android{}, formats.AppleStrings{}, formats.GoText{}} {
		o, ok := f.(interface{ OpaqueKeys() bool })
		if !ok || !o.OpaqueKeys() {
			t.Errorf("%T: no OpaqueKeys() true", f)
		}
	}
}

// Keys that a dotted path would refuse are read whole.
func TestOpaqueKeysReadWhole(t *testing.T) {
	data := `"button.remove" = "Remove";
"button.remove.cancel" = "Cancel";
"Downloading..." = "Downloading…";
"%@: done" = "%@: done";
`
	msgs, _, err := formats.AppleStrings{}.Decode(locales.File{}, []byte(data))
	if err != nil || len(msgs) != 4 {
		t.Fatalf("%v (%v)", msgs, err)
	}
	out, err := formats.AppleStrings{}.Encode(locales.File{Old: []byte(data)}, msgs)
	if err != nil || string(out) != data {
		t.Fatalf("written (%v):\n%s", err, out)
	}
}
