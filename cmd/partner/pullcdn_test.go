package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/partnertest"
)

// pull --from cdn needs no grant: with only the project and the CDN's
// address in the environment (no client id, secret, token or store) and
// the source language as a flag, it writes back what a push published,
// reading only the CDN, without a token; --languages and --namespaces
// narrow it, and a missing setting is a usage error that names it.
func TestPullCDNWithoutGrant(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	tree := map[string]string{
		"en.json": "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
		"de.json": "{\n  \"nav\": {\n    \"home\": \"Startseite\"\n  }\n}\n",
	}
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: writeTree(t, tree)}, publish: true, wait: true}); err != nil {
		t.Fatalf("push --publish --wait: %v\n%s", err, ta.stderr)
	}

	env := map[string]string{"PARTNER_PROJECT": fakeOrgSlug + "/" + fakeProjectSlug, "PARTNER_CDN_URL": srv.CDNURL}
	var stdout, stderr bytes.Buffer
	a := newApp(func(k string) string { return env[k] }, strings.NewReader(""), &stdout, &stderr)
	a.httpClient = srv.Client()
	a.json = true
	mark := len(srv.Requests())
	out := t.TempDir()
	if err := runPull(ctx, &pullOptions{app: a, layoutFlags: layoutFlags{dir: out}, from: "cdn", source: "en"}); err != nil {
		t.Fatalf("pull --from cdn --source-language en without a grant: %v\n%s", err, &stderr)
	}
	var res pullResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || res.Texts != 2 || res.From != "cdn" {
		t.Errorf("pull printed %q (%v), want 2 texts from cdn", &stdout, err)
	}
	if got := readTree(t, out); !maps.Equal(got, tree) {
		t.Errorf("pull wrote %v, want %v", got, tree)
	}
	for _, r := range srv.Requests()[mark:] {
		if r.Host != partnertest.HostCDN || r.Token != partnertest.TokenNone {
			t.Errorf("request to %s %s with a %s token, want only the CDN's without one", r.Host, r.Path, r.Token)
		}
	}

	// --languages and --namespaces narrow it, --cdn-url gives the address.
	env = map[string]string{"PARTNER_PROJECT": fakeOrgSlug + "/" + fakeProjectSlug}
	out = t.TempDir()
	stdout.Reset()
	if err := runPull(ctx, &pullOptions{app: a, layoutFlags: layoutFlags{dir: out}, from: "cdn", source: "en", cdnURL: srv.CDNURL,
		languages: []string{"de"}, namespaces: []string{"default"}}); err != nil {
		t.Fatalf("pull --from cdn --cdn-url --languages de --namespaces default: %v\n%s", err, &stderr)
	}
	if got, want := readTree(t, out), map[string]string{"de.json": tree["de.json"]}; !maps.Equal(got, want) {
		t.Errorf("pull --languages de wrote %v, want %v", got, want)
	}
	out = t.TempDir()
	if err := runPull(ctx, &pullOptions{app: a, layoutFlags: layoutFlags{dir: out}, from: "cdn", source: "en", cdnURL: srv.CDNURL,
		namespaces: []string{"other"}}); err != nil {
		t.Fatalf("pull --namespaces other: %v", err)
	}
	if got := readTree(t, out); len(got) != 0 {
		t.Errorf("pull --namespaces other wrote %v, want nothing", got)
	}

	for _, tc := range []struct {
		opts pullOptions
		want string
	}{
		{pullOptions{from: "cdn", source: "en"}, "PARTNER_CDN_URL"},
		{pullOptions{from: "cdn", cdnURL: srv.CDNURL}, "--source-language"},
		{pullOptions{from: "cdn", cdnURL: "ftp://cdn", source: "en"}, "CDN's address"},
		{pullOptions{from: "api"}, "PARTNER_CLIENT_ID"},
	} {
		tc.opts.app, tc.opts.dir = a, t.TempDir()
		err := runPull(ctx, &tc.opts)
		if exitCode(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("pull %+v: %v, want a usage error naming %s", tc.opts, err, tc.want)
		}
	}
}

// --namespaces narrows a pull from the API too.
func TestPullAPINamespaces(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	tree := map[string]string{"en.json": "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n"}
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: writeTree(t, tree)}}); err != nil {
		t.Fatal(err)
	}
	for ns, want := range map[string]map[string]string{"default": tree, "other": {}} {
		out := t.TempDir()
		if err := runPull(ctx, &pullOptions{app: ta.app, layoutFlags: layoutFlags{dir: out}, from: "api", namespaces: []string{ns}}); err != nil {
			t.Fatalf("pull --namespaces %s: %v\n%s", ns, err, ta.stderr)
		}
		if got := readTree(t, out); !maps.Equal(got, want) {
			t.Errorf("pull --namespaces %s wrote %v, want %v", ns, got, want)
		}
	}
}
