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
// drops non-2xx bodies, so the policy lives in the HTTP layer under it
// (roundTripper): it attaches the installation token, sends it only to the
// configured host, retries what may be retried, re-mints once on a 401,
// and turns every failed answer into the SDK's typed error, recorded in the
// request's context where Session.Call finds it. The go-sdk only ever sees
// a 2xx answer or a transport error, which leaves its connection usable.
package mcpsession
