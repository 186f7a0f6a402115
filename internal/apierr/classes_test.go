package apierr

import (
	"net/http"
	"testing"
)

// TestAnswerClasses pins how an answer is classed by the request path and
// the token sources: who must act on it (the user reconnecting, the
// application's configuration, nobody).
func TestAnswerClasses(t *testing.T) {
	for _, tc := range []struct {
		status                            int
		code                              string
		gone, blamesApplication, wrongURL bool
	}{
		{http.StatusUnauthorized, CodeInvalidClient, false, true, false},
		{http.StatusBadRequest, CodeInvalidClient, false, true, false},
		{http.StatusNotFound, "", false, true, true},
		{http.StatusMethodNotAllowed, "", false, true, true},
		{http.StatusBadRequest, "", false, true, false},
		{http.StatusForbidden, CodeMissingScope, false, false, false},
		{http.StatusForbidden, CodeWrongOrganization, false, false, false},
		{http.StatusBadRequest, CodeRateLimited, false, false, false},
		{http.StatusTooManyRequests, "", false, false, false},
		{http.StatusInternalServerError, "", false, false, false},
		{http.StatusBadGateway, CodeInvalidClient, false, true, false},
		{http.StatusGone, "", true, true, false},
		{http.StatusBadRequest, CodeInvalidGrant, true, true, false},
		{http.StatusNotFound, CodeGrantNotFound, true, true, false},
		{http.StatusForbidden, CodeGrantRevoked, true, true, false},
	} {
		e := &APIError{StatusCode: tc.status, Code: tc.code}
		if got := e.GrantGone(); got != tc.gone {
			t.Errorf("%d %q: GrantGone() = %v, want %v", tc.status, tc.code, got, tc.gone)
		}
		if got := e.BlamesApplication(); got != tc.blamesApplication {
			t.Errorf("%d %q: BlamesApplication() = %v, want %v", tc.status, tc.code, got, tc.blamesApplication)
		}
		if got := e.WrongURL(); got != tc.wrongURL {
			t.Errorf("%d %q: WrongURL() = %v, want %v", tc.status, tc.code, got, tc.wrongURL)
		}
	}
}
