package apierr

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

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
		err := FromResponse("GET", "/p", status, body, 0, "SECRET")
		var ae *APIError
		if !errors.As(err, &ae) || ae.StatusCode != status {
			t.Fatalf("FromResponse gave %#v", err)
		}
		s := err.Error()
		if strings.Contains(s, "SECRET") || strings.Contains(string(ae.Body), "SECRET") {
			t.Fatalf("secret in %q / %q", s, ae.Body)
		}
		if strings.ContainsAny(ae.Message+ae.Code, "\n\r") || !utf8.ValidString(ae.Message) {
			t.Fatalf("message not one clean line: %q", ae.Message)
		}
		if len(ae.Body) > MaxBodySnippet {
			t.Fatalf("body snippet of %d bytes", len(ae.Body))
		}
	})
}
