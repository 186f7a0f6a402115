// Package transport is the SDK's one request path: REST calls, MCP POSTs,
// Client.HTTPClient's requests and x/oauth2's token requests all go
// through Runner.Send, where each rule (retries, hosts, 401, grant gone,
// missing scope, scrubbing) is written once. Nothing per call rides in a
// context: a call value holds its go-retryablehttp client and the policies
// bound to it, made once and reused through the Runner's pool.
// docs/request-path.md maps each rule to its code and tests.
package transport
