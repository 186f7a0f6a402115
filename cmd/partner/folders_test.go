package main

import (
	"maps"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingFolderNamed: a --dir that does not exist is named as given,
// for push and init, and is a usage error.
func TestMissingFolderNamed(t *testing.T) {
	env := startFake(t)
	file := filepath.Join(writeTree(t, map[string]string{"en.json": "{}"}), "en.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"push", "--dir", "does-not-exist"}, "partner: does-not-exist: no such folder\n"},
		{[]string{"push", "--dir", "does-not-exist/locales", "--dry-run"}, "partner: does-not-exist/locales: no such folder\n"},
		{[]string{"init", "--dir", "does-not-exist"}, "partner: does-not-exist: no such folder\n"},
		{[]string{"push", "--dir", file}, "partner: " + file + " is a file, not a folder\n"},
	} {
		r := runPartner(t, env, tc.args...)
		if r.code != 2 || !strings.HasPrefix(r.stderr, tc.want) {
			t.Errorf("partner %s: exit %d, %q; want 2 and %q", strings.Join(tc.args, " "), r.code, r.stderr, tc.want)
		}
	}
}

// TestPullLayoutMismatch: a pull whose file structure differs from the
// tree's is refused before it writes, naming both and where each comes
// from; with the tree's --layout it writes.
func TestPullLayoutMismatch(t *testing.T) {
	env := startFake(t)
	if r := runPartner(t, env, "push", "--dir", writeTree(t, map[string]string{"en.json": `{"a": "A"}`, "de.json": `{"a": "Ä"}`})); r.code != 0 {
		t.Fatalf("push: exit %d\n%s", r.code, r.stderr)
	}
	nsTree := map[string]string{"en/default.json": "{\n  \"a\": \"old\"\n}\n"}
	ns := writeTree(t, nsTree)
	r := runPartner(t, env, "pull", "--dir", ns)
	if r.code != 2 || !strings.Contains(r.stderr, "laid out in namespaced folders (en/default.json)") ||
		!strings.Contains(r.stderr, "this pull writes single files (the project's layout)") || !strings.Contains(r.stderr, "--layout namespaced") {
		t.Errorf("pull into a namespaced tree in the project's single files: exit %d, %q; want 2 naming both", r.code, r.stderr)
	}
	if got := readTree(t, ns); !maps.Equal(got, nsTree) {
		t.Errorf("the refused pull wrote: %v", got)
	}
	single := writeTree(t, map[string]string{"en.json": "{}\n"})
	if r := runPartner(t, env, "pull", "--dir", single, "--layout", "namespaced"); r.code != 2 ||
		!strings.Contains(r.stderr, "laid out in single files (en.json)") || !strings.Contains(r.stderr, "writes namespaced folders (--layout namespaced)") {
		t.Errorf("pull --layout namespaced into a single-file tree: exit %d, %q", r.code, r.stderr)
	}
	if r := runPartner(t, env, "pull", "--dir", ns, "--layout", "namespaced"); r.code != 0 || len(readTree(t, ns)) != 2 {
		t.Errorf("pull --layout namespaced into the namespaced tree: exit %d, %v\n%s", r.code, readTree(t, ns), r.stderr)
	}
}
