package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// triggerResult is what "partner trigger --json" prints.
type triggerResult struct {
	ID        string `json:"id"`
	EventType string `json:"eventType"`
	URL       string `json:"url"`
	// Status is the receiver's HTTP status.
	Status int `json:"status"`
	// Response is the start of the receiver's answer (500 characters at
	// most, as the service's delivery log keeps).
	Response string `json:"response"`
}

// answerChars is how much of a receiver's answer is shown.
const answerChars = 500

// triggerOptions are what trigger is asked to do: its argument and
// flags, and the app it runs in.
type triggerOptions struct {
	app *app
	// args are the command's arguments: the event type, unless list.
	args                 []string
	to, secret, dataFile string
	list                 bool
}

func (a *app) triggerCmd() *cobra.Command {
	opts := &triggerOptions{app: a}
	cmd := &cobra.Command{
		Use:   "trigger EVENT_TYPE --to URL [--secret whsec_...] [--data FILE] | trigger --list",
		Short: "Send one signed webhook delivery of any event type",
		Long: `trigger sends one webhook delivery of EVENT_TYPE to a receiver, as the service
does: a POST of the JSON envelope {id, webhookConfigId, eventType, timestamp,
createdAt, version, data} with Content-Type application/json and the headers
X-Service-Signature (signed now with the secret), X-Service-Event and
X-Service-Id. The data is realistic sample data for the project acme/web, or the
JSON object in --data FILE ("-" reads stdin). Each delivery has a new event id.
--list prints the event types.

The secret comes from --secret, else PARTNER_WEBHOOK_SECRET. A receiver that
does not answer 2xx within 10 seconds makes the command fail.`,
		Example: `  partner trigger --list
  partner trigger translations.published --to http://localhost:8080/hooks --secret whsec_...`,
		Args: usageArgs(cobra.MaximumNArgs(1)),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, t := range webhook.EventTypes() {
				names = append(names, string(t))
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.args = args
			return runTrigger(cmd.Context(), opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.to, "to", "", "the receiver's URL")
	f.StringVar(&opts.secret, "secret", "", "the webhook's signing secret (default $PARTNER_WEBHOOK_SECRET)")
	f.StringVar(&opts.dataFile, "data", "", "a file holding the event's data object instead of the sample (- for stdin)")
	f.BoolVar(&opts.list, "list", false, "list the event types")
	return cmd
}

// runTrigger runs "partner trigger": it sends one signed delivery, or
// lists the event types.
func runTrigger(ctx context.Context, opts *triggerOptions) error {
	a := opts.app
	if opts.list {
		return a.listEvents(opts.args)
	}
	if len(opts.args) != 1 {
		return usageErrorf("trigger: name one event type (partner trigger --list shows them)")
	}
	t := webhook.EventType(opts.args[0])
	if !slices.Contains(webhook.EventTypes(), t) {
		return usageErrorf("trigger: unknown event type %q (partner trigger --list shows them)", t)
	}
	if opts.to == "" {
		return usageErrorf("trigger: --to URL is required: the receiver's URL")
	}
	secret := opts.secret
	if secret == "" {
		secret = a.env("PARTNER_WEBHOOK_SECRET")
	}
	if secret == "" {
		return usageErrorf("trigger: no secret: give --secret whsec_... or set PARTNER_WEBHOOK_SECRET")
	}
	if _, err := webhook.NewVerifier(secret); err != nil {
		return usageErrorf("trigger: %v", err)
	}
	data, err := a.eventData(opts.dataFile)
	if err != nil {
		return err
	}
	res, err := deliver(ctx, opts.to, secret, t, data)
	if err != nil {
		return err
	}
	if err := a.printResult(res, func() {
		a.out.printf("sent %s %s to %s: %d %s\n", res.EventType, res.ID, res.URL, res.Status, http.StatusText(res.Status))
	}); err != nil {
		return err
	}
	if res.Status < 200 || res.Status > 299 {
		return fmt.Errorf("trigger: the receiver answered %d: %s", res.Status, oneLine(res.Response))
	}
	return nil
}

func (a *app) listEvents(args []string) error {
	if len(args) > 0 {
		return usageErrorf("trigger --list takes no event type")
	}
	if a.json {
		return a.printJSON(webhook.EventTypes())
	}
	for _, t := range webhook.EventTypes() {
		a.out.printf("%s\n", t)
	}
	return nil
}

// eventData returns the data object to send: the file's, compacted, else
// nil for the sample's.
func (a *app) eventData(file string) (json.RawMessage, error) {
	if file == "" {
		return nil, nil
	}
	var b []byte
	var err error
	if file == "-" {
		b, err = io.ReadAll(a.stdin)
	} else {
		b, err = os.ReadFile(file)
	}
	if err != nil {
		return nil, usageErrorf("trigger: --data: %v", err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, usageErrorf("trigger: --data %s is not one JSON object (%v): write the event's data object, as the service documents it", file, err)
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, usageErrorf("trigger: --data %s: %v", file, err)
	}
	return buf.Bytes(), nil
}

// deliver sends one delivery of an event with this data (nil: the
// sample's, partnertest.SampleData), built as the service builds it
// (partnertest.NewDelivery), and returns the receiver's answer.
func deliver(ctx context.Context, to, secret string, t webhook.EventType, data json.RawMessage) (*triggerResult, error) {
	now := time.Now().UTC()
	var payload any = data
	if data == nil {
		payload = partnertest.SampleData(t, now)
	}
	d, err := partnertest.NewDelivery("wh_partnercli", t, payload, secret, now)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, partnertest.DeliveryTimeout)
	defer cancel()
	req, err := d.Request(ctx, to)
	if err != nil {
		return nil, usageErrorf("trigger: --to %q: %v", to, err)
	}
	req.Header.Set("User-Agent", "partner-cli")
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("trigger: no answer from the receiver: %w", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, answerChars*utf8.UTFMax))
	return &triggerResult{ID: d.EventID, EventType: string(t), URL: to, Status: resp.StatusCode, Response: firstChars(string(b), answerChars)}, nil
}

// firstChars returns the first n characters of s.
func firstChars(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// oneLine returns s on one line, for an error message.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
