package partner

import (
	"errors"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
)

// APIError is a non-2xx answer from the service. Use errors.As to get it
// from any error the SDK returns; a *MissingScopeError holds one too.
//
// errors.Is(err, X) is true for an *APIError when X is
// ErrReauthorizationRequired (Code grant_revoked, invalid_grant or
// grant_not_found, or a 410 without a code), ErrGrantRevoked,
// ErrInvalidGrant, ErrMissingScope, ErrWrongOrganization (Code
// wrong_organization), ErrConflict (status 409), or ErrTemporary (status
// 429 or 5xx).
type APIError struct {
	StatusCode int           // the answer's HTTP status
	Code       string        // the body's "error" (grant_revoked, missing_scope, ...); "" if none or not JSON
	Message    string        // the body's "message" or "error_description", if any, scrubbed of secrets
	Method     string        // the request's method
	Path       string        // the whole path requested (with the base URL's own path), without host or query
	Body       []byte        // the start of the answer's body (at most 1 KiB), scrubbed of secrets
	RetryAfter time.Duration // the delay a 429 or 503 asked for with Retry-After (at most a day), or 0

	err error // the error as the SDK made it, whose text Error returns; nil for one built by hand
}

// Error returns the error's one-line text, for example
// "partner: GET /api/oauth-client/organizations: 410 grant_revoked".
func (e *APIError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return e.internal().Error()
}

// Is reports whether the answer belongs to the sentinel class target (see
// APIError), so that errors.Is works on an *APIError built by hand too.
func (e *APIError) Is(target error) bool { return e.internal().Is(target) }

// Unwrap returns the error the APIError was made from, or nil for one
// built by hand.
func (e *APIError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.err
}

func (e *APIError) internal() *apierr.APIError {
	if e == nil {
		return &apierr.APIError{}
	}
	return &apierr.APIError{StatusCode: e.StatusCode, Code: e.Code, Message: e.Message,
		Method: e.Method, Path: e.Path, Body: e.Body, RetryAfter: e.RetryAfter}
}

func (*APIError) public() {}

// MissingScopeError is the answer to a call the grant's scopes do not
// allow (error missing_scope), over REST or from a tool. Show a prompt to
// re-authorize with the scope Required. errors.Is(err, ErrMissingScope)
// is true for it, and errors.As finds its *APIError; it is per call, never
// final.
type MissingScopeError struct {
	*APIError
	// Required is the scope the user must grant, as the service named it
	// (for example "translations:publish"; one of the Scope constants),
	// or "" when it did not say.
	Required string

	err error // the error as the SDK made it; nil for one built by hand
}

// Error returns the error's one-line text, for example
// "partner: POST /api/oauth-client/v1/projects: 403 missing_scope (required: projects:write)".
func (e *MissingScopeError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return (&apierr.MissingScopeError{APIError: e.APIError.internal(), Required: e.Required}).Error()
}

// Unwrap returns the error the MissingScopeError was made from, or its
// *APIError for one built by hand.
func (e *MissingScopeError) Unwrap() error {
	if e.err != nil || e.APIError == nil {
		return e.err
	}
	return e.APIError
}

// Is reports whether target is ErrMissingScope, or a class its *APIError
// belongs to.
func (e *MissingScopeError) Is(target error) bool {
	return target == ErrMissingScope || e.APIError.Is(target)
}

// As lets errors.As find the *APIError of the MissingScopeError.
func (e *MissingScopeError) As(target any) bool {
	p, ok := target.(**APIError)
	if ok && e.APIError != nil {
		*p = e.APIError
	}
	return ok && e.APIError != nil
}

// ToolError is a tool call the service answered with a failure (an isError
// result or a JSON-RPC error). Use errors.As to get it from any error of a
// tool call; Kind says what the failure was.
//
// errors.Is(err, X) is true for a *ToolError when X is ErrMissingScope
// (Kind ToolMissingScope; errors.As then also finds a *MissingScopeError
// and its *APIError, as for a REST call), ErrConflict (ToolConflict),
// ErrTemporary (ToolTooManyRequests: the publish cooldown, which only
// PublishAndWait waits out; wait RetryAfter before publishing again),
// ErrMCPUnauthorized (ToolUnauthorized), or
// ErrReauthorizationRequired and ErrGrantRevoked (ToolGrantRevoked).
type ToolError struct {
	Tool string        // the tool's name, for example "createKeys"
	Kind ToolErrorKind // what the failure was; ToolOther when not recognised
	Text string        // the service's message, scrubbed of secrets, on one line and at most 500 bytes
	// Required is, for ToolMissingScope, the scope the user must grant:
	// named in Text, or else the scope the service documents for the
	// tool.
	Required string
	// RetryAfter is, for ToolTooManyRequests, how long to wait before
	// trying again: the wait the text gives, or else the service's 30 s
	// publish cooldown; 0 otherwise.
	RetryAfter time.Duration

	scope *MissingScopeError // for ToolMissingScope
	err   error              // the error as the SDK made it; nil for one built by hand
}

// Error returns the error's one-line text, for example
// "partner: tool createKeys failed (conflict): CONFLICT: a.b is a parent".
func (e *ToolError) Error() string {
	if e.err != nil {
		return e.err.Error()
	}
	return e.internal().Error()
}

// Is reports whether the failure's Kind belongs to the sentinel class
// target (see ToolError), so that errors.Is works on a *ToolError built by
// hand too.
func (e *ToolError) Is(target error) bool { return e.internal().Is(target) }

// Unwrap returns the error the ToolError was made from, or nil for one
// built by hand.
func (e *ToolError) Unwrap() error { return e.err }

// As lets errors.As find a *MissingScopeError, and its *APIError, in a
// ToolMissingScope failure, so that a scope failure reads the same over
// REST and MCP.
func (e *ToolError) As(target any) bool {
	if e.scope == nil {
		return false
	}
	switch p := target.(type) {
	case **MissingScopeError:
		*p = e.scope
		return true
	case **APIError:
		*p = e.scope.APIError
		return true
	}
	return false
}

func (e *ToolError) internal() *apierr.ToolError {
	return &apierr.ToolError{Tool: e.Tool, Kind: apierr.ToolErrorKind(e.Kind), Text: e.Text,
		Required: e.Required, RetryAfter: e.RetryAfter}
}

func (*ToolError) public() {}

// ToolErrorKind says what a tool failure was, as far as its text tells:
// the codes it carries, or a few phrases of the service's messages,
// recognised case-insensitively; anything else is ToolOther.
type ToolErrorKind string

// The kinds of ToolError.
const (
	// ToolUnauthorized: the service behind the MCP server refused the
	// token for this call ("Unauthorized"). errors.Is(err,
	// ErrMCPUnauthorized).
	ToolUnauthorized ToolErrorKind = "unauthorized"
	// ToolForbidden: the call is not allowed for this grant, for a reason
	// other than a missing scope: a project outside the grant, a sync job
	// of another project ("Forbidden").
	ToolForbidden ToolErrorKind = "forbidden"
	// ToolMissingScope: the grant lacks a scope (missing_scope).
	// errors.As finds a *MissingScopeError with Required set.
	ToolMissingScope ToolErrorKind = "missing_scope"
	// ToolConflict: the change conflicts with existing data (CONFLICT,
	// "already exists"). errors.Is(err, ErrConflict).
	ToolConflict ToolErrorKind = "conflict"
	// ToolTooManyRequests: the publish cooldown (TOO_MANY_REQUESTS, "rate
	// limited", "wait N seconds"). errors.Is(err, ErrTemporary);
	// RetryAfter is the wait the text gives, or else the 30 s cooldown.
	ToolTooManyRequests ToolErrorKind = "too_many_requests"
	// ToolNotFound: the project, key, entry or sync job does not exist
	// ("not found").
	ToolNotFound ToolErrorKind = "not_found"
	// ToolValidation: the tool refused its arguments ("Validation error",
	// "Invalid project format", or the validator's JSON list of issues,
	// whose messages and paths Text then gives).
	ToolValidation ToolErrorKind = "validation"
	// ToolUnknown: the server has no tool of that name ("Unknown tool").
	ToolUnknown ToolErrorKind = "unknown_tool"
	// ToolGrantRevoked: the grant was revoked (grant_revoked).
	// errors.Is(err, ErrReauthorizationRequired) and ErrGrantRevoked.
	ToolGrantRevoked ToolErrorKind = "grant_revoked"
	// ToolOther: a failure the SDK does not recognise; read Text.
	ToolOther ToolErrorKind = "other"
)

// publicError is what the error types of this package have: an error
// that holds one needs no conversion.
type publicError interface {
	error
	public()
}

// public returns err as the SDK's users see it: when its chain holds an
// *APIError, *MissingScopeError or *ToolError of the request path (which
// cannot import this package), the matching type of this package, with the
// same fields and text, that unwraps to err, so that errors.Is finds
// every sentinel it found before. Every exported method's error goes
// through it, by way of Client.do, the tool caller and the few other
// exits.
func public(err error) error {
	if err == nil {
		return nil
	}
	var done publicError
	if errors.As(err, &done) {
		return err
	}
	var te *apierr.ToolError
	if errors.As(err, &te) {
		pe := &ToolError{Tool: te.Tool, Kind: ToolErrorKind(te.Kind), Text: te.Text,
			Required: te.Required, RetryAfter: te.RetryAfter, err: err}
		var ms *apierr.MissingScopeError
		if errors.As(te, &ms) {
			pe.scope = missingScope(ms, ms)
		}
		return pe
	}
	var ms *apierr.MissingScopeError
	if errors.As(err, &ms) {
		return missingScope(ms, err)
	}
	var ae *apierr.APIError
	if errors.As(err, &ae) {
		return apiError(ae, err)
	}
	return err
}

// missingScope converts ms, found in the chain of err.
func missingScope(ms *apierr.MissingScopeError, err error) *MissingScopeError {
	return &MissingScopeError{APIError: apiError(ms.APIError, ms.APIError), Required: ms.Required, err: err}
}

// apiError converts ae, found in the chain of err.
func apiError(ae *apierr.APIError, err error) *APIError {
	return &APIError{StatusCode: ae.StatusCode, Code: ae.Code, Message: ae.Message, Method: ae.Method,
		Path: ae.Path, Body: ae.Body, RetryAfter: ae.RetryAfter, err: err}
}

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
	// ErrMCPUnauthorized: an MCP endpoint refused the grant's installation
	// token even after one new token was minted for it. The grant is not
	// gone (REST calls keep working) and the SDK mints no further token
	// for MCP until the grant's token changes for another reason: check
	// that Config.MCPURL is the service's MCP address, or ask the service.
	ErrMCPUnauthorized = apierr.ErrMCPUnauthorized
	// ErrClosed: a tool call on a Client after its Close, or Pool.Client
	// after Pool.Close.
	ErrClosed = mcpsession.ErrClosed
)
