package partner_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	partner "github.com/locsvc/partner-go"
)

// records returns the JSON log records of s.
func records(t *testing.T, s *svc) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s.logText()), "\n") {
		if line == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

// TestLogLevels: a failure that a retry fixed logs nothing at ERROR, and a
// body already read is not drained again; a grant that is gone gives
// exactly one warning naming it.
func TestLogLevels(t *testing.T) {
	const get = "GET api.test /api/oauth-client/v1/projects/p1"
	flaky := func(first func(w http.ResponseWriter)) http.HandlerFunc {
		var mu sync.Mutex
		n := 0
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			n++
			k := n
			mu.Unlock()
			if k == 1 {
				first(w)
				return
			}
			writeJSON(w, 200, map[string]any{"id": "p1"})
		}
	}
	for name, first := range map[string]func(w http.ResponseWriter){
		"503 then 200": func(w http.ResponseWriter) { http.Error(w, "busy", http.StatusServiceUnavailable) },
		"body cut mid-read then 200": func(w http.ResponseWriter) {
			w.Header().Set("Content-Length", "500")
			w.WriteHeader(200)
			w.Write([]byte(`{"id":"p1","na`))
		},
	} {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				s := newSvc()
				s.on(get, flaky(first))
				c, _ := partner.NewClient(s.config())
				if err := getP1(t.Context(), c); err != nil {
					t.Fatal(err)
				}
				retried := false
				for _, r := range records(t, s) {
					if r["level"] == "ERROR" || r["level"] == "WARN" {
						t.Errorf("%s record for a failure the retry fixed: %v", r["level"], r)
					}
					retried = retried || r["msg"] == "partner: retrying"
				}
				if !retried {
					t.Errorf("no debug line for the retry:\n%s", s.logText())
				}
				if n := s.n(get); n != 2 {
					t.Errorf("%d GETs, want 2", n)
				}
			})
		})
	}
	t.Run("revocation: one warning naming the grant", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			s := newSvc()
			s.on(get, func(w http.ResponseWriter, r *http.Request) {
				writeJSON(w, 410, map[string]string{"error": "grant_revoked"})
			})
			c, _ := partner.NewClient(s.config())
			for range 3 {
				getP1(t.Context(), c)
			}
			var warns []map[string]any
			for _, r := range records(t, s) {
				switch r["level"] {
				case "WARN":
					warns = append(warns, r)
				case "ERROR":
					t.Errorf("ERROR record: %v", r)
				}
			}
			if len(warns) != 1 || warns[0]["grant"] != "g1" || warns[0]["code"] != "grant_revoked" {
				t.Fatalf("warnings %v, want one naming grant g1 and grant_revoked", warns)
			}
			var debug []string
			for _, r := range records(t, s) {
				if r["level"] == "DEBUG" && r["grant"] == "g1" {
					debug = append(debug, r["msg"].(string))
				}
			}
			if !strings.Contains(strings.Join(debug, "|"), "access token refreshed") || !strings.Contains(strings.Join(debug, "|"), "installation token minted") {
				t.Errorf("debug lines for the grant: %q; want its refresh and mint", debug)
			}
			noSecret(t, "logs", s.logText())
		})
	})
}
