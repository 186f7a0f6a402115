// Package toolcalls maps the SDK's readable types (packages keys,
// translations and content) to the tools' wire arguments and results (the
// abbreviated fields the servers send), checks what can be checked before
// any request, and calls the tools through a Caller (the grant's
// mcpsession.Session).
// The partner package's services are thin wrappers over these functions.
//
// Results are decoded leniently: unknown fields are ignored, a field of an
// unexpected type is left zero, and the tool's whole answer is kept in Raw.
package toolcalls
