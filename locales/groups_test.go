package locales_test

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/translations"
)

// keyValue is a tiny format for the tests: "key=value" lines, keys
// that are identifiers (OpaqueKeys), "key?=value" for an entry the file
// marks untranslated, and lines starting with '#' as comments. A new
// file starts with the first comment line of its source file (as a new
// target file takes its shape from File.SourceFile).
type keyValue struct{}

func (keyValue) Ext() string      { return ".txt" }
func (keyValue) OpaqueKeys() bool { return true }

func (keyValue) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	var msgs []locales.Message
	var problems []locales.Problem
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			problems = append(problems, locales.Problem{Line: i + 1, Message: "no '='"})
			continue
		}
		k, untranslated := strings.CutSuffix(k, "?")
		msgs = append(msgs, locales.Message{Key: k, Text: v, Line: i + 1, Untranslated: untranslated})
	}
	if problems != nil {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	return msgs, locales.File{}, nil
}

func (keyValue) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	var b bytes.Buffer
	header := f.Old
	if header == nil {
		header = f.SourceFile
	}
	if first, _, _ := strings.Cut(string(header), "\n"); strings.HasPrefix(first, "#") {
		b.WriteString(first + "\n")
	}
	for _, m := range msgs {
		mark := ""
		if m.Untranslated {
			mark = "?"
		}
		fmt.Fprintf(&b, "%s%s=%s\n", m.Key, mark, m.Text)
	}
	return b.Bytes(), nil
}

// android is an Android-like layout of keyValue files.
var android = locales.Layout{SourceLanguage: "en", Groups: []locales.Group{{
	Translation: "res/values-{android}/strings.xml",
	Source:      "res/values/strings.xml",
	Format:      keyValue{},
}}}

// androidTree is an Android-like tree: the source in values/, targets
// in qualifier folders, and folders of other qualifiers that hold no
// language.
func androidTree() map[string]string {
	return map[string]string{
		"res/values/strings.xml":           "# Copyright\napp=App\nbutton.remove=Remove\nbutton.remove.cancel=Cancel\nloading=Loading...\nsnoozed=%s: snoozed\n",
		"res/values-pt-rBR/strings.xml":    "# Copyright\napp=Aplicativo\nsnoozed?=%s: snoozed\n",
		"res/values-b+sr+Latn/strings.xml": "# Copyright\napp=Aplikacija\n",
		"res/values-night/strings.xml":     "not=a locale file\n",
		"res/values-sw600dp/strings.xml":   "not=a locale file\n",
		"res/values-land/strings.xml":      "not=a locale file\n",
		"res/values-car/strings.xml":       "not=a locale file\n",
		"res/values/dimens.xml":            "not a locale file",
	}
}

// Load reads an Android-like tree: the source language's file from the
// Source path, Android's qualifiers as the project's codes, folders of
// other qualifiers passed over, and identifier keys taken whole.
func TestLoadGroupsAndroid(t *testing.T) {
	cat, err := locales.Load(loctest.Tree(t, androidTree()), android)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "en", Namespace: "default", Key: "app", Text: "App"},
		{Language: "en", Namespace: "default", Key: "button.remove", Text: "Remove"},
		{Language: "en", Namespace: "default", Key: "button.remove.cancel", Text: "Cancel"},
		{Language: "en", Namespace: "default", Key: "loading", Text: "Loading..."},
		{Language: "en", Namespace: "default", Key: "snoozed", Text: "%s: snoozed"},
		{Language: "pt-br", Namespace: "default", Key: "app", Text: "Aplicativo"},
		{Language: "pt-br", Namespace: "default", Key: "snoozed", Text: "%s: snoozed", Untranslated: true},
		{Language: "sr-latn", Namespace: "default", Key: "app", Text: "Aplikacija"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if cat.SourceLanguage != "en" {
		t.Errorf("SourceLanguage %q, want en", cat.SourceLanguage)
	}
}

// A pull into a copy of the tree holding only the source files creates
// each target file where the platform expects it, shaped by its source
// file; a pull into the tree changes no byte, and what the file marked
// untranslated stays marked.
func TestWriteGroupsRoundTrip(t *testing.T) {
	tree := androidTree()
	cat, err := locales.Load(loctest.Tree(t, tree), android)
	if err != nil {
		t.Fatal(err)
	}
	dir := loctest.Tree(t, map[string]string{"res/values/strings.xml": tree["res/values/strings.xml"]})
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	got := loctest.ReadTree(t, dir)
	for _, name := range []string{"res/values/strings.xml", "res/values-pt-rBR/strings.xml", "res/values-b+sr+Latn/strings.xml"} {
		if got[name] != tree[name] {
			t.Errorf("%s:\n%s\nwant\n%s", name, got[name], tree[name])
		}
	}
	if len(got) != 3 {
		t.Errorf("wrote %v, want the three locale files", slices.Sorted(maps.Keys(got)))
	}

	inPlace := loctest.Tree(t, tree)
	if err := cat.Write(inPlace, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree, loctest.ReadTree(t, inPlace)); diff != "" {
		t.Errorf("a pull into the tree changed it (-want +got):\n%s", diff)
	}
}

// A catalog from the service (lowercase codes) is written in each
// placeholder's spelling of the code.
func TestWriteGroupsSpellsLanguages(t *testing.T) {
	cat := catalogOf("en",
		entry{"en", "", "app", "App"},
		entry{"pt-br", "", "app", "Aplicativo"},
		entry{"sr-latn", "", "app", "Aplikacija"},
		entry{"zh-hans", "", "app", "应用"},
		entry{"de", "", "app", "App"},
	)
	tests := []struct {
		name   string
		layout locales.Layout
		want   []string
	}{
		{"android", android, []string{"res/values-b+sr+Latn/strings.xml", "res/values-b+zh+Hans/strings.xml", "res/values-de/strings.xml", "res/values-pt-rBR/strings.xml", "res/values/strings.xml"}},
		{"language", locales.Layout{Groups: []locales.Group{{Translation: "{language}.lproj/Localizable.strings", Format: keyValue{}}}},
			[]string{"de.lproj/Localizable.strings", "en.lproj/Localizable.strings", "pt-BR.lproj/Localizable.strings", "sr-Latn.lproj/Localizable.strings", "zh-Hans.lproj/Localizable.strings"}},
		{"locale", locales.Layout{SourceLanguage: "en", Groups: []locales.Group{{Translation: "po/{locale}.po", Source: "po/app.pot", Format: keyValue{}}}},
			[]string{"po/app.pot", "po/de.po", "po/pt_BR.po", "po/sr_Latn.po", "po/zh_Hans.po"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := cat.Write(dir, tt.layout); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, slices.Sorted(maps.Keys(loctest.ReadTree(t, dir)))); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			back, err := locales.Load(dir, tt.layout)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(entries(cat), entries(back)); diff != "" {
				t.Errorf("read back (-want +got):\n%s", diff)
			}
		})
	}
}

// gettext's {locale}: pt_BR and sr@latin are the project's pt-br and
// sr-latn, the template is the source language's, en@quot (generated)
// and LINGUAS are passed over, and a file keeps its spelling when
// written back.
func TestGroupsLocale(t *testing.T) {
	layout := locales.Layout{SourceLanguage: "en", Groups: []locales.Group{{Translation: "po/{locale}.po", Source: "po/app.pot", Format: keyValue{}}}}
	tree := map[string]string{
		"po/app.pot":      "hello=\n",
		"po/pt_BR.po":     "hello=Olá\n",
		"po/sr@latin.po":  "hello=Zdravo\n",
		"po/en@quot.po":   "hello=“Hello”\n",
		"po/LINGUAS":      "pt_BR sr@latin\n",
		"po/de.po":        "hello?=Hallo\n",
		"po/POTFILES.in":  "src/main.c\n",
		"src/de.po":       "not=in the group\n",
		"po/sub/de.po":    "not=in the group\n",
		"po/.hidden.po":   "not=read\n",
		"po/notes.po.txt": "not=read\n",
	}
	dir := loctest.Tree(t, tree)
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "de", Namespace: "default", Key: "hello", Text: "Hallo", Untranslated: true},
		{Language: "en", Namespace: "default", Key: "hello", Text: ""},
		{Language: "pt-br", Namespace: "default", Key: "hello", Text: "Olá"},
		{Language: "sr-latn", Namespace: "default", Key: "hello", Text: "Zdravo"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	cat.Set("sr-latn", "", "bye", "Zbogom")
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	got := loctest.ReadTree(t, dir)
	if got["po/sr@latin.po"] != "bye=Zbogom\nhello=Zdravo\n" || got["po/de.po"] != tree["po/de.po"] {
		t.Errorf("sr@latin.po:\n%s\nde.po:\n%s", got["po/sr@latin.po"], got["po/de.po"])
	}
	if len(got) != len(tree)+0 {
		t.Errorf("wrote %v", slices.Sorted(maps.Keys(got)))
	}
}

// A Rails-like pattern: ** folders and the stem are the namespace
// ("admin/users"), a stem may hold dots, and a new namespace or
// language is written where the pattern puts it, keeping the tree's
// spelling of a language it has.
func TestGroupsFoldersAndNamespaces(t *testing.T) {
	layout := locales.Layout{Groups: []locales.Group{{Translation: "config/locales/**/{namespace}.{language}.json", DefaultName: "app"}}}
	tree := map[string]string{
		"config/locales/app.en.json":          `{"nav": {"home": "Home"}}`,
		"config/locales/app.pt-BR.json":       `{"nav": {"home": "Início"}}`,
		"config/locales/admin/users.en.json":  `{"title": "Users"}`,
		"config/locales/admin/users.de.json":  `{"title": "Benutzer"}`,
		"config/locales/devise.views.en.json": `{"ok": "OK"}`,
		"config/locales/notes.json":           `{"not": "a locale file"}`,
		"config/locales/README.md":            "# locales",
		"config/database.en.json":             `{"not": "in the group"}`,
	}
	dir := loctest.Tree(t, tree)
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "de", Namespace: "admin/users", Key: "title", Text: "Benutzer"},
		{Language: "en", Namespace: "admin/users", Key: "title", Text: "Users"},
		{Language: "en", Namespace: "default", Key: "nav.home", Text: "Home"},
		{Language: "en", Namespace: "devise.views", Key: "ok", Text: "OK"},
		{Language: "pt-br", Namespace: "default", Key: "nav.home", Text: "Início"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	cat.Set("pt-br", "admin/roles/list", "title", "Papéis")
	cat.Set("fr", "", "nav.home", "Accueil")
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	got := loctest.ReadTree(t, dir)
	for name, data := range map[string]string{
		"config/locales/admin/roles/list.pt-BR.json": "{\n  \"title\": \"Papéis\"\n}\n",
		"config/locales/app.fr.json":                 "{\n  \"nav\": {\n    \"home\": \"Accueil\"\n  }\n}\n",
	} {
		if got[name] != data {
			t.Errorf("%s:\n%s\nwant\n%s", name, got[name], data)
		}
	}
	// JSON keys keep their rules: a text cannot be a parent.
	bad := loctest.Tree(t, map[string]string{"config/locales/app.en.json": `{"a": "A", "a.b": "B"}`})
	if _, err := locales.Load(bad, layout); err == nil || !strings.Contains(err.Error(), "both a text and a parent") {
		t.Errorf("Load of a text that is a parent: %v", err)
	}
}

// A namespace from the service never leads a file outside the tree
// through **, nor to a file Load would read back as another.
func TestWriteGroupsRefusesEscapingNamespaces(t *testing.T) {
	layout := locales.Layout{Groups: []locales.Group{{Translation: "locales/{language}/**/{namespace}.json"}}}
	for _, ns := range []string{"../x", "a/../../b", "a//b", "a/./b", "/abs", "a/", ".hidden", `a\b`, "a/con"} {
		t.Run(ns, func(t *testing.T) {
			writeRefused(t, catalogOf("en", entry{"en", ns, "k", "v"}), layout, fmt.Sprintf("%q", ns))
		})
	}
	// A stem holding '/' cannot be written without **.
	flat := locales.Layout{Groups: []locales.Group{{Translation: "locales/{language}/{namespace}.json"}}}
	writeRefused(t, catalogOf("en", entry{"en", "a/b", "k", "v"}), flat, `"a/b"`)
}

// A spelling the rules do not match is a problem naming the file until
// the group's Languages maps it; then it is read and written back as
// the tree spells it.
func TestGroupsLanguagesMap(t *testing.T) {
	tree := map[string]string{
		"locales/en/common.json":      `{"ok": "OK"}`,
		"locales/cn/common.json":      `{"ok": "好"}`,
		"locales/zh-Hant/common.json": `{"ok": "好的"}`,
	}
	group := locales.Group{Translation: "locales/{language}/{namespace}.json"}
	_, err := locales.Load(loctest.Tree(t, tree), locales.Layout{Groups: []locales.Group{group}})
	var ie *locales.InputError
	if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].File != "locales/cn/common.json" || !strings.Contains(ie.Problems[0].Message, "languages") {
		t.Fatalf("Load without a map: %v; want a problem naming locales/cn/common.json", err)
	}

	group.Languages = map[string]string{"cn": "zh-CN", "zh-Hant": "zh-tw"}
	layout := locales.Layout{Groups: []locales.Group{group}}
	dir := loctest.Tree(t, tree)
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "en", Namespace: "common", Key: "ok", Text: "OK"},
		{Language: "zh-cn", Namespace: "common", Key: "ok", Text: "好"},
		{Language: "zh-tw", Namespace: "common", Key: "ok", Text: "好的"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	fresh := catalogOf("en", entry{"zh-cn", "common", "ok", "好"}, entry{"zh-tw", "nav", "home", "首頁"})
	out := t.TempDir()
	if err := fresh.Write(out, layout); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"locales/cn/common.json", "locales/zh-Hant/nav.json"}, slices.Sorted(maps.Keys(loctest.ReadTree(t, out)))); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

// Two files of one language and namespace are a problem naming both;
// Java's messages_en left empty beside messages.properties is not.
func TestGroupsSameLanguageTwice(t *testing.T) {
	_, err := locales.Load(loctest.Tree(t, map[string]string{
		"res/values/strings.xml":         "app=App\n",
		"res/values-pt-rBR/strings.xml":  "app=Aplicativo\n",
		"res/values-b+pt+BR/strings.xml": "app=Aplicativo\n",
	}), android)
	if err == nil || !strings.Contains(err.Error(), "res/values-pt-rBR/strings.xml") || !strings.Contains(err.Error(), "res/values-b+pt+BR/strings.xml") {
		t.Errorf("Load: %v; want a problem naming both files", err)
	}

	java := locales.Layout{SourceLanguage: "en", Groups: []locales.Group{{Translation: "messages_{locale}.txt", Source: "messages.txt", Format: keyValue{}}}}
	dir := loctest.Tree(t, map[string]string{
		"messages.txt":       "hello=Hello\n",
		"messages_en.txt":    "# intentionally empty: lookups fall back to messages.txt\n",
		"messages_pt_BR.txt": "hello=Olá\n",
	})
	cat, err := locales.Load(dir, java)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "en", Namespace: "default", Key: "hello", Text: "Hello"},
		{Language: "pt-br", Namespace: "default", Key: "hello", Text: "Olá"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	before := loctest.ReadTree(t, dir)
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(before, loctest.ReadTree(t, dir)); diff != "" {
		t.Errorf("Write changed the tree (-want +got):\n%s", diff)
	}
}

// A format whose files hold every language is a group whose pattern
// names no language; its namespaces come from ** and the stem.
func TestGroupsAllLanguages(t *testing.T) {
	layout := locales.Layout{Groups: []locales.Group{{Translation: "App/**/{namespace}.xcstrings", Format: allLanguages{}}}}
	dir := loctest.Tree(t, map[string]string{
		"App/Localizable.xcstrings":     `{"Source": "en", "Messages": [{"Language": "en", "Key": "a", "Text": "A"}, {"Language": "zh-Hans", "Key": "a", "Text": "甲"}]}`,
		"App/Settings/Editor.xcstrings": `{"Source": "en", "Messages": [{"Language": "en", "Key": "a", "Text": "A"}]}`,
	})
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "en", Namespace: "Settings/Editor", Key: "a", Text: "A"},
		{Language: "en", Namespace: "default", Key: "a", Text: "A"},
		{Language: "zh-Hans", Namespace: "default", Key: "a", Text: "甲"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if cat.SourceLanguage != "en" {
		t.Errorf("SourceLanguage %q, want en", cat.SourceLanguage)
	}
	cat.Set("fr", "Settings/Editor", "a", "A")
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	back, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(entries(cat), entries(back)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// A malformed pattern, an unknown placeholder or a group that cannot
// be read is a clear error.
func TestGroupsRefusesPatterns(t *testing.T) {
	tests := []struct {
		group locales.Group
		src   string
		want  string
	}{
		{locales.Group{Translation: "{lang}/x.json"}, "", "unknown placeholder {lang}"},
		{locales.Group{Translation: "{language/x.json"}, "", "without its '}'"},
		{locales.Group{Translation: "language}/x.json"}, "", "without its '{'"},
		{locales.Group{Translation: "**/**/{language}.json"}, "", "** twice"},
		{locales.Group{Translation: "{namespace}{language}.json"}, "", "side by side"},
		{locales.Group{Translation: "/etc/{language}.json"}, "", "starts with '/'"},
		{locales.Group{Translation: "{language}/**"}, "", "ends in **"},
		{locales.Group{Translation: "*/{language}.json"}, "", "'*'"},
		{locales.Group{Translation: "../{language}.json"}, "", `".."`},
		{locales.Group{Translation: "{language}/{locale}.json"}, "", "second language placeholder"},
		{locales.Group{Translation: "{namespace}/**/{language}.json"}, "", "** after {namespace}"},
		{locales.Group{Translation: "locales/{namespace}.json"}, "", "names no language"},
		{locales.Group{Translation: "{language}.json", Source: "{language}.json"}, "en", "names no language"},
		{locales.Group{Translation: "{language}.json", Source: "source.json"}, "", "source language"},
		{locales.Group{Translation: "{language}.json"}, "", ""},
		{locales.Group{Translation: "{language}/x.xcstrings", Format: allLanguages{}}, "", "every language"},
		{locales.Group{Translation: "{language}.json", Languages: map[string]string{"../x": "de"}}, "", "want a file's spelling"},
		{locales.Group{Translation: "{language}.json", Languages: map[string]string{"": "de"}}, "", "want a file's spelling"},
		{locales.Group{Translation: "{language}.json", Languages: map[string]string{"cn": ""}}, "", "want a file's spelling"},
		{locales.Group{Translation: "{language}.json", Languages: map[string]string{"cn": "zh/../../x"}}, "", "want a file's spelling"},
	}
	for _, tt := range tests {
		layout := locales.Layout{SourceLanguage: tt.src, Groups: []locales.Group{tt.group}}
		dir := loctest.Tree(t, map[string]string{"en.json": "{}"})
		_, err := locales.Load(dir, layout)
		if tt.want == "" {
			if err != nil {
				t.Errorf("Load with %+v: %v", tt.group, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load with %q: %v; want an error saying %s", tt.group.Translation, err, tt.want)
		}
		if err := catalogOf("", entry{"en", "", "k", "v"}).Write(dir, layout); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Write with %q: %v; want an error saying %s", tt.group.Translation, err, tt.want)
		}
	}
}

// A locale file that is a link is refused with the file named, as in
// the layouts without groups.
func TestLoadGroupsRefusesLinks(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{"res/values/strings.xml": "app=App\n", "outside.txt": "app=Outside\n"})
	if err := os.MkdirAll(filepath.Join(dir, "res", "values-de"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside.txt"), filepath.Join(dir, "res", "values-de", "strings.xml")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	_, err := locales.Load(dir, android)
	var ie *locales.InputError
	if !errors.As(err, &ie) || ie.Problems[0].File != "res/values-de/strings.xml" || !strings.Contains(ie.Problems[0].Message, "link") {
		t.Errorf("Load: %v; want the link refused", err)
	}
}

// A format whose keys are identifiers keeps them whole in the layouts
// without groups too: a single file's "%s: done" is not namespace "%s",
// and "a" beside "a.b" or "Loading..." are ordinary keys.
func TestLoadOpaqueKeysSingleFile(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{"en.txt": "%s: done=%s: done\na=A\na.b=B\nLoading...=Loading...\n"})
	cat, err := locales.Load(dir, locales.Layout{Format: keyValue{}})
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "en", Namespace: "default", Key: "%s: done", Text: "%s: done"},
		{Language: "en", Namespace: "default", Key: "Loading...", Text: "Loading..."},
		{Language: "en", Namespace: "default", Key: "a", Text: "A"},
		{Language: "en", Namespace: "default", Key: "a.b", Text: "B"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	out := t.TempDir()
	if err := cat.Write(out, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	back, err := locales.Load(out, locales.Layout{Format: keyValue{}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, entries(back)); diff != "" {
		t.Errorf("read back (-want +got):\n%s", diff)
	}
}

// FuzzPattern matches file names to a pattern: a match is read back
// from the path Write builds for it, and no pattern or name panics.
func FuzzPattern(f *testing.F) {
	f.Add("config/locales/**/{namespace}.{language}.json", "config/locales/admin/users.pt-BR.json")
	f.Add("res/values-{android}/{namespace}.xml", "res/values-b+sr+Latn/strings.xml")
	f.Add("po/{locale}.po", "po/sr@latin.po")
	f.Add("{namespace}_{locale}.json", "messages_pt_BR.json")
	f.Add("{language}/**/{namespace}.json", "de/a/b/c.json")
	f.Fuzz(func(t *testing.T, pattern, name string) {
		if len(pattern) > 200 || len(name) > 200 {
			return
		}
		layout := locales.Layout{Groups: []locales.Group{{Translation: pattern}}}
		dir := t.TempDir()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if !filepath.IsLocal(name) || strings.Contains(name, `\`) || os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, []byte(`{"k": "v"}`), 0o644) != nil {
			return
		}
		cat, err := locales.Load(dir, layout)
		if err != nil {
			return
		}
		out := t.TempDir()
		if err := cat.Write(out, layout); err != nil {
			return // a name Write cannot build back is refused, not written
		}
		back, err := locales.Load(out, layout)
		if err != nil {
			t.Fatalf("Load of what Write wrote: %v", err)
		}
		if diff := cmp.Diff(entries(cat), entries(back)); diff != "" {
			t.Fatalf("read back (-want +got):\n%s", diff)
		}
	})
}

// BenchmarkLoadGroups loads a tree of 20 languages by 10 namespaces of
// 200 nested keys (40,000 texts in 200 files) by the pattern
// "{language}/{namespace}.json"; the baseline loads the same tree as
// namespaced folders, without groups, so the patterns' cost reads from
// one run.
func BenchmarkLoadGroups(b *testing.B) {
	langs := []string{"ar", "bg", "cs", "da", "de", "el", "en", "es", "fi", "fr", "he", "hu", "it", "ja", "ko", "nl", "pl", "pt-BR", "sr-Latn", "zh-Hans"}
	cat := &locales.Catalog{}
	for _, l := range langs {
		for n := range 10 {
			for k := range 200 {
				cat.Set(l, fmt.Sprintf("ns%d", n), fmt.Sprintf("screen%d.item%d", k/10, k), fmt.Sprintf("Text %d of namespace %d", k, n))
			}
		}
	}
	dir := b.TempDir()
	folders := locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Nested}
	if err := cat.Write(dir, folders); err != nil {
		b.Fatal(err)
	}
	groups := locales.Layout{Keys: translations.Nested, Groups: []locales.Group{{Translation: "{language}/{namespace}.json"}}}
	for _, bb := range []struct {
		name   string
		layout locales.Layout
	}{{"baseline=folders", folders}, {"groups", groups}} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				got, err := locales.Load(dir, bb.layout)
				if err != nil {
					b.Fatal(err)
				}
				if n := len(slices.Collect(got.All())); n != 40000 {
					b.Fatalf("%d texts", n)
				}
			}
		})
	}
}

// A name that fits both patterns is a translation when its language is
// known: a broad Source pattern does not take the targets' files.
func TestGroupsTranslationBeforeSource(t *testing.T) {
	layout := locales.Layout{SourceLanguage: "en", Groups: []locales.Group{{Translation: "i18n/{namespace}.{language}.json", Source: "i18n/{namespace}.json"}}}
	cat, err := locales.Load(loctest.Tree(t, map[string]string{
		"i18n/app.json":         `{"hi": "Hi"}`,
		"i18n/app.de.json":      `{"hi": "Hallo"}`,
		"i18n/date.format.json": `{"short": "D"}`,
	}), layout)
	if err != nil {
		t.Fatal(err)
	}
	want := []locales.Message{
		{Language: "de", Namespace: "app", Key: "hi", Text: "Hallo"},
		{Language: "en", Namespace: "app", Key: "hi", Text: "Hi"},
		{Language: "en", Namespace: "date.format", Key: "short", Text: "D"},
	}
	if diff := cmp.Diff(want, entries(cat)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
}

// Without groups too, a new target file is told its source file's
// content (File.SourceFile), and an entry the file marks untranslated
// is written back so marked.
func TestWriteSourceFileWithoutGroups(t *testing.T) {
	layout := locales.Layout{Files: translations.NamespacedFolders, Format: keyValue{}}
	tree := map[string]string{
		"en/common.txt": "# Licensed to you\nok=OK\nsoon=Soon\n",
		"fr/common.txt": "ok=OK\nsoon?=Soon\n",
	}
	dir := loctest.Tree(t, tree)
	cat, err := locales.Load(dir, layout)
	if err != nil {
		t.Fatal(err)
	}
	cat.SourceLanguage = "en"
	cat.Set("de", "common", "ok", "OK")
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"en/common.txt": tree["en/common.txt"],
		"fr/common.txt": tree["fr/common.txt"],
		"de/common.txt": "# Licensed to you\nok=OK\n",
	}
	if diff := cmp.Diff(want, loctest.ReadTree(t, dir)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
	// A single file of identifier keys holds the default namespace only.
	writeRefused(t, catalogOf("en", entry{"en", "common", "ok", "OK"}), locales.Layout{Files: translations.SingleFile, Format: keyValue{}}, `"common"`)
}

// Load records the spellings a tree uses that its placeholder would
// spell otherwise (Apple's legacy zh_CN.lproj beside pt-BR.lproj,
// gettext's sr@latin), in the catalog's Layout: a fresh write with that
// layout, into a copy of the source files only, names every file as the
// tree did.
func TestLoadRecordsTheTreesSpellings(t *testing.T) {
	layout := locales.Layout{SourceLanguage: "en", Groups: []locales.Group{
		{Translation: "{language}.lproj/{namespace}.txt", Format: keyValue{}, DefaultName: "Localizable"},
		{Translation: "po/{locale}.txt", Source: "po/app.txt", Format: keyValue{}, Namespace: "po"},
	}}
	tree := map[string]string{
		"en.lproj/Localizable.txt":    "hello=Hello\n",
		"pt-BR.lproj/Localizable.txt": "hello=Olá\n",
		"zh_CN.lproj/Localizable.txt": "hello=你好\n",
		"po/app.txt":                  "bye=Bye\n",
		"po/sr@latin.txt":             "bye=Zbogom\n",
		"po/pt_BR.txt":                "bye=Tchau\n",
	}
	cat, err := locales.Load(loctest.Tree(t, tree), layout)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := cat.Layout.Groups[0].Languages, map[string]string{"zh_CN": "zh-cn"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the .lproj group's languages %v, want %v", got, want)
	}
	if got, want := cat.Layout.Groups[1].Languages, map[string]string{"sr@latin": "sr-latn"}; !reflect.DeepEqual(got, want) {
		t.Errorf("the po group's languages %v, want %v", got, want)
	}
	if layout.Groups[0].Languages != nil {
		t.Errorf("Load changed the caller's groups: %v", layout.Groups[0].Languages)
	}
	fresh := loctest.Tree(t, map[string]string{"en.lproj/Localizable.txt": tree["en.lproj/Localizable.txt"], "po/app.txt": tree["po/app.txt"]})
	if err := cat.Write(fresh, cat.Layout); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tree, loctest.ReadTree(t, fresh)); diff != "" {
		t.Errorf("fresh write (-tree +written):\n%s", diff)
	}
}
