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

// Tool names on the translations server.
const (
	toolListKeys   = "listKeys"
	toolCreateKeys = "createKeys"
	toolUpdateKeys = "updateKeys"
	toolDeleteKeys = "deleteKeys"
)

// pubWire is the pending-publish object of the write tools: pub
// {has, cnt, hint} or pendingPublish {hasChanges, count, hint}.
type pubWire struct {
	Has        bool   `json:"has"`
	Cnt        int    `json:"cnt"`
	HasChanges bool   `json:"hasChanges"`
	Count      int    `json:"count"`
	Hint       string `json:"hint"`
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
	OK  bool `json:"ok"`
	Cnt int  `json:"cnt"`
	New int  `json:"new"`
	Ren int  `json:"ren"`
	Dup int  `json:"dup"`
	K   []struct {
		K  string          `json:"k"`
		ID string          `json:"id"`
		Tr json.RawMessage `json:"tr"`
	} `json:"k"`
	Skip []struct {
		K      string `json:"k"`
		Reason string `json:"reason"`
	} `json:"skip"`
	Warn []struct {
		K     string      `json:"k"`
		NS    string      `json:"ns"`
		Other flexStrings `json:"other"`
	} `json:"warn"`
	Blocked []struct {
		K     string    `json:"k"`
		NS    string    `json:"ns"`
		Src   string    `json:"src"`
		Reuse []keyRefW `json:"reuse"`
		Why   string    `json:"why"`
	} `json:"blocked"`
	Pub  *pubWire `json:"pub"`
	Hint string   `json:"hint"`
}

type keyRefW struct {
	ID string `json:"id"`
	K  string `json:"k"`
	NS string `json:"ns"`
}

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
		w := newKeyWire{N: k.Name, NS: k.Namespace, V: k.SourceText, T: k.Translations}
		if nc := k.Context; nc != nil {
			w.NC = &nsContextWire{Description: nc.Description, Team: nc.Team, Domain: nc.Domain, AIPrompt: nc.AIPrompt, Tags: nc.Tags}
		}
		args.K[i] = w
	}
	var w createKeysWire
	raw, err := call(ctx, c, toolCreateKeys, args, &w)
	if err != nil {
		return nil, err
	}
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
		bk := keys.BlockedKey{Name: b.K, Namespace: b.NS, SourceText: b.Src, Reason: b.Why}
		for _, ru := range b.Reuse {
			bk.Reuse = append(bk.Reuse, keys.KeyRef{Namespace: ru.NS, Name: ru.K, ID: ru.ID})
		}
		r.Blocked = append(r.Blocked, bk)
	}
	return r, nil
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
	Tot     int               `json:"tot"`
	Pg      int               `json:"pg"`
	Lim     int               `json:"lim"`
	HasMore bool              `json:"has_more"`
	NSS     flexStrings       `json:"nss"`
	K       []json.RawMessage `json:"k"`
	Note    string            `json:"note"`
}

type keyWire struct {
	K   string            `json:"k"`
	NS  json.RawMessage   `json:"ns"`
	ID  string            `json:"id"`
	Src string            `json:"src"`
	TL  flexStrings       `json:"tl"`
	TLC int               `json:"tlc"`
	Tr  map[string]string `json:"tr"`
	P   bool              `json:"p"`
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
	if err := checkProject(project); err != nil {
		return err
	}
	if err := between("PageSize", opt.PageSize, 1, keys.MaxPageSize); err != nil {
		return err
	}
	return nonEmpty("Namespaces", opt.Namespaces)
}

// ListKeys returns one page (from 1) of listKeys.
func ListKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions, page int) (*keys.Page, error) {
	if err := checkListOptions(project, opt); err != nil {
		return nil, err
	}
	if page < 1 {
		return nil, apierr.ArgumentError("page", fmt.Sprintf("is %d; pages count from 1", page))
	}
	return listKeys(ctx, c, project, opt, page)
}

func listKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions, page int) (*keys.Page, error) {
	args := listKeysArgs{
		Project: project, Search: search(opt.Search), Namespaces: opt.Namespaces,
		MissingLanguage: opt.MissingLanguage, Fields: opt.Fields, Page: page, Limit: opt.PageSize,
	}
	var w listKeysWire
	raw, err := call(ctx, c, toolListKeys, args, &w)
	if err != nil {
		return nil, err
	}
	p := &keys.Page{Total: w.Tot, Number: w.Pg, PageSize: w.Lim, HasMore: w.HasMore, Namespaces: w.NSS, Note: w.Note, Raw: raw}
	if p.Number == 0 {
		p.Number = page
	}
	p.Keys = make([]keys.Key, 0, len(w.K))
	for _, kr := range w.K {
		var kw keyWire
		_ = decode(toolListKeys, kr, &kw) // an odd record keeps its Raw
		p.Keys = append(p.Keys, keys.Key{
			Name: kw.K, Namespace: namespace(kw.NS, w.NSS), ID: kw.ID, SourceText: kw.Src,
			TranslatedLanguages: kw.TL, TranslatedLanguageCount: kw.TLC, Translations: kw.Tr,
			LegacyDuplicate: kw.P, Raw: kr,
		})
	}
	return p, nil
}

// KeyPages iterates over every page of listKeys, from the first, until the
// service says there are no more. PageSize 0 fetches keys.MaxPageSize keys
// per request. An error ends the iteration after it is yielded.
func KeyPages(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error] {
	return func(yield func(*keys.Page, error) bool) {
		if err := checkListOptions(project, opt); err != nil {
			yield(nil, err)
			return
		}
		if opt.PageSize == 0 {
			opt.PageSize = keys.MaxPageSize
		}
		for page := 1; ; page++ {
			p, err := listKeys(ctx, c, project, opt, page)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(p, nil) {
				return
			}
			// An empty page that claims more would loop forever.
			if !p.HasMore || len(p.Keys) == 0 {
				return
			}
		}
	}
}

// AllKeys iterates over every key of every page of listKeys.
func AllKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[keys.Key, error] {
	return func(yield func(keys.Key, error) bool) {
		for p, err := range KeyPages(ctx, c, project, opt) {
			if err != nil {
				yield(keys.Key{}, err)
				return
			}
			for _, k := range p.Keys {
				if !yield(k, nil) {
					return
				}
			}
		}
	}
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
		ID  string      `json:"id"`
		K   string      `json:"k"`
		Lng flexStrings `json:"lng"`
		Src bool        `json:"src"`
	} `json:"upd"`
	Errors []struct {
		ID   string      `json:"id"`
		K    string      `json:"k"`
		NS   string      `json:"ns"`
		L    flexStrings `json:"l"`
		Code string      `json:"code"`
		Msg  string      `json:"msg"`
	} `json:"errors"`
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
	OK  bool `json:"ok"`
	Cnt int  `json:"cnt"`
	batchWire
	Pub  *pubWire `json:"pub"`
	Hint string   `json:"hint"`
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
		switch {
		case u.KeyID == "":
			return nil, apierr.ArgumentError(fmt.Sprintf("updates[%d].KeyID", i), "is empty")
		case u.Language == "":
			return nil, apierr.ArgumentError(fmt.Sprintf("updates[%d].Language", i), "is empty")
		}
		args.T[i] = updateWire{ID: u.KeyID, L: u.Language, T: u.Text, S: u.Source, ST: u.Status}
	}
	var w updateKeysWire
	raw, err := call(ctx, c, toolUpdateKeys, args, &w)
	if err != nil {
		return nil, err
	}
	r := &keys.UpdateResult{OK: w.OK, Count: w.Cnt, Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw}
	r.Updated, r.Errors = w.results()
	return r, nil
}

type deleteKeysArgs struct {
	Project string   `json:"project"`
	KeyIDs  []string `json:"keyIds"`
}

type deleteKeysWire struct {
	OK   bool        `json:"ok"`
	Cnt  int         `json:"cnt"`
	MK   []keyRefW   `json:"mk"`
	Skip flexStrings `json:"skip"`
	Pub  *pubWire    `json:"pub"`
	Hint string      `json:"hint"`
}

// DeleteKeys marks keys deleted with deleteKeys (permanent at the next
// publish). More than keys.MaxDelete ids are refused, not split.
func DeleteKeys(ctx context.Context, c Caller, project string, ids []string) (*keys.DeleteResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if err := batch("ids", len(ids), keys.MaxDelete, "key ids"); err != nil {
		return nil, err
	}
	if err := nonEmpty("ids", ids); err != nil {
		return nil, err
	}
	var w deleteKeysWire
	raw, err := call(ctx, c, toolDeleteKeys, deleteKeysArgs{Project: project, KeyIDs: ids}, &w)
	if err != nil {
		return nil, err
	}
	r := &keys.DeleteResult{OK: w.OK, Count: w.Cnt, Skipped: w.Skip, Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw}
	for _, m := range w.MK {
		r.Deleted = append(r.Deleted, keys.KeyRef{ID: m.ID, Name: m.K, Namespace: m.NS})
	}
	return r, nil
}
