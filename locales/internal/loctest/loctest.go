// Package loctest holds the test helpers package locales' tests and
// those of the module locales/formats share: a fake service with a
// project, and locale trees on disk. It is for tests only.
package loctest

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
)

// Fake is a partnertest server with a project and a client of a grant
// that can use it.
type Fake struct {
	Srv     *partnertest.Server
	C       *partner.Client
	Project string // "org/web"
	ID      string // the project's id
}

// NewFake starts a fake service with project "web" (source en, targets
// de, fr and pt-BR) and a client for it. opts go to partnertest. Both
// are closed when t ends.
func NewFake(t testing.TB, opts ...partnertest.Option) *Fake {
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
	return &Fake{Srv: srv, C: c, Project: g.Organizations[0].Slug + "/web", ID: p.ID}
}

// Tree writes files (path -> content) under a new directory.
func Tree(t testing.TB, files map[string]string) string {
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

// ReadTree returns the regular files under dir, path -> content,
// passing over links.
func ReadTree(t testing.TB, dir string) map[string]string {
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
