package locales

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
)

// File is what a FileFormat is told of the file it reads or writes.
type File struct {
	// Language is the file's language, as its name spells it.
	Language string
	// Namespace is the file's namespace in NamespacedFolders; "" in a
	// SingleFile, whose keys carry their namespace.
	Namespace string
	// SourceLanguage is the catalog's source language, "" when unknown.
	SourceLanguage string
	// Source holds the source language's texts of the same file, sorted
	// by key, when the catalog has them (writing only).
	Source []Message
	// Old is the file's current content when it is written over; nil
	// for a new file (writing only).
	Old []byte
}

// A FileFormat is a Format whose files hold more than one text per key
// (the source text beside its translation), name their language, or
// carry what a catalog does not hold: comments, metadata, entries not
// yet translated. Load calls DecodeFile and Write calls EncodeFile
// instead of Decode and Encode; EncodeFile writes over File.Old,
// keeping all of it but the texts it replaces and the texts the
// catalog no longer has. What a FileFormat cannot write (a text it
// cannot express, a source text it lacks) it returns as an *InputError,
// and Write writes nothing.
type FileFormat interface {
	Format
	DecodeFile(f File, data []byte) ([]Message, KeyFormat, error)
	EncodeFile(f File, msgs []Message, keys KeyFormat) ([]byte, error)
}

// A Multilingual format keeps every language of a namespace in one file,
// <dir>/<name><ext>, as Apple's string catalogs do. DefaultName is the
// file name of the default namespace (Apple's "Localizable"). Load and
// Write read and write such trees whatever the Layout's Files; keys are
// written whole.
type Multilingual interface {
	Format
	DefaultName() string
	// DecodeAll reads a file's source language and its texts by
	// language, as the file spells the languages.
	DecodeAll(data []byte) (source string, texts map[string][]Message, err error)
	// EncodeAll writes texts by language over old (nil for a new
	// file), keeping what the texts do not hold.
	EncodeAll(old []byte, source string, texts map[string][]Message) ([]byte, error)
}

func decodeFile(format Format, f File, data []byte) ([]Message, KeyFormat, error) {
	if ff, ok := format.(FileFormat); ok {
		return ff.DecodeFile(f, data)
	}
	return format.Decode(data)
}

// encodeFile encodes msgs into file (relative to t's root), over its
// current content for a FileFormat.
func encodeFile(format Format, t *dirTree, file string, f File, msgs []Message, keys KeyFormat) ([]byte, error) {
	ff, ok := format.(FileFormat)
	if !ok {
		return format.Encode(msgs, keys)
	}
	old, err := t.read(file)
	switch {
	case err == nil:
		f.Old = old
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return ff.EncodeFile(f, msgs, keys)
}

func sortedMessages(msgs []Message) []Message {
	msgs = slices.Clone(msgs)
	slices.SortFunc(msgs, func(a, b Message) int { return strings.Compare(a.Key, b.Key) })
	return msgs
}

// Formats returns the formats of this package: JSON, ARB, Android
// strings.xml, Apple .strings and .xcstrings, gettext PO, Go's
// messages.gotext.json, and XLIFF 1.2 and 2.0 (.xlf and .xliff files).
// The formats whose
// parsers are other modules (YAML, Java properties) are in the module
// github.com/locsvc/partner-go/locales/formats.
func Formats() []Format {
	return []Format{JSON{}, ARB{}, Android{}, AppleStrings{}, XCStrings{}, PO{}, GoText{}, XLIFF{}, XLIFF{Extension: ".xliff"}}
}

// FormatByExt returns the format of formats whose extension ends the
// file name name, the longest when several do ("messages.gotext.json"
// is GoText, not JSON), and whether there is one.
func FormatByExt(name string, formats []Format) (Format, bool) {
	var best Format
	for _, f := range formats {
		if strings.HasSuffix(name, f.Ext()) && (best == nil || len(f.Ext()) > len(best.Ext())) {
			best = f
		}
	}
	return best, best != nil
}

// DetectFormat returns the format of the locale tree under dir: the one
// format of formats whose extension its files (at the top and one
// folder down) have. A tree with files of two formats is refused as an
// *InputError naming a file of each: choose one with Layout.Format. The
// tree is listed through os.Root: no link leads outside it.
func DetectFormat(dir string, formats []Format) (Format, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	defer root.Close()
	fsys := root.FS()
	found := map[string]string{} // Ext -> first file
	byExt := map[string]Format{}
	note := func(name string) {
		if f, ok := FormatByExt(path.Base(name), formats); ok {
			if _, seen := found[f.Ext()]; !seen {
				found[f.Ext()] = name
				byExt[f.Ext()] = f
			}
		}
	}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if !e.IsDir() {
			note(e.Name())
			continue
		}
		sub, err := fs.ReadDir(fsys, e.Name())
		if err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
		for _, s := range sub {
			if !s.IsDir() && !strings.HasPrefix(s.Name(), ".") {
				note(path.Join(e.Name(), s.Name()))
			}
		}
	}
	exts := slices.Sorted(maps.Keys(found))
	switch len(exts) {
	case 0:
		return nil, inputError([]Problem{{Message: fmt.Sprintf("no locale files in %s (none ends in %s)", dir, strings.Join(extsOf(formats), ", "))}})
	case 1:
		return byExt[exts[0]], nil
	}
	var names []string
	for _, e := range exts {
		names = append(names, found[e])
	}
	return nil, inputError([]Problem{{File: found[exts[0]], Message: fmt.Sprintf(
		"the tree mixes locale formats (%s); keep one format per tree or choose one with Layout.Format", strings.Join(names, ", "))}})
}

func extsOf(formats []Format) []string {
	var out []string
	for _, f := range formats {
		out = append(out, f.Ext())
	}
	return out
}

// namespaceOf returns the namespace of a multilingual file's name.
func namespaceOf(m Multilingual, name string) string {
	if name == m.DefaultName() {
		return DefaultNamespace
	}
	return name
}

// loadMultilingual reads the <name><ext> files of m under root into a
// catalog.
func loadMultilingual(root *os.Root, m Multilingual, layout Layout) (*Catalog, error) {
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	cat := &Catalog{Layout: Layout{Files: cmp.Or(layout.Files, SingleFile), Keys: FlatKeys, Format: m}}
	var problems []Problem
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), m.Ext())
		if !ok || e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ns := namespaceOf(m, name)
		data, err := readRegular(root, e.Name(), e.Type())
		if err != nil {
			if msg, ok := treeProblem(err); ok {
				problems = append(problems, Problem{File: e.Name(), Namespace: ns, Message: msg})
				continue
			}
			return nil, err
		}
		source, texts, err := m.DecodeAll(data)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				return nil, err
			}
			for _, p := range ie.Problems {
				p.File, p.Namespace = e.Name(), ns
				problems = append(problems, p)
			}
			continue
		}
		if cat.SourceLanguage == "" {
			cat.SourceLanguage = source
		} else if LanguageKey(source) != LanguageKey(cat.SourceLanguage) {
			problems = append(problems, Problem{File: e.Name(), Message: fmt.Sprintf("source language %s differs from %s of the other files", quote(source), quote(cat.SourceLanguage))})
		}
		for _, lang := range slices.Sorted(maps.Keys(texts)) {
			if l := cat.langs[LanguageKey(lang)]; l != nil && l.code != lang {
				problems = append(problems, Problem{File: e.Name(), Language: lang, Message: fmt.Sprintf("language %s is also spelled %s", quote(lang), quote(l.code))})
				continue
			}
			for _, msg := range texts[lang] {
				if s := checkKey(msg.Key); s != "" {
					problems = append(problems, Problem{File: e.Name(), Line: msg.Line, Language: lang, Namespace: ns, Key: msg.Key, Message: s})
					continue
				}
				n := cat.nsTexts(lang, ns, true)
				n.file = e.Name()
				n.texts[msg.Key] = text{s: msg.Text, line: int32(min(msg.Line, 1<<31-1))}
			}
		}
	}
	problems = append(problems, cat.conflicts()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return cat, nil
}

// encodeMultilingual returns the files of m, one per namespace, by
// path: each written over the file in t.
func (c *Catalog) encodeMultilingual(t *dirTree, m Multilingual) (map[string][]byte, error) {
	byNS := map[string]map[string][]Message{}
	for _, l := range c.langs {
		for ns, n := range l.ns {
			if len(n.texts) == 0 {
				continue
			}
			if byNS[ns] == nil {
				byNS[ns] = map[string][]Message{}
			}
			for k, t := range n.texts {
				byNS[ns][l.code] = append(byNS[ns][l.code], Message{Key: k, Text: t.s})
			}
		}
	}
	files := map[string][]byte{}
	var problems []Problem
	seen := newCollisions()
	owner := map[string]string{} // file -> namespace
	for _, ns := range slices.Sorted(maps.Keys(byNS)) {
		texts := byNS[ns]
		for lang, msgs := range texts {
			texts[lang] = sortedMessages(msgs)
		}
		name, err := multilingualPath(m, ns)
		if err != nil {
			problems = append(problems, Problem{Namespace: ns, Message: err.Error()})
			continue
		}
		if other, dup := seen.add(name); dup {
			problems = append(problems, Problem{Namespace: ns, Message: fmt.Sprintf(
				"%s (namespace %s) and %s (namespace %s) are one file on a file system that ignores case or Unicode normalisation (macOS, Windows)", quote(name), quote(ns), quote(other), quote(owner[other]))})
			continue
		}
		owner[name] = ns
		old, err := t.read(name)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			if msg, ok := treeProblem(err); ok {
				problems = append(problems, Problem{File: name, Namespace: ns, Message: msg})
				continue
			}
			return nil, err
		}
		data, err := m.EncodeAll(old, c.SourceLanguage, texts)
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) {
				return nil, err
			}
			for _, p := range ie.Problems {
				p.File, p.Namespace = name, ns
				problems = append(problems, p)
			}
			continue
		}
		files[name] = data
	}
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return files, nil
}

// multilingualPath returns the path of namespace ns's file of m, or why
// Load would not read it back as ns: a name that is not one file name,
// starts with '.', or is the default namespace's file name.
func multilingualPath(m Multilingual, ns string) (string, error) {
	if ns == DefaultNamespace {
		return treePath(segment(m.DefaultName() + m.Ext()))
	}
	if strings.HasPrefix(ns, ".") {
		return "", fmt.Errorf("namespace %s starts with '.', which Load passes over as a hidden file", quote(ns))
	}
	if why := checkSegment(ns); why != "" {
		return "", fmt.Errorf("namespace %s cannot name a file: it %s", quote(ns), why)
	}
	return treePath(segment(ns + m.Ext()))
}
