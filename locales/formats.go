package locales

import (
	"cmp"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"
)

// File is what a Format is told of the file it reads or writes, and
// what Decode tells of the file it read.
type File struct {
	// Language is the file's language, as its name spells it; "" for a
	// file of every language.
	Language string
	// Namespace is the file's namespace in translations.NamespacedFolders and in a
	// file of every language; "" in a translations.SingleFile, whose keys carry
	// their namespace.
	Namespace string
	// SourceLanguage is the catalog's source language, "" when unknown.
	// Decode sets it when the file names it.
	SourceLanguage string
	// Source holds the source language's texts of the same file, sorted
	// by key, when the catalog has them (writing only).
	Source []Message
	// Old is the file's current content when it is written over; nil
	// for a new file (writing only).
	Old []byte
	// SourceFile is the content of the source language's file of the
	// same group and namespace, when there is one (writing only): a new
	// target file takes from it what the platform expects (ARB metadata,
	// the XLIFF version, a Rails file's shape, a .strings encoding).
	SourceFile []byte
	// Keys is the key format: the one to write for Encode; for Decode,
	// the one the file shows (translations.Nested when it has nested objects,
	// translations.Flat when it has dotted keys at its top level only, "" when it
	// cannot tell).
	Keys translations.KeyFormat
}

// encodeFile encodes msgs into file (relative to t's root), over its
// current content.
func encodeFile(format Format, t *dirTree, file string, f File, msgs []Message) ([]byte, error) {
	old, err := t.read(file)
	switch {
	case err == nil:
		f.Old = old
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return format.Encode(f, msgs)
}

// multilingual returns the file name of the default namespace of a
// format whose files hold every language of a namespace, and whether
// format is one (see Format).
func multilingual(format Format) (string, bool) {
	m, ok := format.(interface{ DefaultName() string })
	if !ok {
		return "", false
	}
	return m.DefaultName(), true
}

func sortedMessages(msgs []Message) []Message {
	msgs = slices.Clone(msgs)
	slices.SortFunc(msgs, func(a, b Message) int { return strings.Compare(a.Key, b.Key) })
	return msgs
}

// ListFiles returns the files under dir a locale tree may hold, as
// slash-separated paths in name order, at any depth, passing over names
// that start with '.' and the folders node_modules, vendor and build
// (dependencies and build output, not the app's own files). It lists
// through os.Root: no link leads outside dir, and no link to a folder is
// followed. A tree of more than maxFiles files is refused: a listing
// never grows without bound. Detection (package locales/formats) picks
// a format and a platform's layout from it.
func ListFiles(dir string) ([]string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	defer root.Close()
	var files []string
	err = fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name == "." {
			return nil
		}
		base := d.Name()
		if strings.HasPrefix(base, ".") || d.IsDir() && skippedFolder(base) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if len(files) == maxFiles {
			return fmt.Errorf("%s holds more than %d files; point --dir (or the tree's root) at the app's locale files", dir, maxFiles)
		}
		files = append(files, name)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	return files, nil
}

// maxFiles is the most files ListFiles lists under a tree.
const maxFiles = 100_000

// skippedFolder reports whether ListFiles passes over a folder.
func skippedFolder(name string) bool {
	return name == "node_modules" || name == "vendor" || name == "build"
}

// namespaceOf returns the namespace of a multilingual file's name.
func namespaceOf(defaultName, name string) string {
	if name == defaultName {
		return keys.DefaultNamespace
	}
	return name
}

// loadMultilingual reads the <name><ext> files of m, a format whose
// files hold every language, under root into a catalog.
func loadMultilingual(root *os.Root, m Format, defaultName string, layout Layout) (*Catalog, error) {
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	cat := &Catalog{Layout: Layout{Files: cmp.Or(layout.Files, translations.SingleFile), Keys: translations.Flat, Format: m}}
	opaque := opaqueKeys(m)
	var problems []Problem
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), m.Ext())
		if !ok || e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		ns := namespaceOf(defaultName, name)
		data, err := readRegular(root, e.Name(), e.Type())
		if err != nil {
			if msg, ok := treeProblem(err); ok {
				problems = append(problems, Problem{File: e.Name(), Namespace: ns, Message: msg})
				continue
			}
			return nil, err
		}
		msgs, file, err := m.Decode(File{Namespace: ns}, data)
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
		source := file.SourceLanguage
		if cat.SourceLanguage == "" {
			cat.SourceLanguage = source
		} else if languageKey(source) != languageKey(cat.SourceLanguage) {
			problems = append(problems, Problem{File: e.Name(), Message: fmt.Sprintf("source language %s differs from %s of the other files", quote(source), quote(cat.SourceLanguage))})
		}
		texts := map[string][]Message{}
		for _, msg := range msgs {
			texts[msg.Language] = append(texts[msg.Language], msg)
		}
		for _, lang := range slices.Sorted(maps.Keys(texts)) {
			if l := cat.langs[languageKey(lang)]; l != nil && l.code != lang {
				problems = append(problems, Problem{File: e.Name(), Language: lang, Message: fmt.Sprintf("language %s is also spelled %s", quote(lang), quote(l.code))})
				continue
			}
			for _, msg := range texts[lang] {
				problems = cat.add(problems, e.Name(), lang, ns, msg.Key, msg, opaque)
			}
		}
	}
	problems = append(problems, cat.conflicts()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	return cat, nil
}

// encodeMultilingual returns the files of m, a format whose files hold
// every language, one per namespace, by path: each written over the
// file in t.
func (c *Catalog) encodeMultilingual(t *dirTree, m Format, defaultName string) (map[string][]byte, error) {
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
				byNS[ns][l.code] = append(byNS[ns][l.code], Message{Language: l.code, Key: k, Text: t.s, Untranslated: t.untranslated})
			}
		}
	}
	files := map[string][]byte{}
	var problems []Problem
	seen := newCollisions()
	owner := map[string]string{} // file -> namespace
	for _, ns := range slices.Sorted(maps.Keys(byNS)) {
		texts := byNS[ns]
		var msgs []Message
		for _, lang := range slices.Sorted(maps.Keys(texts)) {
			msgs = append(msgs, sortedMessages(texts[lang])...)
		}
		name, err := multilingualPath(m.Ext(), defaultName, ns)
		if err != nil {
			problems = append(problems, Problem{Namespace: ns, Message: err.Error() + nameHint})
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
		data, err := m.Encode(File{Namespace: ns, SourceLanguage: c.SourceLanguage, Old: old, Keys: translations.Flat}, msgs)
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

// multilingualPath returns the path of namespace ns's file of a format
// of extension ext whose files hold every language, or why Load would
// not read it back as ns: a name that is not one file name, starts
// with '.', or is the default namespace's file name.
func multilingualPath(ext, defaultName, ns string) (string, error) {
	if ns == keys.DefaultNamespace {
		return treePath(segment(defaultName + ext))
	}
	if strings.HasPrefix(ns, ".") {
		return "", fmt.Errorf("namespace %s starts with '.', which Load passes over as a hidden file", quote(ns))
	}
	if why := checkSegment(ns); why != "" {
		return "", fmt.Errorf("namespace %s cannot name a file: it %s", quote(ns), why)
	}
	return treePath(segment(ns + ext))
}
