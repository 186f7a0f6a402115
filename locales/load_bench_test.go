package locales_test

import (
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"
	"testing"

	"github.com/locsvc/partner-go/locales"
)

// BenchmarkLoad loads a tree of 20 languages by 10 namespaces of 200
// nested keys each (40,000 texts in 200 files). The baseline reads the
// same files with os.ReadFile and nothing else: Load's cost over the
// floor reads from one run.
func BenchmarkLoad(b *testing.B) {
	cat := &locales.Catalog{}
	for l := range 20 {
		for n := range 10 {
			for k := range 200 {
				cat.Set(fmt.Sprintf("l%02d", l), fmt.Sprintf("ns%d", n), fmt.Sprintf("screen%d.item%d", k/10, k), fmt.Sprintf("Text %d of namespace %d", k, n))
			}
		}
	}
	dir := b.TempDir()
	layout := locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Nested}
	if err := cat.Write(dir, layout); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil || len(files) != 200 {
		b.Fatalf("%d files, %v", len(files), err)
	}
	b.Run("baseline=ReadFile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				if _, err := os.ReadFile(f); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := locales.Load(dir, layout); err != nil {
				b.Fatal(err)
			}
		}
	})
}
