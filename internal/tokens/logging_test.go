package tokens

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/internal/apierr"
)

// TestGrantFailingForGoodWarnsOnce: a grant that fails for good logs one
// warning, naming the grant, the class and the service's code, however
// many calls and answers meet the failure, and never a token.
func TestGrantFailingForGoodWarnsOnce(t *testing.T) {
	for _, tc := range []struct {
		name, body, class, code string
		status                  int
		want                    error
	}{
		{"gone", `{"error":"invalid_grant"}`, "reauthorization required", "invalid_grant", 400, apierr.ErrReauthorizationRequired},
		{"configuration", `{"error":"invalid_client"}`, "configuration", "invalid_client", 401, apierr.ErrConfiguration},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				e := &endpoint{answer: func(int32) (int, string) { return tc.status, tc.body }}
				var log bytes.Buffer
				r := refresher(e, nil)
				r.cfg.Logger = slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: slog.LevelWarn}))
				s := r.Source("g-1", &oauth2.Token{AccessToken: "at-secret", RefreshToken: "rt-secret"})
				for range 3 {
					if _, err := s.Token(t.Context()); !errors.Is(err, tc.want) {
						t.Fatalf("Token: %v; want %v", err, tc.want)
					}
				}
				// A request's answer says the same again.
				s.Fail(t.Context(), apierr.ErrReauthorizationRequired, s.Generation())
				lines := strings.Split(strings.TrimSpace(log.String()), "\n")
				if len(lines) != 1 {
					t.Fatalf("log has %d lines, want one warning:\n%s", len(lines), log.String())
				}
				var got map[string]any
				if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
					t.Fatal(err)
				}
				want := map[string]any{"level": "WARN", "msg": "partner: grant failed for good", "grant": "g-1", "class": tc.class, "code": tc.code}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("warning's %s = %v, want %v (%s)", k, got[k], v, lines[0])
					}
				}
				if strings.Contains(log.String(), "at-secret") || strings.Contains(log.String(), "rt-secret") {
					t.Errorf("the log holds a token: %s", log.String())
				}
			})
		})
	}
}
