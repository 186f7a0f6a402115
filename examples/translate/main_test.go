package main

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
	"github.com/locsvc/partner-go/translations"
)

func TestFakeMode(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	code := run(t.Context(), func(string) string { return "" }, &out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, &out)
	}
	// One line per step, in this order.
	want := []string{
		`^No PARTNER_\* settings: using the built-in fake service`,
		`^Set PARTNER_BASE_URL, .*PARTNER_MCP_URL`,
		`^Created project [\w-]+/translate-\w+ \(id \w+, source en\)$`,
		`^Webhook receiver at http://127\.0\.0\.1:\d+ \(wh_\w+\), subscribed to keys\.created, translations\.published, sync\.completed$`,
		`^Added target languages de \(German\), fr \(French\)$`,
		`^Created 3 keys in namespace common: nav\.home, nav\.pricing, cta\.signup \(skipped 0, blocked 0\)$`,
		`^Wrote 6 translations for 3 keys \(0 failed\)$`,
		`^Pending: 6 changes \(de 3, fr 3\), publishing to cdn$`,
		`^Published 6 translations: sync jobs [\w-]+$`,
		`^Sync [\w-]+: completed after [\d.]+s, 3 keys$`,
		`^Webhook keys\.created evt_\w+, signature verified: 3 keys in [\w-]+/translate-\w+ namespace common$`,
		`^Webhook translations\.published evt_\w+, signature verified: 3 keys in de, fr of `,
		`^Webhook sync\.completed evt_\w+, signature verified: completed, 3 keys in 3s$`,
		`^A forged delivery: answered 401, not handled \(3 events handled\)$`,
		`^Done\.$`,
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), &out)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d = %q, want it to match %s", i+1, lines[i], re)
		}
	}
}

func TestSomeSettingsMissing(t *testing.T) {
	t.Parallel()
	// The quickstart's settings, without PARTNER_MCP_URL.
	env := map[string]string{}
	for _, k := range required {
		env[k] = "x"
	}
	delete(env, "PARTNER_MCP_URL")
	var out strings.Builder
	if code := run(t.Context(), func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if got := out.String(); !strings.Contains(got, "missing settings: PARTNER_MCP_URL (") {
		t.Errorf("the message does not name only PARTNER_MCP_URL: %s", got)
	}
}

func TestBadSettings(t *testing.T) {
	t.Parallel()
	env := map[string]string{}
	for _, k := range required {
		env[k] = "https://svc.example.test"
	}
	env["PARTNER_CLIENT_SECRET"] = "very-secret-value"
	env["PARTNER_MCP_URL"] = "http://mcp.example.test/mcp" // plain http off loopback
	var out strings.Builder
	if code := run(t.Context(), func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if got := out.String(); !strings.Contains(got, "MCPURL") || strings.Contains(got, "very-secret-value") {
		t.Errorf("the message should name MCPURL and show no secret: %s", got)
	}
}

// fakeProject returns a client of a new grant on a fake service, with
// scopes (all when none), and a project with German as target language
// and one key, named "org/project".
func fakeProject(t *testing.T, scopes ...string) (*partner.Client, string, string) {
	t.Helper()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	var opts []partnertest.GrantOption
	if len(scopes) > 0 {
		opts = append(opts, partnertest.WithScopes(scopes...))
	}
	g := srv.NewGrant(opts...)
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := t.Context()
	p, err := c.Projects.Create(ctx, projects.NewProject{Name: "Site", Slug: "site", SourceLanguage: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Projects.AddLanguage(ctx, p.ID, "de"); err != nil {
		t.Fatal(err)
	}
	project := g.Organizations[0].Slug + "/site"
	res, err := c.Keys.Create(ctx, project, []keys.NewKey{{Name: "nav.home", SourceText: "Home"}}, keys.CreateOptions{})
	if err != nil || len(res.Created) != 1 {
		t.Fatalf("Keys.Create: %+v, %v", res, err)
	}
	return c, project, res.Created[0].ID
}

func TestAdviceMissingPublishScope(t *testing.T) {
	t.Parallel()
	scopes := slices.DeleteFunc(partnertest.AllScopes(), func(s string) bool { return s == partnertest.ScopeTranslationsPublish })
	c, project, _ := fakeProject(t, scopes...)
	_, err := c.Translations.Publish(t.Context(), project, translations.PublishOptions{})
	if got := advice(err); !strings.HasPrefix(got, `Ask the user to re-authorize the application with the scope "translations:publish".`) {
		t.Errorf("advice(%v) = %q", err, got)
	}
}

func TestAdvicePublishCooldown(t *testing.T) {
	t.Parallel()
	c, project, id := fakeProject(t)
	ctx := t.Context()
	for i, text := range []string{"Startseite", "Start"} {
		if _, err := c.Translations.Set(ctx, project, []translations.Values{{KeyID: id, Text: map[string]string{"de": text}}}); err != nil {
			t.Fatal(err)
		}
		_, err := c.Translations.Publish(ctx, project, translations.PublishOptions{})
		if i == 0 {
			if err != nil {
				t.Fatal(err)
			}
			continue
		}
		want := "The project was published moments ago: publish again in " + partnertest.PublishCooldown.String()
		if got := advice(err); !strings.HasPrefix(got, want) {
			t.Errorf("advice(%v) = %q, want it to start with %q", err, got, want)
		}
	}
}

func TestAdviceToolError(t *testing.T) {
	t.Parallel()
	c, _, _ := fakeProject(t)
	_, err := c.Keys.Create(t.Context(), "nobody/nothing", []keys.NewKey{{Name: "a"}}, keys.CreateOptions{})
	if got := advice(err); !strings.HasPrefix(got, "The tool createKeys refused the call (not_found): ") {
		t.Errorf("advice(%v) = %q", err, got)
	}
}

func TestAdviceMCPURLRefused(t *testing.T) {
	t.Parallel()
	srv := partnertest.NewServer()
	defer srv.Close()
	g := srv.NewGrant()
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostMCP, Status: 401, Times: -1})
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err = c.Translations.Pending(ctx, g.Organizations[0].Slug+"/x")
	if got := advice(err); !strings.HasPrefix(got, "Check PARTNER_MCP_URL:") {
		t.Errorf("advice(%v) = %q", err, got)
	}
}
