package formats_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

// TestPresetsAreConfigs: every preset is a partner.yaml that reads back
// the same, in Presets' order.
func TestPresetsAreConfigs(t *testing.T) {
	var names []string
	for _, p := range formats.Presets() {
		names = append(names, p.Name)
		roundTrip(t, p)
	}
	want := "android apple-strings xcstrings flutter gettext angular rails i18next properties gotext json"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("Presets() = %s, want %s", got, want)
	}
}

// roundTrip writes p's groups as partner.yaml and reads them back.
func roundTrip(t *testing.T, p formats.Preset) {
	t.Helper()
	c := &locales.Config{Project: "acme/web", SourceLanguage: "en", Files: p.Groups}
	data, err := c.Marshal(formats.ByName())
	if err != nil {
		t.Fatalf("preset %s: %v", p.Name, err)
	}
	name := filepath.Join(t.TempDir(), locales.ConfigFile)
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := locales.ReadConfig(name, formats.ByName())
	if err != nil {
		t.Fatalf("preset %s: %v\n%s", p.Name, err, data)
	}
	if diff := cmp.Diff(c, back); diff != "" {
		t.Errorf("preset %s read back (-written +read):\n%s", p.Name, diff)
	}
}
