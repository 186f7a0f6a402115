package cdn_test

import (
	"bytes"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/translations"
)

// FuzzParseManifest: any body is read without panic; an accepted one is
// kept as sent, and every file is listed under a language.
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{`{"files": {"de": ["de/a.json"]}}`, `{"files": ["de/a.json", "x"]}`, `{"files": {"de": "de/a.json"}}`, `{}`, `[]`, `null`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := cdn.ParseManifest(b)
		if err != nil {
			return
		}
		if !bytes.Equal(m.Raw, b) {
			t.Errorf("Raw %q, want the body %q", m.Raw, b)
		}
		if _, ok := m.Files[""]; ok {
			t.Errorf("files listed under no language: %q", m.Files[""])
		}
	})
}

// sink answers 404 to every request and keeps the last URL asked for.
type sink struct{ last *url.URL }

func (s *sink) RoundTrip(r *http.Request) (*http.Response, error) {
	s.last = r.URL
	return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Request: r}, nil
}

// FuzzFileNames: a language and namespace File accepts each stay one
// path segment of the URL it asks for.
func FuzzFileNames(f *testing.F) {
	for _, s := range [][2]string{{"de", "common"}, {"..", "x"}, {"de", "a/b"}, {"pt-BR", "ns?x#y"}, {"de%2F..", "%2e%2e"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, lang, ns string) {
		rt := &sink{}
		c, err := cdn.NewClient("https://cdn.example.test/base", &http.Client{Transport: rt})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.File(t.Context(), "acme/web", translations.NamespacedFolders, lang, ns); rt.last == nil {
			return // refused before any request
		} else if err == nil {
			t.Fatal("a 404 was not an error")
		}
		parts := strings.Split(rt.last.EscapedPath(), "/")
		want := []string{"", "base", "acme", "web", lang, ns + ".json"}
		if len(parts) != len(want) {
			t.Fatalf("language %q, namespace %q asked for %s", lang, ns, rt.last.EscapedPath())
		}
		for i, p := range parts {
			if u, err := url.PathUnescape(p); err != nil || u != want[i] {
				t.Errorf("segment %d is %q, want %q", i, p, want[i])
			}
		}
		if rt.last.Host != "cdn.example.test" || rt.last.RawQuery != "" || rt.last.Fragment != "" {
			t.Errorf("asked for %s", rt.last)
		}
	})
}
