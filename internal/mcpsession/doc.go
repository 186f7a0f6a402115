// Package mcpsession is the SDK's one path to the service's MCP servers: a
// Streamable HTTP client session of github.com/modelcontextprotocol/go-sdk
// per grant and server, shared by every goroutine, connected lazily at
// protocol version 2025-06-18 without the standalone GET stream. The one
// layer under the go-sdk (roundTripper) sends each POST through
// transport.Runner and checks a 2xx answer before the go-sdk sees it, so
// the go-sdk only ever sees a usable answer or the SDK's typed error, and
// its connection stays usable.
package mcpsession
