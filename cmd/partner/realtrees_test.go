package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
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
	missing := map[string]bool{}
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

			// What the fresh pull wrote, read by the platform's own tools
			// and by a parser other than the one under test.
			copied := readTree(t, copyTree(t, dir, func(rel string) bool { return rel == locales.ConfigFile || source[rel] }))
			for _, f := range slices.Sorted(maps.Keys(got)) {
				if got[f] == copied[f] || f == locales.ConfigFile {
					continue
				}
				checkExternally(t, missing, filepath.Join(dir, filepath.FromSlash(f)), filepath.Join(fresh, filepath.FromSlash(f)), f)
			}
		})
	}
	if len(missing) > 0 {
		t.Logf("platform tools missing, their checks not run (.ci/run installs those Debian has): %s", strings.Join(slices.Sorted(maps.Keys(missing)), ", "))
	}
}

// errToolMissing says a platform tool is not installed.
var errToolMissing = errors.New("tool missing")

// tool runs a platform tool and returns its standard output; a tool not
// installed is errToolMissing, a failure has the tool's output.
func tool(name string, args ...string) ([]byte, error) {
	if _, err := exec.LookPath(name); err != nil {
		return nil, fmt.Errorf("%s: %w", name, errToolMissing)
	}
	var stderr bytes.Buffer
	cmd := exec.Command(name, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// entriesPy prints, as one JSON object, the translated entries of the
// locale file argv[2] of kind argv[1], by key: Python's own readers
// (json, xml.etree, gettext's .mo reader), independent of the library.
// Entries the file marks untranslated are left out.
const entriesPy = `
import json, sys, gettext
import xml.etree.ElementTree as ET
kind, path = sys.argv[1], sys.argv[2]
out = {}
def local(tag): return tag.rsplit('}', 1)[-1]
def inner(e, text=lambda s: s or ''):
    out = text(e.text)
    for c in e:
        tail, c.tail = c.tail, None
        out += ET.tostring(c, encoding='unicode') + text(tail)
        c.tail = tail
    return out
def aapt(s):
    # Android's resource compiler: double quotes keep whitespace and are
    # dropped, a backslash escapes, other whitespace runs are one space.
    out, quoted, i, s = [], False, 0, s or ''
    while i < len(s):
        ch = s[i]
        if ch == '\\' and i + 1 < len(s):
            nx = s[i + 1]
            if nx == 'u' and i + 6 <= len(s):
                out.append(chr(int(s[i + 2:i + 6], 16))); i += 6; continue
            out.append({'n': '\n', 't': '\t'}.get(nx, nx)); i += 2; continue
        if ch == '"':
            quoted = not quoted
        elif ch.isspace() and not quoted:
            if not out or out[-1] != ' ':
                out.append(' ')
        else:
            out.append(ch)
        i += 1
    return ''.join(out)
def android(e):
    return inner(e, aapt).strip(' ')
def flat(prefix, v):
    if isinstance(v, dict):
        if kind == 'xcstrings' and isinstance(v.get('stringUnit'), dict) and v['stringUnit'].get('state') in ('new', 'needs_review'):
            return
        for k, x in v.items():
            flat(prefix + [k], x)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            flat(prefix + [str(i)], x)
    elif v is not None:
        out['\x1f'.join(prefix)] = v
if kind == 'json' or kind == 'xcstrings':
    with open(path, encoding='utf-8-sig') as f:
        flat([], json.load(f))
elif kind == 'mo':
    with open(path, 'rb') as f:
        for k, v in gettext.GNUTranslations(f)._catalog.items():
            if k != '':
                out[json.dumps(k)] = v
elif kind == 'android':
    for e in ET.parse(path).getroot():
        name, tag = e.get('name'), local(e.tag)
        if e.get('translatable') == 'false' or name is None:
            continue
        if tag == 'string':
            out[name] = android(e)
        elif tag in ('string-array', 'array'):
            for i, item in enumerate(e):
                out[name + '[' + str(i) + ']'] = android(item)
        elif tag == 'plurals':
            for item in e:
                out[name + '#' + str(item.get('quantity'))] = android(item)
elif kind == 'xliff':
    pre = ('new', 'needs-translation', 'needs-adaptation', 'needs-l10n', 'needs-review-translation', 'needs-review-adaptation', 'needs-review-l10n', 'initial')
    for u in ET.parse(path).getroot().iter():
        if local(u.tag) not in ('trans-unit', 'unit'):
            continue
        for t in u.iter():
            if local(t.tag) != 'target':
                continue
            parent = [s for s in u.iter() if t in list(s)][0]
            if t.get('state') in pre or parent.get('state') in pre:
                continue
            out[u.get('id') + ('/' + parent.get('id') if local(parent.tag) == 'segment' and parent.get('id') else '')] = inner(t)
json.dump(out, sys.stdout)
`

// entriesRb is entriesPy for YAML, by Ruby's own YAML (Psych): every
// leaf by its path, null (untranslated) left out; a leaf other than a
// string is written with its class, so a YAML 1.1 word read as true shows.
const entriesRb = `
require "yaml"; require "json"
out = {}
walk = lambda do |prefix, v|
  case v
  when Hash then v.each { |k, x| walk.call(prefix + [k.is_a?(String) ? k : "#{k.class}:#{k}"], x) }
  when Array then v.each_with_index { |x, i| walk.call(prefix + [i.to_s], x) }
  when nil then nil
  when String then out[prefix.join("\x1f")] = v
  else out[prefix.join("\x1f")] = "#{v.class}:#{v}"
  end
end
walk.call([], YAML.load_file(ARGV[0], aliases: true))
print JSON.generate(out)
`

// checkExternally checks the locale file fresh, written by a fresh pull:
// it passes the platform's own tool, and each entry it shares with orig,
// the tree's file, which orig has translated, reads the same by a parser
// other than the one under test. Entries only one file has are counted
// in the log, not compared (untranslated and target-only entries), except
// a YAML key Ruby reads as no string (on: read as true). A missing tool,
// or a format no Debian tool reads, is recorded in missing.
func checkExternally(t *testing.T, missing map[string]bool, orig, fresh, rel string) {
	t.Helper()
	var read func(path string) (map[string]any, error)
	validate := func(path string) error { _, err := read(path); return err }
	entries := func(prog []byte, err error) (map[string]any, error) {
		if err != nil {
			return nil, err
		}
		var m map[string]any
		return m, json.Unmarshal(prog, &m)
	}
	python := func(kind string) func(string) (map[string]any, error) {
		return func(path string) (map[string]any, error) {
			return entries(tool("python3", "-c", entriesPy, kind, path))
		}
	}
	switch ext := strings.ToLower(filepath.Ext(rel)); ext {
	case ".po":
		validate = func(path string) error { _, err := tool("msgfmt", "--check", "-o", os.DevNull, path); return err }
		read = func(path string) (map[string]any, error) {
			// msgfmt leaves out fuzzy and empty entries; Python's gettext
			// reads what it compiled.
			mo := filepath.Join(t.TempDir(), "messages.mo")
			if _, err := tool("msgfmt", "-o", mo, path); err != nil {
				return nil, err
			}
			return python("mo")(mo)
		}
	case ".yml", ".yaml":
		read = func(path string) (map[string]any, error) { return entries(tool("ruby", "-e", entriesRb, path)) }
	case ".json", ".arb", ".xcstrings":
		kind := "json"
		if ext == ".xcstrings" {
			kind = "xcstrings"
		}
		read = python(kind)
	case ".xml", ".xlf", ".xliff":
		validate = func(path string) error { _, err := tool("xmllint", "--noout", path); return err }
		kind := "android"
		if ext != ".xml" {
			kind = "xliff"
		}
		read = python(kind)
	default:
		missing["none in Debian for "+ext] = true // checked by the catalog comparison only
		return
	}
	report := func(err error) bool {
		if errors.Is(err, errToolMissing) {
			missing[strings.SplitN(err.Error(), ":", 2)[0]] = true
			return true
		}
		if err != nil {
			t.Errorf("fresh pull wrote %s, which its platform's tool refuses: %v", rel, err)
			return true
		}
		return false
	}
	if report(validate(fresh)) {
		return
	}
	got, err := read(fresh)
	if report(err) {
		return
	}
	if _, err := os.Stat(orig); err != nil {
		return // a file the tree did not have
	}
	want, err := read(orig)
	if report(err) {
		return
	}
	compared, onlyOrig, onlyFresh := 0, 0, 0
	for _, k := range slices.Sorted(maps.Keys(want)) {
		g, ok := got[k]
		if !ok {
			onlyOrig++
			continue
		}
		compared++
		if !reflect.DeepEqual(g, want[k]) {
			t.Errorf("fresh pull: %s: %q reads %#v, the tree's file %#v", rel, strings.ReplaceAll(k, "\x1f", "."), g, want[k])
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; ok {
			continue
		}
		onlyFresh++
		if strings.Contains(k, "Class:") {
			t.Errorf("fresh pull: %s: a key Ruby reads as no string: %q", rel, strings.ReplaceAll(k, "\x1f", "."))
		}
	}
	if compared == 0 && len(want) > 0 {
		t.Errorf("fresh pull: %s shares no translated entry with the tree's file (%d entries there, %d in it)", rel, len(want), len(got))
	}
	t.Logf("%s: tool ok; %d entries equal by an external parser, %d only in the tree's file, %d only in the fresh file", rel, compared, onlyOrig, onlyFresh)
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
