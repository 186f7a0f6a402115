package partner_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// publishable creates a key with a translation in r's project, so that a
// publish has something to ship.
func publishable(t *testing.T, r *rig, name string) {
	t.Helper()
	if _, err := r.c.Keys.Create(t.Context(), r.project, []keys.NewKey{{Name: name, SourceText: "Home", Translations: map[string]string{"de": "Startseite"}}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestPublishAndWaitWaitsOutTheCooldown: a publish within the cooldown is
// sent again once the wait the service gives has passed, and the result
// comes with the sync jobs ended.
func TestPublishAndWaitWaitsOutTheCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		publishable(t, r, "a")
		if _, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{}); err != nil {
			t.Fatal(err)
		}
		publishable(t, r, "b")
		start := time.Now()
		res, err := r.c.Translations.PublishAndWait(ctx, r.project, translations.PublishOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// The fake names no wait ("try again in N seconds" is not read):
		// the SDK waits the whole cooldown, then the job's run.
		if took, want := time.Since(start), translations.PublishCooldown+partnertest.SyncPendingTime+partnertest.SyncRunTime; took < want {
			t.Errorf("PublishAndWait returned after %v, before the cooldown and the job could end (%v)", took, want)
		}
		if n := r.srv.MCPCounts().ToolCalls["publishTranslations"]; n != 3 {
			t.Errorf("publishTranslations called %d times, want 3 (the first publish, one refused, one accepted)", n)
		}
		if res.Published != 1 || len(res.SyncIDs) != 1 || len(res.Syncs) != 1 || res.Syncs[0].ID != res.SyncIDs[0] {
			t.Fatalf("published %d, jobs %v, waited for %d: want b's text published by one job, waited for", res.Published, res.SyncIDs, len(res.Syncs))
		}
		if res.Syncs[0].Status != translations.SyncCompleted || res.Failed() != nil {
			t.Errorf("job %s, failed %d: want the one job completed", res.Syncs[0].Status, len(res.Failed()))
		}
	})
}

// TestPublishAndWaitWaitsForTheSyncJobs: without a cooldown it publishes
// once and returns when the job has ended, not before.
func TestPublishAndWaitWaitsForTheSyncJobs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		publishable(t, r, "a")
		start := time.Now()
		res, err := r.c.Translations.PublishAndWait(t.Context(), r.project, translations.PublishOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took < partnertest.SyncPendingTime+partnertest.SyncRunTime {
			t.Errorf("returned after %v, before the job could end", took)
		}
		if len(res.Syncs) != 1 || !res.Syncs[0].Status.Done() {
			t.Errorf("%d jobs waited for, want one ended", len(res.Syncs))
		}
		if n := r.srv.MCPCounts().ToolCalls["publishTranslations"]; n != 1 {
			t.Errorf("publishTranslations called %d times, want 1", n)
		}
	})
}

// TestPublishAndWaitStopsWithTheContext: a context that ends during the
// cooldown ends the wait; nothing more is published.
func TestPublishAndWaitStopsWithTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		publishable(t, r, "a")
		if _, err := r.c.Translations.Publish(t.Context(), r.project, translations.PublishOptions{}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), translations.PublishCooldown/2)
		defer cancel()
		res, err := r.c.Translations.PublishAndWait(ctx, r.project, translations.PublishOptions{})
		if !errors.Is(err, context.DeadlineExceeded) || res != nil {
			t.Errorf("PublishAndWait = %v, %v; want context.DeadlineExceeded and no result", res != nil, err)
		}
		if n := r.srv.MCPCounts().ToolCalls["publishTranslations"]; n != 2 {
			t.Errorf("publishTranslations called %d times, want 2 (no publish after the cancel)", n)
		}
	})
}
