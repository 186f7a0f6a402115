package partnertest_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
)

// bearer adds a Bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// connect opens an MCP session to srv's translation tools with token, as
// an SDK should: a documented protocol version and no standalone stream.
func connect(t testing.TB, srv *partnertest.Server, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint:             srv.MCPURL + partnertest.MCPPath,
		HTTPClient:           &http.Client{Transport: bearer{token, srv.Client().Transport}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-06-18"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// callTool calls a tool and returns the text of its first content block
// and whether it is an error.
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content", name)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content[0] is %T", name, res.Content[0])
	}
	return tc.Text, res.IsError
}

// callOK calls a tool that must succeed and decodes its result into out.
func callOK(t testing.TB, cs *mcp.ClientSession, name string, args, out any) {
	t.Helper()
	text, isErr := callTool(t, cs, name, args)
	if isErr {
		t.Fatalf("%s: isError %q", name, text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		t.Fatalf("%s: %v in %s", name, err, text)
	}
}

// callErr calls a tool that must fail and returns its text.
func callErr(t testing.TB, cs *mcp.ClientSession, name string, args any) string {
	t.Helper()
	text, isErr := callTool(t, cs, name, args)
	if !isErr {
		t.Fatalf("%s: succeeded with %s, want isError", name, text)
	}
	return text
}

// mcpFixture is a server with one grant, a project "org-1/web" (source en,
// targets de and fr) and an MCP session with an installation token.
type mcpFixture struct {
	srv   *partnertest.Server
	g     partnertest.Grant
	p     partnertest.Project
	token string
	cs    *mcp.ClientSession
}

func newMCPFixture(t testing.TB, opts ...partnertest.GrantOption) *mcpFixture {
	t.Helper()
	srv := newServer(t)
	g := srv.NewGrant(opts...)
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}, {Code: "fr", Name: "French"}}})
	tok := srv.IssueInstallationToken(g.ID)
	return &mcpFixture{srv: srv, g: g, p: p, token: tok, cs: connect(t, srv, tok)}
}

const project = "org-1/web"

func TestMCPSmoke(t *testing.T) {
	f := newMCPFixture(t)
	var out map[string]any
	callOK(t, f.cs, "listProjects", map[string]any{}, &out)
	t.Logf("%v", out)
	text, _ := callTool(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "home.title", "v": "Welcome"}}})
	t.Log(text)
	t.Logf("%+v", f.srv.MCPCounts())
	for _, r := range f.srv.Requests() {
		t.Logf("%+v", r)
	}
	_ = strings.Contains
	_ = context.Background
}
