package apierr

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/redact"
)

// Sentinels a caller branches on with errors.Is; package partner exports
// and documents each. Their texts say what the application should do,
// and carry no "partner:" prefix, as an error that starts with it always
// wraps them.
var (
	ErrReauthorizationRequired = errors.New("the user must reconnect the application (re-authorization required)")
	ErrConfiguration           = errors.New("the application is misconfigured; users need not reconnect")
	ErrGrantRevoked            = errors.New("the grant was revoked")
	ErrInvalidGrant            = errors.New("the refresh token was refused (invalid_grant)")
	ErrMissingScope            = errors.New("the grant lacks a required scope")
	ErrWrongOrganization       = errors.New("the resource belongs to another organization than the grant's")
	ErrConflict                = errors.New("conflict with the current state")
	ErrTemporary               = errors.New("temporary failure, try again later")
	ErrUnexpectedResponse      = errors.New("unexpected response from the service")
	ErrInvalidArgument         = errors.New("invalid argument")
	ErrMCPUnauthorized         = errors.New("the MCP endpoint refused the installation token; the grant is not gone, REST still works")
)

// Error codes the service sends in its error bodies, and the one RFC 6749
// adds (invalid_client).
const (
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidGrant      = "invalid_grant"
	CodeInvalidToken      = "invalid_token"
	CodeMissingScope      = "missing_scope"
	CodeWrongOrganization = "wrong_organization"
	CodeGrantNotFound     = "grant_not_found"
	CodeGrantRevoked      = "grant_revoked"
	CodeRateLimited       = "rate_limited"
	CodeInvalidClient     = "invalid_client"
)

// WrongURL reports whether the answer looks like a request that missed the
// service's endpoint: a 404 or 405 without a code the service documents
// (a proxy's page, another server's "Not found").
func (e *APIError) WrongURL() bool {
	switch e.Code {
	case CodeInvalidRequest, CodeInvalidGrant, CodeInvalidToken, CodeMissingScope, CodeWrongOrganization,
		CodeGrantNotFound, CodeGrantRevoked, CodeRateLimited, CodeInvalidClient:
		return false
	}
	return e.StatusCode == http.StatusNotFound || e.StatusCode == http.StatusMethodNotAllowed
}

// BlamesApplication reports whether an answer to a credential request
// (a refresh, a mint, a revocation) refuses the application, not the
// grant: invalid_client, or a 4xx other than 429 without a code that names
// the grant's state (a wrong URL, a proxy's page). No user can fix it by
// reconnecting. Check GrantGone first.
func (e *APIError) BlamesApplication() bool {
	switch e.Code {
	case CodeInvalidClient:
		return true
	case CodeMissingScope, CodeWrongOrganization, CodeRateLimited:
		return false
	}
	return e.StatusCode >= 400 && e.StatusCode < 500 && e.StatusCode != http.StatusTooManyRequests
}

// ReconnectAdvice ends the message of an error that says the grant is gone.
const ReconnectAdvice = "the user must reconnect the application"

// MaxBodySnippet is how many bytes of an error body an APIError keeps.
const MaxBodySnippet = 1024

// APIError is a non-2xx answer from the service: partner.APIError, which
// documents the fields, inside the SDK. It never holds a token: tokens
// travel in headers, and what it keeps of the body is scrubbed.
type APIError struct {
	StatusCode    int
	Code, Message string
	Method, Path  string
	Body          []byte // at most MaxBodySnippet bytes
	RetryAfter    time.Duration
}

// Error returns a short one-line description such as
// "partner: GET /api/oauth-client/organizations: 410 grant_revoked".
func (e *APIError) Error() string {
	s := fmt.Sprintf("partner: %s %s: %d", e.Method, e.Path, e.StatusCode)
	if c := cmp.Or(e.Code, http.StatusText(e.StatusCode)); c != "" {
		s += " " + c
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %s)", e.RetryAfter)
	}
	return s
}

// GrantGone reports whether the answer says the grant can no longer be
// used: grant_revoked, invalid_grant or grant_not_found, or a 410 Gone
// without a code (how the service answers a request of a revoked grant).
func (e *APIError) GrantGone() bool {
	return e.Code == CodeGrantRevoked || e.Code == CodeInvalidGrant || e.Code == CodeGrantNotFound || e.revokedByStatus()
}

func (e *APIError) revokedByStatus() bool { return e.StatusCode == http.StatusGone && e.Code == "" }

// Is reports whether the answer belongs to one of the sentinel classes, so
// that errors.Is(err, ErrGrantRevoked) and friends work on an *APIError.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrGrantRevoked:
		return e.Code == CodeGrantRevoked || e.revokedByStatus()
	case ErrInvalidGrant:
		return e.Code == CodeInvalidGrant
	case ErrMissingScope:
		return e.Code == CodeMissingScope
	case ErrReauthorizationRequired:
		return e.GrantGone()
	case ErrWrongOrganization:
		return e.Code == CodeWrongOrganization
	case ErrConflict:
		return e.StatusCode == http.StatusConflict
	case ErrTemporary:
		return Temporary(e.StatusCode)
	}
	return false
}

// Temporary reports whether an HTTP status may succeed later: 429 and 5xx.
func Temporary(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// MissingScopeError is partner.MissingScopeError inside the SDK: a
// missing_scope answer, with the scope the service said it needs.
type MissingScopeError struct {
	*APIError
	Required string
}

// Error returns the APIError text with the required scope, for example
// "partner: POST /api/oauth-client/v1/projects: 403 missing_scope (required: projects:write)";
// the scope is named once, also when the service's message names it so.
func (e *MissingScopeError) Error() string { return withRequired(e.APIError.Error(), e.Required) }

// withRequired appends " (required: scope)" to text, unless scope is ""
// or text already says so (in any letter case).
func withRequired(text, scope string) string {
	said := "(required: " + scope + ")"
	if scope == "" || strings.Contains(strings.ToLower(text), strings.ToLower(said)) {
		return text
	}
	return text + " " + said
}

// Unwrap returns the underlying *APIError.
func (e *MissingScopeError) Unwrap() error { return e.APIError }

// errorBody is the error body shape the SDK understands. The service only
// documents error and required; message and error_description are the
// usual companions. "error" may also be an object {code, message}.
type errorBody struct {
	Error            json.RawMessage `json:"error"`
	Message          string          `json:"message"`
	ErrorDescription string          `json:"error_description"`
	Required         string          `json:"required"`
}

// FromResponse builds the typed error for a non-2xx answer from its status,
// its (already bounded) body and Retry-After delay. Every secret in scrub
// is removed from what the error keeps, in whatever form the body echoes
// it. It returns *MissingScopeError when the body says missing_scope,
// whatever the status, and *APIError otherwise.
func FromResponse(method, path string, status int, header http.Header, body []byte, scrub redact.Secrets) error {
	ra, _ := RetryAfter(status, header)
	e := &APIError{StatusCode: status, Method: method, Path: path, Body: snippet(body, scrub), RetryAfter: ra}
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil {
		return e
	}
	var code string
	if json.Unmarshal(eb.Error, &code) != nil {
		var n struct{ Code, Message string }
		if json.Unmarshal(eb.Error, &n) == nil {
			code, eb.Message = n.Code, cmp.Or(eb.Message, n.Message)
		}
	}
	e.Code, e.Message = Clean(code, scrub), CleanMessage(cmp.Or(eb.Message, eb.ErrorDescription), scrub)
	if e.Code == CodeMissingScope {
		return &MissingScopeError{APIError: e, Required: clean(eb.Required, 100, scrub)}
	}
	return e
}

// snippet returns a scrubbed copy of at most MaxBodySnippet bytes of body.
func snippet(body []byte, scrub redact.Secrets) []byte {
	if len(body) == 0 {
		return nil
	}
	s := scrub.String(string(body))
	return []byte(s[:min(len(s), MaxBodySnippet)])
}

// clean makes a server-supplied string safe to put in an error line: no
// secrets, one line, valid UTF-8, no character that drives a terminal,
// bounded length.
func clean(s string, limit int, scrub redact.Secrets) string {
	s = scrub.String(s)
	s = strings.Map(func(r rune) rune {
		// C0, DEL and C1 (U+009B is a one-character CSI), the line and
		// paragraph separators, and what is not UTF-8.
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == utf8.RuneError {
			return ' '
		}
		return r
	}, s)
	if len(s) > limit {
		s = s[:limit]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}

// Clean makes a server-supplied error code safe to put in an error line,
// as FromResponse does: no secret, one line, bounded.
func Clean(code string, scrub redact.Secrets) string { return clean(code, 64, scrub) }

// CleanMessage makes a server-supplied message safe to put in an error
// line, as FromResponse does: no secret, one line, bounded.
func CleanMessage(msg string, scrub redact.Secrets) string { return clean(msg, 200, scrub) }

// Quote returns a short, safe quotation of a bad value from an answer, for
// an error message: at most 16 bytes, and nothing at all when it looks
// like a token (a long run without spaces), since the field may hold one.
func Quote(v string) string {
	const limit = 16
	if len(v) > limit && !strings.ContainsAny(v[:limit], " \t") {
		return fmt.Sprintf("(%d bytes, not shown)", len(v))
	}
	return fmt.Sprintf("%q", clean(v, limit, redact.Secrets{}))
}

// ArgumentError returns an ErrInvalidArgument error naming the field.
func ArgumentError(field, problem string) error {
	return fmt.Errorf("partner: %w: %s %s", ErrInvalidArgument, field, problem)
}

// Classified is an error put in a class (one of the sentinels) with advice
// on what to do: "partner: POST /path: 404 Not Found: <advice>". It
// matches its class and everything Err matches.
type Classified struct {
	Class  error
	Err    error
	Advice string
}

// Classify puts err in class with advice.
func Classify(class, err error, advice string) error {
	return &Classified{Class: class, Err: err, Advice: advice}
}

// Error returns Err's text, then the advice (or the class's text).
func (e *Classified) Error() string {
	return e.Err.Error() + ": " + cmp.Or(e.Advice, e.Class.Error())
}

// Unwrap returns both the class and the error.
func (e *Classified) Unwrap() []error { return []error{e.Class, e.Err} }

// maxWait bounds a wait an answer asks for, in a Retry-After header or a
// tool's text: a day.
const maxWait = 24 * time.Hour

// RetryAfter is the wait a 429 or 503 answer asks for in its Retry-After
// header, in seconds or as an HTTP date, at most a day. ok is false for
// another status, or without a value that parses.
func RetryAfter(status int, h http.Header) (_ time.Duration, ok bool) {
	v := h.Get("Retry-After")
	if v == "" || status != http.StatusTooManyRequests && status != http.StatusServiceUnavailable {
		return 0, false
	}
	if s, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(min(s, int64(maxWait/time.Second))) * time.Second, true
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(time.Until(t), 0), maxWait), true
}
