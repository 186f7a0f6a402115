// Package partnertest is an in-process fake of the localization service,
// for testing code that uses the partner API or receives its webhooks,
// the way net/http/httptest is for HTTP servers.
//
// NewServer starts HTTP servers for the resource API at Server.URL (the
// spec's {base_url}), the token endpoint at Server.AuthURL ({auth_url}),
// and the two MCP tool servers at Server.MCPURL ({mcp_url}) and
// Server.ContentMCPURL ({content_mcp_url}). Point the code under test at
// them:
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
// the resource endpoints, the grant's own access token for the mint, either
// for GET /me), token expiry, grant revocation, the organization of each
// resource, and the uniqueness of project slugs per organization. The mint
// answers with the fields the service documents (installation_token,
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
//	404 grant_not_found       the mint for a grant its access token does not belong to
//	410 grant_revoked         the grant was revoked (by the user, the partner or reuse detection)
//	429 rate_limited          over WithRateLimit's cap, with Retry-After
//	400 invalid_grant         (token endpoint) a refresh token unknown, replaced or revoked;
//	                          a code unknown, used, expired or spent
//	400 invalid_request       (token endpoint) a code exchange without code_verifier where the
//	                          authorize request had a challenge (401 for a verifier that does not match)
//	400 unsupported_grant_type (token endpoint) neither refresh_token nor authorization_code
//	401 invalid_client        (token endpoint) wrong client credentials; "invalid redirect_uri" for a
//	                          code exchange with another redirect_uri than the authorize request's
//
// and unsupported_media_type (415), conflict (409), not_found (404) and
// method_not_allowed (405).
//
// # Connecting users
//
// The authorize endpoint, GET AuthURL+AuthorizePath, consents at once,
// with no page in between: a client that follows redirects lands on the
// redirect URI with ?code=...&state=... (a 302). The test registers its
// redirect URIs with WithRedirectURLs or AddRedirectURL (none is
// registered by default; a redirect_uri must match one byte for byte),
// and chooses with SetConsent who consents, which organizations they pick
// and which scopes they leave on; by default a user of the server's own
// picks their first organization and grants the scopes requested
// (DefaultScopes when the request names none of AllScopes). The OpenID
// Connect scopes offline_access, openid, profile and email are accepted
// too and grant no permission; as on the service, the code exchange
// issues a refresh token only when offline_access was asked for.
// WithAuthPaths moves both endpoints. StartApp runs the test's callback
// next to the fake, also on the in-memory network.
//
// Refusals follow RFC 6749 section 4.1.2.1. A missing or unknown client_id
// and a missing or unregistered redirect_uri are answered 400 with a JSON
// error (invalid_request, invalid_client), never redirected. Anything
// else goes back to the redirect URI with error, error_description and
// the state: invalid_request (a missing or repeated parameter, a PKCE
// method other than S256, plain included, or a malformed challenge;
// without a challenge under WithPKCERequired), unsupported_response_type
// (not code), invalid_scope (a name the service does not document) and
// access_denied (Consent.Deny). PKCE is optional unless WithPKCERequired.
//
// The code exchange is grant_type=authorization_code at the token
// endpoint with code, redirect_uri, client_id and client_secret in the
// form body (a confidential client, as with refresh), and code_verifier
// when the authorize request sent a challenge (not otherwise). A code
// lives AuthorizationCodeLifetime (10 minutes, as the service documents)
// on the server's clock and is single-use: a second exchange is refused
// and revokes the grants the first one issued, as RFC 6749 section 4.1.2
// advises (Counts.ReusedCodes, Counts.ReuseRevocations). A code unknown,
// used or expired is 400 invalid_grant; a missing or wrong code_verifier
// is invalid_request (400 missing, 401 wrong), and a redirect_uri other
// than the authorize request's is 401 invalid_client "invalid
// redirect_uri", as the service's token server answers them. As that
// server does, a refused exchange spends the code, whatever the cause
// (wrong client credentials included): the next exchange of it is 400
// invalid_grant.
//
// The answer for one organization is the documented shape plus the
// granted scopes:
//
//	{"access_token":"pt_at_...","token_type":"Bearer","expires_in":1800,
//	 "refresh_token":"pt_rt_...","scope":"org:read projects:read","grant_id":"grant_1"}
//
// The service's documentation says a consent naming several organizations
// makes one grant per organization, but not how they come back. This fake
// answers with the first grant's tokens at the top, as above, and every
// grant, the first included and in the consent's order, in "grants":
//
//	{..., "grant_id":"grant_1", "grants":[
//	  {"access_token":"...","token_type":"Bearer","expires_in":1800,"refresh_token":"...",
//	   "scope":"...","grant_id":"grant_1","organization_id":"org_1"},
//	  {..., "grant_id":"grant_2","organization_id":"org_2"}]}
//
// Each grant has its own refresh token; no refresh token is shared by two
// grants. organization_id appears only inside "grants"; with one
// organization the mint says it. A consent by the same user
// for an organization they already have a live grant for updates that
// grant in place (same grant_id, the new scopes, a new refresh token; the
// old one is refused), the documentation's main reading; after a
// revocation a consent makes a new grant. The grants are normal grants:
// Server.Grant reads them, and everything else works with them.
//
// # Rotation and revocation by the partner
//
// WithRefreshRotation makes each refresh return a new refresh token and
// retire the old; a retired one sent again is refused (400 invalid_grant)
// and revokes the whole grant (Counts.ReusedRefreshTokens,
// Counts.ReuseRevocations, Grant.Revoked). Without it the refresh token
// stays the same, as the spec says.
//
// DELETE URL+"/api/oauth-client/installations/"+grantID with the grant's
// access token (the service documents which token; the answer is not
// documented and this fake chooses 204 with no body) revokes the grant as
// Revoke does: its tokens get 410 grant_revoked, its refresh token 400
// invalid_grant (Counts.PartnerRevocations). A grant already revoked, by
// anyone, answers 410 grant_revoked, as every call with a revoked grant's
// token does; a grant id the access token does not belong to (unknown or
// another's) 404 grant_not_found; an installation token 401 invalid_token.
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
// NewGrant, Revoke, Reconnect and SetScopes manage grants, and Grant reads
// one back; AddOrganization and AddProject set up state; Project and
// Projects read it back.
// InjectFault makes the next matching requests fail (a status with an
// optional Retry-After, a delay, a hang, a dropped connection or a
// truncated body); faults and the request log cover every endpoint,
// authorize and DELETE included. Requests returns the request log, and
// Counts and GrantCounts the number of refreshes, mints, exchanges,
// reuses and revocations.
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
// and behaving as the service's published MCP servers do: stateless (no session id; no
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
// WithRateLimit applies too, counting in the same window as the token's
// REST requests. A tool the token lacks the documented scope
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
// TranslationKeys reads the keys back. Results are the published servers'
// abbreviated JSON (prj, tot, has_more, ...) in content[0] text; failures
// are isError texts. createKeys and updateKeys take any number of items,
// as the published tools do. setTranslations refuses, per key in the
// result's errors[] (code not_found), a language the project lacks (not
// a target language, or archived), and writes the key's other languages.
// listProjects and getProject report each project's fileStructure and
// keyFormat (SetProjectLayout; null until set) and CDN URLs on a CDN host
// that does not answer yet.
//
// Each change sends the matching signed webhook to every webhook config of
// its project that subscribes to it (keys.created, keys.deleted, translations.updated,
// language.added, language.removed, and translations.published and
// sync.completed when a sync job completes); the tool call, or the Advance
// or request that noticed the completion, returns after the deliveries
// were attempted. Faults reach the MCP listener (HostMCP); Fault.Tool
// matches one tool, and Fault.ToolError answers with an isError text that
// may echo the request's token. The request log notes each MCP request's
// JSON-RPC method and tool.
//
// # CDN
//
// A fifth listener is the public CDN, at Server.CDNURL (HostCDN; with
// WithInMemoryNetwork, https://cdn.in-memory.partnertest.invalid). It
// needs no token and serves, once a publish's sync job has completed,
// the project's published texts in the project's layout
// (SetProjectLayout): {org}/{project}/{locale}/translations.json or
// {org}/{project}/{locale}/{namespace}.json, flat or nested keys, and a
// manifest.json. {locale} is the language as the service spells codes,
// in lowercase, the source language too (pt-br, zh-hans): a path in
// another spelling is not found. getProject's cdn object names these
// URLs.
//
// createKeys refuses with CONFLICT a batch that would make a key both a
// leaf and a parent, with the project's keys or within the batch, unless
// its force argument is set; a nested CDN file keeps such a parent in its
// place and writes the keys below it whole beside it.
//
// # Content tools (MCP)
//
// A fourth listener serves the content server's 25 tools at ContentMCPURL:
// the path MCPPath on a host of its own (with WithInMemoryNetwork,
// https://content.in-memory.partnertest.invalid/mcp). It follows the same
// HTTP and MCP rules and token checks as the translation listener, with
// serverInfo.name "partnertest-content"; faults match it as
// HostContentMCP, the request log names that host, and ContentMCPCounts
// counts its requests apart from MCPCounts. A translation tool called
// there (or a content tool at MCPURL) is an unknown tool.
//
// The tools keep real state per project ("org-slug/project-slug"):
// models with fields (types, localized, required, enum options, field
// config), entries with a slug per model, a status, custom field values
// (shared ones, and localized ones per language), per-language titles and
// bodies, versions, and the block catalog. Inputs, limits and results are
// those of the published content server, with its terse names (the
// short entry record, Model, FieldOut); listContentEntries' includeBody
// makes search match body text and adds no body to the items; failures are isError texts: "Validation error: ..." with the
// validator's messages, "Model "x" not found", "Entry not found",
// "Block not found", "An entry with slug "x" already exists in model
// "y"", and for values: unknown fields, values of the wrong type (a
// number field takes a JSON number, boolean a boolean, date YYYY-MM-DD,
// datetime RFC 3339, enum one of its values, relation an entry id or, if
// multiple, an array of them, the others a string), a missing required
// field (on creation, or set to null), and a language that is not one of
// the project's (its source language or a target language that is not
// archived). AddContentModel seeds a model without events; ContentEntries
// reads the entries back.
//
// Choices where the published servers leave the shape open: bulkPublishEntries
// answers {"pub": <count>, "fail": [{id, err}]}; an entry id listed twice
// is published once; bulk failures (failed, fail) are rows of the result,
// never an isError, and change nothing of that row. Entry ids are UUIDs,
// as the tools validate them (the spec's "ent_" prefix does not apply
// here), and the events carry the same id. title, bodyMarkdown and
// customFields without languageCode write the source language; shared
// (not localized) fields have one value whichever language writes it.
// cfv shows every field of the model, a string value as is, another as
// its JSON text, and null for none.
//
// Scopes (the service documents none for these tools; this is an
// inference from the REST scopes' names): the read tools need ScopeContentRead,
// the others ScopeContentWrite, except publishContentEntry and
// bulkPublishEntries, which need ScopeContentPublish, as does any create
// or update asking for status "published" (a bulk call is refused whole
// before it starts). DefaultScopes lacks ScopeContentPublish.
//
// # Content events
//
// Every content mutation sends its event, signed, to every subscribed
// webhook config before the tool call returns. Every event carries org and
// project slugs, the model's slug, actor {via: "mcp", userId:
// ContentAgentPrefix + the grant id}, and its own timestamp: the time of
// the mutation on the server's clock, to the millisecond, made strictly
// increasing within a Server (a mutation in the same millisecond as the
// last one gets the next millisecond), so that a receiver orders events by
// data.timestamp, not by arrival. The spec's transition table holds:
//
//	createContentEntry, duplicateContentEntry, bulkCreateEntries
//	                           content.entry.created: status draft, previousStatus
//	                           null, publishedAt null, changedLanguages = the
//	                           entry's languages
//	edit, status unchanged     content.entry.updated: previousStatus == status
//	edit to published          content.entry.published: publishedAt set
//	edit from published        content.entry.unpublished: previousStatus published
//	publishContentEntry        content.entry.published, changedLanguages []
//	deleteContentEntry         content.entry.deleted: status, previousStatus,
//	                           publishedAt, sourceLanguageCode null; no
//	                           changedLanguages
//	bulkPublishEntries         one content.entry.published per entry, then the
//	bulkUpdateEntries          rollup (bulkPublished, bulkUpdated) with a row
//	                           {id, slug, previousStatus, status} per entry
//	createContentModel, updateContentModel, deleteContentModel
//	                           content.model.created, updated, deleted
//	addField, updateField, removeField
//	                           content.field.added, updated, deleted
//
// "Edit" is updateContentEntry or a row of bulkUpdateEntries. An edit that
// changes the status sends published or unpublished, never updated. Where
// the spec is silent, this fake decides:
//
//   - draft <-> archived (a status change not involving published) sends
//     content.entry.unpublished with the old status as previousStatus: the
//     entry is (still) not published, and updated keeps its rule
//     previousStatus == status. So unpublished means "a status change that
//     does not end in published"; its previousStatus is published only
//     when the entry was live.
//   - Creating an entry with status published goes through draft:
//     content.entry.created (status draft), then content.entry.published
//     (previousStatus draft), each with its own timestamp.
//   - Publishing an entry that is already published (publishContentEntry,
//     or a row of bulkPublishEntries) is a re-publish: it sends
//     content.entry.published with previousStatus published and sets
//     publishedAt anew; its rollup row reads published -> published. An
//     edit asking for status published on a published entry is an edit
//     without a status change: content.entry.updated, publishedAt kept.
//   - publishedAt is set while an entry is published and null otherwise.
//   - changedLanguages are the languages a call wrote (title, body or
//     custom fields), sorted, even if the values did not change; a slug
//     change touches every language of the entry (the slug is shared); an
//     edit that writes nothing (only a status) has []. languages are the
//     entry's languages, sorted.
//   - In one call, events are sent in the order of their timestamps: a
//     bulk call's per-entry events in the order of its input, then the
//     rollup; failed rows send nothing, and a bulk call with no row done
//     sends no rollup. The rollup's languages are the union of its
//     entries' languages; its model is set when all rows share one.
//   - deleteContentModel sends content.entry.deleted for each of the
//     model's entries, then content.model.deleted. createContentModel's
//     initial fields send no content.field.added.
//   - reorderFields and the block tools send nothing; bulkCreateEntries
//     sends no rollup (the service documents none).
//
// # Webhooks
//
// AddWebhook configures an endpoint for one project's events, as the
// service configures webhooks per project, and returns its secret, once;
// RemoveWebhook removes it. The tools' events reach the configs of their
// project only.
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
