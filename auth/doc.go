// Package auth keeps a grant's tokens valid so that callers never handle
// them: an AccessSource refreshes the 30-minute access token with the
// refresh token (through golang.org/x/oauth2), an InstallationSource mints
// and caches the one-hour installation token, and a Store persists the
// refresh token across restarts.
//
// Both sources are safe for concurrent use and run one refresh or mint at a
// time however many goroutines ask, on a context detached from the callers'
// (each caller can still give up on its own context). Failures that no
// retry can fix are sticky: the source stops calling the service and keeps
// returning an error matching partner.ErrReauthorizationRequired until it
// is given a new token.
//
// Most applications never use this package directly: partner.NewClient and
// partner.NewPool wire it. Implement Store to keep tokens in the
// application's own database.
package auth
