package toolcalls_test

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/internal/transport"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

type staticToken string

func (t staticToken) Token(context.Context) (string, error)  { return string(t), nil }
func (staticToken) Invalidate(string)                        {}
func (staticToken) Generation() uint64                       { return 0 }
func (staticToken) Fail(context.Context, error, uint64) bool { return false }
func (t staticToken) Secrets() redact.Secrets                { return redact.New(string(t)) }
func (staticToken) Reload(context.Context, uint64) bool      { return false }

// Refusals gives a fresh memory each time: a static token is never
// refused for good.
func (staticToken) Refusals() *transport.Refusals { return new(transport.Refusals) }

// serve starts a server whose tools answer with the given texts and
// returns a session to it.
func serve(t *testing.T, answers map[string]string) (*mcptest.Server, *mcpsession.Session) {
	t.Helper()
	var tools []mcptest.Tool
	for name, text := range answers {
		tools = append(tools, mcptest.Tool{Name: name, Run: func(json.RawMessage) (string, bool) { return text, false }})
	}
	srv := mcptest.NewServer(t, tools...)
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_test")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	return srv, sess
}

// ignoreRaw leaves Raw out of comparisons; tests check it on its own.
var ignoreRaw = cmpopts.IgnoreFields

func jsonEqual(t *testing.T, got json.RawMessage, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("sent arguments are not JSON: %s", got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want: %v", err)
	}
	if d := cmp.Diff(w, g); d != "" {
		t.Errorf("arguments sent (-want +got):\n%s", d)
	}
}

// wireCase is one wrapped tool: the call, the arguments it must send (wire
// names as in mcp-tools.md), the answer it gets and what that decodes to.
type wireCase struct {
	tool   string
	call   func(context.Context, toolcalls.Caller) (any, error)
	args   string
	answer string
	want   any
	opts   []cmp.Option
}

func wireCases() []wireCase {
	force := keys.CreateOptions{Force: true}
	return []wireCase{
		{
			tool: "createKeys",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.CreateKeys(ctx, c, "acme/web", []keys.NewKey{
					{Name: "nav.home", Namespace: "common", SourceText: "Home", Translations: map[string]string{"de": "Startseite"},
						Context: &keys.NamespaceContext{Description: "Navigation", AIPrompt: "short", Tags: []string{"ui"}}},
					{Name: "nav.about"},
				}, force)
			},
			args: `{"project":"acme/web","force":true,"k":[
				{"n":"nav.home","ns":"common","v":"Home","t":{"de":"Startseite"},"nc":{"description":"Navigation","aiPrompt":"short","tags":["ui"]}},
				{"n":"nav.about"}]}`,
			answer: `{"ok": true, "cnt": 1, "new": 1, "ren": 0, "dup": 1,
				"k": [{"k": "nav.home", "id": "k-1", "tr": {"de": "draft"}}],
				"skip": [{"k": "nav.about", "reason": "duplicate"}],
				"warn": [{"k": "nav.home", "ns": "common", "other": ["default"]}],
				"blocked": [{"k": "nav.start", "ns": "common", "src": "Home", "reuse": [{"ns": "common", "k": "nav.home", "id": "k-1"}], "why": "same source text"}],
				"pub": {"has": true, "cnt": 2, "hint": "publish"}, "hint": "done", "extra": 7}`,
			want: &keys.CreateResult{
				OK: true, Count: 1, NewCount: 1, DuplicateCount: 1,
				Created:  []keys.CreatedKey{{Name: "nav.home", ID: "k-1", Translations: json.RawMessage(`{"de": "draft"}`)}},
				Skipped:  []keys.SkippedKey{{Name: "nav.about", Reason: "duplicate"}},
				Warnings: []keys.KeyWarning{{Name: "nav.home", Namespace: "common", OtherNamespaces: []string{"default"}}},
				Blocked: []keys.BlockedKey{{Name: "nav.start", Namespace: "common", SourceText: "Home",
					Reuse: []keys.KeyRef{{Namespace: "common", Name: "nav.home", ID: "k-1"}}, Reason: "same source text"}},
				Pending: &translations.PendingPublish{HasChanges: true, Count: 2, Hint: "publish"},
				Hint:    "done",
			},
			opts: []cmp.Option{ignoreRaw(keys.CreateResult{}, "Raw")},
		},
		{
			tool: "listKeys",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ListKeys(ctx, c, "acme/web", keys.ListOptions{
					Search: []string{"home", "start"}, Namespaces: []string{"common"}, MissingLanguage: "fr",
					Fields: []keys.Field{keys.FieldID, keys.FieldTranslations}, PageSize: 50,
				}, 2)
			},
			args: `{"project":"acme/web","search":["home","start"],"namespaces":["common"],"missingLanguage":"fr",
				"fields":["id","translations"],"page":2,"limit":50}`,
			answer: `{"tot": 51, "ret": 1, "pg": 2, "lim": 50, "has_more": false, "nss": ["default", "common"],
				"k": [{"k": "nav.home", "ns": 1, "id": "k-1", "src": "Home", "tl": ["de"], "tlc": 1, "tr": {"de": "Startseite"}, "p": true}]}`,
			want: &keys.Page{Total: 51, Number: 2, PageSize: 50, Namespaces: []string{"default", "common"},
				Keys: []keys.Key{{Name: "nav.home", Namespace: "common", ID: "k-1", SourceText: "Home",
					TranslatedLanguages: []string{"de"}, TranslatedLanguageCount: 1, Translations: map[string]string{"de": "Startseite"}, LegacyDuplicate: true}}},
			opts: []cmp.Option{ignoreRaw(keys.Page{}, "Raw"), ignoreRaw(keys.Key{}, "Raw")},
		},
		{
			tool: "updateKeys",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.UpdateKeys(ctx, c, "acme/web", []keys.Update{
					{KeyID: "k-1", Language: "de", Text: "Start"},
					{KeyID: "k-2", Language: "en", Text: "About", Source: true, Status: "draft"},
				})
			},
			args:   `{"project":"acme/web","t":[{"id":"k-1","l":"de","t":"Start"},{"id":"k-2","l":"en","t":"About","s":true,"st":"draft"}]}`,
			answer: `{"ok": true, "cnt": 1, "upd": [{"id": "k-1", "k": "nav.home", "lng": ["de"], "src": false}], "errors": [{"id": "k-2", "l": ["en"], "code": "not_found", "msg": "Key not found"}]}`,
			want: &keys.UpdateResult{OK: true, Count: 1,
				Updated: []translations.UpdatedKey{{KeyID: "k-1", Name: "nav.home", Languages: []string{"de"}}},
				Errors:  []translations.ItemError{{KeyID: "k-2", Languages: []string{"en"}, Code: "not_found", Message: "Key not found"}}},
			opts: []cmp.Option{ignoreRaw(keys.UpdateResult{}, "Raw")},
		},
		{
			tool: "deleteKeys",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.DeleteKeys(ctx, c, "acme/web", []string{"k-1", "k-9"})
			},
			args:   `{"project":"acme/web","keyIds":["k-1","k-9"]}`,
			answer: `{"ok": true, "cnt": 1, "mk": [{"id": "k-1", "k": "nav.home", "ns": "common"}], "skip": ["k-9"], "pub": {"has": true, "cnt": 1}}`,
			want: &keys.DeleteResult{OK: true, Count: 1, Deleted: []keys.KeyRef{{ID: "k-1", Name: "nav.home", Namespace: "common"}},
				Skipped: []string{"k-9"}, Pending: &translations.PendingPublish{HasChanges: true, Count: 1}},
			opts: []cmp.Option{ignoreRaw(keys.DeleteResult{}, "Raw")},
		},
		{
			tool: "getTranslations",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.GetTranslations(ctx, c, "acme/web", translations.GetOptions{
					Search: []string{"home"}, Languages: []string{"de"}, Namespaces: []string{"common"},
					Keys: []string{"nav.home"}, Status: translations.StatusDraft, Limit: 10,
				})
			},
			args: `{"project":"acme/web","search":"home","languages":["de"],"namespaces":["common"],"keys":["nav.home"],"status":"draft","limit":10}`,
			answer: `{"project": "acme/web", "sourceLanguage": "en", "returned": 1, "total": 1, "hasMore": false, "search": "home", "languages": ["de"],
				"keys": [{"id": "k-1", "key": "nav.home", "namespace": "common", "sourceText": "Home", "translations": {"de": {"id": "t-1", "text": "Startseite", "status": "draft"}}}]}`,
			want: &translations.Result{Project: "acme/web", SourceLanguage: "en", Returned: 1, Total: 1,
				Keys: []translations.KeyTranslations{{KeyID: "k-1", Name: "nav.home", Namespace: "common", SourceText: "Home",
					Translations: map[string]translations.Translation{"de": {ID: "t-1", Text: "Startseite", Status: "draft"}}}}},
			opts: []cmp.Option{ignoreRaw(translations.Result{}, "Raw")},
		},
		{
			tool: "setTranslations",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.SetTranslations(ctx, c, "acme/web", []translations.Values{
					{KeyID: "k-1", Text: map[string]string{"fr": "Accueil"}}, {KeyID: "k-9", Text: map[string]string{"fr": "x"}},
				})
			},
			args:   `{"project":"acme/web","t":[{"id":"k-1","t":{"fr":"Accueil"}},{"id":"k-9","t":{"fr":"x"}}]}`,
			answer: `{"ok": true, "cnt": 1, "wrote": 1, "upd": [{"id": "k-1", "k": "nav.home", "lng": ["fr"]}], "errors": [{"id": "k-9", "k": "nav.x", "ns": "common", "l": ["fr"], "code": "not_found", "msg": "Key not found"}], "pub": {"has": true, "cnt": 1, "hint": "h"}}`,
			want: &translations.SetResult{OK: true, Count: 1, Written: 1,
				Updated: []translations.UpdatedKey{{KeyID: "k-1", Name: "nav.home", Languages: []string{"fr"}}},
				Errors:  []translations.ItemError{{KeyID: "k-9", Name: "nav.x", Namespace: "common", Languages: []string{"fr"}, Code: "not_found", Message: "Key not found"}},
				Pending: &translations.PendingPublish{HasChanges: true, Count: 1, Hint: "h"}},
			opts: []cmp.Option{ignoreRaw(translations.SetResult{}, "Raw")},
		},
		{
			tool: "getPendingChanges",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.PendingChanges(ctx, c, "acme/web")
			},
			args: `{"project":"acme/web"}`,
			answer: `{"prj": "acme/web", "has_chg": true, "sum": {"tr": 2, "del_k": 1, "lng_chg": 0, "tot": 3},
				"by_lng": {"fr": {"cnt": 2, "prv": [{"kid": "k-1", "k": "nav.home", "ns": "common", "t": "Accueil", "st": "approved"}]}},
				"del_k": [{"kid": "k-3", "k": "old", "ns": "default", "src": "Old"}], "pub_dst": "cdn",
				"recent": [{"id": "s-0", "tp": "batch_publish", "st": "completed", "at": "2026-04-30T12:00:00.000Z", "nk": 1, "uk": 2, "tf": 3}]}`,
			want: &translations.PendingChanges{Project: "acme/web", HasChanges: true,
				Summary:     translations.PendingSummary{Translations: 2, DeletedKeys: 1, Total: 3},
				ByLanguage:  map[string]translations.LanguageChanges{"fr": {Count: 2, Preview: []translations.PendingTranslation{{KeyID: "k-1", Name: "nav.home", Namespace: "common", Text: "Accueil", Status: "approved"}}}},
				DeletedKeys: []translations.PendingDeletion{{KeyID: "k-3", Name: "old", Namespace: "default", SourceText: "Old"}},
				Destination: "cdn",
				Recent:      []translations.RecentPublish{{ID: "s-0", Type: "batch_publish", Status: "completed", At: time.Date(2026, 4, 30, 12, 0, 0, 0, time.UTC), NewKeys: 1, UpdatedKeys: 2, Files: 3}}},
			opts: []cmp.Option{ignoreRaw(translations.PendingChanges{}, "Raw")},
		},
		{
			tool: "publishTranslations",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.Publish(ctx, c, "acme/web", translations.PublishOptions{Only: []translations.Selection{{KeyID: "k-1", Language: "fr"}}})
			},
			args:   `{"project":"acme/web","translations":[{"keyId":"k-1","languageCode":"fr"}]}`,
			answer: `{"success": true, "published": 1, "repositories": 0, "syncJobIds": ["s-1"], "message": "Publishing"}`,
			want:   &translations.PublishResult{Success: true, Published: 1, SyncIDs: []string{"s-1"}, Message: "Publishing", Repositories: json.RawMessage("0")},
			opts:   []cmp.Option{ignoreRaw(translations.PublishResult{}, "Raw")},
		},
		{
			tool: "getSyncs",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ListSyncs(ctx, c, "acme/web", translations.ListSyncsOptions{Limit: 5, Status: translations.SyncCompleted, Type: translations.SyncCDNUpload})
			},
			args: `{"project":"acme/web","limit":5,"status":"completed","type":"cdn_upload"}`,
			answer: `{"prj": "acme/web", "tot": 1, "sy": [{"id": "s-1", "tp": "cdn_upload", "st": "completed", "st_at": "2026-04-30T12:00:00Z",
				"cp_at": "2026-04-30T12:00:05Z", "trig_by": {"nm": "Ada", "img": "https://img"}, "meta": {"kp": 3}}]}`,
			want: &translations.SyncList{Project: "acme/web", Total: 1, Syncs: []translations.Sync{{ID: "s-1", Type: translations.SyncCDNUpload,
				Status: translations.SyncCompleted, StartedAt: time.Date(2026, 4, 30, 12, 0, 0, 0, time.UTC), CompletedAt: time.Date(2026, 4, 30, 12, 0, 5, 0, time.UTC),
				TriggeredBy: &translations.Person{Name: "Ada", Image: "https://img"}, KeysProcessed: 3}}},
			opts: []cmp.Option{ignoreRaw(translations.SyncList{}, "Raw"), ignoreRaw(translations.Sync{}, "Raw")},
		},
		{
			tool: "getSync",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) { return toolcalls.GetSync(ctx, c, "s-1") },
			args: `{"syncId":"s-1"}`,
			answer: `{"id": "s-1", "tp": "batch_publish", "st": "failed", "st_at": "not a time", "err_msg": "boom", "trig_by": null,
				"log": ["started", {"msg": "uploading"}], "aff_k": [{"k": "nav.home", "act": "updated"}]}`,
			want: &translations.Sync{ID: "s-1", Type: translations.SyncBatchPublish, Status: translations.SyncFailed, Error: "boom",
				Log: []string{"started", "uploading"}, AffectedKeys: []translations.AffectedKey{{Name: "nav.home", Action: "updated"}}},
			opts: []cmp.Option{ignoreRaw(translations.Sync{}, "Raw")},
		},
		{
			tool: "cancelSync",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.CancelSync(ctx, c, "acme/web", "s-1")
			},
			args:   `{"project":"acme/web","syncId":"s-1"}`,
			answer: `{"id": "s-1", "can": false, "prev": "in_progress", "rsn": "already_in_progress"}`,
			want: &translations.CancelResult{ID: "s-1", PreviousStatus: translations.SyncInProgress,
				Reason: translations.CancelAlreadyInProgress},
			opts: []cmp.Option{ignoreRaw(translations.CancelResult{}, "Raw")},
		},
		{
			tool: "getTranslationContext",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.TranslationContext(ctx, c, "acme/web", translations.ContextOptions{KeyIDs: []string{"k-1"}, MatchesPerKey: 3, Languages: []string{"de"}})
			},
			args: `{"project":"acme/web","keys":["k-1"],"kPerKey":3,"languages":["de"]}`,
			answer: `{"prj": "acme/web", "src": "en", "tgt": ["de"], "inst": null, "ctx": {"d": "A shop", "aud": "buyers", "cat": "retail", "tone": {"f": "informal"}},
				"gl": [{"t": "Acme", "tp": "brand", "d": "the brand", "mnt": true, "tr": {"de": "Acme"}}], "glt": 1,
				"rules": [{"id": "k-1", "k": "nav.home", "sim": [{"tp": "translation", "c": "Startseite", "s": 0.92, "l": "de"}, {"tp": "instruction", "c": "Be brief", "s": 0.5, "l": null}]}]}`,
			want: &translations.Context{Project: "acme/web", SourceLanguage: "en", TargetLanguages: []string{"de"},
				Description: "A shop", Audience: "buyers", Category: "retail", Tone: json.RawMessage(`{"f": "informal"}`),
				Glossary:      []translations.Term{{Term: "Acme", Type: "brand", Description: "the brand", DoNotTranslate: true, Translations: map[string]string{"de": "Acme"}}},
				GlossaryTotal: 1,
				Matches: []translations.KeyMatches{{KeyID: "k-1", Name: "nav.home", Similar: []translations.Match{
					{Type: "translation", Content: "Startseite", Score: 0.92, Language: "de"}, {Type: "instruction", Content: "Be brief", Score: 0.5}}}}},
			opts: []cmp.Option{ignoreRaw(translations.Context{}, "Raw")},
		},
		{
			tool: "proposeLanguages",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ProposeLanguages(ctx, c, "acme/web", []translations.LanguageProposal{{Code: "de"}, {Code: "fr", Status: translations.LanguageDraft}})
			},
			args: `{"project":"acme/web","languages":[{"languageCode":"de"},{"languageCode":"fr","status":"draft"}]}`,
			answer: `{"success": true, "added": 1, "skipped": 1, "results": [{"languageCode": "de", "status": "active", "added": false}, {"languageCode": "fr", "status": "draft", "added": true}],
				"project": "acme/web", "pendingPublish": {"hasChanges": true, "count": 1, "hint": "publish"}}`,
			want: &translations.ProposeLanguagesResult{Success: true, Added: 1, Skipped: 1, Project: "acme/web",
				Results: []translations.LanguageResult{{Code: "de", Status: translations.LanguageActive}, {Code: "fr", Status: translations.LanguageDraft, Added: true}},
				Pending: &translations.PendingPublish{HasChanges: true, Count: 1, Hint: "publish"}},
			opts: []cmp.Option{ignoreRaw(translations.ProposeLanguagesResult{}, "Raw")},
		},
		{
			tool: "proposeLanguageEdits",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ProposeLanguageEdits(ctx, c, "acme/web", []translations.LanguageEdit{{Code: "fr", NewStatus: translations.LanguageArchived}, {Code: "xx", NewStatus: translations.LanguageActive}})
			},
			args:   `{"project":"acme/web","edits":[{"languageCode":"fr","newStatus":"archived"},{"languageCode":"xx","newStatus":"active"}]}`,
			answer: `{"success": true, "results": [{"languageCode": "fr", "previousStatus": "active", "newStatus": "archived", "changed": true}], "notFound": ["xx"], "project": "acme/web"}`,
			want: &translations.ProposeLanguageEditsResult{Success: true, NotFound: []string{"xx"}, Project: "acme/web",
				Results: []translations.LanguageEditResult{{Code: "fr", PreviousStatus: translations.LanguageActive, NewStatus: translations.LanguageArchived, Changed: true}}},
			opts: []cmp.Option{ignoreRaw(translations.ProposeLanguageEditsResult{}, "Raw")},
		},
	}
}

func TestWrappedToolsRequestShapeAndDecoding(t *testing.T) {
	for _, tc := range wireCases() {
		t.Run(tc.tool, func(t *testing.T) {
			srv, sess := serve(t, map[string]string{tc.tool: tc.answer})
			got, err := tc.call(t.Context(), sess)
			if err != nil {
				t.Fatal(err)
			}
			calls := srv.Calls(tc.tool)
			if len(calls) != 1 {
				t.Fatalf("%d calls of %s, want 1", len(calls), tc.tool)
			}
			jsonEqual(t, calls[0], tc.args)
			if d := cmp.Diff(tc.want, got, tc.opts...); d != "" {
				t.Errorf("decoded result (-want +got):\n%s", d)
			}
			raw := json.RawMessage(reflectRaw(got))
			if string(raw) != tc.answer {
				t.Errorf("Raw = %s, want the whole answer", raw)
			}
		})
	}
}

// reflectRaw returns the Raw field of a result.
func reflectRaw(v any) []byte {
	f := reflect.ValueOf(v).Elem().FieldByName("Raw")
	return f.Bytes()
}
