package main

import (
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/translations"
)

// The JSON of push --dry-run --json and push --json, as the README
// documents it ("Output and exit codes"): locales speaks the SDK's types
// (keys.NewKey, keys.KeyRef, translations.PublishWaitResult), whose
// fields are not these, so the command keeps the documented shape here.

type planView struct {
	Project        string           `json:"project"`
	SourceLanguage string           `json:"sourceLanguage"`
	Languages      []string         `json:"languages"`
	Namespaces     []string         `json:"namespaces"`
	Create         []newKeyView     `json:"create,omitempty"`
	Update         []locales.Change `json:"update,omitempty"`
	Delete         []keyRefView     `json:"delete,omitempty"`
	Skipped        []locales.Item   `json:"skipped,omitempty"`
	Counts         []locales.Count  `json:"counts"`
	Listed         int              `json:"listed"`
	// AddLanguages are the languages push --add-languages would add.
	AddLanguages []string `json:"addLanguages,omitempty"`
}

type newKeyView struct {
	Namespace    string            `json:"namespace"`
	Key          string            `json:"key"`
	Source       string            `json:"source"`
	Translations map[string]string `json:"translations,omitempty"`
}

type keyRefView struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	ID        string `json:"id,omitempty"`
}

func planJSON(p *locales.Plan) planView {
	v := planView{Project: p.Project, SourceLanguage: p.SourceLanguage, Languages: p.Languages, Namespaces: p.Namespaces,
		Update: p.Update, Skipped: p.Skipped, Counts: p.Counts, Listed: p.Listed}
	for _, k := range p.Create {
		v.Create = append(v.Create, newKeyView{k.Namespace, k.Name, k.SourceText, k.Translations})
	}
	for _, k := range p.Delete {
		v.Delete = append(v.Delete, keyRefView{k.Namespace, k.Name, k.ID})
	}
	return v
}

type reportView struct {
	Project      string          `json:"project"`
	Created      []locales.Item  `json:"created,omitempty"`
	Updated      []locales.Item  `json:"updated,omitempty"`
	Deleted      []locales.Item  `json:"deleted,omitempty"`
	Skipped      []locales.Item  `json:"skipped,omitempty"`
	Failed       []locales.Item  `json:"failed,omitempty"`
	NotConfirmed []locales.Item  `json:"notConfirmed,omitempty"`
	Counts       []locales.Count `json:"counts"`
	Calls        map[string]int  `json:"calls"`
	Published    *publishedView  `json:"published,omitempty"`
	// AddedLanguages are the languages push --add-languages added.
	AddedLanguages []string `json:"addedLanguages,omitempty"`
}

type publishedView struct {
	Texts int        `json:"texts"`
	Syncs []syncView `json:"syncs"`
}

type syncView struct {
	ID     string                  `json:"id"`
	Status translations.SyncStatus `json:"status,omitempty"`
	Error  string                  `json:"error,omitempty"`
}

func reportJSON(r *locales.Report) reportView {
	v := reportView{Project: r.Project, Created: r.Created, Updated: r.Updated, Deleted: r.Deleted, Skipped: r.Skipped,
		Failed: r.Failed, NotConfirmed: r.NotConfirmed, Counts: r.Counts, Calls: r.Calls}
	if p := r.Published; p != nil {
		v.Published = &publishedView{Texts: p.Published, Syncs: []syncView{}}
		for _, s := range p.Syncs {
			v.Published.Syncs = append(v.Published.Syncs, syncView{s.ID, s.Status, s.Error})
		}
	}
	return v
}
