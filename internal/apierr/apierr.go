package apierr

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinels a caller branches on with errors.Is. Their texts say what the
// application should do, since they often end up in front of a person.
var (
	// ErrReauthorizationRequired is the class of errors that no retry can
	// fix: the grant was revoked, the refresh token was refused, or the
	// token endpoint refused the refresh with any other 4xx status. The user
	// must connect the application again.
	ErrReauthorizationRequired = errors.New("partner: the user must reconnect the application (re-authorization required)")

	// ErrConfiguration reports that the token endpoint refused the
	// application itself, not the user's grant: invalid_client (a wrong
	// client id or secret), or 404/405 (a wrong AuthURL). Fix the
	// configuration; asking users to reconnect would not help. It is final
	// like ErrReauthorizationRequired: the client stops calling the token
	// endpoint.
	ErrConfiguration = errors.New("partner: the service refused the application's configuration (client credentials or URL): fix it; users need not reconnect")

	// ErrGrantRevoked reports that the user revoked the grant (HTTP 410,
	// error grant_revoked). It is also ErrReauthorizationRequired.
	ErrGrantRevoked = errors.New("partner: the grant was revoked")

	// ErrInvalidGrant reports that the token endpoint refused the refresh
	// token (error invalid_grant). It is also ErrReauthorizationRequired.
	ErrInvalidGrant = errors.New("partner: the refresh token was refused (invalid_grant)")

	// ErrMissingScope reports that the token lacks a scope the operation
	// needs (error missing_scope). The user must re-authorize with a wider
	// scope; see MissingScopeError.Required.
	ErrMissingScope = errors.New("partner: the grant lacks a required scope")

	// ErrTemporary reports a failure that may pass: a network error, a
	// timeout, 429 or a 5xx status that remained after the retries the
	// request was allowed. Try again later.
	ErrTemporary = errors.New("partner: temporary failure, try again later")

	// ErrUnexpectedResponse reports a 2xx answer the SDK cannot use: an
	// empty body where a record was expected, invalid JSON, or a body over
	// the size limit.
	ErrUnexpectedResponse = errors.New("partner: unexpected response from the service")

	// ErrInvalidArgument reports a bad argument, found before any request
	// was sent.
	ErrInvalidArgument = errors.New("partner: invalid argument")
)

// Error codes the service documents in its error bodies.
const (
	CodeMissingScope  = "missing_scope"
	CodeGrantRevoked  = "grant_revoked"
	CodeInvalidGrant  = "invalid_grant"
	CodeInvalidClient = "invalid_client"
)

// MaxBodySnippet is how many bytes of an error body an APIError keeps.
const MaxBodySnippet = 1024

// APIError is a non-2xx answer from the service. It never holds a token:
// tokens travel in headers, and the body snippet is scrubbed of the
// credentials the SDK knows.
type APIError struct {
	// StatusCode is the HTTP status of the answer.
	StatusCode int
	// Code is the body's "error" field (for example grant_revoked), or ""
	// when the body had none or was not JSON.
	Code string
	// Message is the body's "message" or "error_description", if any.
	Message string
	// Method and Path name the request: Path has no host and no query.
	Method string
	Path   string
	// Body is the start of the response body, at most MaxBodySnippet bytes.
	Body []byte
	// RetryAfter is the delay the service asked for with Retry-After (on
	// 429 or 503), or 0.
	RetryAfter time.Duration
}

// Error returns a short one-line description such as
// "GET /api/oauth-client/organizations: 410 grant_revoked".
func (e *APIError) Error() string {
	var b strings.Builder
	b.WriteString(e.Method)
	b.WriteByte(' ')
	b.WriteString(e.Path)
	b.WriteString(": ")
	b.WriteString(strconv.Itoa(e.StatusCode))
	if e.Code != "" {
		b.WriteByte(' ')
		b.WriteString(e.Code)
	} else if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteByte(' ')
		b.WriteString(t)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	return b.String()
}

// Is reports whether the answer belongs to one of the sentinel classes, so
// that errors.Is(err, ErrGrantRevoked) and friends work on an *APIError.
func (e *APIError) Is(target error) bool {
	switch target {
	case ErrGrantRevoked:
		return e.Code == CodeGrantRevoked
	case ErrInvalidGrant:
		return e.Code == CodeInvalidGrant
	case ErrMissingScope:
		return e.Code == CodeMissingScope
	case ErrReauthorizationRequired:
		return e.Code == CodeGrantRevoked || e.Code == CodeInvalidGrant
	case ErrTemporary:
		return Temporary(e.StatusCode)
	}
	return false
}

// Temporary reports whether an HTTP status may succeed later: 429 and 5xx.
func Temporary(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// MissingScopeError is the error for a token without the scope an operation
// needs. errors.Is(err, ErrMissingScope) is true for it, and errors.As
// finds the *APIError inside.
type MissingScopeError struct {
	*APIError
	// Required is the scope the operation needs, as the service named it
	// (for example translations:publish); "" if the service did not say.
	Required string
}

// Error returns the APIError text with the required scope, for example
// "POST /api/oauth-client/v1/projects: 403 missing_scope (required: projects:write)".
func (e *MissingScopeError) Error() string {
	if e.Required == "" {
		return e.APIError.Error()
	}
	return e.APIError.Error() + " (required: " + e.Required + ")"
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

type nestedError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// FromResponse builds the typed error for a non-2xx answer from its status,
// its (already bounded) body and Retry-After delay. scrub lists strings that
// must not appear in what the error keeps (tokens, secrets); they are
// replaced with "[redacted]". It returns *MissingScopeError when the body
// says missing_scope, whatever the status, and *APIError otherwise.
func FromResponse(method, path string, status int, body []byte, retryAfter time.Duration, scrub ...string) error {
	e := &APIError{
		StatusCode: status,
		Method:     method,
		Path:       path,
		Body:       snippet(body, scrub),
		RetryAfter: retryAfter,
	}
	var eb errorBody
	if json.Unmarshal(body, &eb) != nil {
		return e
	}
	var code string
	if json.Unmarshal(eb.Error, &code) != nil {
		var n nestedError
		if json.Unmarshal(eb.Error, &n) == nil {
			code = n.Code
			if eb.Message == "" {
				eb.Message = n.Message
			}
		}
	}
	e.Code = clean(code, 64, scrub)
	msg := eb.Message
	if msg == "" {
		msg = eb.ErrorDescription
	}
	e.Message = clean(msg, 200, scrub)
	if e.Code == CodeMissingScope {
		return &MissingScopeError{APIError: e, Required: clean(eb.Required, 100, scrub)}
	}
	return e
}

// snippet returns a scrubbed copy of at most MaxBodySnippet bytes of body.
func snippet(body []byte, scrub []string) []byte {
	if len(body) == 0 {
		return nil
	}
	s := redact(string(body), scrub)
	if len(s) > MaxBodySnippet {
		s = s[:MaxBodySnippet]
	}
	return []byte(s)
}

// clean makes a server-supplied string safe to put in an error line: no
// secrets, one line, valid UTF-8, bounded length.
func clean(s string, limit int, scrub []string) string {
	s = redact(s, scrub)
	s = strings.Map(func(r rune) rune {
		if r < ' ' || r == utf8.RuneError {
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

// redact replaces each secret in s, also as it would appear JSON-escaped
// or form-encoded, since a server may echo it either way.
func redact(s string, scrub []string) string {
	for _, secret := range scrub {
		if secret == "" {
			continue
		}
		quoted, _ := json.Marshal(secret)
		for _, form := range [...]string{secret, string(quoted[1 : len(quoted)-1]), url.QueryEscape(secret), url.PathEscape(secret)} {
			if strings.Contains(s, form) {
				s = strings.ReplaceAll(s, form, "[redacted]")
			}
		}
	}
	return s
}

// Clean makes a server-supplied error code safe to put in an error line,
// as FromResponse does: no secret, one line, bounded.
func Clean(code string, scrub ...string) string { return clean(code, 64, scrub) }

// ArgumentError returns an ErrInvalidArgument error naming the field.
func ArgumentError(field, problem string) error {
	return fmt.Errorf("%w: %s %s", ErrInvalidArgument, field, problem)
}
