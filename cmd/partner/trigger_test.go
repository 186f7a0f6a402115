package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/locsvc/partner-go/webhook"
)

// delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver records deliveries and answers status.
func receiver(t *testing.T, status int) (url string, got func() []delivery) {
	var mu sync.Mutex
	var ds []delivery
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		ds = append(ds, delivery{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, "answer from the receiver")
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func() []delivery {
		mu.Lock()
		defer mu.Unlock()
		return append([]delivery(nil), ds...)
	}
}

const testSecret = "whsec_trigger_test_secret"

func TestTriggerEveryEventType(t *testing.T) {
	r := runPartner(t, nil, "trigger", "--list")
	types := strings.Fields(r.stdout)
	if r.code != 0 || len(types) != 21 {
		t.Fatalf("trigger --list: exit %d, %d types, want 0 and the spec's 21:\n%s", r.code, len(types), r.stdout)
	}
	url, got := receiver(t, http.StatusOK)
	v, err := webhook.NewVerifier(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for i, typ := range types {
		r := runPartner(t, map[string]string{"PARTNER_WEBHOOK_SECRET": testSecret}, "trigger", typ, "--to", url)
		if r.code != 0 {
			t.Errorf("trigger %s: exit %d\n%s", typ, r.code, r.stderr)
			continue
		}
		d := got()[i]
		if err := v.Verify(d.body, d.header.Get(webhook.SignatureHeader)); err != nil {
			t.Errorf("%s: signature: %v", typ, err)
		}
		ev, err := webhook.Parse(d.body)
		if err != nil {
			t.Errorf("%s: Parse: %v", typ, err)
			continue
		}
		if _, unknown := ev.Data.(*webhook.UnknownData); string(ev.Type) != typ || unknown {
			t.Errorf("%s: parsed as %s with data %T", typ, ev.Type, ev.Data)
		}
		if ev.Version != "1" || !strings.HasPrefix(ev.ID, "evt_") || !strings.HasPrefix(ev.WebhookConfigID, "wh_") || ev.Timestamp.IsZero() || !ev.CreatedAt.Equal(ev.Timestamp) {
			t.Errorf("%s: envelope %+v", typ, ev)
		}
		if ids[ev.ID] {
			t.Errorf("%s: event id %s sent twice", typ, ev.ID)
		}
		ids[ev.ID] = true
		for h, want := range map[string]string{
			"Content-Type":      "application/json",
			webhook.EventHeader: typ,
			webhook.IDHeader:    ev.ID,
		} {
			if got := d.header.Get(h); got != want {
				t.Errorf("%s: header %s = %q, want %q", typ, h, got, want)
			}
		}
		// The data is realistic: a content event says its own type.
		var data struct {
			Event string `json:"event"`
			Org   string `json:"org"`
		}
		json.Unmarshal(ev.RawData(), &data)
		if data.Org != "acme" || (strings.HasPrefix(typ, "content.") && data.Event != typ) {
			t.Errorf("%s: data %s", typ, ev.RawData())
		}
	}
}

func TestTriggerData(t *testing.T) {
	url, got := receiver(t, http.StatusOK)
	file := filepath.Join(t.TempDir(), "data.json")
	os.WriteFile(file, []byte(`{"org": "globex", "project": "app", "language": "pt-BR", "keysCount": 7}`), 0o600)
	r := runPartner(t, nil, "trigger", "translations.updated", "--to", url, "--secret", testSecret, "--data", file, "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var res triggerResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Status != 200 || res.EventType != "translations.updated" {
		t.Errorf("--json printed %s (%v)", r.stdout, err)
	}
	ev, err := webhook.Parse(got()[0].body)
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := ev.Data.(*webhook.TranslationsUpdated); !ok || d.Org != "globex" || d.Language != "pt-BR" || d.KeysCount != 7 || ev.ID != res.ID {
		t.Errorf("sent %+v, want the file's data", ev.Data)
	}
}

func TestTriggerRefusals(t *testing.T) {
	url, got := receiver(t, http.StatusUnauthorized)
	notJSON := filepath.Join(t.TempDir(), "data.json")
	os.WriteFile(notJSON, []byte(`["not", "an object"]`), 0o600)
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"unknown type", nil, []string{"trigger", "nope.created", "--to", url, "--secret", testSecret}, 2},
		{"no type", nil, []string{"trigger", "--to", url, "--secret", testSecret}, 2},
		{"no --to", nil, []string{"trigger", "keys.created", "--secret", testSecret}, 2},
		{"no secret", nil, []string{"trigger", "keys.created", "--to", url}, 2},
		{"secret without whsec_", nil, []string{"trigger", "keys.created", "--to", url, "--secret", "hunter2"}, 2},
		{"data not an object", nil, []string{"trigger", "keys.created", "--to", url, "--secret", testSecret, "--data", notJSON}, 2},
		{"receiver refuses", map[string]string{"PARTNER_WEBHOOK_SECRET": testSecret}, []string{"trigger", "keys.created", "--to", url}, 1},
	} {
		r := runPartner(t, tc.env, tc.args...)
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, r.code, tc.code, r.stderr)
		}
		if strings.Contains(r.stderr, testSecret) {
			t.Errorf("%s: the error shows the secret: %s", tc.name, r.stderr)
		}
	}
	if n := len(got()); n != 1 {
		t.Errorf("the receiver got %d deliveries, want 1 (only the valid call sends)", n)
	}
}

// TestRunTrigger calls trigger's run function in-process: the sample data
// of a type, or a data object read from stdin ("--data -"), goes out
// signed, and the receiver's verifier takes it.
func TestRunTrigger(t *testing.T) {
	url, got := receiver(t, http.StatusOK)
	v, err := webhook.NewVerifier(testSecret)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	a := newApp(func(k string) string {
		if k == "PARTNER_WEBHOOK_SECRET" {
			return testSecret
		}
		return ""
	}, strings.NewReader(`{"org": "globex", "project": "app", "language": "pt-BR", "keysCount": 7}`), &stdout, &stderr)
	ctx := context.Background()
	if err := runTrigger(ctx, &triggerOptions{app: a, args: []string{"keys.created"}, to: url}); err != nil {
		t.Fatalf("runTrigger keys.created: %v", err)
	}
	if err := runTrigger(ctx, &triggerOptions{app: a, args: []string{"translations.updated"}, to: url, dataFile: "-"}); err != nil {
		t.Fatalf("runTrigger translations.updated --data -: %v", err)
	}
	ds := got()
	if len(ds) != 2 {
		t.Fatalf("the receiver got %d deliveries, want 2", len(ds))
	}
	for i, want := range []webhook.EventType{webhook.EventKeysCreated, webhook.EventTranslationsUpdated} {
		ev, err := v.ConstructEvent(ds[i].body, ds[i].header.Get(webhook.SignatureHeader))
		if err != nil || ev.Type != want {
			t.Errorf("delivery %d: %v, %v; want a verified %s", i, ev, err, want)
		}
	}
	if ev, err := webhook.Parse(ds[1].body); err != nil || ev.Data.(*webhook.TranslationsUpdated).Language != "pt-BR" {
		t.Errorf("the delivery of stdin's data: %+v, %v", ev, err)
	}
	if err := runTrigger(ctx, &triggerOptions{app: a, args: []string{"nope.created"}, to: url}); exitCode(err) != exitUsage {
		t.Errorf("runTrigger of an unknown type: %v, want a usage error", err)
	}
}
