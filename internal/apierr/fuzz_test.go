package apierr

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/internal/redact"
)

// secretForms lists the forms of secret a server may echo: as is, JSON
// escaped (\/ and \uXXXX), percent-encoded, and base64 in four variants.
func secretForms(secret string) []string {
	q, _ := json.Marshal(secret)
	var uni strings.Builder
	for _, r := range secret {
		fmt.Fprintf(&uni, `\u%04x`, r)
	}
	b := []byte(secret)
	return []string{secret, string(q[1 : len(q)-1]), strings.ReplaceAll(secret, "/", `\/`), uni.String(),
		url.QueryEscape(secret), url.PathEscape(secret),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b)}
}

// FuzzFromResponse: any error body gives an *APIError (or
// *MissingScopeError) with the status, whose text is one valid line that
// never holds a scrubbed secret.
func FuzzFromResponse(f *testing.F) {
	f.Add(403, []byte(`{"error":"missing_scope","required":"projects:write"}`))
	f.Add(410, []byte(`{"error":"grant_revoked","message":"gone"}`))
	f.Add(400, []byte(`{"error":{"code":"invalid_grant","message":"nested"}}`))
	f.Add(502, []byte(`<html>bad gateway</html>`))
	f.Add(500, []byte(`{"error":"x","message":"line1\nline2 SECRET"}`))
	f.Add(401, []byte{})
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		// The secret is echoed in every form a server might use, inside
		// the fuzzed body.
		const secret = "rt_S3cr/t+t0k=n"
		forms := secretForms(secret)
		body = append(body, []byte(" "+strings.Join(forms, " ")+" ")...)
		err := FromResponse("GET", "/p", status, nil, body, redact.New(secret))
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != status {
			t.Fatalf("FromResponse gave %#v", err)
		}
		s := err.Error()
		for _, form := range forms {
			if strings.Contains(s, form) || strings.Contains(string(ae.Body), form) {
				t.Fatalf("secret form %q in %q / %q", form, s, ae.Body)
			}
		}
		if strings.ContainsFunc(ae.Message+ae.Code, unicode.IsControl) || !utf8.ValidString(ae.Message) {
			t.Fatalf("message not one clean line: %q", ae.Message)
		}
		if len(ae.Body) > MaxBodySnippet {
			t.Fatalf("body snippet of %d bytes", len(ae.Body))
		}
	})
}
