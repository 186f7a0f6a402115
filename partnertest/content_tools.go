package partnertest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

var (
	modelSlugRE = regexp.MustCompile(`^[a-z0-9-]+$`)
	fieldNameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)
	blockSlugRE = regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
)

// usersModel is the slug of the virtual model of project members.
const usersModel = "users"

// contentToolScopes are the scopes this fake requires of the content
// tools: the service documents none, and these are the inference
// service-notes.md names (see the package doc). A call that asks for
// status published also needs ScopeContentPublish.
var contentToolScopes = map[string]string{
	"listContentModels": ScopeContentRead, "getContentModel": ScopeContentRead,
	"listContentEntries": ScopeContentRead, "getContentEntry": ScopeContentRead,
	"listBlocks": ScopeContentRead, "getBlock": ScopeContentRead, "validateBlockParams": ScopeContentRead,

	"createContentEntry": ScopeContentWrite, "updateContentEntry": ScopeContentWrite,
	"deleteContentEntry": ScopeContentWrite, "duplicateContentEntry": ScopeContentWrite,
	"bulkCreateEntries": ScopeContentWrite, "bulkUpdateEntries": ScopeContentWrite,
	"createContentModel": ScopeContentWrite, "updateContentModel": ScopeContentWrite, "deleteContentModel": ScopeContentWrite,
	"addField": ScopeContentWrite, "updateField": ScopeContentWrite, "removeField": ScopeContentWrite, "reorderFields": ScopeContentWrite,
	"registerBlock": ScopeContentWrite, "bulkRegisterBlocks": ScopeContentWrite, "deleteBlock": ScopeContentWrite,

	"publishContentEntry": ScopeContentPublish, "bulkPublishEntries": ScopeContentPublish,
}

// JSON Schema fragments of the content tools' inputs.
const (
	strProp      = `{"type":"string"}`
	boolProp     = `{"type":"boolean"}`
	uuidProp     = `{"type":"string","format":"uuid"}`
	strsProp     = `{"type":"array","items":{"type":"string"}}`
	cfProp       = `{"type":"object","additionalProperties":true,"description":"field name -> value; a JSON-encoded string is also accepted"}`
	trProp       = `{"type":"object","additionalProperties":{"type":"object","properties":{"title":{"type":"string"},"bodyMarkdown":{"type":"string"},"customFields":` + cfProp + `}}}`
	fieldProps   = `"displayName":{"type":"string","minLength":1,"maxLength":200},"type":{"type":"string","enum":["text","textarea","richtext","number","boolean","date","datetime","enum","media","relation"]},"localized":{"type":"boolean"},"required":{"type":"boolean"},"placeholder":{"type":"string","maxLength":500},"helpText":{"type":"string","maxLength":500},"options":{"type":"object"},"fieldConfig":{"type":"object","properties":{"targetModel":{"type":"string"},"multiple":{"type":"boolean"}}}`
	fieldSchema  = `{"type":"object","properties":{"name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z_][a-z0-9_]*$"},` + fieldProps + `,"position":{"type":"integer","minimum":0}},"required":["name","displayName"]}`
	blockProps   = `"slug":{"type":"string","minLength":2,"maxLength":64,"pattern":"^[a-z][a-z0-9-]*$"},"displayName":{"type":"string","minLength":1,"maxLength":120},"category":{"type":"string","maxLength":64},"description":{"type":"string","maxLength":500},"jsonSchema":{"type":"object"},"previewUrl":{"type":"string","format":"uri"},"previewOrigin":{"type":"string","format":"uri"},"sourceCommit":{"type":"string","maxLength":64}`
	entryWriteIn = `"title":{"type":"string","minLength":1},"slug":{"type":"string","minLength":1},"bodyMarkdown":{"type":"string"},"customFields":` + cfProp + `,"translations":` + trProp
)

// contentToolDefs are the content server's 25 tools.
func contentToolDefs() []toolDef {
	return []toolDef{
		{"listContentModels", 'R', "List the project's content models with their fields.", projectProp, []string{"project"}, (*toolCall).listContentModels},
		{"getContentModel", 'R', "Get a content model.", projectProp + `,"modelSlug":` + strProp, []string{"project", "modelSlug"}, (*toolCall).getContentModel},
		{"listContentEntries", 'R', "List content entries, a page at a time.", projectProp + `,"modelSlug":` + strProp + `,"slugs":` + strsProp + `,"search":` + strsProp + `,"searchLocales":` + strsProp + `,"includeBody":` + boolProp + `,"status":{"type":"string","enum":["draft","published","archived"]},"language":` + strProp + `,"languageMode":{"type":"string","enum":["any","all"]},"missingLanguage":` + strProp + `,"where":{"type":"object","additionalProperties":{"type":"string"}},"expand":` + strsProp + `,"compact":` + boolProp + `,"sort":{"type":"string","enum":["publishedAt","createdAt","updatedAt","title"]},"order":{"type":"string","enum":["asc","desc"]},"page":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1,"maximum":50}`, []string{"project"}, (*toolCall).listContentEntries},
		{"getContentEntry", 'R', "Get a content entry with its translations and versions.", projectProp + `,"entryId":` + uuidProp + `,"expand":` + strsProp + `,"compact":` + boolProp, []string{"project", "entryId"}, (*toolCall).getContentEntry},
		{"createContentEntry", 'W', "Create a content entry.", projectProp + `,"modelSlug":` + strProp + `,"sourceLanguageCode":` + strProp + `,"status":{"type":"string","enum":["draft","published"]},` + entryWriteIn, []string{"project", "modelSlug", "title", "slug"}, (*toolCall).createContentEntry},
		{"updateContentEntry", 'W', "Update a content entry: one language, several, or metadata only.", projectProp + `,"entryId":` + uuidProp + `,"languageCode":` + strProp + `,"status":{"type":"string","enum":["draft","published","archived"]},` + entryWriteIn, []string{"project", "entryId"}, (*toolCall).updateContentEntry},
		{"publishContentEntry", 'W', "Publish a content entry (a status change, not a CDN deploy).", projectProp + `,"entryId":` + uuidProp, []string{"project", "entryId"}, (*toolCall).publishContentEntry},
		{"deleteContentEntry", 'D', "Delete a content entry with its translations, values and versions.", projectProp + `,"entryId":` + uuidProp, []string{"project", "entryId"}, (*toolCall).deleteContentEntry},
		{"duplicateContentEntry", 'W', "Copy a content entry as a draft.", projectProp + `,"entryId":` + uuidProp + `,"newSlug":{"type":"string","maxLength":200,"pattern":"^[a-z0-9-]+$"}`, []string{"project", "entryId"}, (*toolCall).duplicateContentEntry},
		{"bulkPublishEntries", 'W', "Publish up to 500 entries.", projectProp + `,"entryIds":{"type":"array","minItems":1,"maxItems":500,"items":` + uuidProp + `}`, []string{"project", "entryIds"}, (*toolCall).bulkPublishEntries},
		{"bulkCreateEntries", 'W', "Create up to 200 entries of one model.", projectProp + `,"modelSlug":` + strProp + `,"entries":{"type":"array","minItems":1,"maxItems":200,"items":{"type":"object","properties":{"status":{"type":"string","enum":["draft","published"]},` + entryWriteIn + `},"required":["title","slug"]}}`, []string{"project", "modelSlug", "entries"}, (*toolCall).bulkCreateEntries},
		{"bulkUpdateEntries", 'W', "Update up to 200 entries.", projectProp + `,"entries":{"type":"array","minItems":1,"maxItems":200,"items":{"type":"object","properties":{"entryId":` + uuidProp + `,"languageCode":` + strProp + `,"status":{"type":"string","enum":["draft","published","archived"]},` + entryWriteIn + `},"required":["entryId"]}}`, []string{"project", "entries"}, (*toolCall).bulkUpdateEntries},
		{"createContentModel", 'W', "Create a content model.", projectProp + `,"slug":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z0-9-]+$"},"displayName":{"type":"string","minLength":1,"maxLength":200},"description":{"type":"string","maxLength":1000},"kind":{"type":"string","enum":["collection","single"]},"icon":{"type":"string","maxLength":50},"enableVersionHistory":` + boolProp + `,"includeBody":` + boolProp + `,"fields":{"type":"array","items":` + fieldSchema + `}`, []string{"project", "slug", "displayName"}, (*toolCall).createContentModel},
		{"updateContentModel", 'W', "Update a content model.", projectProp + `,"modelSlug":` + strProp + `,"displayName":{"type":"string","minLength":1,"maxLength":200},"description":{"type":"string","maxLength":1000},"kind":{"type":"string","enum":["collection","single"]},"icon":{"type":"string","maxLength":50},"enableVersionHistory":` + boolProp + `,"includeBody":` + boolProp, []string{"project", "modelSlug"}, (*toolCall).updateContentModel},
		{"deleteContentModel", 'D', "Delete a content model with its fields and entries.", projectProp + `,"modelSlug":` + strProp, []string{"project", "modelSlug"}, (*toolCall).deleteContentModel},
		{"addField", 'W', "Add a field to a content model.", projectProp + `,"modelSlug":` + strProp + `,"name":{"type":"string","minLength":1,"maxLength":100,"pattern":"^[a-z_][a-z0-9_]*$"},` + fieldProps + `,"position":{"type":"integer","minimum":0}`, []string{"project", "modelSlug", "name", "displayName"}, (*toolCall).addField},
		{"updateField", 'W', "Update a field of a content model.", projectProp + `,"modelSlug":` + strProp + `,"fieldName":` + strProp + `,` + fieldProps, []string{"project", "modelSlug", "fieldName"}, (*toolCall).updateField},
		{"removeField", 'D', "Remove a field and its values in every entry.", projectProp + `,"modelSlug":` + strProp + `,"fieldName":` + strProp, []string{"project", "modelSlug", "fieldName"}, (*toolCall).removeField},
		{"reorderFields", 'W', "Reorder a model's fields (first = position 0).", projectProp + `,"modelSlug":` + strProp + `,"fieldNames":{"type":"array","minItems":1,"items":{"type":"string"}}`, []string{"project", "modelSlug", "fieldNames"}, (*toolCall).reorderFields},
		{"registerBlock", 'W', "Register or replace a block in the catalog.", projectProp + `,` + blockProps, []string{"project", "slug", "displayName", "jsonSchema"}, (*toolCall).registerBlock},
		{"bulkRegisterBlocks", 'W', "Register up to 50 blocks, all or nothing.", projectProp + `,"blocks":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{` + blockProps + `},"required":["slug","displayName","jsonSchema"]}}`, []string{"project", "blocks"}, (*toolCall).bulkRegisterBlocks},
		{"listBlocks", 'R', "List the block catalog.", projectProp + `,"category":` + strProp + `,"search":` + strProp, []string{"project"}, (*toolCall).listBlocks},
		{"getBlock", 'R', "Get a block.", projectProp + `,"slug":` + strProp, []string{"project", "slug"}, (*toolCall).getBlock},
		{"validateBlockParams", 'R', "Check a block's params against its schema.", projectProp + `,"slug":` + strProp + `,"params":{},"locale":{"type":"string","minLength":2,"maxLength":10}`, []string{"project", "slug", "params"}, (*toolCall).validateBlockParams},
		{"deleteBlock", 'D', "Delete a block.", projectProp + `,"slug":` + strProp + `,"policy":{"type":"string","enum":["strict","warn","orphan"]}`, []string{"project", "slug"}, (*toolCall).deleteBlock},
	}
}

// cproject resolves the "project" argument to a project's content state.
func (tc *toolCall) cproject() (*Project, *cproject, string, error) {
	p, _, slug, err := tc.project()
	if err != nil {
		return nil, nil, "", err
	}
	return p, tc.s.cprojLocked(p), slug, nil
}

// projectLangs are the languages a project's entries may have: its source
// language and its target languages that are not archived, lowercased.
func (tc *toolCall) projectLangs(p *Project) []string {
	out := []string{strings.ToLower(p.SourceLanguage)}
	for _, l := range targetLangs(p, tc.s.tprojLocked(p)) {
		out = append(out, strings.ToLower(l))
	}
	return out
}

// modelArg reads the "modelSlug" argument and finds the model.
func (tc *toolCall) modelArg(cp *cproject) (*cmodel, error) {
	slug := tc.a.str("modelSlug", true, 1, 0)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	m := cp.model(slug)
	if m == nil {
		return nil, errText(fmt.Sprintf("Model %q not found", slug))
	}
	return m, nil
}

// pattern fails with the validator's "Invalid" when s is set and does not
// match re.
func (a *args) pattern(s string, re *regexp.Regexp) string {
	if s != "" && !re.MatchString(s) {
		a.fail("Invalid")
	}
	return s
}

// optBool reads an optional boolean: nil when absent.
func (a *args) optBool(key string) *bool {
	if !present(a.m[key]) {
		return nil
	}
	b := a.boolean(key)
	return &b
}

// optStr reads an optional string: nil when absent.
func (a *args) optStr(key string, min, max int) *string {
	if !present(a.m[key]) {
		return nil
	}
	s := a.str(key, false, min, max)
	return &s
}

// urlStr reads an optional URL.
func (a *args) urlStr(key string) string {
	s := a.str(key, false, 0, 0)
	if u, err := url.Parse(s); s != "" && (err != nil || u.Scheme == "" || u.Host == "") {
		a.fail("Invalid url")
	}
	return s
}

// customFields reads a customFields value: an object, or a string holding
// a JSON object.
func (a *args) customFields(raw json.RawMessage) map[string]json.RawMessage {
	if !present(raw) {
		return nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
		if !json.Valid(raw) || jsonKind(raw) != "object" {
			a.fail("customFields must be a JSON object or a string holding one")
			return nil
		}
	}
	return a.objectOf(raw, false)
}

// An entryWrite is what a create or an update asks to write to an entry.
type entryWrite struct {
	lang              string // languageCode, lowercased; "" for the source language
	title, slug, body *string
	status            string
	cf                map[string]json.RawMessage
	tr                map[string]langWrite // by lowercased language code
}

type langWrite struct {
	title, body *string
	cf          map[string]json.RawMessage
}

// entryWriteArgs reads an entry write from a, with the statuses allowed.
func entryWriteArgs(a *args, create bool, statuses ...string) entryWrite {
	w := entryWrite{title: a.optStr("title", 1, 0), slug: a.optStr("slug", 1, 0), body: a.optStr("bodyMarkdown", 0, 0)}
	if create && w.title == nil {
		a.str("title", true, 1, 0)
	}
	if create && w.slug == nil {
		a.str("slug", true, 1, 0)
	}
	w.status = a.enum("status", "", statuses...)
	w.cf = a.customFields(a.m["customFields"])
	if tr := a.objectOf(a.m["translations"], false); tr != nil {
		w.tr = map[string]langWrite{}
		for l, raw := range tr {
			m := a.objectOf(raw, true)
			sub := a.child(m)
			w.tr[strings.ToLower(l)] = langWrite{title: sub.optStr("title", 0, 0), body: sub.optStr("bodyMarkdown", 0, 0), cf: sub.customFields(m["customFields"])}
		}
	}
	return w
}

// apply writes w to e (which the caller has cloned, so that a failure
// leaves nothing half done) and returns the languages touched and those
// whose body starts with an H1 heading.
func (tc *toolCall) apply(p *Project, cp *cproject, e *centry, w entryWrite) (changed, h1 []string, err error) {
	langs := tc.projectLangs(p)
	touch := func(l string) error {
		if !slices.Contains(langs, l) {
			return errText(fmt.Sprintf("Language %q is not enabled for this project (languages: %s)", l, strings.Join(langs, ", ")))
		}
		if !slices.Contains(changed, l) {
			changed = append(changed, l)
		}
		return nil
	}
	write := func(l string, title, body *string, cf map[string]json.RawMessage) error {
		if title == nil && body == nil && cf == nil {
			return nil
		}
		if err := touch(l); err != nil {
			return err
		}
		t := e.lang(l)
		if title != nil {
			t.title = *title
		}
		if body != nil {
			t.body = *body
			if strings.HasPrefix(*body, "# ") {
				h1 = append(h1, l)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(cf)) {
			f := e.model.field(name)
			if f == nil {
				return errText(fmt.Sprintf("Unknown field %q in model %q", name, e.model.slug))
			}
			v, err := checkValue(f, cf[name])
			if err != nil {
				return err
			}
			vals := e.vals
			if f.loc {
				vals = t.vals
			}
			if v == nil {
				delete(vals, name)
			} else {
				vals[name] = v
			}
		}
		return nil
	}
	if err := write(cmp.Or(w.lang, e.src), w.title, w.body, w.cf); err != nil {
		return nil, nil, err
	}
	for _, l := range slices.Sorted(maps.Keys(w.tr)) {
		t := w.tr[l]
		if err := write(l, t.title, t.body, t.cf); err != nil {
			return nil, nil, err
		}
	}
	if w.slug != nil && *w.slug != e.slug {
		if cp.slugTaken(e.model, *w.slug, e) {
			return nil, nil, errText(fmt.Sprintf("An entry with slug %q already exists in model %q", *w.slug, e.model.slug))
		}
		e.slug = *w.slug
		changed = e.langList() // the slug is shared by every language
	}
	slices.Sort(changed)
	return changed, h1, nil
}

// clone returns a deep copy of e.
func (e *centry) clone() *centry {
	c := *e
	c.vals = maps.Clone(e.vals)
	c.langs = map[string]*clang{}
	for l, t := range e.langs {
		tt := *t
		tt.vals = maps.Clone(t.vals)
		c.langs[l] = &tt
	}
	c.versions = slices.Clone(e.versions)
	return &c
}

// needPublish returns the isError of a call asking for status published
// with a token that lacks ScopeContentPublish.
func (tc *toolCall) needPublish(status string) error {
	if status != "published" {
		return nil
	}
	return tc.needScope(ScopeContentPublish)
}

// createEntry creates an entry of model m: content.entry.created, and
// then content.entry.published when w asks for status published.
func (tc *toolCall) createEntry(p *Project, cp *cproject, slug string, m *cmodel, srcLang string, w entryWrite) (*centry, []string, error) {
	src := strings.ToLower(cmp.Or(srcLang, p.SourceLanguage))
	if langs := tc.projectLangs(p); !slices.Contains(langs, src) {
		return nil, nil, errText(fmt.Sprintf("Language %q is not enabled for this project (languages: %s)", src, strings.Join(langs, ", ")))
	}
	if cp.slugTaken(m, *w.slug, nil) {
		return nil, nil, errText(fmt.Sprintf("An entry with slug %q already exists in model %q", *w.slug, m.slug))
	}
	e := &centry{id: newUUID(), slug: *w.slug, status: "draft", model: m, src: src,
		langs: map[string]*clang{}, vals: map[string]json.RawMessage{}}
	e.lang(src)
	w.lang = ""
	_, h1, err := tc.apply(p, cp, e, w)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range m.fields {
		if f.req && e.value(f) == nil {
			return nil, nil, errText(fmt.Sprintf("Field %q is required", f.name))
		}
	}
	ts := tc.s.contentTickLocked(tc.now)
	e.cAt, e.uAt = ts, ts
	cp.entries = append(cp.entries, e)
	e.addVersions(e.langList(), "created", ts, tc.agent())
	tc.fireEntry(webhook.EventEntryCreated, slug, e, "", e.langList(), ts)
	if w.status == "published" {
		tc.publish(slug, e)
	}
	return e, h1, nil
}

// publish moves e to published (again, if it already is):
// content.entry.published with publishedAt set and no changed language.
func (tc *toolCall) publish(slug string, e *centry) bulkRow {
	ts := tc.s.contentTickLocked(tc.now)
	prev := e.status
	e.status, e.pubAt, e.uAt = "published", ts, ts
	e.addVersions(nil, "published", ts, tc.agent())
	tc.fireEntry(webhook.EventEntryPublished, slug, e, prev, nil, ts)
	return bulkRow{e, prev, e.status}
}

// updateEntry edits e: content.entry.updated when the status stays,
// content.entry.published when it becomes published and
// content.entry.unpublished for any other status change.
func (tc *toolCall) updateEntry(p *Project, cp *cproject, slug string, e *centry, w entryWrite) (bulkRow, []string, error) {
	e2 := e.clone()
	changed, h1, err := tc.apply(p, cp, e2, w)
	if err != nil {
		return bulkRow{}, nil, err
	}
	ts := tc.s.contentTickLocked(tc.now)
	prev := e2.status
	typ, chg := webhook.EventEntryUpdated, "updated"
	switch {
	case w.status == "" || w.status == prev:
	case w.status == "published":
		typ, chg = webhook.EventEntryPublished, "published"
		e2.pubAt = ts
	default:
		typ, chg = webhook.EventEntryUnpublished, "unpublished"
		e2.pubAt = time.Time{}
	}
	e2.status = cmp.Or(w.status, prev)
	e2.uAt = ts
	e2.addVersions(changed, chg, ts, tc.agent())
	*e = *e2
	tc.fireEntry(typ, slug, e, prev, changed, ts)
	return bulkRow{e, prev, e.status}, h1, nil
}

// deleteEntry removes e: content.entry.deleted.
func (tc *toolCall) deleteEntry(cp *cproject, slug string, e *centry) {
	ts := tc.s.contentTickLocked(tc.now)
	cp.removeEntry(e)
	tc.fireEntry(webhook.EventEntryDeleted, slug, e, "", nil, ts)
}

func h1Warning(where []string) string {
	return "Body starts with # H1 heading in: " + strings.Join(where, ", ") + ". The title is shown as the page heading; start the body below it."
}

func (tc *toolCall) listContentModels() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	mdls := []map[string]any{}
	for _, m := range cp.models {
		o := m.out()
		ec := 0
		for _, e := range cp.entries {
			if e.model == m {
				ec++
			}
		}
		delete(o, "vh")
		o["ec"] = ec
		mdls = append(mdls, o)
	}
	return map[string]any{"mdls": mdls}, nil
}

func (tc *toolCall) getContentModel() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	return m.out(), nil
}

// entryID reads the "entryId" argument and finds the entry.
func (tc *toolCall) entryID(cp *cproject) (*centry, error) {
	id := tc.a.uuidOf(tc.a.m["entryId"], true)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	e := cp.entry(id)
	if e == nil {
		return nil, errText("Entry not found")
	}
	return e, nil
}

// rels expands the relation fields named in expand.
func (cp *cproject) rels(e *centry, expand []string) map[string]any {
	out := map[string]any{}
	for _, name := range expand {
		f := e.model.field(name)
		if f == nil || f.tp != "relation" {
			continue
		}
		var ids []string
		if v := e.value(f); v != nil {
			var one string
			if json.Unmarshal(v, &one) == nil {
				ids = []string{one}
			} else {
				json.Unmarshal(v, &ids)
			}
		}
		rows := []map[string]any{}
		for _, id := range ids {
			if r := cp.entry(id); r != nil {
				rows = append(rows, map[string]any{"id": r.id, "sl": r.slug, "st": r.status, "t": r.langs[r.src].title, "mdl": r.model.slug})
			}
		}
		out[name] = rows
	}
	return out
}

func (tc *toolCall) listContentEntries() (any, error) {
	p, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	a := tc.a
	model := a.str("modelSlug", false, 0, 0)
	slugs := a.strings("slugs", true)
	search := a.strings("search", true)
	locales := a.strings("searchLocales", false)
	includeBody := a.boolean("includeBody")
	var statuses []string
	if raw := a.m["status"]; present(raw) {
		if jsonKind(raw) == "array" {
			for _, it := range a.array("status", false, 0, 0) {
				statuses = append(statuses, a.child(map[string]json.RawMessage{"s": it}).enum("s", "", "draft", "published", "archived"))
			}
		} else {
			statuses = []string{a.enum("status", "", "draft", "published", "archived")}
		}
	}
	has := a.strings("language", true)
	mode := a.enum("languageMode", "any", "any", "all")
	missing := strings.ToLower(a.str("missingLanguage", false, 0, 0))
	where := map[string]string{}
	for k, v := range a.objectOf(a.m["where"], false) {
		where[k] = a.strOf(v, true, 0, 0)
	}
	expand := a.strings("expand", false)
	compact := a.boolean("compact")
	sortBy := a.enum("sort", "updatedAt", "publishedAt", "createdAt", "updatedAt", "title")
	order := a.enum("order", "desc", "asc", "desc")
	page := a.integer("page", 1, 1, 1<<30)
	limit := a.integer("limit", 20, 1, 50)
	if e := a.err(); e != "" {
		return nil, errText(e)
	}
	if model == usersModel {
		return tc.listUsers(p, page, limit), nil
	}
	var m *cmodel
	if model != "" {
		if m = cp.model(model); m == nil {
			return nil, errText(fmt.Sprintf("Model %q not found", model))
		}
	}
	var hits []*centry
	for _, e := range cp.entries {
		if (m != nil && e.model != m) || (len(slugs) > 0 && !slices.Contains(slugs, e.slug)) ||
			(len(statuses) > 0 && !slices.Contains(statuses, e.status)) ||
			(missing != "" && e.langs[missing] != nil) || !e.hasLangs(has, mode) || !e.matches(search, locales, includeBody && m != nil) ||
			!e.where(where) {
			continue
		}
		hits = append(hits, e)
	}
	key := func(e *centry) string {
		switch sortBy {
		case "publishedAt":
			return stampOrEmpty(e.pubAt)
		case "createdAt":
			return stamp(e.cAt)
		case "title":
			return strings.ToLower(e.langs[e.src].title)
		}
		return stamp(e.uAt)
	}
	slices.SortStableFunc(hits, func(x, y *centry) int {
		c := strings.Compare(key(x), key(y))
		if order == "desc" {
			c = -c
		}
		return c
	})
	from := min((page-1)*limit, len(hits))
	to := min(from+limit, len(hits))
	items := []map[string]any{}
	for _, e := range hits[from:to] {
		if compact {
			items = append(items, map[string]any{"id": e.id, "sl": e.slug, "st": e.status, "t": e.langs[e.src].title, "langs": e.langList()})
			continue
		}
		it := e.min()
		it["t"] = e.langs[e.src].title
		if len(expand) > 0 {
			it["rels"] = cp.rels(e, expand)
		}
		items = append(items, it)
	}
	return map[string]any{"items": items, "tot": len(hits), "more": to < len(hits)}, nil
}

func stampOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return stamp(t)
}

// hasLangs reports whether e has any (mode "any") or all of langs.
func (e *centry) hasLangs(langs []string, mode string) bool {
	if len(langs) == 0 {
		return true
	}
	n := 0
	for _, l := range langs {
		if e.langs[strings.ToLower(l)] != nil {
			n++
		}
	}
	if mode == "all" {
		return n == len(langs)
	}
	return n > 0
}

// matches reports whether any search term is in e's slug or in a title of
// the locales (all when none), case-insensitively.
// matches reports whether any search term is in e's slug or a title (of
// locales, if any), or, with body, a body: includeBody widens the search,
// it adds no body to the listing.
func (e *centry) matches(search, locales []string, body bool) bool {
	if len(search) == 0 {
		return true
	}
	for _, q := range search {
		q = strings.ToLower(q)
		if strings.Contains(e.slug, q) {
			return true
		}
		for l, t := range e.langs {
			if (len(locales) == 0 || slices.Contains(locales, l)) &&
				(strings.Contains(strings.ToLower(t.title), q) || body && strings.Contains(strings.ToLower(t.body), q)) {
				return true
			}
		}
	}
	return false
}

// where reports whether e's field values (as cfv shows them) equal all of
// w's.
func (e *centry) where(w map[string]string) bool {
	cfv := e.cfv(e.src)
	for k, v := range w {
		if s, ok := cfv[k].(string); !ok || s != v {
			return false
		}
	}
	return true
}

// listUsers lists the virtual "users" model: the users with a live grant
// for the project's organization.
func (tc *toolCall) listUsers(p *Project, page, limit int) map[string]any {
	var users []User
	for _, id := range slices.Sorted(maps.Keys(tc.s.grants)) {
		g := tc.s.grants[id]
		if !g.revoked && g.hasOrg(p.OrganizationID) && !slices.ContainsFunc(users, func(u User) bool { return u.ID == g.User.ID }) {
			users = append(users, g.User)
		}
	}
	from := min((page-1)*limit, len(users))
	to := min(from+limit, len(users))
	items := []map[string]any{}
	for _, u := range users[from:to] {
		items = append(items, map[string]any{"id": u.ID, "sl": u.ID, "st": "published", "t": u.Name, "pub_at": nil,
			"c_at": stamp(p.CreatedAt), "u_at": stamp(p.CreatedAt), "slang": nil, "langs": []string{},
			"mdl": map[string]any{"sl": usersModel, "dn": "Users", "kind": "collection"},
			"cfv": map[string]any{"name": u.Name, "email": u.Email}})
	}
	return map[string]any{"items": items, "tot": len(users), "more": to < len(users)}
}

func (tc *toolCall) getContentEntry() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	expand := tc.a.strings("expand", false)
	compact := tc.a.boolean("compact")
	e, err := tc.entryID(cp)
	if err != nil {
		return nil, err
	}
	out := e.min()
	if compact {
		return out, nil
	}
	if len(expand) > 0 {
		out["rels"] = cp.rels(e, expand)
	}
	tr := map[string]any{}
	hasLoc := slices.ContainsFunc(e.model.fields, func(f *cfield) bool { return f.loc })
	for l, t := range e.langs {
		row := map[string]any{"id": t.id, "lc": l, "t": t.title, "body": t.body, "st": e.status}
		if hasLoc {
			cfv := map[string]any{}
			for _, f := range e.model.fields {
				if f.loc {
					cfv[f.name] = cfvString(t.vals[f.name])
				}
			}
			row["cfv"] = cfv
		}
		tr[l] = row
	}
	out["tr"] = tr
	vers := []map[string]any{}
	for i := len(e.versions) - 1; i >= 0; i-- {
		v := e.versions[i]
		vers = append(vers, map[string]any{"id": v.id, "v": v.v, "lc": v.lang, "chg": v.chg, "c_at": stamp(v.at),
			"by": map[string]any{"id": v.by, "nm": "MCP agent", "img": nil}})
	}
	out["vers"] = vers
	return out, nil
}

func (tc *toolCall) createContentEntry() (any, error) {
	p, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	model := tc.a.str("modelSlug", true, 1, 0)
	src := tc.a.str("sourceLanguageCode", false, 0, 0)
	w := entryWriteArgs(tc.a, true, "draft", "published")
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	if err := tc.needPublish(w.status); err != nil {
		return nil, err
	}
	m := cp.model(model)
	if m == nil {
		return nil, errText(fmt.Sprintf("Model %q not found", model))
	}
	e, h1, err := tc.createEntry(p, cp, slug, m, src, w)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"created": true, "entry": e.min()}
	if len(h1) > 0 {
		out["warn"] = h1Warning(h1)
	}
	return out, nil
}

func (tc *toolCall) updateContentEntry() (any, error) {
	p, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	w := entryWriteArgs(tc.a, false, "draft", "published", "archived")
	w.lang = strings.ToLower(tc.a.str("languageCode", false, 0, 0))
	e, err := tc.entryID(cp)
	if err != nil {
		return nil, err
	}
	if err := tc.needPublish(w.status); err != nil {
		return nil, err
	}
	_, h1, err := tc.updateEntry(p, cp, slug, e, w)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"updated": true, "entry": e.min()}
	if len(h1) > 0 {
		out["warn"] = h1Warning(h1)
	}
	return out, nil
}

func (tc *toolCall) publishContentEntry() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	e, err := tc.entryID(cp)
	if err != nil {
		return nil, err
	}
	tc.publish(slug, e)
	return map[string]any{"published": true, "entry": e.min()}, nil
}

func (tc *toolCall) deleteContentEntry() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	e, err := tc.entryID(cp)
	if err != nil {
		return nil, err
	}
	tc.deleteEntry(cp, slug, e)
	return map[string]any{"deleted": true, "ok": true}, nil
}

func (tc *toolCall) duplicateContentEntry() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	newSlug := tc.a.pattern(tc.a.str("newSlug", false, 0, 200), modelSlugRE)
	e, err := tc.entryID(cp)
	if err != nil {
		return nil, err
	}
	newSlug = cmp.Or(newSlug, e.slug+"-copy")
	if cp.slugTaken(e.model, newSlug, nil) {
		return nil, errText(fmt.Sprintf("An entry with slug %q already exists in model %q", newSlug, e.model.slug))
	}
	ts := tc.s.contentTickLocked(tc.now)
	c := e.clone()
	c.id, c.slug, c.status, c.pubAt, c.cAt, c.uAt, c.versions = newUUID(), newSlug, "draft", time.Time{}, ts, ts, nil
	for _, t := range c.langs {
		t.id = newUUID()
	}
	cp.entries = append(cp.entries, c)
	c.addVersions(c.langList(), "created", ts, tc.agent())
	tc.fireEntry(webhook.EventEntryCreated, slug, c, "", c.langList(), ts)
	return map[string]any{"duplicated": true, "entry": c.min()}, nil
}

func (tc *toolCall) bulkPublishEntries() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, it := range tc.a.array("entryIds", true, 1, 500) {
		ids = append(ids, tc.a.uuidOf(it, true))
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	fail := []map[string]any{}
	var rows []bulkRow
	var done []*centry
	for _, id := range ids {
		e := cp.entry(id)
		switch {
		case e == nil:
			fail = append(fail, map[string]any{"id": id, "err": "Entry not found"})
		case slices.Contains(done, e): // listed twice: published once
		default:
			done = append(done, e)
			rows = append(rows, tc.publish(slug, e))
		}
	}
	tc.fireRollup(webhook.EventEntriesBulkPublished, slug, rows)
	return map[string]any{"pub": len(rows), "fail": fail}, nil
}

func (tc *toolCall) bulkCreateEntries() (any, error) {
	p, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	model := tc.a.str("modelSlug", true, 1, 0)
	var ws []entryWrite
	for _, it := range tc.a.array("entries", true, 1, 200) {
		ws = append(ws, entryWriteArgs(tc.a.child(tc.a.objectOf(it, true)), true, "draft", "published"))
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	for _, w := range ws {
		if err := tc.needPublish(w.status); err != nil {
			return nil, err
		}
	}
	m := cp.model(model)
	if m == nil {
		return nil, errText(fmt.Sprintf("Model %q not found", model))
	}
	entries, failed := []map[string]any{}, []map[string]any{}
	var h1 []string
	for i, w := range ws {
		e, warn, err := tc.createEntry(p, cp, slug, m, "", w)
		if err != nil {
			failed = append(failed, map[string]any{"idx": i, "sl": *w.slug, "err": err.Error()})
			continue
		}
		for _, l := range warn {
			h1 = append(h1, e.slug+" ("+l+")")
		}
		entries = append(entries, map[string]any{"id": e.id, "sl": e.slug, "st": e.status})
	}
	out := map[string]any{"created": len(entries), "entries": entries, "failed": failed}
	if len(h1) > 0 {
		out["warn"] = h1Warning(h1)
	}
	return out, nil
}

func (tc *toolCall) bulkUpdateEntries() (any, error) {
	p, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	type in struct {
		id string
		w  entryWrite
	}
	var ins []in
	for _, it := range tc.a.array("entries", true, 1, 200) {
		sub := tc.a.child(tc.a.objectOf(it, true))
		id := sub.uuidOf(sub.m["entryId"], true)
		w := entryWriteArgs(sub, false, "draft", "published", "archived")
		w.lang = strings.ToLower(sub.str("languageCode", false, 0, 0))
		ins = append(ins, in{id, w})
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	for _, u := range ins {
		if err := tc.needPublish(u.w.status); err != nil {
			return nil, err
		}
	}
	entries, failed := []map[string]any{}, []map[string]any{}
	var rows []bulkRow
	var h1 []string
	for i, u := range ins {
		e := cp.entry(u.id)
		if e == nil {
			failed = append(failed, map[string]any{"idx": i, "id": u.id, "err": "Entry not found"})
			continue
		}
		row, warn, err := tc.updateEntry(p, cp, slug, e, u.w)
		if err != nil {
			failed = append(failed, map[string]any{"idx": i, "id": u.id, "err": err.Error()})
			continue
		}
		for _, l := range warn {
			h1 = append(h1, e.slug+" ("+l+")")
		}
		rows = append(rows, row)
		entries = append(entries, map[string]any{"id": e.id, "st": e.status})
	}
	tc.fireRollup(webhook.EventEntriesBulkUpdated, slug, rows)
	out := map[string]any{"updated": len(entries), "entries": entries, "failed": failed}
	if len(h1) > 0 {
		out["warn"] = h1Warning(h1)
	}
	return out, nil
}

// A fieldIn is a Field input shape, as createContentModel, addField and
// updateField take it; nil members were not given.
type fieldIn struct {
	name, dn, tp, ph, ht *string
	loc, req, sit, mp    *bool
	pos                  *int
	enum                 [][2]string
	hasEnum              bool
	unsplash, ai         json.RawMessage
	fc                   bool
	tm                   *string
}

// fieldArgs reads a Field; with update, name and position are not read
// and nothing is required.
func fieldArgs(a *args, update bool) fieldIn {
	var f fieldIn
	if !update {
		f.name = a.optStr("name", 1, 100)
		if f.name == nil {
			a.str("name", true, 1, 100)
		} else {
			a.pattern(*f.name, fieldNameRE)
		}
		if present(a.m["position"]) {
			n := a.integer("position", 0, 0, 1<<30)
			f.pos = &n
		}
	}
	f.dn = a.optStr("displayName", 1, 200)
	if f.dn == nil && !update {
		a.str("displayName", true, 1, 200)
	}
	if present(a.m["type"]) {
		tp := a.enum("type", "text", fieldTypes...)
		f.tp = &tp
	}
	f.loc, f.req = a.optBool("localized"), a.optBool("required")
	f.ph, f.ht = a.optStr("placeholder", 0, 500), a.optStr("helpText", 0, 500)
	if o := a.objectOf(a.m["options"], false); o != nil {
		sub := a.child(o)
		if present(o["enumValues"]) {
			f.hasEnum = true
			f.enum = [][2]string{}
			for _, it := range sub.array("enumValues", false, 0, 200) {
				ev := sub.child(sub.objectOf(it, true))
				f.enum = append(f.enum, [2]string{ev.str("label", true, 1, 200), ev.str("value", true, 1, 200)})
			}
		}
		if u := sub.objectOf(o["unsplash"], false); u != nil {
			sub.child(u).boolean("enabled")
			f.unsplash = o["unsplash"]
		}
		if g := sub.objectOf(o["aiGeneration"], false); g != nil {
			gs := sub.child(g)
			gs.boolean("enabled")
			gs.str("prompt", false, 0, 2000)
			gs.str("model", false, 0, 100)
			f.ai = o["aiGeneration"]
		}
		f.sit = sub.optBool("showInTable")
	}
	if c := a.objectOf(a.m["fieldConfig"], false); c != nil {
		sub := a.child(c)
		f.fc = true
		f.tm = sub.optStr("targetModel", 0, 0)
		f.mp = sub.optBool("multiple")
	}
	return f
}

// set applies a Field input to f.
func (in fieldIn) set(f *cfield) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	setB := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&f.name, in.name)
	set(&f.dn, in.dn)
	set(&f.tp, in.tp)
	set(&f.ph, in.ph)
	set(&f.ht, in.ht)
	setB(&f.loc, in.loc)
	setB(&f.req, in.req)
	if in.hasEnum {
		f.enum = in.enum
	}
	if in.sit != nil {
		f.sit = in.sit
	}
	if in.unsplash != nil {
		f.unsplash = in.unsplash
	}
	if in.ai != nil {
		f.ai = in.ai
	}
	if in.fc {
		f.fc = true
		set(&f.tm, in.tm)
		setB(&f.mp, in.mp)
	}
}

func newField(in fieldIn) *cfield {
	f := &cfield{id: newUUID(), tp: "text"}
	in.set(f)
	return f
}

// insertField puts f at position pos (nil: the end) of m's fields.
func (m *cmodel) insertField(f *cfield, pos *int) {
	i := len(m.fields)
	if pos != nil {
		i = min(*pos, i)
	}
	m.fields = slices.Insert(m.fields, i, f)
}

func (tc *toolCall) createContentModel() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	a := tc.a
	m := &cmodel{id: newUUID()}
	m.slug = a.pattern(a.str("slug", true, 1, 100), modelSlugRE)
	m.dn = a.str("displayName", true, 1, 200)
	m.desc = a.str("description", false, 0, 1000)
	m.kind = a.enum("kind", "collection", "collection", "single")
	m.icon = a.str("icon", false, 0, 50)
	m.vh, m.ib = true, true
	if v := a.optBool("enableVersionHistory"); v != nil {
		m.vh = *v
	}
	if v := a.optBool("includeBody"); v != nil {
		m.ib = *v
	}
	var fields []fieldIn
	for _, it := range a.array("fields", false, 0, 0) {
		fields = append(fields, fieldArgs(a.child(a.objectOf(it, true)), false))
	}
	if e := a.err(); e != "" {
		return nil, errText(e)
	}
	switch {
	case m.slug == usersModel:
		return nil, errText(fmt.Sprintf("Model slug %q is reserved", m.slug))
	case cp.model(m.slug) != nil:
		return nil, errText(fmt.Sprintf("A model with slug %q already exists", m.slug))
	}
	for _, in := range fields {
		if m.field(*in.name) != nil {
			return nil, errText(fmt.Sprintf("Field %q is listed twice", *in.name))
		}
		m.insertField(newField(in), in.pos)
	}
	cp.models = append(cp.models, m)
	tc.fireModel(webhook.EventModelCreated, slug, m)
	return map[string]any{"created": true, "model": m.out()}, nil
}

func (tc *toolCall) updateContentModel() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	a := tc.a
	dn := a.optStr("displayName", 1, 200)
	desc := a.optStr("description", 0, 1000)
	var kind *string
	if present(a.m["kind"]) {
		k := a.enum("kind", "collection", "collection", "single")
		kind = &k
	}
	icon := a.optStr("icon", 0, 50)
	vh, ib := a.optBool("enableVersionHistory"), a.optBool("includeBody")
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	for _, p := range []struct{ dst, v *string }{{&m.dn, dn}, {&m.desc, desc}, {&m.kind, kind}, {&m.icon, icon}} {
		if p.v != nil {
			*p.dst = *p.v
		}
	}
	if vh != nil {
		m.vh = *vh
	}
	if ib != nil {
		m.ib = *ib
	}
	tc.fireModel(webhook.EventModelUpdated, slug, m)
	return map[string]any{"updated": true, "model": m.out()}, nil
}

func (tc *toolCall) deleteContentModel() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	for _, e := range slices.Clone(cp.entries) {
		if e.model == m {
			tc.deleteEntry(cp, slug, e)
		}
	}
	cp.models = slices.DeleteFunc(cp.models, func(x *cmodel) bool { return x == m })
	tc.fireModel(webhook.EventModelDeleted, slug, m)
	return map[string]any{"deleted": true, "ok": true}, nil
}

func (tc *toolCall) addField() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	in := fieldArgs(tc.a, false)
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	if m.field(*in.name) != nil {
		return nil, errText(fmt.Sprintf("Field %q already exists in model %q", *in.name, m.slug))
	}
	f := newField(in)
	m.insertField(f, in.pos)
	tc.fireField(webhook.EventFieldAdded, slug, m, f)
	return map[string]any{"created": true, "field": f.out(slices.Index(m.fields, f))}, nil
}

// fieldArg reads the "fieldName" argument and finds the field.
func (tc *toolCall) fieldArg(m *cmodel) (*cfield, error) {
	name := tc.a.str("fieldName", true, 1, 0)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	f := m.field(name)
	if f == nil {
		return nil, errText(fmt.Sprintf("Field %q not found in model %q", name, m.slug))
	}
	return f, nil
}

func (tc *toolCall) updateField() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	in := fieldArgs(tc.a, true)
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	f, err := tc.fieldArg(m)
	if err != nil {
		return nil, err
	}
	wasLoc := f.loc
	in.set(f)
	if wasLoc != f.loc {
		// Values move between the shared store and the source language;
		// other languages' values of a field no longer localized are lost.
		for _, e := range cp.entries {
			if e.model != m {
				continue
			}
			if f.loc {
				if v, ok := e.vals[f.name]; ok {
					e.lang(e.src).vals[f.name] = v
					delete(e.vals, f.name)
				}
				continue
			}
			if v, ok := e.langs[e.src].vals[f.name]; ok {
				e.vals[f.name] = v
			}
			for _, t := range e.langs {
				delete(t.vals, f.name)
			}
		}
	}
	tc.fireField(webhook.EventFieldUpdated, slug, m, f)
	return map[string]any{"updated": true, "field": f.out(slices.Index(m.fields, f))}, nil
}

func (tc *toolCall) removeField() (any, error) {
	_, cp, slug, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	f, err := tc.fieldArg(m)
	if err != nil {
		return nil, err
	}
	m.fields = slices.DeleteFunc(m.fields, func(x *cfield) bool { return x == f })
	for _, e := range cp.entries {
		if e.model == m {
			delete(e.vals, f.name)
			for _, t := range e.langs {
				delete(t.vals, f.name)
			}
		}
	}
	tc.fireField(webhook.EventFieldDeleted, slug, m, f)
	return map[string]any{"removed": true, "ok": true}, nil
}

func (tc *toolCall) reorderFields() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	var names []string
	for _, it := range tc.a.array("fieldNames", true, 1, 0) {
		names = append(names, tc.a.strOf(it, true, 0, 0))
	}
	m, err := tc.modelArg(cp)
	if err != nil {
		return nil, err
	}
	var order []*cfield
	for _, n := range names {
		f := m.field(n)
		switch {
		case f == nil:
			return nil, errText(fmt.Sprintf("Field %q not found in model %q", n, m.slug))
		case slices.Contains(order, f):
			return nil, errText(fmt.Sprintf("Field %q is listed twice", n))
		}
		order = append(order, f)
	}
	for _, f := range m.fields { // those not named keep their order, after
		if !slices.Contains(order, f) {
			order = append(order, f)
		}
	}
	m.fields = order
	return map[string]any{"reordered": true, "ok": true}, nil
}

// blockArgs reads a block's registration.
func blockArgs(a *args) cblock {
	b := cblock{
		slug: a.pattern(a.str("slug", true, 2, 64), blockSlugRE), dn: a.str("displayName", true, 1, 120),
		category: a.str("category", false, 0, 64), desc: a.str("description", false, 0, 500),
		previewURL: a.urlStr("previewUrl"), previewOrig: a.urlStr("previewOrigin"),
		sourceCommit: a.str("sourceCommit", false, 0, 64),
	}
	if a.objectOf(a.m["jsonSchema"], true) != nil {
		b.schema = a.m["jsonSchema"]
	}
	return b
}

func (b *cblock) out(full bool) map[string]any {
	o := map[string]any{"slug": b.slug, "displayName": b.dn, "category": nilIfEmpty(b.category), "description": nilIfEmpty(b.desc),
		"paramsSchema": b.schema, "previewUrl": nilIfEmpty(b.previewURL), "previewOrigin": nilIfEmpty(b.previewOrig)}
	if full {
		o["sourceCommit"] = nilIfEmpty(b.sourceCommit)
		o["registeredAt"] = stamp(b.registered)
		o["updatedAt"] = stamp(b.updated)
	}
	return o
}

// register upserts b by slug.
func (cp *cproject) register(b cblock, now time.Time) *cblock {
	for _, x := range cp.blocks {
		if x.slug == b.slug {
			b.registered = x.registered
			b.updated = now
			*x = b
			return x
		}
	}
	b.registered, b.updated = now, now
	cp.blocks = append(cp.blocks, &b)
	return &b
}

func (cp *cproject) block(slug string) *cblock {
	for _, b := range cp.blocks {
		if b.slug == slug {
			return b
		}
	}
	return nil
}

func (tc *toolCall) registerBlock() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	b := blockArgs(tc.a)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	return map[string]any{"registered": true, "block": cp.register(b, tc.now).out(true)}, nil
}

func (tc *toolCall) bulkRegisterBlocks() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	var bs []cblock
	for _, it := range tc.a.array("blocks", true, 1, 50) {
		bs = append(bs, blockArgs(tc.a.child(tc.a.objectOf(it, true))))
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e) // all or nothing
	}
	out := []map[string]any{}
	for _, b := range bs {
		out = append(out, cp.register(b, tc.now).out(true))
	}
	return map[string]any{"registered": len(out), "blocks": out}, nil
}

func (tc *toolCall) listBlocks() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	cat := tc.a.str("category", false, 0, 0)
	q := strings.ToLower(tc.a.str("search", false, 0, 0))
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	out := []map[string]any{}
	for _, b := range cp.blocks {
		text := strings.ToLower(b.slug + "\n" + b.dn + "\n" + b.desc)
		if (cat == "" || b.category == cat) && strings.Contains(text, q) {
			out = append(out, b.out(false))
		}
	}
	return map[string]any{"blocks": out}, nil
}

// blockArg reads the "slug" argument and finds the block.
func (tc *toolCall) blockArg(cp *cproject) (*cblock, error) {
	slug := tc.a.pattern(tc.a.str("slug", true, 2, 64), blockSlugRE)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	b := cp.block(slug)
	if b == nil {
		return nil, errText("Block not found")
	}
	return b, nil
}

func (tc *toolCall) getBlock() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	b, err := tc.blockArg(cp)
	if err != nil {
		return nil, err
	}
	return b.out(true), nil
}

func (tc *toolCall) validateBlockParams() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	if !present(tc.a.m["params"]) {
		tc.a.fail("Required")
	}
	tc.a.str("locale", false, 2, 10)
	b, err := tc.blockArg(cp)
	if err != nil {
		return nil, err
	}
	if errs := checkParams(b.schema, tc.a.m["params"]); len(errs) > 0 {
		return map[string]any{"valid": false, "errors": errs}, nil
	}
	return map[string]any{"valid": true}, nil
}

// checkParams checks params against the top level of a JSON Schema: the
// type object, required properties, and each property's type and enum.
// It is enough to answer in the documented shape, not a full validator.
func checkParams(schema, params json.RawMessage) []string {
	var s struct {
		Properties map[string]struct {
			Type string `json:"type"`
			Enum []any  `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	json.Unmarshal(schema, &s)
	var p map[string]json.RawMessage
	if jsonKind(params) != "object" || json.Unmarshal(params, &p) != nil {
		return []string{"params: Expected object, received " + jsonKind(params)}
	}
	var errs []string
	for _, r := range s.Required {
		if !present(p[r]) {
			errs = append(errs, "params."+r+": Required")
		}
	}
	for _, name := range slices.Sorted(maps.Keys(p)) {
		prop, ok := s.Properties[name]
		if !ok || !present(p[name]) {
			continue
		}
		got := jsonKind(p[name])
		want := prop.Type
		if want == "integer" {
			want = "number"
		}
		if want != "" && want != got {
			errs = append(errs, fmt.Sprintf("params.%s: Expected %s, received %s", name, prop.Type, got))
			continue
		}
		if len(prop.Enum) > 0 {
			var v any
			json.Unmarshal(p[name], &v)
			if !slices.ContainsFunc(prop.Enum, func(e any) bool { return e == v }) {
				errs = append(errs, fmt.Sprintf("params.%s: Invalid enum value", name))
			}
		}
	}
	return errs
}

func (tc *toolCall) deleteBlock() (any, error) {
	_, cp, _, err := tc.cproject()
	if err != nil {
		return nil, err
	}
	tc.a.enum("policy", "strict", "strict", "warn", "orphan")
	b, err := tc.blockArg(cp)
	if err != nil {
		return nil, err
	}
	cp.blocks = slices.DeleteFunc(cp.blocks, func(x *cblock) bool { return x == b })
	return map[string]any{"deleted": true}, nil
}
