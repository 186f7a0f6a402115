// Package redact is the SDK's one place that knows how a secret may be
// echoed back by a server, and removes it from text before the text
// reaches an error, a log record or a formatted value.
package redact

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Mark replaces every secret found.
const Mark = "[redacted]"

// Secrets is a set of secrets: the application's client secret and a
// grant's refresh, access and installation tokens. The zero value redacts
// nothing. A Secrets is immutable and safe for concurrent use.
type Secrets struct {
	list []string
}

// New returns the set of the non-empty secrets given.
func New(secrets ...string) Secrets { return Secrets{}.With(secrets...) }

// With returns a set holding s's secrets and more; s is unchanged.
func (s Secrets) With(more ...string) Secrets {
	list := s.list[:len(s.list):len(s.list)]
	for _, m := range more {
		if m != "" {
			list = append(list, m)
		}
	}
	return Secrets{list: list}
}

// Merge returns a set holding the secrets of s and o.
func (s Secrets) Merge(o Secrets) Secrets { return s.With(o.list...) }

// String returns text with every secret replaced by Mark, in each form a
// server may echo it in: as is; inside a JSON string, with any of its
// characters written as \uXXXX or '/' as \/; percent-encoded, in query
// (space as '+') or path form, or any mix of these escapes; and base64 of
// the secret on its own, in the standard and URL alphabets, with and
// without padding.
func (s Secrets) String(text string) string {
	for _, secret := range s.list {
		for _, form := range literalForms(secret) {
			if strings.Contains(text, form) {
				text = strings.ReplaceAll(text, form, Mark)
			}
		}
		if strings.ContainsAny(text, `\%+`) {
			text = escaped(secret).ReplaceAllLiteralString(text, Mark)
		}
	}
	return text
}

// Bytes is String for a byte slice; it returns b itself when nothing was
// redacted.
func (s Secrets) Bytes(b []byte) []byte {
	if len(s.list) == 0 || len(b) == 0 {
		return b
	}
	out := s.String(string(b))
	if out == string(b) {
		return b
	}
	return []byte(out)
}

func literalForms(secret string) []string {
	b := []byte(secret)
	return []string{
		secret,
		base64.StdEncoding.EncodeToString(b),
		base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b),
		base64.RawURLEncoding.EncodeToString(b),
	}
}

// escaped returns a pattern that matches secret with any of its
// characters written as a JSON \u escape or a percent escape (and '/' as
// \/, ' ' as '+').
func escaped(secret string) *regexp.Regexp {
	var p strings.Builder
	for _, r := range secret {
		p.WriteString("(?:")
		p.WriteString(regexp.QuoteMeta(string(r)))
		if r < utf8.RuneSelf {
			fmt.Fprintf(&p, `|\\u00%s|%%%s`, hexClass(byte(r)), hexClass(byte(r)))
			if short, ok := jsonShort(r); ok {
				p.WriteString(`|` + regexp.QuoteMeta(short))
			}
			if r == ' ' {
				p.WriteString(`|\+`)
			}
		} else {
			// JSON writes a rune past U+FFFF as a UTF-16 surrogate pair.
			u := hexRunes(fmt.Sprintf("%04x", r))
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				u = hexRunes(fmt.Sprintf("%04x", r1)) + `\\u` + hexRunes(fmt.Sprintf("%04x", r2))
			}
			fmt.Fprintf(&p, `|\\u%s|%s`, u, percentBytes(string(r)))
		}
		p.WriteString(")")
	}
	return regexp.MustCompile(p.String())
}

// jsonShort returns the two-character escape a JSON encoder may write
// for r.
func jsonShort(r rune) (string, bool) {
	const from, to = "/\"\\\n\r\t\b\f", `/"\nrtbf`
	if i := strings.IndexRune(from, r); i >= 0 {
		return `\` + to[i:i+1], true
	}
	return "", false
}

// hexClass matches the two hex digits of b in either case.
func hexClass(b byte) string { return hexRunes(fmt.Sprintf("%02x", b)) }

func hexRunes(h string) string {
	var p strings.Builder
	for _, c := range h {
		if c >= 'a' && c <= 'f' {
			fmt.Fprintf(&p, "[%c%c]", c, c-'a'+'A')
		} else {
			p.WriteRune(c)
		}
	}
	return p.String()
}

func percentBytes(s string) string {
	var p strings.Builder
	for i := 0; i < len(s); i++ {
		p.WriteString("%" + hexClass(s[i]))
	}
	return p.String()
}

// URL returns u for a log line or an error: scheme, host and path only.
// Query values, user info and fragments are never shown, since a token may
// travel in any of them.
func URL(u *url.URL) string {
	if u == nil {
		return ""
	}
	v := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	s := v.String()
	if u.RawQuery != "" || u.ForceQuery {
		s += "?[query removed]"
	}
	return s
}

// urlInText finds URLs with a query, user info or fragment in free text,
// such as the error net/http returns for a redirect.
var urlInText = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>]+`)

// URLs returns text with every URL in it cut to scheme, host and path.
func URLs(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	return urlInText.ReplaceAllStringFunc(text, func(m string) string {
		u, err := url.Parse(m)
		if err != nil {
			return "[url removed]"
		}
		return URL(u)
	})
}
