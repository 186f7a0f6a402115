// Package installations mints installation tokens (endpoint 8). The SDK
// does this by itself whenever a token is missing or about to expire, so
// applications rarely call it by hand.
package installations
