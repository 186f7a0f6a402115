package webhook_test

import (
	"fmt"
	"strings"

	"github.com/locsvc/partner-go/webhook"
)

// List the event types of translations, keys and languages: the content
// events' types start with "content.".
func ExampleEventTypes() {
	for _, t := range webhook.EventTypes() {
		if strings.HasPrefix(string(t), "content.") {
			continue
		}
		fmt.Println(t)
	}
	// Output:
	// translations.published
	// translations.updated
	// keys.created
	// keys.deleted
	// sync.completed
	// language.added
	// language.removed
}
