package apierr

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/redact"
)

// Sentinels for the service's MCP tools.
var (
	// ErrMCPUnauthorized reports that an MCP endpoint refused the
	// installation token even after one fresh token was minted. The grant
	// is not gone and REST still works with the same token; the MCP
	// servers may not accept installation tokens.
	// The SDK does not mint again for MCP until the token changes for
	// another reason, and returns this error at once until then.
	ErrMCPUnauthorized = errors.New("the MCP endpoint refused the installation token; the grant is not gone, REST still works")
)

// PublishCooldown is the service's wait between two publishTranslations
// calls for one project (TOO_MANY_REQUESTS).
const PublishCooldown = 30 * time.Second

// ToolErrorKind says what a tool failure was, as far as its text tells.
type ToolErrorKind string

// The kinds of tool failure the SDK recognises. The service's texts are
// matched by the codes they carry, case-insensitively, never by whole
// sentences.
const (
	// ToolUnauthorized: the service behind the MCP server refused the token
	// for this call ("Unauthorized"). errors.Is(err, ErrMCPUnauthorized).
	ToolUnauthorized ToolErrorKind = "unauthorized"
	// ToolForbidden: the call is not allowed for this grant, for a reason
	// other than a missing scope: a project outside the grant, a sync job
	// of another project ("Forbidden").
	ToolForbidden ToolErrorKind = "forbidden"
	// ToolMissingScope: the grant lacks a scope (missing_scope).
	// errors.As finds a *MissingScopeError with Required set.
	ToolMissingScope ToolErrorKind = "missing_scope"
	// ToolConflict: the change conflicts with existing data (CONFLICT).
	// errors.Is(err, ErrConflict).
	ToolConflict ToolErrorKind = "conflict"
	// ToolTooManyRequests: the publish cooldown (TOO_MANY_REQUESTS).
	// errors.Is(err, ErrTemporary); RetryAfter is the cooldown. The SDK
	// does not wait by itself.
	ToolTooManyRequests ToolErrorKind = "too_many_requests"
	// ToolNotFound: the project, key or sync job does not exist ("not found").
	ToolNotFound ToolErrorKind = "not_found"
	// ToolValidation: the tool refused its arguments ("Validation error",
	// "Invalid project format").
	ToolValidation ToolErrorKind = "validation"
	// ToolUnknown: the server has no tool of that name ("Unknown tool").
	ToolUnknown ToolErrorKind = "unknown_tool"
	// ToolGrantRevoked: the grant was revoked (grant_revoked).
	// errors.Is(err, ErrReauthorizationRequired) and ErrGrantRevoked.
	ToolGrantRevoked ToolErrorKind = "grant_revoked"
	// ToolOther: a failure the SDK does not recognise; read Text.
	ToolOther ToolErrorKind = "other"
)

// MaxToolText is how many bytes of a tool's failure text a ToolError keeps.
const MaxToolText = 500

// ToolError is a tool call that the service answered with a failure
// (isError) or a JSON-RPC error. Text is the service's message, scrubbed of
// the token in use and other known secrets, on one line and bounded.
type ToolError struct {
	// Tool is the tool's name, for example createKeys.
	Tool string
	// Kind is what the failure was; ToolOther when not recognised.
	Kind ToolErrorKind
	// Text is the service's message.
	Text string
	// Required is the scope the call needs, for ToolMissingScope: named
	// in Text, or else the scope the service documents for the tool.
	Required string
	// RetryAfter is how long to wait before trying again, for
	// ToolTooManyRequests (PublishCooldown); 0 otherwise.
	RetryAfter time.Duration

	scope *MissingScopeError // for ToolMissingScope
}

// Error returns a one-line description such as
// "partner: tool createKeys failed (conflict): CONFLICT: a.b is a parent".
func (e *ToolError) Error() string {
	var b strings.Builder
	b.WriteString("partner: tool ")
	b.WriteString(e.Tool)
	b.WriteString(" failed (")
	b.WriteString(string(e.Kind))
	b.WriteString("): ")
	b.WriteString(e.Text)
	if e.Required != "" {
		b.WriteString(" (required: ")
		b.WriteString(e.Required)
		b.WriteByte(')')
	}
	if e.RetryAfter > 0 {
		b.WriteString(" (retry after ")
		b.WriteString(e.RetryAfter.String())
		b.WriteByte(')')
	}
	return b.String()
}

// Is makes errors.Is work with the sentinels that match the Kind.
func (e *ToolError) Is(target error) bool {
	switch target {
	case ErrMissingScope:
		return e.Kind == ToolMissingScope
	case ErrConflict:
		return e.Kind == ToolConflict
	case ErrTemporary:
		return e.Kind == ToolTooManyRequests
	case ErrMCPUnauthorized:
		return e.Kind == ToolUnauthorized
	case ErrGrantRevoked, ErrReauthorizationRequired:
		return e.Kind == ToolGrantRevoked
	}
	return false
}

// As lets errors.As find a *MissingScopeError in a ToolMissingScope
// failure, so a scope failure reads the same over REST and MCP.
func (e *ToolError) As(target any) bool {
	p, ok := target.(**MissingScopeError)
	if !ok || e.scope == nil {
		return false
	}
	*p = e.scope
	return true
}

// FromToolText returns the error for a tool's failure text (an isError
// result or a JSON-RPC error message): always a *ToolError, whose Kind
// comes from the codes the text carries. No secret in scrub stays in the
// error, in any form the text echoes it.
func FromToolText(tool, text string, scrub redact.Secrets) error {
	text = clean(text, MaxToolText, scrub)
	e := &ToolError{Tool: tool, Kind: toolKind(strings.ToLower(text)), Text: text}
	switch e.Kind {
	case ToolMissingScope:
		e.Required = scopeIn(text)
		if e.Required == "" {
			e.Required = ToolScope(tool)
		}
		e.scope = &MissingScopeError{
			APIError: &APIError{
				// The HTTP answer was a 200 carrying a tool result.
				StatusCode: http.StatusOK,
				Code:       CodeMissingScope,
				Message:    text,
				Method:     "tools/call",
				Path:       tool,
			},
			Required: e.Required,
		}
	case ToolTooManyRequests:
		e.RetryAfter = PublishCooldown
	}
	return e
}

// toolKind recognises the codes in a lowercased failure text. Prefixes the
// tools write themselves come first, because the rest of such a text
// echoes the caller's input (a project name that says "conflict").
func toolKind(s string) ToolErrorKind {
	switch {
	case strings.HasPrefix(s, "validation error"), strings.HasPrefix(s, "invalid project format"):
		return ToolValidation
	case strings.Contains(s, "unknown tool"):
		return ToolUnknown
	case hasCode(s, "grant_revoked"):
		return ToolGrantRevoked
	case hasCode(s, "missing_scope"):
		return ToolMissingScope
	case hasCode(s, "too_many_requests"):
		return ToolTooManyRequests
	case hasCode(s, "conflict"):
		return ToolConflict
	case hasCode(s, "forbidden"):
		return ToolForbidden
	case hasCode(s, "unauthorized"):
		return ToolUnauthorized
	case hasCode(s, "not found"), hasCode(s, "not_found"):
		return ToolNotFound
	case hasCode(s, "validation error"):
		return ToolValidation
	}
	return ToolOther
}

// hasCode reports whether code occurs in s as a word of its own: not
// inside a longer identifier.
func hasCode(s, code string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], code)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(code)
		if (j == 0 || !wordByte(s[j-1])) && (end == len(s) || !wordByte(s[end])) {
			return true
		}
		i = j + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// scopeNames returns the service's scope names.
func scopeNames() [13]string {
	return [...]string{
		"org:read", "projects:read", "projects:write", "keys:read", "keys:write",
		"translations:read", "translations:write", "translations:publish",
		"content:read", "content:write", "content:publish",
		"glossary:read", "glossary:write",
	}
}

// scopeIn returns the first documented scope named in text, or "".
func scopeIn(text string) string {
	lower := strings.ToLower(text)
	best, at := "", len(lower)
	for _, sc := range scopeNames() {
		if i := strings.Index(lower, sc); i >= 0 && i < at && !followedByWord(lower, i+len(sc)) {
			best, at = sc, i
		}
	}
	return best
}

func followedByWord(s string, end int) bool { return end < len(s) && wordByte(s[end]) }

// ToolScope returns the scope the service requires for a tool, or "" for
// a tool the SDK knows none for.
func ToolScope(tool string) string {
	switch tool {
	case "listProjects", "getProject", "getTranslationContext":
		return "projects:read"
	case "listKeys":
		return "keys:read"
	case "createKeys", "deleteKeys":
		return "keys:write"
	case "updateKeys", "setTranslations":
		return "translations:write"
	case "getTranslations":
		return "translations:read"
	case "publishTranslations":
		return "translations:publish"
	}
	return ""
}
