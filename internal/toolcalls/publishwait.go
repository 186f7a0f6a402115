package toolcalls

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/translations"
)

// maxCooldownWaits is how many of the service's publish cooldowns
// PublishAndWait waits out before it returns the cooldown's error: more
// means another client keeps publishing the project.
const maxCooldownWaits = 4

// PublishAndWait publishes as Publish does, waiting out the cooldown the
// service names (at most maxCooldownWaits times), then waits for each of
// the publish's sync jobs to end, in order, with WaitSync. Once the
// publish went through, an error comes with the result so far.
func PublishAndWait(ctx context.Context, c Caller, project string, opt translations.PublishOptions) (*translations.PublishWaitResult, error) {
	var pub *translations.PublishResult
	for waits := 0; ; waits++ {
		var err error
		pub, err = Publish(ctx, c, project, opt)
		var te *apierr.ToolError
		if err == nil || !errors.As(err, &te) || te.Kind != apierr.ToolTooManyRequests || waits == maxCooldownWaits {
			if err != nil {
				return nil, err
			}
			break
		}
		// apierr.FromToolText sets RetryAfter for every ToolTooManyRequests:
		// the wait the service gave, or else PublishCooldown.
		t := time.NewTimer(te.RetryAfter)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("partner: waiting out the publish cooldown of %s: %w", project, context.Cause(ctx))
		}
	}
	res := &translations.PublishWaitResult{PublishResult: *pub, Syncs: make([]translations.Sync, 0, len(pub.SyncIDs))}
	for _, id := range pub.SyncIDs {
		s, err := WaitSync(ctx, c, id)
		if err != nil {
			return res, fmt.Errorf("partner: published %s; waiting for sync job %s: %w", project, id, err)
		}
		res.Syncs = append(res.Syncs, *s)
	}
	return res, nil
}
