package mcpsession

import (
	"net/http"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/internal/transport"
)

// FuzzCheck: whatever a server answers, the check of a 2xx answer never
// panics, and what it says of an unusable answer quotes none of it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","method":"notifications/message"}`,
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
		"event: message\ndata: {\"id\":\ndata: 1}\n\n",
		"data: svc_oat_ABCDEFGHIJKLMNOP\r\n\r\n",
		"<html>svc_oat_ABCDEFGHIJKLMNOP</html>", ``, `[]`, `null`,
	} {
		f.Add(s, "application/json")
		f.Add(s, "text/event-stream")
	}
	f.Fuzz(func(t *testing.T, body, ct string) {
		for _, method := range []string{"tools/call", "initialize"} {
			msg := message{ID: []byte("1"), Method: method}
			problem := check(msg, transport.Response{StatusCode: 200, Header: http.Header{"Content-Type": {ct}}, Body: []byte(body)})
			if problem == "" {
				continue
			}
			const run = 20 // longer than any fixed phrase's quoted part
			for i := 0; i+run <= len(body); i++ {
				if strings.Contains(problem, body[i:i+run]) {
					t.Fatalf("the problem %q quotes the answer %q", problem, body[i:i+run])
				}
			}
		}
	})
}
