package apierr

import (
	"errors"
	"strings"
	"testing"
	"unicode"

	"github.com/locsvc/partner-go/internal/redact"
)

// A server's text reaches terminals and CI logs in error messages: no
// control character of any kind (C0, DEL, C1 such as U+009B, a
// one-character CSI) and no line separator is kept, in an API error, a
// tool error, or the error and error_description a callback carries
// (Clean and CleanMessage).
func TestCleanRemovesEveryControlCharacter(t *testing.T) {
	const hostile = "a\x1b]0;title\x07b\u009b31mc\u0090d\x7fe\u0085f\u2028g\u2029h\r\ni"
	check := func(where, got string) {
		t.Helper()
		for _, r := range got {
			if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
				t.Errorf("%s: %q keeps %U", where, got, r)
				return
			}
		}
		if !strings.Contains(got, "a") || !strings.Contains(got, "i") {
			t.Errorf("%s: %q lost the text around the controls", where, got)
		}
	}
	check("Clean", Clean(hostile, redact.Secrets{}))
	check("CleanMessage", CleanMessage(hostile, redact.Secrets{}))

	err := FromResponse("GET", "/p", 400, nil, []byte(`{"error":"bad\u009b2J","message":"`+"m\\u009b31m\\u007f"+`"}`), redact.Secrets{})
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("FromResponse gave %#v", err)
	}
	check("APIError.Code", "a"+ae.Code+"i")
	check("APIError.Message", "a"+ae.Message+"i")
	check("APIError.Error()", "a"+err.Error()+"i")

	terr := FromToolText("createKeys", hostile, redact.Secrets{})
	check("ToolError.Error()", terr.Error())
}
