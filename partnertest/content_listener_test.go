package partnertest_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
)

// contentPost sends one JSON-RPC body to srv's content endpoint.
func contentPost(t *testing.T, srv *partnertest.Server, token, body string) reply {
	t.Helper()
	req, err := http.NewRequest("POST", srv.ContentMCPURL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Accept", both)
	req.Header.Set("Content-Type", "application/json")
	return do(t, srv, req)
}

func do(t *testing.T, srv *partnertest.Server, req *http.Request) reply {
	t.Helper()
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

// TestContentListener: the content tools have their own host, with the
// translation listener's HTTP rules and token checks, and their own
// tools, counts and faults.
func TestContentListener(t *testing.T) {
	for _, inMemory := range []bool{false, true} {
		var opts []partnertest.Option
		if inMemory {
			opts = append(opts, partnertest.WithInMemoryNetwork())
		}
		srv := newServer(t, opts...)
		cu, _ := url.Parse(srv.ContentMCPURL)
		mu, _ := url.Parse(srv.MCPURL)
		if cu.Path != partnertest.MCPPath || cu.Host == mu.Host || cu.Scheme != mu.Scheme {
			t.Errorf("ContentMCPURL %s next to MCPURL %s", srv.ContentMCPURL, srv.MCPURL)
		}
		if inMemory && cu.Host != "content.in-memory.partnertest.invalid" {
			t.Errorf("in-memory ContentMCPURL %s", srv.ContentMCPURL)
		}
		g := srv.NewGrant()
		tok := srv.IssueInstallationToken(g.ID)
		if r := contentPost(t, srv, "", listCall); r.status != 401 || r.errorCode() != "Authorization required" ||
			!strings.Contains(r.header.Get("WWW-Authenticate"), `resource_metadata="`+strings.TrimSuffix(srv.ContentMCPURL, partnertest.MCPPath)+`/.well-known/oauth-protected-resource"`) {
			t.Errorf("no token: %d %s %q", r.status, r.body, r.header.Get("WWW-Authenticate"))
		}
		if r := contentPost(t, srv, "svc_oat_unknown", listCall); r.status != 401 || r.errorCode() != "Invalid or expired OAuth token" {
			t.Errorf("unknown token: %d %s", r.status, r.body)
		}
		req, _ := http.NewRequest("POST", srv.ContentMCPURL, strings.NewReader(listCall))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		req.Header.Set("Content-Type", "application/json")
		if r := do(t, srv, req); r.status != http.StatusNotAcceptable {
			t.Errorf("Accept without text/event-stream: %d", r.status)
		}
		req, _ = http.NewRequest("GET", strings.TrimSuffix(srv.ContentMCPURL, partnertest.MCPPath)+"/health", nil)
		if r := do(t, srv, req); r.status != 200 || !strings.Contains(string(r.body), "streamable-http") {
			t.Errorf("health: %d %s", r.status, r.body)
		}

		cs := connectTo(t, srv, srv.ContentMCPURL, tok)
		if name := cs.InitializeResult().ServerInfo.Name; !strings.HasSuffix(name, "-content") {
			t.Errorf("serverInfo.name %q", name)
		}
		if text := callErr(t, cs, "listKeys", map[string]any{"project": "org-1/x"}); text != "Error executing listKeys: Unknown tool: listKeys" {
			t.Errorf("a translation tool on the content server: %q", text)
		}
		c := srv.ContentMCPCounts()
		if c.Initializes != 1 || c.ToolCalls["listKeys"] != 1 || srv.MCPCounts().Initializes != 0 {
			t.Errorf("content counts %+v, translation counts %+v", c, srv.MCPCounts())
		}
		srv.Close()
	}
}

// TestContentToolsList: 25 tools with the kinds of mcp-tools.md section 8.
func TestContentToolsList(t *testing.T) {
	f := newContentFixture(t)
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
	}
	want := map[string]string{
		"listContentModels": "R", "getContentModel": "R", "listContentEntries": "R", "getContentEntry": "R",
		"createContentEntry": "W", "updateContentEntry": "W", "publishContentEntry": "W", "deleteContentEntry": "D",
		"duplicateContentEntry": "W", "bulkPublishEntries": "W", "bulkCreateEntries": "W", "bulkUpdateEntries": "W",
		"createContentModel": "W", "updateContentModel": "W", "deleteContentModel": "D",
		"addField": "W", "updateField": "W", "removeField": "D", "reorderFields": "W",
		"registerBlock": "W", "bulkRegisterBlocks": "W", "listBlocks": "R", "getBlock": "R", "validateBlockParams": "R", "deleteBlock": "D",
	}
	if len(kinds) != 25 {
		t.Errorf("%d tools, want 25", len(kinds))
	}
	for name, k := range want {
		if kinds[name] != k {
			t.Errorf("%s: kind %q, want %q", name, kinds[name], k)
		}
	}
}

// TestContentFaults: faults on HostContentMCP, by tool, for a read and a
// mutating tool; a mutation answered 503 did not run.
func TestContentFaults(t *testing.T) {
	f := newContentFixture(t)
	f.blogModel(t)
	srv := f.srv
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: "listContentEntries", ToolError: "Unauthorized"})
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: "createContentEntry", Status: 503})
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Tool: "createContentEntry", Status: 500}) // another host: never used
	if text := callErr(t, f.cs, "listContentEntries", map[string]any{"project": project}); text != "Unauthorized" {
		t.Errorf("tool error fault: %q", text)
	}
	if _, err := f.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "createContentEntry", Arguments: map[string]any{
		"project": project, "modelSlug": "post", "title": "T", "slug": "t"}}); err == nil {
		t.Error("createContentEntry through a 503: no error")
	}
	if n := len(srv.ContentEntries(f.p.ID)); n != 0 {
		t.Errorf("a refused createContentEntry made %d entries", n)
	}
	f.create(t, "t", nil) // the fault is used up
	var faulted int
	for _, r := range srv.Requests() {
		if r.Host == partnertest.HostContentMCP && r.Fault {
			faulted++
		}
		if r.Host == partnertest.HostMCP {
			t.Errorf("a request reached the translation host: %+v", r)
		}
	}
	if faulted != 2 {
		t.Errorf("%d faulted content requests, want 2", faulted)
	}
	// Truncate: the mutation ran, but the client cannot read the answer.
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: "publishContentEntry", Truncate: true})
	id := srv.ContentEntries(f.p.ID)[0].ID
	if _, err := f.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "publishContentEntry", Arguments: map[string]any{"project": project, "entryId": id}}); err == nil {
		t.Error("truncated answer: no error")
	}
	if st := srv.ContentEntries(f.p.ID)[0].Status; st != "published" {
		t.Errorf("after a truncated publish the entry is %s", st)
	}
}
