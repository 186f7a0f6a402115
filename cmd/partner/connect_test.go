package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestConnectNoBrowser(t *testing.T) {
	env := startFake(t)
	store := "file:" + filepath.Join(t.TempDir(), "tokens.json")
	cmd := exec.Command(partnerBin, "connect", "--no-browser", "--store", store, "--json", "--scopes", "org:read,projects:read,keys:read,translations:read")
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
	var res connectResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || len(res.Grants) != 1 || res.Grants[0].GrantID == "" {
		t.Fatalf("connect --json printed %q (%v), want one grant", stdout.String(), err)
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
