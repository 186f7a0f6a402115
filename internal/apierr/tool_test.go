package apierr

import (
	"errors"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/internal/redact"
)

func TestFromToolTextRecognisesCodesNotSentences(t *testing.T) {
	for _, tc := range []struct {
		text string
		kind ToolErrorKind
	}{
		{"CONFLICT", ToolConflict},
		{"Conflict: key 'a' is a parent of 'a.b'", ToolConflict},
		{"error: too_many_requests", ToolTooManyRequests},
		{"FORBIDDEN", ToolForbidden},
		{"Sync job not found", ToolNotFound},
		{"not_found", ToolNotFound},
		{"Error executing fooBar: Unknown tool: fooBar", ToolUnknown},
		{`Invalid project format "conflict". Expected "org/project" (e.g., "acme/web")`, ToolValidation},
		{"Validation error: Required", ToolValidation},
		{"grant_revoked", ToolGrantRevoked},
		{"unauthorizedish thing", ToolOther},
		{"nonconflicting", ToolOther},
		{"", ToolOther},
	} {
		err := FromToolText("createKeys", tc.text, redact.Secrets{})
		var te *ToolError
		if !errors.As(err, &te) || te.Kind != tc.kind {
			t.Errorf("%q: kind = %v, want %s", tc.text, te.Kind, tc.kind)
		}
	}
}

func TestMissingScopeRequired(t *testing.T) {
	for _, tc := range []struct{ tool, text, want string }{
		{"publishTranslations", "missing_scope", "translations:publish"},
		{"createKeys", "Forbidden: missing_scope (required: keys:write)", "keys:write"},
		{"listKeys", "missing_scope: needs translations:read", "translations:read"},
		{"getSyncs", "missing_scope", ""},
	} {
		err := FromToolText(tc.tool, tc.text, redact.Secrets{})
		var mse *MissingScopeError
		if !errors.As(err, &mse) || mse.Required != tc.want {
			t.Errorf("%s %q: Required = %v, want %q", tc.tool, tc.text, mse, tc.want)
		}
		if !errors.Is(err, ErrMissingScope) || errors.Is(err, ErrConflict) {
			t.Errorf("%q: wrong sentinels", tc.text)
		}
	}
}

func TestToolTextScrubbedAndBounded(t *testing.T) {
	text := "Unauthorized: svc_oat_secret\nline two " + strings.Repeat("x", 2*MaxToolText)
	err := FromToolText("getProject", text, redact.New("svc_oat_secret"))
	if strings.Contains(err.Error(), "svc_oat_secret") || strings.Contains(err.Error(), "\n") {
		t.Errorf("error = %q", err)
	}
	var te *ToolError
	errors.As(err, &te)
	if len(te.Text) > MaxToolText+len("…") {
		t.Errorf("Text has %d bytes", len(te.Text))
	}
}

func FuzzFromToolText(f *testing.F) {
	for _, s := range []string{"CONFLICT", "missing_scope translations:publish", "Validation error: Required", "Error executing x: Unknown tool: x", "\xff\xfe", "svc_oat_tok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		err := FromToolText("publishTranslations", text, redact.New("svc_oat_tok"))
		msg := err.Error()
		if strings.Contains(msg, "svc_oat_tok") {
			t.Fatalf("token in %q", msg)
		}
		var te *ToolError
		if !errors.As(err, &te) || te.Kind == "" {
			t.Fatalf("no kind for %q", text)
		}
	})
}
