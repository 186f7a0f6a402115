// Command translate shows the translation work a partner application does
// through the SDK: create a project, add two target languages, create keys
// with their source text, write translations, look at what waits to be
// published, publish, wait for the sync job that ships it, and show the
// signed webhooks the service sent about it.
//
// With no configuration it runs against partnertest, the SDK's in-process
// fake of the service, and says so; a webhook receiver on 127.0.0.1 gets
// keys.created, translations.published and sync.completed and verifies
// each. To use a real service, set all of
//
//	PARTNER_BASE_URL PARTNER_AUTH_URL PARTNER_MCP_URL PARTNER_CLIENT_ID
//	PARTNER_CLIENT_SECRET PARTNER_REFRESH_TOKEN PARTNER_GRANT_ID
//
// and optionally PARTNER_SOURCE_LANGUAGE (default en). The grant needs the
// scopes projects:write, keys:write, translations:write and
// translations:publish. A real service cannot reach a receiver on
// 127.0.0.1, so the webhook part is then skipped with a note on how to
// configure a webhook.
//
//	go run ./examples/translate
package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http/httptest"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
	"github.com/locsvc/partner-go/translations"
	"github.com/locsvc/partner-go/webhook"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Getenv, os.Stdout))
}

var required = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_MCP_URL", "PARTNER_CLIENT_ID",
	"PARTNER_CLIENT_SECRET", "PARTNER_REFRESH_TOKEN", "PARTNER_GRANT_ID",
}

// The events the example's receiver subscribes to, in the order they come.
var subscribed = []webhook.EventType{webhook.EventKeysCreated, webhook.EventTranslationsPublished, webhook.EventSyncCompleted}

// namespace is where the example's keys go.
const namespace = "common"

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
	source := or(getenv("PARTNER_SOURCE_LANGUAGE"), "en")

	var cfg partner.Config
	var fake *partnertest.Server
	switch len(missing) {
	case 0:
		cfg = partner.Config{
			BaseURL: getenv("PARTNER_BASE_URL"), AuthURL: getenv("PARTNER_AUTH_URL"), MCPURL: getenv("PARTNER_MCP_URL"),
			ClientID: getenv("PARTNER_CLIENT_ID"), ClientSecret: getenv("PARTNER_CLIENT_SECRET"),
			GrantID: getenv("PARTNER_GRANT_ID"),
			Token:   &oauth2.Token{RefreshToken: getenv("PARTNER_REFRESH_TOKEN")},
		}
		fmt.Fprintf(out, "Using the service at %s, translation tools at %s\n", cfg.BaseURL, cfg.MCPURL)
	case len(required):
		fake = partnertest.NewServer()
		defer fake.Close()
		g := fake.NewGrant()
		cfg = partner.Config{
			BaseURL: fake.URL, AuthURL: fake.AuthURL, MCPURL: fake.MCPURL,
			ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		}
		fmt.Fprintln(out, "No PARTNER_* settings: using the built-in fake service (partnertest).")
		fmt.Fprintf(out, "Set %s to use a real one.\n", strings.Join(required, ", "))
	default:
		fmt.Fprintf(out, "translate: missing settings: %s (set all of them, or none to use the fake service)\n", strings.Join(missing, ", "))
		return 2
	}

	c, err := partner.NewClient(cfg)
	if err != nil {
		fmt.Fprintf(out, "translate: %v\n", err)
		return 2
	}
	defer c.Close() // ends the MCP session

	var in *inbox
	var whID string
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
			whID = wh.ID
			rcv.Config.Handler = webhook.NewHandler(v, in.receive)
			rcv.Start()
			fmt.Fprintf(out, "Webhook receiver at %s (%s), subscribed to %s\n", rcv.URL, wh.ID, list(subscribed))
			return nil
		}
	} else {
		fmt.Fprintf(out, "Webhooks: skipped (the service cannot reach 127.0.0.1). To receive them, add a webhook in the project's Integrations area with a public https URL and the events %s, and serve it with webhook.NewHandler (see examples/webhook-receiver).\n", list(subscribed))
	}

	if err := work(ctx, c, source, out, onProject); err != nil {
		fmt.Fprintln(out, advice(err))
		return 1
	}
	if in != nil {
		if err := in.show(ctx, out); err != nil {
			fmt.Fprintf(out, "translate: %v\n", err)
			return 1
		}
		// What "verified" means: a delivery not signed with the webhook's
		// secret never reaches the callback.
		d, _ := fake.Deliver(ctx, whID, webhook.EventKeysCreated, &webhook.KeysCreated{Org: "evil", Project: "forged"},
			partnertest.SignedWith("whsec_forged"))
		fmt.Fprintf(out, "A forged delivery: answered %d, not handled (%d events handled)\n", d.Status, in.count())
	}
	fmt.Fprintln(out, "Done.")
	return 0
}

// work does the translation steps, one line each. onProject, if not nil,
// is called with the id of the project it creates.
func work(ctx context.Context, c *partner.Client, source string, out io.Writer, onProject func(string) error) error {
	orgs, err := c.Organizations.List(ctx)
	if err != nil {
		return err
	}
	if len(orgs) == 0 {
		return errors.New("the grant covers no organization: the user must grant one")
	}
	slug := "translate-" + strings.ToLower(rand.Text()[:8])
	p, err := c.Projects.Create(ctx, projects.NewProject{Name: "Translate " + slug, Slug: slug, SourceLanguage: source})
	if err != nil {
		return err
	}
	org := orgs[0]
	for _, o := range orgs {
		if o.ID == p.OrganizationID {
			org = o
		}
	}
	project := org.Slug + "/" + p.Slug // the tools name projects "org/project"
	fmt.Fprintf(out, "Created project %s (id %s, source %s)\n", project, p.ID, p.SourceLanguage)
	if onProject != nil {
		if err := onProject(p.ID); err != nil {
			return err
		}
	}

	var added []string
	for _, code := range []string{"de", "fr"} {
		l, err := c.Projects.AddLanguage(ctx, p.ID, code)
		if err != nil {
			return err
		}
		added = append(added, l.Code+paren(l.Name))
	}
	fmt.Fprintf(out, "Added target languages %s\n", strings.Join(added, ", "))

	texts := []struct{ name, source, de, fr string }{
		{"nav.home", "Home", "Startseite", "Accueil"},
		{"nav.pricing", "Pricing", "Preise", "Tarifs"},
		{"cta.signup", "Sign up", "Registrieren", "S'inscrire"},
	}
	nks := make([]keys.NewKey, len(texts))
	for i, t := range texts {
		nks[i] = keys.NewKey{Name: t.name, Namespace: namespace, SourceText: t.source}
	}
	created, err := c.Keys.Create(ctx, project, nks, keys.CreateOptions{})
	if err != nil {
		return err
	}
	names := make([]string, len(created.Created))
	for i, k := range created.Created {
		names[i] = k.Name
	}
	fmt.Fprintf(out, "Created %d keys in namespace %s: %s (skipped %d, blocked %d)\n",
		created.Count, namespace, strings.Join(names, ", "), len(created.Skipped), len(created.Blocked))

	ids := map[string]string{}
	for _, k := range created.Created {
		ids[k.Name] = k.ID
	}
	var vs []translations.Values
	for _, t := range texts {
		if id := ids[t.name]; id != "" {
			vs = append(vs, translations.Values{KeyID: id, Text: map[string]string{"de": t.de, "fr": t.fr}})
		}
	}
	set, err := c.Translations.Set(ctx, project, vs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Wrote %d translations for %d keys (%d failed)\n", set.Written, set.Count, len(set.Errors))

	pending, err := c.Translations.Pending(ctx, project)
	if err != nil {
		return err
	}
	var per []string
	for _, l := range slices.Sorted(maps.Keys(pending.ByLanguage)) {
		per = append(per, fmt.Sprintf("%s %d", l, pending.ByLanguage[l].Count))
	}
	fmt.Fprintf(out, "Pending: %d changes (%s), publishing to %s%s\n",
		pending.Summary.Total, strings.Join(per, ", "), or(pending.Destination, "?"), paren(pending.NoPublishReason))

	pub, err := c.Translations.Publish(ctx, project, translations.PublishOptions{})
	if err != nil {
		return err
	}
	if len(pub.SyncIDs) == 0 {
		fmt.Fprintf(out, "Published %d translations; no sync job to wait for%s\n", pub.Published, paren(pub.Message))
		return nil
	}
	fmt.Fprintf(out, "Published %d translations: sync jobs %s\n", pub.Published, strings.Join(pub.SyncIDs, ", "))

	for _, id := range pub.SyncIDs {
		wctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
		start := time.Now()
		s, err := c.Translations.WaitSync(wctx, id)
		cancel()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "Sync %s: %s after %.1fs, %d keys%s\n", s.ID, s.Status, time.Since(start).Seconds(), len(s.AffectedKeys), paren(s.Error))
	}
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

func (in *inbox) count() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	return len(in.events)
}

// show waits for one event of each subscribed type and prints them.
func (in *inbox) show(ctx context.Context, out io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		in.mu.Lock()
		evs := slices.Clone(in.events)
		in.mu.Unlock()
		seen := map[webhook.EventType]bool{}
		for _, ev := range evs {
			seen[ev.Type] = true
		}
		if len(seen) == len(subscribed) {
			for _, ev := range evs {
				fmt.Fprintf(out, "Webhook %s %s, signature verified: %s\n", ev.Type, ev.ID, describe(ev))
			}
			return nil
		}
		select {
		case <-in.got:
		case <-ctx.Done():
			return fmt.Errorf("webhooks: got %d events, not one of each of %s: %w", len(evs), list(subscribed), ctx.Err())
		}
	}
}

// describe says in a few words what an event reports.
func describe(ev *webhook.Event) string {
	switch d := ev.Data.(type) {
	case *webhook.KeysCreated:
		return fmt.Sprintf("%d keys in %s/%s namespace %s", len(d.Keys), d.Org, d.Project, d.Namespace)
	case *webhook.TranslationsPublished:
		return fmt.Sprintf("%d keys in %s of %s/%s", d.KeysCount, strings.Join(d.Languages, ", "), d.Org, d.Project)
	case *webhook.SyncCompleted:
		return fmt.Sprintf("%s, %d keys in %s", d.Status, d.KeysImported, d.Duration())
	}
	return string(ev.RawData())
}

// advice says in one line what the application should do about err.
func advice(err error) string {
	var scope *partner.MissingScopeError
	var tool *partner.ToolError
	switch {
	case errors.As(err, &scope):
		return fmt.Sprintf("Ask the user to re-authorize the application with the scope %q. (%v)", scope.Required, err)
	case errors.Is(err, partner.ErrMCPUnauthorized):
		return fmt.Sprintf("Check PARTNER_MCP_URL: the translation tools refused the installation token (the grant is fine). (%v)", err)
	case errors.Is(err, partner.ErrConfiguration):
		return fmt.Sprintf("Check PARTNER_CLIENT_ID, PARTNER_CLIENT_SECRET and PARTNER_AUTH_URL: the service refused the application. (%v)", err)
	case errors.Is(err, partner.ErrReauthorizationRequired):
		return "The user must reconnect the application: the grant was revoked or its token refused."
	case errors.As(err, &tool) && tool.Kind == partner.ToolTooManyRequests:
		return fmt.Sprintf("The project was published moments ago: publish again in %s. (%v)", tool.RetryAfter, err)
	case errors.Is(err, partner.ErrTemporary):
		return fmt.Sprintf("The service is unavailable right now; try again later. (%v)", err)
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

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}
