package partner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/internal/benchcmp"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
)

// benchKeysPerProject is how many keys one project of BenchmarkKeysCreate
// gets before the next call moves on to a fresh project. partnertest keeps
// every key and checks each new one against all of its project's keys, so
// with a single project the cost of a call would grow with b.N.
const benchKeysPerProject = 32

// keysBench is one run of BenchmarkKeysCreate: a fresh partnertest
// server, so that sdk and bare find the same state at every b.N, and
// enough projects for b.N keys.
type keysBench struct {
	srv      *partnertest.Server
	grant    partnertest.Grant
	projects []string // "org/project"
}

func newKeysBench(b *testing.B) *keysBench {
	b.Helper()
	srv := partnertest.NewServer(partnertest.WithRequestLogLimit(1 << 20))
	b.Cleanup(srv.Close)
	g := srv.NewGrant()
	kb := &keysBench{srv: srv, grant: g}
	org := g.Organizations[0]
	for i := range b.N/benchKeysPerProject + 2 { // one more for warming up
		p := srv.AddProject(org.ID, partnertest.Project{Name: "Bench", Slug: "bench-" + strconv.Itoa(i), SourceLanguage: "en"})
		kb.projects = append(kb.projects, org.Slug+"/"+p.Slug)
	}
	return kb
}

// project is the project of the i-th key (i from 0; -1 warms up).
func (kb *keysBench) project(i int) string { return kb.projects[i/benchKeysPerProject+1] }

// mcpRequests is how many HTTP requests the MCP listener received.
func (kb *keysBench) mcpRequests() int {
	n := 0
	for _, r := range kb.srv.Requests() {
		if r.Host == partnertest.HostMCP {
			n++
		}
	}
	return n
}

// keysMade checks that every call created its key, so that both
// sub-benchmarks did the same work.
func (kb *keysBench) keysMade(b *testing.B, want int) {
	b.Helper()
	got := 0
	for _, p := range kb.srv.Projects(kb.grant.Organizations[0].ID) {
		got += len(kb.srv.TranslationKeys(p.ID))
	}
	if got != want {
		b.Fatalf("%d keys created, want %d", got, want)
	}
}

// BenchmarkKeysCreate measures Keys.Create of one key through the SDK
// (sdk) next to its floor (bare): a net/http POST of the same JSON-RPC
// tools/call to the same kind of partnertest server with a valid
// installation token, reading the whole answer. Read the SDK's overhead as
// the ratio sdk/bare. req/call is the HTTP requests each call made after
// the session's first (expected 1). Each key has its own name: partnertest
// skips a duplicate, which would be less work.
func BenchmarkKeysCreate(b *testing.B) {
	b.Run("sdk", func(b *testing.B) {
		kb := newKeysBench(b)
		c, err := partner.NewClient(partner.Config{Pacing: noPacing,
			BaseURL: kb.srv.URL, AuthURL: kb.srv.AuthURL, MCPURL: kb.srv.MCPURL,
			ClientID: kb.srv.ClientID(), ClientSecret: kb.srv.ClientSecret(),
			GrantID: kb.grant.ID, Token: &oauth2.Token{RefreshToken: kb.grant.RefreshToken},
		})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		ctx := b.Context()
		names := benchKeyNames(b.N)
		// Warm up: refresh, mint, connect.
		if _, err := c.Keys.Create(ctx, kb.projects[0], []keys.NewKey{{Name: "warm", Namespace: "common", SourceText: "Warm"}}, keys.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
		before := kb.mcpRequests()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			res, err := c.Keys.Create(ctx, kb.project(i), []keys.NewKey{{Name: names[i], Namespace: "common", SourceText: "Home"}}, keys.CreateOptions{})
			if err != nil {
				b.Fatal(err)
			}
			if res.Count != 1 {
				b.Fatalf("created %d keys, want 1: %s", res.Count, res.Raw)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(kb.mcpRequests()-before)/float64(b.N), "req/call")
		kb.keysMade(b, b.N+1)
	})

	b.Run("bare", func(b *testing.B) {
		kb := newKeysBench(b)
		token := kb.srv.IssueInstallationToken(kb.grant.ID)
		hc := &http.Client{}
		defer hc.CloseIdleConnections()
		ctx := b.Context()
		names := benchKeyNames(b.N)
		var body []byte
		post := func(project, name string) error {
			body = fmt.Appendf(body[:0], `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createKeys","arguments":{"project":%q,"k":[{"n":%q,"ns":"common","v":"Home"}]}}}`, project, name)
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, kb.srv.MCPURL, bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Mcp-Protocol-Version", partnertest.MCPProtocolVersions()[0])
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			if resp.StatusCode != http.StatusOK || bytes.Contains(data, []byte(`"isError":true`)) {
				return fmt.Errorf("%s: %s", resp.Status, data)
			}
			return nil
		}
		if err := post(kb.projects[0], "warm"); err != nil { // a connection, like the sdk's warm-up
			b.Fatal(err)
		}
		before := kb.mcpRequests()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if err := post(kb.project(i), names[i]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		b.ReportMetric(float64(kb.mcpRequests()-before)/float64(b.N), "req/call")
		kb.keysMade(b, b.N+1)
	})
}

// benchKeyNames returns n distinct key names, none a dotted prefix of
// another.
func benchKeyNames(n int) []string {
	names := make([]string, n)
	for i := range names {
		names[i] = "bench.k" + strconv.Itoa(i)
	}
	return names
}

// bearer adds an Authorization header to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return t.next.RoundTrip(r)
}

// BenchmarkToolCall measures a read-only tool call (getProject) on a warm
// session through Tools.Call, its answer kept as sent (sdk), next to its
// floor (go-sdk): the official MCP SDK's own client session, on which the
// SDK's is built, calling the same tool of the same partnertest server
// with a valid installation token, its text kept as a json.RawMessage. The
// two take turns in one run (see compare): read the SDK's own cost as
// sdk-x-go-sdk and sdk-allocs minus go-sdk-allocs.
func BenchmarkToolCall(b *testing.B) {
	srv := partnertest.NewServer(partnertest.WithRequestLogLimit(0))
	b.Cleanup(srv.Close)
	g := srv.NewGrant()
	org := g.Organizations[0]
	p := srv.AddProject(org.ID, partnertest.Project{Name: "Bench", Slug: "bench", SourceLanguage: "en"})
	args := map[string]any{"project": org.Slug + "/" + p.Slug}
	ctx := b.Context()

	c, err := partner.NewClient(partner.Config{Pacing: noPacing,
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		HTTPClient: &http.Client{Transport: http.DefaultTransport},
	})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	sdk := func(b *testing.B) {
		var out json.RawMessage
		if err := c.Tools.Call(ctx, partner.TranslationTools, "getProject", args, &out); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}

	mc := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := mc.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             srv.MCPURL,
		HTTPClient:           &http.Client{Transport: bearer{srv.IssueInstallationToken(g.ID), http.DefaultTransport}},
		DisableStandaloneSSE: true,
		MaxRetries:           -1,
	}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	goSDK := func(b *testing.B) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "getProject", Arguments: args})
		if err != nil || res.IsError || len(res.Content) == 0 {
			b.Fatal(err, res)
		}
		var out json.RawMessage
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			b.Fatal(err)
		}
	}
	sdk(b) // tokens, connection, initialize
	goSDK(b)
	benchcmp.Compare(b, benchcmp.Contender{Name: "go-sdk", Run: goSDK}, benchcmp.Contender{Name: "sdk", Run: sdk})
}
