// Package mcptest is a small MCP server for the SDK's own tests: the
// go-sdk's stateless Streamable HTTP handler with JSON responses, behind
// an HTTP layer that checks what the service's MCP servers require
// (POST only, Accept, Content-Type, a bearer token), counts what it gets,
// and lets a test inject faults.
package mcptest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Versions returns the protocol versions the server accepts: the ones the
// service documents.
func Versions() []string { return []string{"2025-06-18", "2025-03-26"} }

// Tool is a tool the server offers. Run gets the raw arguments and returns
// the text of the result's content block and whether it is an error.
type Tool struct {
	Name     string
	ReadOnly bool
	Run      func(args json.RawMessage) (text string, isError bool)
}

// Fault is what the HTTP layer does instead of serving a request: answer
// Status with Body (and Header), or Drop the connection after reading the
// request. The zero Fault serves the request.
type Fault struct {
	Status int
	Body   string
	Header http.Header
	Drop   bool
}

// Request is one request the server got, as the HTTP layer saw it.
type Request struct {
	HTTPMethod string
	Header     http.Header
	ID         json.RawMessage // JSON-RPC id; empty for a notification
	Method     string          // JSON-RPC method
	Tool       string          // params.name of a tools/call
	Arguments  json.RawMessage // params.arguments of a tools/call
}

// Server is a running test MCP server.
type Server struct {
	*httptest.Server
	Endpoint string // URL of the MCP endpoint (/mcp)

	mu        sync.Mutex
	requests  []Request
	authorize func(tok string) bool // nil accepts any non-empty token
	fault     func(r Request) Fault
}

// NewServer starts a server with tools; it is closed at the end of the test.
func NewServer(tb testing.TB, tools ...Tool) *Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "mcptest", Version: "0.0.0"}, &mcp.ServerOptions{
		SupportedProtocolVersions: Versions(),
	})
	for _, tl := range tools {
		srv.AddTool(&mcp.Tool{
			Name:        tl.Name,
			InputSchema: json.RawMessage(`{"type":"object"}`),
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: tl.ReadOnly},
		}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text, isErr := tl.Run(req.Params.Arguments)
			return &mcp.CallToolResult{IsError: isErr, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	s := &Server{}
	mux := http.NewServeMux()
	mux.Handle("/mcp", s.wrap(h))
	s.Server = httptest.NewServer(mux)
	s.Endpoint = s.URL + "/mcp"
	tb.Cleanup(s.Close)
	return s
}

// SetAuthorize sets which tokens the server accepts.
func (s *Server) SetAuthorize(f func(tok string) bool) {
	s.mu.Lock()
	s.authorize = f
	s.mu.Unlock()
}

// SetFault sets the fault to inject per request; nil serves everything.
func (s *Server) SetFault(f func(r Request) Fault) {
	s.mu.Lock()
	s.fault = f
	s.mu.Unlock()
}

// Requests returns a copy of the requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many requests match f.
func (s *Server) Count(f func(Request) bool) int {
	n := 0
	for _, r := range s.Requests() {
		if f(r) {
			n++
		}
	}
	return n
}

// Calls returns the arguments of every tools/call of tool, in order.
func (s *Server) Calls(tool string) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range s.Requests() {
		if r.Method == "tools/call" && r.Tool == tool {
			out = append(out, r.Arguments)
		}
	}
	return out
}

func (s *Server) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		rec := Request{HTTPMethod: r.Method, Header: r.Header.Clone(), ID: msg.ID, Method: msg.Method}
		if msg.Method == "tools/call" {
			rec.Tool, rec.Arguments = msg.Params.Name, msg.Params.Arguments
		}
		s.mu.Lock()
		s.requests = append(s.requests, rec)
		authorize, fault := s.authorize, s.fault
		s.mu.Unlock()

		w.Header().Set("Content-Type", "application/json")
		// What the service's servers refuse, in the order they check it;
		// then the test's fault, if any.
		var f Fault
		tok, hasToken := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		accept := r.Header.Get("Accept")
		switch {
		case r.Method != http.MethodPost:
			f = Fault{Status: http.StatusMethodNotAllowed, Body: `{"error":"SSE not supported in stateless mode. Use POST for requests."}`}
		case !hasToken || tok == "":
			f = Fault{Status: http.StatusUnauthorized, Body: `{"error":"Authorization required"}`,
				Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="` + s.URL + `/.well-known/oauth-protected-resource"`}}}
		case authorize != nil && !authorize(tok):
			f = Fault{Status: http.StatusUnauthorized, Body: `{"error":"Invalid or expired OAuth token"}`}
		case !strings.Contains(accept, "application/json") || !strings.Contains(accept, "text/event-stream"):
			f = Fault{Status: http.StatusNotAcceptable, Body: `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Not Acceptable"},"id":null}`}
		case !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json"):
			f = Fault{Status: http.StatusUnsupportedMediaType}
		case fault != nil:
			f = fault(rec)
		}
		switch {
		case f.Drop:
			panic(http.ErrAbortHandler) // net/http closes the connection, nothing written
		case f.Status != 0:
			maps.Copy(w.Header(), f.Header)
			w.WriteHeader(f.Status)
			io.WriteString(w, f.Body)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
