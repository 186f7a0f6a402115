package partnertest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
)

// mcpPost sends one JSON-RPC body to srv's MCP endpoint.
func mcpPost(t *testing.T, srv *partnertest.Server, method, token, accept, ctype, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, srv.MCPURL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

const (
	both     = "application/json, text/event-stream"
	listCall = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
)

func TestMCPHTTPRules(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	tok := srv.IssueInstallationToken(g.ID)
	for _, tt := range []struct {
		name, method, accept, ctype, body string
		status                            int
		want                              string // in the body
	}{
		{"tools/list without initialize", "POST", both, "application/json", listCall, 200, `"publishTranslations"`},
		{"Accept without event-stream", "POST", "application/json", "application/json", listCall, 406, `"code":-32000`},
		{"no Accept", "POST", "", "application/json", listCall, 406, `Not Acceptable`},
		{"form body", "POST", both, "application/x-www-form-urlencoded", listCall, 415, `Unsupported Media Type`},
		{"malformed JSON", "POST", both, "application/json", `{"jsonrpc":`, 400, `"code":-32700`},
		{"only a notification", "POST", both, "application/json", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ``},
		{"newer discovery call", "POST", both, "application/json", `{"jsonrpc":"2.0","id":2,"method":"server/discover"}`, 200, `"code":-32601`},
		{"GET", "GET", "text/event-stream", "", "", 405, `SSE not supported in stateless mode`},
		{"DELETE", "DELETE", "", "", "", 200, ``},
		{"OPTIONS", "OPTIONS", "", "", "", 204, ``},
	} {
		r := mcpPost(t, srv, tt.method, tok, tt.accept, tt.ctype, tt.body)
		if r.status != tt.status || !strings.Contains(string(r.body), tt.want) {
			t.Errorf("%s: %d %s, want %d with %s", tt.name, r.status, r.body, tt.status, tt.want)
		}
		if r.header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no Access-Control-Allow-Origin", tt.name)
		}
		if r.header.Get("Mcp-Session-Id") != "" {
			t.Errorf("%s: session id %q", tt.name, r.header.Get("Mcp-Session-Id"))
		}
	}
	// initialize answers with a documented version, whatever is asked.
	r := mcpPost(t, srv, "POST", tok, both, "application/json",
		`{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`)
	var init struct {
		Result struct{ ProtocolVersion string } `json:"result"`
	}
	if err := json.Unmarshal(r.body, &init); err != nil || init.Result.ProtocolVersion != partnertest.MCPProtocolVersions()[0] {
		t.Errorf("initialize asking 2026-07-28: %d %s", r.status, r.body)
	}
	if r := mcpPost(t, srv, "POST", tok, both, "application/json", listCall); r.header.Get("Content-Type") != "application/json" {
		t.Errorf("Content-Type %q, want application/json", r.header.Get("Content-Type"))
	}
	c := srv.MCPCounts()
	if c.Gets != 1 || c.Discovers != 1 || c.Initializes != 1 {
		t.Errorf("MCPCounts = %+v", c)
	}
	// Other paths.
	for path, status := range map[string]int{"/health": 200, "/nope": 404, "/.well-known/oauth-protected-resource": 200} {
		resp, err := srv.Client().Get(strings.TrimSuffix(srv.MCPURL, partnertest.MCPPath) + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, status)
		}
	}
}

func TestMCPAuth(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	revoked := srv.NewGrant()
	rtok := srv.IssueInstallationToken(revoked.ID)
	srv.Revoke(revoked.ID)
	expired := srv.IssueInstallationToken(g.ID)
	srv.Advance(partnertest.InstallationTokenLifetime)
	for _, tt := range []struct {
		name, token string
		status      int
		want        string
	}{
		{"no token", "", 401, `{"error":"Authorization required"}`},
		{"unknown token", "svc_oat_madeup", 401, `{"error":"Invalid or expired OAuth token"}`},
		{"access token", srv.IssueAccessToken(g.ID), 401, `{"error":"Invalid or expired OAuth token"}`},
		{"expired token", expired, 401, `{"error":"Invalid or expired OAuth token"}`},
		{"revoked grant", rtok, 410, `{"error":"grant_revoked"}`},
		{"valid token", srv.IssueInstallationToken(g.ID), 200, `"tools"`},
	} {
		for _, method := range []string{"POST", "GET"} {
			r := mcpPost(t, srv, method, tt.token, both, "application/json", listCall)
			want := tt.status
			if method == "GET" && want == 200 {
				want = 405
			}
			if r.status != want || (want != 405 && !strings.Contains(string(r.body), tt.want)) {
				t.Errorf("%s %s: %d %s, want %d %s", method, tt.name, r.status, r.body, want, tt.want)
			}
			if tt.token == "" && !strings.Contains(r.header.Get("WWW-Authenticate"), `resource_metadata="`+strings.TrimSuffix(srv.MCPURL, partnertest.MCPPath)+`/.well-known/oauth-protected-resource"`) {
				t.Errorf("%s: WWW-Authenticate %q", tt.name, r.header.Get("WWW-Authenticate"))
			}
		}
	}
}

// TestMCPDefaultClient: the go-sdk client with its defaults first tries the
// newer protocol's discovery call, which fails here as on the service, and
// then falls back to initialize; and it opens the standalone stream the
// service holds open forever, which the fake refuses and counts.
func TestMCPDefaultClient(t *testing.T) {
	srv := newServer(t)
	g := srv.NewGrant()
	c := mcp.NewClient(&mcp.Implementation{Name: "default", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint:   srv.MCPURL,
		HTTPClient: &http.Client{Transport: bearer{srv.IssueInstallationToken(g.ID), srv.Client().Transport}},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v := cs.InitializeResult().ProtocolVersion; v != partnertest.MCPProtocolVersions()[0] {
		t.Errorf("negotiated %q", v)
	}
	if _, err := cs.ListTools(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	cs.Close()
	if c := srv.MCPCounts(); c.Discovers != 1 || c.Initializes != 1 || c.Gets < 1 {
		t.Errorf("MCPCounts = %+v, want a discovery call, an initialize and a GET", c)
	}
}

func TestMCPToolsList(t *testing.T) {
	f := newMCPFixture(t)
	res, err := f.cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, tl := range res.Tools {
		a := tl.Annotations
		switch {
		case a.ReadOnlyHint:
			kinds[tl.Name] = "R"
		case a.DestructiveHint != nil && *a.DestructiveHint:
			kinds[tl.Name] = "D"
		default:
			kinds[tl.Name] = "W"
		}
		if tl.OutputSchema != nil {
			t.Errorf("%s has an output schema", tl.Name)
		}
	}
	want := map[string]string{"listProjects": "R", "getProject": "R", "proposeLanguages": "W", "proposeLanguageEdits": "W",
		"listKeys": "R", "getTranslations": "R", "createKeys": "W", "updateKeys": "W", "setTranslations": "W",
		"deleteKeys": "D", "getPendingChanges": "R", "publishTranslations": "W", "getSyncs": "R", "getSync": "R",
		"cancelSync": "W", "getTranslationContext": "R"}
	if len(kinds) != 16 {
		t.Errorf("%d tools, want 16", len(kinds))
	}
	for name, k := range want {
		if kinds[name] != k {
			t.Errorf("%s: kind %q, want %q", name, kinds[name], k)
		}
	}
}

func TestMCPFaults(t *testing.T) {
	f := newMCPFixture(t)
	srv := f.srv
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "listKeys", ToolError: "Unauthorized: token {token} refused"})
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createKeys", Status: 503, Times: 1})
	// A fault for one tool leaves the others alone.
	callOK(t, f.cs, "getProject", map[string]any{"project": project}, new(map[string]any))
	if text := callErr(t, f.cs, "listKeys", map[string]any{"project": project}); text != "Unauthorized: token "+f.token+" refused" {
		t.Errorf("echoing fault: %q", text)
	}
	if _, err := f.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "createKeys", Arguments: map[string]any{"project": project, "k": []any{map[string]any{"n": "a"}}}}); err == nil {
		t.Error("createKeys through a 503: no error")
	}
	if n := len(srv.TranslationKeys(f.p.ID)); n != 0 {
		t.Errorf("a refused createKeys made %d keys", n)
	}
	var faulted, calls int
	for _, r := range srv.Requests() {
		if r.Host == partnertest.HostMCP && r.RPC == "tools/call" {
			calls++
			if r.Fault {
				faulted++
			}
		}
	}
	if calls != 3 || faulted != 2 || srv.MCPCounts().ToolCalls["listKeys"] != 1 {
		t.Errorf("%d tool calls logged, %d faulted; counts %+v", calls, faulted, srv.MCPCounts())
	}
	// Host faults reach the MCP listener: 401 once, then served.
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Path: partnertest.MCPPath, Status: 401})
	if r := mcpPost(t, srv, "POST", f.token, both, "application/json", listCall); r.status != 401 {
		t.Errorf("injected 401: %d", r.status)
	}
	if r := mcpPost(t, srv, "POST", f.token, both, "application/json", listCall); r.status != 200 {
		t.Errorf("after the injected 401: %d", r.status)
	}
}

func TestMCPRateLimit(t *testing.T) {
	srv := newServer(t, partnertest.WithRateLimit(2))
	tok := srv.IssueInstallationToken(srv.NewGrant().ID)
	for i := range 2 {
		if r := mcpPost(t, srv, "POST", tok, both, "application/json", listCall); r.status != 200 {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
	if r := mcpPost(t, srv, "POST", tok, both, "application/json", listCall); r.status != 429 || r.header.Get("Retry-After") == "" {
		t.Errorf("3rd request: %d Retry-After=%q", r.status, r.header.Get("Retry-After"))
	}
}
