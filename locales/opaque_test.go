package locales

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// markOpaque marks namespace ns of every language as read from a format
// whose keys are identifiers, as Load does for a Format with OpaqueKeys.
func markOpaque(c *Catalog, ns string) {
	for _, l := range c.langs {
		if n := l.ns[ns]; n != nil {
			n.opaque = true
		}
	}
}

// identifierKeys is a catalog whose keys are ordinary identifiers in
// .strings, .xcstrings, PO or .properties files, and a text and a parent
// by the dotted-path rule.
func identifierKeys() *Catalog {
	cat := &Catalog{}
	for key, s := range map[string]string{
		"button.remove":        "Remove",
		"button.remove.cancel": "Cancel removal",
		"telephone.invalid":    "Invalid number",
		"Downloading...":       "Downloading...",
	} {
		cat.Set("en", "Localizable", key, s)
	}
	cat.Set("de", "Localizable", "button.remove", "Entfernen")
	return cat
}

// Keys of a namespace whose keys are identifiers are taken whole: the
// plan does not refuse a key that is a text and a parent, in the files
// or with the project's keys, and the push creates them with force, so
// that the service (whose createKeys refuses such a batch without
// force) takes them.
func TestPushOpaqueKeysWithForce(t *testing.T) {
	ctx := context.Background()
	l := loctest.NewFake(t)
	if _, err := l.C.Keys.Create(ctx, l.Project, []keys.NewKey{{Namespace: "Localizable", Name: "telephone", SourceText: "Telephone"}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// Not marked: the dotted-path rule refuses the tree.
	_, err := NewPlan(ctx, l.C, l.Project, identifierKeys(), PlanOptions{})
	var ie *InputError
	if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
		t.Fatalf("plan of nested keys: %v, want an *InputError", err)
	}

	cat := identifierKeys()
	markOpaque(cat, "Localizable")
	plan, err := NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(plan.Opaque, []string{"Localizable"}) {
		t.Errorf("plan.Opaque = %v, want [Localizable]", plan.Opaque)
	}
	if len(plan.Create) != 4 {
		t.Errorf("plan creates %+v, want 4 keys", plan.Create)
	}
	rep, err := plan.Apply(ctx, l.C, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Created) != 4 || len(rep.Skipped) != 0 {
		t.Errorf("created %+v, skipped %+v, want the 4 keys created", rep.Created, rep.Skipped)
	}
	got := map[string]string{}
	for page, err := range l.C.Keys.Pages(ctx, l.Project, keys.ListOptions{Fields: []keys.Field{keys.FieldSourceText}}) {
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range page.Keys {
			got[k.Name] = k.SourceText
		}
	}
	want := map[string]string{"telephone": "Telephone", "telephone.invalid": "Invalid number", "button.remove": "Remove",
		"button.remove.cancel": "Cancel removal", "Downloading...": "Downloading..."}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the service holds (-want +got):\n%s", diff)
	}

	// A second push writes nothing.
	mark := len(l.Srv.Requests())
	plan, err = NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Apply(ctx, l.C, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := writeTools(l, mark); len(got) != 0 {
		t.Errorf("second push wrote with %v", got)
	}
}

// forcing is a prepared remote that keeps each createKeys call's keys
// and options.
type forcing struct {
	prepared
	calls []forced
}

type forced struct {
	names []string
	force bool
}

func (r *forcing) createKeys(ctx context.Context, p string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	r.mu.Lock()
	var names []string
	for _, k := range ks {
		names = append(names, k.Namespace+":"+k.Name)
	}
	r.calls = append(r.calls, forced{names, opt.Force})
	r.mu.Unlock()
	return r.prepared.createKeys(ctx, p, ks, opt)
}

// Force is set on the calls of opaque namespaces only: the keys of a
// nested namespace keep the service's leaf-and-parent rule.
func TestApplyForcesOpaqueNamespacesOnly(t *testing.T) {
	ctx := context.Background()
	cat := &Catalog{}
	cat.Set("en", "Localizable", "a", "A")
	cat.Set("en", "Localizable", "a.b", "AB")
	cat.Set("en", "web", "nav.home", "Home")
	markOpaque(cat, "Localizable")
	r := &forcing{}
	r.calls = nil
	r.prepared.calls = map[string]int{}
	plan, err := newPlan(ctx, r, "acme/web", cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.apply(ctx, r, ApplyOptions{Concurrency: 1}); err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(r.calls, func(a, b forced) int {
		if a.force == b.force {
			return 0
		}
		if a.force {
			return 1
		}
		return -1
	})
	want := []forced{{[]string{"web:nav.home"}, false}, {[]string{"Localizable:a", "Localizable:a.b"}, true}}
	if diff := cmp.Diff(want, r.calls, cmp.AllowUnexported(forced{})); diff != "" {
		t.Errorf("createKeys calls (-want +got):\n%s", diff)
	}
}

// A project whose keys are identifiers is served on the CDN as the
// service nests them: "Try again." is {"Try again": {"": …}}, and in a
// single file another namespace's key is "ns:key". A pull from the CDN
// reads every such key back whole: an empty level joins back to the
// trailing dot, and a default-namespace key holding a colon ("%s: done")
// stays in the default namespace, since no namespace of the project is
// named "%s".
func TestPullCDNOpaqueKeys(t *testing.T) {
	ctx := context.Background()
	l := loctest.NewFake(t)
	cat := &Catalog{}
	for ns, texts := range map[string]map[string]string{
		"default": {"Try again.": "Try again.", "%s: done": "%s: done", "a": "A", "a.b": "A B"},
		"Sparkle": {"Update now.": "Update now.", "5.title": "Title"},
	} {
		for k, s := range texts {
			cat.Set("en", ns, k, s)
			cat.Set("de", ns, k, "de "+s)
		}
	}
	markOpaque(cat, "default")
	markOpaque(cat, "Sparkle")
	plan, err := NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Apply(ctx, l.C, ApplyOptions{Publish: true}); err != nil {
		t.Fatal(err)
	}
	pulled, err := Pull(ctx, l.C, l.Project, PullOptions{FromCDN: true})
	if err != nil {
		t.Fatal(err)
	}
	want, got := map[string]string{}, map[string]string{}
	for m := range cat.All() {
		want[m.Language+" "+m.Namespace+" "+m.Key] = m.Text
	}
	for m := range pulled.All() {
		got[m.Language+" "+m.Namespace+" "+m.Key] = m.Text
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pulled from the CDN (-pushed +pulled):\n%s", diff)
	}
}

// Texts pushed before a format's escapes were read (Android's \' and
// &amp; went to the service as the file spelled them) read as changed
// once; the plan says the change is only the escapes, so nobody takes it
// for an edit.
func TestPlanReportsEscapingChanges(t *testing.T) {
	for _, tc := range []struct {
		old, s string
		want   bool
	}{
		{`Don\'t stop`, "Don't stop", true},
		{`Tom &amp; Jerry`, "Tom & Jerry", true},
		{`Line 1\nLine 2 \u00e9`, "Line 1\nLine 2 é", true},
		{`\"Quoted\"`, `"Quoted"`, true},
		{"Don't stop", "Don't stop", false},
		{`Don\'t stop`, "Do not stop", false},
		{`\u00`, "\u0000", false},
		{"plain", "other", false},
	} {
		if got := onlyEscapes(tc.old, tc.s); got != tc.want {
			t.Errorf("onlyEscapes(%q, %q) = %v, want %v", tc.old, tc.s, got, tc.want)
		}
	}

	ctx := context.Background()
	l := loctest.NewFake(t)
	if _, err := l.C.Keys.Create(ctx, l.Project, []keys.NewKey{
		{Name: "stop", SourceText: `Don\'t stop`, Translations: map[string]string{"de": `Nicht aufhören`}},
		{Name: "edited", SourceText: "Old text"},
	}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cat := &Catalog{}
	cat.Set("en", "", "stop", "Don't stop")
	cat.Set("de", "", "stop", "Nicht aufhören")
	cat.Set("en", "", "edited", "New text")
	plan, err := NewPlan(ctx, l.C, l.Project, cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, u := range plan.Update {
		got[u.Key] = u.Unescaped
	}
	if want := map[string]bool{"stop": true, "edited": false}; !cmp.Equal(got, want) {
		t.Errorf("updates' Unescaped %v, want %v", got, want)
	}
	unescaped := 0
	for _, c := range plan.Counts {
		unescaped += c.Unescaped
	}
	if unescaped != 1 {
		t.Errorf("counts say %d unescaped texts, want 1: %+v", unescaped, plan.Counts)
	}
}
