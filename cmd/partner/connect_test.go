package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/partnertest"
)

// connectWithFake runs "partner connect --no-browser --json" with args
// against the fake, plays the browser's part, and returns what it printed.
func connectWithFake(t *testing.T, env map[string]string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(partnerBin, append([]string{"connect", "--no-browser", "--json"}, args...)...)
	cmd.Env = environ(with(env, "PARTNER_REFRESH_TOKEN", ""))
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	consent := ""
	for consent == "" && sc.Scan() {
		if strings.HasPrefix(sc.Text(), env["PARTNER_AUTH_URL"]) {
			consent = sc.Text()
		}
	}
	if consent == "" {
		cmd.Process.Kill()
		t.Fatal("connect printed no consent URL on stderr")
	}
	drained := make(chan struct{})
	go func() { io.Copy(io.Discard, stderr); close(drained) }()
	// The fake consents at once and redirects to the callback: the
	// browser's part.
	resp, err := http.Get(consent)
	if err != nil {
		t.Fatal(err)
	}
	page, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || err != nil || !strings.Contains(string(page), "Connected.") {
		t.Errorf("the callback answered the browser %d %q (%v), want the whole page saying Connected", resp.StatusCode, page, err)
	}
	<-drained // before Wait, which closes the pipe
	if err := cmd.Wait(); err != nil {
		t.Fatalf("connect: %v", err)
	}
	return stdout.Bytes()
}

func TestConnectNoBrowser(t *testing.T) {
	env := startFake(t)
	store := "file:" + filepath.Join(t.TempDir(), "tokens.json")
	out := connectWithFake(t, env, "--store", store, "--scopes", "org:read,projects:read,keys:read,translations:read")
	var res connectResult
	if err := json.Unmarshal(out, &res); err != nil || len(res.Grants) != 1 || res.Grants[0].GrantID == "" {
		t.Fatalf("connect --json printed %q (%v), want one grant", out, err)
	}
	if g := res.Grants[0]; g.GrantID == env["PARTNER_GRANT_ID"] || !strings.Contains(strings.Join(g.Scopes, " "), "translations:read") {
		t.Errorf("grant %+v: want a new grant with the scopes asked for", g)
	}

	// The other commands use the saved grant from the store alone.
	r := runPartner(t, with(env, "PARTNER_REFRESH_TOKEN", "", "PARTNER_GRANT_ID", res.Grants[0].GrantID, "PARTNER_STORE", store), "status")
	if r.code != 0 {
		t.Errorf("status with the connected grant: exit %d\n%s", r.code, r.stderr)
	}
}

func TestConnectRefusals(t *testing.T) {
	env := startFake(t)
	store := "file:" + filepath.Join(t.TempDir(), "tokens.json")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"no store", with(env, "PARTNER_STORE", ""), []string{"connect", "--no-browser"}},
		{"redirect not on loopback", with(env, "PARTNER_REDIRECT_URL", "https://app.example/callback"), []string{"connect", "--no-browser", "--store", store}},
		{"no redirect URL", with(env, "PARTNER_REDIRECT_URL", ""), []string{"connect", "--no-browser", "--store", store}},
		{"an argument", env, []string{"connect", "grant_1", "--store", store}},
	} {
		if r := runPartner(t, tc.env, tc.args...); r.code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s", tc.name, r.code, r.stderr)
		}
	}
}

// TestConnectDefaultsCoverTheCommands: without --scopes, connect asks for
// what push --publish, status and adding a language need; --json lists
// each grant's organizationId, as the README documents; and the connected
// grant pushes and publishes without being told to connect again.
func TestConnectDefaultsCoverTheCommands(t *testing.T) {
	env := startFake(t)
	store := "file:" + filepath.Join(t.TempDir(), "tokens.json")
	out := connectWithFake(t, env, "--store", store)
	var res struct {
		Grants []map[string]any `json:"grants"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res.Grants) != 1 {
		t.Fatalf("connect --json printed %q (%v), want one grant", out, err)
	}
	g := res.Grants[0]
	if org, ok := g["organizationId"].(string); !ok || org == "" {
		t.Errorf("connect --json grant %v: want its organizationId", g)
	}
	scopes := fmt.Sprint(g["scopes"])
	for _, want := range []string{"translations:publish", "projects:write", "projects:read", "keys:write", "translations:write"} {
		if !strings.Contains(scopes, want) {
			t.Errorf("default scopes %s lack %s", scopes, want)
		}
	}
	connected := with(env, "PARTNER_REFRESH_TOKEN", "", "PARTNER_GRANT_ID", g["grantId"].(string), "PARTNER_STORE", store)
	dir := writeTree(t, map[string]string{"en.json": `{"a": "A"}`})
	for _, args := range [][]string{{"push", "--dir", dir, "--publish", "--wait"}, {"status"}} {
		if r := runPartner(t, connected, args...); r.code != 0 || strings.Contains(r.stderr, "partner connect") {
			t.Errorf("%v with the connected grant: exit %d, want 0 and no advice to connect\n%s", args, r.code, r.stderr)
		}
	}
}

// TestRunConnectCancelled: a connect cancelled (Ctrl-C) while it waits for
// the browser says so, not that the browser did not answer in time.
func TestRunConnectCancelled(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	redirect := "http://" + l.Addr().String() + "/callback"
	l.Close()
	ta.setenv("PARTNER_REDIRECT_URL", redirect)
	ta.setenv("PARTNER_STORE", "file:"+filepath.Join(t.TempDir(), "tokens.json"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // Ctrl-C, before the browser came back
	err = runConnect(ctx, &connectOptions{app: ta.app, noBrowser: true})
	if err == nil || !strings.Contains(err.Error(), "cancelled") || strings.Contains(err.Error(), "no answer") {
		t.Errorf("connect cancelled: %v, want it to say it was cancelled", err)
	}
}
