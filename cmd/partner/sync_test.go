package main

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/partnertest"
)

// writeTree writes files (path: content) under a new folder and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readTree returns every file under dir (relative path: content).
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestPushPullRoundTrip(t *testing.T) {
	env := startFake(t)
	tree := map[string]string{
		"en.json": "{\n  \"checkout\": {\n    \"submit\": \"Pay now\",\n    \"title\": \"Checkout\"\n  },\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
		"de.json": "{\n  \"checkout\": {\n    \"submit\": \"Jetzt bezahlen\",\n    \"title\": \"Kasse\"\n  },\n  \"nav\": {\n    \"home\": \"Startseite\"\n  }\n}\n",
		"fr.json": "{\n  \"nav\": {\n    \"home\": \"Accueil\"\n  }\n}\n",
	}
	dir := writeTree(t, tree)

	// A dry run writes nothing.
	var plan locales.Plan
	r := runPartner(t, env, "push", "--dir", dir, "--dry-run", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &plan) != nil {
		t.Fatalf("push --dry-run --json: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if len(plan.Create) != 3 {
		t.Errorf("dry run plans %d keys to create, want 3", len(plan.Create))
	}
	if r := runPartner(t, env, "push", "--dir", dir, "--dry-run"); r.code != 0 || !strings.Contains(r.stdout, "would create 3 keys") {
		t.Errorf("push --dry-run: exit %d, %q", r.code, r.stdout)
	}

	var rep locales.Report
	r = runPartner(t, env, "push", "--dir", dir, "--publish", "--wait", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
		t.Fatalf("push --publish --wait --json: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if len(rep.Created) != 3 || len(rep.Failed) != 0 || rep.Published == nil || len(rep.Published.Syncs) == 0 {
		t.Errorf("push report: %+v", rep)
	}
	for _, s := range rep.Published.Syncs {
		if s.Status != "completed" {
			t.Errorf("sync %s: %s, want completed", s.ID, s.Status)
		}
	}

	// A second push of the same tree writes nothing.
	if r := runPartner(t, env, "push", "--dir", dir); r.code != 0 || !strings.Contains(r.stdout, "0 keys created, 0 updated") {
		t.Errorf("second push: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}

	// Pulled from the API or the CDN, the tree comes back byte for byte.
	for _, from := range []string{"api", "cdn"} {
		out := t.TempDir()
		var res pullResult
		r := runPartner(t, env, "pull", "--dir", out, "--from", from, "--json")
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
			t.Fatalf("pull --from %s: exit %d, %q\n%s", from, r.code, r.stdout, r.stderr)
		}
		if res.Texts != 7 {
			t.Errorf("pull --from %s: %d texts, want 7", from, res.Texts)
		}
		if got := readTree(t, out); len(got) != len(tree) {
			t.Errorf("pull --from %s wrote %v", from, got)
		} else {
			for name, want := range tree {
				if got[name] != want {
					t.Errorf("pull --from %s: %s =\n%s\nwant\n%s", from, name, got[name], want)
				}
			}
		}
	}

	// --languages and another layout.
	out := t.TempDir()
	if r := runPartner(t, env, "pull", "--dir", out, "--languages", "de", "--layout", "namespaced", "--keys", "flat"); r.code != 0 {
		t.Fatalf("pull --languages de --layout namespaced: exit %d\n%s", r.code, r.stderr)
	}
	got := readTree(t, out)
	want := "{\n  \"checkout.submit\": \"Jetzt bezahlen\",\n  \"checkout.title\": \"Kasse\",\n  \"nav.home\": \"Startseite\"\n}\n"
	if len(got) != 1 || got["de/default.json"] != want {
		t.Errorf("pull --languages de --layout namespaced --keys flat wrote %v, want only de/default.json:\n%s", got, want)
	}
}

func TestPushBadInput(t *testing.T) {
	env := startFake(t)
	bad := writeTree(t, map[string]string{
		"en.json": "{\n  \"nav\": {\n    \"home\": \"Home\",\n    \"home\": \"Again\"\n  }\n}\n",
		"de.json": "{\n  \"nav\": {\"home\": 42}\n}\n",
	})
	r := runPartner(t, env, "push", "--dir", bad)
	if r.code != 1 || !strings.Contains(r.stderr, "en.json:4") || !strings.Contains(r.stderr, "de.json") {
		t.Errorf("push of malformed files: exit %d, stderr %q; want 1 naming each file and line", r.code, r.stderr)
	}
	// A language the project lacks is refused before anything is written.
	lacks := writeTree(t, map[string]string{"en.json": `{"a": "A"}`, "ja.json": `{"a": "エー"}`})
	if r := runPartner(t, env, "push", "--dir", lacks); r.code != 1 || !strings.Contains(r.stderr, "ja") {
		t.Errorf("push with a language the project lacks: exit %d, stderr %q", r.code, r.stderr)
	}
	var plan locales.Plan
	empty := t.TempDir()
	if r := runPartner(t, env, "push", "--dir", writeTree(t, map[string]string{"en.json": `{}`}), "--dry-run", "--json"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &plan) != nil || !plan.Empty() || plan.Listed != 0 {
		t.Errorf("after refused pushes the project has keys: exit %d, %s\n%s", r.code, r.stdout, r.stderr)
	}

	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no --dir", []string{"push"}},
		{"unknown format", []string{"push", "--dir", empty, "--format", "docx"}},
		{"unknown layout", []string{"push", "--dir", empty, "--layout", "flat"}},
		{"unknown key format", []string{"pull", "--dir", empty, "--keys", "dotted"}},
		{"--wait without --publish", []string{"push", "--dir", empty, "--wait"}},
		{"push of a --dir that does not exist", []string{"push", "--dir", filepath.Join(empty, "missing"), "--dry-run"}},
		{"unknown source", []string{"pull", "--dir", empty, "--from", "s3"}},
		{"bad project", []string{"pull", "--dir", empty, "--project", "acme"}},
	} {
		if r := runPartner(t, env, tc.args...); r.code != 2 {
			t.Errorf("%s: exit %d, want 2\n%s", tc.name, r.code, r.stderr)
		}
	}
}

// TestPushPullOtherFormats: --format reads and writes the platforms'
// formats; without it, push takes the format the tree's files have, and a
// tree mixing formats is refused (exit 2).
func TestPushPullOtherFormats(t *testing.T) {
	env := startFake(t)
	// YAML (a module of its own) and a core format; keys without a dot at
	// their end, as the catalog takes them.
	dir := writeTree(t, map[string]string{
		"en.yml": "en:\n  nav:\n    home: Home\n",
		"de.yml": "de:\n  nav:\n    home: Startseite\n",
	})
	if r := runPartner(t, env, "push", "--dir", dir); r.code != 0 || !strings.Contains(r.stdout, "1 keys created, 0 updated") {
		t.Fatalf("push of a YAML tree (format detected): exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	for _, format := range []string{"yaml", "po", "arb", "properties"} {
		out := t.TempDir()
		if r := runPartner(t, env, "pull", "--dir", out, "--format", format); r.code != 0 {
			t.Fatalf("pull --format %s: exit %d\n%s", format, r.code, r.stderr)
		}
		got := readTree(t, out)
		if len(got) != 2 {
			t.Fatalf("pull --format %s wrote %v, want a file per language", format, got)
		}
		for name, content := range got {
			if !strings.Contains(content, "Startseite") && !strings.Contains(content, "Home") {
				t.Errorf("pull --format %s: %s holds neither text:\n%s", format, name, content)
			}
		}
		// What was pulled pushes back without a write.
		if r := runPartner(t, env, "push", "--dir", out, "--format", format); r.code != 0 || !strings.Contains(r.stdout, "0 keys created, 0 updated") {
			t.Errorf("push of the pulled %s tree: exit %d, %q\n%s", format, r.code, r.stdout, r.stderr)
		}
	}
	mixed := writeTree(t, map[string]string{"en.json": "{}\n", "de.po": "msgid \"\"\nmsgstr \"\"\n"})
	if r := runPartner(t, env, "push", "--dir", mixed); r.code != 2 || !strings.Contains(r.stderr, "--format") {
		t.Errorf("push of a mixed tree: exit %d, %q, want 2 and advice to choose --format", r.code, r.stderr)
	}
	if r := runPartner(t, env, "push", "--dir", dir, "--format", "docx"); r.code != 2 {
		t.Errorf("push --format docx: exit %d, want 2", r.code)
	}
}

// TestRunPush calls push's run function in-process, against the fake: a
// dry run writes nothing, a push writes what the tree adds, a second push
// finds nothing to do, and --wait without --publish is a usage error.
func TestRunPush(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	dir := writeTree(t, map[string]string{"en.json": `{"nav": {"home": "Home"}}`, "de.json": `{"nav": {"home": "Startseite"}}`})
	ctx := context.Background()
	for _, step := range []struct {
		dryRun bool
		want   string
	}{
		{true, "would create 1 keys"},
		{true, "would create 1 keys"}, // the dry run wrote nothing
		{false, "1 keys created, 0 updated"},
		{false, "0 keys created, 0 updated"},
	} {
		ta.stdout.Reset()
		opts := &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}, dryRun: step.dryRun}
		if err := runPush(ctx, opts); err != nil {
			t.Fatalf("runPush (dry run %v): %v\n%s", step.dryRun, err, ta.stderr)
		}
		if !strings.Contains(ta.stdout.String(), step.want) {
			t.Errorf("runPush (dry run %v) printed %q, want %q", step.dryRun, ta.stdout, step.want)
		}
	}
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}, wait: true}); exitCode(err) != exitUsage {
		t.Errorf("runPush with wait and no publish: %v (exit %d), want a usage error", err, exitCode(err))
	}
}

// TestRunPull calls pull's run function in-process: what a push wrote
// comes back, in the layout asked for, and the result is printed as JSON.
func TestRunPull(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	tree := map[string]string{"en.json": "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n", "de.json": "{\n  \"nav\": {\n    \"home\": \"Startseite\"\n  }\n}\n"}
	if err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: writeTree(t, tree)}}); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	ta.stdout.Reset()
	ta.json = true
	if err := runPull(ctx, &pullOptions{app: ta.app, layoutFlags: layoutFlags{dir: out}, from: "api"}); err != nil {
		t.Fatalf("runPull: %v\n%s", err, ta.stderr)
	}
	var res pullResult
	if err := json.Unmarshal(ta.stdout.Bytes(), &res); err != nil || res.Texts != 2 || res.Project != "acme/web" {
		t.Errorf("runPull printed %q (%v), want 2 texts of acme/web", ta.stdout, err)
	}
	if got := readTree(t, out); !maps.Equal(got, tree) {
		t.Errorf("runPull wrote %v, want %v", got, tree)
	}
	if err := runPull(ctx, &pullOptions{app: ta.app, layoutFlags: layoutFlags{dir: out}, from: "s3"}); exitCode(err) != exitUsage {
		t.Errorf("runPull from s3: %v, want a usage error", err)
	}
}

// TestRunPushNotConfirmed: texts whose answer was lost (the service may
// have written them) are listed as not confirmed, in the summary and in
// --json's notConfirmed, and the push exits 4, as a partial push does.
func TestRunPushNotConfirmed(t *testing.T) {
	srv := partnertest.NewServer()
	defer srv.Close()
	ta := newTestApp(t, srv)
	ctx := context.Background()
	dir := writeTree(t, map[string]string{"en.json": `{"a": "A"}`})
	srv.InjectFault(partnertest.Fault{Tool: "createKeys", Truncate: true})
	err := runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}})
	if exitCode(err) != exitSomeFail {
		t.Errorf("push whose answer was lost: %v (exit %d), want exit %d", err, exitCode(err), exitSomeFail)
	}
	if out := ta.stdout.String(); !strings.Contains(out, "1 not confirmed") || !strings.Contains(out, "not confirmed default:a [en]") {
		t.Errorf("push whose answer was lost printed %q, want the key not confirmed", out)
	}

	srv.InjectFault(partnertest.Fault{Tool: "createKeys", Truncate: true})
	ta.stdout.Reset()
	ta.json = true
	dir = writeTree(t, map[string]string{"en.json": `{"b": "B"}`})
	err = runPush(ctx, &pushOptions{app: ta.app, layoutFlags: layoutFlags{dir: dir}})
	var rep struct {
		NotConfirmed []locales.Item `json:"notConfirmed"`
	}
	if exitCode(err) != exitSomeFail || json.Unmarshal(ta.stdout.Bytes(), &rep) != nil || len(rep.NotConfirmed) != 1 || rep.NotConfirmed[0].Key != "b" {
		t.Errorf("push --json whose answer was lost: exit %d, %s; want 4 and b in notConfirmed", exitCode(err), ta.stdout)
	}
}

// TestFormatFlag: --format names every format of formats.All(), each by
// one name, and refuses another name with the list.
func TestFormatFlag(t *testing.T) {
	dir := t.TempDir()
	names := formatNames()
	for _, f := range formats.All() {
		lf := layoutFlags{dir: dir, format: formats.Name(f)}
		got, err := lf.fileFormat()
		if err != nil || reflect.TypeOf(got) != reflect.TypeOf(f) {
			t.Errorf("--format %s: %T, %v; want %T", lf.format, got, err, f)
		}
		if !slices.Contains(names, lf.format) {
			t.Errorf("the help's list %v lacks %s", names, lf.format)
		}
	}
	lf := layoutFlags{dir: dir, format: "docx"}
	if _, err := lf.fileFormat(); exitCode(err) != exitUsage || !strings.Contains(err.Error(), strings.Join(names, ", ")) {
		t.Errorf("--format docx: %v, want a usage error listing %v", err, names)
	}
}
