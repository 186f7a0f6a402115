package locales_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/google/go-cmp/cmp"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/partnertest"
)

// A pull from the CDN needs no client at all: with PullOptions.CDN, the
// source language and the key format, the CDN's manifest names the
// languages, the file structure and the namespaces, and the tree pulled
// is the one pushed and published, byte for byte, without a token.
func TestPullCDNWithoutClient(t *testing.T) {
	for _, layout := range layouts {
		t.Run(name(layout), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFake(t, partnertest.WithInMemoryNetwork())
				f.srv.SetProjectLayout(f.id, layout.Files, layout.Keys)
				dir := t.TempDir()
				if err := sample().Write(dir, layout); err != nil {
					t.Fatal(err)
				}
				f.push(t, dir, locales.PlanOptions{}, locales.ApplyOptions{Publish: true})
				cc, err := cdn.NewClient(f.srv.CDNURL, f.srv.Client())
				if err != nil {
					t.Fatal(err)
				}
				mark := f.mark()
				pulled, err := locales.Pull(context.Background(), nil, f.project, locales.PullOptions{
					CDN: cc, SourceLanguage: "en", Layout: locales.Layout{Keys: layout.Keys}})
				if err != nil {
					t.Fatal(err)
				}
				if pulled.Layout.Files != layout.Files || pulled.Layout.Keys != layout.Keys {
					t.Errorf("pulled layout %+v, want %+v", pulled.Layout, layout)
				}
				for _, r := range f.srv.Requests()[mark:] {
					if r.Host != partnertest.HostCDN || r.Token != partnertest.TokenNone {
						t.Errorf("request %s %s with a %s token, want only the CDN's without one", r.Host, r.Path, r.Token)
					}
				}
				out := t.TempDir()
				if err := pulled.Write(out, locales.Layout{}); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(loctest.ReadTree(t, dir), loctest.ReadTree(t, out)); diff != "" {
					t.Errorf("CDN tree differs (-pushed +pulled):\n%s", diff)
				}

				// Languages and Namespaces narrow the pull as they do from the API.
				pulled, err = locales.Pull(context.Background(), nil, f.project, locales.PullOptions{
					CDN: cc, SourceLanguage: "en", Layout: layout, Languages: []string{"de"}, Namespaces: []string{"default"}})
				if err != nil {
					t.Fatal(err)
				}
				for m := range pulled.All() {
					if m.Language != "de" || m.Namespace != "default" {
						t.Errorf("pulled %+v, want only de of namespace default", m)
					}
				}
			})
		})
	}
}

// Without a manifest the CDN pull falls back to the options, and says
// which one it needs when they are missing; it sends nothing it cannot
// use and never needs a client.
func TestPullCDNWithoutClientNeeds(t *testing.T) {
	f := newFake(t)
	cc, err := cdn.NewClient(f.srv.CDNURL, f.srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		opt  locales.PullOptions
		want string
	}{
		{locales.PullOptions{}, "PullOptions.CDN"},
		{locales.PullOptions{CDN: cc}, "PullOptions.SourceLanguage"},
		{locales.PullOptions{CDN: cc, SourceLanguage: "en"}, "PullOptions.Languages"},
		{locales.PullOptions{CDN: cc, SourceLanguage: "en", Languages: []string{"en", "de"}, Layout: locales.Layout{Files: "namespaced_folders"}}, "PullOptions.Namespaces"},
	} {
		_, err := locales.Pull(t.Context(), nil, f.project, tc.opt)
		if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Pull(%+v): %v, want ErrInvalidArgument naming %s", tc.opt, err, tc.want)
		}
	}
	// Nothing published: the languages given are pulled, and hold nothing.
	cat, err := locales.Pull(t.Context(), nil, f.project, locales.PullOptions{CDN: cc, SourceLanguage: "en", Languages: []string{"en", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	for m := range cat.All() {
		t.Errorf("pulled %+v of nothing published", m)
	}
}

// The CDN manifest's shape is not documented: one that is not JSON
// leaves the languages to the options, and the files are still read.
func TestPullCDNWithoutClientUnreadableManifest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/acme/web/manifest.json":
			io.WriteString(w, "<html>not a manifest</html>")
		case "/acme/web/de/translations.json":
			io.WriteString(w, `{"nav": {"home": "Startseite"}}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	cc, err := cdn.NewClient(srv.URL, srv.Client())
	if err != nil {
		t.Fatal(err)
	}
	cat, err := locales.Pull(t.Context(), nil, "acme/web", locales.PullOptions{CDN: cc, SourceLanguage: "en", Languages: []string{"en", "de"}})
	if err != nil {
		t.Fatal(err)
	}
	var got []locales.Message
	for m := range cat.All() {
		got = append(got, m)
	}
	want := []locales.Message{{Language: "de", Namespace: "default", Key: "nav.home", Text: "Startseite"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pulled (-want +got):\n%s", diff)
	}
}
