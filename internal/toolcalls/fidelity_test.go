package toolcalls_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/translations"
)

// canned is a Caller that answers every tool with one text and records
// the tools called.
type canned struct {
	text  string
	calls []string
	args  []string // each call's arguments, as JSON
}

func (c *canned) Call(_ context.Context, tool string, args any) ([]byte, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	c.calls, c.args = append(c.calls, tool), append(c.args, string(b))
	return []byte(c.text), nil
}

// TestNamespaceDetailsKept: getTranslations' namespace details, in the
// long form (namespaceDetails, a list) and the compact one (nsd, keyed by
// name), reach Result.Namespaces with their context.
func TestNamespaceDetailsKept(t *testing.T) {
	ctx := &translations.NamespaceContext{Description: "Buttons and menus", Team: "web", Domain: "ui", AIPrompt: "Be brief", Tags: []string{"nav"}}
	want := []translations.Namespace{
		{Name: "common", Description: "Buttons and menus", KeyCount: 2, Context: ctx},
		{Name: "legal", Description: "Terms"},
	}
	for name, answer := range map[string]string{
		"long": `{"project": "acme/web", "sourceLanguage": "en", "returned": 0, "total": 0, "hasMore": false, "keys": [],
			"namespaceDetails": [{"name": "common", "description": "Buttons and menus", "keyCount": 2,
				"context": {"team": "web", "domain": "ui", "aiPrompt": "Be brief", "tags": ["nav"]}}, {"name": "legal", "description": "Terms"}]}`,
		"compact": `{"prj": "acme/web", "sl": "en", "ret": 0, "tot": 0, "has_more": false, "keys": [],
			"nsd": {"legal": {"desc": "Terms", "ctx": null}, "common": {"desc": "Buttons and menus", "kc": 2, "ctx": {"t": "web", "d": "ui", "ap": "Be brief", "tg": ["nav"]}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			r, err := toolcalls.GetTranslations(t.Context(), &canned{text: answer}, "acme/web", translations.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, r.Namespaces, ignoreRaw(translations.Namespace{}, "Raw")); d != "" {
				t.Errorf("Namespaces (-want +got):\n%s", d)
			}
			for _, ns := range r.Namespaces {
				if len(ns.Raw) == 0 {
					t.Errorf("%s: no Raw", ns.Name)
				}
			}
		})
	}
}

// TestPublishKeepsRepositories: publishTranslations' repositories reach
// PublishResult.Repositories as sent.
func TestPublishKeepsRepositories(t *testing.T) {
	repos := `[{"name": "acme/web-app", "branch": "main"}]`
	r, err := toolcalls.Publish(t.Context(), &canned{text: `{"success": true, "published": 2, "repositories": ` + repos + `, "syncJobIds": ["s-1"]}`},
		"acme/web", translations.PublishOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(r.Repositories) != repos {
		t.Errorf("Repositories = %s, want %s", r.Repositories, repos)
	}
}

// TestSyncFileCountersKept: getSyncs' meta.tf and meta.pf reach Sync.
func TestSyncFileCountersKept(t *testing.T) {
	r, err := toolcalls.ListSyncs(t.Context(), &canned{text: `{"prj": "acme/web", "tot": 1,
		"sy": [{"id": "s-1", "tp": "cdn_upload", "st": "in_progress", "st_at": "2026-05-01T10:00:00Z", "meta": {"kp": 40, "tf": 6, "pf": 4}}]}`},
		"acme/web", translations.ListSyncsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Syncs) != 1 {
		t.Fatalf("%d syncs", len(r.Syncs))
	}
	if s := r.Syncs[0]; s.KeysProcessed != 40 || s.Files != 6 || s.FilesProcessed != 4 {
		t.Errorf("counters kp %d, tf %d, pf %d; want 40, 6, 4", s.KeysProcessed, s.Files, s.FilesProcessed)
	}
}

// TestListSyncsRefusesFiltersTheToolRefuses: getSyncs filters by pending,
// in_progress, completed and failed only; anything else is refused before
// a request.
func TestListSyncsRefusesFiltersTheToolRefuses(t *testing.T) {
	for _, opt := range []translations.ListSyncsOptions{
		{Status: translations.SyncCancelled},
		{Status: "done"},
		{Type: "deploy"},
	} {
		c := &canned{text: `{"sy": []}`}
		_, err := toolcalls.ListSyncs(t.Context(), c, "acme/web", opt)
		if !errors.Is(err, apierr.ErrInvalidArgument) {
			t.Errorf("%+v: err = %v, want ErrInvalidArgument", opt, err)
		}
		if len(c.calls) != 0 {
			t.Errorf("%+v: sent %v", opt, c.calls)
		}
	}
	for _, s := range []translations.SyncStatus{"", translations.SyncPending, translations.SyncInProgress, translations.SyncCompleted, translations.SyncFailed} {
		if _, err := toolcalls.ListSyncs(t.Context(), &canned{text: `{"sy": []}`}, "acme/web", translations.ListSyncsOptions{Status: s}); err != nil {
			t.Errorf("%q: %v", s, err)
		}
	}
}

// TestRichTextBodyKept: a translation body sent as a rich-text document
// (a Plate editor document) is kept as JSON, not turned into "".
func TestRichTextBodyKept(t *testing.T) {
	plate := `[{"type": "h2", "children": [{"text": "Hallo"}]}, {"type": "p", "children": [{"text": "Welt", "bold": true}]}]`
	e, err := toolcalls.GetEntry(t.Context(), &canned{text: `{"id": "e-1", "sl": "hello", "st": "draft", "slang": "de",
		"tr": {"de": {"id": "t-1", "lc": "de", "t": "Hallo", "body": ` + plate + `, "st": "draft"},
			"en": {"id": "t-2", "lc": "en", "t": "Hello", "body": "# Hello", "st": "draft"},
			"fr": {"id": "t-3", "lc": "fr", "t": "Salut", "body": null, "st": "draft"}}}`},
		"acme/web", "e-1", content.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	de, en, fr := e.Translations["de"], e.Translations["en"], e.Translations["fr"]
	if string(de.RichBody) != plate || de.Body != "" {
		t.Errorf("de: Body %q, RichBody %s; want the document", de.Body, de.RichBody)
	}
	if en.Body != "# Hello" || en.RichBody != nil {
		t.Errorf("en: Body %q, RichBody %s; want the text", en.Body, en.RichBody)
	}
	if fr.Body != "" || fr.RichBody != nil {
		t.Errorf("fr: Body %q, RichBody %s; want none", fr.Body, fr.RichBody)
	}
	if string(e.RichBody) != plate || e.Body != "" {
		t.Errorf("entry: Body %q, RichBody %s; want the source language's document", e.Body, e.RichBody)
	}
}

// TestProjectOverview: listProjects and getProject decode to what locale
// sync needs; the service's null layout reads as its meaning.
func TestProjectOverview(t *testing.T) {
	list, err := toolcalls.ListProjects(t.Context(), &canned{text: `{"projects": [
		{"id": "p-1", "slug": "acme/web", "name": "Web", "organizationName": "Acme", "sourceLanguage": "en", "targetLanguages": ["de", "fr"],
			"cdnFormat": "json", "fileStructure": "namespaced_folders", "keyFormat": "flat"},
		{"id": "p-2", "slug": "acme/app", "name": "App", "organizationName": "Acme", "sourceLanguage": "en", "targetLanguages": [],
			"cdnFormat": "json", "fileStructure": null, "keyFormat": null}], "cdnBaseUrl": "https://cdn.example"}`})
	if err != nil {
		t.Fatal(err)
	}
	wantList := &translations.ProjectList{CDNBaseURL: "https://cdn.example", Projects: []translations.ProjectSummary{
		{ID: "p-1", Slug: "acme/web", Name: "Web", OrganizationName: "Acme", SourceLanguage: "en", TargetLanguages: []string{"de", "fr"},
			CDNFormat: "json", FileStructure: translations.NamespacedFolders, KeyFormat: translations.Flat},
		{ID: "p-2", Slug: "acme/app", Name: "App", OrganizationName: "Acme", SourceLanguage: "en", TargetLanguages: []string{},
			CDNFormat: "json", FileStructure: translations.SingleFile, KeyFormat: translations.Nested},
	}}
	if d := cmp.Diff(wantList, list, ignoreRaw(translations.ProjectList{}, "Raw"), ignoreRaw(translations.ProjectSummary{}, "Raw")); d != "" {
		t.Errorf("ListProjects (-want +got):\n%s", d)
	}

	c := &canned{text: `{"prj": "acme/web", "sl": "en", "nss": [{"nm": "common", "kc": 3, "desc": "UI", "ctx": null}], "lng": ["de"], "tk": 3,
		"cov": {"de": {"tr": 2, "pct": 66}},
		"cdn": {"base": "https://cdn.example/acme/web", "mfst": "https://cdn.example/acme/web/manifest.json",
			"pat": "https://cdn.example/acme/web/{locale}/{namespace}.json", "ex": ["https://cdn.example/acme/web/de/common.json"],
			"fs": "namespaced_folders", "kf": "flat"}}`}
	p, err := toolcalls.GetProject(t.Context(), c, "acme/web")
	if err != nil {
		t.Fatal(err)
	}
	want := &translations.Project{Slug: "acme/web", SourceLanguage: "en", Languages: []string{"de"}, TotalKeys: 3,
		Namespaces: []translations.Namespace{{Name: "common", Description: "UI", KeyCount: 3}},
		Coverage:   map[string]translations.Coverage{"de": {Translated: 2, Percent: 66}},
		CDN: &translations.CDN{BaseURL: "https://cdn.example/acme/web", ManifestURL: "https://cdn.example/acme/web/manifest.json",
			Pattern: "https://cdn.example/acme/web/{locale}/{namespace}.json", Examples: []string{"https://cdn.example/acme/web/de/common.json"},
			FileStructure: translations.NamespacedFolders, KeyFormat: translations.Flat}}
	if d := cmp.Diff(want, p, ignoreRaw(translations.Project{}, "Raw"), ignoreRaw(translations.Namespace{}, "Raw")); d != "" {
		t.Errorf("GetProject (-want +got):\n%s", d)
	}
	if p.FileStructure() != translations.NamespacedFolders || p.KeyFormat() != translations.Flat {
		t.Errorf("layout %s/%s", p.FileStructure(), p.KeyFormat())
	}
	if bare := (&translations.Project{}); bare.FileStructure() != translations.SingleFile || bare.KeyFormat() != translations.Nested {
		t.Errorf("default layout %s/%s", bare.FileStructure(), bare.KeyFormat())
	}
	if _, err := toolcalls.GetProject(t.Context(), c, "acme"); !errors.Is(err, apierr.ErrInvalidArgument) {
		t.Errorf(`GetProject("acme") = %v, want ErrInvalidArgument`, err)
	}
	if len(c.calls) != 1 {
		t.Errorf("calls %v", c.calls)
	}
}

// TestSettingsCanBeSwitchedOff: every boolean a field takes can be sent
// as false, and nil sends nothing.
func TestSettingsCanBeSwitchedOff(t *testing.T) {
	answer := `{"updated": true, "field": {"id": "f-1", "nm": "cover", "dn": "Cover", "tp": "media", "opts": {"sit": false}, "fc": {"tm": "blog-post", "mp": false}}}`
	for _, tc := range []struct {
		name string
		u    content.FieldUpdate
		args string
	}{
		{"off", content.FieldUpdate{
			Localized: content.Ptr(false), Required: content.Ptr(false),
			Options:  &content.FieldOptions{ShowInTable: content.Ptr(false), Unsplash: content.Ptr(false), AIGeneration: &content.AIGeneration{}},
			Relation: &content.Relation{Multiple: content.Ptr(false)},
		}, `{"project":"acme/web","modelSlug":"blog-post","fieldName":"cover","localized":false,"required":false,
			"options":{"unsplash":{"enabled":false},"aiGeneration":{"enabled":false},"showInTable":false},"fieldConfig":{"multiple":false}}`},
		{"on", content.FieldUpdate{
			Options:  &content.FieldOptions{ShowInTable: content.Ptr(true), Unsplash: content.Ptr(true)},
			Relation: &content.Relation{TargetModel: "blog-post", Multiple: content.Ptr(true)},
		}, `{"project":"acme/web","modelSlug":"blog-post","fieldName":"cover",
			"options":{"unsplash":{"enabled":true},"showInTable":true},"fieldConfig":{"targetModel":"blog-post","multiple":true}}`},
		{"nil sends nothing", content.FieldUpdate{Options: &content.FieldOptions{}, Relation: &content.Relation{TargetModel: "blog-post"}},
			`{"project":"acme/web","modelSlug":"blog-post","fieldName":"cover","options":{},"fieldConfig":{"targetModel":"blog-post"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &canned{text: answer}
			f, err := toolcalls.UpdateField(t.Context(), c, "acme/web", "blog-post", "cover", tc.u)
			if err != nil {
				t.Fatal(err)
			}
			jsonEqual(t, json.RawMessage(c.args[0]), tc.args)
			if f.Relation == nil || f.Relation.Multiple == nil || *f.Relation.Multiple {
				t.Errorf("Relation = %+v, want Multiple false as sent", f.Relation)
			}
		})
	}
}

// TestAbbreviatedNamespacePromptKept: the abbreviated namespace details
// the published server sends, nsd {"<ns>": {kc, desc?, ap?}}, keep ap, the
// namespace's AI prompt, in the namespace's context, as the long form's
// context keeps its aiPrompt; a namespace without one has no context.
func TestAbbreviatedNamespacePromptKept(t *testing.T) {
	answer := `{"prj": "acme/web", "sl": "en", "ret": 0, "tot": 0, "has_more": false, "keys": [],
		"nsd": {"common": {"kc": 2, "desc": "Buttons and menus", "ap": "Be brief"}, "checkout": {"kc": 1, "ap": "Formal"}, "legal": {"kc": 0, "desc": "Terms"}}}`
	want := []translations.Namespace{
		{Name: "checkout", KeyCount: 1, Context: &translations.NamespaceContext{AIPrompt: "Formal"}},
		{Name: "common", Description: "Buttons and menus", KeyCount: 2, Context: &translations.NamespaceContext{Description: "Buttons and menus", AIPrompt: "Be brief"}},
		{Name: "legal", Description: "Terms"},
	}
	r, err := toolcalls.GetTranslations(t.Context(), &canned{text: answer}, "acme/web", translations.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, r.Namespaces, ignoreRaw(translations.Namespace{}, "Raw")); d != "" {
		t.Errorf("Namespaces (-want +got):\n%s", d)
	}
}
