package otel_test

import (
	"testing"
	"testing/synctest"

	"go.opentelemetry.io/otel/attribute"

	"github.com/locsvc/partner-go/locales"
)

// TestPushReportsItsCounts: a push of three new keys with a translation
// each is counted as planned and applied creates; the pull after it
// counts the texts it read.
func TestPushReportsItsCounts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		c := r.client(t)
		ctx := t.Context()
		project := r.g.Organizations[0].Slug + "/web"
		cat := &locales.Catalog{SourceLanguage: "en"}
		for _, k := range []struct{ key, en, de string }{{"home", "Home", "Startseite"}, {"title", "Welcome", "Willkommen"}, {"ok", "OK", "OK"}} {
			cat.Set("en", "default", k.key, k.en)
			cat.Set("de", "default", k.key, k.de)
		}
		plan, err := locales.NewPlan(ctx, c, project, cat, locales.PlanOptions{Hooks: r.hooks})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := plan.Apply(ctx, c, locales.ApplyOptions{Hooks: r.hooks}); err != nil {
			t.Fatal(err)
		}
		if _, err := locales.Pull(ctx, c, project, locales.PullOptions{Hooks: r.hooks}); err != nil {
			t.Fatal(err)
		}
		for _, w := range []struct {
			phase, action string
			want          int64
		}{{"planned", "create", 3}, {"applied", "create", 3}, {"applied", "fail", 0}, {"pulled", "text", 6}} {
			if n := r.sum(t, "partner.sync.items", attribute.String("partner.sync.phase", w.phase), attribute.String("partner.sync.action", w.action)); n != w.want {
				t.Errorf("partner.sync.items{%s, %s} = %d, want %d", w.phase, w.action, n, w.want)
			}
		}
	})
}
