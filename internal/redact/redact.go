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
		b := []byte(secret)
		for _, form := range []string{secret, base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
			base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)} {
			text = strings.ReplaceAll(text, form, Mark)
		}
		if strings.ContainsAny(text, `\%+`) { // every escaped form has one; this spares compiling the pattern
			text = escaped(secret).ReplaceAllLiteralString(text, Mark)
		}
	}
	return text
}

// escaped returns a pattern that matches secret with any of its
// characters written as a JSON \u escape or a percent escape (and '/' as
// \/, ' ' as '+').
func escaped(secret string) *regexp.Regexp {
	var p strings.Builder
	for _, r := range secret {
		fmt.Fprintf(&p, "(?:%s|", regexp.QuoteMeta(string(r)))
		if r < utf8.RuneSelf {
			fmt.Fprintf(&p, `\\u(?i:%04x)|%%(?i:%02x)`, r, r)
			if i := strings.IndexRune("/\"\\\n\r\t\b\f", r); i >= 0 { // JSON's two-character escapes
				p.WriteString(`|\\` + regexp.QuoteMeta(`/"\nrtbf`[i:i+1]))
			}
			if r == ' ' {
				p.WriteString(`|\+`)
			}
		} else {
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError { // JSON writes it as a surrogate pair
				fmt.Fprintf(&p, `\\u(?i:%04x)\\u(?i:%04x)|`, r1, r2)
			} else {
				fmt.Fprintf(&p, `\\u(?i:%04x)|`, r)
			}
			for _, b := range []byte(string(r)) {
				fmt.Fprintf(&p, `%%(?i:%02x)`, b)
			}
		}
		p.WriteString(")")
	}
	return regexp.MustCompile(p.String())
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

// Error returns err with a text that holds no secret of s and no URL's
// query or user info; errors.Is and errors.As still see err's chain
// (syscall.ECONNRESET, *net.OpError).
func (s Secrets) Error(err error) error {
	return &scrubbed{text: URLs(s.String(err.Error())), err: err}
}

type scrubbed struct {
	text string
	err  error
}

func (e *scrubbed) Error() string { return e.text }
func (e *scrubbed) Unwrap() error { return e.err }

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
