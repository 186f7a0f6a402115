package partner

import "github.com/locsvc/partner-go/internal/apierr"

// Every error the SDK returns starts with "partner: ", then, for a request
// that was sent, its method and whole path (the base URL's own path
// included), for example
//
//	partner: GET /v2/api/oauth-client/v1/projects/p1: 410 grant_revoked
//
// Branch on errors with errors.Is (the sentinels below) and errors.As (the
// types below); never on the text. No error holds a token or a secret, in
// whatever form the service echoed it.

// APIError is a non-2xx answer from the service. Use errors.As to get it
// from any error the SDK returns. Its fields:
//
//	StatusCode int           // the HTTP status of the answer
//	Code       string        // the body's "error" (grant_revoked, missing_scope, ...), or ""
//	Message    string        // the body's "message" or "error_description", if any; scrubbed
//	Method     string        // the request's method
//	Path       string        // the whole path requested, without host or query
//	Body       []byte        // the start of the body (at most 1 KiB), scrubbed of secrets
//	RetryAfter time.Duration // the Retry-After the service sent with a 429 or 503, or 0
//
// errors.Is(err, X) is true for an *APIError when X is
// ErrReauthorizationRequired (Code grant_revoked, invalid_grant or
// grant_not_found), ErrGrantRevoked, ErrInvalidGrant, ErrMissingScope,
// ErrWrongOrganization (Code wrong_organization), ErrConflict (status
// 409), or ErrTemporary (status 429 or 5xx).
type APIError = apierr.APIError

// MissingScopeError is the answer to a call the grant's scopes do not
// allow (error missing_scope). It embeds the *APIError, and adds
//
//	Required string // the scope the user must grant, e.g. "translations:publish"; "" if not named
//
// Show a prompt to re-authorize with that scope. errors.Is(err,
// ErrMissingScope) is true for it; it is per call, never final.
type MissingScopeError = apierr.MissingScopeError

// Sentinels to branch on with errors.Is. See the README's error table for
// what to show the user for each.
var (
	// ErrReauthorizationRequired: the grant is gone (grant_revoked,
	// invalid_grant, grant_not_found). Ask the user to connect the
	// application again. It is final: the client makes no further request
	// for the grant until it has a new token, which it takes from
	// SetToken or, with a Store, from the Store by itself (it reads the
	// Store once more before believing the grant is gone, and again on
	// each later call).
	ErrReauthorizationRequired = apierr.ErrReauthorizationRequired
	// ErrConfiguration: the service refused the application, not the
	// user's grant: invalid_client, or an answer to a token refresh or an
	// installation-token mint without a documented error code (a wrong
	// BaseURL or AuthURL, a proxy's 404 or 405 page, a gateway's 400 or
	// 403), or such a request redirected to another host. The message
	// names the setting to check. Users need not reconnect. The grant's
	// client returns it without a request for a minute, then asks again.
	ErrConfiguration = apierr.ErrConfiguration
	// ErrGrantRevoked: the user or the partner revoked the grant (410
	// grant_revoked). It is also ErrReauthorizationRequired.
	ErrGrantRevoked = apierr.ErrGrantRevoked
	// ErrInvalidGrant: the token endpoint refused the refresh token
	// (invalid_grant, with 400 or 401). It is also
	// ErrReauthorizationRequired.
	ErrInvalidGrant = apierr.ErrInvalidGrant
	// ErrMissingScope: the grant lacks a scope; see MissingScopeError.
	// Per call.
	ErrMissingScope = apierr.ErrMissingScope
	// ErrWrongOrganization: the resource belongs to another organization
	// than the grant's (403 wrong_organization). Per call; do not retry.
	ErrWrongOrganization = apierr.ErrWrongOrganization
	// ErrConflict: the request conflicts with the resource's state (409,
	// for example a project slug in use). Per call.
	ErrConflict = apierr.ErrConflict
	// ErrTemporary: a network error, timeout, 429 or 5xx that outlasted
	// the retries. Try again later; APIError.RetryAfter says when, if the
	// service did.
	ErrTemporary = apierr.ErrTemporary
	// ErrUnexpectedResponse: a 2xx answer the SDK cannot use (empty, not
	// JSON, or over the size limit).
	ErrUnexpectedResponse = apierr.ErrUnexpectedResponse
	// ErrInvalidArgument: a bad argument or Config field, found before any
	// request was sent. The message names the field.
	ErrInvalidArgument = apierr.ErrInvalidArgument
)
