// Package partnertest is an in-process fake of the localization service,
// for testing code that uses the partner API or receives its webhooks,
// the way net/http/httptest is for HTTP servers.
//
// NewServer starts two HTTP servers: the resource API at Server.URL (the
// spec's {base_url}) and the token endpoint at Server.AuthURL
// ({auth_url}). Point the code under test at them:
//
//	srv := partnertest.NewServer()
//	defer srv.Close()
//	g := srv.NewGrant() // a user connected the app: grant id and refresh token
//	// configure the client with srv.URL, srv.AuthURL, srv.ClientID(),
//	// srv.ClientSecret(), g.ID and g.RefreshToken
//
// The server is as strict as the real service: it checks methods and
// paths, Content-Type, the token endpoint's form fields and client
// credentials (in the form body only), which kind of token each endpoint
// takes (an installation token for endpoints 2 to 6, the grant's own
// access token for endpoint 8, either for endpoint 1), each grant's scopes,
// token expiry, grant revocation, and the uniqueness of project slugs per
// organization. Every error answer is a JSON body {"error": code,
// "message": text}: invalid_token and token_expired (401), grant_revoked
// (410), missing_scope with "required" (403), invalid_client (401) and
// invalid_grant (400) at the token endpoint, unsupported_media_type (415),
// invalid_request (400), conflict (409), not_found (404) and
// method_not_allowed (405).
//
// # Time
//
// Access tokens live AccessTokenLifetime (30 minutes) and installation
// tokens InstallationTokenLifetime (1 hour) on the server's clock,
// Server.Now. To expire tokens without waiting, either call Server.Advance,
// which moves the server's clock only, or run the test in a testing/synctest
// bubble with WithInMemoryNetwork and Server.Client, so that time.Sleep
// moves the client's and the server's fake clocks together. (A server on
// real loopback sockets keeps a bubble's clock from advancing: goroutines
// waiting on a socket are not durably blocked.)
//
// # Test helpers
//
// NewGrant, Revoke and SetScopes manage grants; AddOrganization and
// AddProject set up state; Project and Projects read it back. InjectFault
// makes the next matching requests fail (a status with an optional
// Retry-After, a delay, a hang, a dropped connection or a truncated body).
// Requests returns the request log, and Counts and GrantCounts the number of
// refreshes and installation-token mints.
//
// # Webhooks
//
// AddWebhook configures an endpoint and returns its secret, once.
// Deliver sends an event to it as the service does: a JSON envelope,
// signed with webhook.Sign, with the X-Service-* headers and a
// DeliveryTimeout; Redeliver resends an earlier event with the same id and
// body, RotateSecret replaces the secret, and Deliveries returns the
// delivery log. SignedAt and SignedWith make stale or forged deliveries, to
// test a receiver's refusals.
//
// A Server is safe for concurrent use by many goroutines.
package partnertest
