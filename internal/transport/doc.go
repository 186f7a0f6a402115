// Package transport is the SDK's one request path, for REST calls, MCP
// POSTs, Client.HTTPClient's requests and x/oauth2's token requests alike.
//
// Runner.Send builds, per call, a go-retryablehttp client whose CheckRetry,
// PrepareRetry and redirect rule are closures over that call's own state
// (the *http.Client and its connections are shared); nothing per call
// rides in a context. Each policy is written once here: the retry decision
// (policy.retry, a pure function), the hosts rule (Runner.Allowed and the
// call's redirect rule), the 401 rule (Refusals), the grant-gone and
// missing-scope paths (Send), and the scrub of secrets and of every token
// the call carried (call.scrub).
package transport
