package partner_test

// What is the translation tools' own (Config.MCPURL), against
// partnertest's MCP server: flows as users run them, the checks of their
// arguments, a missing translations:publish scope and the publish
// cooldown. What both MCP servers share is in mcp_test.go.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
	"github.com/locsvc/partner-go/webhook"
)

// assertOnlyPOSTs fails unless every request to the MCP listener was a
// POST and no discovery call of a newer protocol was made.
func assertOnlyPOSTs(t *testing.T, srv *partnertest.Server) {
	t.Helper()
	if n := srv.MCPCounts(); n.Gets != 0 || n.Discovers != 0 {
		t.Errorf("MCP counts %+v: want no GET and no server/discover", n)
	}
	for _, r := range requestsTo(srv, partnertest.HostMCP) {
		if r.Method != http.MethodPost {
			t.Errorf("%s %s reached the MCP listener; the SDK should send only POST", r.Method, r.Path)
		}
	}
}

// received is what a webhook.NewHandler receiver got.
type received struct {
	mu     sync.Mutex
	events []*webhook.Event
}

func (r *received) add(_ context.Context, ev *webhook.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, ev)
	return nil
}

func (r *received) of(typ webhook.EventType) []*webhook.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*webhook.Event
	for _, ev := range r.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// TestToolsFlowPublishWithWebhooks: keys created, translations set,
// pending changes, publish, the sync job waited for; the receiver (made
// with webhook.NewHandler) verified keys.created, translations.published
// and sync.completed. partnertest delivers webhooks over real sockets, so
// this flow runs on loopback and moves the server's clock with Advance.
func TestToolsFlowPublishWithWebhooks(t *testing.T) {
	r := newRig(t, onLoopback())
	srv, c := r.srv, r.c
	ctx := t.Context()

	var got received
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(r.p.ID, "http://"+rcv.Listener.Addr().String()+"/hooks",
		webhook.EventKeysCreated, webhook.EventTranslationsPublished, webhook.EventSyncCompleted)
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, got.add)
	rcv.Start()
	t.Cleanup(rcv.Close)

	created, err := c.Keys.Create(ctx, r.project, []keys.NewKey{
		{Name: "home.title", SourceText: "Welcome home"},
		{Name: "home.cta", SourceText: "Sign up", Translations: map[string]string{"de": "Registrieren"}},
	}, keys.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !created.OK || created.Count != 2 || len(created.Created) != 2 || len(created.Skipped) != 0 {
		t.Fatalf("Create = %+v, want 2 keys created", created)
	}
	ids := map[string]string{}
	for _, k := range created.Created {
		ids[k.Name] = k.ID
	}
	if ids["home.title"] == "" || ids["home.cta"] == "" {
		t.Fatalf("created keys without ids: %+v", created.Created)
	}

	set, err := c.Translations.Set(ctx, r.project, []translations.Values{
		{KeyID: ids["home.title"], Text: map[string]string{"de": "Willkommen", "fr": "Bienvenue"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !set.OK || set.Written != 2 || len(set.Errors) != 0 {
		t.Fatalf("Set = %+v, want 2 translations written", set)
	}

	pending, err := c.Translations.Pending(ctx, r.project)
	if err != nil {
		t.Fatal(err)
	}
	if !pending.HasChanges || pending.Summary.Translations != 3 || pending.ByLanguage["de"].Count != 2 || pending.ByLanguage["fr"].Count != 1 {
		t.Fatalf("Pending = %+v, want 3 translations (de 2, fr 1)", pending)
	}

	pub, err := c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !pub.Success || pub.Published != 3 || len(pub.SyncIDs) != 1 {
		t.Fatalf("Publish = %+v, want 3 published and one sync job", pub)
	}
	srv.Advance(partnertest.SyncPendingTime + partnertest.SyncRunTime)
	job, err := c.Translations.WaitSync(ctx, pub.SyncIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	if job.Status != translations.SyncCompleted || job.ID != pub.SyncIDs[0] || len(job.AffectedKeys) != 2 {
		t.Fatalf("WaitSync = %+v, want completed with 2 keys", job)
	}
	for _, k := range srv.TranslationKeys(r.p.ID) {
		for l, tr := range k.Translations {
			if tr.Status != "published" {
				t.Errorf("%s/%s is %s after the sync completed", k.Name, l, tr.Status)
			}
		}
	}

	// The deliveries were made before the tool calls returned.
	for _, d := range srv.Deliveries() {
		if d.Err != nil {
			t.Errorf("delivery %s (%s): %v", d.EventID, d.EventType, d.Err)
		}
	}
	kc := got.of(webhook.EventKeysCreated)
	if len(kc) != 1 {
		t.Fatalf("keys.created received %d times, want 1", len(kc))
	}
	if d := kc[0].Data.(*webhook.KeysCreated); d.Project != "web" || d.Namespace != keys.DefaultNamespace ||
		!slices.Equal(d.Keys, []string{"home.title", "home.cta"}) {
		t.Errorf("keys.created = %+v", d)
	}
	tp := got.of(webhook.EventTranslationsPublished)
	if len(tp) != 1 {
		t.Fatalf("translations.published received %d times, want 1", len(tp))
	}
	if d := tp[0].Data.(*webhook.TranslationsPublished); d.Project != "web" || d.KeysCount != 2 || !slices.Equal(d.Languages, []string{"de", "fr"}) {
		t.Errorf("translations.published = %+v", d)
	}
	sc := got.of(webhook.EventSyncCompleted)
	if len(sc) != 1 {
		t.Fatalf("sync.completed received %d times, want 1", len(sc))
	}
	if d := sc[0].Data.(*webhook.SyncCompleted); d.Project != "web" || d.Status != webhook.SyncStatusCompleted {
		t.Errorf("sync.completed = %+v", d)
	}
	assertOnlyPOSTs(t, srv)
}

// TestToolsWaitSyncLongPolls: WaitSync returns when the job completes on
// the service's clock, using getSync's waitMs rather than a poll per
// second.
func TestToolsWaitSyncLongPolls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		if _, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a", SourceText: "A", Translations: map[string]string{"de": "A-de"}}}, keys.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		pub, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		job, err := r.c.Translations.WaitSync(ctx, pub.SyncIDs[0])
		if err != nil {
			t.Fatal(err)
		}
		if job.Status != translations.SyncCompleted {
			t.Fatalf("WaitSync = %+v, want completed", job)
		}
		if took := time.Since(start); took < partnertest.SyncPendingTime+partnertest.SyncRunTime {
			t.Errorf("WaitSync returned after %v, before the job could complete", took)
		}
		if n := r.srv.MCPCounts().ToolCalls["getSync"]; n != 1 {
			t.Errorf("getSync was called %d times, want 1 long-poll", n)
		}
	})
}

// TestToolsKeyListingPages: 25 keys listed 10 a page come in 3 pages,
// every key exactly once, one listKeys call per page.
func TestToolsKeyListingPages(t *testing.T) {
	r := newRig(t)
	ctx := t.Context()
	var batch []keys.NewKey
	for i := range 25 {
		batch = append(batch, keys.NewKey{Name: fmt.Sprintf("k%02d", i), SourceText: fmt.Sprintf("text %d", i)})
	}
	if res, err := r.c.Keys.Create(ctx, r.project, batch, keys.CreateOptions{}); err != nil || res.Count != 25 {
		t.Fatalf("Create = %+v, %v", res, err)
	}

	before := r.srv.MCPCounts().ToolCalls["listKeys"]
	seen := map[string]int{}
	for k, err := range r.c.Keys.All(ctx, r.project, keys.ListOptions{PageSize: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		if k.ID == "" || !strings.HasPrefix(k.SourceText, "text ") {
			t.Errorf("key %+v lacks its id or source text", k)
		}
		seen[k.Name]++
	}
	if len(seen) != 25 {
		t.Errorf("All listed %d distinct keys, want 25", len(seen))
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("All listed %s %d times", name, n)
		}
	}
	if n := r.srv.MCPCounts().ToolCalls["listKeys"] - before; n != 3 {
		t.Errorf("All made %d listKeys calls, want 3", n)
	}

	var sizes []int
	for p, err := range r.c.Keys.Pages(ctx, r.project, keys.ListOptions{PageSize: 10}) {
		if err != nil {
			t.Fatal(err)
		}
		if p.Total != 25 || p.Number != len(sizes)+1 || p.PageSize != 10 || p.HasMore != (p.Number < 3) {
			t.Errorf("page %+v", p)
		}
		sizes = append(sizes, len(p.Keys))
	}
	if !slices.Equal(sizes, []int{10, 10, 5}) {
		t.Errorf("page sizes %v, want [10 10 5]", sizes)
	}

	// Breaking out of the loop stops the listing.
	before = r.srv.MCPCounts().ToolCalls["listKeys"]
	for range r.c.Keys.All(ctx, r.project, keys.ListOptions{PageSize: 10}) {
		break
	}
	if n := r.srv.MCPCounts().ToolCalls["listKeys"] - before; n != 1 {
		t.Errorf("a loop left after the first key made %d listKeys calls, want 1", n)
	}
}

// TestToolsCreateDuplicatesSkipped: creating a key that exists skips it
// and says so in the result; it is not an error.
func TestToolsCreateDuplicatesSkipped(t *testing.T) {
	r := newRig(t)
	ctx := t.Context()
	if _, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a", SourceText: "A"}, {Name: "b", SourceText: "B"}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "b", SourceText: "B again"}, {Name: "c", SourceText: "C"}}, keys.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Count != 1 || len(res.Created) != 1 || res.Created[0].Name != "c" || res.Created[0].ID == "" {
		t.Errorf("Created = %+v (count %d), want only c", res.Created, res.Count)
	}
	if len(res.Skipped) != 1 || res.Skipped[0].Name != "b" || res.Skipped[0].Reason == "" || res.DuplicateCount != 1 {
		t.Errorf("Skipped = %+v (dup %d), want b with a reason", res.Skipped, res.DuplicateCount)
	}
	var names []string
	for _, k := range r.srv.TranslationKeys(r.p.ID) {
		names = append(names, k.Name+"="+k.SourceText)
	}
	if !slices.Equal(names, []string{"a=A", "b=B", "c=C"}) {
		t.Errorf("the service holds %v, want a, b (unchanged) and c", names)
	}
}

// TestToolsArgumentsCheckedBeforeAnyRequest: what the SDK can check fails
// with ErrInvalidArgument naming the field, and sends nothing (not even a
// token request).
func TestToolsArgumentsCheckedBeforeAnyRequest(t *testing.T) {
	r := newRig(t)
	values := func(n int) []translations.Values {
		out := make([]translations.Values, n)
		for i, id := range uuids(n) {
			out[i] = translations.Values{KeyID: id, Text: map[string]string{"de": "x"}}
		}
		return out
	}
	assertRefusedBeforeAnyRequest(t, r, []badArgument{
		{"Delete of 101 ids", "ids", func(ctx context.Context) error {
			_, err := r.c.Keys.Delete(ctx, r.project, uuids(keys.MaxDelete+1))
			return err
		}},
		{"Set of 501 keys", "values", func(ctx context.Context) error {
			_, err := r.c.Translations.Set(ctx, r.project, values(translations.MaxSet+1))
			return err
		}},
		{"empty project", "project", func(ctx context.Context) error {
			_, err := r.c.Keys.Create(ctx, "", []keys.NewKey{{Name: "a"}}, keys.CreateOptions{})
			return err
		}},
		{"project without org", "project", func(ctx context.Context) error {
			_, err := r.c.Translations.Pending(ctx, "web")
			return err
		}},
		{"project with two slashes", "project", func(ctx context.Context) error {
			_, err := r.c.Translations.Publish(ctx, "acme/web/x", translations.PublishOptions{})
			return err
		}},
		{"empty key name", "keys[1].Name", func(ctx context.Context) error {
			_, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a"}, {SourceText: "no name"}}, keys.CreateOptions{})
			return err
		}},
		{"no keys", "keys", func(ctx context.Context) error {
			_, err := r.c.Keys.Create(ctx, r.project, nil, keys.CreateOptions{})
			return err
		}},
		{"page size over the limit", "PageSize", func(ctx context.Context) error {
			for _, err := range r.c.Keys.All(ctx, r.project, keys.ListOptions{PageSize: keys.MaxPageSize + 1}) {
				return err
			}
			return nil
		}},
		{"no tool name", "tool name", func(ctx context.Context) error {
			return r.c.Tools.Call(ctx, partner.TranslationTools, "", nil, nil)
		}},
	})
}

// TestToolsOneRequestPerCall: after the first call (which connects), each
// tool call is one HTTP request to the MCP endpoint and nothing else; over
// the whole flow no GET and no discovery call reach it.
func TestToolsOneRequestPerCall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		res, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a", SourceText: "A"}}, keys.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		id := res.Created[0].ID
		if n := r.srv.MCPCounts().Initializes; n != 1 {
			t.Errorf("%d initialize calls, want 1", n)
		}
		var syncID string
		steps := []struct {
			name string
			call func() error
		}{
			{"Keys.Create", func() error {
				_, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "b", SourceText: "B"}}, keys.CreateOptions{})
				return err
			}},
			{"Keys.All (one page)", func() error {
				for _, err := range r.c.Keys.All(ctx, r.project, keys.ListOptions{}) {
					if err != nil {
						return err
					}
				}
				return nil
			}},
			{"Keys.Update", func() error {
				_, err := r.c.Keys.Update(ctx, r.project, []keys.Update{{KeyID: id, Language: "fr", Text: "A-fr"}})
				return err
			}},
			{"Translations.Set", func() error {
				_, err := r.c.Translations.Set(ctx, r.project, []translations.Values{{KeyID: id, Text: map[string]string{"de": "A-de"}}})
				return err
			}},
			{"Translations.Get", func() error {
				_, err := r.c.Translations.Get(ctx, r.project, translations.GetOptions{Languages: []string{"de"}})
				return err
			}},
			{"Translations.Pending", func() error {
				_, err := r.c.Translations.Pending(ctx, r.project)
				return err
			}},
			{"Translations.Publish", func() error {
				p, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
				if err == nil && len(p.SyncIDs) == 1 {
					syncID = p.SyncIDs[0]
				}
				return err
			}},
			{"Translations.ListSyncs", func() error {
				_, err := r.c.Translations.ListSyncs(ctx, r.project, translations.ListSyncsOptions{})
				return err
			}},
			{"Translations.Sync", func() error {
				_, err := r.c.Translations.GetSync(ctx, syncID)
				return err
			}},
			{"Translations.TranslationContext", func() error {
				_, err := r.c.Translations.TranslationContext(ctx, r.project, translations.ContextOptions{KeyIDs: []string{id}})
				return err
			}},
			{"Keys.Delete", func() error {
				_, err := r.c.Keys.Delete(ctx, r.project, []string{id})
				return err
			}},
			{"Tools.List", func() error {
				_, err := r.c.Tools.List(ctx, partner.TranslationTools)
				return err
			}},
			{"Tools.Call listProjects", func() error {
				return r.c.Tools.Call(ctx, partner.TranslationTools, "listProjects", nil, nil)
			}},
		}
		for _, s := range steps {
			before := len(r.srv.Requests())
			if err := s.call(); err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			reqs := r.srv.Requests()[before:]
			if len(reqs) != 1 || reqs[0].Host != partnertest.HostMCP || reqs[0].Method != http.MethodPost || reqs[0].Status != http.StatusOK {
				t.Errorf("%s sent %d requests, want one POST to the MCP endpoint: %+v", s.name, len(reqs), reqs)
			}
		}
		// Close too sends nothing: the servers issue no session to end.
		before := len(r.srv.Requests())
		if err := r.c.Close(); err != nil {
			t.Fatal(err)
		}
		if n := len(r.srv.Requests()) - before; n != 0 {
			t.Errorf("Close sent %d requests", n)
		}
		if n := r.srv.MCPCounts().Initializes; n != 1 {
			t.Errorf("%d initialize calls over the flow, want 1", n)
		}
		assertOnlyPOSTs(t, r.srv)
	})
}

// TestToolsTranslationContext: the glossary the service holds reaches
// the caller with its type, translations and do-not-translate mark.
func TestToolsTranslationContext(t *testing.T) {
	r := newRig(t)
	r.srv.AddGlossaryTerm(r.p.ID, partnertest.GlossaryTerm{Term: "Acme Cloud", Type: "brand", Description: "the product",
		DoNotTranslate: true, Translations: map[string]string{"de": "Acme Cloud", "fr": "Acme Cloud", "ja": "アクメ"}})
	r.srv.AddGlossaryTerm(r.p.ID, partnertest.GlossaryTerm{Term: "checkout", Type: "terminology",
		Translations: map[string]string{"de": "Kasse"}})
	got, err := r.c.Translations.TranslationContext(t.Context(), r.project, translations.ContextOptions{Languages: []string{"de"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.SourceLanguage != "en" || !slices.Equal(got.TargetLanguages, []string{"de"}) || got.GlossaryTotal != 2 || len(got.Glossary) != 2 {
		t.Fatalf("Context = %+v", got)
	}
	brand, term := got.Glossary[0], got.Glossary[1]
	if brand.Term != "Acme Cloud" || brand.Type != "brand" || brand.Description != "the product" || !brand.DoNotTranslate ||
		len(brand.Translations) != 1 || brand.Translations["de"] != "Acme Cloud" {
		t.Errorf("glossary[0] = %+v", brand)
	}
	if term.Term != "checkout" || term.Type != "terminology" || term.DoNotTranslate || term.Translations["de"] != "Kasse" {
		t.Errorf("glossary[1] = %+v", term)
	}
	if !json.Valid(got.Raw) || !strings.Contains(string(got.Raw), "Acme Cloud") {
		t.Errorf("Raw = %s", got.Raw)
	}
}

// TestToolsCall: any tool, its result decoded into a map or kept as the
// JSON the tool sent.
func TestToolsCall(t *testing.T) {
	r := newRig(t)
	ctx := t.Context()
	if _, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{{Name: "a", Translations: map[string]string{"de": "A"}}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"project": r.project}

	var m map[string]any
	if err := r.c.Tools.Call(ctx, partner.TranslationTools, "getPendingChanges", args, &m); err != nil {
		t.Fatal(err)
	}
	if m["prj"] != r.project || m["has_chg"] != true {
		t.Errorf("getPendingChanges into a map: %v", m)
	}

	var raw json.RawMessage
	if err := r.c.Tools.Call(ctx, partner.TranslationTools, "getPendingChanges", args, &raw); err != nil {
		t.Fatal(err)
	}
	var again struct {
		Prj    string `json:"prj"`
		HasChg bool   `json:"has_chg"`
		Sum    struct {
			Tr int `json:"tr"`
		} `json:"sum"`
	}
	if err := json.Unmarshal(raw, &again); err != nil || again.Prj != r.project || !again.HasChg || again.Sum.Tr != 1 {
		t.Errorf("getPendingChanges as raw JSON: %s (%v)", raw, err)
	}

	// A struct of the caller's: only the fields it has; a mismatched
	// type leaves that field alone.
	var typed struct {
		Prj    string `json:"prj"`
		HasChg string `json:"has_chg"` // a bool on the wire
	}
	if err := r.c.Tools.Call(ctx, partner.TranslationTools, "getPendingChanges", args, &typed); err != nil || typed.Prj != r.project {
		t.Errorf("getPendingChanges into a struct: %+v, %v", typed, err)
	}

	// Failures are the typed errors of the wrapped tools.
	err := r.c.Tools.Call(ctx, partner.TranslationTools, "noSuchTool", args, nil)
	var te *partner.ToolError
	if !errors.As(err, &te) || te.Kind != partner.ToolUnknown || te.Tool != "noSuchTool" {
		t.Errorf("unknown tool: %v, want a *ToolError of kind %s", err, partner.ToolUnknown)
	}
	err = r.c.Tools.Call(ctx, partner.TranslationTools, "getPendingChanges", map[string]any{"project": "nope/nothing"}, nil)
	if !errors.As(err, &te) || te.Kind != partner.ToolNotFound {
		t.Errorf("unknown project: %v, want a *ToolError of kind %s", err, partner.ToolNotFound)
	}
}

// TestToolsMissingScopeForPublish: a grant without translations:publish
// gets a *MissingScopeError naming it.
func TestToolsMissingScopeForPublish(t *testing.T) {
	var scopes []string
	for _, s := range partnertest.AllScopes() {
		if s != partnertest.ScopeTranslationsPublish {
			scopes = append(scopes, s)
		}
	}
	r := newRig(t, withGrant(partnertest.WithScopes(scopes...)))
	if _, err := r.create(t, "a"); err != nil {
		t.Fatal(err)
	}
	_, err := r.c.Translations.Publish(t.Context(), r.project, translations.PublishOptions{})
	var mse *partner.MissingScopeError
	if !errors.As(err, &mse) || mse.Required != partnertest.ScopeTranslationsPublish {
		t.Fatalf("Publish without the scope: %v, want a *MissingScopeError with Required %q", err, partnertest.ScopeTranslationsPublish)
	}
	var te *partner.ToolError
	if !errors.Is(err, partner.ErrMissingScope) || !errors.As(err, &te) || te.Kind != partner.ToolMissingScope || te.Tool != "publishTranslations" {
		t.Errorf("Publish without the scope: %v (%+v), want ErrMissingScope and a *ToolError of kind %s", err, te, partner.ToolMissingScope)
	}
	if errors.Is(err, partner.ErrReauthorizationRequired) || errors.Is(err, partner.ErrMCPUnauthorized) {
		t.Errorf("a missing scope matches %v", err)
	}
	// The grant still works for what it may do.
	if _, err := r.listAll(t); err != nil {
		t.Errorf("listing after the refused publish: %v", err)
	}
}

// TestToolsPublishCooldown: a second publish within 30 s fails at once
// with ErrTemporary and the cooldown; the SDK does not wait by itself.
func TestToolsPublishCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t)
		ctx := t.Context()
		res, err := r.create(t, "a")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.c.Translations.Set(ctx, r.project, []translations.Values{{KeyID: res.Created[0].ID, Text: map[string]string{"fr": "A (fr)"}}}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
		if !errors.Is(err, partner.ErrTemporary) {
			t.Fatalf("second publish: %v, want ErrTemporary", err)
		}
		var te *partner.ToolError
		if !errors.As(err, &te) || te.Kind != partner.ToolTooManyRequests || te.RetryAfter <= 0 || te.RetryAfter > partnertest.PublishCooldown {
			t.Fatalf("second publish: %+v, want a *ToolError of kind %s with a RetryAfter up to %v", te, partner.ToolTooManyRequests, partnertest.PublishCooldown)
		}
		if d := time.Since(start); d != 0 {
			t.Errorf("the SDK waited %v", d)
		}
		if n := r.srv.MCPCounts().ToolCalls["publishTranslations"]; n != 2 {
			t.Errorf("publishTranslations sent %d times, want 2", n)
		}
		time.Sleep(te.RetryAfter)
		if _, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{}); err != nil {
			t.Errorf("publish after RetryAfter: %v", err)
		}
	})
}
