package locales

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// setUntranslated sets a text that the file marks not translated yet, as
// Load does for a Message with Untranslated.
func setUntranslated(c *Catalog, lang, ns, key, s string) {
	c.Set(lang, ns, key, s)
	n := c.nsTexts(lang, cmpOr(ns, keys.DefaultNamespace), false)
	t := n.texts[key]
	t.untranslated = true
	n.texts[key] = t
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// writeTools returns the write tool calls the fake served since mark.
func writeTools(l *loctest.Fake, mark int) []string {
	var out []string
	for _, r := range l.Srv.Requests()[mark:] {
		switch r.Tool {
		case "createKeys", "updateKeys", "setTranslations", "deleteKeys", "publishTranslations":
			out = append(out, r.Tool)
		}
	}
	return out
}

// countOf returns the plan's or report's count of lang and ns.
func countOf(counts []Count, lang, ns string) Count {
	for _, c := range counts {
		if c.Language == lang && c.Namespace == ns {
			return c
		}
	}
	return Count{}
}

// A text the file marks untranslated is never sent: not as a
// translation of a new key or a key the project has, and not as the
// source text of a new key (that key is skipped, saying why). The plan
// and the report count them, and a second push of the same tree writes
// nothing.
func TestPushNeverSendsUntranslated(t *testing.T) {
	ctx := context.Background()
	l := loctest.NewFake(t)
	cat := &Catalog{}
	cat.Set("en", "", "a", "A")
	cat.Set("en", "", "b", "B")
	setUntranslated(cat, "en", "", "later", "") // Rails' `later:` with no value
	setUntranslated(cat, "de", "", "a", "A")    // Xcode's "new": an English copy
	cat.Set("de", "", "b", "Bee")
	cat.Set("de", "", "later", "Später") // a translation of a key not created
	setUntranslated(cat, "fr", "", "b", "B")
	cat.Set("fr", "", "a", "Ah")

	plan, err := NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []keys.NewKey{
		{Namespace: "default", Name: "a", SourceText: "A", Translations: map[string]string{"fr": "Ah"}},
		{Namespace: "default", Name: "b", SourceText: "B", Translations: map[string]string{"de": "Bee"}},
	}
	if diff := cmp.Diff(want, plan.Create); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	if len(plan.Skipped) != 1 || plan.Skipped[0].Key != "later" || !strings.Contains(plan.Skipped[0].Reason, "untranslated in the file") ||
		!slices.Equal(plan.Skipped[0].Languages, []string{"de", "en"}) {
		t.Errorf("skipped %+v, want key later, untranslated in the file, de and en", plan.Skipped)
	}
	for _, tc := range []struct {
		lang                  string
		untranslated, skipped int
	}{{"en", 1, 0}, {"de", 1, 1}, {"fr", 1, 0}} {
		c := countOf(plan.Counts, tc.lang, "default")
		if c.Untranslated != tc.untranslated || c.Skipped != tc.skipped {
			t.Errorf("plan's count of %s: %+v, want %d untranslated, %d skipped", tc.lang, c, tc.untranslated, tc.skipped)
		}
	}
	b, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"untranslated":1`) {
		t.Errorf("plan's JSON %s does not count the untranslated texts", b)
	}
	rep, err := plan.Apply(ctx, l.C, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c := countOf(rep.Counts, "de", "default"); c.Untranslated != 1 || c.Created != 1 {
		t.Errorf("report's count of de: %+v, want 1 created, 1 untranslated", c)
	}
	var listed []keys.Key
	for page, err := range l.C.Keys.Pages(ctx, l.Project, keys.ListOptions{Fields: []keys.Field{keys.FieldSourceText, keys.FieldTranslations}}) {
		if err != nil {
			t.Fatal(err)
		}
		listed = append(listed, page.Keys...)
	}
	got := map[string]map[string]string{}
	for _, k := range listed {
		got[k.Name] = k.Translations
	}
	if diff := cmp.Diff(map[string]map[string]string{"a": {"fr": "Ah"}, "b": {"de": "Bee"}}, got); diff != "" {
		t.Errorf("the service holds (-want +got):\n%s", diff)
	}

	// The same tree again: nothing to write, the untranslated texts
	// still counted. A source text marked untranslated does not
	// overwrite the project's either.
	setUntranslated(cat, "en", "", "a", "")
	mark := len(l.Srv.Requests())
	plan, err = NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Empty() {
		t.Errorf("second plan writes: create %+v, update %+v", plan.Create, plan.Update)
	}
	if c := countOf(plan.Counts, "en", "default"); c.Untranslated != 2 || c.Unchanged != 1 {
		t.Errorf("second plan's count of en: %+v, want 2 untranslated, 1 unchanged", c)
	}
	if _, err := plan.Apply(ctx, l.C, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := writeTools(l, mark); len(got) != 0 {
		t.Errorf("second push wrote with %v", got)
	}
}

// A translation marked untranslated does not replace the project's
// translation: a translator's tool would not publish it either.
func TestPushUntranslatedKeepsTheProjectsText(t *testing.T) {
	ctx := context.Background()
	l := loctest.NewFake(t)
	if _, err := l.C.Keys.Create(ctx, l.Project, []keys.NewKey{{Name: "a", SourceText: "A", Translations: map[string]string{"de": "Ah"}}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{}
	cat.Set("en", "", "a", "A")
	setUntranslated(cat, "de", "", "a", "A") // fuzzy, or state="new"
	plan, err := NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Empty() {
		t.Errorf("plan writes %+v", plan.Update)
	}
	if c := countOf(plan.Counts, "de", "default"); c.Untranslated != 1 {
		t.Errorf("count of de: %+v, want 1 untranslated", c)
	}
}
