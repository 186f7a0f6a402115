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
// paths, Content-Type, JSON bodies (one object and nothing after it), the
// token endpoint's form fields and client credentials (in the form body
// only), which kind of token each endpoint takes (an installation token for
// endpoints 2 to 6, the grant's own access token for endpoint 8, either for
// endpoint 1), token expiry, grant revocation, the organization of each
// resource, and the uniqueness of project slugs per organization. Endpoint
// 8 answers with the fields the service documents (installation_token,
// token_type, expires_at, expires_in, organization_id, project_ids and the
// token's scopes).
//
// Every error answer is a JSON body {"error": code, "message": text}, with
// the codes of the service's documentation:
//
//	400 invalid_request       a malformed parameter or body
//	401 invalid_token         no token, an unknown, expired or wrong-kind token
//	403 missing_scope         the token lacks a scope; "required" names it
//	403 wrong_organization    the resource is in an organization the grant does not cover
//	404 grant_not_found       endpoint 8 for a grant its access token does not belong to
//	410 grant_revoked         the user revoked the grant
//	429 rate_limited          over WithRateLimit's cap, with Retry-After
//	400 invalid_grant         (token endpoint) a refresh token unknown, replaced or revoked
//	401 invalid_client        (token endpoint) wrong client credentials
//
// and unsupported_media_type (415), conflict (409), not_found (404) and
// method_not_allowed (405).
//
// # Scopes
//
// The scope names are the service's (ScopeOrgRead and so on; AllScopes,
// DefaultScopes). NewGrant grants all of them unless WithScopes narrows
// them. As on the service, scopes are bound per installation token: a token
// keeps the scopes its grant had when it was minted, and SetScopes or
// Reconnect with wider scopes changes only tokens minted after it. A client
// that keeps using an installation token it cached before the user widened
// the scopes keeps getting 403 missing_scope; it must mint a new one.
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
// NewGrant, Revoke, Reconnect and SetScopes manage grants; AddOrganization
// and AddProject set up state; Project and Projects read it back.
// InjectFault makes the next matching requests fail (a status with an
// optional Retry-After, a delay, a hang, a dropped connection or a
// truncated body). Requests returns the request log, and Counts and
// GrantCounts the number of refreshes and installation-token mints.
//
// # Two mistakes that fail at once
//
// With WithInMemoryNetwork the servers have no socket: URL and AuthURL are
// https URLs on host names under .invalid (such as
// https://api.in-memory.partnertest.invalid), which only Server.Client can
// dial. Forgetting to give the code under test that client (with the SDK:
// partner.Config.HTTPClient = srv.Client()) makes every request fail at
// once with "lookup api.in-memory.partnertest.invalid: no such host".
//
// Forgetting WithInMemoryNetwork inside a testing/synctest bubble would
// make the bubble's clock stand still (goroutines waiting on sockets are
// not durably blocked), so time.Sleep would hang; NewServer panics instead,
// with a message naming WithInMemoryNetwork.
//
// # Translation tools (MCP)
//
// A third listener serves the service's translation tools at MCPURL (its
// path is MCPPath) as a Streamable HTTP MCP server, built on the official Go MCP SDK
// and behaving as mcp-tools.md describes: stateless (no session id; no
// initialize needed), one application/json answer per POST, only the
// protocol versions in MCPProtocolVersions (a newer protocol's
// server/discover call gets "Method not found"), 406 unless Accept lists
// application/json and text/event-stream, 415 for another Content-Type,
// 405 for GET (counted in MCPCounts: a client should never open the
// standalone stream). The Bearer token must be a live installation token:
// none is 401 {"error":"Authorization required"} with WWW-Authenticate,
// an unknown, expired or access token 401 {"error":"Invalid or expired
// OAuth token"}, a revoked grant's token HTTP 410 {"error":"grant_revoked"}
// (this fake's reading of the service's revocation rule), and
// WithRateLimit applies too. A tool the token lacks the documented scope
// for fails with an isError text naming missing_scope and the scope.
//
// The 16 tools keep real state per project (named "org-slug/project-slug"):
// namespaces, keys with UUID ids and source text, translations per
// language with status draft, approved or published, pending changes,
// language status, and sync jobs. publishTranslations starts a sync job
// that is pending for SyncPendingTime, in_progress for SyncRunTime and then
// completed, on the server's clock (Advance moves it); a second publish
// within PublishCooldown fails with TOO_MANY_REQUESTS; getSync's waitMs
// waits on the server's clock. AddGlossaryTerm seeds the glossary;
// TranslationKeys reads the keys back. Results are the abbreviated JSON of
// mcp-tools.md section 7 in content[0] text; failures are isError texts.
//
// Each change sends the matching signed webhook to every webhook config
// that subscribes to it (keys.created, keys.deleted, translations.updated,
// language.added, language.removed, and translations.published and
// sync.completed when a sync job completes); the tool call, or the Advance
// or request that noticed the completion, returns after the deliveries
// were attempted. Faults reach the MCP listener (HostMCP); Fault.Tool
// matches one tool, and Fault.ToolError answers with an isError text that
// may echo the request's token. The request log notes each MCP request's
// JSON-RPC method and tool.
//
// # Webhooks
//
// AddWebhook configures an endpoint and returns its secret, once.
// Deliver sends an event to it as the service does: a JSON envelope,
// signed with webhook.Sign, with the X-Service-* headers and a
// DeliveryTimeout. Given a data struct of package webhook, Deliver checks
// that it is the struct of the event type and, for content events, fills
// ContentMeta's event and timestamp when they are empty. Redeliver resends
// an earlier event with the same id and body, RotateSecret replaces the
// secret, and Deliveries returns the delivery log. SignedAt and SignedWith
// make stale or forged deliveries, to test a receiver's refusals.
//
// A Server is safe for concurrent use by many goroutines.
package partnertest
