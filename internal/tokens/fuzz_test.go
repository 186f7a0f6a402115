package tokens

import (
	"errors"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/internal/apierr"
)

// FuzzRefreshAnswer: whatever a 200 from the token endpoint holds, a
// refresh either gives its access token or fails with one bounded line
// that is neither a gone grant nor holds the refresh token or the client
// secret.
func FuzzRefreshAnswer(f *testing.F) {
	for _, s := range []string{
		`{"access_token":"at","refresh_token":"rt2","expires_in":1800}`,
		`{"access_token":"at","expires_in":1800.0}`,
		`{"access_token":"at","expires_in":"1799.5"}`,
		`{"access_token":"rt-secret","expires_in":[1]}`,
		`{"access_token":5,"refresh_token":"rt-secret"}`,
		`{"error":"rt-secret"}`,
		`s3cret`,
		``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		e := &endpoint{answer: func(int32) (int, string) { return 200, body }}
		r := NewRefresher(Config{AuthURL: "https://auth.test", ClientID: "c", ClientSecret: "s3cret",
			Context: refresher(e, nil).cfg.Context})
		_, err := r.Source("g", &oauth2.Token{RefreshToken: "rt-secret"}).Token(t.Context())
		if err == nil {
			return
		}
		msg := err.Error()
		switch {
		case errors.Is(err, apierr.ErrReauthorizationRequired):
			t.Fatalf("a 200 made the grant gone: %v", err)
		case strings.Contains(msg, "rt-secret") || strings.Contains(msg, "s3cret"):
			t.Fatalf("secret in %q", msg)
		case strings.ContainsAny(msg, "\n\r") || len(msg) > 400:
			t.Fatalf("not one short line: %q", msg)
		}
	})
}
