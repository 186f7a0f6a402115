// Package mcpsession is the SDK's one path to the service's MCP servers:
// a Streamable HTTP client session on github.com/modelcontextprotocol/go-sdk,
// one per grant and server URL, shared by every goroutine.
//
// The servers are stateless and answer one JSON message per POST. A
// Session therefore pins protocol version 2025-06-18, never opens the
// standalone GET stream, and connects lazily: the first call costs the
// initialize exchange (two requests), every later call one POST.
//
// The go-sdk closes a session for good on a non-transient HTTP status, and
// a call whose answer holds no response waits forever. So the one layer
// under it (roundTripper) sends every POST through transport.Runner (the
// hosts rule, retries, the token, the 401 rule, typed errors) and checks a
// 2xx answer before the go-sdk sees it. The go-sdk only ever sees a usable
// 2xx answer or a *failure carrying the typed error, which Session.do
// unwraps; its connection stays usable.
package mcpsession
