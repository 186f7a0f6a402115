package locales

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
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
	tell(ctx, opt.Hooks, hooks.Pulled, project, start, err, func() map[string]int {
		n := 0
		for range cat.All() {
			n++
		}
		return map[string]int{"text": n}
	})
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
			if languageKey(l) == languageKey(lang) {
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
			langs[languageKey(t)] = t
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
				if code, ok := langs[languageKey(l)]; ok {
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
	if info.cdn.pattern == "" || info.cdn.base == "" {
		return fmt.Errorf("locales: the service names no CDN files for this project (getProject has no cdn folder or pattern): %w", partner.ErrUnexpectedResponse)
	}
	root, name, err := cdnRoot(info.cdn.base)
	if err != nil {
		return err
	}
	cc, err := cdn.NewClient(root, opt.HTTPClient)
	if err != nil {
		return fmt.Errorf("locales: the project's CDN folder %s: %w", info.cdn.base, err)
	}
	nss := []string{""}
	if info.layout.Files == translations.NamespacedFolders {
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
	for _, name := range append(slices.Clone(langs), nss...) {
		if name == "" {
			continue
		}
		if why := checkSegment(name); why != "" {
			return fmt.Errorf("locales: the project's language or namespace %s cannot be part of a CDN file's path: it %s: %w", quote(name), why, partner.ErrUnexpectedResponse)
		}
	}
	for _, lang := range langs {
		for _, ns := range nss {
			url := strings.ReplaceAll(info.cdn.pattern, "{locale}", lang)
			url = strings.ReplaceAll(url, "{namespace}", ns)
			data, err := cc.File(ctx, name, info.layout.Files, lang, ns)
			if errors.Is(err, cdn.ErrNotFound) {
				data, err = nil, nil // nothing published yet
			}
			if err != nil {
				return fmt.Errorf("locales: %w", err)
			}
			done++
			if opt.OnProgress != nil {
				opt.OnProgress(Progress{Step: StepFetch, Done: done, Total: total})
			}
			if data == nil {
				continue
			}
			msgs, _, err := format.Decode(File{Language: lang, Namespace: ns}, data)
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

// cdnRoot splits the project's folder on the CDN,
// {cdn}/{org}/{project}, into the CDN's address and the project's name
// there ("org/project").
func cdnRoot(folder string) (root, project string, err error) {
	u, err := url.Parse(strings.TrimSuffix(folder, "/"))
	if err != nil {
		return "", "", fmt.Errorf("locales: the project's CDN folder %s: %w: %w", folder, err, partner.ErrUnexpectedResponse)
	}
	segs := strings.Split(u.Path, "/")
	if len(segs) < 3 || segs[len(segs)-1] == "" || segs[len(segs)-2] == "" {
		return "", "", fmt.Errorf("locales: the project's CDN folder %s does not end in /{org}/{project}: %w", folder, partner.ErrUnexpectedResponse)
	}
	project = segs[len(segs)-2] + "/" + segs[len(segs)-1]
	u.Path = strings.Join(segs[:len(segs)-2], "/")
	return u.String(), project, nil
}
