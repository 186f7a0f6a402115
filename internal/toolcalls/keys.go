package toolcalls

import (
	"cmp"
	"context"
	"fmt"
	"iter"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/lenient"
	"github.com/locsvc/partner-go/keys"
)

// Tool names on the translations server.
const (
	toolListKeys   = "listKeys"
	toolCreateKeys = "createKeys"
	toolUpdateKeys = "updateKeys"
	toolDeleteKeys = "deleteKeys"
)

// CreateKeys creates keys with createKeys. Existing keys (same name and
// namespace) are skipped and reported in the result.
func CreateKeys(ctx context.Context, c Caller, project string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if len(ks) == 0 {
		return nil, apierr.ArgumentError("keys", "is empty; want at least one key")
	}
	for i, k := range ks {
		if k.Name == "" {
			return nil, apierr.ArgumentError(fmt.Sprintf("keys[%d].Name", i), "is empty")
		}
	}
	args := struct {
		Project string        `json:"project"`
		K       []keys.NewKey `json:"k"`
		Force   bool          `json:"force,omitempty"`
	}{project, ks, opt.Force}
	var r keys.CreateResult
	return result(ctx, c, toolCreateKeys, args, &r, &r.Raw)
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
	args := struct {
		Project string `json:"project"`
		Search  any    `json:"search,omitempty"`
		keys.ListOptions
		Page int `json:"page"`
	}{project, search(opt.Search), opt, page}
	var p keys.Page
	if err := fill(ctx, c, toolListKeys, args, &p, &p.Raw); err != nil {
		return nil, err
	}
	p.Namespaces = lenient.Get[lenient.Strings](p.Raw, "nss")
	if p.Number == 0 {
		p.Number = page
	}
	if p.Keys == nil {
		p.Keys = []keys.Key{}
	}
	// A key's ns is its namespace's name, or an index into the page's.
	for i, k := range p.Keys {
		if n := lenient.Get[*int](k.Raw, "ns"); n != nil && *n >= 0 && *n < len(p.Namespaces) {
			p.Keys[i].Namespace = p.Namespaces[*n]
		}
	}
	return &p, nil
}

// KeyPages iterates over every page of listKeys, from the first, until the
// service says there are no more. PageSize 0 fetches keys.MaxPageSize keys
// per request. An error ends the iteration after it is yielded.
func KeyPages(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[*keys.Page, error] {
	if opt.PageSize == 0 {
		opt.PageSize = keys.MaxPageSize
	}
	return pages(checkListOptions(project, opt), func(page int) (*keys.Page, error) {
		return listKeys(ctx, c, project, opt, page)
	}, func(p *keys.Page) bool { return p.HasMore && len(p.Keys) > 0 })
}

// AllKeys iterates over every key of every page of listKeys.
func AllKeys(ctx context.Context, c Caller, project string, opt keys.ListOptions) iter.Seq2[keys.Key, error] {
	return items(KeyPages(ctx, c, project, opt), func(p *keys.Page) []keys.Key { return p.Keys })
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
	for i, u := range us {
		f := fmt.Sprintf("updates[%d].", i)
		if err := required(f+"KeyID", u.KeyID, f+"Language", u.Language); err != nil {
			return nil, err
		}
	}
	args := struct {
		Project string        `json:"project"`
		T       []keys.Update `json:"t"`
	}{project, us}
	var r keys.UpdateResult
	return result(ctx, c, toolUpdateKeys, args, &r, &r.Raw)
}

// DeleteKeys marks keys deleted with deleteKeys (permanent at the next
// publish). More than keys.MaxDelete ids are refused, not split.
func DeleteKeys(ctx context.Context, c Caller, project string, ids []string) (*keys.DeleteResult, error) {
	if err := cmp.Or(checkProject(project), batch("ids", len(ids), keys.MaxDelete, "key ids"), nonEmpty("ids", ids)); err != nil {
		return nil, err
	}
	args := struct {
		Project string   `json:"project"`
		KeyIDs  []string `json:"keyIds"`
	}{project, ids}
	var r keys.DeleteResult
	if err := fill(ctx, c, toolDeleteKeys, args, &r, &r.Raw); err != nil {
		return nil, err
	}
	r.Skipped = lenient.Get[lenient.Strings](r.Raw, "skip")
	return &r, nil
}
