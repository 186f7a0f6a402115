package locales_test

import (
	"errors"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// link makes a symbolic link at name (under dir) to target, or skips
// the test where links cannot be made.
func link(t *testing.T, dir, name, target string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

// loadRefused loads the tree under dir and checks that Load refuses it
// as an *InputError naming file, that the error does not hold secret,
// and that it mentions want.
func loadRefused(t *testing.T, dir string, layout locales.Layout, file, secret, want string) {
	t.Helper()
	cat, err := locales.Load(dir, layout)
	var ie *locales.InputError
	if !errors.As(err, &ie) {
		var got []locales.Message
		if cat != nil {
			got = entries(cat)
		}
		t.Fatalf("Load: %v (read %v), want an *InputError", err, got)
	}
	named := false
	for _, p := range ie.Problems {
		named = named || p.File == file
	}
	if !named {
		t.Errorf("Load: %v, want a problem of file %s", err, file)
	}
	if secret != "" && strings.Contains(err.Error(), secret) {
		t.Errorf("Load: %v, shows the linked file's content", err)
	}
	if !strings.Contains(err.Error(), want) {
		t.Errorf("Load: %v, want it to say %q", err, want)
	}
}

// Item 2: Load reads regular files inside the tree only; a locale file
// that is a link is refused, naming it, and its target is not read.
func TestLoadRefusesLinkedFiles(t *testing.T) {
	const secret = "PARTNER_CLIENT_SECRET=hunter2"
	tests := []struct {
		name   string
		layout locales.Layout
		file   string // the link, under the tree
		target string // relative to the tree; outside holds the secret files
	}{
		{"JSON file to credentials outside", locales.Layout{}, "en.json", "../outside/credentials.json"},
		{"JSON file in a folder to credentials outside", locales.Layout{Files: translations.NamespacedFolders}, "en/common.json", "../../outside/credentials.json"},
		{"PO file to an environment outside", locales.Layout{Format: renamed{ext: ".po"}}, "en.po", "../outside/environ"},
		{"string catalog to credentials outside", locales.Layout{Format: allLanguages{}}, "Localizable.xcstrings", "../outside/credentials.json"},
		{"JSON file to another file of the tree", locales.Layout{}, "de.json", "en.json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := loctest.Tree(t, map[string]string{
				"outside/credentials.json": `{"client_secret": "` + secret + `"}`,
				"outside/environ":          secret + "\x00HOME=/root\x00",
			})
			dir := filepath.Join(base, "locales")
			if tt.file == "de.json" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "en.json"), []byte(`{"a": "A"}`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			link(t, dir, tt.file, tt.target)
			loadRefused(t, dir, tt.layout, tt.file, "hunter2", "is a link")
		})
	}
}

// Item 8 (part): a locale file larger than 64 MiB is refused, naming
// it, before it is read.
func TestLoadRefusesFilesOver64MiB(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "en.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(64<<20 + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	loadRefused(t, dir, locales.Layout{}, "en.json", "", "larger than 64 MiB")
}

// Item 3: Write does not write through a linked folder, inside the
// tree or out, nor over a linked file, and writes nothing when one is
// in the way.
func TestWriteRefusesLinks(t *testing.T) {
	cat := catalogOf("en", entry{"en", "ci", "on", "push"}, entry{"de", "ci", "on", "push"})
	tests := []struct {
		name   string
		layout locales.Layout
		file   string // the link, under the tree
		target string
		want   string
	}{
		{"folder to .github/workflows", foldersNest, "de", "../.github/workflows", `de is a link`},
		{"folder to another language's", foldersNest, "de", "fr", `de is a link`},
		{"file to a file outside", foldersNest, "de/ci.json", "../../outside.json", "is a link"},
		{"PO file to a file outside", locales.Layout{Format: renamed{ext: ".po"}}, "de.po", "../outside.po", "is a link"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := loctest.Tree(t, map[string]string{
				".github/workflows/keep.yml": "on: push\n",
				"outside.json":               "{}\n",
				"outside.po":                 "msgid \"secret\"\nmsgstr \"hunter2\"\n",
				"locales/fr/keep.json":       "{}\n",
			})
			dir := filepath.Join(base, "locales")
			link(t, dir, tt.file, tt.target)
			before := loctest.ReadTree(t, base)
			err := cat.Write(dir, tt.layout)
			var ie *locales.InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Write: %v, want an *InputError saying %q", err, tt.want)
			}
			after := loctest.ReadTree(t, base)
			for name, data := range after {
				if before[name] != data {
					t.Errorf("Write wrote %s", name)
				}
			}
			for name := range before {
				if _, ok := after[name]; !ok {
					t.Errorf("Write removed %s", name)
				}
			}
		})
	}
}
