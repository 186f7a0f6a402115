package locales

import (
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/locales/internal/input"

	"fmt"
	"strings"

	"github.com/locsvc/partner-go/translations"
)

// Layout is how a locale tree is laid out: files, key format and file
// format. The service's projects say their files and keys (fileStructure
// and keyFormat); when they say nothing, translations.SingleFile and
// translations.Nested are the service's defaults.
type Layout struct {
	// Files says how a tree splits a language's texts into files.
	// translations.SingleFile is one file per language, <dir>/<lang>.json
	// (on the service's CDN, <lang>/translations.json): the default
	// namespace's keys sit at the file's top level; a key of another
	// namespace ns is written "ns:key", i18next's namespace separator,
	// before the key format applies (nested, "common:nav.home" is
	// {"common:nav": {"home": …}}), so a default-namespace key cannot
	// have a ':' before its first '.' there.
	// translations.NamespacedFolders is a folder per language with a file
	// per namespace, <dir>/<lang>/<namespace>.json; the default namespace
	// is default.json.
	Files translations.FileStructure `json:"files"`
	// Keys says how keys are written in a file: translations.Flat writes
	// each key whole ({"nav.home": "Home"}), translations.Nested a level
	// per dot ({"nav": {"home": "Home"}}; a key that is also the parent of
	// others, "a" beside "a.b", cannot be written nested).
	Keys translations.KeyFormat `json:"keys"`
	// Format reads and writes the files; nil is JSON.
	Format Format `json:"-"`
	// Groups, when set, say where the tree's files are by path patterns
	// (see Group), in place of Files and Format: a platform's own layout
	// (Android's res/values-<lang>/strings.xml, Apple's <lang>.lproj,
	// gettext's po/<lang>.po). Keys is then the default of a group that
	// says none. Package locales/formats has each platform's groups
	// (formats.Presets) and finds them in a tree (formats.Detect).
	Groups []Group `json:"groups,omitempty"`
	// SourceLanguage is the project's source language as the service
	// spells it, for a group whose Source path names no language: Load
	// reads that file as this language. Load copies it to
	// Catalog.SourceLanguage.
	SourceLanguage string `json:"sourceLanguage,omitempty"`
}

func (l Layout) format() Format {
	if l.Format == nil {
		return JSON{}
	}
	return l.Format
}

// orDefault fills in the service's defaults.
func (l Layout) orDefault() Layout {
	if l.Files == "" {
		l.Files = translations.SingleFile
	}
	if l.Keys == "" {
		l.Keys = translations.Nested
	}
	return l
}

func (l Layout) check() error {
	switch l.Files {
	case "", translations.SingleFile, translations.NamespacedFolders:
	default:
		return fmt.Errorf("locales: unknown file structure %q; want %q or %q", l.Files, translations.SingleFile, translations.NamespacedFolders)
	}
	switch l.Keys {
	case "", translations.Flat, translations.Nested:
	default:
		return fmt.Errorf("locales: unknown key format %q; want %q or %q", l.Keys, translations.Flat, translations.Nested)
	}
	return nil
}

// filePath returns the path of the file of language lang and namespace
// ns, relative to the tree's root, with extension ext, or why Load
// would not read it back as the file of lang and ns (a name that is not
// a language code, a namespace that is not one file name, starts with
// '.' or is not a file name at all).
func (l Layout) filePath(lang, ns, ext string) (string, error) {
	if !validLanguage(lang) {
		return "", fmt.Errorf("language %s is not a language code (2 to 35 letters, digits, '-' or '_'), so it cannot name a file", quote(lang))
	}
	if l.Files != translations.NamespacedFolders {
		return treePath(segment(lang + ext))
	}
	if strings.HasPrefix(ns, ".") {
		return "", fmt.Errorf("namespace %s starts with '.', which Load passes over as a hidden file", quote(ns))
	}
	if why := checkSegment(ns); why != "" {
		return "", fmt.Errorf("namespace %s cannot name a file: it %s", quote(ns), why)
	}
	return treePath(segment(lang), segment(ns+ext))
}

// singleFileNamespace returns why namespace ns (not the default one)
// cannot be written in a single file, where its keys are "ns:key", or
// "": a '.' or ':' in it would be read back as another namespace.
func singleFileNamespace(ns string) string {
	if strings.ContainsAny(ns, nsSeparator+".") {
		return fmt.Sprintf("namespace %s holds '.' or ':', so its keys (%s) would be read back from a single file as another namespace's; use translations.NamespacedFolders", quote(ns), quote(ns+nsSeparator+"key"))
	}
	return ""
}

// nsSeparator separates a namespace from its key in a single file.
const nsSeparator = ":"

// splitNamespace reads a single file's key: "ns:key" is key in namespace
// ns when ns has no dot; anything else is in the default namespace.
func splitNamespace(key string) (ns, rest string) {
	first, _, _ := strings.Cut(key, ".")
	if ns, _, ok := strings.Cut(first, nsSeparator); ok && ns != "" {
		return ns, strings.TrimPrefix(key, ns+nsSeparator)
	}
	return keys.DefaultNamespace, key
}

// joinNamespace writes key of namespace ns in a single file.
func joinNamespace(ns, key string) string {
	if ns == keys.DefaultNamespace {
		return key
	}
	return ns + nsSeparator + key
}

// languageKey returns the form of a language code the service compares:
// the tools lowercase codes, so "pt-BR" on disk is the project's
// "pt-br".
func languageKey(code string) string { return input.LanguageKey(code) }

// languageFileName returns how a language code the service gave is
// spelled in a new file name: the BCP 47 convention, language lowercase,
// a four-letter script capitalised, a region uppercase ("pt-br" is
// "pt-BR", "zh-hant-tw" is "zh-Hant-TW").
func languageFileName(code string) string {
	parts := strings.FieldsFunc(code, func(r rune) bool { return r == '-' || r == '_' })
	if len(parts) == 0 || len(parts) != strings.Count(code, "-")+strings.Count(code, "_")+1 {
		return code
	}
	sep := byte('-')
	if strings.Contains(code, "_") && !strings.Contains(code, "-") {
		sep = '_'
	}
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteByte(sep)
		}
		switch {
		case i == 0:
			b.WriteString(strings.ToLower(p))
		case len(p) == 4 && isAlpha(p):
			b.WriteString(strings.ToUpper(p[:1]) + strings.ToLower(p[1:]))
		case len(p) == 2 && isAlpha(p), len(p) == 3 && input.IsDigits(p):
			b.WriteString(strings.ToUpper(p))
		default:
			b.WriteString(strings.ToLower(p))
		}
	}
	return b.String()
}

func isAlpha(s string) bool {
	for _, c := range []byte(s) {
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') {
			return false
		}
	}
	return true
}

// validLanguage reports whether a file or folder name can be a language
// code: 2 to 35 letters, digits, '-' or '_', starting with a letter.
func validLanguage(name string) bool {
	if len(name) < 2 || len(name) > 35 || !isAlpha(name[:1]) {
		return false
	}
	for _, c := range []byte(name) {
		if !isAlpha(string(c)) && !input.IsDigits(string(c)) && c != '-' && c != '_' {
			return false
		}
	}
	return true
}
