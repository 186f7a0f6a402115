package toolcalls

import (
	"bytes"
	"encoding/json"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// MaxBatchBytes bounds the encoded arguments of one call that the Batches
// functions plan: 1 MiB less 16 KiB for the JSON-RPC envelope around them.
// The service documents no size limit; this is the SDK's own bound, to
// keep one request from growing without end.
const MaxBatchBytes = 1<<20 - 16<<10

// sized is a batch with the length of its call's encoded arguments.
type sized[T any] struct {
	items []T
	bytes int
}

// sizer measures values of type W as the MCP go-sdk encodes a call's
// arguments: encoding/json without HTML escaping. It reuses one buffer,
// and encodes a pointer to its own copy of the value, so that measuring
// an item costs no allocation of its own (an interface holding a W
// would be one per item).
type sizer[W any] struct {
	buf bytes.Buffer
	enc *json.Encoder
	w   W
}

func newSizer[W any]() *sizer[W] {
	s := &sizer[W]{}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

// size returns the encoded length of w. The wire structs hold strings,
// maps of strings and bools only, which always encode.
func (s *sizer[W]) size(w W) int {
	s.w = w
	s.buf.Reset()
	_ = s.enc.Encode(&s.w)
	return s.buf.Len() - 1 // Encode ends with a newline
}

// sizeOf returns the encoded length of v, as sizer does.
func sizeOf[W any](v W) int { return newSizer[W]().size(v) }

// split cuts items into batches, in order, each of at most maxItems items
// (0: no limit) and arguments of at most MaxBatchBytes: base, the
// arguments with an empty list, plus each item's encoded size and a comma
// between two. An item larger than that alone is a batch by itself. With
// name set, an item whose name is already in the batch starts the next.
// The batches are sub-slices of items, capped so an append copies.
func split[T any](items []T, maxItems, base int, size func(T) int, name func(T) string) []sized[T] {
	var out []sized[T]
	var names map[string]bool
	if name != nil {
		names = map[string]bool{}
	}
	start, total := 0, base
	for i, it := range items {
		n := size(it)
		if i > start {
			n++ // the comma before it
			if maxItems > 0 && i-start == maxItems || total+n > MaxBatchBytes || names != nil && names[name(it)] {
				out = append(out, sized[T]{items[start:i:i], total})
				start, total, n = i, base, n-1
				clear(names)
			}
		}
		total += n
		if names != nil {
			names[name(it)] = true
		}
	}
	if start < len(items) {
		out = append(out, sized[T]{items[start:len(items):len(items)], total})
	}
	return out
}

// plain drops the sizes.
func plain[T any](bs []sized[T]) [][]T {
	out := make([][]T, len(bs))
	for i, b := range bs {
		out[i] = b.items
	}
	return out
}

// newKeyWireOf, updateWireOf and valuesWireOf are the one mapping from the
// public types to what createKeys, updateKeys and setTranslations are sent:
// the calls build their arguments with them and the batches size by them.
func newKeyWireOf(k keys.NewKey) newKeyWire {
	return newKeyWire{N: k.Name, NS: k.Namespace, V: k.SourceText, T: k.Translations, NC: (*nsContextWire)(k.Context)}
}

func updateWireOf(u keys.Update) updateWire {
	return updateWire{ID: u.KeyID, L: u.Language, T: u.Text, S: u.Source, ST: u.Status}
}

func valuesWireOf(v translations.Values) valuesWire { return valuesWire{ID: v.KeyID, T: v.Text} }

func splitCreateKeys(project string, ks []keys.NewKey, opt keys.CreateOptions) []sized[keys.NewKey] {
	s := newSizer[newKeyWire]()
	base := sizeOf(createKeysArgs{Project: project, K: []newKeyWire{}, Force: opt.Force})
	return split(ks, 0, base, func(k keys.NewKey) int { return s.size(newKeyWireOf(k)) }, func(k keys.NewKey) string { return k.Name })
}

func splitUpdateKeys(project string, us []keys.Update) []sized[keys.Update] {
	s := newSizer[updateWire]()
	base := sizeOf(updateKeysArgs{Project: project, T: []updateWire{}})
	return split(us, 0, base, func(u keys.Update) int { return s.size(updateWireOf(u)) }, nil)
}

func splitDeleteKeys(project string, ids []string) []sized[string] {
	s := newSizer[string]()
	base := sizeOf(deleteKeysArgs{Project: project, KeyIDs: []string{}})
	return split(ids, keys.MaxDelete, base, s.size, nil)
}

func splitSetTranslations(project string, vs []translations.Values) []sized[translations.Values] {
	s := newSizer[valuesWire]()
	base := sizeOf(setTranslationsArgs{Project: project, T: []valuesWire{}})
	return split(vs, translations.MaxSet, base, func(v translations.Values) int { return s.size(valuesWireOf(v)) }, nil)
}

// CreateKeysBatches splits ks into createKeys calls: no two keys of one
// call share a name (the tool reports keys by name alone), and each
// call's arguments stay within MaxBatchBytes.
func CreateKeysBatches(project string, ks []keys.NewKey, opt keys.CreateOptions) [][]keys.NewKey {
	return plain(splitCreateKeys(project, ks, opt))
}

// UpdateKeysBatches splits us into updateKeys calls within MaxBatchBytes.
func UpdateKeysBatches(project string, us []keys.Update) [][]keys.Update {
	return plain(splitUpdateKeys(project, us))
}

// DeleteKeysBatches splits ids into deleteKeys calls of at most
// keys.MaxDelete ids within MaxBatchBytes.
func DeleteKeysBatches(project string, ids []string) [][]string {
	return plain(splitDeleteKeys(project, ids))
}

// SetTranslationsBatches splits vs into setTranslations calls of at most
// translations.MaxSet keys within MaxBatchBytes.
func SetTranslationsBatches(project string, vs []translations.Values) [][]translations.Values {
	return plain(splitSetTranslations(project, vs))
}
