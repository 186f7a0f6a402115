package partnertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// contentSession connects to srv's content tools with an installation
// token of grant g.
func contentSession(ctx context.Context, srv *partnertest.Server, g partnertest.Grant) *mcp.ClientSession {
	c := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:             srv.ContentMCPURL,
		HTTPClient:           &http.Client{Transport: bearer{srv.IssueInstallationToken(g.ID), srv.Client().Transport}},
		DisableStandaloneSSE: true,
	}, &mcp.ClientSessionOptions{ProtocolVersion: partnertest.MCPProtocolVersions()[0]})
	if err != nil {
		panic(err)
	}
	return cs
}

// call calls a content tool and decodes its JSON result into out.
func call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any, out any) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		panic(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError {
		panic(tool + ": " + text)
	}
	if err := json.Unmarshal([]byte(text), out); err != nil {
		panic(err)
	}
}

// A model seeded with AddContentModel, an entry made and edited through
// the content tools, and the entry read back with ContentEntries.
func ExampleServer_AddContentModel() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	srv.AddContentModel(p.ID, partnertest.ContentModel{Slug: "post", Fields: []partnertest.ContentField{
		{Name: "summary", Localized: true},
		{Name: "rank", Type: "number"},
	}})

	ctx := context.Background()
	cs := contentSession(ctx, srv, g)
	defer cs.Close()
	var created struct {
		Entry struct{ ID, St string }
	}
	call(ctx, cs, "createContentEntry", map[string]any{"project": "org-1/web", "modelSlug": "post",
		"title": "Hello", "slug": "hello", "customFields": map[string]any{"summary": "Hi", "rank": 1}}, &created)
	call(ctx, cs, "updateContentEntry", map[string]any{"project": "org-1/web", "entryId": created.Entry.ID,
		"languageCode": "de", "title": "Hallo", "customFields": map[string]any{"summary": "Servus"}}, new(map[string]any))

	for _, e := range srv.ContentEntries(p.ID) {
		fmt.Println(e.Model, e.Slug, e.Status, e.Fields["rank"])
		for _, l := range []string{"en", "de"} {
			fmt.Println(l, e.Translations[l].Title, e.Translations[l].Fields["summary"])
		}
	}
	fmt.Println(srv.ContentMCPCounts().ToolCalls)
	// Output:
	// post hello draft 1
	// en Hello Hi
	// de Hallo Servus
	// map[createContentEntry:1 updateContentEntry:1]
}

// A receiver of the content events: it verifies each delivery and orders
// the events by their own timestamp, as deliveries may arrive in any
// order.
func ExampleServer_ContentEntries() {
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
	srv.AddContentModel(p.ID, partnertest.ContentModel{Slug: "post"})

	type received struct {
		at   time.Time
		line string
	}
	var (
		mu  sync.Mutex
		got []received
	)
	rcv := httptest.NewUnstartedServer(nil)
	wh := srv.AddWebhook(p.ID, "http://"+rcv.Listener.Addr().String())
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		panic(err)
	}
	rcv.Config.Handler = webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
		var r received
		switch d := ev.Data.(type) {
		case *webhook.EntryCreated:
			r = received{d.Timestamp, fmt.Sprintf("%s %s %s", ev.Type, d.Entry.Slug, *d.Entry.Status)}
		case *webhook.EntryPublished:
			r = received{d.Timestamp, fmt.Sprintf("%s %s %s -> %s", ev.Type, d.Entry.Slug, *d.Entry.PreviousStatus, *d.Entry.Status)}
		case *webhook.EntryUnpublished:
			r = received{d.Timestamp, fmt.Sprintf("%s %s %s -> %s", ev.Type, d.Entry.Slug, *d.Entry.PreviousStatus, *d.Entry.Status)}
		case *webhook.EntryDeleted:
			r = received{d.Timestamp, fmt.Sprintf("%s %s by %s", ev.Type, d.Entry.Slug, d.Actor.Via)}
		default:
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		got = append(got, r)
		return nil
	})
	rcv.Start()
	defer rcv.Close()

	ctx := context.Background()
	cs := contentSession(ctx, srv, g)
	defer cs.Close()
	var created struct{ Entry struct{ ID string } }
	call(ctx, cs, "createContentEntry", map[string]any{"project": "org-1/web", "modelSlug": "post", "title": "Hello", "slug": "hello", "status": "published"}, &created)
	call(ctx, cs, "updateContentEntry", map[string]any{"project": "org-1/web", "entryId": created.Entry.ID, "status": "archived"}, new(map[string]any))
	call(ctx, cs, "deleteContentEntry", map[string]any{"project": "org-1/web", "entryId": created.Entry.ID}, new(map[string]any))

	mu.Lock()
	defer mu.Unlock()
	slices.SortStableFunc(got, func(a, b received) int { return a.at.Compare(b.at) })
	for _, r := range got {
		fmt.Println(r.line)
	}
	fmt.Println(len(srv.ContentEntries(p.ID)), "entries left")
	// Output:
	// content.entry.created hello draft
	// content.entry.published hello draft -> published
	// content.entry.unpublished hello published -> archived
	// content.entry.deleted hello by mcp
	// 0 entries left
}
