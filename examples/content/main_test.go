package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/partnertest"
)

func TestFakeMode(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	code := run(t.Context(), func(string) string { return "" }, &out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, &out)
	}
	// One line per step, in this order; the events in the order of their
	// timestamps.
	const hook = `^Webhook content\.%s evt_\d+ at [\d:.]+, signature verified: %s$`
	want := []string{
		`^No PARTNER_\* settings: using the built-in fake service`,
		`^Set PARTNER_BASE_URL, .*PARTNER_CONTENT_MCP_URL`,
		`^Created project [\w-]+/content-\w+ \(source en, target de\)$`,
		`^Webhook receiver at http://127\.0\.0\.1:\d+ \(wh_\w+\), subscribed to 7 content events$`,
		`^Created model article with fields summary \(text, localized\), minutes \(number\)$`,
		`^Created entry hello: draft, languages de, en$`,
		`^Created entry goodbye: draft, languages en$`,
		`^Edited hello in German: title "Hallo Welt", summary "Ein Gruß"$`,
		`^Published hello: published$`,
		`^Published 2 entries in bulk \(0 failed\)$`,
		`^Unpublished goodbye: draft$`,
		`^Deleted goodbye$`,
		fmt.Sprintf(hook, `model\.created`, `model article by mcp`),
		fmt.Sprintf(hook, `entry\.created`, `hello null -> draft, changed \[de en\] of \[de en\]`),
		fmt.Sprintf(hook, `entry\.created`, `goodbye null -> draft, changed \[en\] of \[en\]`),
		fmt.Sprintf(hook, `entry\.updated`, `hello draft -> draft, changed \[de\] of \[de en\]`),
		fmt.Sprintf(hook, `entry\.published`, `hello draft -> published, changed \[\] of \[de en\]`),
		fmt.Sprintf(hook, `entry\.published`, `hello published -> published, changed \[\] of \[de en\]`),
		fmt.Sprintf(hook, `entry\.published`, `goodbye draft -> published, changed \[\] of \[en\]`),
		fmt.Sprintf(hook, `entry\.bulkPublished`, `2 entries: hello published -> published, goodbye draft -> published`),
		fmt.Sprintf(hook, `entry\.unpublished`, `goodbye published -> draft, changed \[\] of \[en\]`),
		fmt.Sprintf(hook, `entry\.deleted`, `goodbye gone \(status null\)`),
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
	// The quickstart's settings, without PARTNER_CONTENT_MCP_URL.
	env := map[string]string{}
	for _, k := range required {
		env[k] = "x"
	}
	delete(env, "PARTNER_CONTENT_MCP_URL")
	var out strings.Builder
	if code := run(t.Context(), func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if got := out.String(); !strings.Contains(got, "missing settings: PARTNER_CONTENT_MCP_URL (") {
		t.Errorf("the message does not name only PARTNER_CONTENT_MCP_URL: %s", got)
	}
}

func TestBadSettings(t *testing.T) {
	t.Parallel()
	env := map[string]string{}
	for _, k := range required {
		env[k] = "https://svc.example.test"
	}
	env["PARTNER_CLIENT_SECRET"] = "very-secret-value"
	env["PARTNER_CONTENT_MCP_URL"] = "http://content.example.test/mcp" // plain http off loopback
	var out strings.Builder
	if code := run(t.Context(), func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if got := out.String(); !strings.Contains(got, "ContentMCPURL") || strings.Contains(got, "very-secret-value") {
		t.Errorf("the message should name ContentMCPURL and show no secret: %s", got)
	}
}

// fakeClient returns a client of a new grant on a fake service, with
// scopes (all when none), and a project "org/site" with a model "article".
func fakeClient(t *testing.T, srv *partnertest.Server, scopes ...string) (*partner.Client, string) {
	t.Helper()
	var opts []partnertest.GrantOption
	if len(scopes) > 0 {
		opts = append(opts, partnertest.WithScopes(scopes...))
	}
	g := srv.NewGrant(opts...)
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, ContentMCPURL: srv.ContentMCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Site", Slug: "site", SourceLanguage: "en"})
	srv.AddContentModel(p.ID, partnertest.ContentModel{Slug: "article"})
	return c, g.Organizations[0].Slug + "/site"
}

func TestAdviceMissingPublishScope(t *testing.T) {
	t.Parallel()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	scopes := slices.DeleteFunc(partnertest.AllScopes(), func(s string) bool { return s == partnertest.ScopeContentPublish })
	c, project := fakeClient(t, srv, scopes...)
	ctx := t.Context()
	e, err := c.Content.Entries.Create(ctx, project, content.NewEntry{Model: "article", Title: "T", Slug: "t"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Content.Entries.Publish(ctx, project, e.ID)
	if got := advice(err); !strings.HasPrefix(got, `Ask the user to re-authorize the application with the scope "content:publish".`) {
		t.Errorf("advice(%v) = %q", err, got)
	}
}

func TestAdviceToolError(t *testing.T) {
	t.Parallel()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	c, project := fakeClient(t, srv)
	_, err := c.Content.Entries.Create(t.Context(), project, content.NewEntry{Model: "nothing", Title: "T", Slug: "t"})
	if got := advice(err); !strings.HasPrefix(got, "The tool createContentEntry refused the call (not_found): ") {
		t.Errorf("advice(%v) = %q", err, got)
	}
}

func TestAdviceContentURLRefused(t *testing.T) {
	t.Parallel()
	srv := partnertest.NewServer()
	t.Cleanup(srv.Close)
	c, project := fakeClient(t, srv)
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Status: 401, Times: -1})
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	_, err := c.Content.Models.List(ctx, project)
	if got := advice(err); !strings.HasPrefix(got, "Check PARTNER_CONTENT_MCP_URL:") {
		t.Errorf("advice(%v) = %q", err, got)
	}
}
