package locales_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
)

// syncTexts are texts every format can hold, a plural among them.
var syncTexts = map[string][]locales.Message{
	"en": {
		{Key: "greeting", Text: "Hello"},
		{Key: "items", Text: "{count, plural, one {%d item} other {%d items}}"},
		{Key: "welcome_back", Text: "Welcome back"},
	},
	"de": {
		{Key: "greeting", Text: "Hallo"},
		{Key: "items", Text: "{count, plural, one {%d Artikel} other {%d Artikel}}"},
	},
}

func entries(cat *locales.Catalog) []locales.Entry { return slices.Collect(cat.All()) }

// pushPull pushes the tree under dir in format through the same plan and
// apply as JSON trees, pulls the project back into a new tree in the
// same format and checks that it reads as the same catalog, and that
// pushing the pulled tree writes nothing.
func pushPull(t *testing.T, format locales.Format, dir string) {
	t.Helper()
	ctx := context.Background()
	f := newFake(t)
	layout := locales.Layout{Files: locales.SingleFile, Format: format}
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	if cat.Len() != 5 {
		t.Fatalf("loaded %d texts: %v", cat.Len(), entries(cat))
	}
	plan, err := locales.NewPlan(ctx, f.c, f.project, cat, locales.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Apply(ctx, f.c, locales.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	pulled, err := locales.Pull(ctx, f.c, f.project, locales.PullOptions{Languages: []string{"en", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := pulled.Write(out, layout); err != nil {
		t.Fatal(err)
	}
	back, err := locales.Load(out, layout)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(entries(cat), entries(back)); diff != "" {
		t.Fatalf("pulled tree (-pushed +pulled):\n%s\n%v", diff, readTree(t, out))
	}
	again, err := locales.NewPlan(ctx, f.c, f.project, back, locales.PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !again.Empty() {
		t.Fatalf("pushing the pulled tree would write: %+v", again)
	}
}

// Each file format pushes and pulls through plan and apply against the
// fake service.
func TestFormatPushPull(t *testing.T) {
	for _, format := range []locales.FileFormat{locales.ARB{}, locales.Android{}, locales.AppleStrings{}, locales.PO{}, locales.GoText{}, locales.XLIFF{}, locales.XLIFF{Version: "2.0", Extension: ".xliff"}} {
		t.Run(format.Ext(), func(t *testing.T) {
			dir := t.TempDir()
			for lang, msgs := range syncTexts {
				data, err := format.EncodeFile(locales.File{Language: lang, SourceLanguage: "en", Source: syncTexts["en"]}, msgs, "")
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, lang+format.Ext()), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			pushPull(t, format, dir)
		})
	}
}

// A string catalog, every language in one file, pushes and pulls the
// same way.
func TestXCStringsPushPull(t *testing.T) {
	dir := t.TempDir()
	data, err := locales.XCStrings{}.EncodeAll(nil, "en", syncTexts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Localizable.xcstrings"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	pushPull(t, locales.XCStrings{}, dir)
}

// A tree of two formats is refused when the format is detected.
func TestDetectFormatRefusesMixedTrees(t *testing.T) {
	dir := tree(t, map[string]string{"en.po": "", "de.arb": "{}", "fr/messages.po": ""})
	_, err := locales.DetectFormat(dir, locales.Formats())
	if err == nil || !strings.Contains(err.Error(), "mixes locale formats (de.arb, en.po)") {
		t.Fatalf("error %v; want the two formats named", err)
	}
	dir = tree(t, map[string]string{"de/messages.gotext.json": "{}", "en/messages.gotext.json": "{}"})
	got, err := locales.DetectFormat(dir, locales.Formats())
	if err != nil || got != (locales.GoText{}) {
		t.Fatalf("got %v, %v; want GoText (the longest extension)", got, err)
	}
}
