package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out strings.Builder
	if err := run(t.Context(), &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	for _, want := range []string{"live grants (990): 9900 calls ok, 0 failed", "1.00 and 1.00 per grant", "0 other errors"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}
