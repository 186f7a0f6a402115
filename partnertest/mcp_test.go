package partnertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
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
	return connectTo(t, srv, srv.MCPURL, token)
}

// connectTo opens an MCP session to the tools at endpoint, as connect does.
func connectTo(t testing.TB, srv *partnertest.Server, endpoint, token string) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := c.Connect(t.Context(), &mcp.StreamableClientTransport{
		Endpoint:             endpoint,
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

// TestMCPFlow: keys created, translations set, publish, sync completed,
// and the webhooks of each step received and verified.
func TestMCPFlow(t *testing.T) {
	f := newMCPFixture(t)
	var mu sync.Mutex
	var got []webhook.EventType
	rcv := httptest.NewUnstartedServer(nil)
	wh := f.srv.AddWebhook(f.p.ID, "http://"+rcv.Listener.Addr().String())
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(f.srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, ev.Type)
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	var created struct {
		OK  bool `json:"ok"`
		Cnt int  `json:"cnt"`
		K   []struct {
			K, ID string
		} `json:"k"`
	}
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{
		map[string]any{"n": "home.title", "v": "Welcome home"},
		map[string]any{"n": "home.cta", "v": "Sign up", "t": map[string]string{"DE": "Registrieren", "en": "ignored"}},
	}}, &created)
	if !created.OK || created.Cnt != 2 || len(created.K) != 2 || !uuidLike(created.K[0].ID) {
		t.Fatalf("createKeys = %+v", created)
	}
	var set struct {
		OK    bool `json:"ok"`
		Wrote int  `json:"wrote"`
	}
	callOK(t, f.cs, "setTranslations", map[string]any{"project": project, "t": []any{
		map[string]any{"id": created.K[0].ID, "t": map[string]string{"de": "Willkommen", "fr": "Bienvenue"}},
	}}, &set)
	if !set.OK || set.Wrote != 2 {
		t.Fatalf("setTranslations = %+v", set)
	}
	var pending struct {
		HasChg bool           `json:"has_chg"`
		Sum    map[string]int `json:"sum"`
	}
	callOK(t, f.cs, "getPendingChanges", map[string]any{"project": project}, &pending)
	if !pending.HasChg || pending.Sum["tr"] != 3 || pending.Sum["tot"] != 3 {
		t.Fatalf("getPendingChanges = %+v", pending)
	}
	var pub struct {
		Success    bool     `json:"success"`
		Published  int      `json:"published"`
		SyncJobIDs []string `json:"syncJobIds"`
	}
	callOK(t, f.cs, "publishTranslations", map[string]any{"project": project}, &pub)
	if !pub.Success || pub.Published != 3 || len(pub.SyncJobIDs) != 1 {
		t.Fatalf("publishTranslations = %+v", pub)
	}
	var job struct {
		St   string                    `json:"st"`
		AffK []struct{ K, Act string } `json:"aff_k"`
	}
	callOK(t, f.cs, "getSync", map[string]any{"syncId": pub.SyncJobIDs[0]}, &job)
	if job.St != "pending" {
		t.Errorf("sync right after publish: %q, want pending", job.St)
	}
	f.srv.Advance(partnertest.SyncPendingTime)
	callOK(t, f.cs, "getSync", map[string]any{"syncId": pub.SyncJobIDs[0]}, &job)
	if job.St != "in_progress" {
		t.Errorf("sync after %v: %q, want in_progress", partnertest.SyncPendingTime, job.St)
	}
	f.srv.Advance(partnertest.SyncRunTime)
	callOK(t, f.cs, "getSync", map[string]any{"syncId": pub.SyncJobIDs[0], "waitMs": 25000}, &job)
	if job.St != "completed" || len(job.AffK) != 2 {
		t.Errorf("sync at the end: %+v, want completed with 2 keys", job)
	}
	for _, k := range f.srv.TranslationKeys(f.p.ID) {
		for l, tr := range k.Translations {
			if tr.Status != "published" {
				t.Errorf("%s/%s is %s after the publish", k.Name, l, tr.Status)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := []webhook.EventType{webhook.EventKeysCreated, webhook.EventTranslationsUpdated, webhook.EventTranslationsUpdated,
		webhook.EventTranslationsPublished, webhook.EventSyncCompleted}
	if !slices.Equal(got, want) {
		t.Errorf("webhooks %v, want %v", got, want)
	}
	for _, d := range f.srv.Deliveries() {
		if d.Err != nil {
			t.Errorf("delivery %s: %v", d.EventType, d.Err)
		}
	}
}

func uuidLike(s string) bool { return len(s) == 36 && strings.Count(s, "-") == 4 }

// TestMCPWaitSync: getSync with waitMs returns when the job completes, on
// the server's clock.
func TestMCPWaitSync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
		defer srv.Close()
		g := srv.NewGrant()
		srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
			TargetLanguages: []partnertest.Language{{Code: "de"}}})
		cs := connect(t, srv, srv.IssueInstallationToken(g.ID))
		var created struct{ K []struct{ ID string } }
		callOK(t, cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a", "v": "A", "t": map[string]string{"de": "A"}}}}, &created)
		var pub struct {
			SyncJobIDs []string `json:"syncJobIds"`
		}
		callOK(t, cs, "publishTranslations", map[string]any{"project": project}, &pub)
		start := time.Now()
		var job struct{ St string }
		callOK(t, cs, "getSync", map[string]any{"syncId": pub.SyncJobIDs[0], "waitMs": 25000}, &job)
		took := time.Since(start)
		if job.St != "completed" || took < partnertest.SyncPendingTime+partnertest.SyncRunTime || took > partnertest.SyncPendingTime+partnertest.SyncRunTime+time.Second {
			t.Errorf("getSync waited %v and says %q", took, job.St)
		}
		// After the cooldown, a publish with nothing pending makes no job.
		time.Sleep(partnertest.PublishCooldown)
		callOK(t, cs, "publishTranslations", map[string]any{"project": project}, &pub) // nothing to publish: no job
		if len(pub.SyncJobIDs) != 0 {
			t.Errorf("publish of nothing made jobs %v", pub.SyncJobIDs)
		}
	})
}

func TestMCPListKeysPages(t *testing.T) {
	f := newMCPFixture(t)
	var ks []any
	for i := range 25 {
		ks = append(ks, map[string]any{"n": fmt.Sprintf("k%02d", i), "ns": []string{"web", "app"}[i%2], "v": "text"})
	}
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": ks}, new(map[string]any))
	var names []string
	for page := 1; ; page++ {
		var out struct {
			Tot, Ret, Pg, Lim int
			HasMore           bool     `json:"has_more"`
			Nss               []string `json:"nss"`
			K                 []struct {
				K   string `json:"k"`
				Ns  int    `json:"ns"`
				ID  string `json:"id"`
				Src string `json:"src"`
			} `json:"k"`
		}
		callOK(t, f.cs, "listKeys", map[string]any{"project": project, "page": page, "limit": 10}, &out)
		if out.Tot != 25 || out.Pg != page || out.Lim != 10 || out.Ret != len(out.K) {
			t.Fatalf("page %d: %+v", page, out)
		}
		for _, k := range out.K {
			if k.ID == "" || k.Src != "text" || k.Ns >= len(out.Nss) {
				t.Errorf("row %+v with nss %v", k, out.Nss)
			}
			names = append(names, k.K)
		}
		if !out.HasMore {
			if page != 3 {
				t.Errorf("has_more false on page %d, want 3", page)
			}
			break
		}
	}
	if len(names) != 25 || names[0] != "k00" || names[24] != "k24" {
		t.Errorf("listed %v", names)
	}
	if text := callErr(t, f.cs, "listKeys", map[string]any{"project": project, "limit": 101}); text != "Validation error: Number must be less than or equal to 100" {
		t.Errorf("limit 101: %q", text)
	}
	if text := callErr(t, f.cs, "listKeys", map[string]any{"project": project, "page": "2"}); !strings.HasPrefix(text, "Validation error: Expected number, received string") {
		t.Errorf("page as a string: %q", text)
	}
}

func TestMCPToolErrors(t *testing.T) {
	f := newMCPFixture(t)
	other := f.srv.NewGrant()
	f.srv.AddProject(other.Organizations[0].ID, partnertest.Project{Name: "X", Slug: "x", SourceLanguage: "en"})
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a.b"}}}, new(map[string]any))

	var dup struct {
		Dup  int `json:"dup"`
		Skip []struct{ K, Reason string }
	}
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a.b"}, map[string]any{"n": "c"}}}, &dup)
	if dup.Dup != 1 || len(dup.Skip) != 1 || dup.Skip[0].K != "a.b" {
		t.Errorf("duplicate: %+v", dup)
	}
	for _, tt := range []struct {
		name, tool string
		args       map[string]any
		want       string // prefix
	}{
		{"leaf under a leaf", "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a.b.c"}}}, "CONFLICT"},
		{"parent of a leaf", "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a"}}}, "CONFLICT"},
		{"clash within the batch", "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "x"}, map[string]any{"n": "x.y"}}}, "CONFLICT"},
		{"no keys", "createKeys", map[string]any{"project": project, "k": []any{}}, "Validation error: Array must contain at least 1 element(s)"},
		{"no name", "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"v": "x"}}}, "Validation error: Required"},
		{"bad uuid", "deleteKeys", map[string]any{"project": project, "keyIds": []string{"nope"}}, "Validation error: Invalid uuid"},
		{"too many ids", "deleteKeys", map[string]any{"project": project, "keyIds": make([]string, 101)}, "Validation error:"},
		{"no project", "getProject", map[string]any{}, "Validation error: Required"},
		{"project without slash", "getProject", map[string]any{"project": "web"}, `Invalid project format "web". Expected "org/project"`},
		{"unknown project", "getProject", map[string]any{"project": "org-1/nope"}, "Project not found"},
		{"another organization's project", "getProject", map[string]any{"project": "org-2/x"}, "Forbidden"},
		{"unknown sync", "getSync", map[string]any{"syncId": "nope"}, "Sync job not found"},
		{"wait too long", "getSync", map[string]any{"syncId": "nope", "waitMs": 25001}, "Validation error: Number must be less than or equal to 25000"},
		{"unknown tool", "renameKeys", map[string]any{}, "Error executing renameKeys: Unknown tool: renameKeys"},
	} {
		if text := callErr(t, f.cs, tt.tool, tt.args); !strings.HasPrefix(text, tt.want) {
			t.Errorf("%s: %q, want it to start with %q", tt.name, text, tt.want)
		}
	}
	var forced struct{ Cnt int }
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "force": true, "k": []any{map[string]any{"n": "a"}}}, &forced)
	if forced.Cnt != 1 {
		t.Errorf("force: %+v", forced)
	}
}

func TestMCPPublishCooldown(t *testing.T) {
	f := newMCPFixture(t)
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a", "t": map[string]string{"de": "A"}}}}, new(map[string]any))
	callOK(t, f.cs, "publishTranslations", map[string]any{"project": project}, new(map[string]any))
	f.srv.Advance(partnertest.PublishCooldown - time.Second)
	if text := callErr(t, f.cs, "publishTranslations", map[string]any{"project": project}); !strings.HasPrefix(text, "TOO_MANY_REQUESTS") || !strings.Contains(text, "1 second") {
		t.Errorf("publish within the cooldown: %q", text)
	}
	f.srv.Advance(time.Second)
	callOK(t, f.cs, "publishTranslations", map[string]any{"project": project}, new(map[string]any))
}

func TestMCPCancelSync(t *testing.T) {
	f := newMCPFixture(t)
	f.srv.AddProject(f.g.Organizations[0].ID, partnertest.Project{Name: "App", Slug: "app", SourceLanguage: "en"})
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a", "t": map[string]string{"de": "A"}}}}, new(map[string]any))
	var pub struct {
		SyncJobIDs []string `json:"syncJobIds"`
	}
	callOK(t, f.cs, "publishTranslations", map[string]any{"project": project}, &pub)
	id := pub.SyncJobIDs[0]
	if text := callErr(t, f.cs, "cancelSync", map[string]any{"project": "org-1/app", "syncId": id}); !strings.HasPrefix(text, "FORBIDDEN") {
		t.Errorf("cancel from another project: %q", text)
	}
	var c struct {
		ID, Prev, Rsn string
		Can           bool
	}
	callOK(t, f.cs, "cancelSync", map[string]any{"project": project, "syncId": id}, &c)
	if !c.Can || c.Prev != "pending" || c.Rsn != "cancelled" {
		t.Errorf("cancel: %+v", c)
	}
	callOK(t, f.cs, "cancelSync", map[string]any{"project": project, "syncId": id}, &c)
	if c.Can || c.Rsn != "terminal_state" {
		t.Errorf("cancel again: %+v", c)
	}
}

func TestMCPLanguages(t *testing.T) {
	f := newMCPFixture(t)
	var add struct {
		Added, Skipped int
	}
	callOK(t, f.cs, "proposeLanguages", map[string]any{"project": project, "languages": []any{
		map[string]any{"languageCode": "IT"}, map[string]any{"languageCode": "de"}, map[string]any{"languageCode": "en"},
	}}, &add)
	if add.Added != 1 || add.Skipped != 2 {
		t.Errorf("proposeLanguages: %+v", add)
	}
	var edits struct {
		Results  []struct{ LanguageCode, PreviousStatus, NewStatus string }
		NotFound []string
	}
	callOK(t, f.cs, "proposeLanguageEdits", map[string]any{"project": project, "edits": []any{
		map[string]any{"languageCode": "it", "newStatus": "archived"}, map[string]any{"languageCode": "xx", "newStatus": "draft"},
	}}, &edits)
	if len(edits.Results) != 1 || edits.Results[0].PreviousStatus != "active" || !slices.Equal(edits.NotFound, []string{"xx"}) {
		t.Errorf("proposeLanguageEdits: %+v", edits)
	}
	if p, _ := f.srv.Project(f.p.ID); len(p.TargetLanguages) != 3 {
		t.Errorf("REST sees languages %v", p.TargetLanguages)
	}
}

func TestMCPTranslationContext(t *testing.T) {
	f := newMCPFixture(t)
	f.srv.AddGlossaryTerm(f.p.ID, partnertest.GlossaryTerm{Term: "Acme", Type: "brand", Description: "our name", DoNotTranslate: true})
	f.srv.AddGlossaryTerm(f.p.ID, partnertest.GlossaryTerm{Term: "cart", Type: "terminology", Translations: map[string]string{"de": "Warenkorb", "fr": "panier"}})
	var created struct{ K []struct{ ID string } }
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{
		map[string]any{"n": "a", "v": "Add to cart"}, map[string]any{"n": "b", "v": "Remove from cart", "t": map[string]string{"de": "Aus dem Warenkorb"}},
	}}, &created)
	var ctx struct {
		Gl []struct {
			T, Tp, D string
			Mnt      bool
			Tr       map[string]string
		}
		Glt   int
		Rules []struct {
			K   string
			Sim []struct {
				Tp, C, L string
				S        float64
			}
		}
	}
	callOK(t, f.cs, "getTranslationContext", map[string]any{"project": project, "languages": []string{"de"}, "keys": []string{created.K[0].ID}}, &ctx)
	if ctx.Glt != 2 || len(ctx.Gl) != 2 || !ctx.Gl[0].Mnt || ctx.Gl[1].Tr["de"] != "Warenkorb" || ctx.Gl[1].Tr["fr"] != "" {
		t.Errorf("glossary: %+v", ctx)
	}
	if len(ctx.Rules) != 1 || len(ctx.Rules[0].Sim) != 1 || ctx.Rules[0].Sim[0].C != "Aus dem Warenkorb" {
		t.Errorf("rules: %+v", ctx.Rules)
	}
}

func TestMCPScopes(t *testing.T) {
	f := newMCPFixture(t, partnertest.WithScopes(partnertest.DefaultScopes()...))
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "a"}}}, new(map[string]any))
	text := callErr(t, f.cs, "publishTranslations", map[string]any{"project": project})
	if !strings.Contains(text, "missing_scope") || !strings.Contains(text, partnertest.ScopeTranslationsPublish) {
		t.Errorf("publish without the scope: %q", text)
	}
	g := f.srv.NewGrant(partnertest.WithOrganizations(f.g.Organizations...), partnertest.WithScopes(partnertest.ScopeProjectsRead))
	cs := connect(t, f.srv, f.srv.IssueInstallationToken(g.ID))
	for tool, scope := range map[string]string{"listKeys": "keys:read", "createKeys": "keys:write", "setTranslations": "translations:write", "getTranslations": "translations:read"} {
		if text := callErr(t, cs, tool, map[string]any{"project": project}); !strings.Contains(text, "missing_scope") || !strings.Contains(text, scope) {
			t.Errorf("%s without %s: %q", tool, scope, text)
		}
	}
	callOK(t, cs, "getProject", map[string]any{"project": project}, new(map[string]any))
}

// The translation tools with the official Go MCP client: the token goes in
// a Bearer header, and results are JSON in the first text block.
func ExampleServer_TranslationKeys() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})

	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             srv.MCPURL,
		HTTPClient:           &http.Client{Transport: bearer{srv.IssueInstallationToken(g.ID), srv.Client().Transport}},
		DisableStandaloneSSE: true,
	}, &mcp.ClientSessionOptions{ProtocolVersion: partnertest.MCPProtocolVersions()[0]})
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "createKeys", Arguments: map[string]any{
		"project": "org-1/web",
		"k":       []any{map[string]any{"n": "home.title", "v": "Welcome"}},
	}})
	if err != nil {
		panic(err)
	}
	var out struct{ Cnt int }
	json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out)
	fmt.Println("created", out.Cnt)
	for _, k := range srv.TranslationKeys(p.ID) {
		fmt.Println(k.Namespace, k.Name, k.SourceText)
	}
	fmt.Println(srv.MCPCounts().ToolCalls)
	// Output:
	// created 1
	// default home.title Welcome
	// map[createKeys:1]
}
