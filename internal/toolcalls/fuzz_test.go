package toolcalls_test

import (
	"context"
	"testing"

	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// FuzzResults feeds arbitrary tool answers to the decoders: they must
// never panic, and a result always keeps the answer in Raw.
func FuzzResults(f *testing.F) {
	for _, tc := range wireCases() {
		f.Add(tc.answer)
	}
	f.Add(`{"k": [1, "x", null], "nss": [{"nm": 3}], "tot": "many"}`)
	f.Add(`[]`)
	f.Add(`{"nsd": {"a": "x", "b": {"ctx": {"tg": [1, {"name": "n"}]}}}, "namespaceDetails": ["c", 7]}`)
	f.Add(`{"projects": [{"fileStructure": 3}], "nss": {"x": null}, "cdn": {"ex": "one"}, "cov": {"de": 1}}`)
	f.Add(`{"tr": {"de": {"body": [{"type": "p", "children": [{"text": "x"}]}]}, "en": {"body": {"a": 1}}}}`)
	for _, s := range contentSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		c := callerFunc(func(context.Context, string, any) ([]byte, error) { return []byte(answer), nil })
		ctx := context.Background()
		if r, err := toolcalls.CreateKeys(ctx, c, "a/b", []keys.NewKey{{Name: "k"}}, keys.CreateOptions{}); err == nil && string(r.Raw) != answer {
			t.Fatal("Raw lost")
		}
		toolcalls.ListKeys(ctx, c, "a/b", keys.ListOptions{}, 1)
		toolcalls.GetTranslations(ctx, c, "a/b", translations.GetOptions{})
		toolcalls.PendingChanges(ctx, c, "a/b")
		toolcalls.ListProjects(ctx, c)
		toolcalls.GetProject(ctx, c, "a/b")
		toolcalls.Publish(ctx, c, "a/b", translations.PublishOptions{})
		toolcalls.ListSyncs(ctx, c, "a/b", translations.ListSyncsOptions{})
		toolcalls.GetSync(ctx, c, "s")
		toolcalls.TranslationContext(ctx, c, "a/b", translations.ContextOptions{})
		toolcalls.ProposeLanguageEdits(ctx, c, "a/b", []translations.LanguageEdit{{Code: "de", NewStatus: translations.LanguageDraft}})
		fuzzContent(t, answer)
	})
}
