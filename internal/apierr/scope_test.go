package apierr

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/internal/redact"
)

// TestRequiredScopeSaidOnce: when the service's own text already ends
// with "(required: scope)", the error says it once, over REST and over a
// tool's text, and still says it when the text does not.
func TestRequiredScopeSaidOnce(t *testing.T) {
	const suffix = "(required: translations:publish)"
	rest := func(msg string) error {
		body := `{"error":"missing_scope","required":"translations:publish","message":"` + msg + `"}`
		return FromResponse(http.MethodPost, "/api/oauth-client/v1/x", 403, nil, []byte(body), redact.Secrets{})
	}
	tool := func(msg string) error { return FromToolText("publishTranslations", msg, redact.Secrets{}) }
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"REST message ending with it", rest("missing_scope " + suffix)},
		{"REST message without it", rest("the grant lacks a scope")},
		{"REST message in another case", rest("missing_scope (Required: translations:publish)")},
		{"tool text ending with it", tool("Forbidden: missing_scope " + suffix)},
		{"tool text without it", tool("missing_scope")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			texts := []string{tc.err.Error()}
			var mse *MissingScopeError
			if !errors.As(tc.err, &mse) {
				t.Fatalf("%v: no *MissingScopeError", tc.err)
			}
			texts = append(texts, mse.Error())
			for _, s := range texts {
				if n := strings.Count(strings.ToLower(s), strings.ToLower(suffix)); n != 1 {
					t.Errorf("%q says %q %d times, want once", s, suffix, n)
				}
			}
		})
	}
}
