package partner

import (
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// MaxBatchBytes bounds the encoded arguments of one call that the Batches
// methods plan: 1 MiB less 16 KiB for the JSON-RPC envelope around them.
// The service documents no size limit; this is the SDK's own bound, to
// keep one request from growing without end.
//
// The Batches methods (KeysService.CreateBatches, UpdateBatches,
// DeleteBatches, TranslationsService.SetBatches) split a long list into
// the calls that carry it, and send nothing: in order, every item in
// exactly one batch, each batch within the tool's item limit and
// MaxBatchBytes, measured by encoding the call's arguments exactly as
// they are sent (an item larger than MaxBatchBytes alone is a batch by
// itself). The batches share the list's backing array; appending to one
// copies it. Create, Update, Delete and Set still refuse a list over the
// tool's item limit rather than split it, since a write split in several
// calls can fail halfway: sending the batches is the caller's choice.
const MaxBatchBytes = toolcalls.MaxBatchBytes

// CreateBatches splits ks into Create calls for project with opt: no two
// keys of one call share a Name (createKeys reports keys by name alone,
// so two namespaces' "title" in one call could not be told apart), and
// each call's arguments stay within MaxBatchBytes.
func (s *KeysService) CreateBatches(project string, ks []keys.NewKey, opt keys.CreateOptions) [][]keys.NewKey {
	return toolcalls.CreateKeysBatches(project, ks, opt)
}

// UpdateBatches splits us into Update calls for project, each within
// MaxBatchBytes (updateKeys has no item limit).
func (s *KeysService) UpdateBatches(project string, us []keys.Update) [][]keys.Update {
	return toolcalls.UpdateKeysBatches(project, us)
}

// DeleteBatches splits ids into Delete calls for project, each of at most
// keys.MaxDelete ids and within MaxBatchBytes.
func (s *KeysService) DeleteBatches(project string, ids []string) [][]string {
	return toolcalls.DeleteKeysBatches(project, ids)
}

// SetBatches splits vs into Set calls for project, each of at most
// translations.MaxSet keys and within MaxBatchBytes.
func (s *TranslationsService) SetBatches(project string, vs []translations.Values) [][]translations.Values {
	return toolcalls.SetTranslationsBatches(project, vs)
}
