//go:build unix

package locales_test

import (
	"github.com/locsvc/partner-go/translations"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
)

// Item 2: a named pipe in the tree is refused without being opened, so
// Load does not block on it.
func TestLoadRefusesNamedPipes(t *testing.T) {
	for _, layout := range []locales.Layout{{}, {Files: translations.NamespacedFolders}, {Format: allLanguages{}}} {
		dir := loctest.Tree(t, map[string]string{"fr/keep.txt": ""})
		name := "en.json"
		switch {
		case layout.Files == translations.NamespacedFolders:
			name = "fr/common.json"
		case layout.Format != nil:
			name = "Localizable.xcstrings"
		}
		if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(name)), 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
		loadRefused(t, dir, layout, name, "", "not a regular file")
	}
}
