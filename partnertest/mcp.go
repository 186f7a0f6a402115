package partnertest

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCPPath is the path of the tools' endpoint on each MCP host
// (Server.MCPURL and Server.ContentMCPURL end with it).
const MCPPath = "/mcp"

// An mcpListener is one of the MCP listeners: the translation tools
// (HostMCP) or the content tools (HostContentMCP). Both follow the same
// HTTP and MCP rules; they differ in their tools.
type mcpListener struct {
	host    Host
	origin  string // scheme and host
	ts      *httptest.Server
	tools   []string     // the names of the tools it serves
	handler http.Handler // the MCP library's handler, behind serveMCP
	counts  MCPCounts    // guarded by Server.mu
}

func (l *mcpListener) url() string { return l.origin + MCPPath }

// newMCPListener builds the MCP server of one listener with these tools;
// the caller starts its HTTP server.
func (s *Server) newMCPListener(h Host, name, instructions string, defs []toolDef) *mcpListener {
	srv := s.newMCPServer(name, instructions, defs)
	l := &mcpListener{host: h, counts: MCPCounts{ToolCalls: map[string]int{}}}
	for _, d := range defs {
		l.tools = append(l.tools, d.name)
	}
	l.handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, DisableLocalhostProtection: true})
	return l
}

// listener returns the MCP listener of h, or nil if h is not one.
func (s *Server) listener(h Host) *mcpListener {
	switch h {
	case HostMCP:
		return s.mcp
	case HostContentMCP:
		return s.content
	}
	return nil
}

// MCPProtocolVersions returns the MCP protocol versions the MCP listener
// accepts, newest first: those of the service's published servers. A
// client that asks for a newer one in initialize gets the newest of these;
// a newer protocol's discovery call (server/discover) is answered
// "Method not found", as the service's servers do.
func MCPProtocolVersions() []string {
	return []string{"2025-06-18", "2025-03-26", "2024-11-05"}
}

// MCPCounts are numbers of requests an MCP listener received.
type MCPCounts struct {
	// Gets counts GET requests to MCPPath: a client that opens a
	// standalone event stream. The service's servers hold such a stream
	// open forever, so a client should never send one.
	Gets int
	// Initializes counts initialize calls, and Discovers the newer
	// protocol's server/discover calls (which fail here, as there).
	Initializes int
	Discovers   int
	// ToolCalls counts tools/call requests by tool name, refused ones
	// included.
	ToolCalls map[string]int
}

// MCPCounts returns how many requests of each kind the translation tools'
// listener (MCPURL) received.
func (s *Server) MCPCounts() MCPCounts { return s.mcpCounts(s.mcp) }

// ContentMCPCounts returns how many requests of each kind the content
// tools' listener (ContentMCPURL) received.
func (s *Server) ContentMCPCounts() MCPCounts { return s.mcpCounts(s.content) }

func (s *Server) mcpCounts(l *mcpListener) MCPCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := l.counts
	c.ToolCalls = maps.Clone(l.counts.ToolCalls)
	return c
}

// rpcRequest is what the server reads of a JSON-RPC request before the MCP
// library serves it.
type rpcRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Name string `json:"name"`
	} `json:"params"`
}

// readRPC reads an MCP request's body, keeps it for the MCP library, and
// notes its JSON-RPC method and tool name. A body that is not one JSON
// object (a batch, or not JSON) leaves them empty.
func (c *call) readRPC() {
	if c.mcp == nil || c.r.Method != http.MethodPost || c.r.URL.Path != MCPPath {
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.w, c.r.Body, maxBodyBytes))
	c.r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		c.rpcErr = true
		return
	}
	var req rpcRequest
	if err := json.Unmarshal(body, &req); err != nil {
		c.rpcErr = !json.Valid(body)
		return
	}
	c.rpc = req
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	counts := &c.mcp.counts
	switch req.Method {
	case "initialize":
		counts.Initializes++
	case "server/discover":
		counts.Discovers++
	case "tools/call":
		c.tool = req.Params.Name
		counts.ToolCalls[c.tool]++
	}
}

// serveMCP serves an MCP listener as the service's published translation
// and content servers behave.
func (c *call) serveMCP() {
	c.w.Header().Set("Access-Control-Allow-Origin", "*")
	if c.r.Method == http.MethodOptions {
		c.write(http.StatusNoContent, "text/plain", nil)
		return
	}
	switch c.r.URL.Path {
	case MCPPath:
	case "/health":
		c.json(http.StatusOK, map[string]string{"status": "ok", "transport": "streamable-http"})
		return
	case "/.well-known/oauth-protected-resource":
		c.json(http.StatusOK, map[string]any{"resource": c.mcp.url(), "authorization_servers": []string{c.s.AuthURL}})
		return
	case "/.well-known/oauth-authorization-server":
		c.json(http.StatusOK, map[string]any{
			"issuer":                           c.s.AuthURL,
			"authorization_endpoint":           c.s.AuthURL + c.s.authorizePath,
			"token_endpoint":                   c.s.AuthURL + c.s.tokenPath,
			"code_challenge_methods_supported": []string{"S256"},
			"scopes_supported":                 []string{"openid", "profile", "email", "offline_access"},
		})
		return
	default:
		c.json(http.StatusNotFound, map[string]string{"error": "Not found"})
		return
	}
	if !c.mcpAuthorize() {
		return
	}
	switch c.r.Method {
	case http.MethodGet:
		c.s.mu.Lock()
		c.mcp.counts.Gets++
		c.s.mu.Unlock()
		c.w.Header().Set("Allow", "POST, DELETE")
		c.json(http.StatusMethodNotAllowed, map[string]string{"error": "SSE not supported in stateless mode. Use POST for requests."})
		return
	case http.MethodDelete:
		c.write(http.StatusOK, "text/plain", nil) // no session to end
		return
	case http.MethodPost:
	default:
		c.w.Header().Set("Allow", "POST, DELETE")
		c.json(http.StatusMethodNotAllowed, map[string]string{"error": "Method not allowed"})
		return
	}
	if mt, _, err := mime.ParseMediaType(c.r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		c.rpcError(http.StatusUnsupportedMediaType, nil, -32000, "Unsupported Media Type: Content-Type must be application/json")
		return
	}
	if !acceptsBoth(c.r.Header.Values("Accept")) {
		c.rpcError(http.StatusNotAcceptable, nil, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream")
		return
	}
	if c.rpcErr {
		c.rpcError(http.StatusBadRequest, nil, -32700, "Parse error: Invalid JSON")
		return
	}
	switch {
	case c.rpc.Method == "server/discover":
		c.rpcError(http.StatusOK, c.rpc.ID, -32601, "Method not found")
		return
	case c.rpc.Method == "tools/call" && !slices.Contains(c.mcp.tools, c.tool):
		c.toolResult(c.rpc.ID, "Error executing "+c.tool+": Unknown tool: "+c.tool, true)
		return
	}
	// The MCP library serves the rest; its answer is buffered so that
	// the log and faults see it like any other.
	rec := httptest.NewRecorder()
	c.mcp.handler.ServeHTTP(rec, c.r)
	for k, v := range rec.Header() {
		if k != "Content-Length" && k != "Content-Type" {
			c.w.Header()[k] = v
		}
	}
	ctype := rec.Header().Get("Content-Type")
	if ctype == "" {
		ctype = "text/plain"
	}
	c.write(rec.Code, ctype, rec.Body.Bytes())
}

// mcpAuthorize checks the Bearer token as the service's MCP servers do,
// or answers and returns false.
func (c *call) mcpAuthorize() bool {
	switch {
	case c.kind == TokenNone:
		c.w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+c.mcp.origin+`/.well-known/oauth-protected-resource"`)
		c.json(http.StatusUnauthorized, map[string]string{"error": "Authorization required"})
		return false
	case c.tok == nil || c.kind != TokenInstallation:
		c.json(http.StatusUnauthorized, map[string]string{"error": "Invalid or expired OAuth token"})
		return false
	}
	c.s.mu.Lock()
	revoked := c.tok.grant.revoked
	c.s.mu.Unlock()
	switch {
	case revoked:
		c.json(http.StatusGone, map[string]string{"error": "grant_revoked"})
		return false
	case !c.now.Before(c.tok.expires):
		c.json(http.StatusUnauthorized, map[string]string{"error": "Invalid or expired OAuth token"})
		return false
	}
	return !c.rateLimited()
}

// acceptsBoth reports whether Accept lists application/json and
// text/event-stream.
func acceptsBoth(values []string) bool {
	var js, sse bool
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
			js = js || mt == "application/json"
			sse = sse || mt == "text/event-stream"
		}
	}
	return js && sse
}

// rpcError answers a JSON-RPC error.
func (c *call) rpcError(status int, id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	c.json(status, map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": msg},
	})
}

// toolResult answers a tools/call with one text block.
func (c *call) toolResult(id json.RawMessage, text string, isError bool) {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
	c.json(http.StatusOK, map[string]any{"jsonrpc": "2.0", "id": id, "result": res})
}
