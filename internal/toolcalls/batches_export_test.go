package toolcalls

import (
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// The encoded sizes of the batches the Batches functions plan, in order,
// for the tests that compare them with the arguments sent.

func sizes[T any](bs []sized[T]) []int {
	out := make([]int, len(bs))
	for i, b := range bs {
		out[i] = b.bytes
	}
	return out
}

func CreateKeysBatchSizes(project string, ks []keys.NewKey, opt keys.CreateOptions) []int {
	return sizes(splitCreateKeys(project, ks, opt))
}

func UpdateKeysBatchSizes(project string, us []keys.Update) []int {
	return sizes(splitUpdateKeys(project, us))
}

func DeleteKeysBatchSizes(project string, ids []string) []int {
	return sizes(splitDeleteKeys(project, ids))
}

func SetTranslationsBatchSizes(project string, vs []translations.Values) []int {
	return sizes(splitSetTranslations(project, vs))
}
