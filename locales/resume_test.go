package locales_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/partnertest"
)

// A push that fails mid-way reports, per key, what it wrote and what it
// did not; the next push writes the rest, and only the rest.
func TestInterruptedPushCompletes(t *testing.T) {
	tests := []struct {
		name   string
		fault  partnertest.Fault
		reason string // in the failed items' reasons
		next   []string
	}{
		{"a write refused", partnertest.Fault{Tool: "setTranslations", ToolError: "Internal error"}, "Internal error", []string{"setTranslations"}},
		// The call ran but its answer was lost: the SDK does not send it
		// again, and the next plan finds it done.
		{"an answer lost", partnertest.Fault{Tool: "setTranslations", Truncate: true}, "not confirmed", nil},
		{"a create refused", partnertest.Fault{Tool: "createKeys", ToolError: "Internal error"}, "Internal error", []string{"createKeys", "setTranslations"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFake(t)
			ctx := context.Background()
			f.push(t, loctest.Tree(t, map[string]string{"en.json": `{"a": "A", "b": "B"}`, "de.json": `{"a": "A-de"}`}), locales.PlanOptions{}, locales.ApplyOptions{})

			dir := loctest.Tree(t, map[string]string{"en.json": `{"a": "A", "b": "B", "c": "C"}`, "de.json": `{"a": "A2-de", "b": "B-de", "c": "C-de"}`})
			cat, err := locales.Load(dir, locales.Layout{})
			if err != nil {
				t.Fatal(err)
			}
			plan, err := locales.NewPlan(ctx, f.c, f.project, cat, locales.PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			f.srv.InjectFault(tt.fault)
			rep, err := plan.Apply(ctx, f.c, locales.ApplyOptions{Concurrency: 1})
			if err == nil {
				t.Fatal("Apply succeeded through a fault")
			}
			if rep == nil {
				t.Fatal("no report")
			}
			// What an answer never confirmed is not confirmed, not failed.
			notWritten := rep.Failed
			if tt.reason == "not confirmed" {
				notWritten = rep.NotConfirmed
			}
			if len(notWritten) == 0 {
				t.Fatalf("report %+v lists nothing failed or not confirmed", rep)
			}
			for _, it := range notWritten {
				if !strings.Contains(it.Reason, tt.reason) && !strings.Contains(it.Reason, "not sent") {
					t.Errorf("failed %+v: reason without %q", it, tt.reason)
				}
			}
			if tt.fault.Tool == "setTranslations" {
				if want := []locales.Item{{Namespace: "default", Key: "c", ID: rep.Created[0].ID, Languages: []string{"en", "de"}}}; !cmp.Equal(want, rep.Created) {
					t.Errorf("created %+v, want %+v", rep.Created, want)
				}
				var failed []string
				for _, it := range notWritten {
					failed = append(failed, it.Key+":"+strings.Join(it.Languages, ","))
				}
				if want := []string{"a:de", "b:de"}; !slices.Equal(failed, want) {
					t.Errorf("failed %v, want %v", failed, want)
				}
			}
			if tt.reason == "not confirmed" && !errors.Is(err, partner.ErrTemporary) {
				t.Errorf("err = %v, want ErrTemporary", err)
			}

			mark := f.mark()
			f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{})
			if got := f.writes(mark); !slices.Equal(got, tt.next) {
				t.Errorf("the next push wrote with %v, want %v", got, tt.next)
			}
			pulled, err := locales.Pull(ctx, f.c, f.project, locales.PullOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if err := pulled.Write(out, cat.Layout); err != nil {
				t.Fatal(err)
			}
			want := t.TempDir()
			if err := cat.Write(want, cat.Layout); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(loctest.ReadTree(t, want), loctest.ReadTree(t, out)); diff != "" {
				t.Errorf("after the next push the project differs (-tree +project):\n%s", diff)
			}
		})
	}
}
