package locales_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"go.uber.org/goleak"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/loctest"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
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
// de, fr and pt-BR) and a client for it (see loctest.NewFake).
func newFake(t testing.TB, opts ...partnertest.Option) *fake {
	t.Helper()
	l := loctest.NewFake(t, opts...)
	return &fake{srv: l.Srv, c: l.C, project: l.Project, id: l.ID}
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
