package toolcalls_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/internal/transport"
	"github.com/locsvc/partner-go/keys"
)

// bearer adds a Bearer token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (t bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+t.token)
	return t.next.RoundTrip(r)
}

func mustURL(b *testing.B, raw string) *url.URL {
	u, err := url.Parse(raw)
	if err != nil {
		b.Fatal(err)
	}
	return u
}

const benchAnswer = `{"ok": true, "cnt": 1, "new": 1, "ren": 0, "dup": 0, "k": [{"k": "nav.home", "id": "0b5c6a1e-4c1f-4e0a-9d7b-2f1f7c2f9a10", "tr": {}}], "pub": {"has": true, "cnt": 1, "hint": "Run publishTranslations"}}`

// BenchmarkCreateKeys measures one createKeys call through the SDK's
// session next to two floors: go-sdk, the official MCP SDK's own client
// session on its Streamable HTTP transport with a bearer token (what
// mcpsession is built on, so sdk/go-sdk is this SDK's own overhead), and
// bare, a net/http POST of the same JSON-RPC tools/call to the same
// server, decoded with encoding/json. req/op is HTTP requests per call
// after the first (expected 1).
func BenchmarkCreateKeys(b *testing.B) {
	srv := mcptest.NewServer(b, mcptest.Tool{Name: "createKeys", Run: func(json.RawMessage) (string, bool) { return benchAnswer, false }})
	ks := []keys.NewKey{{Name: "nav.home", Namespace: "common", SourceText: "Home"}}

	b.Run("sdk", func(b *testing.B) {
		sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_bench"),
			Runner: transport.New(transport.Options{BaseURL: mustURL(b, srv.Endpoint), HTTPClient: &http.Client{}})})
		if err != nil {
			b.Fatal(err)
		}
		defer sess.Close()
		ctx := b.Context()
		if _, err := toolcalls.CreateKeys(ctx, sess, "acme/web", ks, keys.CreateOptions{}); err != nil { // connect
			b.Fatal(err)
		}
		before := len(srv.Requests())
		b.ReportAllocs()
		for b.Loop() {
			if _, err := toolcalls.CreateKeys(ctx, sess, "acme/web", ks, keys.CreateOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(srv.Requests())-before)/float64(b.N), "req/op")
	})

	b.Run("go-sdk", func(b *testing.B) {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(b.Context(), &mcp.StreamableClientTransport{
			Endpoint:             srv.Endpoint,
			HTTPClient:           &http.Client{Transport: bearer{"svc_oat_bench", http.DefaultTransport}},
			DisableStandaloneSSE: true,
			MaxRetries:           -1,
		}, &mcp.ClientSessionOptions{ProtocolVersion: mcpsession.ProtocolVersion})
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		args := map[string]any{"project": "acme/web", "k": []map[string]string{{"n": "nav.home", "ns": "common", "v": "Home"}}}
		b.ReportAllocs()
		for b.Loop() {
			res, err := cs.CallTool(b.Context(), &mcp.CallToolParams{Name: "createKeys", Arguments: args})
			if err != nil || len(res.Content) == 0 {
				b.Fatal(err)
			}
			var out struct {
				OK  bool `json:"ok"`
				Cnt int  `json:"cnt"`
			}
			if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("bare", func(b *testing.B) {
		hc := &http.Client{}
		ctx := b.Context()
		body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"createKeys","arguments":{"project":"acme/web","k":[{"n":"nav.home","ns":"common","v":"Home"}]}}}`)
		post := func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.Endpoint, bytes.NewReader(body))
			if err != nil {
				return err
			}
			req.Header.Set("Authorization", "Bearer svc_oat_bench")
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("Mcp-Protocol-Version", mcpsession.ProtocolVersion)
			resp, err := hc.Do(req)
			if err != nil {
				return err
			}
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			if err != nil {
				return err
			}
			var msg struct {
				Result struct {
					Content []struct{ Text string } `json:"content"`
				} `json:"result"`
			}
			if err := json.Unmarshal(data, &msg); err != nil || len(msg.Result.Content) == 0 {
				b.Fatalf("bad answer %s: %v", data, err)
			}
			var out struct {
				OK  bool `json:"ok"`
				Cnt int  `json:"cnt"`
				K   []struct {
					K  string `json:"k"`
					ID string `json:"id"`
				} `json:"k"`
			}
			return json.Unmarshal([]byte(msg.Result.Content[0].Text), &out)
		}
		if err := post(); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if err := post(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
