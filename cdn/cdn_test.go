package cdn_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// published returns a fake service whose project acme/web has published
// "nav.home" (en "Home", de "Startseite") in namespace common and
// "title" (en "Shop") in default, laid out as structure, and that
// project's id.
func published(t *testing.T, structure translations.FileStructure) *partnertest.Server {
	t.Helper()
	srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
	t.Cleanup(srv.Close)
	g := srv.NewGrant(partnertest.WithOrganizations(srv.AddOrganization("acme", "Acme")))
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de", Name: "German"}}})
	srv.SetProjectLayout(p.ID, structure, translations.Nested)
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL, HTTPClient: srv.Client(),
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := t.Context()
	if _, err := c.Keys.Create(ctx, "acme/web", []keys.NewKey{
		{Name: "nav.home", Namespace: "common", SourceText: "Home", Translations: map[string]string{"de": "Startseite"}},
		{Name: "title", SourceText: "Shop"},
	}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Translations.Publish(ctx, "acme/web", translations.PublishOptions{}); err != nil {
		t.Fatal(err)
	}
	srv.Advance(partnertest.SyncPendingTime + partnertest.SyncRunTime)
	return srv
}

func newClient(t *testing.T, srv *partnertest.Server) *cdn.Client {
	t.Helper()
	c, err := cdn.NewClient(srv.CDNURL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, g); diff != "" {
		t.Errorf("file (-want +got):\n%s", diff)
	}
}

// TestFilesAsTheServiceLaysThemOut: File reads each layout's files, and
// a file nothing was published to is ErrNotFound.
func TestFilesAsTheServiceLaysThemOut(t *testing.T) {
	ctx := t.Context()
	t.Run("single_file", func(t *testing.T) {
		c := newClient(t, published(t, translations.SingleFile))
		b, err := c.File(ctx, "acme/web", translations.SingleFile, "en", "")
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, b, `{"title": "Shop", "common:nav": {"home": "Home"}}`)
		b, err = c.File(ctx, "acme/web", "", "de", "")
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, b, `{"common:nav": {"home": "Startseite"}}`)
		if _, err := c.File(ctx, "acme/web", "", "fr", ""); !errors.Is(err, cdn.ErrNotFound) {
			t.Errorf("a language never published: %v, want ErrNotFound", err)
		}
	})
	t.Run("namespaced_folders", func(t *testing.T) {
		c := newClient(t, published(t, translations.NamespacedFolders))
		b, err := c.File(ctx, "acme/web", translations.NamespacedFolders, "de", "common")
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, b, `{"nav": {"home": "Startseite"}}`)
		b, err = c.File(ctx, "acme/web", translations.NamespacedFolders, "en", "default")
		if err != nil {
			t.Fatal(err)
		}
		jsonEqual(t, b, `{"title": "Shop"}`)
		if _, err := c.File(ctx, "acme/web", translations.NamespacedFolders, "de", "default"); !errors.Is(err, cdn.ErrNotFound) {
			t.Errorf("a namespace with nothing in de: %v, want ErrNotFound", err)
		}
	})
}

func TestManifest(t *testing.T) {
	srv := published(t, translations.NamespacedFolders)
	m, err := newClient(t, srv).Manifest(t.Context(), "acme/web")
	if err != nil {
		t.Fatal(err)
	}
	for _, files := range m.Files {
		slices.Sort(files)
	}
	want := map[string][]string{"en": {"en/common.json", "en/default.json"}, "de": {"de/common.json"}}
	if diff := cmp.Diff(want, m.Files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if !json.Valid(m.Raw) {
		t.Errorf("Raw %q is not the manifest", m.Raw)
	}
}

// TestParseManifestTolerates: the manifest's shape is not documented, so
// a files list, a path per language and members it does not know are
// read; only a body that is not a JSON object fails.
func TestParseManifestTolerates(t *testing.T) {
	for _, tc := range []struct {
		body string
		want map[string][]string
	}{
		{`{"files": {"de": ["de/a.json", "de/b.json"]}, "version": 3}`, map[string][]string{"de": {"de/a.json", "de/b.json"}}},
		{`{"files": {"de": "de/translations.json", "x": 1}}`, map[string][]string{"de": {"de/translations.json"}}},
		{`{"files": ["de/translations.json", "fr/translations.json", "manifest.json"]}`, map[string][]string{"de": {"de/translations.json"}, "fr": {"fr/translations.json"}}},
		{`{"languages": ["de"]}`, nil},
		{`{"files": null}`, nil},
	} {
		m, err := cdn.ParseManifest([]byte(tc.body))
		if err != nil {
			t.Errorf("%s: %v", tc.body, err)
			continue
		}
		if diff := cmp.Diff(tc.want, m.Files); diff != "" {
			t.Errorf("%s: files (-want +got):\n%s", tc.body, diff)
		}
	}
	for _, body := range []string{``, `null`, `[]`, `"x"`, `{"files":`} {
		if _, err := cdn.ParseManifest([]byte(body)); !errors.Is(err, partner.ErrUnexpectedResponse) {
			t.Errorf("%q: %v, want ErrUnexpectedResponse", body, err)
		}
	}
}

// TestNamesMustBePathSegments: a name that would leave its place in the
// path is refused before any request.
func TestNamesMustBePathSegments(t *testing.T) {
	srv := partnertest.NewServer(partnertest.WithInMemoryNetwork())
	defer srv.Close()
	c := newClient(t, srv)
	ctx := t.Context()
	bad := []string{"", ".", "..", "a/b", `a\b`, "de\n", "de\x00", "\x7f", "de\u0085", "\xff"}
	for _, s := range bad {
		for what, call := range map[string]func() error{
			"language":  func() error { _, err := c.File(ctx, "acme/web", "", s, ""); return err },
			"namespace": func() error { _, err := c.File(ctx, "acme/web", translations.NamespacedFolders, "de", s); return err },
			"org":       func() error { _, err := c.Manifest(ctx, s+"/web"); return err },
			"project":   func() error { _, err := c.Manifest(ctx, "acme/"+s); return err },
		} {
			if err := call(); !errors.Is(err, partner.ErrInvalidArgument) {
				t.Errorf("%s %q: %v, want ErrInvalidArgument", what, s, err)
			}
		}
	}
	if _, err := c.File(ctx, "acme/web", translations.SingleFile, "de", "common"); !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("a namespace with single_file: %v, want ErrInvalidArgument", err)
	}
	if _, err := c.File(ctx, "acme/web", "flat", "de", ""); !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("an unknown structure: %v, want ErrInvalidArgument", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	for _, u := range []string{"", "cdn.example.com", "ftp://cdn.example.com", "https://user:pw@cdn.example.com", "https://cdn.example.com?x=1", "https://"} {
		if _, err := cdn.NewClient(u, nil); !errors.Is(err, partner.ErrInvalidArgument) {
			t.Errorf("NewClient(%q): %v, want ErrInvalidArgument", u, err)
		}
	}
}

// TestRedirectsStayOnTheHost: a redirect to the CDN's own host is
// followed, one to another host is refused; no request carries a token.
func TestRedirectsStayOnTheHost(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the other host got %s", r.URL)
	}))
	defer other.Close()
	var auth []string
	cdnSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		switch r.URL.Path {
		case "/acme/web/de/translations.json":
			http.Redirect(w, r, "/v2/acme/web/de/translations.json", http.StatusFound)
		case "/v2/acme/web/de/translations.json":
			io.WriteString(w, `{"a": "b"}`)
		case "/acme/web/fr/translations.json":
			http.Redirect(w, r, other.URL+"/fr.json", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	defer cdnSrv.Close()
	c, err := cdn.NewClient(cdnSrv.URL, cdnSrv.Client())
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.File(t.Context(), "acme/web", "", "de", ""); err != nil || string(b) != `{"a": "b"}` {
		t.Errorf("same-host redirect: %q, %v", b, err)
	}
	_, err = c.File(t.Context(), "acme/web", "", "fr", "")
	if !errors.Is(err, partner.ErrUnexpectedResponse) || errors.Is(err, partner.ErrTemporary) {
		t.Errorf("redirect to another host: %v, want ErrUnexpectedResponse, not temporary", err)
	}
	for _, a := range auth {
		if a != "" {
			t.Errorf("a request carried Authorization %q", a)
		}
	}
}

// TestRedirectToTheHostSpelledOtherwiseIsFollowed: a host name is not case
// sensitive, so a redirect to the base URL's host in other letter case
// stays on the host and is followed.
func TestRedirectToTheHostSpelledOtherwiseIsFollowed(t *testing.T) {
	hc := &http.Client{Transport: answers{
		"/acme/web/de/translations.json": func() *http.Response {
			return &http.Response{StatusCode: http.StatusFound, Header: http.Header{"Location": {"http://cdn.example/v2/acme/web/de/translations.json"}}, Body: http.NoBody}
		},
		"/v2/acme/web/de/translations.json": func() *http.Response {
			return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(strings.NewReader(`{"a": "b"}`))}
		},
	}}
	c, err := cdn.NewClient("http://CDN.example", hc)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := c.File(t.Context(), "acme/web", "", "de", ""); err != nil || string(b) != `{"a": "b"}` {
		t.Errorf("redirect to the host in lower case: %q, %v", b, err)
	}
}

// answers is a transport that answers each path with a response.
type answers map[string]func() *http.Response

func (a answers) RoundTrip(r *http.Request) (*http.Response, error) {
	resp := a[r.URL.Path]()
	resp.Request = r
	return resp, nil
}

func status(code int) func() *http.Response {
	return func() *http.Response { return &http.Response{StatusCode: code, Body: http.NoBody} }
}

// TestBodiesAreCapped: a file over MaxFileBytes is refused, whether its
// length is announced or not; 5xx and 429 are temporary.
func TestBodiesAreCapped(t *testing.T) {
	long := strings.Repeat(" ", cdn.MaxFileBytes+1)
	c, err := cdn.NewClient("https://cdn.example.test", &http.Client{Transport: answers{
		"/acme/web/de/translations.json": func() *http.Response { // length not announced
			return &http.Response{StatusCode: 200, ContentLength: -1, Body: io.NopCloser(strings.NewReader(long))}
		},
		"/acme/web/fr/translations.json": func() *http.Response {
			return &http.Response{StatusCode: 200, ContentLength: cdn.MaxFileBytes + 1, Body: http.NoBody}
		},
		"/acme/web/it/translations.json": status(http.StatusServiceUnavailable),
		"/acme/web/ja/translations.json": status(http.StatusTooManyRequests),
		"/acme/web/pt/translations.json": status(http.StatusForbidden),
	}})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]error{"de": partner.ErrUnexpectedResponse, "fr": partner.ErrUnexpectedResponse,
		"it": partner.ErrTemporary, "ja": partner.ErrTemporary, "pt": partner.ErrUnexpectedResponse} {
		if _, err := c.File(t.Context(), "acme/web", "", lang, ""); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", lang, err, want)
		}
	}
}
