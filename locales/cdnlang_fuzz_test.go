package locales

import (
	"testing"

	"github.com/locsvc/partner-go/cdn"
)

// FuzzCDNLanguages: whatever manifest the CDN sends, reading its paths
// never panics, and what it reads is one path segment per language and
// file name, or nothing (a manifest of a shape this version does not
// know), never a path that leads elsewhere.
func FuzzCDNLanguages(f *testing.F) {
	f.Add(`{"files": {"en": ["en/translations.json"], "pt-br": ["pt-br/common.json", "pt-br/default.json"]}}`)
	f.Add(`{"files": ["de/translations.json", "../x/y.json"]}`)
	f.Add(`{"files": {"de": "de.json"}}`)
	f.Add(`{"files": ["../translations.json"]}`)
	f.Fuzz(func(t *testing.T, s string) {
		m, err := cdn.ParseManifest([]byte(s))
		if err != nil {
			return
		}
		for key, l := range cdnLanguages(m) {
			if key != cdnKey(l.spelled) || checkSegment(l.spelled) != "" || len(l.files) == 0 {
				t.Fatalf("language %q read as %+v", key, l)
			}
			for name := range l.files {
				if checkSegment(name) != "" {
					t.Fatalf("file %q of %q", name, l.spelled)
				}
			}
		}
	})
}
