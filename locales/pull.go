package locales

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
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
	// CDN, if set, is the CDN to read the published files from; it
	// implies FromCDN. With it, Pull needs no partner.Client: called with
	// a nil client, project is the project's name on the CDN
	// ("org/project"), no grant or token is used, and what the service
	// would say of the project comes from SourceLanguage, Layout,
	// Languages and Namespaces, or, when those are empty, from the CDN's
	// manifest where it names them.
	CDN *cdn.Client
	// SourceLanguage is the project's source language, for a pull from
	// CDN with a nil client (required there); otherwise unused.
	SourceLanguage string
	// Layout is the project's file structure and key format, for a pull
	// from CDN with a nil client; empty fields are read from the
	// manifest's paths, else the defaults (single_file, nested).
	// Otherwise unused: the project's own layout is used.
	Layout Layout
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
// byte. With opt.CDN set, c may be nil: see PullOptions.CDN.
//
// The catalog holds every language the pull kept (Catalog.Languages),
// one without texts too: a language with nothing published yet (from
// the CDN) or no text (from the API) is there with none, and Write
// writes no file of it. From the CDN, the files are found where the
// project's manifest says, as the service writes their paths (languages
// in lowercase: pt-br/translations.json), else by the project's URL
// pattern with the language in lowercase. A language that the manifest
// lists as published, or (without a manifest naming files) that
// getProject's coverage gives texts while the CDN serves other
// languages' files, and whose file the CDN does not serve fails the pull
// with an error matching ErrNotOnCDN that names each such language,
// unless opt.Languages leaves it out.
func Pull(ctx context.Context, c *partner.Client, project string, opt PullOptions) (*Catalog, error) {
	start := time.Now()
	var cat *Catalog
	var err error
	if c == nil {
		cat, err = pullCDNOnly(ctx, project, opt)
	} else {
		cat, err = pull(ctx, client{c}, project, opt)
	}
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
	keep := opt.keep
	cat := &Catalog{Layout: info.layout, SourceLanguage: info.source}
	if opt.FromCDN || opt.CDN != nil {
		return cat, pullCDN(ctx, cat, info, keep, opt)
	}
	langs := map[string]string{} // LanguageKey -> project code
	for _, t := range info.targets {
		if keep(t) {
			langs[languageKey(t)] = t
		}
	}
	if keep(info.source) {
		cat.addLanguage(info.source)
	}
	for _, code := range info.targets {
		if keep(code) {
			cat.addLanguage(code)
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

// keep says whether opt.Languages keeps lang.
func (opt PullOptions) keep(lang string) bool {
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

// pullCDNOnly reads the published files of project ("org/project") from
// opt.CDN, without a client: what getProject would say of the project
// comes from opt, or, where opt says nothing, from the CDN's manifest.
// The manifest's shape is not documented: one the CDN does not have or
// that cannot be read leaves everything to opt.
func pullCDNOnly(ctx context.Context, project string, opt PullOptions) (*Catalog, error) {
	if opt.CDN == nil {
		return nil, fmt.Errorf("locales: Pull needs a client, or PullOptions.CDN to read the published files without one: %w", partner.ErrInvalidArgument)
	}
	if opt.SourceLanguage == "" {
		return nil, fmt.Errorf("locales: a pull from the CDN without a client needs the project's source language (PullOptions.SourceLanguage): %w", partner.ErrInvalidArgument)
	}
	if err := opt.Layout.check(); err != nil {
		return nil, fmt.Errorf("%w: %w", err, partner.ErrInvalidArgument)
	}
	m, err := opt.CDN.Manifest(ctx, project)
	if errors.Is(err, cdn.ErrNotFound) || errors.Is(err, partner.ErrUnexpectedResponse) {
		m, err = &cdn.Manifest{}, nil // the flags say it all
	}
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	info := &projectInfo{source: opt.SourceLanguage, layout: opt.Layout}
	single := true // every file of the manifest is {lang}/translations.json
	var langs, nss []string
	for _, lang := range slices.Sorted(maps.Keys(m.Files)) {
		langs = append(langs, lang)
		for _, p := range m.Files[lang] {
			ns, ok := strings.CutSuffix(strings.TrimPrefix(p, lang+"/"), ".json")
			if !ok || ns == "translations" || strings.Contains(ns, "/") {
				continue
			}
			single = false
			if !slices.Contains(nss, ns) {
				nss = append(nss, ns)
			}
		}
	}
	if info.layout.Files == "" && len(langs) > 0 && !single {
		info.layout.Files = translations.NamespacedFolders
	}
	info.layout = info.layout.orDefault()
	if len(opt.Languages) > 0 {
		langs = opt.Languages
	}
	for _, l := range langs {
		if languageKey(l) != languageKey(info.source) {
			info.targets = append(info.targets, l)
		}
	}
	if len(langs) == 0 {
		return nil, fmt.Errorf("locales: a pull from the CDN without a client needs the project's languages (PullOptions.Languages): the CDN's manifest of %s names none: %w", project, partner.ErrInvalidArgument)
	}
	info.namespaces = nss
	if len(opt.Namespaces) > 0 {
		info.namespaces = opt.Namespaces
	}
	if info.layout.Files == translations.NamespacedFolders && len(info.namespaces) == 0 {
		return nil, fmt.Errorf("locales: a pull from the CDN without a client of namespaced files needs the project's namespaces (PullOptions.Namespaces): the CDN's manifest of %s names none: %w", project, partner.ErrInvalidArgument)
	}
	cat := &Catalog{Layout: info.layout, SourceLanguage: info.source}
	return cat, readCDN(ctx, cat, opt.CDN, project, info, m, opt.keep, opt)
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
	cc := opt.CDN
	if cc == nil {
		if cc, err = cdn.NewClient(root, opt.HTTPClient); err != nil {
			return fmt.Errorf("locales: the project's CDN folder %s: %w", info.cdn.base, err)
		}
	}
	return readCDN(ctx, cat, cc, name, info, nil, keep, opt)
}

// ErrNotOnCDN is matched (with cdn.ErrNotFound) by the error of a pull
// from the CDN that finds no file of a language the project says is
// published; the error names each such language.
var ErrNotOnCDN = errors.New("locales: a published language has no file on the CDN")

// cdnLanguage is what a project's CDN manifest lists of one language.
type cdnLanguage struct {
	spelled string          // as the CDN's paths spell it ("pt-br")
	files   map[string]bool // "translations" or a namespace, by file name without ".json"
}

// cdnLanguages reads the languages of a manifest, by cdnKey; nil when
// it lists none, or a path that is not {language}/{name}.json of two
// names (not "." or ".."), a shape this version does not know.
func cdnLanguages(m *cdn.Manifest) map[string]*cdnLanguage {
	if m == nil || len(m.Files) == 0 {
		return nil
	}
	out := map[string]*cdnLanguage{}
	for _, paths := range m.Files {
		for _, p := range paths {
			spelled, file, ok := strings.Cut(p, "/")
			name, json := strings.CutSuffix(file, ".json")
			if !ok || !json || checkSegment(spelled) != "" || checkSegment(name) != "" || strings.Contains(name, "/") {
				return nil
			}
			l := out[cdnKey(spelled)]
			if l == nil {
				l = &cdnLanguage{spelled: spelled, files: map[string]bool{}}
				out[cdnKey(spelled)] = l
			}
			l.files[name] = true
		}
	}
	return out
}

// cdnKey is how a language is matched with the CDN's spelling of it:
// without regard to case, '_' read as '-'.
func cdnKey(lang string) string { return strings.ReplaceAll(languageKey(lang), "_", "-") }

// readCDN reads the files of project name on cc into cat: the source's
// and targets' that keep keeps, of each namespace (namespaced_folders).
// m is the CDN's manifest when the caller has read it; nil reads it.
//
// The files' paths are the manifest's, as the service writes them (it
// spells languages in lowercase: "pt-br/translations.json"). A language
// the manifest lists whose file the CDN does not serve is an error
// (ErrNotOnCDN); one it does not list has nothing published yet. With
// no manifest that names files, each file is looked for with the
// language in lowercase, as the project's URL pattern has it written,
// then as the project spells it; a file found for no spelling holds
// nothing yet, unless getProject's coverage gives the language texts
// while the CDN serves other languages' files: that is an error too.
// Every language kept is in cat (Catalog.Languages), with texts or not.
func readCDN(ctx context.Context, cat *Catalog, cc *cdn.Client, name string, info *projectInfo, m *cdn.Manifest, keep func(string) bool, opt PullOptions) error {
	nss := []string{""}
	if info.layout.Files == translations.NamespacedFolders {
		nss = nss[:0]
		for _, ns := range info.namespaces {
			if len(opt.Namespaces) == 0 || slices.Contains(opt.Namespaces, ns) {
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
	for _, name := range append(slices.Clone(langs), nss...) {
		if name == "" {
			continue
		}
		if why := checkSegment(name); why != "" {
			return fmt.Errorf("locales: the project's language or namespace %s cannot be part of a CDN file's path: it %s: %w", quote(name), why, partner.ErrUnexpectedResponse)
		}
	}
	if m == nil {
		var err error
		m, err = cc.Manifest(ctx, name)
		if errors.Is(err, cdn.ErrNotFound) || errors.Is(err, partner.ErrUnexpectedResponse) {
			m, err = nil, nil // no manifest to go by: the pattern's spelling
		}
		if err != nil {
			return fmt.Errorf("locales: %w", err)
		}
	}
	listed := cdnLanguages(m)
	total, done := len(langs)*len(nss), 0
	var missing []string // languages the project says are published, not on the CDN
	found := map[string]bool{}
	for _, lang := range langs {
		cat.addLanguage(lang)
		ml := listed[cdnKey(lang)]
		for _, ns := range nss {
			file := cmp.Or(ns, "translations")
			var spellings []string
			switch {
			case ml != nil && ml.files[file]:
				spellings = []string{ml.spelled}
			case listed != nil:
				// not in the manifest: nothing published yet
			default:
				spellings = []string{strings.ToLower(lang)}
				if lang != spellings[0] {
					spellings = append(spellings, lang)
				}
			}
			var data []byte
			var url string
			for _, sp := range spellings {
				url = strings.ReplaceAll(info.cdn.pattern, "{locale}", sp)
				url = strings.ReplaceAll(url, "{namespace}", ns)
				if info.cdn.pattern == "" {
					url = name + "/" + sp + "/" + file + ".json"
				}
				var err error
				data, err = cc.File(ctx, name, info.layout.Files, sp, ns)
				if errors.Is(err, cdn.ErrNotFound) {
					continue
				}
				if err != nil {
					return fmt.Errorf("locales: %w", err)
				}
				break
			}
			done++
			if opt.OnProgress != nil {
				opt.OnProgress(Progress{Step: StepFetch, Done: done, Total: total})
			}
			if data == nil {
				if ml != nil && ml.files[file] {
					missing = append(missing, fmt.Sprintf("%s (%s, which the CDN's manifest lists)", lang, url))
				}
				continue
			}
			found[languageKey(lang)] = true
			msgs, _, err := decodeJSON(data, true)
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
					n, key = splitServed(m.Key, info.namespaces)
				}
				if len(opt.Namespaces) == 0 || slices.Contains(opt.Namespaces, n) {
					cat.Set(lang, n, key, m.Text)
				}
			}
		}
	}
	if listed == nil && len(found) > 0 {
		for _, lang := range langs {
			if n := info.coverage[languageKey(lang)]; n > 0 && !found[languageKey(lang)] {
				missing = append(missing, fmt.Sprintf("%s (%s on the service, by getProject's coverage, and no file on the CDN, which serves other languages' files)", lang, plural(n, "text")))
			}
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("locales: the CDN serves no file of %s: publish again, or leave the language out of the pull (PullOptions.Languages; partner pull --languages): %w: %w",
			strings.Join(missing, "; "), ErrNotOnCDN, cdn.ErrNotFound)
	}
	return nil
}

// addLanguage adds lang to the catalog, with no texts, unless it holds
// it already.
func (c *Catalog) addLanguage(lang string) {
	lk := languageKey(lang)
	if c.langs[lk] != nil {
		return
	}
	if c.langs == nil {
		c.langs = map[string]*langTexts{}
	}
	c.langs[lk] = &langTexts{code: lang, ns: map[string]*nsTexts{}}
}

// Languages returns the catalog's languages, sorted, as it spells them,
// those without texts too: a pulled catalog holds every language the
// pull kept, and one with nothing published yet (FromCDN), or no text
// at all, is there without texts (All yields nothing of it, Write
// writes no file of it).
func (c *Catalog) Languages() []string {
	out := make([]string, 0, len(c.langs))
	for _, lk := range slices.Sorted(maps.Keys(c.langs)) {
		out = append(out, c.langs[lk].code)
	}
	return out
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

// splitServed reads a key of a single CDN file: "ns:key" is key in
// namespace ns when ns is one of the project's namespaces (known), so
// that a key of the default namespace holding a colon ("%s: done", as
// gettext msgids do) stays whole; without the project's namespaces, as
// splitNamespace reads a tree's file.
func splitServed(key string, known []string) (ns, rest string) {
	if len(known) == 0 {
		return splitNamespace(key)
	}
	for _, n := range known {
		if n != keys.DefaultNamespace && strings.HasPrefix(key, n+nsSeparator) {
			return n, key[len(n)+len(nsSeparator):]
		}
	}
	return keys.DefaultNamespace, key
}
