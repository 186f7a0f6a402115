package toolcalls_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/toolcalls"
)

// Answers in the content tools' shapes (mcp-tools.md section 8).
const (
	fieldOutAnswer = `{"id": "f-1", "nm": "category", "dn": "Category", "tp": "enum", "loc": false, "req": true, "ph": "Pick one", "ht": "",
		"pos": 2, "opts": {"ev": [{"l": "News", "v": "news"}, {"l": "Guide", "v": "guide"}], "sit": true}}`
	modelAnswer = `{"id": "m-1", "sl": "blog-post", "dn": "Blog post", "desc": "Articles", "kind": "collection", "ico": "pen", "vh": true, "ib": true,
		"flds": [{"id": "f-0", "nm": "summary", "dn": "Summary", "tp": "textarea", "loc": true, "req": false, "ph": null, "ht": null, "pos": 0},
			{"id": "f-2", "nm": "author", "dn": "Author", "tp": "relation", "loc": false, "req": false, "pos": 1, "fc": {"tm": "users", "mp": false}}]}`
	entryMinAnswer = `{"id": "e-1", "sl": "hello", "st": "draft", "pub_at": null, "c_at": "2026-05-01T10:00:00.000Z", "u_at": "2026-05-01T10:00:00.000Z",
		"slang": "en", "langs": ["en", "de"], "mdl": {"sl": "blog-post", "dn": "Blog post", "kind": "collection"}, "cfv": {"summary": "Hi", "rating": 4, "cover": null}}`
)

var (
	may1 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	may2 = time.Date(2026, 5, 2, 9, 30, 0, 0, time.UTC)
)

// entryMin is entryMinAnswer decoded.
func entryMin() *content.Entry {
	return &content.Entry{ID: "e-1", Slug: "hello", Status: content.StatusDraft, Model: "blog-post", ModelName: "Blog post",
		ModelKind: content.KindCollection, SourceLanguage: "en", Languages: []string{"en", "de"},
		Fields: map[string]string{"summary": "Hi", "rating": "4"}, CreatedAt: may1, UpdatedAt: may1}
}

// contentCase is one wrapped content tool, like wireCase. raw is what the
// result's Raw holds: "" for the whole answer, "-" for a result without
// Raw, else the JSON it must equal.
type contentCase struct {
	tool   string
	call   func(context.Context, toolcalls.Caller) (any, error)
	args   string
	answer string
	want   any
	raw    string
}

// ignoreContentRaw leaves every Raw out of comparisons.
var ignoreContentRaw = cmpopts.IgnoreFields
var contentOpts = []cmp.Option{
	ignoreContentRaw(content.Model{}, "Raw"), ignoreContentRaw(content.Field{}, "Raw"),
	ignoreContentRaw(content.Entry{}, "Raw"), ignoreContentRaw(content.Page{}, "Raw"),
	ignoreContentRaw(content.BulkResult{}, "Raw"), cmpopts.EquateEmpty(),
}

func contentCases() []contentCase {
	yes, no := true, false
	pos := 0
	ph := ""
	desc := "Long reads"
	return []contentCase{
		{
			tool: "listContentModels",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ListModels(ctx, c, "acme/web")
			},
			args: `{"project":"acme/web"}`,
			answer: `{"mdls": [{"id": "m-1", "sl": "blog-post", "dn": "Blog post", "desc": null, "kind": "collection", "ico": null, "ec": 12, "ib": true,
				"flds": [{"id": "f-0", "nm": "summary", "dn": "Summary", "tp": "textarea", "loc": true, "pos": 0}]}, {"id": "m-2", "sl": "footer", "kind": "single", "ec": 1, "flds": ["links"]}]}`,
			want: []content.Model{
				{ID: "m-1", Slug: "blog-post", DisplayName: "Blog post", Kind: content.KindCollection, IncludeBody: true, EntryCount: 12,
					Fields: []content.Field{{ID: "f-0", Name: "summary", DisplayName: "Summary", Type: content.FieldTextarea, Localized: true}}},
				{ID: "m-2", Slug: "footer", Kind: content.KindSingle, EntryCount: 1, Fields: []content.Field{{Name: "links"}}},
			},
			raw: "-",
		},
		{
			tool: "getContentModel",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.GetModel(ctx, c, "acme/web", "blog-post")
			},
			args:   `{"project":"acme/web","modelSlug":"blog-post"}`,
			answer: modelAnswer,
			want: &content.Model{ID: "m-1", Slug: "blog-post", DisplayName: "Blog post", Description: "Articles", Kind: content.KindCollection,
				Icon: "pen", VersionHistory: true, IncludeBody: true, Fields: []content.Field{
					{ID: "f-0", Name: "summary", DisplayName: "Summary", Type: content.FieldTextarea, Localized: true},
					{ID: "f-2", Name: "author", DisplayName: "Author", Type: content.FieldRelation, Position: 1, Relation: &content.Relation{TargetModel: content.UsersModel, Multiple: content.Ptr(false)}},
				}},
		},
		{
			tool: "createContentModel",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.CreateModel(ctx, c, "acme/web", content.NewModel{
					Slug: "blog-post", DisplayName: "Blog post", Description: "Articles", Kind: content.KindCollection, Icon: "pen", NoBody: true,
					Fields: []content.NewField{
						{Name: "summary", DisplayName: "Summary", Type: content.FieldTextarea, Localized: true, Position: &pos},
						{Name: "category", DisplayName: "Category", Type: content.FieldEnum, Required: true, Placeholder: "Pick one",
							Options: &content.FieldOptions{EnumValues: []content.EnumValue{{Label: "News", Value: "news"}}, ShowInTable: content.Ptr(true)}},
						{Name: "cover", DisplayName: "Cover", Type: content.FieldMedia, HelpText: "16:9",
							Options: &content.FieldOptions{Unsplash: content.Ptr(true), AIGeneration: &content.AIGeneration{Enabled: true, Prompt: "a cover"}}},
						{Name: "related", DisplayName: "Related", Type: content.FieldRelation, Relation: &content.Relation{TargetModel: "blog-post", Multiple: content.Ptr(true)}},
					},
				})
			},
			args: `{"project":"acme/web","slug":"blog-post","displayName":"Blog post","description":"Articles","kind":"collection","icon":"pen","includeBody":false,
				"fields":[
					{"name":"summary","displayName":"Summary","type":"textarea","localized":true,"position":0},
					{"name":"category","displayName":"Category","type":"enum","required":true,"placeholder":"Pick one","options":{"enumValues":[{"label":"News","value":"news"}],"showInTable":true}},
					{"name":"cover","displayName":"Cover","type":"media","helpText":"16:9","options":{"unsplash":{"enabled":true},"aiGeneration":{"enabled":true,"prompt":"a cover"}}},
					{"name":"related","displayName":"Related","type":"relation","fieldConfig":{"targetModel":"blog-post","multiple":true}}]}`,
			answer: `{"created": true, "model": ` + modelAnswer + `}`,
			want: &content.Model{ID: "m-1", Slug: "blog-post", DisplayName: "Blog post", Description: "Articles", Kind: content.KindCollection,
				Icon: "pen", VersionHistory: true, IncludeBody: true, Fields: []content.Field{
					{ID: "f-0", Name: "summary", DisplayName: "Summary", Type: content.FieldTextarea, Localized: true},
					{ID: "f-2", Name: "author", DisplayName: "Author", Type: content.FieldRelation, Position: 1, Relation: &content.Relation{TargetModel: content.UsersModel, Multiple: content.Ptr(false)}},
				}},
			raw: modelAnswer,
		},
		{
			tool: "updateContentModel",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.UpdateModel(ctx, c, "acme/web", "blog-post", content.ModelUpdate{Description: &desc, VersionHistory: &no, IncludeBody: &yes})
			},
			args:   `{"project":"acme/web","modelSlug":"blog-post","description":"Long reads","enableVersionHistory":false,"includeBody":true}`,
			answer: `{"updated": true, "model": {"id": "m-1", "sl": "blog-post", "dn": "Blog post", "desc": "Long reads", "kind": "collection", "vh": false, "ib": true, "flds": []}}`,
			want:   &content.Model{ID: "m-1", Slug: "blog-post", DisplayName: "Blog post", Description: "Long reads", Kind: content.KindCollection, IncludeBody: true},
			raw:    `{"id": "m-1", "sl": "blog-post", "dn": "Blog post", "desc": "Long reads", "kind": "collection", "vh": false, "ib": true, "flds": []}`,
		},
		{
			tool: "deleteContentModel",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return nil, toolcalls.DeleteModel(ctx, c, "acme/web", "blog-post")
			},
			args:   `{"project":"acme/web","modelSlug":"blog-post"}`,
			answer: `{"deleted": true, "ok": true}`,
			raw:    "-",
		},
		{
			tool: "addField",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.AddField(ctx, c, "acme/web", "blog-post", content.NewField{Name: "category", DisplayName: "Category", Type: content.FieldEnum,
					Required: true, Options: &content.FieldOptions{EnumValues: []content.EnumValue{{Label: "News", Value: "news"}, {Label: "Guide", Value: "guide"}}, ShowInTable: content.Ptr(true)}})
			},
			args: `{"project":"acme/web","modelSlug":"blog-post","name":"category","displayName":"Category","type":"enum","required":true,
				"options":{"enumValues":[{"label":"News","value":"news"},{"label":"Guide","value":"guide"}],"showInTable":true}}`,
			answer: `{"created": true, "field": ` + fieldOutAnswer + `}`,
			want: &content.Field{ID: "f-1", Name: "category", DisplayName: "Category", Type: content.FieldEnum, Required: true, Placeholder: "Pick one",
				Position: 2, EnumValues: []content.EnumValue{{Label: "News", Value: "news"}, {Label: "Guide", Value: "guide"}}, ShowInTable: true},
			raw: fieldOutAnswer,
		},
		{
			tool: "updateField",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.UpdateField(ctx, c, "acme/web", "blog-post", "category", content.FieldUpdate{
					DisplayName: "Kind", Localized: &yes, Required: &no, Placeholder: &ph,
					Options: &content.FieldOptions{EnumValues: []content.EnumValue{{Label: "News", Value: "news"}}}})
			},
			args: `{"project":"acme/web","modelSlug":"blog-post","fieldName":"category","displayName":"Kind","localized":true,"required":false,"placeholder":"",
				"options":{"enumValues":[{"label":"News","value":"news"}]}}`,
			answer: `{"updated": true, "field": {"id": "f-1", "nm": "category", "dn": "Kind", "tp": "enum", "loc": true, "req": false, "ph": "", "pos": 2, "opts": {"ev": [{"l": "News", "v": "news"}]}}}`,
			want: &content.Field{ID: "f-1", Name: "category", DisplayName: "Kind", Type: content.FieldEnum, Localized: true, Position: 2,
				EnumValues: []content.EnumValue{{Label: "News", Value: "news"}}},
			raw: `{"id": "f-1", "nm": "category", "dn": "Kind", "tp": "enum", "loc": true, "req": false, "ph": "", "pos": 2, "opts": {"ev": [{"l": "News", "v": "news"}]}}`,
		},
		{
			tool: "removeField",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return nil, toolcalls.RemoveField(ctx, c, "acme/web", "blog-post", "category")
			},
			args:   `{"project":"acme/web","modelSlug":"blog-post","fieldName":"category"}`,
			answer: `{"removed": true, "ok": true}`,
			raw:    "-",
		},
		{
			tool: "reorderFields",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return nil, toolcalls.ReorderFields(ctx, c, "acme/web", "blog-post", []string{"author", "summary"})
			},
			args:   `{"project":"acme/web","modelSlug":"blog-post","fieldNames":["author","summary"]}`,
			answer: `{"reordered": true, "ok": true}`,
			raw:    "-",
		},
		{
			tool: "listContentEntries",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.ListEntries(ctx, c, "acme/web", content.ListOptions{
					Model: "blog-post", Slugs: []string{"hello"}, Search: []string{"hi", "hey"}, SearchLocales: []string{"de"},
					SearchBody: true, Statuses: []content.Status{content.StatusDraft, content.StatusArchived}, Language: "de",
					LanguageMode: content.AllLanguages, MissingLanguage: "fr", Where: map[string]string{"category": "news"},
					Expand: []string{"author"}, Sort: content.SortTitle, Order: content.Ascending, PageSize: 10,
				}, 2)
			},
			args: `{"project":"acme/web","modelSlug":"blog-post","slugs":"hello","search":["hi","hey"],"searchLocales":["de"],"includeBody":true,
				"status":["draft","archived"],"language":"de","languageMode":"all","missingLanguage":"fr","where":{"category":"news"},
				"expand":["author"],"sort":"title","order":"asc","page":2,"limit":10}`,
			answer: `{"items": [{"id": "e-1", "sl": "hello", "st": "draft", "pub_at": null, "c_at": "2026-05-01T10:00:00.000Z", "u_at": "2026-05-02T09:30:00Z",
				"mdl": "blog-post", "slang": "en", "t": "Hello", "body": "Hi there", "langs": ["en", "de"], "cfv": {"category": "news"}, "rels": {"author": [{"id": "u-1"}]}}],
				"tot": 11, "more": false}`,
			want: &content.Page{Number: 2, Total: 11, Entries: []content.Entry{{ID: "e-1", Slug: "hello", Status: content.StatusDraft,
				Model: "blog-post", SourceLanguage: "en", Title: "Hello", Body: "Hi there", Languages: []string{"en", "de"},
				Fields: map[string]string{"category": "news"}, Relations: json.RawMessage(`{"author": [{"id": "u-1"}]}`),
				CreatedAt: may1, UpdatedAt: may2}}},
		},
		{
			tool: "getContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.GetEntry(ctx, c, "acme/web", "e-1", content.GetOptions{Expand: []string{"author"}})
			},
			args: `{"project":"acme/web","entryId":"e-1","expand":["author"]}`,
			answer: `{"id": "e-1", "sl": "hello", "st": "published", "pub_at": "2026-05-02T09:30:00Z", "c_at": "2026-05-01T10:00:00Z", "u_at": 1777714200000,
				"slang": "en", "langs": ["en", "de"], "mdl": {"sl": "blog-post", "dn": "Blog post", "kind": "collection"}, "cfv": {"summary": "Hi"},
				"tr": {"en": {"id": "t-1", "lc": "en", "t": "Hello", "body": "# no", "st": "published"},
					"de": {"id": "t-2", "lc": "de", "t": "Hallo", "body": "Hallo Welt", "st": "draft", "cfv": {"summary": "Hallo"}}},
				"vers": [{"id": "v-1", "v": 1, "lc": "en", "chg": "created", "c_at": "2026-05-01T10:00:00Z", "by": {"id": "u-1", "nm": "Ada", "img": "https://img"}},
					{"id": "v-2", "v": 2, "lc": "de", "chg": {"fields": ["summary"]}, "c_at": "2026-05-02T09:30:00Z", "by": null}]}`,
			want: &content.Entry{ID: "e-1", Slug: "hello", Status: content.StatusPublished, Title: "Hello", Body: "# no", Model: "blog-post", ModelName: "Blog post",
				ModelKind: content.KindCollection, SourceLanguage: "en", Languages: []string{"en", "de"}, Fields: map[string]string{"summary": "Hi"},
				Translations: map[string]content.Translation{
					"en": {ID: "t-1", Language: "en", Title: "Hello", Body: "# no", Status: content.StatusPublished},
					"de": {ID: "t-2", Language: "de", Title: "Hallo", Body: "Hallo Welt", Status: content.StatusDraft, Fields: map[string]string{"summary": "Hallo"}},
				},
				Versions: []content.Version{
					{ID: "v-1", Number: 1, Language: "en", Change: "created", CreatedAt: may1, By: &content.Person{ID: "u-1", Name: "Ada", Image: "https://img"}},
					{ID: "v-2", Number: 2, Language: "de", Change: `{"fields":["summary"]}`, CreatedAt: may2},
				},
				PublishedAt: may2, CreatedAt: may1, UpdatedAt: may2},
		},
		{
			tool: "createContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.CreateEntry(ctx, c, "acme/web", content.NewEntry{
					Model: "blog-post", Title: "Hello", Slug: "hello", SourceLanguage: "en", Body: "# Hi", Status: content.StatusDraft,
					Fields:       map[string]any{"summary": "Hi", "rating": 4, "tags": []string{"a"}},
					Translations: map[string]content.LanguageValues{"de": {Title: "Hallo", Fields: map[string]any{"summary": "Grüß dich"}}},
				})
			},
			args: `{"project":"acme/web","modelSlug":"blog-post","title":"Hello","slug":"hello","sourceLanguageCode":"en","bodyMarkdown":"# Hi","status":"draft",
				"customFields":{"summary":"Hi","rating":4,"tags":["a"]},"translations":{"de":{"title":"Hallo","customFields":{"summary":"Grüß dich"}}}}`,
			answer: `{"created": true, "entry": ` + entryMinAnswer + `, "warn": "Body starts with # H1 heading in: en"}`,
			want: func() *content.Entry {
				e := entryMin()
				e.Warning = "Body starts with # H1 heading in: en"
				return e
			}(),
			raw: entryMinAnswer,
		},
		{
			tool: "updateContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.UpdateEntry(ctx, c, "acme/web", "e-1", content.EntryUpdate{
					Language: "de", Title: "Hallo!", Body: "Neu", Fields: map[string]any{"summary": "Servus"}, Status: content.StatusArchived,
				})
			},
			args:   `{"project":"acme/web","entryId":"e-1","languageCode":"de","title":"Hallo!","bodyMarkdown":"Neu","customFields":{"summary":"Servus"},"status":"archived"}`,
			answer: `{"updated": true, "entry": ` + entryMinAnswer + `}`,
			want:   entryMin(),
			raw:    entryMinAnswer,
		},
		{
			tool: "publishContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.PublishEntry(ctx, c, "acme/web", "e-1")
			},
			args:   `{"project":"acme/web","entryId":"e-1"}`,
			answer: `{"published": true, "entry": {"id": "e-1", "sl": "hello", "st": "published", "pub_at": "2026-05-02T09:30:00Z", "mdl": {"sl": "blog-post"}}}`,
			want:   &content.Entry{ID: "e-1", Slug: "hello", Status: content.StatusPublished, Model: "blog-post", PublishedAt: may2},
			raw:    `{"id": "e-1", "sl": "hello", "st": "published", "pub_at": "2026-05-02T09:30:00Z", "mdl": {"sl": "blog-post"}}`,
		},
		{
			tool: "deleteContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return nil, toolcalls.DeleteEntry(ctx, c, "acme/web", "e-1")
			},
			args:   `{"project":"acme/web","entryId":"e-1"}`,
			answer: `{"deleted": true, "ok": true}`,
			raw:    "-",
		},
		{
			tool: "duplicateContentEntry",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.DuplicateEntry(ctx, c, "acme/web", "e-1", "hello-2")
			},
			args:   `{"project":"acme/web","entryId":"e-1","newSlug":"hello-2"}`,
			answer: `{"duplicated": true, "entry": {"id": "e-2", "sl": "hello-2", "st": "draft", "t": "Hello", "mdl": {"sl": "blog-post"}}}`,
			want:   &content.Entry{ID: "e-2", Slug: "hello-2", Status: content.StatusDraft, Title: "Hello", Model: "blog-post"},
			raw:    `{"id": "e-2", "sl": "hello-2", "st": "draft", "t": "Hello", "mdl": {"sl": "blog-post"}}`,
		},
		{
			tool: "bulkCreateEntries",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.BulkCreate(ctx, c, "acme/web", "blog-post", []content.NewEntry{
					{Title: "One", Slug: "one", Status: content.StatusPublished, Fields: map[string]any{"summary": "1"}},
					{Model: "blog-post", Title: "Two", Slug: "two", Body: "# Two", Translations: map[string]content.LanguageValues{"de": {Title: "Zwei"}}},
					{Title: "Three", Slug: "one"},
				})
			},
			args: `{"project":"acme/web","modelSlug":"blog-post","entries":[
				{"title":"One","slug":"one","status":"published","customFields":{"summary":"1"}},
				{"title":"Two","slug":"two","bodyMarkdown":"# Two","translations":{"de":{"title":"Zwei"}}},
				{"title":"Three","slug":"one"}]}`,
			answer: `{"created": 2, "entries": [{"id": "e-1", "sl": "one", "st": "published"}, {"id": "e-2", "sl": "two", "st": "draft"}],
				"failed": [{"idx": 2, "sl": "one", "err": "Slug already exists"}], "warn": "Body starts with # H1 heading in: two"}`,
			want: &content.BulkResult{Count: 2,
				Entries: []content.BulkEntry{{ID: "e-1", Slug: "one", Status: content.StatusPublished}, {ID: "e-2", Slug: "two", Status: content.StatusDraft}},
				Failed:  []content.BulkFailure{{Index: 2, Slug: "one", Error: "Slug already exists"}},
				Warning: "Body starts with # H1 heading in: two"},
		},
		{
			tool: "bulkUpdateEntries",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.BulkUpdate(ctx, c, "acme/web", []content.EntryChange{
					{ID: "e-1", EntryUpdate: content.EntryUpdate{Status: content.StatusPublished}},
					{ID: "e-9", EntryUpdate: content.EntryUpdate{Translations: map[string]content.LanguageValues{"DE": {Body: "Text"}}}},
					{ID: "e-2", EntryUpdate: content.EntryUpdate{Slug: "two-b", Fields: map[string]any{"summary": nil}}},
				})
			},
			args: `{"project":"acme/web","entries":[{"entryId":"e-1","status":"published"},{"entryId":"e-9","translations":{"DE":{"bodyMarkdown":"Text"}}},
				{"entryId":"e-2","slug":"two-b","customFields":{"summary":null}}]}`,
			answer: `{"updated": 2, "entries": [{"id": "e-1", "st": "published"}, {"id": "e-2", "st": "draft"}], "failed": [{"idx": 1, "id": "e-9", "err": "Entry not found"}]}`,
			want: &content.BulkResult{Count: 2,
				Entries: []content.BulkEntry{{ID: "e-1", Status: content.StatusPublished}, {ID: "e-2", Status: content.StatusDraft}},
				Failed:  []content.BulkFailure{{Index: 1, ID: "e-9", Error: "Entry not found"}}},
		},
		{
			tool: "bulkPublishEntries",
			call: func(ctx context.Context, c toolcalls.Caller) (any, error) {
				return toolcalls.BulkPublish(ctx, c, "acme/web", []string{"e-1", "e-9", "e-2"})
			},
			args:   `{"project":"acme/web","entryIds":["e-1","e-9","e-2"]}`,
			answer: `{"pub": 2, "fail": [{"id": "e-9", "err": "Entry not found"}]}`,
			want:   &content.BulkResult{Count: 2, Failed: []content.BulkFailure{{Index: 1, ID: "e-9", Error: "Entry not found"}}},
		},
	}
}

func TestContentToolsRequestShapeAndDecoding(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range contentCases() {
		seen[tc.tool] = true
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
			if d := cmp.Diff(tc.want, got, contentOpts...); d != "" {
				t.Errorf("decoded result (-want +got):\n%s", d)
			}
			switch tc.raw {
			case "-":
			case "":
				if raw := reflectRaw(got); string(raw) != tc.answer {
					t.Errorf("Raw = %s, want the whole answer", raw)
				}
			default:
				jsonEqual(t, reflectRaw(got), tc.raw)
			}
		})
	}
	// Every content tool the SDK wraps has a case (blocks go through
	// Tools.Call).
	for _, tool := range []string{"listContentModels", "getContentModel", "createContentModel", "updateContentModel", "deleteContentModel",
		"addField", "updateField", "removeField", "reorderFields", "listContentEntries", "getContentEntry", "createContentEntry",
		"updateContentEntry", "publishContentEntry", "deleteContentEntry", "duplicateContentEntry", "bulkCreateEntries",
		"bulkUpdateEntries", "bulkPublishEntries"} {
		if !seen[tool] {
			t.Errorf("no request-shape case for %s", tool)
		}
	}
}

// The bulk tools' other answer forms: bulkPublishEntries as its
// description words it (published/failed), published as a list of ids,
// failures without idx placed by id or slug, and an error object.
func TestContentBulkAnswerForms(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		call         func(context.Context, toolcalls.Caller) (*content.BulkResult, error)
		want         *content.BulkResult
	}{
		{
			name:   "published and failed",
			answer: `{"published": ["e-1", {"id": "e-2", "sl": "two", "st": "published"}], "failed": [{"id": "e-7", "error": "Not found"}, {"id": "e-x", "err": "?"}]}`,
			call: func(ctx context.Context, c toolcalls.Caller) (*content.BulkResult, error) {
				return toolcalls.BulkPublish(ctx, c, "acme/web", []string{"e-1", "e-2", "e-7"})
			},
			want: &content.BulkResult{Count: 2,
				Entries: []content.BulkEntry{{ID: "e-1"}, {ID: "e-2", Slug: "two", Status: content.StatusPublished}},
				Failed:  []content.BulkFailure{{Index: 2, ID: "e-7", Error: "Not found"}, {Index: -1, ID: "e-x", Error: "?"}}},
		},
		{
			name:   "create failure without idx",
			answer: `{"created": [{"id": "e-1", "sl": "a"}], "entries": [{"id": "e-1", "sl": "a", "st": "draft"}], "failed": [{"sl": "b", "err": {"message": "Slug already exists"}}]}`,
			call: func(ctx context.Context, c toolcalls.Caller) (*content.BulkResult, error) {
				return toolcalls.BulkCreate(ctx, c, "acme/web", "m", []content.NewEntry{{Title: "A", Slug: "a"}, {Title: "B", Slug: "b"}})
			},
			want: &content.BulkResult{Count: 1, Entries: []content.BulkEntry{{ID: "e-1", Slug: "a", Status: content.StatusDraft}},
				Failed: []content.BulkFailure{{Index: 1, Slug: "b", Error: "Slug already exists"}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := callerFunc(func(context.Context, string, any) ([]byte, error) { return []byte(tc.answer), nil })
			got, err := tc.call(t.Context(), c)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.want, got, contentOpts...); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
			if string(got.Raw) != tc.answer {
				t.Errorf("Raw = %s", got.Raw)
			}
		})
	}
}
