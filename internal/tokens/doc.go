// Package tokens keeps a grant's tokens valid so that callers never handle
// them: an AccessSource refreshes the 30-minute access token with the
// refresh token (through golang.org/x/oauth2), and an InstallationSource
// mints and caches the one-hour installation token. Package partner wires
// them; users never see them.
//
// Both sources are safe for concurrent use and run one refresh or mint at a
// time however many goroutines ask, on a context detached from the callers'
// (each caller can still give up on its own context).
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
