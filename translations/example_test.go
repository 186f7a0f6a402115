package translations_test

import (
	"fmt"

	"github.com/locsvc/partner-go/translations"
)

// Translations.Set takes the texts per key id; a query for Get needs
// Languages when it filters by status.
func ExampleValues() {
	set := []translations.Values{
		{KeyID: "0b5c6a1e-4c1f-4e0a-9d7b-2f1f7c2f9a10", Text: map[string]string{"fr": "Accueil", "de": "Startseite"}},
	}
	q := translations.GetOptions{Languages: []string{"fr"}, Status: translations.StatusMissing}
	fmt.Println(len(set), "key;", q.Status, "in", q.Languages)
	// Output: 1 key; missing in [fr]
}

// A sync job is finished once its status is completed, failed or
// cancelled.
func ExampleSyncStatus_Done() {
	for _, s := range []translations.SyncStatus{translations.SyncPending, translations.SyncInProgress, translations.SyncCompleted} {
		fmt.Println(s, s.Done())
	}
	// Output:
	// pending false
	// in_progress false
	// completed true
}
