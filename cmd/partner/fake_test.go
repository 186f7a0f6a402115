package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/webhook"
)

// clientFor returns an SDK client for the grant the fake printed.
func clientFor(t *testing.T, env map[string]string) *partner.Client {
	t.Helper()
	c, err := partner.NewClient(partner.Config{
		BaseURL: env["PARTNER_BASE_URL"], AuthURL: env["PARTNER_AUTH_URL"],
		MCPURL: env["PARTNER_MCP_URL"], ContentMCPURL: env["PARTNER_CONTENT_MCP_URL"],
		ClientID: env["PARTNER_CLIENT_ID"], ClientSecret: env["PARTNER_CLIENT_SECRET"],
		GrantID: env["PARTNER_GRANT_ID"], Token: &oauth2.Token{RefreshToken: env["PARTNER_REFRESH_TOKEN"]},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestFakeEnvKeepsTheTokenInAStore: the fake's settings name a file store
// it seeded with the grant's token, so commands run with them print no
// warning about the token store, and keep working when refresh tokens
// rotate (each run leaves the next one's token there).
func TestFakeEnvKeepsTheTokenInAStore(t *testing.T) {
	env := startFake(t, "--rotate")
	if !strings.HasPrefix(env["PARTNER_STORE"], "file:") || !strings.HasPrefix(env["PARTNER_CDN_URL"], "http://127.0.0.1:") {
		t.Errorf("--print-env: PARTNER_STORE=%q PARTNER_CDN_URL=%q, want a file store and the CDN's address", env["PARTNER_STORE"], env["PARTNER_CDN_URL"])
	}
	for i := range 3 {
		r := runPartner(t, env, "status")
		if r.code != 0 || r.stderr != "" {
			t.Errorf("run %d with the fake's settings: exit %d, stderr %q; want 0 and nothing on stderr", i, r.code, r.stderr)
		}
	}
}

func TestFakePrintEnv(t *testing.T) {
	env := startFake(t)
	for _, k := range fakeEnvKeys {
		if env[k] == "" {
			t.Errorf("--print-env: %s is empty", k)
		}
	}
	if env["PARTNER_PROJECT"] != "acme/web" {
		t.Errorf("PARTNER_PROJECT = %q, want acme/web", env["PARTNER_PROJECT"])
	}

	// Any number of processes can use the printed environment: refresh
	// tokens do not rotate.
	for range 2 {
		r := runPartner(t, env, "status", "--json")
		if r.code != 0 {
			t.Fatalf("status with the fake's environment: exit %d\n%s", r.code, r.stderr)
		}
		var got statusResult
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
			t.Fatalf("status --json printed %q: %v", r.stdout, err)
		}
		if got.Project != "acme/web" || got.Pending.Destination == "" {
			t.Errorf("status --json = %+v", got)
		}
	}

	// A Go program, another language's stand-in, sees the seeded project.
	ctx := context.Background()
	c := clientFor(t, env)
	orgs, err := c.Organizations.List(ctx)
	if err != nil || len(orgs) != 1 || orgs[0].Slug != "acme" {
		t.Fatalf("Organizations.List = %+v, %v; want the seeded acme", orgs, err)
	}
	ps, err := c.Projects.List(ctx, orgs[0].ID)
	if err != nil || len(ps) != 1 {
		t.Fatalf("Projects.List = %+v, %v", ps, err)
	}
	var langs []string
	for _, l := range ps[0].TargetLanguages {
		langs = append(langs, l.Code)
	}
	if ps[0].Slug != "web" || !slices.Equal(langs, []string{"de", "fr"}) {
		t.Errorf("project = %s with targets %v, want web with [de fr]", ps[0].Slug, langs)
	}
}

func TestFakeAddr(t *testing.T) {
	env := startFake(t, "--addr", "127.0.0.1:0")
	if r := runPartner(t, nil, "fake", "--addr", hostOf(t, env["PARTNER_BASE_URL"])); r.code != 1 {
		t.Errorf("a second fake on the same address: exit %d, want 1\n%s", r.code, r.stderr)
	}
	if r := runPartner(t, nil, "fake", "extra"); r.code != 2 {
		t.Errorf("fake with an argument: exit %d, want 2", r.code)
	}
}

func hostOf(t *testing.T, u string) string {
	t.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req.URL.Host
}

func TestFakeWebhook(t *testing.T) {
	got := make(chan *webhook.Event, 10)
	var secret string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := webhook.NewVerifier(secret)
		if err != nil {
			t.Error(err)
			return
		}
		webhook.NewHandler(v, func(_ context.Context, ev *webhook.Event) error {
			got <- ev
			return nil
		}).ServeHTTP(w, r)
	}))
	defer recv.Close()
	env := startFake(t, "--webhook", recv.URL)
	secret = env["PARTNER_WEBHOOK_SECRET"]

	c := clientFor(t, env)
	if _, err := c.Keys.Create(context.Background(), env["PARTNER_PROJECT"], []keys.NewKey{{Name: "nav.home", SourceText: "Home"}}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-got:
		d, ok := ev.Data.(*webhook.KeysCreated)
		if !ok || !slices.Contains(d.Keys, "nav.home") {
			t.Errorf("delivery = %s %+v, want keys.created with nav.home", ev.Type, ev.Data)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no verified delivery for the key created")
	}
}

// TestRunFake calls fake's run function in-process: it prints the
// settings once it listens, a command with them reaches the seeded
// project, and it returns nil when its context ends.
func TestRunFake(t *testing.T) {
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	var stderr bytes.Buffer
	a := newApp(func(string) string { return "" }, strings.NewReader(""), pw, &stderr)
	done := make(chan error, 1)
	go func() { done <- runFake(ctx, &fakeOptions{app: a, addr: "127.0.0.1:0", printEnv: true}); pw.Close() }()
	env := map[string]string{}
	sc := bufio.NewScanner(pr)
	for len(env) < len(fakeEnvKeys) && sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), "=")
		env[k] = v
	}
	go io.Copy(io.Discard, pr)
	var out bytes.Buffer
	ta := newApp(func(k string) string { return env[k] }, strings.NewReader(""), &out, io.Discard)
	err := runStatus(ctx, &statusOptions{app: ta})
	if err != nil || !strings.Contains(out.String(), "acme/web: nothing to publish") {
		t.Errorf("status against the fake printed %q (%v)", out.String(), err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("runFake after its context ended: %v\n%s", err, stderr.String())
	}
}
