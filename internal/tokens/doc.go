// Package tokens keeps a grant's tokens valid: an AccessSource refreshes
// the access token with the refresh token (through golang.org/x/oauth2),
// and an InstallationSource mints and caches the installation token. Both
// run one refresh or mint at a time however many goroutines ask, on a
// context detached from the callers': a caller whose context ends gets its
// error, and the work carries on. A token due ahead (see aheadShare) is
// returned at once and replaced in the background.
//
// Failures are classified once, here and in the transport:
//   - the grant is gone (invalid_grant, grant_revoked, grant_not_found):
//     final. Before it is believed, the Store is read once more, and a
//     newer refresh token there (the user reconnected, another holder
//     refreshed) is used instead. While final, every call reads the Store
//     again, so a reconnect saved by the application heals the grant
//     without a request to the service.
//   - the application is misconfigured (ErrConfiguration): held for
//     ConfigurationHold without a request, then asked again.
//   - anything else (network, 429, 5xx, an answer that cannot be read):
//     this call fails, the next one tries again.
package tokens
