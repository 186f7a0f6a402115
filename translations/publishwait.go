package translations

import "github.com/locsvc/partner-go/internal/apierr"

// PublishCooldown is the service's wait between two publishes of one
// project: a publish sooner fails with its TOO_MANY_REQUESTS error. The
// SDK waits this long when the error names no wait.
const PublishCooldown = apierr.PublishCooldown

// PublishWaitResult is what PublishAndWait reports: the publish, and its
// sync jobs as they ended.
type PublishWaitResult struct {
	PublishResult        // what the publish reported
	Syncs         []Sync // the jobs of SyncIDs, in that order, in their final state
}

// Failed returns the sync jobs that did not complete (failed or
// cancelled), in order; nil when every one completed.
func (r *PublishWaitResult) Failed() []Sync {
	var out []Sync
	for _, s := range r.Syncs {
		if s.Status != SyncCompleted {
			out = append(out, s)
		}
	}
	return out
}
