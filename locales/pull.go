package locales

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/keys"
)

// PullOptions says where to pull from and what.
type PullOptions struct {
	// FromCDN reads the project's published files from its public CDN,
	// without a token, instead of every text (any status) through the
	// tools. The client is still used once, to ask the project where
	// its CDN files are.
	FromCDN bool
	// HTTPClient fetches the CDN files; nil is a client with a one-minute
	// timeout. It never carries the grant's token.
	HTTPClient *http.Client
	// Languages keeps only these languages (compared without regard to
	// case); nil keeps all of the project's.
	Languages []string
	// Namespaces keeps only these namespaces; nil keeps all.
	Namespaces []string
	// OnProgress, if set, is called as keys are listed (StepList) or
	// files fetched (StepFetch), from the calling goroutine.
	OnProgress func(Progress)
	// Hooks' Sync is told of the texts pulled; nil is off.
	Hooks *hooks.Hooks
}

// maxCDNFile is the most a CDN file may hold.
const maxCDNFile = 64 << 20

// Pull reads project's texts into a catalog whose Layout is the
// project's (fileStructure and keyFormat): write it with Write. From the
// API (the default) it lists every key with its source text and
// translations, whatever their status; FromCDN reads the published
// files instead. Both give the same catalog for a project whose texts
// are all published, so a tree pulled either way is the same, byte for
// byte.
func Pull(ctx context.Context, c *partner.Client, project string, opt PullOptions) (*Catalog, error) {
	start := time.Now()
	cat, err := pull(ctx, client{c}, project, opt)
	tell(ctx, opt.Hooks, hooks.Pulled, project, start, err, func() map[string]int { return map[string]int{"text": cat.Len()} })
	return cat, err
}

func pull(ctx context.Context, r remote, project string, opt PullOptions) (*Catalog, error) {
	info, err := r.project(ctx, project)
	if err != nil {
		return nil, err
	}
	if info.source == "" {
		return nil, fmt.Errorf("locales: project %s has no source language: %w", project, partner.ErrUnexpectedResponse)
	}
	keep := func(lang string) bool {
		if len(opt.Languages) == 0 {
			return true
		}
		for _, l := range opt.Languages {
			if LanguageKey(l) == LanguageKey(lang) {
				return true
			}
		}
		return false
	}
	cat := &Catalog{Layout: info.layout, SourceLanguage: info.source}
	if opt.FromCDN {
		return cat, pullCDN(ctx, cat, info, keep, opt)
	}
	langs := map[string]string{} // LanguageKey -> project code
	for _, t := range info.targets {
		if keep(t) {
			langs[LanguageKey(t)] = t
		}
	}
	done := 0
	for page, err := range r.keyPages(ctx, project, keys.ListOptions{Namespaces: opt.Namespaces, Fields: []keys.Field{keys.FieldSourceText, keys.FieldTranslations}}) {
		if err != nil {
			return nil, err
		}
		for _, k := range page.Keys {
			if k.LegacyDuplicate {
				continue
			}
			if keep(info.source) {
				cat.Set(info.source, k.Namespace, k.Name, k.SourceText)
			}
			for l, t := range k.Translations {
				if code, ok := langs[LanguageKey(l)]; ok {
					cat.Set(code, k.Namespace, k.Name, t)
				}
			}
		}
		done += len(page.Keys)
		if opt.OnProgress != nil {
			opt.OnProgress(Progress{Step: StepList, Done: done, Total: page.Total})
		}
	}
	return cat, nil
}

// pullCDN reads the project's published files into cat. A file the CDN
// does not have (404) holds nothing yet.
func pullCDN(ctx context.Context, cat *Catalog, info *projectInfo, keep func(string) bool, opt PullOptions) error {
	if info.cdn.pattern == "" {
		return fmt.Errorf("locales: the service names no CDN files for this project (getProject has no cdn pattern): %w", partner.ErrUnexpectedResponse)
	}
	hc := opt.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: time.Minute}
	}
	nss := []string{""}
	if info.layout.Files == NamespacedFolders {
		nss = nss[:0]
		for _, ns := range info.namespaces {
			if len(opt.Namespaces) == 0 || contains(opt.Namespaces, ns) {
				nss = append(nss, ns)
			}
		}
	}
	var langs []string
	for _, l := range append([]string{info.source}, info.targets...) {
		if keep(l) {
			langs = append(langs, l)
		}
	}
	format := JSON{}
	total, done := len(langs)*len(nss), 0
	for _, lang := range langs {
		for _, ns := range nss {
			url := strings.ReplaceAll(info.cdn.pattern, "{locale}", lang)
			url = strings.ReplaceAll(url, "{namespace}", ns)
			data, err := fetch(ctx, hc, url)
			if err != nil {
				return err
			}
			done++
			if opt.OnProgress != nil {
				opt.OnProgress(Progress{Step: StepFetch, Done: done, Total: total})
			}
			if data == nil {
				continue
			}
			msgs, _, err := format.Decode(data)
			if err != nil {
				var ie *InputError
				if errors.As(err, &ie) {
					for i := range ie.Problems {
						ie.Problems[i].File = url
					}
				}
				return fmt.Errorf("locales: the CDN file %s: %w", url, err)
			}
			for _, m := range msgs {
				n, key := ns, m.Key
				if ns == "" {
					n, key = splitNamespace(m.Key)
				}
				if len(opt.Namespaces) == 0 || contains(opt.Namespaces, n) {
					cat.Set(lang, n, key, m.Text)
				}
			}
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// fetch returns the body of url, or nil when it is not there (404).
func fetch(ctx context.Context, hc *http.Client, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("locales: CDN URL %s: %w", url, err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("locales: %w: %w", partner.ErrTemporary, err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return nil, nil
	case resp.StatusCode != http.StatusOK:
		err := fmt.Errorf("locales: GET %s: %s", url, resp.Status)
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			err = fmt.Errorf("%w: %w", err, partner.ErrTemporary)
		}
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxCDNFile+1))
	if err != nil {
		return nil, fmt.Errorf("locales: GET %s: %w: %w", url, partner.ErrTemporary, err)
	}
	if len(data) > maxCDNFile {
		return nil, fmt.Errorf("locales: GET %s: the file is larger than %d MiB: %w", url, maxCDNFile>>20, partner.ErrUnexpectedResponse)
	}
	return data, nil
}
