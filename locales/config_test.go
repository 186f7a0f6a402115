package locales

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/translations"
)

// catalogFormat is a format whose files hold every language, as
// .xcstrings do.
type catalogFormat struct{ JSON }

func (catalogFormat) Ext() string         { return ".catalog" }
func (catalogFormat) DefaultName() string { return "Localizable" }

// optionFormat is a format with an option, as YAML's Rails.
type optionFormat struct {
	JSON
	Rails bool
}

var configFormats = map[string]Format{"json": JSON{}, "catalog": catalogFormat{}, "option": optionFormat{}}

// writeConfig writes data as partner.yaml in a new folder and returns
// its path.
func writeConfig(t testing.TB, data string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), ConfigFile)
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

func TestReadConfigResolvesFormatsByName(t *testing.T) {
	name := writeConfig(t, `project: acme/web
cdn: https://cdn.example.com/acme/web
sourceLanguage: en
fileStructure: namespaced_folders
keyFormat: flat
files:
  - translation: res/values-{android}/strings.xml
    source: res/values/strings.xml
    format: option
    languages:
      zh-Hans: zh-cn
  - translation: '**/{namespace}.catalog'
    format: catalog
    defaultName: Localizable
  - translation: '{language}/{namespace}.json'
    keys: nested
`)
	got, err := ReadConfig(name, configFormats)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Project: "acme/web", CDN: "https://cdn.example.com/acme/web", SourceLanguage: "en",
		FileStructure: translations.NamespacedFolders, KeyFormat: translations.Flat,
		Files: []Group{
			{Translation: "res/values-{android}/strings.xml", Source: "res/values/strings.xml", Format: optionFormat{}, Languages: map[string]string{"zh-Hans": "zh-cn"}},
			{Translation: "**/{namespace}.catalog", Format: catalogFormat{}, DefaultName: "Localizable"},
			{Translation: "{language}/{namespace}.json", Keys: translations.Nested},
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("config (-want +got):\n%s", diff)
	}
	layout := got.Layout()
	if layout.SourceLanguage != "en" || layout.Keys != translations.Flat || len(layout.Groups) != 3 {
		t.Errorf("Layout() = %+v", layout)
	}
}

// TestReadConfigRefuses shows each refusal with the line it names.
func TestReadConfigRefuses(t *testing.T) {
	tests := []struct {
		name, data string
		line       int
		want       string
	}{
		{"unknown field", "project: acme/web\nsourceLanguage: en\ntoken: secret\nfiles:\n  - translation: '{language}.json'\n", 3, "field token not found"},
		{"unknown group field", "project: acme/web\nfiles:\n  - translation: '{language}.json'\n    pattern: x\n", 4, "field pattern not found in a file group"},
		{"files not a list", "project: acme/web\nfiles: '{language}.json'\n", 2, "into a list of file groups"},
		{"syntax", "project: [acme\nfiles: x\n", 0, "did not find expected"},
		{"group without translation", "project: acme/web\nfiles:\n  - source: en.json\n    format: json\n", 3, "no translation pattern"},
		{"unknown format", "files:\n  - translation: '{language}.json'\n    format: jsonc\n", 3, `format "jsonc": want one of catalog, json, option`},
		{"unknown placeholder", "files:\n  - translation: '{lang}/strings.json'\n", 2, "placeholder {lang}"},
		{"unknown placeholder in source", "files:\n  - translation: '{language}.json'\n    source: 'src/{name}.json'\n", 3, "placeholder {name}"},
		{"unclosed placeholder", "files:\n  - translation: '{language.json'\n", 2, "'{' without its '}'"},
		{"single star", "files:\n  - translation: '{language}/*.json'\n", 2, `'*' that is not a folder's "**"`},
		{"leaves the tree", "files:\n  - translation: '../{language}.json'\n", 2, "relative to the tree's root"},
		{"absolute", "files:\n  - translation: '/etc/{language}.json'\n", 2, "relative to the tree's root"},
		{"source with a language", "files:\n  - translation: '{language}.json'\n    source: 'src/{locale}.json'\n", 3, "names a language"},
		{"no language", "files:\n  - translation: 'strings.json'\n    format: json\n", 2, "names no language"},
		{"no files", "project: acme/web\nfiles: []\n", 2, "no file groups"},
		{"project", "project: acme\nfiles:\n  - translation: '{language}.json'\n", 1, "not org/project"},
		{"key format", "keyFormat: dotted\nfiles:\n  - translation: '{language}.json'\n", 1, `keyFormat "dotted"`},
		{"group keys", "files:\n  - translation: '{language}.json'\n    keys: dotted\n", 3, `keys "dotted"`},
		{"two documents", "files:\n  - translation: '{language}.json'\n---\nfiles: []\n", 3, "more than one YAML document"},
		{"empty", "", 0, "empty"},
		{"control character", "project: acme/web\nfiles:\n  - translation: \"{language}\\r.json\"\n", 3, `"{language}\r.json" holds a control character`},
		{"spelling", "files:\n  - translation: '{language}.json'\n    languages: {'<<': de}\n", 3, `languages maps "<<" to "de"`},
		{"control character in a language", "files:\n  - translation: '{language}.json'\n    languages: {\"pt\\u0085\": pt-br}\n", 3, "control character"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			name := writeConfig(t, tt.data)
			_, err := ReadConfig(name, configFormats)
			var ie *InputError
			if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			p := ie.Problems[0]
			if !strings.Contains(p.Message, tt.want) || tt.line != 0 && p.Line != tt.line || p.File != filepath.ToSlash(name) {
				t.Errorf("problem = %+v, want line %d in %s saying %q", p, tt.line, name, tt.want)
			}
		})
	}
}

func TestReadConfigListsEveryProblem(t *testing.T) {
	name := writeConfig(t, "files:\n  - format: json\n  - translation: '{lang}.json'\n    format: xml\n")
	_, err := ReadConfig(name, configFormats)
	var ie *InputError
	if !errors.As(err, &ie) || len(ie.Problems) != 3 {
		t.Fatalf("err = %v, want 3 problems", err)
	}
}

func TestConfigMarshalRoundTrips(t *testing.T) {
	c := &Config{
		Project: "acme/web", CDN: "https://cdn.example.com/acme/web", SourceLanguage: "en-GB",
		FileStructure: translations.SingleFile, KeyFormat: translations.Nested,
		Files: []Group{
			{Translation: "app/src/main/res/values-{android}/strings.xml", Source: "app/src/main/res/values/strings.xml", Format: optionFormat{}},
			{Translation: "Sparkle/{language}.lproj/{namespace}.strings", Source: "Sparkle/Base.lproj/{namespace}.strings", DefaultName: "Localizable", Format: optionFormat{Rails: false}, Languages: map[string]string{"zh_CN": "zh-cn", "pt-PT": "pt"}},
			{Translation: "Localizables/**/{namespace}.catalog", Format: catalogFormat{}, DefaultName: "Localizable"},
			{Translation: "config/locales/{language}.yml", Namespace: "rails", Keys: translations.Flat},
			{Translation: "{language}.json"},
			{Translation: "{language}/{namespace}.json", Format: JSON{}},
		},
	}
	data, err := c.Marshal(configFormats)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, want := range []string{"# partner.yaml", "no secret", "commit it", `"partner init"`, "project: acme/web", "format: catalog"} {
		if !strings.Contains(text, want) {
			t.Errorf("partner.yaml lacks %q:\n%s", want, text)
		}
	}
	got, err := ReadConfig(writeConfig(t, text), configFormats)
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("read back (-marshalled +read):\n%s\n%s", diff, text)
	}
}

func TestConfigMarshalRefusesAnUnnamedFormat(t *testing.T) {
	for _, f := range []Format{optionFormat{Rails: true}, catalogFormat{}} {
		c := &Config{Project: "acme/web", Files: []Group{{Translation: "{language}.x", Format: f}}}
		if _, err := c.Marshal(map[string]Format{"option": optionFormat{}}); err == nil {
			t.Errorf("Marshal of %#v without its name: no error", f)
		}
	}
	c := &Config{Project: "acme/web", Files: []Group{{Source: "en.json"}}}
	if _, err := c.Marshal(configFormats); err == nil {
		t.Error("Marshal of a group without translation: no error")
	}
}

// FuzzReadConfig reads any bytes as partner.yaml: it never panics, and
// a config it accepts is written by Marshal and read back the same.
func FuzzReadConfig(f *testing.F) {
	f.Add([]byte("project: acme/web\nsourceLanguage: en\nfiles:\n  - translation: '{language}.json'\n"))
	f.Add([]byte("files:\n  - translation: res/values-{android}/{namespace}.xml\n    source: res/values/{namespace}.xml\n    format: option\n    defaultName: strings\n    languages: {zh-Hans: zh-cn}\n"))
	f.Add([]byte("files:\n  - translation: '**/{namespace}.catalog'\n    format: catalog\n---\n"))
	f.Add([]byte("a: &a [*a]\n"))
	f.Add([]byte("files: [{translation: '{x'}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig(data, configFormats)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("err = %v, want an *InputError", err)
			}
			return
		}
		out, err := c.Marshal(configFormats)
		if err != nil {
			t.Fatalf("Marshal of an accepted config: %v", err)
		}
		back, err := parseConfig(out, configFormats)
		if err != nil {
			t.Fatalf("read back: %v\n%s", err, out)
		}
		if diff := cmp.Diff(c, back); diff != "" {
			t.Fatalf("read back (-first +second):\n%s", diff)
		}
	})
}
