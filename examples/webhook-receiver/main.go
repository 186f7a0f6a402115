// Command webhook-receiver receives the service's webhook deliveries with
// webhook.NewHandler and logs each typed event in one line.
//
// With PARTNER_WEBHOOK_SECRET set (the whsec_... secret shown when the
// webhook was created) it listens on PARTNER_WEBHOOK_ADDR (default
// 127.0.0.1:8080) at /webhooks until SIGINT or SIGTERM.
//
// Without it, it runs a demo: it starts itself on a free loopback port and
// has partnertest, the SDK's fake service, deliver one event of each type,
// then a tampered, a stale and a repeated delivery, and prints what
// happened to each.
//
//	go run ./examples/webhook-receiver
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	if secret := os.Getenv("PARTNER_WEBHOOK_SECRET"); secret != "" {
		err = serve(ctx, secret, or(os.Getenv("PARTNER_WEBHOOK_ADDR"), "127.0.0.1:8080"), os.Stdout)
	} else {
		err = demo(ctx, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webhook-receiver:", err)
		os.Exit(1)
	}
}

// receiver is the application's part: a handler for verified, typed
// events. Slow work belongs on a queue: the service waits 10 s at most.
func receiver(secret string, out io.Writer) (http.Handler, error) {
	v, err := webhook.NewVerifier(secret)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("/webhooks", webhook.NewHandler(v, func(ctx context.Context, ev *webhook.Event) error {
		fmt.Fprintf(out, "  received %s %s: %s\n", ev.ID, ev.Type, describe(ev))
		return nil
	},
		// Run the callback until one delivery of an event succeeds: a
		// redelivery of a handled id answers 200 without calling it, one
		// after a failure runs it again, and one that overlaps a running
		// attempt waits for it.
		webhook.WithDeduplication(&webhook.MemoryDedup{}),
	))
	return mux, nil
}

// serve listens on addr until ctx ends, then shuts down gracefully.
func serve(ctx context.Context, secret, addr string, out io.Writer) error {
	h, err := receiver(secret, out)
	if err != nil {
		return err
	}
	srv := &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 5 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	fmt.Fprintf(out, "listening on http://%s/webhooks\n", addr)
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fmt.Fprintln(out, "shutting down")
	return srv.Shutdown(shutdown)
}

// describe summarises an event in a few words, by its typed data.
func describe(ev *webhook.Event) string {
	switch d := ev.Data.(type) {
	case *webhook.TranslationsPublished:
		return fmt.Sprintf("%s/%s published %d keys in %s", d.Org, d.Project, d.KeysCount, strings.Join(d.Languages, ","))
	case *webhook.TranslationsUpdated:
		return fmt.Sprintf("%s/%s: %d %s translations edited", d.Org, d.Project, d.KeysCount, d.Language)
	case *webhook.KeysCreated:
		return fmt.Sprintf("%s/%s: %d keys added to %s", d.Org, d.Project, len(d.Keys), d.Namespace)
	case *webhook.KeysDeleted:
		return fmt.Sprintf("%s/%s: %d keys removed from %s", d.Org, d.Project, len(d.Keys), d.Namespace)
	case *webhook.SyncCompleted:
		return fmt.Sprintf("%s/%s: sync %s, %d keys in %v", d.Org, d.Project, d.Status, d.KeysImported, d.Duration())
	case *webhook.LanguageAdded:
		return fmt.Sprintf("%s/%s: %s (%s) added", d.Org, d.Project, d.Language, d.LanguageName)
	case *webhook.LanguageRemoved:
		return fmt.Sprintf("%s/%s: %s removed", d.Org, d.Project, d.Language)
	case *webhook.EntryCreated:
		return "entry " + d.Entry.Slug + " created"
	case *webhook.EntryUpdated:
		return fmt.Sprintf("entry %s updated in %v", d.Entry.Slug, d.ChangedLanguages)
	case *webhook.EntryPublished:
		return "entry " + d.Entry.Slug + " published"
	case *webhook.EntryUnpublished:
		return "entry " + d.Entry.Slug + " unpublished"
	case *webhook.EntryDeleted:
		return "entry " + d.Entry.Slug + " deleted: purge it from caches"
	case *webhook.EntriesBulkPublished:
		return fmt.Sprintf("%d entries published", d.Count)
	case *webhook.EntriesBulkUpdated:
		return fmt.Sprintf("%d entries updated", d.Count)
	case *webhook.EntriesBulkDeleted:
		return fmt.Sprintf("%d entries deleted", d.Count)
	case *webhook.ModelCreated, *webhook.ModelUpdated, *webhook.ModelDeleted:
		return "content model changed"
	case *webhook.FieldAdded:
		return fmt.Sprintf("field %s (%s) added", d.Field.Name, d.Field.Type)
	case *webhook.FieldUpdated:
		return fmt.Sprintf("field %s updated", d.Field.Name)
	case *webhook.FieldDeleted:
		return fmt.Sprintf("field %s deleted", d.Field.Name)
	case *webhook.UnknownData:
		return "an event type this SDK does not know yet"
	}
	return "?"
}

// demo runs the receiver on a free loopback port and has the fake service
// deliver to it.
func demo(ctx context.Context, out io.Writer) error {
	fake := partnertest.NewServer()
	defer fake.Close()

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/webhooks"
	// Webhooks are configured per project, in its Integrations area.
	org := fake.AddOrganization("acme", "Acme")
	web := fake.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"})
	hook := fake.AddWebhook(web.ID, url) // all event types; the secret is shown once
	h, err := receiver(hook.Secret, out)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ErrorLog: nil}
	go srv.Serve(ln)
	defer srv.Shutdown(context.Background())
	fmt.Fprintf(out, "No PARTNER_WEBHOOK_SECRET: demo receiver at %s, fed by the fake service.\n\n", url)

	failures := 0
	expect := func(what string, d partnertest.Delivery, err error, wantStatus int) {
		if err != nil && d.Status == 0 {
			fmt.Fprintf(out, "%-28s -> delivery failed: %v\n", what, err)
			failures++
			return
		}
		mark := "as expected"
		if d.Status != wantStatus {
			mark = fmt.Sprintf("UNEXPECTED, want %d", wantStatus)
			failures++
		}
		fmt.Fprintf(out, "%-28s -> %d %s (%s)\n", what, d.Status, http.StatusText(d.Status), mark)
	}

	fmt.Fprintln(out, "One delivery of each event type:")
	var first partnertest.Delivery
	for i, typ := range webhook.EventTypes() {
		d, err := fake.Deliver(ctx, hook.ID, typ, partnertest.SampleData(typ, fake.Now()))
		if i == 0 {
			first = d
		}
		expect(string(typ), d, err, http.StatusOK)
	}

	fmt.Fprintln(out, "\nA secret read with its trailing newline is refused at start-up:")
	if _, err := receiver(hook.Secret+"\n", out); errors.Is(err, webhook.ErrInvalidSecret) {
		fmt.Fprintf(out, "  %v\n", err)
	} else {
		fmt.Fprintf(out, "  UNEXPECTED: %v\n", err)
		failures++
	}

	fmt.Fprintln(out, "\nDeliveries the receiver must refuse or drop:")
	d, err := fake.Deliver(ctx, hook.ID, webhook.EventKeysCreated, partnertest.SampleData(webhook.EventKeysCreated, fake.Now()),
		partnertest.SignedWith("whsec_forged"))
	expect("tampered (wrong secret)", d, err, http.StatusUnauthorized)
	d, err = fake.Deliver(ctx, hook.ID, webhook.EventKeysCreated, partnertest.SampleData(webhook.EventKeysCreated, fake.Now()),
		partnertest.SignedAt(time.Now().Add(-10*time.Minute)))
	expect("stale (signed 10 min ago)", d, err, http.StatusUnauthorized)
	d, err = fake.Redeliver(ctx, first.EventID)
	expect("repeated (same event id)", d, err, http.StatusOK)
	fmt.Fprintln(out, "  (the repeat was answered 200 but not handled again: no \"received\" line)")

	if failures > 0 {
		return errors.New("some deliveries did not go as expected")
	}
	return nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
