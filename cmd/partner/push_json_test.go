package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the golden files of the tests that compare with one")

// ids are the service's generated ids (keys, sync jobs), which differ
// from run to run.
var ids = regexp.MustCompile(`"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"`)

// The JSON of push --dry-run --json and push --json is what the README
// documents as stable ("Output and exit codes"): a first push that
// creates keys and publishes, and a second that updates and deletes, are
// compared field for field with testdata/push.golden, written by the
// command as it was before locales took the SDK's names.
func TestPushJSONGolden(t *testing.T) {
	env := startFake(t)
	en := `{"checkout": {"submit": "Pay now", "title": "Checkout"}, "nav": {"home": "Home", "back": "Back", "next": "Next", "help": "Help", "menu": "Menu", "more": "More", "search": "Search", "settings": "Settings"}}`
	dir := writeTree(t, map[string]string{
		"en.json": en,
		"de.json": `{"nav": {"home": "Startseite"}}`,
	})
	var out strings.Builder
	run := func(args ...string) {
		t.Helper()
		r := runPartner(t, env, append([]string{"push", "--dir", dir}, args...)...)
		if r.code != 0 {
			t.Fatalf("push %v: exit %d\n%s", args, r.code, r.stderr)
		}
		out.WriteString("$ partner push " + strings.Join(args, " ") + "\n" + ids.ReplaceAllString(r.stdout, `"<id>"`) + "\n")
	}
	run("--dry-run", "--json")
	run("--publish", "--wait", "--json")

	// Changed texts, a new translation and a key gone from the source.
	en = strings.Replace(en, `"Pay now"`, `"Pay"`, 1)
	en = strings.Replace(en, `"title": "Checkout", `, ``, 1)
	en = strings.Replace(en, `{"submit": "Pay", "title": "Checkout"}`, `{"submit": "Pay"}`, 1)
	for name, data := range map[string]string{"en.json": en, "de.json": `{"checkout": {"submit": "Bezahlen"}, "nav": {"home": "Start"}}`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("--delete-missing", "--dry-run", "--json")
	run("--delete-missing", "--json")

	golden := filepath.Join("testdata", "push.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("push --json output differs from %s (go test -update writes it):\n%s", golden, got)
	}
}
