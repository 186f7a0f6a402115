package partner_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
)

// TestLogsHoldNoSecret: retries and refreshes are logged through the
// configured slog.Logger, and no line holds a token or secret.
func TestLogsHoldNoSecret(t *testing.T) {
	s := newScript()
	s.then(epGet, errReply(503, ""))
	var buf bytes.Buffer
	cfg := s.config()
	cfg.Logger = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c := s.client(t, cfg)
	if err := getProject(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	logs := buf.String()
	for _, want := range []string{"partner: retrying", "access token refreshed", "installation token minted"} {
		if !strings.Contains(logs, want) {
			t.Errorf("logs lack %q:\n%s", want, logs)
		}
	}
	assertNoSecret(t, logs, s.secrets())
	for _, str := range []string{fmt.Sprintf("%v", cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%v", &cfg)} {
		assertNoSecret(t, str, s.secrets())
	}
	buf.Reset()
	cfg.Logger.Info("config", "cfg", cfg)
	assertNoSecret(t, buf.String(), s.secrets())
	if !strings.Contains(buf.String(), clientID) {
		t.Errorf("logged config lacks the client id: %s", buf.String())
	}
}

// TestLogLevels: a failure that a retry fixed logs nothing at ERROR, and a
// body already read is not drained again; a grant that is gone gives
// exactly one warning naming it.
func TestLogLevels(t *testing.T) {
	for name, first := range map[string]reply{
		"503 then 200":               {status: http.StatusServiceUnavailable, ctype: "text/plain", body: "busy"},
		"body cut mid-read then 200": {status: 200, body: `{"id":"p1","na`, truncate: true},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newScript()
				s.then(epGet, first)
				cfg := s.config()
				logs := debugLogs(&cfg)
				if err := getProject(t.Context(), s.client(t, cfg)); err != nil {
					t.Fatal(err)
				}
				retried := false
				for _, r := range logs.records(t) {
					if r["level"] == "ERROR" || r["level"] == "WARN" {
						t.Errorf("%s record for a failure the retry fixed: %v", r["level"], r)
					}
					retried = retried || r["msg"] == "partner: retrying"
				}
				if !retried {
					t.Errorf("no debug line for the retry:\n%s", logs)
				}
				if n := s.n(epGet); n != 2 {
					t.Errorf("%d GETs, want 2", n)
				}
			})
		})
	}
	t.Run("revocation: one warning naming the grant", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newScript()
			s.handle(epGet, func(*http.Request) reply { return errReply(410, "grant_revoked") })
			cfg := s.config()
			logs := debugLogs(&cfg)
			c := s.client(t, cfg)
			for range 3 {
				getProject(t.Context(), c)
			}
			var warns []map[string]any
			var debug []string
			for _, r := range logs.records(t) {
				switch r["level"] {
				case "WARN":
					warns = append(warns, r)
				case "ERROR":
					t.Errorf("ERROR record: %v", r)
				case "DEBUG":
					if r["grant"] == grantID {
						debug = append(debug, r["msg"].(string))
					}
				}
			}
			if len(warns) != 1 || warns[0]["grant"] != grantID || warns[0]["code"] != "grant_revoked" {
				t.Fatalf("warnings %v, want one naming grant %s and grant_revoked", warns, grantID)
			}
			if d := strings.Join(debug, "|"); !strings.Contains(d, "access token refreshed") || !strings.Contains(d, "installation token minted") {
				t.Errorf("debug lines for the grant: %q; want its refresh and mint", debug)
			}
			assertNoSecret(t, logs.String(), s.secrets())
		})
	})
}
