package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// realTrees returns the folders of real apps' locale trees, each laid out
// as its repository lays it out: $PARTNER_LOCALE_TREES, else
// ../shared/testdata/locale-trees beside the repository. The trees are
// public projects' files under their own licenses, which this repository
// does not copy (see docs/locale-trees.md).
func realTrees(t *testing.T) map[string]string {
	t.Helper()
	root := os.Getenv("PARTNER_LOCALE_TREES")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "testdata", "locale-trees")
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("no real locale trees at %s (set PARTNER_LOCALE_TREES to a folder of app trees; docs/locale-trees.md says how to fetch them): %v", root, err)
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.IsDir() {
			out[e.Name()] = filepath.Join(root, e.Name())
		}
	}
	if len(out) == 0 {
		t.Skipf("no trees under %s", root)
	}
	return out
}

// copyTree copies the regular files of src into a new folder, keeping
// only those keep accepts (nil keeps all).
func copyTree(t *testing.T, src string, keep func(rel string) bool) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if keep != nil && !keep(filepath.ToSlash(rel)) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// loadConfigured reads the tree under dir as its partner.yaml says.
func loadConfigured(t *testing.T, dir string) (*locales.Catalog, error) {
	t.Helper()
	cfg, err := locales.ReadConfig(filepath.Join(dir, locales.ConfigFile), formats.ByName())
	if err != nil {
		t.Fatal(err)
	}
	return locales.Load(dir, cfg.Layout())
}

// pushable returns the texts of cat a push sends, by
// "language/namespace/key": those not marked untranslated whose key the
// source language has.
func pushable(cat *locales.Catalog) map[string]string {
	source := map[string]bool{}
	for m := range cat.All() {
		if strings.EqualFold(m.Language, cat.SourceLanguage) {
			source[m.Namespace+"/"+m.Key] = true
		}
	}
	out := map[string]string{}
	for m := range cat.All() {
		if !m.Untranslated && source[m.Namespace+"/"+m.Key] {
			out[strings.ToLower(m.Language)+"/"+m.Namespace+"/"+m.Key] = m.Text
		}
	}
	return out
}

// initArgs are what a user gives init for a tree beyond the project:
// Homarr's i18next folders "cn" and "tw" (Crowdin's names for Simplified
// and Traditional Chinese) are no language code a standard knows.
var initArgs = map[string][]string{
	"i18next": {"--language", "cn=zh-cn", "--language", "tw=zh-tw"},
}

// TestRealTrees runs real apps' trees through what a team does: init,
// a push that adds the tree's languages and publishes, a second push that
// writes nothing, pulls into the tree (from the API and the CDN) that
// change no byte, and a pull into a copy holding only the source files
// that creates every target file where the platform keeps it.
func TestRealTrees(t *testing.T) {
	for name, src := range realTrees(t) {
		t.Run(name, func(t *testing.T) {
			env := startFake(t)
			dir := copyTree(t, src, nil)
			before := readTree(t, dir)
			run := func(args ...string) result {
				t.Helper()
				r := runPartnerIn(t, dir, env, args...)
				if r.code != 0 {
					t.Fatalf("partner %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
				}
				return r
			}
			run(append([]string{"init", "--project", env["PARTNER_PROJECT"]}, initArgs[name]...)...)
			if _, err := os.Stat(filepath.Join(dir, locales.ConfigFile)); err != nil {
				t.Fatalf("init wrote no %s: %v", locales.ConfigFile, err)
			}
			before[locales.ConfigFile] = readTree(t, dir)[locales.ConfigFile]
			orig, err := loadConfigured(t, dir)
			if err != nil {
				t.Fatalf("the tree as init configured it: %v", err)
			}

			var rep locales.Report
			r := run("push", "--add-languages", "--publish", "--wait", "--json")
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("push --json: %v\n%s", err, r.stdout)
			}
			if len(rep.Failed) > 0 || len(rep.NotConfirmed) > 0 {
				t.Fatalf("push: failed %v, not confirmed %v", rep.Failed, rep.NotConfirmed)
			}

			var plan locales.Plan
			r = run("push", "--dry-run", "--json")
			if err := json.Unmarshal([]byte(r.stdout), &plan); err != nil {
				t.Fatalf("second push --dry-run --json: %v\n%s", err, r.stdout)
			}
			if !plan.Empty() {
				t.Errorf("a second push would write: %d creates, %d updates, %d deletes; first update %+v", len(plan.Create), len(plan.Update), len(plan.Delete), first(plan.Update))
			}

			for _, from := range []string{"api", "cdn"} {
				run("pull", "--from", from)
				after := readTree(t, dir)
				for _, f := range slices.Sorted(maps.Keys(after)) {
					if after[f] != before[f] {
						t.Errorf("pull --from %s changed %s:\n%s", from, f, firstDiff(before[f], after[f]))
					}
				}
				for f := range before {
					if _, ok := after[f]; !ok {
						t.Errorf("pull --from %s removed %s", from, f)
					}
				}
			}

			// A copy holding only the source language's files (and the
			// config): a pull creates every target file where it was.
			source, targets := localeFiles(t, dir, orig)
			fresh := copyTree(t, dir, func(rel string) bool { return rel == locales.ConfigFile || source[rel] })
			if r := runPartnerIn(t, fresh, env, "pull"); r.code != 0 {
				t.Fatalf("pull into a copy of the source files: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			got := readTree(t, fresh)
			for _, f := range slices.Sorted(maps.Keys(targets)) {
				if _, ok := got[f]; !ok {
					t.Errorf("a fresh pull did not create %s", f)
				}
			}
			cat, err := loadConfigured(t, fresh)
			if err != nil {
				t.Fatalf("reading the fresh pull: %v", err)
			}
			want, have := pushable(orig), pushable(cat)
			for _, k := range slices.Sorted(maps.Keys(want)) {
				if have[k] != want[k] {
					t.Errorf("fresh pull: %s = %q, want %q", k, have[k], want[k])
				}
			}
		})
	}
}

// localeFiles sorts the files of the tree under dir (as cat, its
// reading, holds it) that hold texts a push sends: the source language's,
// and the targets' (which a fresh pull creates again).
func localeFiles(t *testing.T, dir string, cat *locales.Catalog) (source, targets map[string]bool) {
	t.Helper()
	all := pushable(cat)
	source, targets = map[string]bool{}, map[string]bool{}
	for f := range readTree(t, dir) {
		if f == locales.ConfigFile {
			continue
		}
		c, err := loadConfigured(t, copyTree(t, dir, func(rel string) bool { return rel != f }))
		if err != nil {
			source[f] = true // the tree cannot be read without it
			continue
		}
		left := pushable(c)
		for k := range all {
			if _, ok := left[k]; ok {
				continue
			}
			if strings.HasPrefix(k, strings.ToLower(cat.SourceLanguage)+"/") {
				source[f] = true
			} else {
				targets[f] = true
			}
		}
	}
	for f := range source {
		delete(targets, f) // a file of every language (.xcstrings) is a source file
	}
	return source, targets
}

func first[T any](s []T) (z T) {
	if len(s) > 0 {
		return s[0]
	}
	return z
}

// firstDiff shows the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range max(len(la), len(lb)) {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return "(same lines; bytes differ)"
}
