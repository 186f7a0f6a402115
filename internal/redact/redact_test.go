package redact

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

const tok = "svc_oat_A/b+c=d~e f"

// forms lists every way the issue says a server may echo a secret.
func forms(secret string) map[string]string {
	q, _ := json.Marshal(secret)
	b := []byte(secret)
	var uni strings.Builder
	for _, r := range secret {
		for _, u := range utf16.Encode([]rune{r}) { // as JSON writes it
			fmt.Fprintf(&uni, `\u%04X`, u)
		}
	}
	return map[string]string{
		"as is":          secret,
		"json":           string(q[1 : len(q)-1]),
		"json slash":     strings.ReplaceAll(secret, "/", `\/`),
		"json unicode":   uni.String(),
		"query":          url.QueryEscape(secret),
		"path":           url.PathEscape(secret),
		"percent all":    percentAll(secret),
		"base64 std":     base64.StdEncoding.EncodeToString(b),
		"base64 url":     base64.URLEncoding.EncodeToString(b),
		"base64 raw std": base64.RawStdEncoding.EncodeToString(b),
		"base64 raw url": base64.RawURLEncoding.EncodeToString(b),
	}
}

func hex2(b byte) string { const h = "0123456789abcdef"; return string([]byte{h[b>>4], h[b&15]}) }

func percentAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString("%" + hex2(s[i]))
	}
	return b.String()
}

func TestStringRemovesEveryForm(t *testing.T) {
	s := New("client-secret", tok)
	for name, form := range forms(tok) {
		text := `{"error":"invalid_token","message":"token ` + form + ` refused"}`
		got := s.String(text)
		if strings.Contains(got, form) || !strings.Contains(got, Mark) {
			t.Errorf("%s: %q -> %q", name, text, got)
		}
		if !strings.Contains(got, "invalid_token") {
			t.Errorf("%s: lost the rest of the text: %q", name, got)
		}
	}
}

func TestZeroValueRedactsNothing(t *testing.T) {
	var s Secrets
	if got := s.String("a b c"); got != "a b c" {
		t.Fatalf("got %q", got)
	}
	if got := New("", "").String("x"); got != "x" {
		t.Fatalf("empty secrets redacted: %q", got)
	}
}

func TestWithLeavesOriginal(t *testing.T) {
	a := New("one")
	b := a.With("two")
	if got := a.String("one two"); got != Mark+" two" {
		t.Fatalf("a: %q", got)
	}
	if got := b.String("one two"); got != Mark+" "+Mark {
		t.Fatalf("b: %q", got)
	}
}

func TestURLDropsQueryAndUserinfo(t *testing.T) {
	u, _ := url.Parse("https://user:pw@evil.example:8443/cb?token=" + tok + "#frag")
	got := URL(u)
	if strings.Contains(got, "pw") || strings.Contains(got, "token=") || strings.Contains(got, "frag") {
		t.Fatalf("URL = %q", got)
	}
	text := `Post "https://evil.example/x?access_token=abc&b=1": redirect refused`
	if got := URLs(text); strings.Contains(got, "abc") || !strings.Contains(got, "evil.example/x") {
		t.Fatalf("URLs = %q", got)
	}
}

// FuzzString: whatever surrounds it, no echoed form of the secret
// survives.
func FuzzString(f *testing.F) {
	f.Add("prefix ", " suffix", "rt_9f8e7d6c5b4a")
	f.Add(`{"m":"`, `"}`, "a/b c+d")
	f.Fuzz(func(t *testing.T, pre, post, secret string) {
		// Secrets are the service's tokens and the client secret: tens of
		// bytes. The answer text around them is the untrusted input; a
		// secret of kilobytes only makes each run compile a huge pattern.
		if len(secret) < 4 || len(secret) > 512 || !utf8.ValidString(secret) {
			return
		}
		s := New(secret)
		for name, form := range forms(secret) {
			got := s.String(pre + form + post)
			// The mark's own brackets may meet the text beside it and spell
			// the secret again ("000" + "[redacted]" for "000["): that is
			// not a leak, so look in the text between the marks.
			for _, piece := range strings.Split(got, Mark) {
				if strings.Contains(piece, form) && !strings.Contains(pre+post, form) {
					t.Fatalf("%s form %q of %q survived in %q", name, form, secret, got)
				}
			}
		}
	})
}

func TestErrorScrubsTheTextAndKeepsTheChain(t *testing.T) {
	cause := &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
	err := fmt.Errorf("Post \"https://api.example/x?access_token=%s\": sent %s: %w", tok, tok, cause)
	got := New(tok).Error(err)
	if msg := got.Error(); strings.Contains(msg, tok) || strings.Contains(msg, "access_token") {
		t.Errorf("Error() = %q: holds the token or the URL's query", msg)
	}
	var op *net.OpError
	if !errors.As(got, &op) || !errors.Is(got, syscall.ECONNRESET) {
		t.Errorf("the chain is lost: errors.As *net.OpError %v, errors.Is ECONNRESET %v", errors.As(got, &op), errors.Is(got, syscall.ECONNRESET))
	}
}
