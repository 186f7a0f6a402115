package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strconv"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// pubWire is the pending-publish object of the write tools: pub
// {has, cnt, hint} or pendingPublish {hasChanges, count, hint}.
type pubWire struct {
	Has, HasChanges bool
	Cnt, Count      int
	Hint            string
}

func (p *pubWire) pending() *translations.PendingPublish {
	if p == nil {
		return nil
	}
	return &translations.PendingPublish{HasChanges: p.Has || p.HasChanges, Count: cmp.Or(p.Cnt, p.Count), Hint: p.Hint}
}

type newKeyWire struct {
	N  string            `json:"n"`
	NS string            `json:"ns,omitempty"`
	V  string            `json:"v,omitempty"`
	T  map[string]string `json:"t,omitempty"`
	NC *nsContextWire    `json:"nc,omitempty"`
}

// nsContextWire is translations.NamespaceContext with its wire names: the
// one converts to the other.
type nsContextWire struct {
	Description string   `json:"description,omitempty"`
	Team        string   `json:"team,omitempty"`
	Domain      string   `json:"domain,omitempty"`
	AIPrompt    string   `json:"aiPrompt,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

type createKeysArgs struct {
	Project string       `json:"project"`
	K       []newKeyWire `json:"k"`
	Force   bool         `json:"force,omitempty"`
}

type createKeysWire struct {
	OK                 bool
	Cnt, New, Ren, Dup int
	K                  []struct {
		K, ID string
		Tr    json.RawMessage
	}
	Skip []struct{ K, Reason string }
	Warn []struct {
		K, NS string
		Other flexStrings
	}
	Blocked []struct {
		K, NS, Src, Why string
		Reuse           []keyRefW
	}
	Pub  *pubWire
	Hint string
}

type keyRefW struct{ ID, K, NS string }

func (k keyRefW) ref() keys.KeyRef { return keys.KeyRef{ID: k.ID, Name: k.K, Namespace: k.NS} }

// CreateKeys creates keys with createKeys. Existing keys (same name and
// namespace) are skipped and reported in the result.
func CreateKeys(ctx context.Context, c Caller, project string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, apierr.ArgumentError("keys", "is empty; want at least one key")
	}
	args := createKeysArgs{Project: project, K: make([]newKeyWire, len(ks)), Force: opt.Force}
	for i, k := range ks {
		if k.Name == "" {
			return nil, apierr.ArgumentError(fmt.Sprintf("keys[%d].Name", i), "is empty")
		}
		args.K[i] = newKeyWireOf(k)
	}
	return result(ctx, c, "createKeys", args, func(w *createKeysWire, raw json.RawMessage) *keys.CreateResult {
		r := &keys.CreateResult{
			OK: w.OK, Count: w.Cnt, NewCount: w.New, RenamedCount: w.Ren, DuplicateCount: w.Dup,
			Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw,
		}
		for _, k := range w.K {
			r.Created = append(r.Created, keys.CreatedKey{Name: k.K, ID: k.ID, Translations: k.Tr})
		}
		for _, s := range w.Skip {
			r.Skipped = append(r.Skipped, keys.SkippedKey{Name: s.K, Reason: s.Reason})
		}
		for _, x := range w.Warn {
			r.Warnings = append(r.Warnings, keys.KeyWarning{Name: x.K, Namespace: x.NS, OtherNamespaces: x.Other})
		}
		for _, b := range w.Blocked {
			r.Blocked = append(r.Blocked, keys.BlockedKey{Name: b.K, Namespace: b.NS, SourceText: b.Src, Reason: b.Why, Reuse: each(b.Reuse, keyRefW.ref)})
		}
		return r
	})
}

type listKeysArgs struct {
	Project         string       `json:"project"`
	Search          any          `json:"search,omitempty"`
	Namespaces      []string     `json:"namespaces,omitempty"`
	MissingLanguage string       `json:"missingLanguage,omitempty"`
	Fields          []keys.Field `json:"fields,omitempty"`
	Page            int          `json:"page"`
	Limit           int          `json:"limit,omitempty"`
}

type listKeysWire struct {
	Tot, Pg, Lim int
	HasMore      bool `json:"has_more"`
	NSS          flexStrings
	K            []json.RawMessage
	Note         string
}

type keyWire struct {
	K, ID, Src string
	NS         json.RawMessage
	TL         flexStrings
	TLC        int
	Tr         map[string]string
	P          bool
}

// namespace resolves a key's ns: an index into the page's namespaces, or
// the name itself.
func namespace(ns json.RawMessage, names []string) string {
	var name string
	if json.Unmarshal(ns, &name) == nil {
		return name
	}
	if i, err := strconv.Atoi(string(ns)); err == nil && i >= 0 && i < len(names) {
		return names[i]
	}
	return ""
}

func checkListOptions(project string, opt keys.ListOptions) error {
	return cmp.Or(checkProject(project), between("PageSize", opt.PageSize, 1, keys.MaxPageSize), nonEmpty("Namespaces", opt.Namespaces))
}

// ListKeys returns one page (from 1) of listKeys.
func ListKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions, page int) (*keys.Page, error) {
	if err := cmp.Or(checkListOptions(project, opt), checkPage(page)); err != nil {
		return nil, err
	}
	return listKeys(ctx, c, project, opt, page)
}

func listKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions, page int) (*keys.Page, error) {
	args := listKeysArgs{
		Project: project, Search: search(opt.Search), Namespaces: opt.Namespaces,
		MissingLanguage: opt.MissingLanguage, Fields: opt.Fields, Page: page, Limit: opt.PageSize,
	}
	return result(ctx, c, "listKeys", args, func(w *listKeysWire, raw json.RawMessage) *keys.Page {
		return &keys.Page{
			Total: w.Tot, Number: cmp.Or(w.Pg, page), PageSize: w.Lim, HasMore: w.HasMore, Namespaces: w.NSS, Note: w.Note, Raw: raw,
			Keys: nonNil(each(w.K, func(kr json.RawMessage) keys.Key {
				var kw keyWire
				_ = decode("listKeys", kr, &kw) // an odd record keeps its Raw
				return keys.Key{
					Name: kw.K, Namespace: namespace(kw.NS, w.NSS), ID: kw.ID, SourceText: kw.Src,
					TranslatedLanguages: kw.TL, TranslatedLanguageCount: kw.TLC, Translations: kw.Tr,
					LegacyDuplicate: kw.P, Raw: kr,
				}
			})),
		}
	})
}

// KeyPages iterates over every page of listKeys, from the first, until the
// service says there are no more. PageSize 0 fetches keys.MaxPageSize keys
// per request. An error ends the iteration after it is yielded. A listing
// that repeats a page, or runs past its first page's total by a margin,
// ends with ErrUnexpectedResponse (see pages).
func KeyPages(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error] {
	check := func() error { return checkListOptions(project, opt) }
	opt.PageSize = cmp.Or(opt.PageSize, keys.MaxPageSize)
	fetch := func(page int) (*keys.Page, error) { return listKeys(ctx, c, project, opt, page) }
	return pages("listKeys", opt.PageSize, check, fetch, func(p *keys.Page) page {
		return page{more: p.HasMore, total: p.Total, ids: each(p.Keys, keyIdentity)}
	})
}

// keyIdentity tells a listed key from the others: its id with its name
// and namespace (a key listed without ids has only those), a legacy
// duplicate row apart; a record with none of them by its JSON.
func keyIdentity(k keys.Key) string {
	if k.ID == "" && k.Name == "" {
		return string(k.Raw)
	}
	id := k.ID + "\x00" + k.Namespace + "\x00" + k.Name
	if k.LegacyDuplicate {
		id += "\x00p"
	}
	return id
}

// AllKeys iterates over every key of every page of listKeys.
func AllKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[keys.Key, error] {
	return items(KeyPages(ctx, c, project, opt), func(p *keys.Page) []keys.Key { return p.Keys })
}

type updateWire struct {
	ID string `json:"id"`
	L  string `json:"l"`
	T  string `json:"t"`
	S  bool   `json:"s,omitempty"`
	ST string `json:"st,omitempty"`
}

type updateKeysArgs struct {
	Project string       `json:"project"`
	T       []updateWire `json:"t"`
}

// batchWire is what updateKeys and setTranslations both report: the keys
// written and the items that failed.
type batchWire struct {
	Upd []struct {
		ID, K string
		Lng   flexStrings
		Src   bool
	}
	Errors []struct {
		ID, K, NS, Code, Msg string
		L                    flexStrings
	}
}

// results returns the keys written and the items that failed.
func (w *batchWire) results() (updated []translations.UpdatedKey, failed []translations.ItemError) {
	for _, u := range w.Upd {
		updated = append(updated, translations.UpdatedKey{KeyID: u.ID, Name: u.K, Languages: u.Lng, Source: u.Src})
	}
	for _, e := range w.Errors {
		failed = append(failed, translations.ItemError{KeyID: e.ID, Name: e.K, Namespace: e.NS, Languages: e.L, Code: e.Code, Message: e.Msg})
	}
	return updated, failed
}

type updateKeysWire struct {
	OK  bool
	Cnt int
	batchWire
	Pub  *pubWire
	Hint string
}

// UpdateKeys changes texts with updateKeys. Unknown key ids are listed in
// the result's Errors.
func UpdateKeys(ctx context.Context, c Caller, project string, us []keys.Update) (*keys.UpdateResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if len(us) == 0 {
		return nil, apierr.ArgumentError("updates", "is empty; want at least one")
	}
	args := updateKeysArgs{Project: project, T: make([]updateWire, len(us))}
	for i, u := range us {
		f := fmt.Sprintf("updates[%d].", i)
		if err := cmp.Or(required(f+"KeyID", u.KeyID), required(f+"Language", u.Language)); err != nil {
			return nil, err
		}
		args.T[i] = updateWireOf(u)
	}
	return result(ctx, c, "updateKeys", args, func(w *updateKeysWire, raw json.RawMessage) *keys.UpdateResult {
		r := &keys.UpdateResult{OK: w.OK, Count: w.Cnt, Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw}
		r.Updated, r.Errors = w.results()
		return r
	})
}

type deleteKeysArgs struct {
	Project string   `json:"project"`
	KeyIDs  []string `json:"keyIds"`
}

type deleteKeysWire struct {
	OK   bool
	Cnt  int
	MK   []keyRefW
	Skip flexStrings
	Pub  *pubWire
	Hint string
}

// DeleteKeys marks keys deleted with deleteKeys (permanent at the next
// publish). More than keys.MaxDelete ids are refused, not split.
func DeleteKeys(ctx context.Context, c Caller, project string, ids []string) (*keys.DeleteResult, error) {
	if err := cmp.Or(checkProject(project), batch("ids", len(ids), keys.MaxDelete, "key ids"), nonEmpty("ids", ids)); err != nil {
		return nil, err
	}
	return result(ctx, c, "deleteKeys", deleteKeysArgs{Project: project, KeyIDs: ids}, func(w *deleteKeysWire, raw json.RawMessage) *keys.DeleteResult {
		return &keys.DeleteResult{
			OK: w.OK, Count: w.Cnt, Deleted: each(w.MK, keyRefW.ref), Skipped: w.Skip, Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw,
		}
	})
}
