package partnertest

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/translations"
	"github.com/locsvc/partner-go/webhook"
)

// Timings of the translation tools, on the server's clock.
const (
	// PublishCooldown is how long publishTranslations refuses a second
	// publish of the same project (TOO_MANY_REQUESTS).
	PublishCooldown = 30 * time.Second
	// SyncPendingTime is how long a sync job stays pending, and
	// SyncRunTime how long it is in_progress after that; then it is
	// completed.
	SyncPendingTime = time.Second
	SyncRunTime     = 2 * time.Second
)

// A GlossaryTerm is a project's glossary entry, as getTranslationContext
// returns it.
type GlossaryTerm struct {
	Term string
	// Type is one of "brand", "product", "technical", "terminology".
	Type        string
	Description string
	// DoNotTranslate marks a term that is never translated.
	DoNotTranslate bool
	// Translations are the term's translations by language code.
	Translations map[string]string
}

// toolScopes are the scopes the service documents for the translation
// tools; the others need none.
var toolScopes = map[string]string{
	"listProjects":          ScopeProjectsRead,
	"getProject":            ScopeProjectsRead,
	"getTranslationContext": ScopeProjectsRead,
	"listKeys":              ScopeKeysRead,
	"createKeys":            ScopeKeysWrite,
	"deleteKeys":            ScopeKeysWrite,
	"updateKeys":            ScopeTranslationsWrite,
	"setTranslations":       ScopeTranslationsWrite,
	"getTranslations":       ScopeTranslationsRead,
	"publishTranslations":   ScopeTranslationsPublish,
}

// tproject is the translation state of a project.
type tproject struct {
	keys     []*tkey
	nsDesc   map[string]string // namespace descriptions, by name; every namespace used has an entry
	nsPrompt map[string]string // namespace AI prompts (a context's aiPrompt), by name
	nsOrder  []string
	langs    map[string]string // language status by code: active, draft, archived
	langChg  []string          // language codes with unpublished status changes
	syncs    []*syncJob
	lastPub  time.Time
	glossary []GlossaryTerm
	// files and keyFormat are the layout SetProjectLayout set; "" is the
	// service's null.
	files     translations.FileStructure
	keyFormat translations.KeyFormat
}

type tkey struct {
	id, name, ns, src string
	tr                map[string]*ttext
	deleted           bool // soft-deleted; permanent at the next publish
	created           time.Time
}

type ttext struct {
	id, text, status string // draft, approved, published
	pending          bool
}

type syncJob struct {
	id, tp    string
	project   *Project
	org       string // slug
	started   time.Time
	cancelled time.Time
	keys      []string // names of the keys affected
	langs     []string
	notified  bool
	files     cdnFiles // what the CDN serves once the job completed
}

// state returns the job's status at now.
func (j *syncJob) state(now time.Time) string {
	switch {
	case !j.cancelled.IsZero():
		return "cancelled"
	case now.Before(j.started.Add(SyncPendingTime)):
		return "pending"
	case now.Before(j.started.Add(SyncPendingTime + SyncRunTime)):
		return "in_progress"
	}
	return "completed"
}

func (j *syncJob) completedAt() time.Time { return j.started.Add(SyncPendingTime + SyncRunTime) }

func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// tprojLocked returns a project's translation state, made on first use.
func (s *Server) tprojLocked(p *Project) *tproject {
	tp := s.tprojects[p.ID]
	if tp == nil {
		tp = &tproject{nsDesc: map[string]string{}, nsPrompt: map[string]string{}, langs: map[string]string{}}
		s.tprojects[p.ID] = tp
	}
	return tp
}

// AddGlossaryTerm adds a term to a project's glossary, which
// getTranslationContext returns. It panics if the project is unknown.
func (s *Server) AddGlossaryTerm(projectID string, t GlossaryTerm) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic(fmt.Sprintf("partnertest: AddGlossaryTerm: unknown project %q", projectID))
	}
	t.Translations = cloneMap(t.Translations)
	tp := s.tprojLocked(p)
	tp.glossary = append(tp.glossary, t)
}

func cloneMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// A TranslationKey is a translation key as the server holds it, for tests
// to check what the tools did.
type TranslationKey struct {
	ID, Name, Namespace, SourceText string
	// Translations are the key's texts by language code.
	Translations map[string]Translation
	// Deleted reports a soft delete that the next publish makes permanent.
	Deleted bool
}

// A Translation is one language's text of a key.
type Translation struct {
	Text string
	// Status is "draft", "approved" or "published".
	Status string
}

// TranslationKeys returns a project's translation keys in the order they
// were made. It panics if the project is unknown.
func (s *Server) TranslationKeys(projectID string) []TranslationKey {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic(fmt.Sprintf("partnertest: TranslationKeys: unknown project %q", projectID))
	}
	var out []TranslationKey
	for _, k := range s.tprojLocked(p).keys {
		tk := TranslationKey{ID: k.id, Name: k.name, Namespace: k.ns, SourceText: k.src, Deleted: k.deleted,
			Translations: map[string]Translation{}}
		for l, t := range k.tr {
			tk.Translations[l] = Translation{Text: t.text, Status: t.status}
		}
		out = append(out, tk)
	}
	return out
}

// toolCall is one tools/call being served.
type toolCall struct {
	s     *Server
	name  string
	now   time.Time
	g     *grant
	tok   *token
	a     *args
	fires []firing // webhooks to send once the state is unlocked
	pid   string   // the id of the project the call names, once resolved
}

// firing is an event of a project, for the project's webhook configs.
type firing struct {
	project string // id
	typ     webhook.EventType
	data    any
}

// errText is a tool failure: an isError result with this text.
type errText string

func (e errText) Error() string { return string(e) }

// toolFunc serves a tool with s.mu held and returns its result object.
type toolFunc func(tc *toolCall) (any, error)

type toolDef struct {
	name   string
	kind   byte // 'R', 'W', 'D'
	desc   string
	schema string // JSON Schema of the input's properties (an object's members)
	req    []string
	fn     toolFunc
}

const projectProp = `"project":{"type":"string","description":"org-slug/project-slug"}`

func toolDefs() []toolDef {
	return []toolDef{
		{"listProjects", 'R', "List the projects you can access.", ``, nil, (*toolCall).listProjects},
		{"getProject", 'R', "Get a project's namespaces, languages and coverage.", projectProp, []string{"project"}, (*toolCall).getProject},
		{"proposeLanguages", 'W', "Add target languages.", projectProp + `,"languages":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{"languageCode":{"type":"string"},"status":{"type":"string","enum":["active","draft"]}},"required":["languageCode"]}}`, []string{"project", "languages"}, (*toolCall).proposeLanguages},
		{"proposeLanguageEdits", 'W', "Change target languages' status.", projectProp + `,"edits":{"type":"array","minItems":1,"maxItems":50,"items":{"type":"object","properties":{"languageCode":{"type":"string"},"newStatus":{"type":"string","enum":["active","draft","archived"]}},"required":["languageCode","newStatus"]}}`, []string{"project", "edits"}, (*toolCall).proposeLanguageEdits},
		{"listKeys", 'R', "List keys, a page at a time.", projectProp + `,"search":{"type":"string"},"namespaces":{"type":"array","items":{"type":"string"}},"missingLanguage":{"type":"string"},"fields":{"type":"array","items":{"type":"string","enum":["id","sourceText","translations","translatedLanguages","translatedLanguageCount"]}},"page":{"type":"integer","minimum":1},"limit":{"type":"integer","minimum":1,"maximum":100}`, []string{"project"}, (*toolCall).listKeys},
		{"getTranslations", 'R', "Get translations of keys.", projectProp + `,"search":{"type":"string"},"languages":{"type":"array","items":{"type":"string"}},"namespaces":{"type":"array","items":{"type":"string"}},"keys":{"type":"array","items":{"type":"string"}},"status":{"type":"string","enum":["missing","draft","published","all"]},"limit":{"type":"integer","minimum":1,"maximum":200}`, []string{"project"}, (*toolCall).getTranslations},
		{"createKeys", 'W', "Create keys with source text and translations.", projectProp + `,"k":{"type":"array","minItems":1,"items":{"type":"object","properties":{"n":{"type":"string"},"ns":{"type":"string"},"v":{"type":"string"},"t":{"type":"object","additionalProperties":{"type":"string"}},"nc":{"type":"object"}},"required":["n"]}},"force":{"type":"boolean"}`, []string{"project", "k"}, (*toolCall).createKeys},
		{"updateKeys", 'W', "Update translations or source text of keys.", projectProp + `,"t":{"type":"array","minItems":1,"items":{"type":"object","properties":{"id":{"type":"string"},"l":{"type":"string"},"t":{"type":"string"},"s":{"type":"boolean"},"st":{"type":"string"}},"required":["id","l","t"]}}`, []string{"project", "t"}, (*toolCall).updateKeys},
		{"setTranslations", 'W', "Write approved translations.", projectProp + `,"t":{"type":"array","minItems":1,"maxItems":500,"items":{"type":"object","properties":{"id":{"type":"string","format":"uuid"},"t":{"type":"object","additionalProperties":{"type":"string"}}},"required":["id","t"]}}`, []string{"project", "t"}, (*toolCall).setTranslations},
		{"deleteKeys", 'D', "Delete keys (permanent at the next publish).", projectProp + `,"keyIds":{"type":"array","minItems":1,"maxItems":100,"items":{"type":"string","format":"uuid"}}`, []string{"project", "keyIds"}, (*toolCall).deleteKeys},
		{"getPendingChanges", 'R', "Show unpublished changes.", projectProp, []string{"project"}, (*toolCall).getPendingChanges},
		{"publishTranslations", 'W', "Publish pending changes.", projectProp + `,"translations":{"type":"array","items":{"type":"object","properties":{"keyId":{"type":"string"},"languageCode":{"type":"string"}},"required":["keyId","languageCode"]}}`, []string{"project"}, (*toolCall).publishTranslations},
		{"getSyncs", 'R', "List sync jobs.", projectProp + `,"limit":{"type":"integer","minimum":1,"maximum":50},"status":{"type":"string","enum":["pending","in_progress","completed","failed"]},"type":{"type":"string","enum":["initial_import","source_sync","cdn_upload","batch_publish"]}`, []string{"project"}, (*toolCall).getSyncs},
		{"getSync", 'R', "Get a sync job, optionally waiting for it to finish.", `"syncId":{"type":"string"},"waitMs":{"type":"integer","minimum":0,"maximum":25000}`, []string{"syncId"}, nil},
		{"cancelSync", 'W', "Cancel a pending sync job.", projectProp + `,"syncId":{"type":"string"}`, []string{"project", "syncId"}, (*toolCall).cancelSync},
		{"getTranslationContext", 'R', "Glossary, tone and similar translations.", projectProp + `,"keys":{"type":"array","maxItems":50,"items":{"type":"string","format":"uuid"}},"kPerKey":{"type":"integer","minimum":1,"maximum":20},"languages":{"type":"array","items":{"type":"string"}}`, []string{"project"}, (*toolCall).getTranslationContext},
	}
}

// newMCPServer builds an MCP server with these tools.
func (s *Server) newMCPServer(name, instructions string, defs []toolDef) *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: name, Version: "0.0.0"}, &mcp.ServerOptions{
		Instructions: instructions,
		// The service's servers advertise {tools:{}, logging:{}}.
		//lint:ignore SA1019 the hosted servers still advertise logging; the fake answers as they do
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}, Logging: &mcp.LoggingCapabilities{}},
		SupportedProtocolVersions: MCPProtocolVersions(),
	})
	f := false
	for _, d := range defs {
		req, _ := json.Marshal(nonNil(d.req))
		schema := json.RawMessage(`{"type":"object","properties":{` + d.schema + `},"required":` + string(req) + `}`)
		ann := &mcp.ToolAnnotations{ReadOnlyHint: d.kind == 'R', DestructiveHint: &f, OpenWorldHint: &f}
		if d.kind == 'D' {
			t := true
			ann.DestructiveHint = &t
		}
		srv.AddTool(&mcp.Tool{Name: d.name, Description: d.desc, InputSchema: schema, Annotations: ann}, s.toolHandler(d))
	}
	return srv
}

func (s *Server) toolHandler(d toolDef) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tc := &toolCall{s: s, name: d.name, now: s.Now(), a: newArgs(req.Params.Arguments)}
		if req.Extra != nil {
			if v, ok := strings.CutPrefix(req.Extra.Header.Get("Authorization"), "Bearer "); ok {
				s.mu.Lock()
				tc.tok = s.tokens[strings.TrimSpace(v)]
				s.mu.Unlock()
			}
		}
		if tc.tok == nil { // checked before; gone since
			return textResult("Unauthorized", true), nil
		}
		tc.g = tc.tok.grant
		var (
			out any
			err error
		)
		if d.name == "getSync" {
			out, err = tc.getSyncWait(ctx)
		} else {
			s.mu.Lock()
			out, err = tc.run(d)
			s.mu.Unlock()
		}
		s.fire(tc.fires)
		if err != nil {
			return textResult(err.Error(), true), nil
		}
		b, jerr := json.MarshalIndent(out, "", "  ")
		if jerr != nil {
			return nil, jerr
		}
		return textResult(string(b), false), nil
	}
}

// nonNil returns s, or an empty slice for nil, so that it marshals as [].
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func textResult(text string, isError bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isError}
}

// run checks the scope and serves the tool; s.mu is held.
func (tc *toolCall) run(d toolDef) (any, error) {
	if err := tc.needScope(cmp.Or(toolScopes[d.name], contentToolScopes[d.name])); err != nil {
		return nil, err
	}
	tc.s.settleLocked(tc.now)
	return d.fn(tc)
}

// needScope returns the isError of a call whose token lacks scope sc, or
// nil ("" needs none).
func (tc *toolCall) needScope(sc string) error {
	if sc != "" && !tc.tok.scopes[sc] {
		return errText("Forbidden: missing_scope: the installation token lacks scope " + sc + " (required: " + sc + ")")
	}
	return nil
}

// project resolves the "project" argument to a project of the grant's
// organizations.
func (tc *toolCall) project() (*Project, *tproject, string, error) {
	v := tc.a.str("project", true, 0, 0)
	if e := tc.a.err(); e != "" {
		return nil, nil, "", errText(e)
	}
	orgSlug, projSlug, ok := strings.Cut(v, "/")
	if !ok || orgSlug == "" || projSlug == "" || strings.Contains(projSlug, "/") {
		return nil, nil, "", errText(fmt.Sprintf("Invalid project format %q. Expected \"org/project\" (e.g., \"acme/website\")", v))
	}
	s := tc.s
	for _, o := range s.orgs {
		if o.Slug != orgSlug {
			continue
		}
		for _, p := range o.projects {
			if p.Slug == projSlug {
				if !tc.g.hasOrg(o.ID) {
					return nil, nil, "", errText("Forbidden")
				}
				tc.pid = p.ID
				return p, s.tprojLocked(p), v, nil
			}
		}
	}
	return nil, nil, "", errText("Project not found")
}

func (tc *toolCall) fire(typ webhook.EventType, data any) {
	tc.fires = append(tc.fires, firing{tc.pid, typ, data})
}

func orgSlug(slug string) string  { o, _, _ := strings.Cut(slug, "/"); return o }
func projSlug(slug string) string { _, p, _ := strings.Cut(slug, "/"); return p }

// liveKeys are a project's keys that are not deleted.
func (tp *tproject) liveKeys() []*tkey {
	var out []*tkey
	for _, k := range tp.keys {
		if !k.deleted {
			out = append(out, k)
		}
	}
	return out
}

// keyCount is the number of live keys in namespace ns.
func (tp *tproject) keyCount(ns string) int {
	n := 0
	for _, k := range tp.keys {
		if !k.deleted && k.ns == ns {
			n++
		}
	}
	return n
}

func (tp *tproject) key(id string) *tkey {
	for _, k := range tp.keys {
		if k.id == id && !k.deleted {
			return k
		}
	}
	return nil
}

func (tp *tproject) useNamespace(ns string) {
	if _, ok := tp.nsDesc[ns]; !ok {
		tp.nsDesc[ns] = ""
		tp.nsOrder = append(tp.nsOrder, ns)
	}
}

// targetLangs are the project's target languages that are not archived.
func targetLangs(p *Project, tp *tproject) []string {
	var out []string
	for _, l := range p.TargetLanguages {
		if tp.langs[l.Code] != "archived" {
			out = append(out, l.Code)
		}
	}
	return out
}

func (tp *tproject) pendingCount() int {
	n := len(tp.langChg)
	for _, k := range tp.keys {
		if k.deleted {
			n++
			continue
		}
		for _, t := range k.tr {
			if t.pending {
				n++
			}
		}
	}
	return n
}

func (tp *tproject) pub() map[string]any {
	n := tp.pendingCount()
	if n == 0 {
		return nil
	}
	return map[string]any{"has": true, "cnt": n, "hint": "Call publishTranslations to publish pending changes."}
}

func (tc *toolCall) listProjects() (any, error) {
	var out []map[string]any
	for _, o := range tc.g.Organizations {
		for _, p := range tc.s.orgs[o.ID].projects {
			tp := tc.s.tprojLocked(p)
			out = append(out, map[string]any{
				"id": p.ID, "slug": o.Slug + "/" + p.Slug, "name": p.Name, "organizationName": o.Name,
				"sourceLanguage": p.SourceLanguage, "targetLanguages": nonNil(targetLangs(p, tp)),
				"cdnFormat": "json", "fileStructure": nullIfEmpty(string(tp.files)), "keyFormat": nullIfEmpty(string(tp.keyFormat)),
			})
		}
	}
	return map[string]any{"projects": nonNil(out), "cdnBaseUrl": tc.s.CDNURL}, nil
}

// nullIfEmpty is nil for "", as the service sends an unset layout.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// SetProjectLayout sets how the project's files are laid out, as the
// translation tools report it: listProjects' fileStructure and
// keyFormat, and getProject's CDN pattern and example URLs. "" is the
// service's null (single_file, nested), which is also where a project
// starts. It panics if the project is unknown.
func (s *Server) SetProjectLayout(projectID string, fs translations.FileStructure, kf translations.KeyFormat) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic(fmt.Sprintf("partnertest: SetProjectLayout: unknown project %q", projectID))
	}
	tp := s.tprojLocked(p)
	tp.files, tp.keyFormat = fs, kf
}

func (tc *toolCall) getProject() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	live := tp.liveKeys()
	var nss []map[string]any
	for _, ns := range tp.nsOrder {
		nss = append(nss, map[string]any{"nm": ns, "kc": tp.keyCount(ns), "desc": tp.nsDesc[ns], "ctx": nil})
	}
	langs := targetLangs(p, tp)
	cov := map[string]any{}
	for _, l := range langs {
		tr := 0
		for _, k := range live {
			if k.tr[strings.ToLower(l)] != nil { // texts are kept by the lowercase code
				tr++
			}
		}
		pct := 0
		if len(live) > 0 {
			pct = tr * 100 / len(live)
		}
		cov[l] = map[string]int{"tr": tr, "pct": pct}
	}
	base := tc.s.CDNURL + "/" + slug
	fs, kf := tp.fileLayout()
	src := strings.ToLower(p.SourceLanguage) // the CDN spells every language in lowercase
	pat, ex := base+"/{locale}/translations.json", []string{base + "/" + src + "/translations.json"}
	if fs == translations.NamespacedFolders {
		pat, ex = base+"/{locale}/{namespace}.json", nil
		for _, ns := range tp.nsOrder {
			ex = append(ex, base+"/"+src+"/"+ns+".json")
		}
	}
	return map[string]any{
		"prj": slug, "sl": p.SourceLanguage, "nss": nonNil(nss), "lng": nonNil(langs),
		"tk": len(live), "cov": cov,
		"cdn": map[string]any{"base": base, "mfst": base + "/manifest.json", "pat": pat,
			"ex": nonNil(ex), "fs": fs, "kf": kf},
	}, nil
}

func (tc *toolCall) proposeLanguages() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type in struct{ code, status string }
	var ins []in
	for _, it := range tc.a.array("languages", true, 1, 50) {
		m := tc.a.objectOf(it, true)
		code := strings.ToLower(tc.a.strOf(m["languageCode"], true, 2, 10))
		st := (&args{m: m}).enum("status", "active", "active", "draft")
		ins = append(ins, in{code, st})
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	var results []map[string]any
	added, skipped := 0, 0
	for _, l := range ins {
		exists := slices.ContainsFunc(p.TargetLanguages, func(x Language) bool { return x.Code == l.code })
		ok := !exists && l.code != strings.ToLower(p.SourceLanguage)
		if ok {
			p.TargetLanguages = append(p.TargetLanguages, Language{Code: l.code, Name: languageName(l.code)})
			tp.langs[l.code] = l.status
			tp.langChg = append(tp.langChg, l.code)
			added++
			tc.fire(webhook.EventLanguageAdded, &webhook.LanguageAdded{Org: orgSlug(slug), Project: projSlug(slug), Language: l.code, LanguageName: languageName(l.code)})
		} else {
			skipped++
		}
		results = append(results, map[string]any{"languageCode": l.code, "status": l.status, "added": ok})
	}
	out := map[string]any{"success": true, "added": added, "skipped": skipped, "results": results, "project": slug}
	if n := tp.pendingCount(); n > 0 {
		out["pendingPublish"] = map[string]any{"hasChanges": true, "count": n, "hint": "Call publishTranslations to publish."}
	}
	return out, nil
}

func (tc *toolCall) proposeLanguageEdits() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type in struct{ code, status string }
	var ins []in
	for _, it := range tc.a.array("edits", true, 1, 50) {
		m := tc.a.objectOf(it, true)
		sub := &args{m: m}
		code := strings.ToLower(sub.strOf(m["languageCode"], true, 2, 10))
		st := sub.enum("newStatus", "", "active", "draft", "archived")
		if !present(m["newStatus"]) {
			sub.fail("Required")
		}
		tc.a.errs = append(tc.a.errs, sub.errs...)
		ins = append(ins, in{code, st})
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	results := []map[string]any{}
	notFound := []string{}
	for _, l := range ins {
		if !slices.ContainsFunc(p.TargetLanguages, func(x Language) bool { return x.Code == l.code }) {
			notFound = append(notFound, l.code)
			continue
		}
		prev := cmp.Or(tp.langs[l.code], "active")
		changed := prev != l.status
		if changed {
			tp.langs[l.code] = l.status
			tp.langChg = append(tp.langChg, l.code)
			if l.status == "archived" {
				tc.fire(webhook.EventLanguageRemoved, &webhook.LanguageRemoved{Org: orgSlug(slug), Project: projSlug(slug), Language: l.code})
			}
		}
		results = append(results, map[string]any{"languageCode": l.code, "previousStatus": prev, "newStatus": l.status, "changed": changed})
	}
	return map[string]any{"success": true, "results": results, "notFound": notFound, "project": slug}, nil
}

// matches reports whether a key matches any of the search terms (in its
// name or source text, case-insensitively).
func (k *tkey) matches(search []string) bool {
	if len(search) == 0 {
		return true
	}
	for _, q := range search {
		q = strings.ToLower(q)
		if strings.Contains(strings.ToLower(k.name), q) || strings.Contains(strings.ToLower(k.src), q) {
			return true
		}
	}
	return false
}

func (tc *toolCall) listKeys() (any, error) {
	_, tp, _, err := tc.project()
	if err != nil {
		return nil, err
	}
	search := tc.a.strings("search", true)
	nss := tc.a.strings("namespaces", false)
	missing := strings.ToLower(tc.a.str("missingLanguage", false, 0, 0))
	fields := tc.a.strings("fields", false)
	for _, f := range fields {
		if !slices.Contains([]string{"id", "sourceText", "translations", "translatedLanguages", "translatedLanguageCount"}, f) {
			tc.a.fail(fmt.Sprintf("Invalid enum value. Expected 'id' | 'sourceText' | 'translations' | 'translatedLanguages' | 'translatedLanguageCount', received '%s'", f))
		}
	}
	if fields == nil {
		fields = []string{"id", "sourceText"}
	}
	page := tc.a.integer("page", 1, 1, 1<<30)
	limit := tc.a.integer("limit", 20, 1, 100)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	var hits []*tkey
	for _, k := range tp.liveKeys() {
		if k.matches(search) && (len(nss) == 0 || slices.Contains(nss, k.ns)) && (missing == "" || k.tr[missing] == nil) {
			hits = append(hits, k)
		}
	}
	nsIdx := map[string]int{}
	nsList := []string{}
	rows := []map[string]any{}
	from := min((page-1)*limit, len(hits))
	to := min(from+limit, len(hits))
	for _, k := range hits[from:to] {
		i, ok := nsIdx[k.ns]
		if !ok {
			i = len(nsList)
			nsIdx[k.ns] = i
			nsList = append(nsList, k.ns)
		}
		row := map[string]any{"k": k.name, "ns": i}
		langs := slices.Sorted(mapsKeys(k.tr))
		for _, f := range fields {
			switch f {
			case "id":
				row["id"] = k.id
			case "sourceText":
				row["src"] = k.src
			case "translatedLanguages":
				row["tl"] = langs
			case "translatedLanguageCount":
				row["tlc"] = len(langs)
			case "translations":
				tr := map[string]string{}
				for l, t := range k.tr {
					tr[l] = t.text
				}
				row["tr"] = tr
			}
		}
		rows = append(rows, row)
	}
	out := map[string]any{"tot": len(hits), "ret": len(rows), "pg": page, "lim": limit, "has_more": to < len(hits), "nss": nsList, "k": rows}
	if len(hits) > 500 {
		out["note"] = "More than 500 keys match; narrow the search."
	}
	return out, nil
}

func mapsKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func (tc *toolCall) getTranslations() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	search := tc.a.strings("search", true)
	langs := tc.a.strings("languages", false)
	for i := range langs {
		langs[i] = strings.ToLower(langs[i])
	}
	nss := tc.a.strings("namespaces", false)
	names := tc.a.strings("keys", false)
	status := tc.a.enum("status", "all", "missing", "draft", "published", "all")
	limit := tc.a.integer("limit", 100, 1, 200)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	var hits []*tkey
	for _, k := range tp.liveKeys() {
		if !k.matches(search) || (len(nss) > 0 && !slices.Contains(nss, k.ns)) || (len(names) > 0 && !slices.Contains(names, k.name)) {
			continue
		}
		if len(langs) > 0 && status != "all" && !slices.ContainsFunc(langs, func(l string) bool {
			t := k.tr[l]
			switch status {
			case "missing":
				return t == nil
			case "draft":
				return t != nil && t.status != "published"
			}
			return t != nil && t.status == "published"
		}) {
			continue
		}
		hits = append(hits, k)
	}
	rows := []map[string]any{}
	for _, k := range hits[:min(limit, len(hits))] {
		tr := map[string]any{}
		for l, t := range k.tr {
			if len(langs) == 0 || slices.Contains(langs, l) {
				tr[l] = map[string]string{"id": t.id, "t": t.text, "st": t.status}
			}
		}
		rows = append(rows, map[string]any{"id": k.id, "k": k.name, "ns": k.ns, "src": k.src, "tr": tr})
	}
	nsd := map[string]any{} // {kc, desc?, ap?}: ap is the namespace context's AI prompt
	for _, ns := range tp.nsOrder {
		d := map[string]any{"kc": tp.keyCount(ns), "desc": tp.nsDesc[ns]}
		if ap := tp.nsPrompt[ns]; ap != "" {
			d["ap"] = ap
		}
		nsd[ns] = d
	}
	return map[string]any{"prj": slug, "sl": p.SourceLanguage, "ret": len(rows), "tot": len(hits), "has_more": len(hits) > limit, "keys": rows, "nsd": nsd}, nil
}

// clash reports whether name and other would make one key a leaf and a
// parent: one is a dotted prefix of the other.
func clash(name, other string) bool {
	return strings.HasPrefix(name, other+".") || strings.HasPrefix(other, name+".")
}

func (tc *toolCall) createKeys() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type in struct {
		name, ns, src string
		tr            map[string]string
		desc, prompt  string
	}
	var ins []in
	for _, it := range tc.a.array("k", true, 1, 0) { // no upper limit, as the tool has none
		m := tc.a.objectOf(it, true)
		k := in{name: tc.a.strOf(m["n"], true, 1, 0), ns: cmp.Or(tc.a.strOf(m["ns"], false, 0, 0), "default"), src: tc.a.strOf(m["v"], false, 0, 0)}
		k.tr = tc.a.textMap(m["t"], false)
		if nc := tc.a.objectOf(m["nc"], false); nc != nil {
			k.desc = tc.a.strOf(nc["description"], false, 0, 0)
			k.prompt = tc.a.strOf(nc["aiPrompt"], false, 0, 0)
		}
		ins = append(ins, k)
	}
	force := tc.a.boolean("force")
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	if !force {
		existing := tp.liveKeys()
		for i, k := range ins {
			for _, e := range existing {
				if e.ns == k.ns && clash(k.name, e.name) {
					return nil, errText(fmt.Sprintf("CONFLICT: key %q would make %q both a leaf and a parent in namespace %q; set force to create it anyway", k.name, e.name, k.ns))
				}
			}
			for _, o := range ins[:i] {
				if o.ns == k.ns && clash(k.name, o.name) {
					return nil, errText(fmt.Sprintf("CONFLICT: keys %q and %q in this batch would make one both a leaf and a parent; set force to create them anyway", o.name, k.name))
				}
			}
		}
	}
	created := []map[string]any{}
	skip := []map[string]any{}
	byNS := map[string][]string{}
	var nsOrder []string
	for _, k := range ins {
		if slices.ContainsFunc(tp.liveKeys(), func(e *tkey) bool { return e.ns == k.ns && e.name == k.name }) {
			skip = append(skip, map[string]any{"k": k.name, "reason": "already exists"})
			continue
		}
		tp.useNamespace(k.ns)
		if k.desc != "" {
			tp.nsDesc[k.ns] = k.desc
		}
		if k.prompt != "" {
			tp.nsPrompt[k.ns] = k.prompt
		}
		key := &tkey{id: newUUID(), name: k.name, ns: k.ns, src: k.src, tr: map[string]*ttext{}, created: tc.now}
		for l, text := range k.tr {
			if l == strings.ToLower(p.SourceLanguage) {
				continue
			}
			key.tr[l] = &ttext{id: newUUID(), text: text, status: "draft", pending: true}
		}
		tp.keys = append(tp.keys, key)
		created = append(created, map[string]any{"k": k.name, "id": key.id, "tr": len(key.tr)})
		if byNS[k.ns] == nil {
			nsOrder = append(nsOrder, k.ns)
		}
		byNS[k.ns] = append(byNS[k.ns], k.name)
	}
	for _, ns := range nsOrder {
		tc.fire(webhook.EventKeysCreated, &webhook.KeysCreated{Org: orgSlug(slug), Project: projSlug(slug), Keys: byNS[ns], Namespace: ns})
	}
	out := map[string]any{"ok": true, "cnt": len(created), "new": len(created), "ren": 0, "dup": len(skip), "k": created}
	if len(skip) > 0 {
		out["skip"] = skip
	}
	if pub := tp.pub(); pub != nil {
		out["pub"] = pub
	}
	return out, nil
}

func (tc *toolCall) updateKeys() (any, error) {
	_, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type in struct {
		id, lang, text, status string
		src                    bool
	}
	var ins []in
	for _, it := range tc.a.array("t", true, 1, 0) { // no upper limit, as the tool has none
		m := tc.a.objectOf(it, true)
		sub := &args{m: m}
		ins = append(ins, in{
			id: sub.strOf(m["id"], true, 0, 0), lang: strings.ToLower(sub.strOf(m["l"], true, 0, 0)),
			text: sub.strOf(m["t"], true, 0, 0), src: sub.boolean("s"), status: sub.strOf(m["st"], false, 0, 0),
		})
		tc.a.errs = append(tc.a.errs, sub.errs...)
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	var upd, errs []map[string]any
	perLang := map[string]int{}
	done := map[string]int{} // key id -> index in upd
	for _, u := range ins {
		k := tp.key(u.id)
		if k == nil {
			errs = append(errs, map[string]any{"id": u.id, "l": []string{u.lang}, "code": "not_found", "msg": "Key not found"})
			continue
		}
		if u.src {
			k.src = u.text
		} else {
			t := k.tr[u.lang]
			if t == nil {
				t = &ttext{id: newUUID()}
				k.tr[u.lang] = t
			}
			t.text, t.status, t.pending = u.text, cmp.Or(u.status, "draft"), true
			perLang[u.lang]++
		}
		i, ok := done[k.id]
		if !ok {
			i = len(upd)
			done[k.id] = i
			upd = append(upd, map[string]any{"id": k.id, "k": k.name, "lng": []string{}, "src": false})
		}
		if u.src {
			upd[i]["src"] = true
		} else {
			upd[i]["lng"] = append(upd[i]["lng"].([]string), u.lang)
		}
	}
	tc.fireUpdated(slug, perLang)
	out := map[string]any{"ok": len(upd) > 0, "cnt": len(upd), "upd": nonNil(upd)}
	if len(errs) > 0 {
		out["errors"] = errs
	}
	if pub := tp.pub(); pub != nil {
		out["pub"] = pub
	}
	return out, nil
}

func (tc *toolCall) fireUpdated(slug string, perLang map[string]int) {
	for _, l := range slices.Sorted(mapsKeys(perLang)) {
		tc.fire(webhook.EventTranslationsUpdated, &webhook.TranslationsUpdated{Org: orgSlug(slug), Project: projSlug(slug), Language: l, KeysCount: perLang[l]})
	}
}

func (tc *toolCall) setTranslations() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type in struct {
		id string
		tr map[string]string
	}
	var ins []in
	for _, it := range tc.a.array("t", true, 1, 500) {
		m := tc.a.objectOf(it, true)
		ins = append(ins, in{id: tc.a.uuidOf(m["id"], true), tr: tc.a.textMap(m["t"], true)})
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	upd, errs := []map[string]any{}, []map[string]any{}
	perLang := map[string]int{}
	wrote := 0
	for _, u := range ins {
		langs := slices.Sorted(mapsKeys(u.tr))
		k := tp.key(u.id)
		if k == nil {
			errs = append(errs, map[string]any{"id": u.id, "l": langs, "code": "not_found", "msg": "Key not found"})
			continue
		}
		var written, lacking []string
		for _, l := range langs {
			if l == strings.ToLower(p.SourceLanguage) {
				continue
			}
			if !slices.Contains(targetLangs(p, tp), l) {
				lacking = append(lacking, l)
				continue
			}
			t := k.tr[l]
			if t == nil {
				t = &ttext{id: newUUID()}
				k.tr[l] = t
			}
			t.text, t.status, t.pending = u.tr[l], "approved", true
			written = append(written, l)
			perLang[l]++
			wrote++
		}
		if len(lacking) > 0 {
			errs = append(errs, map[string]any{"id": u.id, "l": lacking, "code": "not_found",
				"msg": fmt.Sprintf("Language not found in project: %s", strings.Join(lacking, ", "))})
		}
		if len(written) > 0 || len(lacking) == 0 {
			upd = append(upd, map[string]any{"id": k.id, "k": k.name, "lng": nonNil(written)})
		}
	}
	tc.fireUpdated(slug, perLang)
	out := map[string]any{"ok": len(upd) > 0, "cnt": len(upd), "wrote": wrote, "upd": upd}
	if len(errs) > 0 {
		out["errors"] = errs
	}
	if pub := tp.pub(); pub != nil {
		out["pub"] = pub
	}
	return out, nil
}

func (tc *toolCall) deleteKeys() (any, error) {
	_, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, it := range tc.a.array("keyIds", true, 1, 100) {
		ids = append(ids, tc.a.uuidOf(it, true))
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	mk, skip := []map[string]any{}, []string{}
	byNS := map[string][]string{}
	var nsOrder []string
	for _, id := range ids {
		k := tp.key(id)
		if k == nil {
			skip = append(skip, id)
			continue
		}
		k.deleted = true
		mk = append(mk, map[string]any{"id": k.id, "k": k.name, "ns": k.ns})
		if byNS[k.ns] == nil {
			nsOrder = append(nsOrder, k.ns)
		}
		byNS[k.ns] = append(byNS[k.ns], k.name)
	}
	for _, ns := range nsOrder {
		tc.fire(webhook.EventKeysDeleted, &webhook.KeysDeleted{Org: orgSlug(slug), Project: projSlug(slug), Keys: byNS[ns], Namespace: ns})
	}
	out := map[string]any{"ok": len(mk) > 0, "cnt": len(mk), "mk": mk}
	if len(skip) > 0 {
		out["skip"] = skip
	}
	if pub := tp.pub(); pub != nil {
		out["pub"] = pub
	}
	return out, nil
}

func (tc *toolCall) getPendingChanges() (any, error) {
	_, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	byLang := map[string]any{}
	counts := map[string]int{}
	prv := map[string][]map[string]any{}
	delK := []map[string]any{}
	tr := 0
	for _, k := range tp.keys {
		if k.deleted {
			delK = append(delK, map[string]any{"kid": k.id, "k": k.name, "ns": k.ns, "src": k.src})
			continue
		}
		for _, l := range slices.Sorted(mapsKeys(k.tr)) {
			t := k.tr[l]
			if !t.pending {
				continue
			}
			tr++
			counts[l]++
			if len(prv[l]) < 10 {
				prv[l] = append(prv[l], map[string]any{"kid": k.id, "k": k.name, "ns": k.ns, "t": t.text, "st": t.status})
			}
		}
	}
	for l, n := range counts {
		byLang[l] = map[string]any{"cnt": n, "prv": prv[l]}
	}
	tot := tr + len(delK) + len(tp.langChg)
	recent := []map[string]any{}
	for i := len(tp.syncs) - 1; i >= 0 && len(recent) < 5; i-- {
		j := tp.syncs[i]
		recent = append(recent, map[string]any{"id": j.id, "tp": j.tp, "st": j.state(tc.now), "at": j.started.UTC().Format(time.RFC3339), "nk": 0, "uk": len(j.keys), "tf": len(j.langs)})
	}
	return map[string]any{
		"prj": slug, "has_chg": tot > 0,
		"sum":    map[string]int{"tr": tr, "del_k": len(delK), "lng_chg": len(tp.langChg), "tot": tot},
		"by_lng": byLang, "del_k": delK, "pub_dst": "cdn", "recent": recent,
	}, nil
}

func (tc *toolCall) publishTranslations() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	type sel struct{ key, lang string }
	var sels []sel
	selective := present(tc.a.m["translations"])
	for _, it := range tc.a.array("translations", false, 0, 0) {
		m := tc.a.objectOf(it, true)
		sels = append(sels, sel{tc.a.uuidOf(m["keyId"], true), strings.ToLower(tc.a.strOf(m["languageCode"], true, 0, 0))})
	}
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	if !tp.lastPub.IsZero() && tc.now.Before(tp.lastPub.Add(PublishCooldown)) {
		wait := tp.lastPub.Add(PublishCooldown).Sub(tc.now)
		return nil, errText(fmt.Sprintf("TOO_MANY_REQUESTS: publishing is limited to once every %d seconds per project; try again in %d seconds",
			int(PublishCooldown/time.Second), int((wait+time.Second-1)/time.Second)))
	}
	tp.lastPub = tc.now
	var keys []string
	langSet := map[string]bool{}
	published, deleted, langChanges := 0, 0, 0
	for _, k := range tp.keys {
		if k.deleted {
			continue
		}
		for l, t := range k.tr {
			if !t.pending || (selective && !slices.Contains(sels, sel{k.id, l})) {
				continue
			}
			t.pending, t.status = false, "published"
			published++
			langSet[l] = true
			if !slices.Contains(keys, k.name) {
				keys = append(keys, k.name)
			}
		}
	}
	if !selective {
		live := tp.keys[:0]
		for _, k := range tp.keys {
			if k.deleted {
				deleted++
				keys = append(keys, k.name)
				continue
			}
			live = append(live, k)
		}
		tp.keys = live
		langChanges = len(tp.langChg)
		tp.langChg = nil
	}
	out := map[string]any{"success": true, "published": published, "repositories": 0, "syncJobIds": []string{}}
	if published+deleted+langChanges == 0 {
		out["message"] = "Nothing to publish."
		return out, nil
	}
	job := &syncJob{id: newUUID(), tp: "batch_publish", project: p, org: orgSlug(slug), started: tc.now, keys: keys, langs: slices.Sorted(mapsKeys(langSet)),
		files: tc.s.cdnSnapshotLocked(p, tp)}
	tp.syncs = append(tp.syncs, job)
	out["syncJobIds"] = []string{job.id}
	out["deletedKeysProcessed"] = deleted
	out["languageChangesProcessed"] = langChanges
	out["message"] = fmt.Sprintf("Publishing %d translations; follow sync job %s.", published, job.id)
	out["hint"] = "Call getSync with waitMs to wait for the deploy."
	return out, nil
}

func (j *syncJob) summary(now time.Time) map[string]any {
	st := j.state(now)
	m := map[string]any{"id": j.id, "tp": j.tp, "st": st, "st_at": j.started.UTC().Format(time.RFC3339), "trig_by": nil}
	if st == "completed" {
		m["cp_at"] = j.completedAt().UTC().Format(time.RFC3339)
	}
	return m
}

func (tc *toolCall) getSyncs() (any, error) {
	_, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	limit := tc.a.integer("limit", 10, 1, 50)
	status := tc.a.enum("status", "", "pending", "in_progress", "completed", "failed")
	typ := tc.a.enum("type", "", "initial_import", "source_sync", "cdn_upload", "batch_publish")
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	sy := []map[string]any{}
	tot := 0
	for i := len(tp.syncs) - 1; i >= 0; i-- {
		j := tp.syncs[i]
		if (status != "" && j.state(tc.now) != status) || (typ != "" && j.tp != typ) {
			continue
		}
		tot++
		if len(sy) < limit {
			m := j.summary(tc.now)
			m["meta"] = map[string]any{"kp": len(j.keys), "tf": len(j.langs)}
			sy = append(sy, m)
		}
	}
	return map[string]any{"prj": slug, "tot": tot, "sy": sy}, nil
}

// findSync finds a sync job of the grant's organizations.
func (tc *toolCall) findSync(id string) (*syncJob, *tproject) {
	for pid, tp := range tc.s.tprojects {
		p := tc.s.projects[pid]
		if !tc.g.hasOrg(p.OrganizationID) {
			continue
		}
		for _, j := range tp.syncs {
			if j.id == id {
				return j, tp
			}
		}
	}
	return nil, nil
}

// getSyncWait serves getSync, waiting up to waitMs on the server's clock
// for a terminal state.
func (tc *toolCall) getSyncWait(ctx context.Context) (any, error) {
	s := tc.s
	s.mu.Lock()
	if sc := toolScopes["getSync"]; sc != "" && !tc.tok.scopes[sc] {
		s.mu.Unlock()
		return nil, errText("Forbidden: missing_scope (required: " + sc + ")")
	}
	id := tc.a.str("syncId", true, 0, 0)
	wait := tc.a.integer("waitMs", 0, 0, 25000)
	if e := tc.a.err(); e != "" {
		s.mu.Unlock()
		return nil, errText(e)
	}
	j, _ := tc.findSync(id)
	s.mu.Unlock()
	if j == nil {
		return nil, errText("Sync job not found")
	}
	deadline := tc.now.Add(time.Duration(wait) * time.Millisecond)
	for {
		now := s.Now()
		s.mu.Lock()
		s.settleLocked(now)
		st := j.state(now)
		s.mu.Unlock()
		if st == "completed" || st == "cancelled" || st == "failed" || !now.Before(deadline) {
			break
		}
		t := time.NewTimer(min(syncPoll, deadline.Sub(now)))
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-s.done:
			t.Stop()
			return nil, errText("server closed")
		}
	}
	now := s.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := j.summary(now)
	st := j.state(now)
	log := []string{"queued at " + j.started.UTC().Format(time.RFC3339)}
	affK := []map[string]any{}
	if st == "in_progress" || st == "completed" {
		log = append(log, "deploying to the CDN")
		for _, k := range j.keys {
			affK = append(affK, map[string]any{"k": k, "act": "published"})
		}
	}
	if st == "completed" {
		log = append(log, "completed")
	}
	if st == "cancelled" {
		log = append(log, "cancelled")
	}
	out["log"] = log
	out["aff_k"] = affK
	return out, nil
}

// syncPoll is how often a getSync long-poll re-checks, in the clock that
// timers use (the bubble's, in a synctest test).
const syncPoll = 100 * time.Millisecond

func (tc *toolCall) cancelSync() (any, error) {
	_, tp, _, err := tc.project()
	if err != nil {
		return nil, err
	}
	id := tc.a.str("syncId", true, 0, 0)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	j, owner := tc.findSync(id)
	switch {
	case j == nil:
		return nil, errText("Sync job not found")
	case owner != tp:
		return nil, errText("FORBIDDEN: the sync job belongs to another project")
	}
	prev := j.state(tc.now)
	out := map[string]any{"id": j.id, "prev": prev}
	switch prev {
	case "pending":
		j.cancelled = tc.now
		out["can"], out["rsn"] = true, "cancelled"
	case "in_progress":
		out["can"], out["rsn"] = false, "already_in_progress"
	default:
		out["can"], out["rsn"] = false, "terminal_state"
	}
	return out, nil
}

func (tc *toolCall) getTranslationContext() (any, error) {
	p, tp, slug, err := tc.project()
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, it := range tc.a.array("keys", false, 0, 50) {
		ids = append(ids, tc.a.uuidOf(it, true))
	}
	kPer := tc.a.integer("kPerKey", 5, 1, 20)
	langs := tc.a.strings("languages", false)
	if e := tc.a.err(); e != "" {
		return nil, errText(e)
	}
	tgt := targetLangs(p, tp)
	if len(langs) > 0 {
		tgt = langs
	}
	gl := []map[string]any{}
	for _, t := range tp.glossary[:min(30, len(tp.glossary))] {
		tr := map[string]string{}
		for l, v := range t.Translations {
			if slices.Contains(tgt, l) {
				tr[l] = v
			}
		}
		e := map[string]any{"t": t.Term, "tp": t.Type, "d": t.Description, "tr": tr}
		if t.DoNotTranslate {
			e["mnt"] = true
		}
		gl = append(gl, e)
	}
	out := map[string]any{"prj": slug, "src": p.SourceLanguage, "tgt": nonNil(tgt), "inst": nil, "ctx": nil, "gl": gl, "glt": len(tp.glossary)}
	if len(ids) > 0 {
		rules := []map[string]any{}
		for _, id := range ids {
			k := tp.key(id)
			if k == nil {
				continue
			}
			sim := []map[string]any{}
			for _, o := range tp.liveKeys() {
				if o == k || len(sim) >= kPer {
					continue
				}
				score := similarity(k.src, o.src)
				if score == 0 {
					continue
				}
				for _, l := range tgt {
					if t := o.tr[l]; t != nil && len(sim) < kPer {
						sim = append(sim, map[string]any{"tp": "translation", "c": firstChars([]byte(t.text), 200), "s": score, "l": l})
					}
				}
			}
			rules = append(rules, map[string]any{"id": k.id, "k": k.name, "sim": sim})
		}
		out["rules"] = rules
	}
	return out, nil
}

// similarity is the share of words two texts have in common.
func similarity(a, b string) float64 {
	wa, wb := strings.Fields(strings.ToLower(a)), strings.Fields(strings.ToLower(b))
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	common := 0
	for _, w := range wa {
		if slices.Contains(wb, w) {
			common++
		}
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(float64(common)/float64(max(len(wa), len(wb))), 'f', 2, 64), 64)
	return v
}

// settleLocked notes sync jobs that completed by now and queues their
// webhooks (translations.published, sync.completed) on s.pending, for
// fire to send.
func (s *Server) settleLocked(now time.Time) {
	for _, tp := range s.tprojects {
		for _, j := range tp.syncs {
			if j.notified || j.state(now) != "completed" {
				continue
			}
			j.notified = true
			at := j.completedAt().UTC()
			s.pendingFires = append(s.pendingFires,
				firing{j.project.ID, webhook.EventTranslationsPublished, &webhook.TranslationsPublished{Org: j.org, Project: j.project.Slug,
					Languages: nonNil(j.langs), PublishedAt: at, KeysCount: len(j.keys)}},
				firing{j.project.ID, webhook.EventSyncCompleted, &webhook.SyncCompleted{Org: j.org, Project: j.project.Slug,
					Status: webhook.SyncStatusCompleted, KeysImported: len(j.keys), DurationMS: float64((SyncPendingTime + SyncRunTime) / time.Millisecond)}},
			)
		}
	}
}

// fire sends fs, and any webhooks settleLocked queued, to every webhook
// config of their project that subscribes to their types, one after the
// other. It returns when every delivery was attempted.
func (s *Server) fire(fs []firing) {
	s.mu.Lock()
	fs = append(s.pendingFires, fs...)
	s.pendingFires = nil
	s.mu.Unlock()
	for _, f := range fs {
		s.mu.Lock()
		var ids []string
		for id, w := range s.webhooks {
			if w.ProjectID == f.project && (len(w.EventTypes) == 0 || slices.Contains(w.EventTypes, f.typ)) {
				ids = append(ids, id)
			}
		}
		s.mu.Unlock()
		slices.Sort(ids)
		for _, id := range ids {
			s.deliver(context.Background(), id, f.typ, f.data, false, nil)
		}
	}
}
