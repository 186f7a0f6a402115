package partnertest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locsvc/partner-go/webhook"
)

// ContentAgentPrefix starts the actor.userId of every content event the
// content tools cause: the agent id is ContentAgentPrefix followed by the
// grant id, such as "mcp-agent-grant_1" (the service's example is
// "mcp-agent").
const ContentAgentPrefix = "mcp-agent-"

// The field types of a content model, as the content tools take them.
var fieldTypes = []string{"text", "textarea", "richtext", "number", "boolean", "date", "datetime", "enum", "media", "relation"}

// A ContentModel is a content model, as AddContentModel seeds it.
type ContentModel struct {
	// Slug names the model, such as "blog-post": ^[a-z0-9-]+$, unique in
	// the project; "users" is the virtual model of project members.
	Slug        string
	DisplayName string // Slug when empty
	Description string
	// Kind is "collection" (the default when empty) or "single".
	Kind   string
	Fields []ContentField
}

// A ContentField is a field of a ContentModel.
type ContentField struct {
	// Name is ^[a-z_][a-z0-9_]*$, unique in the model.
	Name        string
	DisplayName string // Name when empty
	// Type is one of text (the default when empty), textarea, richtext,
	// number, boolean, date, datetime, enum, media and relation.
	Type      string
	Localized bool
	Required  bool
	// EnumValues are an enum field's values; each is its own label.
	EnumValues []string
}

// A ContentEntry is a content entry as the server holds it, for tests to
// check what the content tools did.
type ContentEntry struct {
	ID    string // a UUID, as the tools take it
	Model string // the model's slug
	Slug  string
	// Status is "draft", "published" or "archived".
	Status string
	// PublishedAt is when it was last published; zero unless Status is
	// "published".
	PublishedAt          time.Time
	CreatedAt, UpdatedAt time.Time
	SourceLanguage       string
	// Translations are the entry's texts by language code; the source
	// language is always there.
	Translations map[string]ContentTranslation
	// Fields are the values of the model's fields that are not localized,
	// decoded from JSON (strings, float64, bool, []any, map[string]any).
	Fields map[string]any
}

// A ContentTranslation is one language of a ContentEntry.
type ContentTranslation struct {
	Title, Body string
	// Fields are the values of localized fields in this language.
	Fields map[string]any
}

// cproject is the content CMS state of a project.
type cproject struct {
	models  []*cmodel
	entries []*centry // creation order
	blocks  []*cblock // registration order
}

type cmodel struct {
	id, slug, dn, desc, kind, icon string
	vh, ib                         bool
	fields                         []*cfield // position order
}

type cfield struct {
	id, name, dn, tp string
	loc, req         bool
	ph, ht           string
	enum             [][2]string // label, value
	sit              *bool
	unsplash, ai     json.RawMessage
	fc               bool // fieldConfig given
	tm               string
	mp               bool
}

type centry struct {
	id, slug, status string
	model            *cmodel
	src              string // source language code
	pubAt, cAt, uAt  time.Time
	langs            map[string]*clang
	vals             map[string]json.RawMessage // values of fields that are not localized
	versions         []cversion
}

type clang struct {
	id, title, body string
	vals            map[string]json.RawMessage // values of localized fields
}

type cversion struct {
	id, lang, chg string
	v             int
	at            time.Time
	by            string
}

type cblock struct {
	slug, dn, category, desc string
	schema                   json.RawMessage
	previewURL, previewOrig  string
	sourceCommit             string
	registered, updated      time.Time
}

// cprojLocked returns a project's content state, made on first use.
func (s *Server) cprojLocked(p *Project) *cproject {
	cp := s.cprojects[p.ID]
	if cp == nil {
		cp = &cproject{}
		s.cprojects[p.ID] = cp
	}
	return cp
}

// AddContentModel adds a content model to a project, as if the customer
// had made it in the dashboard: no webhook is sent. It panics if the
// project is unknown or the model or one of its fields is invalid or
// already exists, as that is a mistake in the test.
func (s *Server) AddContentModel(projectID string, m ContentModel) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic(fmt.Sprintf("partnertest: AddContentModel: unknown project %q", projectID))
	}
	cp := s.cprojLocked(p)
	if !modelSlugRE.MatchString(m.Slug) || m.Slug == usersModel || cp.model(m.Slug) != nil {
		panic(fmt.Sprintf("partnertest: AddContentModel: model slug %q is invalid, reserved or taken", m.Slug))
	}
	kind := m.Kind
	if kind == "" {
		kind = "collection"
	}
	if kind != "collection" && kind != "single" {
		panic(fmt.Sprintf("partnertest: AddContentModel: kind %q", m.Kind))
	}
	cm := &cmodel{id: newUUID(), slug: m.Slug, dn: cmp.Or(m.DisplayName, m.Slug), desc: m.Description, kind: kind, vh: true, ib: true}
	for _, f := range m.Fields {
		tp := cmp.Or(f.Type, "text")
		if !fieldNameRE.MatchString(f.Name) || cm.field(f.Name) != nil || !slices.Contains(fieldTypes, tp) {
			panic(fmt.Sprintf("partnertest: AddContentModel: field %q of type %q is invalid or repeated", f.Name, f.Type))
		}
		cf := &cfield{id: newUUID(), name: f.Name, dn: cmp.Or(f.DisplayName, f.Name), tp: tp, loc: f.Localized, req: f.Required}
		for _, v := range f.EnumValues {
			cf.enum = append(cf.enum, [2]string{v, v})
		}
		cm.fields = append(cm.fields, cf)
	}
	cp.models = append(cp.models, cm)
}

// ContentEntries returns a project's content entries in the order they
// were made. It panics if the project is unknown.
func (s *Server) ContentEntries(projectID string) []ContentEntry {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic(fmt.Sprintf("partnertest: ContentEntries: unknown project %q", projectID))
	}
	var out []ContentEntry
	for _, e := range s.cprojLocked(p).entries {
		ce := ContentEntry{
			ID: e.id, Model: e.model.slug, Slug: e.slug, Status: e.status, PublishedAt: e.pubAt,
			CreatedAt: e.cAt, UpdatedAt: e.uAt, SourceLanguage: e.src,
			Translations: map[string]ContentTranslation{}, Fields: decodeVals(e.vals),
		}
		for l, t := range e.langs {
			ce.Translations[l] = ContentTranslation{Title: t.title, Body: t.body, Fields: decodeVals(t.vals)}
		}
		out = append(out, ce)
	}
	return out
}

func decodeVals(m map[string]json.RawMessage) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		var x any
		json.Unmarshal(v, &x)
		out[k] = x
	}
	return out
}

func (cp *cproject) model(slug string) *cmodel {
	for _, m := range cp.models {
		if m.slug == slug {
			return m
		}
	}
	return nil
}

func (cp *cproject) entry(id string) *centry {
	for _, e := range cp.entries {
		if strings.EqualFold(e.id, id) {
			return e
		}
	}
	return nil
}

// slugTaken reports whether another entry of model m has this slug.
func (cp *cproject) slugTaken(m *cmodel, slug string, except *centry) bool {
	return slices.ContainsFunc(cp.entries, func(e *centry) bool { return e != except && e.model == m && e.slug == slug })
}

func (cp *cproject) removeEntry(e *centry) {
	cp.entries = slices.DeleteFunc(cp.entries, func(x *centry) bool { return x == e })
}

func (m *cmodel) field(name string) *cfield {
	for _, f := range m.fields {
		if f.name == name {
			return f
		}
	}
	return nil
}

// langList returns the entry's languages, sorted.
func (e *centry) langList() []string { return slices.Sorted(maps.Keys(e.langs)) }

// lang returns the entry's text in language l, made on first use.
func (e *centry) lang(l string) *clang {
	t := e.langs[l]
	if t == nil {
		t = &clang{id: newUUID(), vals: map[string]json.RawMessage{}}
		e.langs[l] = t
	}
	return t
}

// value returns the value of field f in the source language, or nil.
func (e *centry) value(f *cfield) json.RawMessage {
	if f.loc {
		return e.langs[e.src].vals[f.name]
	}
	return e.vals[f.name]
}

// addVersions notes a change of the given languages (the source language
// when none) in the entry's history, if the model keeps one.
func (e *centry) addVersions(langs []string, chg string, at time.Time, by string) {
	if !e.model.vh {
		return
	}
	if len(langs) == 0 {
		langs = []string{e.src}
	}
	for _, l := range langs {
		e.versions = append(e.versions, cversion{id: newUUID(), v: len(e.versions) + 1, lang: l, chg: chg, at: at, by: by})
	}
}

// stamp formats a time as the content tools do.
func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z07:00") }

// stampOrNil is stamp, or nil for the zero time.
func stampOrNil(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return stamp(t)
}

// cfvString renders a field value as cfv shows it: a string as is, null
// as nil, anything else as its JSON text.
func cfvString(v json.RawMessage) any {
	if !present(v) {
		return nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

func (m *cmodel) ref() map[string]any {
	return map[string]any{"sl": m.slug, "dn": m.dn, "kind": m.kind}
}

// cfv returns the entry's field values in language l (localized fields)
// and shared values, rendered as cfv shows them.
func (e *centry) cfv(l string) map[string]any {
	out := map[string]any{}
	for _, f := range e.model.fields {
		if f.loc {
			var v json.RawMessage
			if t := e.langs[l]; t != nil {
				v = t.vals[f.name]
			}
			out[f.name] = cfvString(v)
		} else {
			out[f.name] = cfvString(e.vals[f.name])
		}
	}
	return out
}

// min returns the entry as EntryMin.
func (e *centry) min() map[string]any {
	return map[string]any{
		"id": e.id, "sl": e.slug, "st": e.status, "pub_at": stampOrNil(e.pubAt),
		"c_at": stamp(e.cAt), "u_at": stamp(e.uAt), "slang": e.src, "langs": e.langList(),
		"mdl": e.model.ref(), "cfv": e.cfv(e.src),
	}
}

func (f *cfield) out(pos int) map[string]any {
	o := map[string]any{"id": f.id, "nm": f.name, "dn": f.dn, "tp": f.tp, "loc": f.loc, "req": f.req,
		"ph": nilIfEmpty(f.ph), "ht": nilIfEmpty(f.ht), "pos": pos}
	opts := map[string]any{}
	if f.enum != nil {
		ev := []map[string]string{}
		for _, e := range f.enum {
			ev = append(ev, map[string]string{"l": e[0], "v": e[1]})
		}
		opts["ev"] = ev
	}
	if f.sit != nil {
		opts["sit"] = *f.sit
	}
	if len(opts) > 0 {
		o["opts"] = opts
	}
	if f.fc {
		fc := map[string]any{"mp": f.mp}
		if f.tm != "" {
			fc["tm"] = f.tm
		}
		o["fc"] = fc
	}
	return o
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (m *cmodel) out() map[string]any {
	flds := []map[string]any{}
	for i, f := range m.fields {
		flds = append(flds, f.out(i))
	}
	return map[string]any{"id": m.id, "sl": m.slug, "dn": m.dn, "desc": nilIfEmpty(m.desc), "kind": m.kind,
		"ico": nilIfEmpty(m.icon), "vh": m.vh, "ib": m.ib, "flds": flds}
}

// contentTickLocked returns the time of the next content mutation: the
// server's clock to the millisecond, but always at least a millisecond
// after the previous mutation's, so that the events' own timestamps order
// them.
func (s *Server) contentTickLocked(now time.Time) time.Time {
	t := now.UTC().Truncate(time.Millisecond)
	if !t.After(s.contentClock) {
		t = s.contentClock.Add(time.Millisecond)
	}
	s.contentClock = t
	return t
}

// meta returns the shared fields of a content event at ts.
func (tc *toolCall) meta(slug, model string, ts time.Time) webhook.ContentMeta {
	m := webhook.ContentMeta{Timestamp: ts, Org: orgSlug(slug), Project: projSlug(slug),
		Actor: &webhook.Actor{UserID: ContentAgentPrefix + tc.g.ID, Via: webhook.ViaMCP}}
	if model != "" {
		m.Model = &model
	}
	return m
}

func (tc *toolCall) agent() string { return ContentAgentPrefix + tc.g.ID }

func statusPtr(s string) *webhook.EntryStatus {
	if s == "" {
		return nil
	}
	st := webhook.EntryStatus(s)
	return &st
}

// fireEntry queues a single-entry event about e at ts. prev is the status
// before ("" for none); changed is nil for content.entry.deleted, whose
// entry fields are null.
func (tc *toolCall) fireEntry(typ webhook.EventType, slug string, e *centry, prev string, changed []string, ts time.Time) {
	ch := webhook.EntryChange{
		ContentMeta: tc.meta(slug, e.model.slug, ts),
		Entry:       webhook.Entry{ID: e.id, Slug: e.slug},
		Languages:   e.langList(),
	}
	if typ != webhook.EventEntryDeleted {
		src := e.src
		ch.Entry.Status, ch.Entry.PreviousStatus, ch.Entry.SourceLanguageCode = statusPtr(e.status), statusPtr(prev), &src
		if !e.pubAt.IsZero() {
			at := e.pubAt
			ch.Entry.PublishedAt = &at
		}
		ch.ChangedLanguages = nonNil(changed)
	}
	var data any
	switch typ {
	case webhook.EventEntryCreated:
		data = &webhook.EntryCreated{EntryChange: ch}
	case webhook.EventEntryUpdated:
		data = &webhook.EntryUpdated{EntryChange: ch}
	case webhook.EventEntryPublished:
		data = &webhook.EntryPublished{EntryChange: ch}
	case webhook.EventEntryUnpublished:
		data = &webhook.EntryUnpublished{EntryChange: ch}
	case webhook.EventEntryDeleted:
		data = &webhook.EntryDeleted{EntryChange: ch}
	default:
		panic("partnertest: fireEntry with " + string(typ))
	}
	tc.fire(typ, data)
}

// A bulkRow is one affected entry of a bulk call.
type bulkRow struct {
	e          *centry
	prev, next string
}

// fireRollup queues a bulk rollup event after the per-entry events, if
// any entry was affected.
func (tc *toolCall) fireRollup(typ webhook.EventType, slug string, rows []bulkRow) {
	if len(rows) == 0 {
		return
	}
	ts := tc.s.contentTickLocked(tc.now)
	ch := webhook.BulkChange{ContentMeta: tc.meta(slug, "", ts), Count: len(rows), Languages: []string{}}
	models := map[string]bool{}
	for _, r := range rows {
		ch.Entries = append(ch.Entries, webhook.BulkEntry{ID: r.e.id, Slug: r.e.slug, PreviousStatus: statusPtr(r.prev), Status: statusPtr(r.next)})
		for _, l := range r.e.langList() {
			if !slices.Contains(ch.Languages, l) {
				ch.Languages = append(ch.Languages, l)
			}
		}
		models[r.e.model.slug] = true
	}
	slices.Sort(ch.Languages)
	if len(models) == 1 {
		m := rows[0].e.model.slug
		ch.Model = &m
	}
	if typ == webhook.EventEntriesBulkPublished {
		tc.fire(typ, &webhook.EntriesBulkPublished{BulkChange: ch})
	} else {
		tc.fire(typ, &webhook.EntriesBulkUpdated{BulkChange: ch})
	}
}

// fireField queues a field event.
func (tc *toolCall) fireField(typ webhook.EventType, slug string, m *cmodel, f *cfield) {
	ch := webhook.FieldChange{ContentMeta: tc.meta(slug, m.slug, tc.s.contentTickLocked(tc.now)),
		Field: webhook.Field{Name: f.name, Type: f.tp, Localized: f.loc}}
	switch typ {
	case webhook.EventFieldAdded:
		tc.fire(typ, &webhook.FieldAdded{FieldChange: ch})
	case webhook.EventFieldUpdated:
		tc.fire(typ, &webhook.FieldUpdated{FieldChange: ch})
	default:
		tc.fire(typ, &webhook.FieldDeleted{FieldChange: ch})
	}
}

// fireModel queues a model event.
func (tc *toolCall) fireModel(typ webhook.EventType, slug string, m *cmodel) {
	meta := tc.meta(slug, m.slug, tc.s.contentTickLocked(tc.now))
	switch typ {
	case webhook.EventModelCreated:
		tc.fire(typ, &webhook.ModelCreated{ContentMeta: meta})
	case webhook.EventModelUpdated:
		tc.fire(typ, &webhook.ModelUpdated{ContentMeta: meta})
	default:
		tc.fire(typ, &webhook.ModelDeleted{ContentMeta: meta})
	}
}

// checkValue checks a value for field f and returns it normalised, or an
// error text.
func checkValue(f *cfield, v json.RawMessage) (json.RawMessage, error) {
	if !present(v) {
		if f.req {
			return nil, errText(fmt.Sprintf("Field %q is required", f.name))
		}
		return nil, nil
	}
	bad := func(want string) error {
		return errText(fmt.Sprintf("Invalid value for field %q: expected %s, received %s", f.name, want, jsonKind(v)))
	}
	var s string
	isStr := json.Unmarshal(v, &s) == nil
	switch f.tp {
	case "number":
		var n float64
		if json.Unmarshal(v, &n) != nil {
			return nil, bad("a number")
		}
	case "boolean":
		var b bool
		if json.Unmarshal(v, &b) != nil {
			return nil, bad("a boolean")
		}
	case "date":
		if _, err := time.Parse(time.DateOnly, s); !isStr || err != nil {
			return nil, bad("a date (YYYY-MM-DD)")
		}
	case "datetime":
		if _, err := time.Parse(time.RFC3339, s); !isStr || err != nil {
			return nil, bad("an ISO 8601 date and time")
		}
	case "enum":
		if !isStr {
			return nil, bad("a string")
		}
		if len(f.enum) > 0 && !slices.ContainsFunc(f.enum, func(e [2]string) bool { return e[1] == s }) {
			var vs []string
			for _, e := range f.enum {
				vs = append(vs, strconv.Quote(e[1]))
			}
			return nil, errText(fmt.Sprintf("Invalid value for field %q: %q is not one of %s", f.name, s, strings.Join(vs, ", ")))
		}
	case "relation":
		var ids []string
		if !isStr && (!f.mp || json.Unmarshal(v, &ids) != nil) {
			if f.mp {
				return nil, bad("an entry id or an array of them")
			}
			return nil, bad("an entry id")
		}
	default:
		if !isStr {
			return nil, bad("a string")
		}
	}
	return v, nil
}
