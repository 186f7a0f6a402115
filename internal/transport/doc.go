// Package transport is the SDK's one request path, for REST calls, MCP
// POSTs, Client.HTTPClient's requests and x/oauth2's token requests alike.
//
// Runner.Send builds, per call, a go-retryablehttp client whose CheckRetry,
// PrepareRetry and redirect rule are closures over that call's own state
// (the *http.Client and its connections are shared); nothing per call
// rides in a context. Each rule is written once here:
//   - retries: policy.retry, a pure function of one attempt's outcome;
//   - hosts: a token goes only to a configured origin, and a redirect to
//     another origin drops it (Runner.Allowed, call.redirect);
//   - 401: the refused token is dropped and the request replayed once with
//     a new one; a new token refused too is remembered (Refusals);
//   - grant gone: the Store is read once more, then the grant is final;
//   - missing scope: a newer token in the Store is taken, replayed once;
//   - scrub: no secret, no token any attempt carried and no URL query in
//     an error or log line (call.scrub).
package transport
