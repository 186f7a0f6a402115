package formats_test

import "github.com/locsvc/partner-go/locales"

// untranslated returns the keys msgs mark untranslated, with their texts.
func untranslated(msgs []locales.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if m.Untranslated {
			out[m.Key] = m.Text
		}
	}
	return out
}

// translatedTexts is texts of the messages not marked untranslated.
func translatedTexts(msgs []locales.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		if !m.Untranslated {
			out[m.Key] = m.Text
		}
	}
	return out
}
