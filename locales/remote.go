package locales

import (
	"context"
	"iter"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// remote is what a sync needs of the service: a *partner.Client's tools.
// Tests put a prepared listing behind it.
type remote interface {
	project(ctx context.Context, project string) (*projectInfo, error)
	keyPages(ctx context.Context, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error]
	createKeys(ctx context.Context, project string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error)
	updateKeys(ctx context.Context, project string, us []keys.Update) (*keys.UpdateResult, error)
	setTranslations(ctx context.Context, project string, vs []translations.Values) (*translations.SetResult, error)
	deleteKeys(ctx context.Context, project string, ids []string) (*keys.DeleteResult, error)
	publishAndWait(ctx context.Context, project string) (*translations.PublishWaitResult, error)
}

// projectInfo is what a sync needs to know of a project.
type projectInfo struct {
	source     string   // the source language, as the service spells it
	targets    []string // the target languages
	namespaces []string
	layout     Layout
	cdn        cdnInfo
	// coverage is how many texts each target language has, by
	// languageKey (getProject's coverage); nil when not known.
	coverage map[string]int
}

// cdnInfo says where the project's published files are.
type cdnInfo struct {
	base    string // {cdn_url}/{org}/{project}
	pattern string // a URL with {locale} (and {namespace}) in it
}

// client is the remote of a *partner.Client.
type client struct{ c *partner.Client }

func (r client) keyPages(ctx context.Context, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error] {
	return r.c.Keys.Pages(ctx, project, opt)
}

func (r client) createKeys(ctx context.Context, project string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	return r.c.Keys.Create(ctx, project, ks, opt)
}

func (r client) updateKeys(ctx context.Context, project string, us []keys.Update) (*keys.UpdateResult, error) {
	return r.c.Keys.Update(ctx, project, us)
}

func (r client) setTranslations(ctx context.Context, project string, vs []translations.Values) (*translations.SetResult, error) {
	return r.c.Translations.Set(ctx, project, vs)
}

func (r client) deleteKeys(ctx context.Context, project string, ids []string) (*keys.DeleteResult, error) {
	return r.c.Keys.Delete(ctx, project, ids)
}

func (r client) publishAndWait(ctx context.Context, project string) (*translations.PublishWaitResult, error) {
	return r.c.Translations.PublishAndWait(ctx, project, translations.PublishOptions{})
}
