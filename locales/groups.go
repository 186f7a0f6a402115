package locales

import "github.com/locsvc/partner-go/translations"

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
	// code, for what the rules do not match: {"zh-Hans": "zh-cn"}.
	Languages map[string]string `json:"languages,omitempty" yaml:"languages,omitempty"`
}
