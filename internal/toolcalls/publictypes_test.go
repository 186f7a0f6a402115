package toolcalls_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// publicTypes lists a zero value of every exported struct type of keys,
// translations and content: the types users hold, marshal and store.
var publicTypes = []any{
	keys.NewKey{}, keys.CreateOptions{}, keys.CreateResult{}, keys.CreatedKey{}, keys.SkippedKey{},
	keys.KeyWarning{}, keys.BlockedKey{}, keys.KeyRef{}, keys.ListOptions{}, keys.Key{}, keys.Page{},
	keys.Update{}, keys.UpdateResult{}, keys.DeleteResult{},

	translations.PendingPublish{}, translations.Values{}, translations.SetResult{}, translations.UpdatedKey{},
	translations.ItemError{}, translations.GetOptions{}, translations.Result{}, translations.Namespace{},
	translations.NamespaceContext{}, translations.KeyTranslations{}, translations.Translation{},
	translations.PendingChanges{}, translations.PendingSummary{}, translations.LanguageChanges{},
	translations.PendingTranslation{}, translations.PendingDeletion{}, translations.RecentPublish{},
	translations.PublishOptions{}, translations.Selection{}, translations.PublishResult{}, translations.PublishWaitResult{},
	translations.ListSyncsOptions{}, translations.SyncList{}, translations.Sync{}, translations.Person{},
	translations.AffectedKey{}, translations.CancelResult{}, translations.ContextOptions{}, translations.Context{},
	translations.Term{}, translations.KeyMatches{}, translations.Match{}, translations.LanguageProposal{},
	translations.ProposeLanguagesResult{}, translations.LanguageResult{}, translations.LanguageEdit{},
	translations.ProposeLanguageEditsResult{}, translations.LanguageEditResult{}, translations.ProjectSummary{},
	translations.ProjectList{}, translations.Project{}, translations.Coverage{}, translations.CDN{},

	content.Entry{}, content.Translation{}, content.Version{}, content.Person{}, content.NewEntry{},
	content.LanguageValues{}, content.EntryUpdate{}, content.EntryChange{}, content.GetOptions{},
	content.ListOptions{}, content.Page{}, content.BulkResult{}, content.BulkEntry{}, content.BulkFailure{},
	content.Model{}, content.Field{}, content.EnumValue{}, content.Relation{}, content.FieldOptions{},
	content.AIGeneration{}, content.NewField{}, content.FieldUpdate{}, content.NewModel{}, content.ModelUpdate{},
}

// TestPublicTypesHaveNoWireNames checks that the public types marshal as
// Go names them: no json tag on any field and no JSON or text
// (un)marshaler on any type they hold. The tools' wire names live in
// toolcalls' private structs; tags on the public types would change what
// json.Marshal gives users.
func TestPublicTypesHaveNoWireNames(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		if seen[typ] {
			return
		}
		seen[typ] = true
		for _, m := range []string{"MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText"} {
			if typ.Kind() == reflect.Pointer {
				break // checked on its element
			}
			_, onValue := typ.MethodByName(m)
			_, onPointer := reflect.PointerTo(typ).MethodByName(m)
			if (onValue || onPointer) && typ.PkgPath() != "encoding/json" && typ.PkgPath() != "time" {
				t.Errorf("%s (%s) has a %s method", typ, path, m)
			}
		}
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(typ.Elem(), path)
		case reflect.Struct:
			for i := range typ.NumField() {
				f := typ.Field(i)
				if tag, ok := f.Tag.Lookup("json"); ok {
					t.Errorf("%s.%s has the json tag %q", typ, f.Name, tag)
				}
				walk(f.Type, typ.String()+"."+f.Name)
			}
		}
	}
	for _, v := range publicTypes {
		walk(reflect.TypeOf(v), "")
	}
	listed := map[string]bool{}
	for _, v := range publicTypes {
		listed[reflect.TypeOf(v).String()] = true
	}
	for _, dir := range []string{"keys", "translations", "content"} {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				g, ok := d.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, s := range g.Specs {
					ts, ok := s.(*ast.TypeSpec)
					if !ok {
						continue
					}
					if _, isStruct := ts.Type.(*ast.StructType); isStruct && ts.Name.IsExported() && !listed[dir+"."+ts.Name.Name] {
						t.Errorf("%s.%s is not in publicTypes", dir, ts.Name.Name)
					}
				}
			}
		}
	}
}

// TestPublicTypesSurviveAJSONRoundTrip checks what users rely on when
// they store a result or an option set as JSON: json.Marshal then
// json.Unmarshal gives back an equal value, every field kept.
func TestPublicTypesSurviveAJSONRoundTrip(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 800, time.UTC)
	yes := true
	pending := &translations.PendingPublish{HasChanges: true, Count: 2, Hint: "publish"}
	cases := []any{
		&content.Entry{
			ID: "e-1", Model: "blog-post", ModelName: "Blog post", ModelKind: content.KindCollection,
			Title: "Hello", Slug: "hello", Status: content.StatusPublished, Body: "# Hi", RichBody: json.RawMessage(`{"type":"doc"}`),
			SourceLanguage: "en", Languages: []string{"en", "de"}, Fields: map[string]string{"summary": "Short"},
			Translations: map[string]content.Translation{"de": {ID: "t-1", Language: "de", Title: "Hallo", Body: "Hi",
				RichBody: json.RawMessage(`[1]`), Status: content.StatusDraft, Fields: map[string]string{"summary": "Kurz"}}},
			Versions: []content.Version{{ID: "v-1", Number: 3, Language: "en", Change: "title", CreatedAt: at,
				By: &content.Person{ID: "u-1", Name: "Ada", Image: "https://img/ada"}}},
			Relations: json.RawMessage(`{"author":["u-1"]}`), PublishedAt: at, CreatedAt: at.Add(-time.Hour),
			UpdatedAt: at.Add(time.Minute), Warning: "slow", Raw: json.RawMessage(`{"id":"e-1"}`),
		},
		&content.ListOptions{
			Model: "blog-post", Slugs: []string{"hello"}, Search: []string{"hi", "hey"}, SearchLocales: []string{"de"},
			SearchBody: true, Statuses: []content.Status{content.StatusDraft, content.StatusArchived}, Language: "de",
			LanguageMode: content.AllLanguages, MissingLanguage: "fr", Where: map[string]string{"category": "news"},
			Expand: []string{"author"}, Compact: true, Sort: content.SortTitle, Order: content.Descending, PageSize: 20,
		},
		&translations.Result{
			Project: "acme/web", SourceLanguage: "en", Returned: 1, Total: 9, HasMore: true,
			Keys: []translations.KeyTranslations{{KeyID: "k-1", Name: "nav.home", Namespace: "common", SourceText: "Home",
				Translations: map[string]translations.Translation{"de": {ID: "t-1", Text: "Start", Status: "draft"}}}},
			Namespaces: []translations.Namespace{{Name: "common", Description: "Shared", KeyCount: 4,
				Context: &translations.NamespaceContext{Description: "Shared", Team: "web", Domain: "ui", AIPrompt: "short", Tags: []string{"ui"}},
				Raw:     json.RawMessage(`{"nm":"common"}`)}},
			Hint: "more", Raw: json.RawMessage(`{"prj":"acme/web"}`),
		},
		&translations.Sync{
			ID: "s-1", Type: translations.SyncCDNUpload, Status: translations.SyncCompleted, StartedAt: at, CompletedAt: at.Add(time.Second),
			Error: "none", TriggeredBy: &translations.Person{Name: "Ada", Image: "img"}, KeysProcessed: 3, Files: 2, FilesProcessed: 1,
			Log: []string{"done"}, AffectedKeys: []translations.AffectedKey{{Name: "nav.home", Action: "updated"}}, Hint: "ok",
			Raw: json.RawMessage(`{"id":"s-1"}`),
		},
		&keys.CreateResult{
			OK: true, Count: 1, NewCount: 1, RenamedCount: 2, DuplicateCount: 3,
			Created:  []keys.CreatedKey{{Name: "nav.home", ID: "k-1", Translations: json.RawMessage(`{"de":"draft"}`)}},
			Skipped:  []keys.SkippedKey{{Name: "nav.about", Reason: "duplicate"}},
			Warnings: []keys.KeyWarning{{Name: "nav.home", Namespace: "common", OtherNamespaces: []string{"default"}}},
			Blocked: []keys.BlockedKey{{Name: "nav.start", Namespace: "common", SourceText: "Home",
				Reuse: []keys.KeyRef{{Namespace: "common", Name: "nav.home", ID: "k-1"}}, Reason: "same source text"}},
			Pending: pending, Hint: "done", Raw: json.RawMessage(`{"ok":true}`),
		},
		&content.Field{ID: "f-1", Name: "category", DisplayName: "Category", Type: content.FieldEnum, Localized: true, Required: true,
			Placeholder: "Pick", HelpText: "Help", Position: 2, EnumValues: []content.EnumValue{{Label: "News", Value: "news"}},
			ShowInTable: true, Relation: &content.Relation{TargetModel: "users", Multiple: &yes}, Raw: json.RawMessage(`{"nm":"category"}`)},
	}
	for _, want := range cases {
		t.Run(reflect.TypeOf(want).Elem().String(), func(t *testing.T) {
			b, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			got := reflect.New(reflect.TypeOf(want).Elem()).Interface()
			if err := json.Unmarshal(b, got); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("after json.Marshal and json.Unmarshal (-want +got):\n%s\nJSON: %s", d, b)
			}
		})
	}
}
