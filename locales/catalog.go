package locales

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A Catalog holds a project's texts by language, namespace and key: what
// a locale tree holds (Load), what a push sends (NewPlan), what a pull
// brings back (Pull) and what Write lays out again.
//
// Languages are compared as the service compares them, without regard
// to case (see LanguageKey): a catalog holds one spelling of each, the
// first it was given. The zero Catalog is empty and ready to use; a
// Catalog is not safe for concurrent writes.
type Catalog struct {
	// Layout is the layout the tree was read in (Load: given or
	// detected) or the project's (Pull); Write takes its own.
	Layout Layout
	// SourceLanguage is the project's source language when known (Pull
	// sets it). Formats that write the source text beside a translation
	// (XLIFF) or every language in one file (.xcstrings) take it from here.
	SourceLanguage string

	langs map[string]*langTexts // by LanguageKey
}

type langTexts struct {
	code string // as first given
	ns   map[string]*nsTexts
}

type nsTexts struct {
	file  string // where the texts were read, relative to the root; "" when not read
	texts map[string]text
}

type text struct {
	s    string
	line int32 // in file; 0 when not read from one
}

// An Entry is one text of a catalog.
type Entry struct {
	Language  string `json:"language"`
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	Text      string `json:"text"`
}

// Set sets the text of key in namespace ns ("" is DefaultNamespace) and
// language lang.
func (c *Catalog) Set(lang, ns, key, s string) {
	c.nsTexts(lang, cmp.Or(ns, DefaultNamespace), true).texts[key] = text{s: s}
}

func (c *Catalog) nsTexts(lang, ns string, create bool) *nsTexts {
	lk := LanguageKey(lang)
	l := c.langs[lk]
	if l == nil {
		if !create {
			return nil
		}
		if c.langs == nil {
			c.langs = map[string]*langTexts{}
		}
		l = &langTexts{code: lang, ns: map[string]*nsTexts{}}
		c.langs[lk] = l
	}
	n := l.ns[ns]
	if n == nil && create {
		n = &nsTexts{texts: map[string]text{}}
		l.ns[ns] = n
	}
	return n
}

// Text returns the text of key in namespace ns and language lang, and
// whether there is one.
func (c *Catalog) Text(lang, ns, key string) (string, bool) {
	n := c.nsTexts(lang, cmp.Or(ns, DefaultNamespace), false)
	if n == nil {
		return "", false
	}
	t, ok := n.texts[key]
	return t.s, ok
}

// Languages returns the catalog's languages, sorted, as spelled.
func (c *Catalog) Languages() []string {
	out := make([]string, 0, len(c.langs))
	for _, l := range c.langs {
		out = append(out, l.code)
	}
	slices.Sort(out)
	return out
}

// Namespaces returns the namespaces that hold a text in any language,
// sorted.
func (c *Catalog) Namespaces() []string {
	set := map[string]bool{}
	for _, l := range c.langs {
		for ns, n := range l.ns {
			if len(n.texts) > 0 {
				set[ns] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// Len returns the number of texts in the catalog.
func (c *Catalog) Len() int {
	n := 0
	for _, l := range c.langs {
		for _, t := range l.ns {
			n += len(t.texts)
		}
	}
	return n
}

// All returns every text, sorted by language, namespace and key.
func (c *Catalog) All() iter.Seq[Entry] {
	return func(yield func(Entry) bool) {
		for _, lk := range slices.Sorted(maps.Keys(c.langs)) {
			l := c.langs[lk]
			for _, ns := range slices.Sorted(maps.Keys(l.ns)) {
				n := l.ns[ns]
				for _, k := range slices.Sorted(maps.Keys(n.texts)) {
					if !yield(Entry{Language: l.code, Namespace: ns, Key: k, Text: n.texts[k].s}) {
						return
					}
				}
			}
		}
	}
}

// where returns the file and line of a text, for a problem.
func (c *Catalog) where(lk, ns, key string) (file string, line int) {
	l := c.langs[lk]
	if l == nil || l.ns[ns] == nil {
		return "", 0
	}
	n := l.ns[ns]
	return n.file, int(n.texts[key].line)
}

// Load reads the locale tree under dir, laid out in layout, into a
// catalog. An empty layout.Files or layout.Keys is detected from the
// tree: folders of files are NamespacedFolders, files SingleFile (both
// at once is refused); nested objects are NestedKeys, dotted keys at the
// top level only FlatKeys, and a tree that shows neither is NestedKeys,
// the service's default. Files with another extension than the format's,
// and names starting with '.', are passed over.
//
// Load reads every file before it answers and reports every problem it finds as one
// *InputError naming the file, line and key of each: malformed files,
// duplicate keys, empty keys, values that are not text, file names that
// are not language codes, one language spelled twice, and a key that
// would be both a text and the parent of others ("a" and "a.b" in one
// namespace, in any languages).
func Load(dir string, layout Layout) (*Catalog, error) {
	if err := layout.check(); err != nil {
		return nil, err
	}
	format := layout.format()
	if m, ok := format.(Multilingual); ok {
		return loadMultilingual(dir, m, layout)
	}
	ext := format.Ext()
	fsys := os.DirFS(dir)
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	var problems []Problem
	type file struct{ path, lang, ns string }
	var single, folders []file
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
		case e.IsDir():
			sub, err := fs.ReadDir(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("locales: %w", err)
			}
			for _, f := range sub {
				if ns, ok := strings.CutSuffix(f.Name(), ext); ok && !f.IsDir() && !strings.HasPrefix(f.Name(), ".") {
					folders = append(folders, file{path.Join(name, f.Name()), name, ns})
				}
			}
		default:
			if lang, ok := strings.CutSuffix(name, ext); ok {
				single = append(single, file{name, lang, ""})
			}
		}
	}
	if layout.Files == "" {
		switch {
		case len(single) > 0 && len(folders) > 0:
			return nil, inputError([]Problem{{File: single[0].path, Message: fmt.Sprintf(
				"the tree mixes single files (%s) and namespaced folders (%s); set Layout.Files to say which to read", single[0].path, folders[0].path)}})
		case len(folders) > 0:
			layout.Files = NamespacedFolders
		default:
			layout.Files = SingleFile
		}
	}
	files := single
	if layout.Files == NamespacedFolders {
		files = folders
	}
	cat := &Catalog{}
	seenLang := map[string]string{} // LanguageKey -> first path
	nested, flat := false, false
	for _, f := range files {
		if !validLanguage(f.lang) {
			problems = append(problems, Problem{File: f.path, Message: fmt.Sprintf("%s is not a language code (2 to 35 letters, digits, '-' or '_')", quote(f.lang))})
			continue
		}
		lk := LanguageKey(f.lang)
		if l := cat.langs[lk]; l != nil && l.code != f.lang {
			problems = append(problems, Problem{File: f.path, Language: f.lang, Message: fmt.Sprintf(
				"language %s is also spelled %s (%s); the service does not tell them apart", quote(f.lang), quote(l.code), seenLang[lk])})
			continue
		}
		if _, ok := seenLang[lk]; !ok {
			seenLang[lk] = f.path
		}
		data, err := fs.ReadFile(fsys, f.path)
		if err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
		msgs, kf, err := decodeFile(format, File{Language: f.lang, Namespace: f.ns}, data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				problems = append(problems, Problem{File: f.path, Language: f.lang, Namespace: f.ns, Message: err.Error()})
				continue
			}
			for _, p := range ie.Problems {
				p.File, p.Language, p.Namespace = f.path, f.lang, f.ns
				problems = append(problems, p)
			}
			continue
		}
		nested = nested || kf == NestedKeys
		flat = flat || kf == FlatKeys
		if f.ns == "" && len(msgs) == 0 {
			cat.nsTexts(f.lang, DefaultNamespace, true).file = f.path
		}
		for _, m := range msgs {
			ns, key := f.ns, m.Key
			if layout.Files == SingleFile {
				ns, key = splitNamespace(m.Key)
			}
			if msg := checkKey(key); msg != "" {
				problems = append(problems, Problem{File: f.path, Line: m.Line, Language: f.lang, Namespace: ns, Key: m.Key, Message: msg})
				continue
			}
			n := cat.nsTexts(f.lang, ns, true)
			if old, dup := n.texts[key]; dup {
				problems = append(problems, Problem{File: f.path, Line: m.Line, Language: f.lang, Namespace: ns, Key: m.Key, Message: fmt.Sprintf(
					"key %s of namespace %s twice (also on line %d)", quote(key), quote(ns), old.line)})
				continue
			}
			n.file = f.path
			n.texts[key] = text{s: m.Text, line: int32(min(m.Line, 1<<31-1))}
		}
	}
	if layout.Keys == "" {
		layout.Keys = NestedKeys
		if flat && !nested {
			layout.Keys = FlatKeys
		}
	}
	cat.Layout = layout
	problems = append(problems, cat.conflicts()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return cat, nil
}

// conflicts returns a problem for each key that is both a text and the
// parent of another key of its namespace, in any of the languages.
func (c *Catalog) conflicts() []Problem {
	byNS := map[string]map[string]string{} // ns -> key -> a language key holding it
	for lk, l := range c.langs {
		for ns, n := range l.ns {
			m := byNS[ns]
			if m == nil {
				m = map[string]string{}
				byNS[ns] = m
			}
			for k := range n.texts {
				if _, ok := m[k]; !ok {
					m[k] = lk
				}
			}
		}
	}
	var ps []Problem
	for ns, m := range byNS {
		for k, lk := range m {
			for i := strings.IndexByte(k, '.'); i >= 0; i = next(k, i) {
				parent := k[:i]
				plk, ok := m[parent]
				if !ok {
					continue
				}
				file, line := c.where(lk, ns, k)
				pfile, pline := c.where(plk, ns, parent)
				ps = append(ps, Problem{File: file, Line: line, Language: c.langs[lk].code, Namespace: ns, Key: k, Message: fmt.Sprintf(
					"key %s is below %s (%s), which is a text: a key cannot be both a text and a parent", quote(k), quote(parent), position(pfile, pline))})
			}
		}
	}
	return ps
}

// next returns the index of the next '.' in k after i, or -1.
func next(k string, i int) int {
	j := strings.IndexByte(k[i+1:], '.')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func position(file string, line int) string {
	switch {
	case file == "":
		return "in the catalog"
	case line == 0:
		return file
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// Write writes the catalog under dir in layout (empty fields take the
// catalog's own Layout, then the service's defaults), one file per
// language (SingleFile) or per language and namespace
// (NamespacedFolders), creating folders as needed. The files are stable:
// members sorted, two-space indentation, a final newline; a file whose
// content would not change is not touched. A language keeps the
// spelling of an existing file or folder of the same language under dir
// (pt-BR.json stays pt-BR.json when the service says pt-br); a new one
// is spelled by the BCP 47 convention ("pt-BR"). Files of languages and
// namespaces the catalog lacks are left alone.
//
// Every file is encoded before the first is written: texts a layout
// cannot hold (a key that is a text and a parent, with NestedKeys; a
// default-namespace key with a ':' before its first '.', in a
// SingleFile) fail as an *InputError and nothing is written.
func (c *Catalog) Write(dir string, layout Layout) error {
	if err := layout.check(); err != nil {
		return err
	}
	layout = Layout{Files: cmp.Or(layout.Files, c.Layout.Files), Keys: cmp.Or(layout.Keys, c.Layout.Keys), Format: cmp.Or(layout.Format, c.Layout.Format)}.orDefault()
	if m, ok := layout.format().(Multilingual); ok {
		return c.writeMultilingual(dir, m)
	}
	files, err := c.encode(dir, layout, existingLanguages(dir))
	if err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeFile(filepath.Join(dir, filepath.FromSlash(name)), files[name]); err != nil {
			return err
		}
	}
	return nil
}

// existingLanguages returns the spellings of the languages under dir,
// by LanguageKey: its files (without extension) and folders.
func existingLanguages(dir string) map[string]string {
	out := map[string]string{}
	entries, _ := os.ReadDir(dir) // a missing dir has none
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() {
			name = strings.TrimSuffix(name, path.Ext(name))
		}
		if validLanguage(name) {
			out[LanguageKey(name)] = name
		}
	}
	return out
}

// encode returns the files of the catalog in layout, by path. A
// FileFormat is told each file's language and namespace, its current
// content under dir and the source language's texts of the same file.
func (c *Catalog) encode(dir string, layout Layout, spelled map[string]string) (map[string][]byte, error) {
	format := layout.format()
	files := map[string][]byte{}
	var problems []Problem
	type group struct {
		file, lang, ns string
		msgs           []Message
	}
	byLang := map[string]map[string]*group{} // LanguageKey -> namespace ("" in a single file) -> group
	for lk, l := range c.langs {
		name, ok := spelled[lk]
		if !ok {
			name = languageFileName(l.code)
		}
		groups := map[string]*group{}
		byLang[lk] = groups
		for ns, n := range l.ns {
			if len(n.texts) == 0 {
				continue
			}
			gns := ns
			if layout.Files == SingleFile {
				gns = ""
			}
			g := groups[gns]
			if g == nil {
				g = &group{file: layout.file(name, ns, format.Ext()), lang: name, ns: gns}
				groups[gns] = g
			}
			for k, t := range n.texts {
				key := k
				if layout.Files == SingleFile {
					if ns == DefaultNamespace {
						if other, _ := splitNamespace(k); other != DefaultNamespace {
							problems = append(problems, Problem{File: g.file, Language: l.code, Namespace: ns, Key: k, Message: fmt.Sprintf(
								"key %s of the default namespace has %q before its first '.', which a single file reads as a namespace; use NamespacedFolders", quote(k), nsSeparator)})
							continue
						}
					}
					key = joinNamespace(ns, k)
				}
				g.msgs = append(g.msgs, Message{Key: key, Text: t.s})
			}
		}
	}
	for lk, groups := range byLang {
		for gns, g := range groups {
			f := File{Language: g.lang, Namespace: gns, SourceLanguage: c.SourceLanguage}
			if src := byLang[LanguageKey(c.SourceLanguage)][gns]; src != nil {
				f.Source = sortedMessages(src.msgs)
			}
			data, err := encodeFile(format, dir, g.file, f, sortedMessages(g.msgs), layout.Keys)
			if err != nil {
				var ie *InputError
				if errors.As(err, &ie) {
					for _, p := range ie.Problems {
						p.File, p.Language, p.Namespace = g.file, c.langs[lk].code, gns
						problems = append(problems, p)
					}
					continue
				}
				problems = append(problems, Problem{File: g.file, Language: c.langs[lk].code, Message: strings.TrimPrefix(err.Error(), "locales: ")})
				continue
			}
			files[g.file] = data
		}
	}
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return files, nil
}

// writeFile writes data to name unless it holds data already, through a
// temporary file renamed into place so that a reader never sees half a
// file.
func writeFile(name string, data []byte) error {
	if old, err := os.ReadFile(name); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("locales: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(name), ".locales-*")
	if err != nil {
		return fmt.Errorf("locales: %w", err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := cmp.Or(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("locales: %w", err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("locales: %w", err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("locales: %w", err)
	}
	return nil
}
