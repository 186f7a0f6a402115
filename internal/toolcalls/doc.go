// Package toolcalls maps the SDK's readable types (packages keys,
// translations and content) to the tools' wire arguments and results (the
// abbreviated fields the servers send), checks what can be checked before
// any request, and calls the tools through a Caller (the grant's
// mcpsession.Session).
// The partner package's services are thin wrappers over these functions.
//
// Results are decoded leniently: unknown fields are ignored, a field of an
// unexpected type is left zero, and the tool's whole answer is kept in Raw.
//
// The wire names live in this package's private structs only: the public
// types carry no json tags, so json.Marshal gives users Go's field names
// and a round trip keeps every field. The structs that are only decoded
// rely on encoding/json matching names case-insensitively, and carry a tag
// only where the wire name is not a Go name (has_more, del_k).
package toolcalls
