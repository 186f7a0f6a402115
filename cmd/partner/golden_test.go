package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden from what the command prints")

// variable matches what differs from one run to the next in the
// command's JSON: the service's ids (UUIDs) and times.
var variable = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<id>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)`), "<time>"},
}

// normalise replaces what is inherently variable in out with
// placeholders, and the folders of the test with names.
func normalise(out string, dirs map[string]string) string {
	for dir, name := range dirs {
		out = strings.ReplaceAll(out, dir, name)
	}
	for _, v := range variable {
		out = v.re.ReplaceAllString(out, v.with)
	}
	return out
}

// checkGolden compares got with testdata/golden/name, or writes it there
// with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test -run TestGoldenJSON -update` to write it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs from %s (-want +got):\n%s", name, path, diff)
	}
}

// TestGoldenJSON: the --json output of push (a dry run and a push) and
// pull is what the README documents, field for field: the golden files
// hold it, with only ids and times replaced.
func TestGoldenJSON(t *testing.T) {
	env := startFake(t)
	dir := writeTree(t, map[string]string{
		"en.json": "{\n  \"checkout\": {\n    \"submit\": \"Pay now\",\n    \"title\": \"Checkout\"\n  },\n  \"legacy\": \"Old\"\n}\n",
		"de.json": "{\n  \"checkout\": {\n    \"title\": \"Kasse\"\n  }\n}\n",
	})
	dirs := map[string]string{dir: "<tree>"}
	steps := []struct {
		golden string
		args   []string
		edit   map[string]string // files rewritten before the step
	}{
		{"push-dry-run.json", []string{"push", "--dir", dir, "--dry-run", "--json"}, nil},
		{"push.json", []string{"push", "--dir", dir, "--publish", "--wait", "--json"}, nil},
		{"push-update-dry-run.json", []string{"push", "--dir", dir, "--dry-run", "--json"}, map[string]string{
			"en.json": "{\n  \"checkout\": {\n    \"submit\": \"Pay\",\n    \"title\": \"Checkout\"\n  },\n  \"legacy\": \"Old\"\n}\n",
			"de.json": "{\n  \"checkout\": {\n    \"submit\": \"Bezahlen\",\n    \"title\": \"Kasse\"\n  }\n}\n",
		}},
		{"push-update.json", []string{"push", "--dir", dir, "--json"}, nil},
	}
	for _, s := range steps {
		for name, content := range s.edit {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := runPartner(t, env, s.args...)
		if r.code != 0 {
			t.Fatalf("partner %s: exit %d\n%s", strings.Join(s.args, " "), r.code, r.stderr)
		}
		checkGolden(t, s.golden, normalise(r.stdout, dirs))
	}
	out := t.TempDir()
	dirs[out] = "<out>"
	for _, from := range []string{"api", "cdn"} {
		r := runPartner(t, env, "pull", "--dir", out, "--from", from, "--json")
		if r.code != 0 {
			t.Fatalf("pull --from %s --json: exit %d\n%s", from, r.code, r.stderr)
		}
		checkGolden(t, "pull-"+from+".json", normalise(r.stdout, dirs))
	}
}

// TestGoldenErrorJSON: with --json, a failure's document (bad files, a
// missing folder, languages the project lacks) and the JSON of the
// languages and projects commands are what the README documents.
func TestGoldenErrorJSON(t *testing.T) {
	env := startFake(t)
	bad := writeTree(t, map[string]string{
		"en.json": "{\n  \"a\": \"A\",\n  \"a\": \"again\"\n}\n",
		"de.json": "{\"a\": 42}\n",
	})
	lacks := writeTree(t, map[string]string{"en.json": `{"a": "A"}`, "pt-BR.json": `{"a": "Á"}`})
	dirs := map[string]string{bad: "<tree>", lacks: "<tree>", env["PARTNER_CDN_URL"]: "<cdn>"}
	for _, s := range []struct {
		golden string
		args   []string
		code   int
	}{
		{"error-input.json", []string{"push", "--dir", bad, "--json"}, 1},
		{"error-missing-folder.json", []string{"push", "--dir", "does-not-exist", "--json"}, 2},
		{"error-languages.json", []string{"push", "--dir", lacks, "--json"}, 1},
		{"languages-add.json", []string{"languages", "add", "pt_BR", "de", "--json"}, 0},
		{"languages-list.json", []string{"languages", "list", "--json"}, 0},
		{"projects-list.json", []string{"projects", "list", "--json"}, 0},
	} {
		r := runPartner(t, env, s.args...)
		if r.code != s.code {
			t.Fatalf("partner %s: exit %d, want %d\n%s", strings.Join(s.args, " "), r.code, s.code, r.stderr)
		}
		checkGolden(t, s.golden, normalise(r.stdout, dirs))
	}
}
