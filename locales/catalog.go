package locales

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
	"io"
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
// to case ("pt-BR" is "pt-br"): a catalog holds one spelling of each, the
// first it was given. The zero Catalog is empty and ready to use; a
// Catalog is not safe for concurrent writes.
type Catalog struct {
	// Layout is the layout the tree was read in (Load: given or
	// detected) or the project's (Pull); Write takes its own. Load adds
	// to each group's Languages the spellings the tree uses where the
	// group's placeholder would spell a language otherwise (Apple's
	// legacy zh_CN.lproj, gettext's sr@latin.po): written to
	// partner.yaml, they give a fresh pull the tree's file names.
	Layout Layout
	// SourceLanguage is the project's source language when known (Pull
	// sets it). Formats that write the source text beside a translation
	// (XLIFF) or every language in one file (.xcstrings) take it from here.
	SourceLanguage string

	langs map[string]*langTexts // by languageKey
}

type langTexts struct {
	code string // as first given
	ns   map[string]*nsTexts
}

type nsTexts struct {
	file  string // where the texts were read, relative to the root; "" when not read
	texts map[string]text
	// opaque: the keys are identifiers (a format with OpaqueKeys), taken
	// whole and created with keys.CreateOptions.Force.
	opaque bool
}

type text struct {
	s    string
	line int32 // in file; 0 when not read from one
	// untranslated: the file marks it not translated yet (see
	// Message.Untranslated); a plan counts it and never sends it.
	untranslated bool
}

// Set sets the text of key in namespace ns ("" is keys.DefaultNamespace) and
// language lang.
func (c *Catalog) Set(lang, ns, key, s string) {
	c.nsTexts(lang, cmp.Or(ns, keys.DefaultNamespace), true).texts[key] = text{s: s}
}

func (c *Catalog) nsTexts(lang, ns string, create bool) *nsTexts {
	lk := languageKey(lang)
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
	n := c.nsTexts(lang, cmp.Or(ns, keys.DefaultNamespace), false)
	if n == nil {
		return "", false
	}
	t, ok := n.texts[key]
	return t.s, ok
}

// All returns every text, sorted by language, namespace and key, as
// messages with Language and Namespace set (and no Line), Untranslated
// for a text its file marks not translated yet. Count them,
// or collect their languages, for what a caller reports.
func (c *Catalog) All() iter.Seq[Message] {
	return func(yield func(Message) bool) {
		for _, lk := range slices.Sorted(maps.Keys(c.langs)) {
			l := c.langs[lk]
			for _, ns := range slices.Sorted(maps.Keys(l.ns)) {
				n := l.ns[ns]
				for _, k := range slices.Sorted(maps.Keys(n.texts)) {
					t := n.texts[k]
					if !yield(Message{Language: l.code, Namespace: ns, Key: k, Text: t.s, Untranslated: t.untranslated}) {
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
// tree: folders of files are translations.NamespacedFolders, files translations.SingleFile (both
// at once is refused); nested objects are translations.Nested, dotted keys at the
// top level only translations.Flat, and a tree that shows neither is translations.Nested,
// the service's default. Files with another extension than the format's,
// and names starting with '.', are passed over. In namespaced folders, a
// locale file in a subfolder of a language's folder (i18next's
// <lang>/layout/header.json) is refused, named: no layout reads it yet,
// and passing it over would push the tree without its texts.
//
// Load reads regular files inside the tree only: a locale file that is
// a link (even to a file inside the tree), a named pipe or a device is
// refused without being opened, and so is a file larger than 64 MiB;
// the tree is read through os.Root, so no name leads outside dir.
//
// With layout.Groups, Load reads the files the groups' patterns find
// anywhere in the tree instead (see Group), through the same checks;
// layout.SourceLanguage is the language of a group's Source files and
// becomes the catalog's SourceLanguage. A group's Keys, when empty, is
// detected from its files.
//
// The keys of a format with OpaqueKeys (see Format) are taken whole in
// every layout: no namespace is split off at ':', and only an empty key
// is refused.
//
// Load reads every file before it answers and reports every problem it finds as one
// *InputError naming the file, line and key of each: malformed files,
// duplicate keys, empty keys, values that are not text, file names that
// are not language codes, one language spelled twice, and a key that
// would be both a text and the parent of others ("a" and "a.b" in one
// language and namespace; across languages they are no conflict, since
// keys are created from the source language's texts and a target's key
// the source lacks is skipped).
func Load(dir string, layout Layout) (*Catalog, error) {
	if err := layout.check(); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	defer root.Close()
	if len(layout.Groups) > 0 {
		return loadGroups(root, dir, layout)
	}
	format := layout.format()
	if name, ok := multilingual(format); ok {
		return loadMultilingual(root, format, name, layout)
	}
	opaque := opaqueKeys(format)
	ext := format.Ext()
	fsys := root.FS()
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	var problems []Problem
	type file struct {
		path, lang, ns string
		mode           fs.FileMode // type bits, as listed
	}
	var single, folders []file
	var deeper []string // locale files below a language's folder, which no layout reads yet
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
				switch ns, ok := strings.CutSuffix(f.Name(), ext); {
				case strings.HasPrefix(f.Name(), "."):
				case f.IsDir():
					if found := firstWithExt(fsys, path.Join(name, f.Name()), ext); found != "" {
						deeper = append(deeper, found)
					}
				case ok:
					folders = append(folders, file{path.Join(name, f.Name()), name, ns, f.Type()})
				}
			}
		default:
			if lang, ok := strings.CutSuffix(name, ext); ok {
				single = append(single, file{name, lang, "", e.Type()})
			}
		}
	}
	if layout.Files == "" {
		switch {
		case len(single) > 0 && len(folders) > 0:
			return nil, inputError([]Problem{{File: single[0].path, Message: fmt.Sprintf(
				"the tree mixes single files (%s) and namespaced folders (%s); set Layout.Files to say which to read", single[0].path, folders[0].path)}})
		case len(folders) > 0:
			layout.Files = translations.NamespacedFolders
		default:
			layout.Files = translations.SingleFile
		}
	}
	files := single
	if layout.Files == translations.NamespacedFolders {
		files = folders
		for _, d := range deeper {
			problems = append(problems, Problem{File: d, Message: fmt.Sprintf(
				"a namespace in a subfolder of a language's folder is not read: a namespace is one file, <lang>/<namespace>%s; move it up, or leave it out of the tree", ext)})
		}
	}
	cat := &Catalog{}
	seenLang := map[string]string{} // languageKey -> first path
	nested, flat := false, false
	for _, f := range files {
		if !validLanguage(f.lang) {
			problems = append(problems, Problem{File: f.path, Message: fmt.Sprintf("%s is not a language code (2 to 35 letters, digits, '-' or '_')", quote(f.lang))})
			continue
		}
		lk := languageKey(f.lang)
		if l := cat.langs[lk]; l != nil && l.code != f.lang {
			problems = append(problems, Problem{File: f.path, Language: f.lang, Message: fmt.Sprintf(
				"language %s is also spelled %s (%s); the service does not tell them apart", quote(f.lang), quote(l.code), seenLang[lk])})
			continue
		}
		if _, ok := seenLang[lk]; !ok {
			seenLang[lk] = f.path
		}
		data, err := readRegular(root, f.path, f.mode)
		if err != nil {
			if msg, ok := treeProblem(err); ok {
				problems = append(problems, Problem{File: f.path, Language: f.lang, Namespace: f.ns, Message: msg})
				continue
			}
			return nil, err
		}
		msgs, got, err := format.Decode(File{Language: f.lang, Namespace: f.ns}, data)
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
		nested = nested || got.Keys == translations.Nested
		flat = flat || got.Keys == translations.Flat
		if f.ns == "" && len(msgs) == 0 {
			cat.nsTexts(f.lang, keys.DefaultNamespace, true).file = f.path
		}
		for _, m := range msgs {
			ns, key := f.ns, m.Key
			if layout.Files == translations.SingleFile {
				if opaque {
					ns = keys.DefaultNamespace // an identifier is taken whole, ':' and all
				} else {
					ns, key = splitNamespace(m.Key)
				}
			}
			problems = cat.add(problems, f.path, f.lang, ns, key, m, opaque)
		}
	}
	if layout.Keys == "" {
		layout.Keys = translations.Nested
		if flat && !nested {
			layout.Keys = translations.Flat
		}
	}
	cat.Layout = layout
	problems = append(problems, cat.conflicts()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return cat, nil
}

// add adds message m of file, of language lang, as key of namespace ns,
// or returns problems with the problem it has: a key the rules refuse
// (only an empty one when the format's keys are opaque) or one read
// twice.
func (c *Catalog) add(problems []Problem, file, lang, ns, key string, m Message, opaque bool) []Problem {
	if msg := keyProblem(key, opaque); msg != "" {
		return append(problems, Problem{File: file, Line: m.Line, Language: lang, Namespace: ns, Key: m.Key, Message: msg})
	}
	n := c.nsTexts(lang, ns, true)
	n.opaque = n.opaque || opaque
	if old, dup := n.texts[key]; dup {
		return append(problems, Problem{File: file, Line: m.Line, Language: lang, Namespace: ns, Key: m.Key, Message: fmt.Sprintf(
			"key %s of namespace %s twice (also on line %d)", quote(key), quote(ns), old.line)})
	}
	n.file = file
	n.texts[key] = text{s: m.Text, line: int32(min(m.Line, 1<<31-1)), untranslated: m.Untranslated}
	return problems
}

// keyProblem returns what is wrong with a key, or "": an opaque key (a
// format's identifier) only when it is empty, others also when a level
// is empty ("a..b", "a.").
func keyProblem(key string, opaque bool) string {
	if opaque {
		if key == "" {
			return "empty key"
		}
		return ""
	}
	return checkKey(key)
}

// conflicts returns a problem for each key that is both a text and the
// parent of another key of its language and namespace. The
// namespaces of formats whose keys are identifiers (opaque) have none:
// "a" beside "a.b" are two keys.
func (c *Catalog) conflicts() []Problem {
	var ps []Problem
	for lk, l := range c.langs {
		for ns, n := range l.ns {
			if n.opaque {
				continue
			}
			for k := range n.texts {
				for i := strings.IndexByte(k, '.'); i >= 0; i = next(k, i) {
					parent := k[:i]
					if _, ok := n.texts[parent]; !ok {
						continue
					}
					file, line := c.where(lk, ns, k)
					pfile, pline := c.where(lk, ns, parent)
					ps = append(ps, Problem{File: file, Line: line, Language: l.code, Namespace: ns, Key: k, Message: fmt.Sprintf(
						"key %s is below %s (%s), which is a text: a key cannot be both a text and a parent", quote(k), quote(parent), position(pfile, pline))})
				}
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
// language (translations.SingleFile) or per language and namespace
// (translations.NamespacedFolders), creating folders as needed. A file
// that exists is written over by its format, which changes only the
// texts that changed and keeps every other byte (order, indentation,
// comments, entries the catalog lacks); a new file takes the shape of
// the source language's file when there is one, else the format's own
// (JSON: members sorted, two-space indentation, a final newline). A
// file whose content would not change is not touched. A language keeps the
// spelling of an existing file or folder of the same language under dir
// (pt-BR.json stays pt-BR.json when the service says pt-br); a new one
// is spelled by the BCP 47 convention ("pt-BR"). Files of languages and
// namespaces the catalog lacks are left alone.
//
// Every file is encoded before the first is written: texts a layout
// cannot hold (a key that is a text and a parent, with translations.Nested; a
// default-namespace key with a ':' before its first '.', in a
// translations.SingleFile) fail as an *InputError and nothing is written. So do
// names Load would not read back as they were: a language that is not a
// language code (2 to 35 letters, digits, '-' or '_'); a namespace that
// is not one file name on every system (no '/', '\', "..", control
// characters, Windows' reserved names and characters, trailing dot or
// space), starts with '.', or, in a translations.SingleFile, holds '.' or ':', which
// the key syntax takes; and two files whose names differ only in case
// or Unicode normalisation, which are one file on macOS and Windows.
//
// With layout.Groups (or, when layout says no Files, Format or Groups,
// the catalog's own Layout.Groups), Write lays the catalog out as Group
// says, each file told the source language's file of its group and
// namespace (File.SourceFile) when the tree has one; a namespace no
// group's pattern holds is refused. Texts Load read as untranslated are
// written back so marked (Message.Untranslated).
// Write writes only regular files inside dir, never through a link
// (through os.Root): a link or a special file where a file or folder
// is to be written is refused the same way.
func (c *Catalog) Write(dir string, layout Layout) error {
	if err := layout.check(); err != nil {
		return err
	}
	if len(layout.Groups) == 0 && layout.Files == "" && layout.Format == nil {
		layout.Groups = c.Layout.Groups
	}
	source := cmp.Or(c.SourceLanguage, layout.SourceLanguage, c.Layout.SourceLanguage)
	layout = Layout{Files: cmp.Or(layout.Files, c.Layout.Files), Keys: cmp.Or(layout.Keys, c.Layout.Keys), Format: cmp.Or(layout.Format, c.Layout.Format), Groups: layout.Groups, SourceLanguage: source}.orDefault()
	t, err := openTree(dir)
	if err != nil {
		return err
	}
	defer t.close()
	var files map[string][]byte
	if len(layout.Groups) > 0 {
		files, err = c.encodeGroups(t, layout, source)
	} else if name, ok := multilingual(layout.format()); ok {
		files, err = c.encodeMultilingual(t, layout.format(), name)
	} else if other := otherStructure(dir, layout.Files, layout.format().Ext()); other != "" {
		return inputError([]Problem{{File: other, Message: fmt.Sprintf(
			"the tree is laid out in %s and this write is in %s: give the tree's layout (Layout.Files; partner pull --layout), or write into an empty folder",
			structureName(!(layout.Files == translations.NamespacedFolders)), structureName(layout.Files == translations.NamespacedFolders))}})
	} else {
		files, err = c.encode(t, layout, existingLanguages(dir))
	}
	if err != nil {
		return err
	}
	return t.writeAll(files)
}

// otherStructure returns a locale file (extension ext) of the tree under
// dir that is laid out in the other file structure than files, or "" (a
// missing tree has none). Load refuses a tree that mixes the two, so
// Write does not make one.
func otherStructure(dir string, files translations.FileStructure, ext string) string {
	names, err := ListFiles(dir)
	if err != nil {
		return ""
	}
	for _, n := range names {
		if strings.Count(n, "/") > 1 {
			continue // no layout without groups reads deeper
		}
		if strings.HasSuffix(n, ext) && strings.Contains(n, "/") != (files == translations.NamespacedFolders) {
			return n
		}
	}
	return ""
}

// structureName names a file structure for a message.
func structureName(namespaced bool) string {
	if namespaced {
		return "namespaced folders (<lang>/<namespace> files)"
	}
	return "single files (one <lang> file per language)"
}

// existingLanguages returns the spellings of the languages under dir,
// by languageKey: its files (without extension) and folders.
func existingLanguages(dir string) map[string]string {
	out := map[string]string{}
	entries, _ := os.ReadDir(dir) // a missing dir has none
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() {
			name = strings.TrimSuffix(name, path.Ext(name))
		}
		if validLanguage(name) {
			out[languageKey(name)] = name
		}
	}
	return out
}

// encode returns the files of the catalog in layout, by path. The
// format is told each file's language and namespace, its current
// content in t and the source language's texts of the same file.
func (c *Catalog) encode(t *dirTree, layout Layout, spelled map[string]string) (map[string][]byte, error) {
	format := layout.format()
	opaque := opaqueKeys(format)
	files := map[string][]byte{}
	var problems []Problem
	type group struct {
		file, lang, ns string
		msgs           []Message
	}
	byLang := map[string]map[string]*group{} // LanguageKey -> namespace ("" in a single file) -> group
	seen := newCollisions()
	owner := map[string]string{} // file -> the language and namespace it holds, for a collision
	for _, lk := range slices.Sorted(maps.Keys(c.langs)) {
		l := c.langs[lk]
		name, ok := spelled[lk]
		if !ok {
			name = languageFileName(l.code)
		}
		groups := map[string]*group{}
		byLang[lk] = groups
		for _, ns := range slices.Sorted(maps.Keys(l.ns)) {
			n := l.ns[ns]
			if len(n.texts) == 0 {
				continue
			}
			gns := ns
			if layout.Files == translations.SingleFile {
				gns = ""
			}
			g := groups[gns]
			if g == nil {
				file, err := layout.filePath(name, ns, format.Ext())
				if err != nil {
					problems = append(problems, Problem{Language: l.code, Namespace: ns, Message: err.Error() + nameHint})
					continue
				}
				what := fmt.Sprintf("language %s, namespace %s", quote(l.code), quote(ns))
				if layout.Files == translations.SingleFile {
					what = fmt.Sprintf("language %s", quote(l.code))
				}
				if other, dup := seen.add(file); dup {
					problems = append(problems, Problem{Language: l.code, Namespace: ns, Message: fmt.Sprintf(
						"%s (%s) and %s (%s) are one file on a file system that ignores case or Unicode normalisation (macOS, Windows)", quote(file), what, quote(other), owner[other])})
					continue
				}
				owner[file] = what
				g = &group{file: file, lang: name, ns: gns}
				groups[gns] = g
			}
			if layout.Files == translations.SingleFile && ns != keys.DefaultNamespace && opaque {
				problems = append(problems, Problem{File: g.file, Language: l.code, Namespace: ns, Message: fmt.Sprintf(
					"namespace %s cannot be written in a single file of a format whose keys are identifiers: Load reads every key of it whole, in the default namespace; use translations.NamespacedFolders", quote(ns))})
				continue
			}
			if layout.Files == translations.SingleFile && ns != keys.DefaultNamespace {
				if msg := singleFileNamespace(ns); msg != "" {
					problems = append(problems, Problem{File: g.file, Language: l.code, Namespace: ns, Message: msg})
					continue
				}
			}
			for k, tx := range n.texts {
				key := k
				if layout.Files == translations.SingleFile && !opaque {
					if ns == keys.DefaultNamespace {
						if other, _ := splitNamespace(k); other != keys.DefaultNamespace {
							problems = append(problems, Problem{File: g.file, Language: l.code, Namespace: ns, Key: k, Message: fmt.Sprintf(
								"key %s of the default namespace has %q before its first '.', which a single file reads as a namespace; use translations.NamespacedFolders", quote(k), nsSeparator)})
							continue
						}
					}
					key = joinNamespace(ns, k)
				}
				g.msgs = append(g.msgs, Message{Key: key, Text: tx.s, Untranslated: tx.untranslated})
			}
		}
	}
	for lk, groups := range byLang {
		for gns, g := range groups {
			f := File{Language: g.lang, Namespace: gns, SourceLanguage: c.SourceLanguage, Keys: layout.Keys}
			if src := byLang[languageKey(c.SourceLanguage)][gns]; src != nil {
				f.Source = sortedMessages(src.msgs)
			}
			f.SourceFile = c.sourceFile(t, layout, spelled, gns)
			data, err := encodeFile(format, t, g.file, f, sortedMessages(g.msgs))
			if err != nil {
				var ie *InputError
				if errors.As(err, &ie) {
					for _, p := range ie.Problems {
						p.File, p.Language, p.Namespace = g.file, c.langs[lk].code, gns
						problems = append(problems, p)
					}
					continue
				}
				if msg, ok := treeProblem(err); ok {
					problems = append(problems, Problem{File: g.file, Language: c.langs[lk].code, Message: msg})
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

// sourceFile returns the current content of the source language's file
// of namespace ns ("" in a single file) in t, laid out in layout, or
// nil when there is none.
func (c *Catalog) sourceFile(t *dirTree, layout Layout, spelled map[string]string, ns string) []byte {
	if c.SourceLanguage == "" {
		return nil
	}
	name, ok := spelled[languageKey(c.SourceLanguage)]
	if !ok {
		name = languageFileName(c.SourceLanguage)
	}
	file, err := layout.filePath(name, ns, layout.format().Ext())
	if err != nil {
		return nil
	}
	data, err := t.read(file)
	if err != nil {
		return nil
	}
	return data
}

// nameHint says what to do about a language or namespace that cannot
// name a file of the tree.
const nameHint = "; rename it in the project, or leave it out of the pull with PullOptions.Languages or PullOptions.Namespaces"

// maxFileSize is the most a locale file may hold, in a tree or on the
// CDN.
const maxFileSize = 64 << 20

// A fileProblem is why a file of a tree is neither read nor written: a
// link, a pipe or device, a file too large. Load and Write report it as
// a Problem of an *InputError, naming the file.
type fileProblem string

func (p fileProblem) Error() string { return string(p) }

// treeProblem returns the message of a fileProblem in err's chain.
func treeProblem(err error) (string, bool) {
	var p fileProblem
	if errors.As(err, &p) {
		return string(p), true
	}
	return "", false
}

// notRegular returns why a file of type mode (fs.FileMode.Type) is not
// read or written, or "" for a regular file.
func notRegular(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return ""
	case mode&fs.ModeSymlink != 0:
		return "is a link; locale files are read and written as regular files inside the tree only, never through a link"
	case mode.IsDir():
		return "is a folder"
	}
	return "is not a regular file (a named pipe, socket or device); locale files are read and written as regular files only"
}

// readRegular reads the file name (slashes) under root, which was listed
// with type mode: a regular file of at most maxFileSize bytes. A file of
// another type is refused without being opened.
func readRegular(root *os.Root, name string, mode fs.FileMode) ([]byte, error) {
	if why := notRegular(mode); why != "" {
		return nil, fileProblem(why)
	}
	f, err := root.Open(filepath.FromSlash(name))
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	if why := notRegular(fi.Mode().Type()); why != "" {
		return nil, fileProblem(why)
	}
	tooLarge := fileProblem(fmt.Sprintf("is larger than %d MiB, the most a locale file may hold", maxFileSize>>20))
	if fi.Size() > maxFileSize {
		return nil, tooLarge
	}
	buf := bytes.NewBuffer(make([]byte, 0, fi.Size()+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, maxFileSize+1)); err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	if buf.Len() > maxFileSize {
		return nil, tooLarge
	}
	return buf.Bytes(), nil
}

// A dirTree is the folder Write writes in, read and written through
// os.Root so that neither a name nor a link leads outside it.
type dirTree struct {
	dir  string
	root *os.Root // nil while dir does not exist
}

func openTree(dir string) (*dirTree, error) {
	root, err := os.OpenRoot(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &dirTree{dir: dir}, nil
	case err != nil:
		return nil, fmt.Errorf("locales: %w", err)
	}
	return &dirTree{dir: dir, root: root}, nil
}

func (t *dirTree) close() {
	if t.root != nil {
		t.root.Close()
	}
}

// check returns a fileProblem when the file name (slashes) cannot be
// written: a folder on its way or the file itself is a link, or is not
// a folder or a regular file. Parts that do not exist yet are fine.
func (t *dirTree) check(name string) error {
	if t.root == nil {
		return nil
	}
	for i := 0; ; {
		j := strings.IndexByte(name[i:], '/')
		last := j < 0
		p := name
		if !last {
			p = name[:i+j]
		}
		fi, err := t.root.Lstat(filepath.FromSlash(p))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil
		case err != nil:
			return fmt.Errorf("locales: %w", err)
		case fi.Mode()&fs.ModeSymlink != 0, last && !fi.Mode().IsRegular(), !last && !fi.IsDir():
			why := notRegular(fi.Mode().Type())
			if p != name {
				why = fmt.Sprintf("folder %s %s", p, why)
			}
			return fileProblem(why)
		}
		if last {
			return nil
		}
		i += j + 1
	}
}

// read returns the content of the file name (slashes), an error
// matching fs.ErrNotExist when there is none.
func (t *dirTree) read(name string) ([]byte, error) {
	if t.root == nil {
		return nil, fs.ErrNotExist
	}
	if err := t.check(name); err != nil {
		return nil, err
	}
	fi, err := t.root.Lstat(filepath.FromSlash(name))
	if err != nil {
		return nil, err
	}
	return readRegular(t.root, name, fi.Mode().Type())
}

// writeAll writes files, by path (slashes) under the tree, creating
// the tree and folders as needed. Every path is checked before the
// first file is written; one that cannot be written is a Problem of an
// *InputError.
func (t *dirTree) writeAll(files map[string][]byte) error {
	names := slices.Sorted(maps.Keys(files))
	var problems []Problem
	for _, name := range names {
		if err := t.check(name); err != nil {
			msg, ok := treeProblem(err)
			if !ok {
				return err
			}
			problems = append(problems, Problem{File: name, Message: msg})
		}
	}
	if err := inputError(problems); err != nil {
		return err
	}
	if t.root == nil && len(names) > 0 {
		if err := os.MkdirAll(t.dir, 0o755); err != nil {
			return fmt.Errorf("locales: %w", err)
		}
		root, err := os.OpenRoot(t.dir)
		if err != nil {
			return fmt.Errorf("locales: %w", err)
		}
		t.root = root
	}
	for _, name := range names {
		if err := t.writeFile(name, files[name]); err != nil {
			return err
		}
	}
	return nil
}

// writeFile writes data to name (slashes) unless it holds data already,
// through a temporary file renamed into place so that a reader never
// sees half a file.
func (t *dirTree) writeFile(name string, data []byte) error {
	old, err := t.read(name)
	switch {
	case err == nil && bytes.Equal(old, data):
		return nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		if msg, ok := treeProblem(err); ok {
			return inputError([]Problem{{File: name, Message: msg}})
		}
		return err
	}
	dir := path.Dir(name)
	if dir != "." {
		if err := t.root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
			return fmt.Errorf("locales: %w", err)
		}
	}
	tmp := filepath.FromSlash(path.Join(dir, ".locales-"+rand.Text()))
	f, err := t.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("locales: %w", err)
	}
	_, werr := f.Write(data)
	merr := f.Chmod(0o644) // whatever the umask
	cerr := f.Close()
	if err := cmp.Or(werr, merr, cerr); err != nil {
		t.root.Remove(tmp)
		return fmt.Errorf("locales: %w", err)
	}
	if err := t.root.Rename(tmp, filepath.FromSlash(name)); err != nil {
		t.root.Remove(tmp)
		return fmt.Errorf("locales: %w", err)
	}
	return nil
}

// firstWithExt returns the first file under dir (in fsys, a tree's
// os.Root, so no link is followed) whose name ends in ext, or "".
func firstWithExt(fsys fs.FS, dir, ext string) string {
	var found string
	fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) && !strings.HasPrefix(d.Name(), ".") {
			found = p
			return fs.SkipAll
		}
		return nil
	})
	return found
}
