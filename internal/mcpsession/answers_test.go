package mcpsession_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcptest"
)

// Answers that are not what they claim: a 2xx that the go-sdk could not
// use, or that holds no response to the call, fails the call at once with
// a class that says what happened, and never quotes the answer.

func jsonHeader(ct string) http.Header { return http.Header{"Content-Type": {ct}} }

// answerOnCall makes the server answer every tools/call with status, body
// and Content-Type ct; body may hold %s for the call's JSON-RPC id.
func answerOnCall(f *fixture, status int, ct, body string) {
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		if r.Method != "tools/call" {
			return mcptest.Fault{}
		}
		if strings.Contains(body, "%s") {
			body := fmt.Sprintf(body, r.ID)
			return mcptest.Fault{Status: status, Header: jsonHeader(ct), Body: body}
		}
		return mcptest.Fault{Status: status, Header: jsonHeader(ct), Body: body}
	})
}

// connected returns a fixture whose session has made one call: the
// session worked.
func connected(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	if _, err := f.sess.Call(t.Context(), "listKeys", nil); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestUnusableAnswerOnAWorkingSession(t *testing.T) {
	// A token-shaped string the whole-token scrub cannot know: the SDK
	// must not quote the answer at all.
	const tokenish = "svc_oat_9f8e7d6c5b4a39281706"
	for _, tc := range []struct {
		name, ct, body string
	}{
		{"html", "text/html", "<html>" + tokenish + "</html>"},
		{"claims JSON, is not", "application/json", "Bearer " + tokenish + " was refused"},
		{"empty JSON body", "application/json", ""},
		{"no Content-Type", "", `{"jsonrpc":"2.0","id":%s,"result":{}}`},
		{"event stream that is not JSON", "text/event-stream", "data: " + tokenish + "\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := connected(t)
			answerOnCall(f, http.StatusOK, tc.ct, tc.body)
			_, err := f.sess.Call(t.Context(), "listKeys", nil)
			if !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
			}
			if errors.Is(err, apierr.ErrTemporary) || errors.Is(err, apierr.ErrConfiguration) {
				t.Errorf("err = %v: an unusable answer on a working session is neither temporary nor configuration", err)
			}
			if msg := err.Error(); strings.Contains(msg, tokenish[:12]) || strings.Contains(msg, "<html>") || strings.Contains(msg, "Bearer") {
				t.Errorf("the error quotes the answer: %s", msg)
			}
			// The session still works for the next call.
			f.srv.SetFault(nil)
			if _, err := f.sess.Call(t.Context(), "listKeys", nil); err != nil {
				t.Errorf("next call: %v", err)
			}
		})
	}
}

func TestUnusableAnswerOnFirstContactIsConfiguration(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		ct     string
		body   string
	}{
		{"html page", http.StatusOK, "text/html", "<html>Welcome</html>"},
		{"not found", http.StatusNotFound, "text/plain", "Not found"},
		{"method not allowed", http.StatusMethodNotAllowed, "application/json", `{"message":"no"}`},
		{"JSON that is not JSON-RPC", http.StatusOK, "application/json", `{"status":"ok"}`},
		{"unsupported protocol version", http.StatusOK, "application/json",
			`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":"1999-01-01","capabilities":{},"serverInfo":{"name":"x","version":"1"}}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
				if r.Method != "initialize" {
					return mcptest.Fault{}
				}
				return mcptest.Fault{Status: tc.status, Header: jsonHeader(tc.ct), Body: strings.ReplaceAll(tc.body, "%s", string(r.ID))}
			})
			_, err := f.sess.Call(t.Context(), "listKeys", nil)
			if !errors.Is(err, apierr.ErrConfiguration) {
				t.Fatalf("err = %v, want ErrConfiguration", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "/mcp") || !strings.Contains(msg, "check") {
				t.Errorf("err = %s, want the path tried and the setting to check", msg)
			}
			if errors.Is(err, apierr.ErrTemporary) {
				t.Errorf("err = %v matches ErrTemporary", err)
			}
		})
	}
}

func TestAnswerWithoutTheCallsResponseFailsAtOnce(t *testing.T) {
	for _, tc := range []struct {
		name, body string
	}{
		{"another id", `{"jsonrpc":"2.0","id":987654,"result":{"content":[{"type":"text","text":"{}"}]}}`},
		{"only a notification", `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`},
	} {
		for _, tool := range []string{"listKeys", "createKeys"} {
			t.Run(tc.name+"/"+tool, func(t *testing.T) {
				f := connected(t)
				answerOnCall(f, http.StatusOK, "application/json", tc.body)
				// No deadline of the caller's: the call must not wait for one.
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				start := time.Now()
				_, err := f.sess.Call(ctx, tool, nil)
				if !errors.Is(err, apierr.ErrUnexpectedResponse) {
					t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
				}
				if errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
					t.Fatalf("the call waited for its deadline: %v", err)
				}
				if mayHaveRun := strings.Contains(err.Error(), "may have run"); mayHaveRun != (tool == "createKeys") {
					t.Errorf("err = %v: a write must say it may have run, a read need not", err)
				}
			})
		}
	}
}

func TestToolsListStopsOnACursorCycle(t *testing.T) {
	f := newFixture(t)
	page := 0
	f.srv.SetFault(func(r mcptest.Request) mcptest.Fault {
		if r.Method != "tools/list" {
			return mcptest.Fault{}
		}
		page++
		cursor := []string{"a", "b"}[page%2]
		return mcptest.Fault{Status: http.StatusOK, Header: jsonHeader("application/json"), Body: fmt.Sprintf(
			`{"jsonrpc":"2.0","id":%s,"result":{"tools":[{"name":"t%d","inputSchema":{"type":"object"}}],"nextCursor":%q}}`, r.ID, page, cursor)}
	})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	tools, err := f.sess.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.srv.Count(isMethod("tools/list")); n > 3 {
		t.Errorf("%d tools/list requests for a cycle a, b, a: want it to stop at the first cursor seen again", n)
	}
	if len(tools) != 3 {
		t.Errorf("%d tools, want the 3 pages' tools", len(tools))
	}
}

// TestEventStreamAnswersReadAsTheGoSDKReadsThem: an event-stream answer is
// checked with the go-sdk's framing, so an answer the go-sdk can use is
// not refused, and one it would choke on (ending the connection) or skip
// is refused for this call only.
func TestEventStreamAnswersReadAsTheGoSDKReadsThem(t *testing.T) {
	const resp = `{"jsonrpc":"2.0","id":%s,"result":{"content":[{"type":"text","text":"{}"}]}}`
	const notif = `{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`
	for _, tc := range []struct {
		name, body string
		usable     bool
	}{
		{"a blank line of CR CR LF", "data: " + notif + "\n\r\r\ndata: " + resp + "\n\n", true},
		{"named message, data over two lines", "event: message\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"id\":%s,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{}\"}]}}\n\n", true},
		{"a comment, no final blank line", ": ping\ndata: " + resp, true},
		{"a data line without a colon", "data\n\ndata: " + resp + "\n\n", false},
		{"the response in an event of another name", "event: other\ndata: " + resp + "\n\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := connected(t)
			answerOnCall(f, http.StatusOK, "text/event-stream", tc.body)
			_, err := f.sess.Call(t.Context(), "listKeys", nil)
			if tc.usable && err != nil {
				t.Fatalf("err = %v, want the answer used", err)
			}
			if !tc.usable && !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
			}
			f.srv.SetFault(nil)
			if _, err := f.sess.Call(t.Context(), "listKeys", nil); err != nil {
				t.Errorf("next call: %v", err)
			}
		})
	}
}
