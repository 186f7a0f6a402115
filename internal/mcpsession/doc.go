// Package mcpsession is the SDK's one path to the service's MCP servers:
// a Streamable HTTP client session on github.com/modelcontextprotocol/go-sdk,
// one per grant and server URL, shared by every goroutine.
//
// The servers are stateless and answer one JSON message per POST
// (mcp-tools.md section 2). A Session therefore pins protocol version
// 2025-06-18, never opens the standalone GET stream (its HTTP layer refuses
// any method but POST), and connects lazily: the first call costs the
// initialize exchange (two requests), every later call one POST.
//
// The go-sdk closes a session for good on a non-transient HTTP status and
// drops non-2xx bodies, so the HTTP layer under it (roundTripper) sends
// every POST through the SDK's one request path, transport.Runner: the
// installation token from the grant's own token source, sent only to the
// configured host; go-retryablehttp's retries under the SDK's policy, a
// read-only tool retried like a GET and a tool that changes something
// never sent again once it may have run; one replay with a new token after
// a 401; typed errors, recorded in the request's context where Session.Call
// finds them. The go-sdk only ever sees a 2xx answer or a transport error,
// which leaves its connection usable.
//
// What is MCP's own is the mint budget (budget): a 401 from an MCP endpoint
// re-mints at most once per installation token, and a token refused after
// that is remembered, so that MCP calls fail at once with
// ErrMCPUnauthorized while REST keeps using it.
package mcpsession
