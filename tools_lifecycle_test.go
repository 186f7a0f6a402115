package partner_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"go.uber.org/goleak"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
)

// toolProject adds a project with a German target language to g's first
// organization and returns its name as the tools take it, "org/project".
func toolProject(srv *partnertest.Server, g partnertest.Grant) string {
	o := g.Organizations[0]
	p := srv.AddProject(o.ID, partnertest.Project{Name: "Site", Slug: "site", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	return o.Slug + "/" + p.Slug
}

// createKey creates one key in project through c's translation tools.
func createKey(ctx context.Context, c *partner.Client, project, name string) error {
	_, err := c.Keys.Create(ctx, project, []keys.NewKey{{Name: name, SourceText: "Text of " + name}}, keys.CreateOptions{})
	return err
}

// liveSessions counts the go-sdk client sessions open in the caller's
// synctest bubble (in the process, outside one): each runs one reader
// goroutine. Call it after synctest.Wait, so that a session closed just
// before has no goroutine left.
func liveSessions() int {
	stacks := func(all bool) string {
		buf := make([]byte, 1<<16)
		for {
			n := runtime.Stack(buf, all)
			if n < len(buf) {
				return string(buf[:n])
			}
			buf = make([]byte, 2*len(buf))
		}
	}
	header, _, _ := strings.Cut(stacks(false), "\n")          // "goroutine 7 [running, synctest bubble 3]:"
	_, bubble, _ := strings.Cut(header, ", synctest bubble ") // "3]:"
	n := 0
	for _, g := range strings.Split(stacks(true), "\n\n") {
		h, _, _ := strings.Cut(g, "\n")
		if strings.Contains(g, "jsonrpc2.(*Connection).readIncoming") &&
			(bubble == "" || strings.HasSuffix(h, ", synctest bubble "+bubble)) {
			n++
		}
	}
	return n
}

func TestMCPURLIsCheckedLikeTheOtherURLs(t *testing.T) {
	const querySecret = "Q-S3CR3T"
	for _, raw := range []string{
		"::not a url",
		"mcp.example.test/mcp",        // no scheme
		"ftp://mcp.example.test/mcp",  // another scheme
		"https:///mcp",                // no host
		"http://mcp.example.test/mcp", // clear text to a host on the network
		"https://mcp.example.test/mcp?token=" + querySecret, // a query
		"https://user:" + querySecret + "@mcp.example.test/mcp",
		"https://mcp.example.test/mcp#frag",
	} {
		t.Run(raw, func(t *testing.T) {
			cfg := newScript().config()
			cfg.MCPURL = raw
			_, err := partner.NewClient(cfg)
			if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config.MCPURL") {
				t.Errorf("NewClient: %v, want ErrInvalidArgument naming Config.MCPURL", err)
			}
			if err != nil {
				assertNoSecret(t, err.Error(), []string{querySecret})
			}
			_, err = partner.NewPool(partner.PoolConfig{BaseURL: baseURL, AuthURL: authURL, MCPURL: raw,
				ClientID: clientID, ClientSecret: clientSecret, Store: auth.NewMemoryStore()})
			if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "PoolConfig.MCPURL") {
				t.Errorf("NewPool: %v, want ErrInvalidArgument naming PoolConfig.MCPURL", err)
			}
		})
	}
	for _, ok := range []string{"https://mcp.example.test/mcp", "http://127.0.0.1:8080/mcp", "http://localhost/mcp", "http://[::1]:9/mcp"} {
		cfg := newScript().config()
		cfg.MCPURL = ok
		if _, err := partner.NewClient(cfg); err != nil {
			t.Errorf("NewClient with MCPURL %q: %v", ok, err)
		}
	}
	cfg := newScript().config()
	cfg.MCPURL, cfg.AllowInsecureHTTP = "http://mcp.example.test/mcp", true
	if _, err := partner.NewClient(cfg); err != nil {
		t.Errorf("NewClient with plain http and AllowInsecureHTTP: %v", err)
	}
}

// hostLog records the host, path and Authorization of every request.
type hostLog struct {
	next http.RoundTripper
	mu   sync.Mutex
	reqs []captured
}

func (h *hostLog) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.reqs = append(h.reqs, captured{Method: r.Method, Host: r.URL.Host, Path: r.URL.Path, Auth: r.Header.Get("Authorization")})
	h.mu.Unlock()
	return h.next.RoundTrip(r)
}

func TestToolTokenGoesOnlyToTheMCPAndBaseHosts(t *testing.T) {
	var rec *hostLog
	r := newRig(t, withTransport(func(next http.RoundTripper, _ *rig) http.RoundTripper { rec = &hostLog{next: next}; return rec }))
	srv, c, g, project := r.srv, r.c, r.g, r.project
	ctx := t.Context()

	base, mcp, authHost := hostOf(t, srv.URL), hostOf(t, srv.MCPURL), hostOf(t, srv.AuthURL)
	if base == mcp {
		t.Fatalf("partnertest serves MCP on the base host %s: the test needs two hosts", base)
	}
	if err := createKey(ctx, c, project, "nav.home"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Projects.List(ctx, g.Organizations[0].ID); err != nil {
		t.Fatal(err)
	}
	for _, err := range c.Keys.All(ctx, project, keys.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.GrantCounts(g.ID); got.Mints != 1 {
		t.Errorf("mints = %d, want 1: the tools use the REST calls' installation token", got.Mints)
	}

	bearers := map[string]map[string]bool{} // host -> kinds of token it got
	for _, r := range rec.reqs {
		kind := "none"
		switch {
		case strings.HasPrefix(r.Auth, "Bearer "+partner.InstallationTokenPrefix):
			kind = "installation"
		case r.Auth != "":
			kind = "other"
		}
		if bearers[r.Host] == nil {
			bearers[r.Host] = map[string]bool{}
		}
		bearers[r.Host][kind] = true
		if r.Host == mcp && r.Method != http.MethodPost {
			t.Errorf("%s %s%s: the MCP servers get POSTs only", r.Method, r.Host, r.Path)
		}
	}
	for host, kinds := range bearers {
		switch host {
		case base, mcp:
		case authHost:
			if kinds["installation"] || kinds["other"] {
				t.Errorf("the token endpoint's host got a Bearer token: %v", kinds)
			}
		default:
			t.Errorf("a request went to %s", host)
		}
	}
	if !bearers[mcp]["installation"] || bearers[mcp]["other"] || bearers[mcp]["none"] {
		t.Errorf("the MCP host got %v, want the installation token on every request", bearers[mcp])
	}
	if !bearers[base]["installation"] {
		t.Errorf("the base host got %v, want the installation token", bearers[base])
	}
}

func hostOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Host
}

func TestClientClose(t *testing.T) {
	r := newRig(t)
	srv, c, g, project := r.srv, r.c, r.g, r.project
	ctx := t.Context()
	if err := createKey(ctx, c, project, "nav.home"); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	before := srv.MCPCounts()
	if err := createKey(ctx, c, project, "nav.about"); !errors.Is(err, partner.ErrClosed) {
		t.Errorf("Keys.Create after Close: %v, want ErrClosed", err)
	}
	if _, err := c.Tools.List(ctx, partner.TranslationTools); !errors.Is(err, partner.ErrClosed) {
		t.Errorf("Tools.List after Close: %v, want ErrClosed", err)
	}
	if after := srv.MCPCounts(); after.Initializes != before.Initializes || after.ToolCalls["createKeys"] != before.ToolCalls["createKeys"] {
		t.Errorf("MCP requests after Close: %+v then %+v", before, after)
	}
	if _, err := c.Projects.List(ctx, g.Organizations[0].ID); err != nil {
		t.Errorf("Projects.List after Close: %v, want REST to keep working", err)
	}
	resp, err := c.HTTPClient().Get(srv.URL + "/api/oauth-client/organizations")
	if err != nil {
		t.Fatalf("HTTPClient after Close: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("HTTPClient after Close: %d", resp.StatusCode)
	}
}

func TestClientCloseBeforeAnyToolCall(t *testing.T) {
	r := newRig(t)
	srv, c, project := r.srv, r.c, r.project
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if err := createKey(t.Context(), c, project, "nav.home"); !errors.Is(err, partner.ErrClosed) {
		t.Errorf("Keys.Create: %v, want ErrClosed", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

func TestPoolClose(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPool(2, 0))
		srv, ga, gb, p := r.srv, r.grants[0], r.grants[1], r.pool
		pa, pb := toolProject(srv, ga), toolProject(srv, gb)
		ctx := t.Context()
		a, err := p.Client(ctx, ga.ID)
		if err != nil {
			t.Fatal(err)
		}
		b, err := p.Client(ctx, gb.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := createKey(ctx, a, pa, "nav.home"); err != nil {
			t.Fatal(err)
		}
		if err := createKey(ctx, b, pb, "nav.home"); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := liveSessions(); n != 2 {
			t.Fatalf("%d sessions open, want 2", n)
		}

		if err := p.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := p.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		synctest.Wait()
		if n := liveSessions(); n != 0 {
			t.Errorf("%d sessions open after Pool.Close, want none", n)
		}
		if _, err := p.Client(ctx, ga.ID); !errors.Is(err, partner.ErrClosed) {
			t.Errorf("Pool.Client after Close: %v, want ErrClosed", err)
		}
		if err := createKey(ctx, a, pa, "nav.about"); !errors.Is(err, partner.ErrClosed) {
			t.Errorf("a tool call of a client taken before Close: %v, want ErrClosed", err)
		}
		if _, err := b.Projects.List(ctx, gb.Organizations[0].ID); err != nil {
			t.Errorf("REST of a client taken before Close: %v", err)
		}
	})
}

func TestPoolLetsGoOfTheSessionsOfClientsItDrops(t *testing.T) {
	drops := map[string]func(t *testing.T, p *partner.Pool, ga, gb partnertest.Grant) *partner.Client{
		// MaxClients is 1: taking b evicts a.
		"eviction": func(t *testing.T, p *partner.Pool, _, gb partnertest.Grant) *partner.Client {
			b, err := p.Client(t.Context(), gb.ID)
			if err != nil {
				t.Fatal(err)
			}
			return b
		},
		"Forget": func(_ *testing.T, p *partner.Pool, ga, _ partnertest.Grant) *partner.Client {
			p.Forget(ga.ID)
			return nil
		},
	}
	for name, drop := range drops {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, withPool(2, 1))
				srv, ga, gb, p := r.srv, r.grants[0], r.grants[1], r.pool
				pa, pb := toolProject(srv, ga), toolProject(srv, gb)
				ctx := t.Context()
				a, err := p.Client(ctx, ga.ID)
				if err != nil {
					t.Fatal(err)
				}
				if err := createKey(ctx, a, pa, "nav.home"); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				if n := liveSessions(); n != 1 {
					t.Fatalf("%d sessions open, want a's", n)
				}

				b := drop(t, p, ga, gb)
				synctest.Wait()
				if n := liveSessions(); n != 0 {
					t.Errorf("%d sessions open after a was dropped, want none", n)
				}
				if b != nil {
					if err := createKey(ctx, b, pb, "nav.home"); err != nil {
						t.Fatal(err)
					}
				}

				// The holder of a keeps using it: it connects again, and
				// that session is the holder's to close.
				inits := srv.MCPCounts().Initializes
				if err := createKey(ctx, a, pa, "nav.about"); err != nil {
					t.Fatalf("a tool call of the dropped client: %v", err)
				}
				if got := srv.MCPCounts().Initializes; got != inits+1 {
					t.Errorf("initialize calls went from %d to %d, want one reconnect", inits, got)
				}
				if got := len(srv.TranslationKeys(projectID(t, srv, ga))); got != 2 {
					t.Errorf("a's project has %d keys, want 2", got)
				}
				if err := a.Close(); err != nil {
					t.Fatal(err)
				}
				if err := p.Close(); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				if n := liveSessions(); n != 0 {
					t.Errorf("%d sessions open after Close, want none", n)
				}
			})
		})
	}
}

// projectID is the id of the project toolProject made for g.
func projectID(t *testing.T, srv *partnertest.Server, g partnertest.Grant) string {
	t.Helper()
	ps := srv.Projects(g.Organizations[0].ID)
	if len(ps) != 1 {
		t.Fatalf("%d projects, want 1", len(ps))
	}
	return ps[0].ID
}

func TestToolSessionsLeaveNoGoroutineAfterClose(t *testing.T) {
	t.Run("Client", func(t *testing.T) {
		opt := goleak.IgnoreCurrent()
		r := newRig(t, onLoopback())
		srv, c, project := r.srv, r.c, r.project
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				if err := createKey(t.Context(), c, project, fmt.Sprintf("k%d", i)); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		goleak.VerifyNone(t, opt)
	})
	t.Run("Pool", func(t *testing.T) {
		opt := goleak.IgnoreCurrent()
		r := newRig(t, onLoopback(), withPool(2, 0))
		srv, ga, gb, p := r.srv, r.grants[0], r.grants[1], r.pool
		pa, pb := toolProject(srv, ga), toolProject(srv, gb)
		for _, x := range []struct {
			g       partnertest.Grant
			project string
		}{{ga, pa}, {gb, pb}} {
			c, err := p.Client(t.Context(), x.g.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := createKey(t.Context(), c, x.project, "nav.home"); err != nil {
				t.Fatal(err)
			}
		}
		if err := p.Close(); err != nil {
			t.Fatal(err)
		}
		srv.Close()
		goleak.VerifyNone(t, opt)
	})
}

func TestConfigShowsMCPURLAndNoSecret(t *testing.T) {
	const access = "at-S3CR3T-ACCESS"
	secrets := []string{clientSecret, refreshTok, access}
	cfg := partner.Config{BaseURL: baseURL, AuthURL: authURL, MCPURL: mcpURL,
		ClientID: clientID, ClientSecret: clientSecret, GrantID: grantID,
		Token: &oauth2.Token{AccessToken: access, RefreshToken: refreshTok}}
	pc := partner.PoolConfig{BaseURL: baseURL, AuthURL: authURL, MCPURL: mcpURL,
		ClientID: clientID, ClientSecret: clientSecret, Store: auth.NewMemoryStore()}
	for name, v := range map[string]any{"Config": cfg, "PoolConfig": pc} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			s := fmt.Sprintf(verb, v)
			if !strings.Contains(s, `MCPURL: "`+mcpURL+`"`) {
				t.Errorf("%s %s = %s, want MCPURL in it", name, verb, s)
			}
			assertNoSecret(t, s, secrets)
		}
		var buf bytes.Buffer
		slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "cfg", v)
		if !strings.Contains(buf.String(), `"mcp_url":"`+mcpURL+`"`) {
			t.Errorf("%s logged as %s, want mcp_url in it", name, buf.String())
		}
		assertNoSecret(t, buf.String(), secrets)
	}
}
