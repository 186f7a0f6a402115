package keys_test

import (
	"fmt"

	"github.com/locsvc/partner-go/keys"
)

// A batch for Keys.Create: names, namespaces, source texts and, where
// known, translations.
func ExampleNewKey() {
	batch := []keys.NewKey{
		{Name: "nav.home", Namespace: "common", SourceText: "Home", Translations: map[string]string{"de": "Startseite"}},
		{Name: "nav.about", SourceText: "About us"}, // namespace "default"
	}
	for _, k := range batch {
		ns := k.Namespace
		if ns == "" {
			ns = keys.DefaultNamespace
		}
		fmt.Printf("%s/%s: %q\n", ns, k.Name, k.SourceText)
	}
	// Output:
	// common/nav.home: "Home"
	// default/nav.about: "About us"
}

// Skipped duplicates and blocked keys are part of the result, not errors.
func ExampleCreateResult() {
	res := keys.CreateResult{
		OK:      true,
		Count:   1,
		Created: []keys.CreatedKey{{Name: "nav.home", ID: "k-1"}},
		Skipped: []keys.SkippedKey{{Name: "nav.about", Reason: "duplicate"}},
	}
	fmt.Println("created:", res.Count)
	for _, s := range res.Skipped {
		fmt.Println("skipped:", s.Name, "-", s.Reason)
	}
	// Output:
	// created: 1
	// skipped: nav.about - duplicate
}
