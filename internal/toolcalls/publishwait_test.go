package toolcalls_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/translations"
)

// TestPublishAndWaitGivesUp: a service that keeps answering with its
// cooldown is asked five times, each after the wait it names, and then
// the cooldown's error is returned; any other failure is returned at once.
func TestPublishAndWaitGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var at []time.Duration
		start := time.Now()
		c := callerFunc(func(ctx context.Context, tool string, args any) ([]byte, error) {
			at = append(at, time.Since(start))
			return nil, apierr.FromToolText(tool, "TOO_MANY_REQUESTS: please wait 12 seconds", redact.Secrets{})
		})
		_, err := toolcalls.PublishAndWait(t.Context(), c, "acme/web", translations.PublishOptions{})
		if !errors.Is(err, apierr.ErrTemporary) {
			t.Errorf("err = %v, want the cooldown (ErrTemporary)", err)
		}
		want := []time.Duration{0, 12 * time.Second, 24 * time.Second, 36 * time.Second, 48 * time.Second}
		if len(at) != len(want) {
			t.Fatalf("published at %v, want %v", at, want)
		}
		for i := range want {
			if at[i] != want[i] {
				t.Errorf("publish %d at %v, want %v", i, at[i], want[i])
			}
		}
	})

	n := 0
	c := callerFunc(func(ctx context.Context, tool string, args any) ([]byte, error) {
		n++
		return nil, apierr.FromToolText(tool, "NOT_FOUND: no such project", redact.Secrets{})
	})
	if _, err := toolcalls.PublishAndWait(t.Context(), c, "acme/web", translations.PublishOptions{}); err == nil || n != 1 {
		t.Errorf("another failure: %d publishes, err %v; want 1 and the error", n, err)
	}
}
