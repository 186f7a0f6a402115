package partner

import (
	"testing"

	"github.com/locsvc/partner-go/internal/apierr"
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
