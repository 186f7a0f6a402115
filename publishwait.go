package partner

import (
	"context"

	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/translations"
)

// PublishAndWait publishes the pending changes, all of them or opt's
// selection, as Publish does, and waits
// until they are shipped: a publish within the service's cooldown is sent
// again after the wait the service names (RetryAfter, or
// translations.PublishCooldown), up to four times, then each of the
// publish's sync jobs is waited for as WaitSync does, in order. A job that
// failed or was cancelled is in the result (see
// translations.PublishWaitResult.Failed), not an error.
//
// Use Publish to publish and return at once (the cooldown then comes back
// as an error to handle), PublishAndWait to know the files are out. It
// can take a while: the cooldown is 30 s, and each job runs for as long
// as the service takes to ship it; bound it with ctx. When ctx ends
// during the cooldown nothing was published; when it ends or a call fails
// while waiting for the jobs, the publish went through: the error comes
// with the result so far.
func (s *TranslationsService) PublishAndWait(ctx context.Context, project string, opt translations.PublishOptions) (*translations.PublishWaitResult, error) {
	return toolcalls.PublishAndWait(ctx, caller{s.c, TranslationTools}, project, opt)
}
