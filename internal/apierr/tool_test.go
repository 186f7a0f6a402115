package apierr

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

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

// TestRecordedToolTexts: the texts of testdata/tool-texts.json, each with
// where it came from, get their kinds; the cooldown's wait is read from
// the text; the validator's issues become readable messages; and no
// unrecognised text lands in a class that sends a write again.
func TestRecordedToolTexts(t *testing.T) {
	b, err := os.ReadFile("testdata/tool-texts.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Texts []struct {
			Source, Tool, Text, Kind string
			RetryAfterSeconds        int
			Contains                 []string
		}
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	for _, tc := range file.Texts {
		if tc.Source == "" {
			t.Errorf("%q: no source", tc.Text)
		}
		err := FromToolText(tc.Tool, tc.Text, redact.Secrets{})
		var te *ToolError
		if !errors.As(err, &te) || string(te.Kind) != tc.Kind {
			t.Errorf("%q: kind %q, want %s", tc.Text, te.Kind, tc.Kind)
			continue
		}
		if want := time.Duration(tc.RetryAfterSeconds) * time.Second; te.RetryAfter != want {
			t.Errorf("%q: RetryAfter %v, want %v", tc.Text, te.RetryAfter, want)
		}
		if got, want := errors.Is(err, ErrTemporary), tc.Kind == string(ToolTooManyRequests); got != want {
			t.Errorf("%q: errors.Is(ErrTemporary) = %v", tc.Text, got)
		}
		if got, want := errors.Is(err, ErrConflict), tc.Kind == string(ToolConflict); got != want {
			t.Errorf("%q: errors.Is(ErrConflict) = %v", tc.Text, got)
		}
		if got, want := errors.Is(err, ErrMCPUnauthorized), tc.Kind == string(ToolUnauthorized); got != want {
			t.Errorf("%q: errors.Is(ErrMCPUnauthorized) = %v", tc.Text, got)
		}
		for _, c := range tc.Contains {
			if !strings.Contains(te.Text, c) {
				t.Errorf("%q: Text %q lacks %q", tc.Text, te.Text, c)
			}
		}
		if tc.Kind == string(ToolValidation) && strings.Contains(te.Text, `"code"`) {
			t.Errorf("Text keeps the issues' JSON: %q", te.Text)
		}
	}
}

func FuzzFromToolText(f *testing.F) {
	for _, s := range []string{"CONFLICT", "missing_scope translations:publish", "Validation error: Required", "Error executing x: Unknown tool: x", "\xff\xfe", "svc_oat_tok",
		"Error executing publishTranslations: Rate limited: please wait 5 seconds", "wait for 99999 seconds", `Key "already exists" not found`,
		`Error executing getSync: [{"code":"invalid_type","message":"Required","path":["syncId"]}]`, `[{"code":1,"message":null}]`} {
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
		if (te.RetryAfter > 0) != (te.Kind == ToolTooManyRequests) || te.RetryAfter > 24*time.Hour {
			t.Fatalf("%q: kind %s with RetryAfter %v", text, te.Kind, te.RetryAfter)
		}
		if strings.ContainsAny(te.Text, "\n\r") || len(te.Text) > MaxToolText+len("…") {
			t.Fatalf("Text not one bounded line: %q", te.Text)
		}
	})
}
