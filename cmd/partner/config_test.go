package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// writeConfig writes cfg as dir/partner.yaml.
func writeConfigFile(t *testing.T, dir string, cfg *locales.Config) {
	t.Helper()
	data, err := cfg.Marshal(formats.ByName())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, locales.ConfigFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigPushPullStatus: push, pull and status run without --dir read
// partner.yaml in the current folder (or --config), the tree's root is
// the file's folder, the file's project wins over PARTNER_PROJECT, and
// flags win over the file.
func TestConfigPushPullStatus(t *testing.T) {
	env := with(startFake(t), "PARTNER_PROJECT", "acme/elsewhere")
	cfg := &locales.Config{Project: "acme/web", SourceLanguage: "en",
		Files: []locales.Group{{Translation: "i18n/{language}.json", Format: locales.JSON{}}}}
	tree := map[string]string{
		"i18n/en.json": "{\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
		"i18n/de.json": "{\n  \"nav\": {\n    \"home\": \"Startseite\"\n  }\n}\n",
	}
	dir := writeTree(t, tree)
	writeConfigFile(t, dir, cfg)

	if r := runPartnerIn(t, dir, env, "push"); r.code != 0 || !strings.Contains(r.stdout, "acme/web: 1 keys created") {
		t.Fatalf("push in the tree's folder: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runPartner(t, env, "push", "--config", filepath.Join(dir, locales.ConfigFile)); r.code != 0 || !strings.Contains(r.stdout, "0 keys created, 0 updated") {
		t.Errorf("push --config from elsewhere: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runPartnerIn(t, dir, env, "push", "--project", "acme/nope", "--dry-run"); r.code == 0 || !strings.Contains(r.stderr, "acme/nope") {
		t.Errorf("push --project overriding the file's: exit %d, %q", r.code, r.stderr)
	}
	var st statusResult
	if r := runPartnerIn(t, dir, env, "status", "--json"); r.code != 0 || json.Unmarshal([]byte(r.stdout), &st) != nil || st.Project != "acme/web" {
		t.Errorf("status in the tree's folder: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}

	// A pull into a copy holding only partner.yaml writes the tree at its paths.
	out := t.TempDir()
	writeConfigFile(t, out, cfg)
	if r := runPartnerIn(t, out, env, "pull"); r.code != 0 || !strings.Contains(r.stdout, "the file groups of partner.yaml") {
		t.Fatalf("pull in a folder with partner.yaml: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	got := readTree(t, out)
	for name, want := range tree {
		if got[name] != want {
			t.Errorf("pull wrote %s =\n%s\nwant\n%s", name, got[name], want)
		}
	}
}

// TestConfigMissing: without --dir and without partner.yaml, push says
// what it needs; a --config that does not exist is named.
func TestConfigMissing(t *testing.T) {
	env := startFake(t)
	empty := t.TempDir()
	if r := runPartnerIn(t, empty, env, "push"); r.code != 2 || !strings.Contains(r.stderr, "--dir is required") || !strings.Contains(r.stderr, "partner init") {
		t.Errorf("push without --dir or partner.yaml: exit %d, %q", r.code, r.stderr)
	}
	for _, args := range [][]string{{"push", "--config", "nope.yaml"}, {"pull", "--config", "nope.yaml"}, {"status", "--config", "nope.yaml"}} {
		if r := runPartnerIn(t, empty, env, args...); r.code != 2 || !strings.Contains(r.stderr, "--config nope.yaml: no such file") {
			t.Errorf("%s: exit %d, %q", strings.Join(args, " "), r.code, r.stderr)
		}
	}
}

// TestInitRefuses: init keeps an existing partner.yaml unless --force,
// and asks for nothing: without a project it is a usage error. Neither
// writes a file.
func TestInitRefuses(t *testing.T) {
	dir := writeTree(t, map[string]string{locales.ConfigFile: "project: acme/web\n", "en.json": "{}"})
	r := runPartner(t, map[string]string{"PARTNER_PROJECT": "acme/web"}, "init", "--dir", dir)
	if r.code != 2 || !strings.Contains(r.stderr, "exists: give --force") {
		t.Errorf("init over partner.yaml: exit %d, %q", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, locales.ConfigFile)); string(b) != "project: acme/web\n" {
		t.Errorf("init without --force changed partner.yaml: %q", b)
	}
	fresh := writeTree(t, map[string]string{"en.json": "{}"})
	if r := runPartner(t, nil, "init", "--dir", fresh); r.code != 2 || !strings.Contains(r.stderr, "no project") {
		t.Errorf("init without a project: exit %d, %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(fresh, locales.ConfigFile)); err == nil {
		t.Error("init without a project wrote partner.yaml")
	}
}

// TestInit: init detects the tree's preset, fills what the service knows
// of the project, writes partner.yaml (which reads back the same, and
// which push then uses), and prints what it found; a second init needs
// --force.
func TestInit(t *testing.T) {
	env := startFake(t)
	dir := writeTree(t, map[string]string{
		"app/src/main/res/values/strings.xml":        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"home\">Home</string>\n</resources>\n",
		"app/src/main/res/values-de/strings.xml":     "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"home\">Startseite</string>\n</resources>\n",
		"app/src/main/res/values-pt-rBR/strings.xml": "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"home\">Início</string>\n</resources>\n",
	})
	var res initResult
	r := runPartnerIn(t, dir, env, "init", "--project", "acme/web", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("init: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if res.Preset != "android" || res.SourceLanguage != "en" || res.CDN != env["PARTNER_CDN_URL"] || len(res.Groups) == 0 || res.Groups[0].Format != "android" {
		t.Errorf("init found %+v; want the android preset, source en, the fake's CDN", res)
	}
	if strings.Join(res.Lacking, ",") != "pt-br" {
		t.Errorf("init: the project lacks %v, want pt-br", res.Lacking)
	}
	cfg, err := locales.ReadConfig(filepath.Join(dir, locales.ConfigFile), formats.ByName())
	if err != nil || cfg.Project != "acme/web" || cfg.SourceLanguage != "en" || cfg.CDN != env["PARTNER_CDN_URL"] {
		t.Fatalf("partner.yaml reads back as %+v, %v", cfg, err)
	}
	if r := runPartnerIn(t, dir, env, "init", "--project", "acme/web"); r.code != 2 {
		t.Errorf("second init without --force: exit %d, want 2", r.code)
	}
	if r := runPartnerIn(t, dir, env, "init", "--project", "acme/web", "--force"); r.code != 0 || !strings.Contains(r.stdout, "preset android") || !strings.Contains(r.stdout, "pt-br") {
		t.Errorf("init --force: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runPartnerIn(t, dir, env, "push", "--add-languages"); r.code != 0 || !strings.Contains(r.stdout, "added languages pt-br") || !strings.Contains(r.stdout, "1 keys created") {
		t.Errorf("push --add-languages after init: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestInitReportsProblems: init writes partner.yaml for a tree whose
// files push would refuse, and lists every problem, one a line.
func TestInitReportsProblems(t *testing.T) {
	env := startFake(t)
	dir := writeTree(t, map[string]string{
		"locales/en.json": "{\"a\": \"A\", \"b\": \"B\"}\n",
		"locales/de.json": "{\n\"a\": 42,\n\"b\": 1}\n",
	})
	r := runPartnerIn(t, dir, env, "init", "--project", "acme/web")
	if r.code != 0 || !strings.Contains(r.stderr, "\n\tlocales/de.json:2: ") || !strings.Contains(r.stderr, "\n\tlocales/de.json:3: ") || !strings.Contains(r.stdout, "not read") {
		t.Errorf("init of a tree with bad files: exit %d, stdout %q, stderr %q; want 0 and each problem on a line", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, locales.ConfigFile)); err != nil {
		t.Errorf("init of a tree with bad files wrote no partner.yaml: %v", err)
	}
}

// TestInitMapsLanguages: a folder no standard knows as a language ("cn"
// for Simplified Chinese, as Crowdin's exports name it) is reported by
// init, and --language cn=zh-cn maps it in partner.yaml, which push and
// pull then read.
func TestInitMapsLanguages(t *testing.T) {
	tree := map[string]string{
		"public/locales/en/common.json": `{"hello": "Hello"}`,
		"public/locales/de/common.json": `{"hello": "Hallo"}`,
		"public/locales/cn/common.json": `{"hello": "你好"}`,
	}
	env := map[string]string{"PARTNER_PROJECT": "acme/web"}
	dir := writeTree(t, tree)
	if r := runPartner(t, env, "init", "--dir", dir); !strings.Contains(r.stderr, `"cn"`) {
		t.Errorf("init of a tree with a cn folder: exit %d, stderr %q; want the cn folder named", r.code, r.stderr)
	}
	dir = writeTree(t, tree)
	var res initResult
	r := runPartner(t, env, "init", "--dir", dir, "--language", "cn=zh-cn", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("init --language cn=zh-cn: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !slices.Contains(res.Languages, "zh-cn") || slices.Contains(res.Languages, "cn") {
		t.Errorf("languages %q, want zh-cn for the cn folder", res.Languages)
	}
	cfg, err := locales.ReadConfig(filepath.Join(dir, locales.ConfigFile), formats.ByName())
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Files[0].Languages["cn"]; got != "zh-cn" {
		t.Errorf("partner.yaml maps cn to %q, want zh-cn", got)
	}
}
