// Package toolcalls calls the service's MCP tools for packages keys,
// translations and content through a Caller (the grant's
// mcpsession.Session). It checks what can be checked before any request,
// sends the public argument types (their json tags are the tools'
// argument names) and decodes the answers into the public result types
// (their json tags and UnmarshalJSON methods read the abbreviated fields
// the servers send). The partner package's services are thin wrappers
// over these functions.
//
// Results are decoded leniently: unknown fields are ignored, a field of an
// unexpected type is left zero, and the tool's whole answer is kept in Raw.
package toolcalls
