package partnertest

import (
	"encoding/json"
	"net/http"
	"path"
	"strings"
	"time"
)

// A Fault changes how the server answers the next matching requests, to
// test a client's handling of failures. It matches on Host, Method and
// Path; Times says how many matching requests it affects.
//
// What it does, in order: wait Delay; then Hang, or Drop, or answer Status
// with Body and RetryAfter without serving the request; otherwise serve the
// request normally. Truncate cuts short whatever answer is written, so
// Truncate alone means the request took effect but the client cannot read
// the answer.
//
// Note that net/http's Transport itself retries an idempotent request
// (such as a GET) that fails on a reused connection before any answer, so a
// Drop on a GET may be invisible to the client, as it would be in
// production.
type Fault struct {
	// Host is the listener to match; HostAny (the zero value) matches
	// every one.
	Host Host
	// Method is the HTTP method to match; empty matches any.
	Method string
	// Path is a path.Match pattern for the URL path, such as
	// "/api/oauth-client/v1/projects/*"; empty matches any path.
	Path string
	// Tool, if not empty, matches only tools/call requests of this tool
	// on an MCP listener.
	Tool string
	// Times is how many matching requests the fault affects: 0 means 1,
	// and a negative number means every one until ClearFaults.
	Times int

	// Status, if not zero, is answered instead of serving the request.
	Status int
	// Body is the answer's body with Status. When empty, it is a JSON
	// error body such as {"error":"service_unavailable","message":"..."}.
	// It is sent as application/json when it is valid JSON.
	Body string
	// RetryAfter, if not empty, is sent as the Retry-After header with
	// Status, as given: seconds ("2") or an HTTP date.
	RetryAfter string
	// Location, if not empty, is sent as the Location header with Status:
	// with a 3xx Status the fault is a redirect, to test where a client
	// follows one.
	Location string

	// Delay is how long to wait before answering. The wait ends early,
	// with no answer, if the client gives up or the server is closed.
	// The request body is read before the wait, so the request is
	// complete and the server notices a client that gives up.
	Delay time.Duration
	// Hang holds the request, body read, without answering until the
	// client gives up or the server is closed.
	Hang bool
	// Drop closes the connection without answering.
	Drop bool
	// Truncate declares the answer's full length but sends only its first
	// half, then closes the connection.
	Truncate bool
	// ToolError, if not empty, answers a tools/call on an MCP listener
	// with an isError result holding this text, as the service does when
	// a tool fails; "{token}" in it is replaced by the request's Bearer
	// token, as a careless server might echo it. Other requests are
	// served normally.
	ToolError string
}

type faultState struct {
	Fault
	left int // < 0: forever
}

// InjectFault adds a fault. Faults are tried in the order they were added;
// a request takes the first one that matches and has uses left. It panics
// if f does nothing or its Path is not a valid pattern.
func (s *Server) InjectFault(f Fault) {
	if f.Status == 0 && f.Delay <= 0 && !f.Hang && !f.Drop && !f.Truncate && f.ToolError == "" {
		panic("partnertest: InjectFault: the fault does nothing")
	}
	if _, err := path.Match(f.Path, ""); err != nil {
		panic("partnertest: InjectFault: bad Path pattern " + f.Path + ": " + err.Error())
	}
	left := f.Times
	if left == 0 {
		left = 1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{Fault: f, left: left})
}

// ClearFaults removes every fault that has not been used up.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault returns the fault for this request, using it once, or nil.
func (s *Server) takeFault(h Host, r *http.Request, tool string) *Fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if !f.matches(h, r, tool) {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		return &f.Fault
	}
	return nil
}

func (f *faultState) matches(h Host, r *http.Request, tool string) bool {
	if f.Host != HostAny && f.Host != h {
		return false
	}
	if f.Tool != "" && f.Tool != tool {
		return false
	}
	if f.Method != "" && f.Method != r.Method {
		return false
	}
	if f.Path == "" {
		return true
	}
	ok, _ := path.Match(f.Path, r.URL.Path)
	return ok
}

// faultBody returns the body and content type answered with f.Status.
func faultBody(f *Fault) ([]byte, string) {
	if f.Body == "" {
		code := strings.ReplaceAll(strings.ToLower(http.StatusText(f.Status)), " ", "_")
		if code == "" {
			code = "error"
		}
		b, _ := json.Marshal(errorBody{Error: code, Message: "injected fault"})
		return append(b, '\n'), "application/json"
	}
	b := []byte(f.Body)
	if json.Valid(b) {
		return b, "application/json"
	}
	return b, http.DetectContentType(b)
}
