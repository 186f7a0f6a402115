package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

func TestStatusAndPublish(t *testing.T) {
	env := startFake(t)
	c := clientFor(t, env)
	_, err := c.Keys.Create(context.Background(), env["PARTNER_PROJECT"], []keys.NewKey{
		{Name: "nav.home", SourceText: "Home", Translations: map[string]string{"de": "Startseite", "fr": "Accueil"}},
		{Name: "nav.back", SourceText: "Back", Translations: map[string]string{"de": "Zurück"}},
	}, keys.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}

	var st statusResult
	r := runPartner(t, env, "status", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil {
		t.Fatalf("status --json: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !st.Pending.HasChanges || st.Pending.ByLanguage["de"] != 2 || st.Pending.ByLanguage["fr"] != 1 {
		t.Errorf("status before publishing: %+v, want de 2 and fr 1 pending", st.Pending)
	}
	if r := runPartner(t, env, "status"); r.code != 0 || !strings.Contains(r.stdout, "to publish") {
		t.Errorf("status: exit %d, %q", r.code, r.stdout)
	}
	// fr lacks nav.back: 50% translated.
	if r := runPartner(t, env, "status", "--min-coverage", "60"); r.code != 4 || !strings.Contains(r.stderr, "fr (50%)") || strings.Contains(r.stderr, "de (") {
		t.Errorf("status --min-coverage 60: exit %d, stderr %q; want 4 naming fr only", r.code, r.stderr)
	}
	if r := runPartner(t, env, "status", "--min-coverage", "50"); r.code != 0 {
		t.Errorf("status --min-coverage 50: exit %d, want 0\n%s", r.code, r.stderr)
	}

	var pub publishResult
	r = runPartner(t, env, "publish", "--wait", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &pub) != nil {
		t.Fatalf("publish --wait --json: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if pub.Published != 3 || len(pub.Syncs) == 0 {
		t.Errorf("publish --wait: %+v, want 3 published and its sync jobs", pub)
	}
	for _, s := range pub.Syncs {
		if s.Status != "completed" {
			t.Errorf("sync %s after --wait: %s, want completed", s.ID, s.Status)
		}
	}

	r = runPartner(t, env, "status", "--json")
	st = statusResult{}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil {
		t.Fatalf("status --json: exit %d\n%s", r.code, r.stderr)
	}
	if st.Pending.HasChanges || len(st.Syncs) == 0 || st.Syncs[0].ID != pub.Syncs[0].ID {
		t.Errorf("status after publishing: %+v, want nothing pending and the sync job listed", st)
	}

}

func TestStatusRefusals(t *testing.T) {
	// Without the fake's store: the refresh token alone, spent once.
	env := with(startFake(t, "--rotate"), "PARTNER_STORE", "")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		code int
	}{
		{"no project", with(env, "PARTNER_PROJECT", ""), []string{"status"}, 2},
		{"project without org", env, []string{"status", "--project", "web"}, 2},
		{"no base URL", with(env, "PARTNER_BASE_URL", ""), []string{"status"}, 2},
		{"no token", with(env, "PARTNER_REFRESH_TOKEN", ""), []string{"publish"}, 2},
		{"unknown project", env, []string{"status", "--project", "acme/nope"}, 1},
	} {
		r := runPartner(t, tc.env, tc.args...)
		if r.code != tc.code {
			t.Errorf("%s: exit %d, want %d\n%s", tc.name, r.code, tc.code, r.stderr)
		}
		if strings.Contains(r.stderr+r.stdout, env["PARTNER_REFRESH_TOKEN"]) || strings.Contains(r.stderr, env["PARTNER_CLIENT_SECRET"]) {
			t.Errorf("%s: the output shows a secret", tc.name)
		}
	}
	// The refresh token was spent by the first run that used it: with
	// rotation, using it again revokes the grant, and the command says to
	// reconnect.
	if r := runPartner(t, env, "status"); r.code != 3 || !strings.Contains(r.stderr, "partner connect") || strings.Contains(r.stderr, "partner: partner:") {
		t.Errorf("a spent refresh token: exit %d, want 3 with advice to connect, said once\n%s", r.code, r.stderr)
	}
}

// TestRunStatusAndPublish calls status's and publish's run functions
// in-process: what a push wrote is pending, publish --wait ships it, and
// then nothing is pending.
func TestRunStatusAndPublish(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"en.json": `{"a": "A"}`, "de.json": `{"a": "Ä"}`})
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}}); err != nil {
		t.Fatal(err)
	}
	ta.json = true
	status := func() statusResult {
		t.Helper()
		ta.stdout.Reset()
		if err := runStatus(ctx, &statusOptions{app: ta.app}); err != nil {
			t.Fatalf("runStatus: %v", err)
		}
		var st statusResult
		if err := json.Unmarshal(ta.stdout.Bytes(), &st); err != nil {
			t.Fatalf("runStatus printed %q: %v", ta.stdout, err)
		}
		return st
	}
	if st := status(); !st.Pending.HasChanges || st.Pending.ByLanguage["de"] != 1 {
		t.Errorf("status after a push: %+v, want de 1 pending", st.Pending)
	}
	ta.stdout.Reset()
	if err := runPublish(ctx, &publishOptions{app: ta.app}); err != nil {
		t.Fatalf("runPublish: %v", err)
	}
	var pub publishResult
	if err := json.Unmarshal(ta.stdout.Bytes(), &pub); err != nil || pub.Published != 1 || len(pub.Syncs) == 0 || pub.Syncs[0].Status != "completed" {
		t.Errorf("runPublish printed %q (%v), want 1 published and its jobs completed", ta.stdout, err)
	}
	if st := status(); st.Pending.HasChanges || len(st.Syncs) == 0 {
		t.Errorf("status after publishing: %+v, want nothing pending and the job listed", st)
	}
	// The SDK's rule for project names (partner.ParseProject).
	for _, p := range []string{"acme", "acme/web/x", "acme/ web"} {
		if err := runStatus(ctx, &statusOptions{app: ta.app, projectFlags: projectFlags{project: p}}); exitCode(err) != exitUsage {
			t.Errorf("runStatus of project %q: %v, want a usage error", p, err)
		}
	}
}

// TestRunPublishWaitsOutTheCooldown: a publish within the service's
// cooldown (30 s after the last) waits it out and goes through, with
// "partner publish" as with "push --publish", instead of failing.
func TestRunPublishWaitsOutTheCooldown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
		defer srv.Close()
		ta := newTestApp(t, srv)
		ctx := context.Background()
		dir := writeTree(t, map[string]string{"en.json": `{"a": "A"}`, "de.json": `{"a": "Ä"}`})
		if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}, publish: true}); err != nil {
			t.Fatalf("push --publish: %v\n%s", err, ta.stderr)
		}
		start := time.Now()
		if err := runPublish(ctx, &publishOptions{app: ta.app}); err != nil {
			t.Fatalf("publish within the cooldown: %v\n%s", err, ta.stderr)
		}
		if waited := time.Since(start); waited < translations.PublishCooldown-time.Second {
			t.Errorf("publish within the cooldown went through after %v: no cooldown was waited out", waited)
		}

		// And push --publish, within the cooldown of that publish.
		os.WriteFile(filepath.Join(dir, "de.json"), []byte(`{"a": "Ä!"}`), 0o644)
		start = time.Now()
		if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}, publish: true, wait: true}); err != nil {
			t.Fatalf("push --publish within the cooldown: %v\n%s", err, ta.stderr)
		}
		if waited := time.Since(start); waited < translations.PublishCooldown-time.Second {
			t.Errorf("push --publish within the cooldown went through after %v: no cooldown was waited out", waited)
		}
	})
}

// TestRunStatusCoverage: status shows per target language the share
// translated and what waits to be published, in --json too, and
// --min-coverage exits 4 naming each language below it.
func TestRunStatusCoverage(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"en.json": `{"a": "A", "b": "B"}`, "de.json": `{"a": "Ä"}`})
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}}); err != nil {
		t.Fatal(err)
	}
	ta.stdout.Reset()
	ta.json = true
	if err := runStatus(ctx, &statusOptions{app: ta.app}); err != nil {
		t.Fatalf("runStatus: %v", err)
	}
	var st statusResult
	if err := json.Unmarshal(ta.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	want := []languageStatus{{Language: "de", Translated: 1, Percent: 50, Pending: 1}, {Language: "fr", Translated: 0, Percent: 0, Pending: 0}}
	if !slices.Equal(st.Languages, want) {
		t.Errorf("status --json languages = %+v, want %+v", st.Languages, want)
	}

	ta.json = false
	for _, tc := range []struct {
		min      int
		code     int
		named    string
		notNamed string
	}{
		{0, exitOK, "", ""},
		{50, exitSomeFail, "fr (0%)", "de"},
		{51, exitSomeFail, "de (50%), fr (0%)", ""},
		{101, exitUsage, "", ""},
	} {
		ta.stdout.Reset()
		err := runStatus(ctx, &statusOptions{app: ta.app, minCoverage: tc.min, checkCoverage: true})
		if exitCode(err) != tc.code || tc.named != "" && !strings.Contains(err.Error(), tc.named) || tc.notNamed != "" && strings.Contains(err.Error(), tc.notNamed) {
			t.Errorf("status --min-coverage %d: %v (exit %d), want exit %d naming %q", tc.min, err, exitCode(err), tc.code, tc.named)
		}
		if out := ta.stdout.String(); tc.code != exitUsage && !strings.Contains(out, "de        50% translated (1 keys), 1 to publish") {
			t.Errorf("status printed %q, want de's coverage and pending count", out)
		}
	}
}
