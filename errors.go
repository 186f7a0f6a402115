package partner

import "github.com/locsvc/partner-go/internal/apierr"

// APIError is a non-2xx answer from the service: status, error code,
// message, method and path, and a bounded copy of the body. It never holds
// a token. Use errors.As to get it from any error the SDK returns.
type APIError = apierr.APIError

// MissingScopeError is the answer to a call the grant's scopes do not
// allow. Required names the scope the user must grant; show a prompt to
// re-authorize with it.
type MissingScopeError = apierr.MissingScopeError

// Sentinels to branch on with errors.Is. See the README's error table for
// what to show the user for each.
var (
	// ErrReauthorizationRequired: the grant can no longer be used (revoked,
	// refresh token refused, or a 4xx from the token endpoint other than
	// 429 and those of ErrConfiguration).
	// Ask the user to connect the application again. Retrying cannot help,
	// and the client makes no further requests for the grant until it is
	// given a new token.
	ErrReauthorizationRequired = apierr.ErrReauthorizationRequired
	// ErrConfiguration: the token endpoint refused the application itself
	// (invalid_client, or 404/405 from a wrong AuthURL). Fix the client id,
	// secret or URL; users need not reconnect. Final, like
	// ErrReauthorizationRequired.
	ErrConfiguration = apierr.ErrConfiguration
	// ErrGrantRevoked: the user revoked the grant (410 grant_revoked).
	ErrGrantRevoked = apierr.ErrGrantRevoked
	// ErrInvalidGrant: the token endpoint refused the refresh token.
	ErrInvalidGrant = apierr.ErrInvalidGrant
	// ErrMissingScope: the grant lacks a scope; see MissingScopeError.
	ErrMissingScope = apierr.ErrMissingScope
	// ErrTemporary: a network error, timeout, 429 or 5xx that outlasted
	// the retries. Try again later.
	ErrTemporary = apierr.ErrTemporary
	// ErrUnexpectedResponse: a 2xx answer the SDK cannot use (empty, not
	// JSON, or over the size limit).
	ErrUnexpectedResponse = apierr.ErrUnexpectedResponse
	// ErrInvalidArgument: a bad argument or Config field, found before any
	// request was sent. The message names the field.
	ErrInvalidArgument = apierr.ErrInvalidArgument
)
