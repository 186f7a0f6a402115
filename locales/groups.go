package locales

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// A Group is a set of a tree's locale files of one format, found by path
// patterns relative to the tree's root. A pattern is a slash-separated
// path that may hold:
//
//	{language}   the language in BCP 47: pt-BR, zh-Hans, sr-Latn
//	{locale}     the language with '_': pt_BR, zh_Hans (gettext's
//	             sr@latin is read as sr-Latn)
//	{android}    Android's resource qualifier: pt-rBR, b+sr+Latn
//	{namespace}  the namespace: the file's stem
//	**           any number of folders, the namespace's leading part
//
// Each placeholder reads any of the spellings (case, '-' or '_') and
// writes its own; a language the rules cannot match to the project's is
// mapped with Languages. A file is the default namespace's when the
// pattern has no {namespace} and no **, or when its {namespace} is
// DefaultName; with **, the namespace is the folders below the pattern's
// fixed part and the stem, joined with '/' ("admin/users"), and is
// written back to the same path.
//
// Load reads every file of the tree (ListFiles) that a group's Source
// or Translation pattern fits, each as the first group's that fits it.
// A file whose language part is not a language at all (Android's
// values-night or values-sw600dp, Apple's Base.lproj under
// {language}) is not a locale file and is passed over; one that looks
// like a language the BCP 47 registry lacks ("cn") is a problem until
// Languages maps it. Where a name fits a pattern in several ways, a
// known language wins, then the longest spelling ("messages_pt_BR" is
// pt_BR). The project's code of a language is its BCP 47 tag
// lowercased, as the service spells it ("pt-br", "sr-latn"). Two files
// of one language and namespace are a problem naming both, except a
// file of the source language holding nothing beside the Source file
// (Java's empty messages_en.properties, so that lookups fall back).
//
// Write writes each language and namespace to the tree's file of them
// when there is one, else to the path the pattern makes (Source's for
// the source language), spelling the language as the tree's files of
// the group do, else as Languages does, else as the placeholder
// writes it: pt-br is {language} "pt-BR", {locale} "pt_BR", {android}
// "pt-rBR"; sr-latn is {android} "b+sr+Latn", {locale} "sr_Latn". A
// namespace from the service goes through the path builder: one that
// would leave the tree ("../x" through **), name a hidden file, or be
// read back as another file is refused.
type Group struct {
	// Translation is the pattern of each language's file:
	// "res/values-{android}/strings.xml", "{language}.lproj/{namespace}.strings",
	// "config/locales/**/{namespace}.{language}.yml". A pattern without a
	// language placeholder is a format whose files hold every language
	// (.xcstrings).
	Translation string `json:"translation" yaml:"translation"`
	// Source is the path of the source language's files when they are
	// not Translation's with the source language in it: Android's
	// "res/values/strings.xml", Spring's "messages.properties", Angular's
	// "src/locale/messages.xlf", gettext's template "po/app.pot",
	// "Base.lproj/{namespace}.strings". It holds {namespace} and ** as
	// Translation does, and no language: its files are the source
	// language's (Layout.SourceLanguage). "" is Translation's.
	Source string `json:"source,omitempty" yaml:"source,omitempty"`
	// Format reads and writes the group's files; nil is JSON. In
	// partner.yaml it is named (see Config).
	Format Format `json:"-" yaml:"-"`
	// Keys is how keys are written in the files, for formats that nest
	// (JSON, YAML); "" is detected, as Load detects a tree's.
	Keys translations.KeyFormat `json:"keys,omitempty" yaml:"keys,omitempty"`
	// DefaultName is the {namespace} value that is the project's
	// default namespace: "strings" for Android's strings.xml,
	// "Localizable" for Apple's; "" is keys.DefaultNamespace itself.
	DefaultName string `json:"defaultName,omitempty" yaml:"defaultName,omitempty"`
	// Namespace is the namespace of the group's files when the pattern
	// has neither {namespace} nor **; "" is the default namespace.
	Namespace string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	// Languages maps a language as the files spell it to the project's
	// code, for what the rules do not match: {"zh-Hans": "zh-cn"}. A
	// spelling is what a placeholder matches: letters, digits, '-', '_',
	// '@' and '+', at most 64 bytes; a code is letters, digits, '-' and
	// '_'. Load and Write refuse another entry.
	Languages map[string]string `json:"languages,omitempty" yaml:"languages,omitempty"`
}

// A pattern is a compiled path pattern of a Group.
type pattern struct {
	text    string
	segs    []patSeg
	form    langForm
	hasLang bool // a language placeholder
	hasNS   bool // {namespace}
	star    int  // index of the "**" segment, -1 when none
}

// A patSeg is one segment of a pattern: "**", or literals and
// placeholders.
type patSeg struct {
	star bool
	toks []patTok
}

// A patTok is a literal or a placeholder of a pattern's segment.
type patTok struct {
	lit  string
	kind tokKind
}

type tokKind int

const (
	tokLit tokKind = iota
	tokLang
	tokNS
)

// compilePattern compiles a Group's pattern s. noLang, when not "",
// says why it may hold no language placeholder.
func compilePattern(s string, noLang string) (*pattern, error) {
	p := &pattern{text: s, star: -1}
	switch {
	case s == "":
		return nil, errors.New("is empty")
	case strings.HasPrefix(s, "/"):
		return nil, errors.New("starts with '/'; a pattern is relative to the tree's root")
	case strings.Contains(s, `\`):
		return nil, errors.New(`holds '\'; separate folders with '/'`)
	}
	for i, seg := range strings.Split(s, "/") {
		if seg == "**" {
			if p.star >= 0 {
				return nil, errors.New("holds ** twice")
			}
			if p.hasNS {
				return nil, errors.New("has ** after {namespace}; the folders come before the file's stem")
			}
			p.star = i
			p.segs = append(p.segs, patSeg{star: true})
			continue
		}
		ps, err := p.compileSegment(seg, noLang)
		if err != nil {
			return nil, err
		}
		p.segs = append(p.segs, ps)
	}
	if p.segs[len(p.segs)-1].star {
		return nil, errors.New("ends in **; a pattern ends in a file name")
	}
	return p, nil
}

// compileSegment compiles one segment (not "**") of p.
func (p *pattern) compileSegment(seg string, noLang string) (patSeg, error) {
	var ps patSeg
	for rest := seg; rest != ""; {
		open := strings.IndexByte(rest, '{')
		lit := rest
		if open >= 0 {
			lit = rest[:open]
		}
		if lit != "" {
			if strings.Contains(lit, "*") {
				return ps, fmt.Errorf("holds %s; '*' is only a whole folder, **", quote(seg))
			}
			if strings.Contains(lit, "}") {
				return ps, fmt.Errorf("has a '}' without its '{' in %s", quote(seg))
			}
			ps.toks = append(ps.toks, patTok{lit: lit})
		}
		if open < 0 {
			break
		}
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return ps, fmt.Errorf("has a '{' without its '}' in %s", quote(seg))
		}
		name := rest[open+1 : open+end]
		rest = rest[open+end+1:]
		var tok patTok
		form, isLang := langForms[name]
		switch {
		case isLang && noLang != "":
			return ps, fmt.Errorf("holds {%s}; %s", name, noLang)
		case isLang && p.hasLang:
			return ps, fmt.Errorf("holds a second language placeholder, {%s}", name)
		case isLang:
			p.hasLang, p.form, tok.kind = true, form, tokLang
		case name == "namespace" && p.hasNS:
			return ps, errors.New("holds {namespace} twice")
		case name == "namespace":
			p.hasNS, tok.kind = true, tokNS
		default:
			return ps, fmt.Errorf("holds the unknown placeholder {%s}; want {language}, {locale}, {android} or {namespace}", name)
		}
		if n := len(ps.toks); n > 0 && ps.toks[n-1].kind != tokLit {
			return ps, fmt.Errorf("has two placeholders side by side in %s, which no file name tells apart; put a separator between them", quote(seg))
		}
		ps.toks = append(ps.toks, tok)
	}
	if len(ps.toks) == 1 && ps.toks[0].kind == tokLit {
		if why := checkSegment(seg); why != "" {
			return ps, fmt.Errorf("holds the folder or file name %s, which %s", quote(seg), why)
		}
	}
	return ps, nil
}

// A binding is what a file's path gives a pattern's placeholders.
type binding struct {
	lang  string // the language's spelling; "" without a placeholder
	stem  string // {namespace}; "" without one
	stars string // the folders ** matched, joined by '/'
}

// matches calls yield with each way name (a slash-separated path) fits
// p, until yield returns false.
func (p *pattern) matches(name string, yield func(binding) bool) {
	parts := strings.Split(name, "/")
	if p.star < 0 {
		if len(parts) != len(p.segs) {
			return
		}
		p.matchSegs(p.segs, parts, binding{}, yield)
		return
	}
	before, after := p.segs[:p.star], p.segs[p.star+1:]
	if len(parts) < len(before)+len(after) {
		return
	}
	mid := parts[len(before) : len(parts)-len(after)]
	b := binding{stars: strings.Join(mid, "/")}
	p.matchSegs(append(slices.Clip(before), after...), append(slices.Clip(parts[:len(before)]), parts[len(parts)-len(after):]...), b, yield)
}

// matchSegs matches segments segs to path parts, one for one.
func (p *pattern) matchSegs(segs []patSeg, parts []string, b binding, yield func(binding) bool) bool {
	if len(segs) == 0 {
		return yield(b)
	}
	return matchToks(segs[0].toks, parts[0], b, func(b binding) bool {
		return p.matchSegs(segs[1:], parts[1:], b, yield)
	})
}

// matchToks matches a segment's tokens to s, calling yield with each
// binding that fits, until it returns false; it returns false when
// yield did.
func matchToks(toks []patTok, s string, b binding, yield func(binding) bool) bool {
	if len(toks) == 0 {
		return s != "" || yield(b)
	}
	t := toks[0]
	if t.kind == tokLit {
		rest, ok := strings.CutPrefix(s, t.lit)
		return !ok || matchToks(toks[1:], rest, b, yield)
	}
	// A placeholder takes one byte or more; a language only bytes a
	// spelling may hold.
	for i := 1; i <= len(s); i++ {
		if t.kind == tokLang && !spellingByte(s[i-1]) {
			return true
		}
		nb := b
		if t.kind == tokLang {
			nb.lang = s[:i]
		} else {
			nb.stem = s[:i]
		}
		if !matchToks(toks[1:], s[i:], nb, yield) {
			return false
		}
	}
	return true
}

// path returns the path of p for a language's spelling (ignored
// without a placeholder), the folders ** takes (may be "") and the
// file's stem ({namespace}), through treePath: a name that cannot be
// part of a path, or that Load would pass over as hidden, is refused.
func (p *pattern) path(spelling, stars, stem string) (string, error) {
	var parts []pathPart
	for _, seg := range p.segs {
		if seg.star {
			if stars != "" {
				parts = append(parts, folders(stars))
			}
			continue
		}
		var b strings.Builder
		for _, t := range seg.toks {
			switch t.kind {
			case tokLit:
				b.WriteString(t.lit)
			case tokLang:
				b.WriteString(spelling)
			case tokNS:
				b.WriteString(stem)
			}
		}
		parts = append(parts, segment(b.String()))
	}
	name, err := treePath(parts...)
	if err != nil {
		return "", err
	}
	for _, seg := range strings.Split(name, "/") {
		if strings.HasPrefix(seg, ".") {
			return "", fmt.Errorf("%s starts with '.', which Load passes over as a hidden file", quoteName(seg))
		}
	}
	return name, nil
}

// A compiledGroup is a Group ready to match and build paths.
type compiledGroup struct {
	Group
	n           int // its index in Layout.Groups, for messages
	format      Format
	multi       bool   // the format's files hold every language
	defaultName string // the {namespace} value of the default namespace
	opaque      bool   // the format's keys are identifiers
	tr, src     *pattern
}

// compileGroups compiles layout's groups, or says what is wrong with
// one: a malformed pattern, an unknown placeholder, a language
// placeholder where none belongs or none where one must be, a Source
// path without the source language to read it as.
func compileGroups(layout Layout) ([]*compiledGroup, error) {
	var out []*compiledGroup
	for i, g := range layout.Groups {
		cg := &compiledGroup{Group: g, n: i, format: g.Format}
		if cg.format == nil {
			cg.format = JSON{}
		}
		fail := func(format string, args ...any) error {
			return fmt.Errorf("locales: file group %d (%s): %s", i+1, quote(g.Translation), fmt.Sprintf(format, args...))
		}
		name, multi := multilingual(cg.format)
		cg.multi, cg.opaque = multi, opaqueKeys(cg.format)
		cg.defaultName = cmp.Or(g.DefaultName, name, keys.DefaultNamespace)
		var err error
		noLang := ""
		if multi {
			noLang = "its format's files hold every language, so no file name names one"
		}
		if cg.tr, err = compilePattern(g.Translation, noLang); err != nil {
			return nil, fail("the translation pattern %v", err)
		}
		switch {
		case multi && g.Source != "":
			return nil, fail("its format's files hold every language, so it has no source path (%s)", quote(g.Source))
		case !multi && !cg.tr.hasLang:
			return nil, fail("the translation pattern names no language; put {language}, {locale} or {android} where the file's language is")
		case g.Source != "" && layout.SourceLanguage == "":
			return nil, fail("its source path %s names no language: set the source language (Layout.SourceLanguage, partner.yaml's sourceLanguage) to read it as", quote(g.Source))
		}
		if g.Source != "" {
			if cg.src, err = compilePattern(g.Source, "the source path is the source language's and names no language"); err != nil {
				return nil, fail("the source path %s %v", quote(g.Source), err)
			}
		}
		for k, v := range g.Languages {
			if why := badLanguagesEntry(k, v); why != "" {
				return nil, fail("its %s", why)
			}
		}
		out = append(out, cg)
	}
	return out, nil
}

// opaqueKeys reports whether format's keys are identifiers, taken whole
// (see Format).
func opaqueKeys(format Format) bool {
	o, ok := format.(interface{ OpaqueKeys() bool })
	return ok && o.OpaqueKeys()
}

// mapped returns the project's code Languages gives spelling: the key
// spelled so, else one spelled so but for case.
func (g *compiledGroup) mapped(spelling string) (string, bool) {
	if code, ok := g.Languages[spelling]; ok {
		return languageKey(code), true
	}
	for _, k := range slices.Sorted(maps.Keys(g.Languages)) {
		if strings.EqualFold(k, spelling) {
			return languageKey(g.Languages[k]), true
		}
	}
	return "", false
}

// unmapped returns the spelling Languages gives the project's code lk,
// if any.
func (g *compiledGroup) unmapped(lk string) (string, bool) {
	for _, k := range slices.Sorted(maps.Keys(g.Languages)) {
		if languageKey(g.Languages[k]) == lk {
			return k, true
		}
	}
	return "", false
}

// language returns the project's code of a file's spelling.
func (g *compiledGroup) language(spelling string) (string, error) {
	if code, ok := g.mapped(spelling); ok {
		return code, nil
	}
	return parseSpelling(g.tr.form, spelling)
}

// namespace returns the namespace a binding of p (g's Source or
// Translation) names.
func (g *compiledGroup) namespace(p *pattern, b binding) string {
	var parts []string
	if b.stars != "" {
		parts = append(parts, b.stars)
	}
	if p.hasNS {
		parts = append(parts, b.stem)
	}
	ns := strings.Join(parts, "/")
	switch {
	case p.hasNS && ns == g.defaultName:
		return keys.DefaultNamespace
	case ns == "":
		return cmp.Or(g.Namespace, keys.DefaultNamespace)
	}
	return ns
}

// unnamespace returns what p's ** and {namespace} take to hold
// namespace ns, and whether p can hold it.
func (g *compiledGroup) unnamespace(p *pattern, ns string) (stars, stem string, ok bool) {
	fixed := cmp.Or(g.Namespace, keys.DefaultNamespace)
	switch {
	case p.hasNS && ns == keys.DefaultNamespace:
		return "", g.defaultName, true
	case p.hasNS && p.star >= 0:
		i := strings.LastIndexByte(ns, '/')
		return ns[:max(i, 0)], ns[i+1:], true
	case p.hasNS:
		return "", ns, true
	case p.star >= 0 && ns == fixed:
		return "", "", true
	case p.star >= 0:
		return ns, "", true
	}
	return "", "", ns == fixed
}

// A groupFile is a file of the tree that a group's pattern matches.
type groupFile struct {
	g        *compiledGroup
	path     string
	spelling string // the language as the name spells it; "" for a Source or multilingual file
	lang     string // the project's code; "" for a multilingual file
	ns       string
	source   bool // matched by the group's Source
}

// fileLanguage returns the language a format is told the file is in.
func (f groupFile) fileLanguage() string {
	if f.source {
		return f.lang
	}
	return fileLanguage(f.g.tr.form, f.spelling, f.lang)
}

// scanGroups returns the files of names (ListFiles' paths) that groups
// match, each the first group's that matches it, and a problem for each
// file whose name spells a language the rules do not know. Names that
// fit no pattern, or whose language part is not a language (Android's
// values-night), are passed over.
func scanGroups(names []string, groups []*compiledGroup, source string) ([]groupFile, []Problem) {
	var files []groupFile
	var problems []Problem
	for _, name := range names {
		for _, g := range groups {
			f, err, ok := g.match(name, source)
			if err != nil {
				problems = append(problems, Problem{File: name, Message: err.Error() + "; map it to the project's language with the group's languages (partner.yaml's languages), or leave the file out"})
				break
			}
			if ok {
				files = append(files, f)
				break
			}
		}
	}
	return files, problems
}

// match returns the file name is for g, and whether g's patterns match
// it; the error says why a name that fits spells no language it knows.
// A name that fits Translation with a known language is a translation
// ("app.de.json" beside a Source "{namespace}.json"); else one that
// fits Source is the source language's.
func (g *compiledGroup) match(name, source string) (groupFile, error, bool) {
	// Of the ways the name fits, the one whose language is known wins,
	// then the longest spelling ("messages_pt_BR" is pt_BR, not BR).
	var best binding
	var bestCode string
	var bestErr error
	rank := -1
	g.tr.matches(name, func(b binding) bool {
		if !g.tr.hasLang {
			best, rank = b, 2
			return false
		}
		code, err := g.language(b.lang)
		r := 2
		switch {
		case errors.Is(err, errNotLanguage):
			r = 0
		case err != nil:
			r = 1
		}
		if r > rank || r == rank && len(b.lang) > len(best.lang) {
			best, bestCode, bestErr, rank = b, code, err, r
		}
		return true
	})
	if rank == 2 {
		return groupFile{g: g, path: name, spelling: best.lang, lang: bestCode, ns: g.namespace(g.tr, best)}, nil, true
	}
	if g.src != nil {
		var b binding
		found := false
		g.src.matches(name, func(m binding) bool { b, found = m, true; return false })
		if found {
			return groupFile{g: g, path: name, lang: source, ns: g.namespace(g.src, b), source: true}, nil, true
		}
	}
	if rank == 1 {
		return groupFile{}, bestErr, false
	}
	return groupFile{}, nil, false
}

// loadGroups reads the tree under root (dir) laid out by layout.Groups.
func loadGroups(root *os.Root, dir string, layout Layout) (*Catalog, error) {
	groups, err := compileGroups(layout)
	if err != nil {
		return nil, err
	}
	names, err := ListFiles(dir)
	if err != nil {
		return nil, err
	}
	files, problems := scanGroups(names, groups, layout.SourceLanguage)
	cat := &Catalog{SourceLanguage: layout.SourceLanguage}
	type read struct {
		f    groupFile
		msgs []Message
	}
	var reads []read
	nested, flat := make([]bool, len(groups)), make([]bool, len(groups))
	for _, f := range files {
		data, err := readListed(root, f.path)
		if err != nil {
			if msg, ok := treeProblem(err); ok {
				problems = append(problems, Problem{File: f.path, Language: f.lang, Namespace: f.ns, Message: msg})
				continue
			}
			return nil, err
		}
		msgs, got, err := f.g.format.Decode(File{Language: f.fileLanguage(), Namespace: f.ns, SourceLanguage: layout.SourceLanguage}, data)
		if err != nil {
			problems = append(problems, fileProblems(err, f.path, f.lang, f.ns)...)
			continue
		}
		nested[f.g.n] = nested[f.g.n] || got.Keys == translations.Nested
		flat[f.g.n] = flat[f.g.n] || got.Keys == translations.Flat
		if cat.SourceLanguage == "" {
			cat.SourceLanguage = got.SourceLanguage
		}
		reads = append(reads, read{f, msgs})
	}
	// A language and namespace is one file's. Java's messages_en left
	// empty beside messages.properties (so lookups fall back to it) is
	// no second file.
	owner := map[[2]string]read{} // language key, namespace -> the file
	for _, r := range reads {
		if r.f.g.multi {
			continue
		}
		id := [2]string{languageKey(r.f.lang), r.f.ns}
		other, dup := owner[id]
		switch {
		case !dup:
			owner[id] = r
		case other.f.source && len(r.msgs) == 0:
		case r.f.source && len(other.msgs) == 0:
			owner[id] = r
		default:
			problems = append(problems, Problem{File: r.f.path, Language: r.f.lang, Namespace: r.f.ns, Message: fmt.Sprintf(
				"%s and %s are both the files of language %s, namespace %s; leave one out, or map the languages apart", quote(other.f.path), quote(r.f.path), quote(r.f.lang), quote(r.f.ns))})
		}
	}
	for _, r := range reads {
		f := r.f
		if !f.g.multi && owner[[2]string{languageKey(f.lang), f.ns}].f.path != f.path {
			continue
		}
		if !f.g.multi {
			cat.nsTexts(f.lang, f.ns, true).file = f.path
		}
		for _, m := range r.msgs {
			lang := f.lang
			if f.g.multi {
				if m.Language == "" {
					problems = append(problems, Problem{File: f.path, Line: m.Line, Namespace: f.ns, Key: m.Key, Message: "the entry names no language"})
					continue
				}
				lang = m.Language
				if code, ok := f.g.mapped(lang); ok {
					lang = code
				}
			}
			problems = cat.add(problems, f.path, lang, f.ns, m.Key, m, f.g.opaque)
		}
	}
	layout.Groups = slices.Clone(layout.Groups)
	for i := range layout.Groups {
		layout.Groups[i].Languages = maps.Clone(layout.Groups[i].Languages)
	}
	for _, r := range reads {
		recordSpelling(&layout.Groups[r.f.g.n], r.f)
	}
	anyNested, anyFlat := false, false
	for i := range layout.Groups {
		g := &layout.Groups[i]
		anyNested, anyFlat = anyNested || nested[i], anyFlat || flat[i]
		if g.Keys == "" {
			g.Keys = cmp.Or(layout.Keys, detectedKeys(nested[i], flat[i]))
		}
	}
	if layout.Keys == "" {
		layout.Keys = detectedKeys(anyNested, anyFlat)
	}
	cat.Layout = layout
	problems = append(problems, cat.conflicts()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return cat, nil
}

// recordSpelling adds to g's Languages the spelling of f's language
// when the group's placeholder would spell the language otherwise
// (Apple's legacy zh_CN.lproj, gettext's sr@latin.po), so that a
// language's new files (a namespace it lacked, a fresh pull of
// partner.yaml's groups) take the spelling the tree uses.
func recordSpelling(g *Group, f groupFile) {
	if f.source || f.g.multi || f.spelling == "" {
		return
	}
	if _, ok := f.g.mapped(f.spelling); ok {
		return
	}
	if own, err := spellLanguage(f.g.tr.form, f.lang); err == nil && own != f.spelling {
		if g.Languages == nil {
			g.Languages = map[string]string{}
		}
		g.Languages[f.spelling] = f.lang
	}
}

// detectedKeys returns the key format a tree shows: translations.Flat
// when it has dotted keys at the top level only, else translations.Nested.
func detectedKeys(nested, flat bool) translations.KeyFormat {
	if flat && !nested {
		return translations.Flat
	}
	return translations.Nested
}

// readListed reads the file name (slashes) that ListFiles listed under
// root, as readRegular does.
func readListed(root *os.Root, name string) ([]byte, error) {
	fi, err := root.Lstat(filepath.FromSlash(name))
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	return readRegular(root, name, fi.Mode().Type())
}

// fileProblems returns the problems of err, a Decode's or Encode's
// error, in file path of language lang and namespace ns.
func fileProblems(err error, path, lang, ns string) []Problem {
	var ie *InputError
	if !errors.As(err, &ie) {
		if msg, ok := treeProblem(err); ok {
			return []Problem{{File: path, Language: lang, Namespace: ns, Message: msg}}
		}
		return []Problem{{File: path, Language: lang, Namespace: ns, Message: strings.TrimPrefix(err.Error(), "locales: ")}}
	}
	ps := make([]Problem, 0, len(ie.Problems))
	for _, p := range ie.Problems {
		p.File, p.Language, p.Namespace = path, cmp.Or(p.Language, lang), ns
		ps = append(ps, p)
	}
	return ps
}

// A groupTarget is a file Write writes for a group.
type groupTarget struct {
	g    *compiledGroup
	path string
	lang string // the language a format is told; "" for a multilingual file
	ns   string
	msgs []Message
}

// groupWriter lays a catalog out in groups.
type groupWriter struct {
	c        *Catalog
	groups   []*compiledGroup
	source   string                  // the source language
	existing map[[3]string]groupFile // group, language key, namespace -> the tree's file
	spelled  map[[2]string]string    // group, language key -> spelling in the tree
	nsGroup  map[string]*compiledGroup
}

func groupID(g *compiledGroup) string { return fmt.Sprint(g.n) }

// encodeGroups returns the files of the catalog laid out in
// layout.Groups, by path.
func (c *Catalog) encodeGroups(t *dirTree, layout Layout, source string) (map[string][]byte, error) {
	groups, err := compileGroups(Layout{Groups: layout.Groups, SourceLanguage: source})
	if err != nil {
		return nil, err
	}
	w := &groupWriter{c: c, groups: groups, source: source, existing: map[[3]string]groupFile{}, spelled: map[[2]string]string{}, nsGroup: map[string]*compiledGroup{}}
	if t.root != nil {
		names, err := ListFiles(t.dir)
		if err != nil {
			return nil, err
		}
		files, _ := scanGroups(names, groups, source) // what Load would refuse is written over as if absent
		for _, f := range files {
			id := [3]string{groupID(f.g), languageKey(f.lang), f.ns}
			if old, ok := w.existing[id]; !ok || f.source && !old.source {
				w.existing[id] = f
			}
			if !f.source && f.spelling != "" {
				sid := [2]string{groupID(f.g), languageKey(f.lang)}
				if _, ok := w.spelled[sid]; !ok {
					w.spelled[sid] = f.spelling
				}
			}
			if _, ok := w.nsGroup[f.ns]; !ok {
				w.nsGroup[f.ns] = f.g
			}
		}
	}
	targets := map[string]*groupTarget{} // by path
	var order []*groupTarget
	var problems []Problem
	seen := newCollisions()
	owner := map[string]string{} // path -> what it holds, for a collision
	for _, lk := range slices.Sorted(maps.Keys(c.langs)) {
		l := c.langs[lk]
		for _, ns := range slices.Sorted(maps.Keys(l.ns)) {
			n := l.ns[ns]
			if len(n.texts) == 0 {
				continue
			}
			g := w.group(ns)
			if g == nil {
				problems = append(problems, Problem{Language: l.code, Namespace: ns, Message: fmt.Sprintf(
					"no file group's pattern holds namespace %s; add a group for it%s", quote(ns), nameHint)})
				continue
			}
			lang := l.code
			if g.multi {
				lang = w.multiSpelling(g, lk, l.code)
			}
			path, fileLang, err := w.path(g, lk, l.code, ns)
			if err != nil {
				problems = append(problems, Problem{Language: l.code, Namespace: ns, Message: err.Error() + nameHint})
				continue
			}
			tg := targets[path]
			if tg == nil {
				what := fmt.Sprintf("language %s, namespace %s", quote(l.code), quote(ns))
				if g.multi {
					what = fmt.Sprintf("namespace %s", quote(ns))
				}
				if other, dup := seen.add(path); dup {
					problems = append(problems, Problem{Language: l.code, Namespace: ns, Message: fmt.Sprintf(
						"%s (%s) and %s (%s) are one file on a file system that ignores case or Unicode normalisation (macOS, Windows)", quote(path), what, quote(other), owner[other])})
					continue
				}
				owner[path] = what
				tg = &groupTarget{g: g, path: path, lang: fileLang, ns: ns}
				targets[path] = tg
				order = append(order, tg)
			}
			for k, tx := range n.texts {
				m := Message{Key: k, Text: tx.s, Untranslated: tx.untranslated}
				if g.multi {
					m.Language = lang
				}
				tg.msgs = append(tg.msgs, m)
			}
		}
	}
	files := map[string][]byte{}
	for _, tg := range order {
		f := File{Language: tg.lang, Namespace: tg.ns, SourceLanguage: source, Keys: cmp.Or(tg.g.Keys, layout.Keys)}
		if tg.g.multi {
			f.Keys = translations.Flat
		} else {
			f.Source, f.SourceFile = w.sourceOf(t, tg.g, tg.ns)
		}
		msgs := tg.msgs
		slices.SortFunc(msgs, func(a, b Message) int {
			return cmp.Or(strings.Compare(a.Language, b.Language), strings.Compare(a.Key, b.Key))
		})
		data, err := encodeFile(tg.g.format, t, tg.path, f, msgs)
		if err != nil {
			problems = append(problems, fileProblems(err, tg.path, tg.lang, tg.ns)...)
			continue
		}
		files[tg.path] = data
	}
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return files, nil
}

// group returns the group that writes namespace ns: the group of the
// tree's files of ns, else the first whose pattern can hold it.
func (w *groupWriter) group(ns string) *compiledGroup {
	if g := w.nsGroup[ns]; g != nil {
		return g
	}
	for _, g := range w.groups {
		if _, _, ok := g.unnamespace(g.tr, ns); ok {
			return g
		}
	}
	return nil
}

// multiSpelling returns how a multilingual file spells the project's
// language code: the group's Languages, else BCP 47 ("zh-Hans").
func (w *groupWriter) multiSpelling(g *compiledGroup, lk, code string) string {
	if s, ok := g.unmapped(lk); ok {
		return s
	}
	if s, err := spellLanguage(formLanguage, code); err == nil {
		return s
	}
	return code
}

// path returns the path of the file of language code (key lk) and
// namespace ns in group g, and the language its format is told: the
// tree's file when there is one, else the pattern's, Source's for the
// source language. A path Load would not read back as g's file of that
// language and namespace is refused.
func (w *groupWriter) path(g *compiledGroup, lk, code, ns string) (string, string, error) {
	if g.multi {
		if f, ok := w.existing[[3]string{groupID(g), "", ns}]; ok {
			return f.path, "", nil
		}
	} else if f, ok := w.existing[[3]string{groupID(g), lk, ns}]; ok {
		return f.path, f.fileLanguage(), nil
	}
	p, spelling, fileLang := g.tr, "", code
	switch {
	case g.multi:
		fileLang = ""
	case g.src != nil && lk == languageKey(w.source):
		p = g.src
	default:
		var ok bool
		if spelling, ok = w.spelled[[2]string{groupID(g), lk}]; !ok {
			if spelling, ok = g.unmapped(lk); !ok {
				s, err := spellLanguage(g.tr.form, code)
				if err != nil {
					return "", "", err
				}
				spelling = s
			}
		}
		fileLang = fileLanguage(g.tr.form, spelling, code)
	}
	stars, stem, ok := g.unnamespace(p, ns)
	if !ok {
		return "", "", fmt.Errorf("namespace %s is not one the pattern %s holds", quote(ns), quote(p.text))
	}
	name, err := p.path(spelling, stars, stem)
	if err != nil {
		return "", "", fmt.Errorf("the file of language %s, namespace %s, by the pattern %s: %v", quote(code), quote(ns), quote(p.text), err)
	}
	// Load must read it back as this file.
	back, err, found := g.match(name, w.source)
	first := found
	for _, other := range w.groups {
		if other == g {
			break
		}
		if _, _, ok := other.match(name, w.source); ok {
			first = false
		}
	}
	if err != nil || !first || back.ns != ns || !g.multi && languageKey(back.lang) != lk {
		return "", "", fmt.Errorf("the file of language %s, namespace %s would be %s, which Load would not read back as it", quote(code), quote(ns), quote(name))
	}
	return name, fileLang, nil
}

// sourceOf returns the source language's texts of namespace ns and the
// content of its file in group g, when the tree has one.
func (w *groupWriter) sourceOf(t *dirTree, g *compiledGroup, ns string) ([]Message, []byte) {
	if w.source == "" {
		return nil, nil
	}
	var msgs []Message
	if n := w.c.nsTexts(w.source, ns, false); n != nil {
		for k, tx := range n.texts {
			msgs = append(msgs, Message{Key: k, Text: tx.s, Untranslated: tx.untranslated})
		}
		msgs = sortedMessages(msgs)
	}
	name, _, err := w.path(g, languageKey(w.source), w.source, ns)
	if err != nil {
		return msgs, nil
	}
	data, err := t.read(name)
	if err != nil {
		return msgs, nil
	}
	return msgs, data
}
