package formats_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

func TestByNameNamesEveryFormat(t *testing.T) {
	byName := formats.ByName()
	want := []string{"android", "applestrings", "arb", "gotext", "json", "po", "properties", "xcstrings", "xliff", "yaml"}
	if got := slices.Sorted(maps.Keys(byName)); !slices.Equal(got, want) {
		t.Errorf("ByName's names = %v, want %v", got, want)
	}
	for n, f := range byName {
		if got := formats.Name(f); got != n {
			t.Errorf("Name(ByName()[%q]) = %q", n, got)
		}
	}
	if byName["xliff"] != (formats.XLIFF{}) || byName["yaml"] != (formats.YAML{}) {
		t.Errorf("ByName gives options: xliff %#v, yaml %#v", byName["xliff"], byName["yaml"])
	}
	for f, want := range map[locales.Format]string{
		formats.XLIFF{Extension: ".xliff"}: "xliff",
		formats.YAML{Rails: true}:          "yaml",
		JSON{}:                             "",
		nil:                                "",
	} {
		if got := formats.Name(f); got != want {
			t.Errorf("Name(%#v) = %q, want %q", f, got, want)
		}
	}
}

// JSON is a format of another package whose type is named as one of
// ByName's.
type JSON struct{ locales.JSON }
