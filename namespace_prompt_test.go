package partner_test

import (
	"testing"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// TestTranslationsGetKeepsTheNamespacePrompt: a namespace's AI prompt,
// given with a key's context, comes back from Translations.Get in the
// namespace's context, with its key count, from the abbreviated answer the
// published server sends (nsd {kc, desc, ap}).
func TestTranslationsGetKeepsTheNamespacePrompt(t *testing.T) {
	r := newRig(t)
	ctx := t.Context()
	nc := &keys.NamespaceContext{Description: "Buttons and menus", AIPrompt: "Be brief"}
	if _, err := r.c.Keys.Create(ctx, r.project, []keys.NewKey{
		{Name: "save", Namespace: "common", SourceText: "Save", Context: nc},
		{Name: "quit", Namespace: "common", SourceText: "Quit"},
		{Name: "terms", Namespace: "legal", SourceText: "Terms"},
	}, keys.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	res, err := r.c.Translations.Get(ctx, r.project, translations.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]translations.Namespace{}
	for _, ns := range res.Namespaces {
		got[ns.Name] = ns
	}
	common, legal := got["common"], got["legal"]
	if common.Context == nil || common.Context.AIPrompt != "Be brief" || common.Context.Description != "Buttons and menus" || common.KeyCount != 2 {
		t.Errorf("common = %+v (context %+v), want the prompt Be brief and 2 keys", common, common.Context)
	}
	if legal.Context != nil || legal.KeyCount != 1 {
		t.Errorf("legal = %+v (context %+v), want no context and 1 key", legal, legal.Context)
	}
}
