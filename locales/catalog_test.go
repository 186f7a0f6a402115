package locales_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/translations"
)

// Load detects the layout from the tree, and namespaces of a single
// file are read from their "ns:" prefix.
func TestLoadDetectsLayout(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  locales.Layout
	}{
		{"single nested", map[string]string{"en.json": `{"nav": {"home": "Home"}, "common:ok": "OK"}`}, locales.Layout{Files: translations.SingleFile, Keys: translations.Nested}},
		{"single flat", map[string]string{"en.json": `{"nav.home": "Home", "common:ok": "OK"}`}, locales.Layout{Files: translations.SingleFile, Keys: translations.Flat}},
		{"folders nested", map[string]string{"en/default.json": `{"nav": {"home": "Home"}}`, "en/common.json": `{"ok": "OK"}`, "README.md": "x"}, locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Nested}},
		{"folders flat", map[string]string{"en/default.json": `{"nav.home": "Home"}`, "en/common.json": `{"ok": "OK"}`, ".git/x.json": "{"}, locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Flat}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cat, err := locales.Load(loctest.Tree(t, tt.files), locales.Layout{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(cat.Layout, tt.want) {
				t.Errorf("layout %+v, want %+v", cat.Layout, tt.want)
			}
			var got []locales.Message
			for e := range cat.All() {
				got = append(got, e)
			}
			want := []locales.Message{{Language: "en", Namespace: "common", Key: "ok", Text: "OK"}, {Language: "en", Namespace: "default", Key: "nav.home", Text: "Home"}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("entries (-want +got):\n%s", diff)
			}
		})
	}
}

// Write keeps a language's spelling on disk, spells a new one by BCP 47,
// and leaves a file whose content would not change untouched.
func TestWriteSpellingAndStability(t *testing.T) {
	dir := loctest.Tree(t, map[string]string{"PT-br.json": "{}\n"})
	cat := &locales.Catalog{}
	cat.Set("pt-br", "", "a", "x")
	cat.Set("zh-hant-tw", "", "a", "y")
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	got := loctest.ReadTree(t, dir)
	want := map[string]string{"PT-br.json": "{\n  \"a\": \"x\"\n}\n", "zh-Hant-TW.json": "{\n  \"a\": \"y\"\n}\n"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	old := time.Now().Add(-time.Hour)
	name := filepath.Join(dir, "PT-br.json")
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	if err := cat.Write(dir, locales.Layout{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(name); err != nil || !fi.ModTime().Equal(old) {
		t.Errorf("an unchanged file was written again (%v)", err)
	}
}

// What a layout cannot hold is refused before any file is written.
func TestWriteRefusesWhatTheLayoutCannotHold(t *testing.T) {
	cat := &locales.Catalog{}
	cat.Set("en", "", "ok", "OK")
	cat.Set("de", "", "a", "x")
	cat.Set("de", "", "a.b", "y")
	dir := t.TempDir()
	if err := cat.Write(dir, locales.Layout{Keys: translations.Nested}); err == nil {
		t.Fatal("a text that is a parent written nested")
	}
	cat2 := &locales.Catalog{}
	cat2.Set("en", "", "ok", "OK")
	cat2.Set("en", "default", "err:x", "y")
	if err := cat2.Write(dir, locales.Layout{Files: translations.SingleFile}); err == nil {
		t.Fatal(`a default-namespace key "err:x" written in a single file`)
	}
	if got := loctest.ReadTree(t, dir); len(got) != 0 {
		t.Errorf("files written: %v", got)
	}
	if err := cat2.Write(dir, locales.Layout{Files: translations.NamespacedFolders}); err != nil {
		t.Errorf("namespaced folders: %v", err)
	}
}

// A tree laid out in one file structure is not written over in the other:
// a pull in the project's single files into a tree of namespaced folders
// would leave a second tree beside the first. Nothing is written.
func TestWriteRefusesATreeOfTheOtherStructure(t *testing.T) {
	cat := &locales.Catalog{}
	cat.Set("en", "", "a", "A")
	for _, tc := range []struct {
		name  string
		files map[string]string
		write translations.FileStructure
		named string
	}{
		{"single files into folders", map[string]string{"en/common.json": "{}\n"}, translations.SingleFile, "en/common.json"},
		{"folders into single files", map[string]string{"en.json": "{}\n"}, translations.NamespacedFolders, "en.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := loctest.Tree(t, tc.files)
			err := cat.Write(dir, locales.Layout{Files: tc.write})
			var ie *locales.InputError
			if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].File != tc.named {
				t.Fatalf("Write: %v, want one problem naming %s", err, tc.named)
			}
			if diff := cmp.Diff(tc.files, loctest.ReadTree(t, dir)); diff != "" {
				t.Errorf("the tree changed (-before +after):\n%s", diff)
			}
		})
	}
}

// A key that is a text in one language and a parent in another (a
// target file that went its own way, as Blacklight's de.yml has
// "missing" as a list where en has a text) is no conflict: keys come
// from the source language, and the target's key is skipped by a plan.
func TestLoadTextAndParentInTwoLanguages(t *testing.T) {
	cat, err := locales.Load(loctest.Tree(t, map[string]string{
		"en.json": `{"search": {"missing": "[Missing]"}}`,
		"de.json": `{"search": {"missing": {"0": "fehlt"}}}`,
	}), locales.Layout{})
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := cat.Text("de", "", "search.missing.0"); !ok || got != "fehlt" {
		t.Errorf("de search.missing.0 = %q, %v", got, ok)
	}
}
