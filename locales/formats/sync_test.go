package formats_test

import (
	"context"
	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/locales/internal/loctest"
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

func entries(cat *locales.Catalog) []locales.Message { return slices.Collect(cat.All()) }

// pushPull pushes the tree under dir in format through the same plan and
// apply as JSON trees, pulls the project back into a new tree in the
// same format and checks that it reads as the same catalog, and that
// pushing the pulled tree writes nothing.
func pushPull(t *testing.T, format locales.Format, dir string) {
	t.Helper()
	ctx := context.Background()
	f := newFake(t)
	layout := locales.Layout{Files: translations.SingleFile, Format: format}
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(entries(cat)); n != 5 {
		t.Fatalf("loaded %d texts: %v", n, entries(cat))
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
		t.Fatalf("pulled tree (-pushed +pulled):\n%s\n%v", diff, loctest.ReadTree(t, out))
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
	for _, format := range []locales.Format{formats.ARB{}, formats.Android{}, formats.AppleStrings{}, formats.PO{}, formats.GoText{}, formats.XLIFF{}, formats.XLIFF{Version: "2.0", Extension: ".xliff"}} {
		t.Run(format.Ext(), func(t *testing.T) {
			dir := t.TempDir()
			for lang, msgs := range syncTexts {
				data, err := format.Encode(locales.File{Language: lang, SourceLanguage: "en", Source: syncTexts["en"]}, msgs)
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
	data, err := encodeAll(nil, "en", syncTexts)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Localizable.xcstrings"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	pushPull(t, formats.XCStrings{}, dir)
}

// A tree of two formats is refused when the format is detected.
func TestDetectFormatRefusesMixedTrees(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{"en.po": "", "de.arb": "{}", "fr/messages.po": ""})
	_, err := formats.DetectFormat(dir, formats.All())
	if err == nil || !strings.Contains(err.Error(), "mixes locale formats (de.arb, en.po)") {
		t.Fatalf("error %v; want the two formats named", err)
	}
	dir = loctest.Tree(t, map[string]string{"de/messages.gotext.json": "{}", "en/messages.gotext.json": "{}"})
	got, err := formats.DetectFormat(dir, formats.All())
	if err != nil || got != (formats.GoText{}) {
		t.Fatalf("got %v, %v; want GoText (the longest extension)", got, err)
	}
}

// fake is a partnertest server with a project and a client of a grant
// that can use it (as in package locales' tests).
type fake struct {
	srv     *partnertest.Server
	c       *partner.Client
	project string // "org/web"
	id      string // the project's id
}

// newFake starts a fake service with project "web" (source en, targets
// de, fr and pt-BR) and a client for it (see loctest.NewFake).
func newFake(t testing.TB, opts ...partnertest.Option) *fake {
	t.Helper()
	l := loctest.NewFake(t, opts...)
	return &fake{srv: l.Srv, c: l.C, project: l.Project, id: l.ID}
}
