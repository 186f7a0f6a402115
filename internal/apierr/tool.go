package apierr

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/locsvc/partner-go/internal/redact"
)

// PublishCooldown is the service's wait between two publishTranslations
// calls for one project (TOO_MANY_REQUESTS), defined here only:
// translations.PublishCooldown exports it.
const PublishCooldown = 30 * time.Second

// ToolErrorKind says what a tool failure was, as far as its text tells.
type ToolErrorKind string

// The kinds of tool failure the SDK recognises, by the codes a text
// carries or a few phrases of the service's messages (see FromToolText),
// case-insensitively. Package partner documents each, as
// partner.ToolErrorKind.
const (
	ToolUnauthorized    ToolErrorKind = "unauthorized"
	ToolForbidden       ToolErrorKind = "forbidden"
	ToolMissingScope    ToolErrorKind = "missing_scope"
	ToolConflict        ToolErrorKind = "conflict"
	ToolTooManyRequests ToolErrorKind = "too_many_requests"
	ToolNotFound        ToolErrorKind = "not_found"
	ToolValidation      ToolErrorKind = "validation"
	ToolUnknown         ToolErrorKind = "unknown_tool"
	ToolGrantRevoked    ToolErrorKind = "grant_revoked"
	ToolOther           ToolErrorKind = "other"
)

// MaxToolText is how many bytes of a tool's failure text a ToolError keeps.
const MaxToolText = 500

// ToolError is partner.ToolError, which documents the fields, inside the
// SDK: a tool call the service answered with a failure (isError) or a
// JSON-RPC error. Text is scrubbed of known secrets, on one line and
// bounded.
type ToolError struct {
	Tool       string
	Kind       ToolErrorKind
	Text       string
	Required   string
	RetryAfter time.Duration

	scope *MissingScopeError // for ToolMissingScope
}

// Error returns a one-line description such as
// "partner: tool createKeys failed (conflict): CONFLICT: a.b is a parent".
func (e *ToolError) Error() string {
	s := "partner: tool " + e.Tool + " failed (" + string(e.Kind) + "): " + withRequired(e.Text, e.Required)
	if e.RetryAfter > 0 {
		s += " (retry after " + e.RetryAfter.String() + ")"
	}
	return s
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
	if ok && e.scope != nil {
		*p = e.scope
	}
	return ok && e.scope != nil
}

// FromToolText returns the error for a tool's failure text (an isError
// result or a JSON-RPC error message): always a *ToolError. No secret in
// scrub stays in the error, in any form the text echoes it.
//
// The published MCP servers forward the service's message alone, or as
// "Error executing <tool>: <message>", mostly without the API's error
// code. The Kind comes from, in this order:
//   - what the tools write themselves: "Validation error: ...",
//     "Invalid project format ...", "Unknown tool: ...", and a JSON list
//     of validation issues [{"code", "message", "path"}] (the validator's
//     own error message), whose messages and paths become the Text;
//   - the API's codes, when the text carries one: grant_revoked,
//     missing_scope, too_many_requests, conflict, forbidden, unauthorized,
//     not_found;
//   - a few phrases of the service's messages: "not found", "rate
//     limited" or "wait N seconds" (the publish cooldown: RetryAfter is N
//     seconds, or PublishCooldown when the text gives no number), and
//     "already exists" (a conflict).
//
// Anything else is ToolOther: no class that would make a write be sent
// again is guessed. Words in double quotes are the caller's values echoed
// back, and are not read.
func FromToolText(tool, text string, scrub redact.Secrets) error {
	prefix, msg := splitExecuting(text)
	lower := unquoted(strings.ToLower(msg))
	kind := toolKind(lower)
	if issues, ok := validationIssues(msg); ok {
		kind, text = ToolValidation, prefix+"Validation error: "+issues
	}
	text = clean(text, MaxToolText, scrub)
	e := &ToolError{Tool: tool, Kind: kind, Text: text}
	switch e.Kind {
	case ToolMissingScope:
		e.Required = cmp.Or(scopeIn(text), ToolScope(tool))
		// The HTTP answer was a 200 carrying a tool result.
		e.scope = &MissingScopeError{Required: e.Required,
			APIError: &APIError{StatusCode: http.StatusOK, Code: CodeMissingScope, Message: text, Method: "tools/call", Path: tool}}
	case ToolTooManyRequests:
		e.RetryAfter = cmp.Or(waitIn(lower), PublishCooldown)
	}
	return e
}

// splitExecuting splits "Error executing <tool>: <message>", as the
// servers forward a failure, into its prefix and the message; a text
// without that prefix is all message.
func splitExecuting(text string) (prefix, msg string) {
	const lead = "Error executing "
	if rest, ok := strings.CutPrefix(text, lead); ok {
		if name, m, ok := strings.Cut(rest, ": "); ok && name != "" && !strings.ContainsAny(name, " \t\r\n") {
			return text[:len(text)-len(m)], m
		}
	}
	return "", text
}

// maxIssues bounds the validation issues read from one text.
const maxIssues = 20

// validationIssues reads msg as the validator's list of issues
// ([{"code":...,"message":...,"path":[...]}]) and returns their messages,
// each after its path ("t.0.id: Invalid uuid"), joined with ", ". ok is
// false for any other text.
func validationIssues(msg string) (string, bool) {
	var issues []struct {
		Code    *string           `json:"code"`
		Message *string           `json:"message"`
		Path    []json.RawMessage `json:"path"`
	}
	if json.Unmarshal([]byte(strings.TrimSpace(msg)), &issues) != nil || len(issues) == 0 {
		return "", false
	}
	var parts []string
	for i, is := range issues {
		if is.Code == nil || is.Message == nil {
			return "", false
		}
		if i == maxIssues {
			parts = append(parts, fmt.Sprintf("and %d more", len(issues)-i))
			break
		}
		path := make([]string, len(is.Path))
		for j, p := range is.Path {
			if json.Unmarshal(p, &path[j]) != nil {
				path[j] = string(p)
			}
		}
		if len(path) > 0 {
			*is.Message = strings.Join(path, ".") + ": " + *is.Message
		}
		parts = append(parts, *is.Message)
	}
	return strings.Join(parts, ", "), true
}

// unquoted returns s without its double-quoted parts: the caller's values
// that a message echoes ("Key \"rate limited\" already exists").
func unquoted(s string) string {
	var b strings.Builder
	for {
		before, rest, ok := strings.Cut(s, `"`)
		_, after, closed := strings.Cut(rest, `"`)
		if !ok || !closed {
			break
		}
		b.WriteString(before + " ")
		s = after
	}
	return b.String() + s
}

// toolKind recognises a lowercased failure message, with its quoted parts
// removed. What the tools write themselves comes first, then the API's
// codes, then the service's phrases.
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
	case hasCode(s, "too_many_requests"), hasCode(s, "too many requests"),
		hasCode(s, "rate limited"), hasCode(s, "rate limit exceeded"), waitIn(s) > 0:
		return ToolTooManyRequests
	case hasCode(s, "conflict"), hasCode(s, "already exists"):
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

// waitPhrase finds "wait N seconds" (also "wait N s", "wait N sec",
// "wait for N seconds") in a lowercased text, N of at most five digits.
var waitPhrase = regexp.MustCompile(`(?:^|[^_a-z0-9])wait (?:for )?([0-9]{1,5}) *(?:seconds|second|secs|sec|s)(?:[^_a-z0-9]|$)`)

// waitIn returns the wait of the first waitPhrase in s, or 0.
func waitIn(s string) time.Duration {
	m := waitPhrase.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	secs, _ := strconv.Atoi(m[1])
	return min(time.Duration(secs)*time.Second, maxWait)
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
		if (j == 0 || !wordByte(s[j-1])) && !followedByWord(s, j+len(code)) {
			return true
		}
		i = j + 1
	}
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
}

// scopeNames returns the scope names the service grants: package
// partner's Scope constants, which a test there keeps equal to these.
func scopeNames() [13]string {
	return [...]string{"org:read", "projects:read", "projects:write", "keys:read", "keys:write", "translations:read",
		"translations:write", "translations:publish", "content:read", "content:write", "content:publish", "glossary:read", "glossary:write"}
}

// scopeIn returns the first of scopeNames named in text, or "".
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

// ToolScope returns the scope the service requires for a tool, or "" when
// the SDK does not know it.
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
