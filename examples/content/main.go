// Command content shows the content CMS work a partner application does
// through the SDK: create a project and a model with a localized field,
// create two entries, edit one in German, publish one, publish both in
// bulk, unpublish one and delete it, and show the signed webhooks the
// service sent about it, in the order of their timestamps.
//
// With no configuration it runs against partnertest, the SDK's in-process
// fake of the service, and says so; a webhook receiver on 127.0.0.1 gets
// the content events and verifies each. To use a real service, set all of
//
//	PARTNER_BASE_URL PARTNER_AUTH_URL PARTNER_CONTENT_MCP_URL PARTNER_CLIENT_ID
//	PARTNER_CLIENT_SECRET PARTNER_REFRESH_TOKEN PARTNER_GRANT_ID
//
// The grant needs the scopes projects:write, content:write and
// content:publish. A real service cannot reach a receiver on 127.0.0.1, so
// the webhook part is then skipped with a note on how to configure a
// webhook.
//
//	go run ./examples/content
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
	"github.com/locsvc/partner-go/webhook"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Getenv, os.Stdout))
}

var required = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_CONTENT_MCP_URL", "PARTNER_CLIENT_ID",
	"PARTNER_CLIENT_SECRET", "PARTNER_REFRESH_TOKEN", "PARTNER_GRANT_ID",
}

// The events the example's receiver subscribes to.
var subscribed = []webhook.EventType{
	webhook.EventModelCreated,
	webhook.EventEntryCreated, webhook.EventEntryUpdated, webhook.EventEntryPublished,
	webhook.EventEntryUnpublished, webhook.EventEntryDeleted, webhook.EventEntriesBulkPublished,
}

// wantEvents is how many events the steps cause: the model, two entries,
// the edit, the publish, the bulk publish (one per entry and the
// rollup), the unpublish and the delete.
const wantEvents = 10

// run is the program; it returns the exit code: 0 on success, 1 when the
// service refused (with one line saying what to do), 2 for a bad
// configuration.
func run(ctx context.Context, getenv func(string) string, out io.Writer) int {
	var missing []string
	for _, k := range required {
		if getenv(k) == "" {
			missing = append(missing, k)
		}
	}

	var cfg partner.Config
	var fake *partnertest.Server
	switch len(missing) {
	case 0:
		cfg = partner.Config{
			BaseURL: getenv("PARTNER_BASE_URL"), AuthURL: getenv("PARTNER_AUTH_URL"), ContentMCPURL: getenv("PARTNER_CONTENT_MCP_URL"),
			ClientID: getenv("PARTNER_CLIENT_ID"), ClientSecret: getenv("PARTNER_CLIENT_SECRET"),
			GrantID: getenv("PARTNER_GRANT_ID"),
			Token:   &oauth2.Token{RefreshToken: getenv("PARTNER_REFRESH_TOKEN")},
		}
		fmt.Fprintf(out, "Using the service at %s, content tools at %s\n", cfg.BaseURL, cfg.ContentMCPURL)
	case len(required):
		fake = partnertest.NewServer()
		defer fake.Close()
		g := fake.NewGrant()
		cfg = partner.Config{
			BaseURL: fake.URL, AuthURL: fake.AuthURL, ContentMCPURL: fake.ContentMCPURL,
			ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		}
		fmt.Fprintln(out, "No PARTNER_* settings: using the built-in fake service (partnertest).")
		fmt.Fprintf(out, "Set %s to use a real one.\n", strings.Join(required, ", "))
	default:
		fmt.Fprintf(out, "content: missing settings: %s (set all of them, or none to use the fake service)\n", strings.Join(missing, ", "))
		return 2
	}

	c, err := partner.NewClient(cfg)
	if err != nil {
		fmt.Fprintf(out, "content: %v\n", err)
		return 2
	}
	defer c.Close() // ends the MCP session

	var in *inbox
	// onProject adds the webhook once work has created the project:
	// webhooks are configured per project.
	var onProject func(projectID string) error
	if fake != nil {
		in = newInbox()
		rcv := httptest.NewUnstartedServer(nil) // listens on 127.0.0.1 already; serves after Start
		defer rcv.Close()
		onProject = func(projectID string) error {
			wh := fake.AddWebhook(projectID, "http://"+rcv.Listener.Addr().String(), subscribed...)
			v, err := webhook.NewVerifier(wh.Secret) // the secret is shown once, at creation
			if err != nil {
				return err
			}
			rcv.Config.Handler = webhook.NewHandler(v, in.receive)
			rcv.Start()
			fmt.Fprintf(out, "Webhook receiver at %s (%s), subscribed to %d content events\n", rcv.URL, wh.ID, len(subscribed))
			return nil
		}
	} else {
		fmt.Fprintf(out, "Webhooks: skipped (the service cannot reach 127.0.0.1). To receive them, add a webhook in the project's Integrations area with a public https URL and the events %s, and serve it with webhook.NewHandler (see examples/webhook-receiver).\n", list(subscribed))
	}

	if err := work(ctx, c, out, onProject); err != nil {
		fmt.Fprintln(out, advice(err))
		return 1
	}
	if in != nil {
		if err := in.show(ctx, out); err != nil {
			fmt.Fprintf(out, "content: %v\n", err)
			return 1
		}
	}
	fmt.Fprintln(out, "Done.")
	return 0
}

// work does the content steps, one line each. onProject, if not nil, is
// called with the id of the project it creates.
func work(ctx context.Context, c *partner.Client, out io.Writer, onProject func(string) error) error {
	orgs, err := c.Organizations.List(ctx)
	if err != nil {
		return err
	}
	if len(orgs) == 0 {
		return errors.New("the grant covers no organization: the user must grant one")
	}
	slug := "content-" + strings.ToLower(rand.Text()[:8])
	p, err := c.Projects.Create(ctx, projects.NewProject{Name: "Content " + slug, Slug: slug, SourceLanguage: "en"})
	if err != nil {
		return err
	}
	if _, err := c.Projects.AddLanguage(ctx, p.ID, "de"); err != nil {
		return err
	}
	org := orgs[0]
	for _, o := range orgs {
		if o.ID == p.OrganizationID {
			org = o
		}
	}
	project := org.Slug + "/" + p.Slug // the tools name projects "org/project"
	fmt.Fprintf(out, "Created project %s (source en, target de)\n", project)
	if onProject != nil {
		if err := onProject(p.ID); err != nil {
			return err
		}
	}

	m, err := c.Content.Models.Create(ctx, project, content.NewModel{Slug: "article", DisplayName: "Article", Fields: []content.NewField{
		{Name: "summary", DisplayName: "Summary", Localized: true}, // a value per language
		{Name: "minutes", DisplayName: "Reading time", Type: content.FieldNumber},
	}})
	if err != nil {
		return err
	}
	var fields []string
	for _, f := range m.Fields {
		fields = append(fields, fmt.Sprintf("%s (%s%s)", f.Name, f.Type, map[bool]string{true: ", localized"}[f.Localized]))
	}
	fmt.Fprintf(out, "Created model %s with fields %s\n", m.Slug, strings.Join(fields, ", "))

	hello, err := c.Content.Entries.Create(ctx, project, content.NewEntry{Model: "article", Title: "Hello", Slug: "hello",
		Fields: map[string]any{"summary": "A greeting", "minutes": 2},
		Translations: map[string]content.LanguageValues{
			"de": {Title: "Hallo", Fields: map[string]any{"summary": "Ein Gruß"}},
		}})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Created entry %s: %s, languages %s\n", hello.Slug, hello.Status, strings.Join(hello.Languages, ", "))
	bye, err := c.Content.Entries.Create(ctx, project, content.NewEntry{Model: "article", Title: "Goodbye", Slug: "goodbye",
		Fields: map[string]any{"summary": "A farewell", "minutes": 1}})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Created entry %s: %s, languages %s\n", bye.Slug, bye.Status, strings.Join(bye.Languages, ", "))

	if _, err := c.Content.Entries.Update(ctx, project, hello.ID, content.EntryUpdate{Language: "de", Title: "Hallo Welt"}); err != nil {
		return err
	}
	got, err := c.Content.Entries.Get(ctx, project, hello.ID, content.GetOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Edited %s in German: title %q, summary %q\n", got.Slug, got.Translations["de"].Title, got.Translations["de"].Fields["summary"])

	pub, err := c.Content.Entries.Publish(ctx, project, hello.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Published %s: %s\n", pub.Slug, pub.Status)

	bulk, err := c.Content.Entries.BulkPublish(ctx, project, []string{hello.ID, bye.ID})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Published %d entries in bulk (%d failed)\n", bulk.Count, len(bulk.Failed))
	for _, f := range bulk.Failed { // listed, never dropped
		fmt.Fprintf(out, "  entry %d (%s) not published: %s\n", f.Index, f.ID, f.Error)
	}

	un, err := c.Content.Entries.Update(ctx, project, bye.ID, content.EntryUpdate{Status: content.StatusDraft})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Unpublished %s: %s\n", un.Slug, un.Status)

	if err := c.Content.Entries.Delete(ctx, project, bye.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "Deleted %s\n", bye.Slug)
	return nil
}

// inbox is the example's webhook receiver: it keeps the events it got,
// each verified by webhook.NewHandler before it gets here.
type inbox struct {
	mu     sync.Mutex
	events []*webhook.Event
	got    chan struct{} // a value after each event
}

func newInbox() *inbox { return &inbox{got: make(chan struct{}, 1)} }

// receive is the webhook.NewHandler callback: it runs only for a
// delivery whose signature and timestamp were verified.
func (in *inbox) receive(_ context.Context, ev *webhook.Event) error {
	in.mu.Lock()
	in.events = append(in.events, ev)
	in.mu.Unlock()
	select {
	case in.got <- struct{}{}:
	default: // a wake-up is already waiting
	}
	return nil
}

// show waits for the events the steps cause and prints them in the order
// of their own timestamps: deliveries may arrive in any order.
func (in *inbox) show(ctx context.Context, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		in.mu.Lock()
		evs := slices.Clone(in.events)
		in.mu.Unlock()
		if len(evs) >= wantEvents {
			slices.SortStableFunc(evs, func(a, b *webhook.Event) int { return when(a).Compare(when(b)) })
			for _, ev := range evs {
				fmt.Fprintf(out, "Webhook %s %s at %s, signature verified: %s\n", ev.Type, ev.ID, when(ev).Format("15:04:05.000"), describe(ev))
			}
			return nil
		}
		select {
		case <-in.got:
		case <-ctx.Done():
			return fmt.Errorf("webhooks: got %d events, want %d: %w", len(evs), wantEvents, ctx.Err())
		}
	}
}

// when is when the mutation an event reports occurred: data.timestamp of
// a content event, else the envelope's dispatch time.
func when(ev *webhook.Event) time.Time {
	switch d := ev.Data.(type) {
	case *webhook.ModelCreated:
		return d.Timestamp
	case *webhook.EntryCreated:
		return d.Timestamp
	case *webhook.EntryUpdated:
		return d.Timestamp
	case *webhook.EntryPublished:
		return d.Timestamp
	case *webhook.EntryUnpublished:
		return d.Timestamp
	case *webhook.EntryDeleted:
		return d.Timestamp
	case *webhook.EntriesBulkPublished:
		return d.Timestamp
	}
	return ev.Timestamp
}

// describe says in a few words what an event reports.
func describe(ev *webhook.Event) string {
	var ch *webhook.EntryChange
	switch d := ev.Data.(type) {
	case *webhook.ModelCreated:
		return "model " + deref(d.Model) + " by " + actor(d.Actor)
	case *webhook.EntriesBulkPublished:
		var rows []string
		for _, e := range d.Entries {
			rows = append(rows, fmt.Sprintf("%s %s -> %s", e.Slug, status(e.PreviousStatus), status(e.Status)))
		}
		return fmt.Sprintf("%d entries: %s", d.Count, strings.Join(rows, ", "))
	case *webhook.EntryCreated:
		ch = &d.EntryChange
	case *webhook.EntryUpdated:
		ch = &d.EntryChange
	case *webhook.EntryPublished:
		ch = &d.EntryChange
	case *webhook.EntryUnpublished:
		ch = &d.EntryChange
	case *webhook.EntryDeleted:
		return fmt.Sprintf("%s gone (status %s)", d.Entry.Slug, status(d.Entry.Status))
	default:
		return string(ev.RawData())
	}
	return fmt.Sprintf("%s %s -> %s, changed [%s] of [%s]", ch.Entry.Slug, status(ch.Entry.PreviousStatus), status(ch.Entry.Status),
		strings.Join(ch.ChangedLanguages, " "), strings.Join(ch.Languages, " "))
}

func status(s *webhook.EntryStatus) string {
	if s == nil {
		return "null"
	}
	return string(*s)
}

func deref(s *string) string {
	if s == nil {
		return "null"
	}
	return *s
}

func actor(a *webhook.Actor) string {
	if a == nil {
		return "nobody"
	}
	return string(a.Via)
}

// advice says in one line what the application should do about err.
func advice(err error) string {
	var scope *partner.MissingScopeError
	var tool *partner.ToolError
	switch {
	case errors.As(err, &scope):
		return fmt.Sprintf("Ask the user to re-authorize the application with the scope %q. (%v)", scope.Required, err)
	case errors.Is(err, partner.ErrMCPUnauthorized):
		return fmt.Sprintf("Check PARTNER_CONTENT_MCP_URL: the content tools refused the installation token (the grant is fine). (%v)", err)
	case errors.Is(err, partner.ErrConfiguration):
		return fmt.Sprintf("Check PARTNER_CLIENT_ID, PARTNER_CLIENT_SECRET and PARTNER_AUTH_URL: the service refused the application. (%v)", err)
	case errors.Is(err, partner.ErrReauthorizationRequired):
		return "The user must reconnect the application: the grant was revoked or its token refused."
	case errors.Is(err, partner.ErrTemporary):
		return fmt.Sprintf("The service is unavailable right now; check what was written (Entries.All) and try again later. (%v)", err)
	case errors.As(err, &tool):
		return fmt.Sprintf("The tool %s refused the call (%s): %s", tool.Tool, tool.Kind, tool.Text)
	case errors.Is(err, context.Canceled):
		return "Stopped."
	}
	return fmt.Sprintf("Unexpected error: %v", err)
}

func list(ts []webhook.EventType) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}
