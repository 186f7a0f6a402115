package locales_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// Each bad input is refused before any write, naming the file (and the
// line and key where there is one); nothing reaches the service.
func TestBadInputRefusedBeforeAnyWrite(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		file  string // the file named
		line  int
		key   string
		msg   string
	}{
		{"malformed", map[string]string{"en.json": "{\n  \"a\": \"x\"\n  \"b\": \"y\"\n}\n", "de.json": `{"a": "y"}`}, "en.json", 3, "", "malformed JSON"},
		{"duplicate key", map[string]string{"en.json": "{\n  \"a\": \"x\",\n  \"a\": \"y\"\n}\n"}, "en.json", 3, "a", "duplicate key"},
		{"empty key", map[string]string{"en/default.json": "{\n  \"\": \"x\"\n}\n"}, "en/default.json", 2, "", "empty key"},
		{"not a text", map[string]string{"en.json": "{\n  \"n\": 3\n}\n"}, "en.json", 2, "n", "is a number"},
		{"text and parent", map[string]string{"en.json": "{\n  \"a\": \"x\",\n  \"a.b\": \"y\"\n}\n"}, "en.json", 3, "a.b", "both a text and a parent"},
		{"language the project lacks", map[string]string{"en.json": `{"a": "x"}`, "it.json": `{"a": "y"}`}, "it.json", 0, "", "has no language \"it\""},
		{"not a language", map[string]string{"en.json": `{"a": "x"}`, "translations v2.json": `{"a": "y"}`}, "translations v2.json", 0, "", "not a language code"},
		{"language spelled twice", map[string]string{"en.json": `{"a": "x"}`, "pt-BR.json": `{"a": "y"}`, "pt-br.json": `{"a": "z"}`}, "pt-br.json", 0, "", "also spelled"},
		{"mixed layouts", map[string]string{"en.json": `{"a": "x"}`, "de/default.json": `{"a": "y"}`}, "en.json", 0, "", "mixes single files"},
		{"clash with the project", map[string]string{"en.json": `{"existing": {"child": "x"}}`}, "en.json", 1, "existing.child", "both a text and a parent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			if _, err := f.c.Keys.Create(context.Background(), f.project, []keysNewKey{{Name: "existing", SourceText: "E"}}, keysCreateOptions{}); err != nil {
				t.Fatal(err)
			}
			dir := loctest.Tree(t, tt.files)
			mark := f.mark()
			cat, err := locales.Load(dir, locales.Layout{})
			var plan *locales.Plan
			if err == nil {
				plan, err = locales.NewPlan(context.Background(), f.c, f.project, cat, locales.PlanOptions{})
			}
			if plan != nil {
				t.Fatalf("planned %+v, want an error", plan)
			}
			var ie *locales.InputError
			if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			found := false
			for _, p := range ie.Problems {
				if p.File == tt.file && p.Line == tt.line && p.Key == tt.key && strings.Contains(p.Message, tt.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("problems %+v, want one in %s line %d key %q saying %q", ie.Problems, tt.file, tt.line, tt.key, tt.msg)
			}
			if !strings.Contains(err.Error(), tt.file) {
				t.Errorf("error %q does not name %s", err, tt.file)
			}
			if got := f.writes(mark); len(got) != 0 {
				t.Errorf("wrote with %v", got)
			}
		})
	}
}

// Every problem of a tree is reported at once, sorted by file and line.
func TestLoadReportsEveryProblem(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{
		"en.json": "{\n  \"a\": 1,\n  \"b\": \"x\",\n  \"b\": \"y\"\n}\n",
		"de.json": "{\n  \"a\": \"x\"\n",
	})
	_, err := locales.Load(dir, locales.Layout{})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ie.Problems {
		got = append(got, p.String())
	}
	want := []string{
		"de.json:2: malformed JSON: the file ends early",
		`en.json:2: the value of "a" is a number; want a string or an object`,
		`en.json:4: duplicate key "b" in one object`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A namespace in a subfolder of a language's folder is not read, so it
// is refused rather than passed over (a push would leave its texts out).
func TestLoadRefusesNamespacesInSubfolders(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{
		"en/common.json":        "{\n  \"a\": \"A\"\n}\n",
		"en/layout/header.json": "{\n  \"b\": \"B\"\n}\n",
		"en/img/logo.svg":       "<svg/>\n",
	})
	_, err := locales.Load(dir, locales.Layout{})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("Load: %v, want an *InputError", err)
	}
	if len(ie.Problems) != 1 || ie.Problems[0].File != "en/layout/header.json" {
		t.Errorf("problems %v, want one naming en/layout/header.json", ie.Problems)
	}
}

// Deleting needs an explicit option, and more than a tenth of the keys
// needs a second one.
func TestDeleteGuard(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	dir := loctest.Tree(t, map[string]string{"en.json": `{"a": "A", "b": "B", "c": "C"}`})
	f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{})
	dir = loctest.Tree(t, map[string]string{"en.json": `{"a": "A", "b": "B"}`})
	cat, err := locales.Load(dir, locales.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := locales.NewPlan(ctx, f.c, f.project, cat, locales.PlanOptions{})
	if err != nil || !plan.Empty() {
		t.Fatalf("without Delete: %+v, %v; want nothing to do", plan, err)
	}
	mark := f.mark()
	if _, err := locales.NewPlan(ctx, f.c, f.project, cat, locales.PlanOptions{Delete: true}); !errors.Is(err, locales.ErrMassDelete) {
		t.Fatalf("deleting 1 of 3 keys: %v, want ErrMassDelete", err)
	}
	if got := f.writes(mark); len(got) != 0 {
		t.Errorf("wrote with %v", got)
	}
	_, rep := f.push(t, dir, locales.PlanOptions{Delete: true, AllowMassDelete: true}, locales.ApplyOptions{})
	if len(rep.Deleted) != 1 || rep.Deleted[0].Key != "c" {
		t.Errorf("deleted %+v, want c", rep.Deleted)
	}
}
