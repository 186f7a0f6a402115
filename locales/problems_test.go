package locales_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// A tree with many problems gets them all in one error, each named,
// grouped by file in the order of the paths and by line within a file,
// whatever order the files were read in: a user fixes them in one go,
// and a second run shows them in the same order.
func TestInputErrorListsEveryProblemByFile(t *testing.T) {
	files := map[string]string{"en.json": `{"a": "x"}`}
	var b strings.Builder
	b.WriteString("{\n")
	for i := range 30 {
		fmt.Fprintf(&b, "  \"k%02d\": %d,\n", i, i) // a number: not a text
	}
	b.WriteString("  \"last\": \"x\"\n}\n")
	files["de.json"] = b.String()
	files["fr.json"] = "{\n  \"a\": 1,\n  \"b\": 2\n}\n"
	dir := loctest.Tree(t, files)

	var first string
	for run := range 3 {
		_, err := locales.Load(dir, locales.Layout{})
		var ie *locales.InputError
		if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
			t.Fatalf("Load: %v, want an *InputError matching ErrInvalidArgument", err)
		}
		if len(ie.Problems) != 32 {
			t.Fatalf("%d problems, want 32", len(ie.Problems))
		}
		msg := err.Error()
		if run == 0 {
			first = msg
		} else if msg != first {
			t.Errorf("run %d lists the problems otherwise:\n%s\nwant\n%s", run, msg, first)
		}
		for _, p := range ie.Problems {
			if !strings.Contains(msg, p.String()) {
				t.Errorf("error does not list %q", p)
			}
		}
		if strings.Contains(msg, "more") {
			t.Errorf("error cuts the list:\n%s", msg)
		}
		lines := strings.Split(msg, "\n")
		want := []string{"locales: 32 problems in 2 files, nothing written:", "de.json: 30 problems", "\tde.json:2: "}
		for i, w := range want {
			if !strings.HasPrefix(lines[i], w) {
				t.Errorf("line %d is %q, want it to start with %q", i, lines[i], w)
			}
		}
		if i := strings.Index(msg, "fr.json: 2 problems\n\tfr.json:2: "); i < 0 || i < strings.Index(msg, "de.json:31: ") {
			t.Errorf("fr.json's problems are not after de.json's, under a line of their own:\n%s", msg)
		}
	}
}

// Problems built in any order list in one: by file, line and key, then
// by language, namespace and message.
func TestInputErrorOrderIsStable(t *testing.T) {
	ps := []locales.Problem{
		{File: "b.json", Line: 2, Message: "z"},
		{File: "a.json", Line: 9, Key: "k", Message: "y"},
		{Message: "not in a file"},
		{File: "a.json", Line: 9, Key: "k", Message: "x"},
		{File: "a.json", Line: 1, Message: "w"},
	}
	want := "locales: 5 problems in 2 files, nothing written:\n\tnot in a file\na.json: 3 problems\n\ta.json:1: w\n\ta.json:9: x\n\ta.json:9: y\nb.json: 1 problem\n\tb.json:2: z"
	if got := (&locales.InputError{Problems: ps}).Error(); got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
}

// A plan reports the problems of the catalog and those it meets with
// the project's keys in one error, not one round after another.
func TestPlanReportsEveryProblemInOneRun(t *testing.T) {
	f := newFake(t)
	ctx := context.Background()
	if _, err := f.c.Keys.Create(ctx, f.project, []keysNewKey{{Name: "existing", SourceText: "E"}}, keysCreateOptions{}); err != nil {
		t.Fatal(err)
	}
	dir := loctest.Tree(t, map[string]string{
		"en.json": "{\n  \"existing\": {\"child\": \"x\"},\n  \"ok\": \"OK\"\n}\n",
		"it.json": `{"ok": "Bene"}`, // a language the project lacks
	})
	cat, err := locales.Load(dir, locales.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	mark := f.mark()
	_, err = locales.NewPlan(ctx, f.c, f.project, cat, locales.PlanOptions{})
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("NewPlan: %v, want an *InputError", err)
	}
	var files []string
	for _, p := range ie.Problems {
		files = append(files, p.File)
	}
	if !slices.Equal(files, []string{"en.json", "it.json"}) {
		t.Errorf("problems %+v, want the clash in en.json and the language of it.json", ie.Problems)
	}
	if got := f.writes(mark); len(got) != 0 {
		t.Errorf("wrote with %v", got)
	}
}
