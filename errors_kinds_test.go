package partner

import (
	"errors"
	"testing"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
)

// TestToolErrorKindsAreTheClassifiers: public(err) converts a kind by its
// string, so each kind a user branches on must be the one the classifier
// gives.
func TestToolErrorKindsAreTheClassifiers(t *testing.T) {
	for public, internal := range map[ToolErrorKind]apierr.ToolErrorKind{
		ToolUnauthorized: apierr.ToolUnauthorized, ToolForbidden: apierr.ToolForbidden,
		ToolMissingScope: apierr.ToolMissingScope, ToolConflict: apierr.ToolConflict,
		ToolTooManyRequests: apierr.ToolTooManyRequests, ToolNotFound: apierr.ToolNotFound,
		ToolValidation: apierr.ToolValidation, ToolUnknown: apierr.ToolUnknown,
		ToolGrantRevoked: apierr.ToolGrantRevoked, ToolOther: apierr.ToolOther,
	} {
		if string(public) != string(internal) {
			t.Errorf("partner kind %q is %q inside", public, internal)
		}
	}
}

// TestScopesAreTheOnesRecognised: a tool's missing_scope text naming any
// of the Scope constants gives that scope as Required; the classifier's
// list of names is the one package partner documents.
func TestScopesAreTheOnesRecognised(t *testing.T) {
	for _, sc := range []string{ScopeOrgRead, ScopeProjectsRead, ScopeProjectsWrite, ScopeKeysRead, ScopeKeysWrite,
		ScopeTranslationsRead, ScopeTranslationsWrite, ScopeTranslationsPublish, ScopeContentRead, ScopeContentWrite,
		ScopeContentPublish, ScopeGlossaryRead, ScopeGlossaryWrite} {
		var te *ToolError
		if err := public(apierr.FromToolText("x", "missing_scope: needs "+sc, redact.Secrets{})); !errors.As(err, &te) || te.Required != sc {
			t.Errorf("%s: Required %q", sc, te.Required)
		}
	}
}
