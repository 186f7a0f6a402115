package locales_test

import (
	"context"
	"encoding/json"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"go.uber.org/goleak"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/partnertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// fake is a partnertest server with a project and a client of a grant
// that can use it.
type fake struct {
	srv     *partnertest.Server
	c       *partner.Client
	project string // "org/web"
	id      string // the project's id
}

// newFake starts a fake service with project "web" (source en, targets
// de, fr and pt-BR) and a client for it. opts go to partnertest.
func newFake(t testing.TB, opts ...partnertest.Option) *fake {
	t.Helper()
	srv := partnertest.NewServer(opts...)
	t.Cleanup(srv.Close)
	g := srv.NewGrant()
	p := srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de"}, {Code: "fr"}, {Code: "pt-br"}}})
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		HTTPClient: srv.Client(), Pacing: partner.Pacing{Off: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &fake{srv: srv, c: c, project: g.Organizations[0].Slug + "/web", id: p.ID}
}

// writes returns the write tool calls the fake served since the request
// log was at mark.
func (f *fake) writes(mark int) []string {
	var out []string
	for _, r := range f.srv.Requests()[mark:] {
		switch r.Tool {
		case "createKeys", "updateKeys", "setTranslations", "deleteKeys", "publishTranslations":
			out = append(out, r.Tool)
		}
	}
	return out
}

// tools returns every tool call since mark.
func (f *fake) tools(mark int) []string {
	var out []string
	for _, r := range f.srv.Requests()[mark:] {
		if r.Tool != "" {
			out = append(out, r.Tool)
		}
	}
	return out
}

func (f *fake) mark() int { return len(f.srv.Requests()) }

// tree writes files (path -> content) under a new directory.
func tree(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readTree returns the regular files under dir, path -> content, passing
// over links.
func readTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

var _ = slices.Sort[[]string]
var _ = context.Background

type (
	keysNewKey        = keys.NewKey
	keysCreateOptions = keys.CreateOptions
)

// renamed is the JSON format under another extension, for tests about
// trees whose files are not JSON (the formats are in locales/formats).
type renamed struct {
	locales.JSON
	ext string
}

func (r renamed) Ext() string { return r.ext }

// allLanguages is a format whose files hold every language of a
// namespace, as Apple's string catalogs (locales/formats.XCStrings) do.
type allLanguages struct{}

func (allLanguages) Ext() string         { return ".xcstrings" }
func (allLanguages) DefaultName() string { return "Localizable" }

type allLanguagesFile struct {
	Source   string
	Messages []locales.Message
}

func (allLanguages) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	var f allLanguagesFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, locales.File{}, &locales.InputError{Problems: []locales.Problem{{Message: err.Error()}}}
	}
	return f.Messages, locales.File{SourceLanguage: f.Source, Keys: translations.Flat}, nil
}

func (allLanguages) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	return json.Marshal(allLanguagesFile{Source: f.SourceLanguage, Messages: msgs})
}

func entries(cat *locales.Catalog) []locales.Message { return slices.Collect(cat.All()) }
