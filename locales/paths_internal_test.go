package locales

import (
	"errors"
	"github.com/locsvc/partner-go/translations"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
)

// The builder refuses each segment that could leave the tree or name
// another file on some system, and joins the rest.
func TestTreePath(t *testing.T) {
	tests := []struct {
		parts []pathPart
		want  string // "" when refused
	}{
		{[]pathPart{segment("de"), segment("common.json")}, "de/common.json"},
		{[]pathPart{segment("Écran d'accueil.json")}, "Écran d'accueil.json"},
		{[]pathPart{folders("app/screens"), segment("de.json")}, "app/screens/de.json"},
		{[]pathPart{segment("app/screens")}, ""},
		{[]pathPart{folders("app/../x")}, ""},
		{[]pathPart{folders("app//x")}, ""},
		{[]pathPart{folders("/etc")}, ""},
		{[]pathPart{segment("..")}, ""},
		{[]pathPart{segment(".")}, ""},
		{[]pathPart{segment("")}, ""},
		{[]pathPart{segment(`..\x`)}, ""},
		{[]pathPart{segment("a\x00b")}, ""},
		{[]pathPart{segment("a\x1bb")}, ""},
		{[]pathPart{segment("a\u009bb")}, ""},
		{[]pathPart{segment("a\x7fb")}, ""},
		{[]pathPart{segment("\xff")}, ""},
		{[]pathPart{segment("C:x")}, ""},
		{[]pathPart{segment("a?")}, ""},
		{[]pathPart{segment("x.")}, ""},
		{[]pathPart{segment("x ")}, ""},
		{[]pathPart{segment("aux")}, ""},
		{[]pathPart{segment("Com1.json")}, ""},
		{[]pathPart{segment("lpt²")}, ""},
		{[]pathPart{segment("CONIN$")}, ""},
		{[]pathPart{segment("nul .json")}, ""},
		{[]pathPart{segment("com10.json")}, "com10.json"},
		{[]pathPart{segment("console.json")}, "console.json"},
		{[]pathPart{segment(strings.Repeat("a", 256))}, ""},
	}
	for _, tt := range tests {
		got, err := treePath(tt.parts...)
		if got != tt.want || (err == nil) != (tt.want != "") {
			t.Errorf("treePath(%+v) = %q, %v; want %q", tt.parts, got, err, tt.want)
		}
	}
}

// localOnEverySystem reports whether p, a path relative to a root, names
// a file under the root on Linux, macOS and Windows alike.
func localOnEverySystem(p string) bool {
	if p == "" || !filepath.IsLocal(p) || path.Clean(p) != p || strings.ContainsAny(p, "\\:\x00") {
		return false
	}
	for _, s := range strings.Split(p, "/") {
		if s == "." || s == ".." || s == "" || reservedName(s) {
			return false
		}
	}
	root := filepath.FromSlash("/root")
	return strings.HasPrefix(filepath.Join(root, filepath.FromSlash(p)), root+string(filepath.Separator))
}

// FuzzPathBuilder checks that no name, from the service or a file, gives
// a path outside the tree: every path the builder and the layouts return
// is local on every system.
func FuzzPathBuilder(f *testing.F) {
	for _, s := range []string{"common", "de", "pt-BR", "../../escaped", "..", "a\x00/../../../x", `..\..\x`, "./common", "a/b", "a:b", "CON", "nul.txt", "x.", ".hidden", "Écran", "cafe\u0301"} {
		f.Add(s, s)
	}
	f.Fuzz(func(t *testing.T, lang, ns string) {
		check := func(what string, p string, err error) {
			if err == nil && !localOnEverySystem(p) {
				t.Fatalf("%s(%q, %q) = %q, which is not local on every system", what, lang, ns, p)
			}
		}
		p, err := treePath(segment(lang), folders(ns))
		check("treePath", p, err)
		p, err = treePath(folders(lang), segment(ns))
		check("treePath", p, err)
		for _, l := range []Layout{{Files: translations.SingleFile}, {Files: translations.NamespacedFolders}} {
			p, err = l.filePath(lang, ns, ".json")
			check(string(l.Files), p, err)
		}
		p, err = multilingualPath(".xcstrings", "Localizable", ns)
		check("multilingualPath", p, err)
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Item 1, the CDN: a language or namespace of the project that is not
// one path segment ("../../other/x") is refused before any file is
// fetched, so the CDN's {locale} and {namespace} never lead elsewhere.
func TestPullCDNRefusesNamesThatLeaveThePath(t *testing.T) {
	for _, info := range []projectInfo{
		{source: "en", targets: []string{"../../other-project/de"}, layout: Layout{Files: translations.SingleFile}},
		{source: "en", namespaces: []string{"common", "../../other-project/en/x"}, layout: Layout{Files: translations.NamespacedFolders}},
		{source: "en", namespaces: []string{"a\x00b"}, layout: Layout{Files: translations.NamespacedFolders}},
	} {
		info.cdn = cdnInfo{base: "https://cdn.test/org/web", pattern: "https://cdn.test/org/web/{locale}/{namespace}.json"}
		if info.layout.Files == translations.SingleFile {
			info.cdn.pattern = "https://cdn.test/org/web/{locale}/translations.json"
		}
		var fetched []string
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			fetched = append(fetched, r.URL.String())
			return &http.Response{StatusCode: http.StatusNotFound, Body: http.NoBody, Request: r}, nil
		})}
		err := pullCDN(t.Context(), &Catalog{}, &info, func(string) bool { return true }, PullOptions{HTTPClient: hc})
		if !errors.Is(err, partner.ErrUnexpectedResponse) {
			t.Errorf("%+v: pullCDN: %v, want ErrUnexpectedResponse", info, err)
		}
		if len(fetched) > 0 {
			t.Errorf("%+v: fetched %q", info, fetched)
		}
	}
}
