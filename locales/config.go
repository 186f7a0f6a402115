package locales

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"

	"github.com/locsvc/partner-go/translations"
)

// ConfigFile is the name of a tree's configuration file, at its root.
const ConfigFile = "partner.yaml"

// Config is partner.yaml: what a tree's push and pull need besides a
// token, meant to be committed. It holds no secret.
type Config struct {
	// Project is "org/project".
	Project string `yaml:"project"`
	// CDN is the base URL of the project's published files, as the
	// service gives it; a pull from it needs no grant.
	CDN string `yaml:"cdn,omitempty"`
	// SourceLanguage is the project's source language.
	SourceLanguage string `yaml:"sourceLanguage"`
	// FileStructure and KeyFormat are the project's, as last seen: the
	// shape of its CDN files.
	FileStructure translations.FileStructure `yaml:"fileStructure,omitempty"`
	KeyFormat     translations.KeyFormat     `yaml:"keyFormat,omitempty"`
	// Files are the tree's file groups, each with its format by name.
	Files []Group `yaml:"files"`
}

// configFile is Config as partner.yaml spells it: each group's format
// by name.
type configFile struct {
	Project        string                     `yaml:"project"`
	CDN            string                     `yaml:"cdn,omitempty"`
	SourceLanguage string                     `yaml:"sourceLanguage"`
	FileStructure  translations.FileStructure `yaml:"fileStructure,omitempty"`
	KeyFormat      translations.KeyFormat     `yaml:"keyFormat,omitempty"`
	Files          []configGroup              `yaml:"files"`
}

// configGroup is a Group as partner.yaml spells it.
type configGroup struct {
	Format string `yaml:"format,omitempty"`
	Group  `yaml:",inline"`
}

// ReadConfig reads the configuration file name, resolving each group's
// format by its name in formats (formats.ByName in package
// locales/formats). An unknown key, format or placeholder is an error
// naming its line.
//
// The file is refused, as an *InputError listing every problem with its
// line, when it is not one YAML document, has a field Config lacks, a
// project that is not "org/project", an unknown file structure or key
// format, no file group, or a group without a translation pattern, with
// a format formats lacks, or with a pattern that holds a placeholder
// other than {language}, {locale}, {android} and {namespace} (see
// Group), a '*' that is not a folder's "**", or a path that is not
// relative to the tree's root. A source pattern holds no language; a
// translation pattern without one is only for a format whose files hold
// every language (see Format).
func ReadConfig(name string, formats map[string]Format) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	c, err := parseConfig(data, formats)
	if err != nil {
		var ie *InputError
		if errors.As(err, &ie) {
			for i := range ie.Problems {
				ie.Problems[i].File = filepath.ToSlash(name)
			}
		}
		return nil, err
	}
	return c, nil
}

// parseConfig reads partner.yaml's content (see ReadConfig).
func parseConfig(data []byte, formats map[string]Format) (*Config, error) {
	var f configFile
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&f); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &InputError{Problems: []Problem{{Message: "the file is empty; `partner init` writes one"}}}
		}
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			return nil, &InputError{Problems: []Problem{yamlProblem(err.Error())}}
		}
		var ps []Problem
		for _, e := range te.Errors {
			ps = append(ps, yamlProblem(e))
		}
		return nil, inputError(ps)
	}
	var more yaml.Node
	if err := dec.Decode(&more); !errors.Is(err, io.EOF) {
		p := Problem{Line: more.Line, Message: "the file holds more than one YAML document; keep one"}
		if err != nil {
			p = yamlProblem(err.Error())
		}
		return nil, &InputError{Problems: []Problem{p}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &InputError{Problems: []Problem{yamlProblem(err.Error())}}
	}
	lines := newConfigLines(&doc)

	var ps []Problem
	bad := func(line int, format string, args ...any) {
		ps = append(ps, Problem{Line: line, Message: fmt.Sprintf(format, args...)})
	}
	// Its values are names, codes and paths: a control character in one
	// is a mistake or a trick, and yaml.v3 cannot always write it back.
	for n := range scalars(&doc) {
		if strings.ContainsFunc(n.Value, unicode.IsControl) {
			bad(n.Line, "%s holds a control character; partner.yaml's values are names, language codes and paths", quoteName(n.Value))
		}
	}
	c := &Config{Project: f.Project, CDN: f.CDN, SourceLanguage: f.SourceLanguage, FileStructure: f.FileStructure, KeyFormat: f.KeyFormat}
	if org, project, ok := strings.Cut(f.Project, "/"); f.Project != "" && (!ok || org == "" || project == "" || strings.ContainsAny(project, "/ \t")) {
		bad(lines.top["project"], "project %s is not org/project", quoteName(f.Project))
	}
	switch f.FileStructure {
	case "", translations.SingleFile, translations.NamespacedFolders:
	default:
		bad(lines.top["fileStructure"], "fileStructure %s: want %s or %s", quoteName(string(f.FileStructure)), translations.SingleFile, translations.NamespacedFolders)
	}
	if why := checkKeyFormat(f.KeyFormat); why != "" {
		bad(lines.top["keyFormat"], "keyFormat %s", why)
	}
	if len(f.Files) == 0 {
		bad(lines.top["files"], "no file groups under files; each needs at least a translation pattern (translation: \"{language}.json\")")
	}
	for i, gf := range f.Files {
		g := gf.Group
		at := lines.group(i)
		if gf.Format != "" {
			ff, ok := formats[gf.Format]
			if !ok || ff == nil {
				bad(at("format"), "format %s: want one of %s", quoteName(gf.Format), strings.Join(slices.Sorted(maps.Keys(formats)), ", "))
			}
			g.Format = ff
		}
		if g.Translation == "" {
			bad(at(""), "file group %d has no translation pattern (translation: \"{language}.json\")", i+1)
		} else if names, why := checkPattern(g.Translation); why != "" {
			bad(at("translation"), "translation %s %s", quoteName(g.Translation), why)
		} else if !hasLanguage(names) && g.Format != nil {
			if _, ok := multilingual(g.Format); !ok {
				bad(at("translation"), "translation %s names no language ({language}, {locale} or {android}); only a format whose files hold every language (xcstrings) can do without", quoteName(g.Translation))
			}
		}
		if g.Source != "" {
			if names, why := checkPattern(g.Source); why != "" {
				bad(at("source"), "source %s %s", quoteName(g.Source), why)
			} else if hasLanguage(names) {
				bad(at("source"), "source %s names a language; it is the source language's path, which needs none (leave source out when the translation pattern gives it)", quoteName(g.Source))
			}
		}
		if why := checkKeyFormat(g.Keys); why != "" {
			bad(at("keys"), "keys %s", why)
		}
		for from, to := range g.Languages {
			if why := badLanguagesEntry(from, to); why != "" {
				bad(at("languages"), "%s", why)
			}
		}
		if len(g.Languages) == 0 {
			g.Languages = nil // "languages: {}" says nothing, as Marshal writes it
		}
		c.Files = append(c.Files, g)
	}
	if err := inputError(ps); err != nil {
		return nil, err
	}
	return c, nil
}

// scalars yields every scalar of n, keys as well as values.
func scalars(n *yaml.Node) iter.Seq[*yaml.Node] {
	return func(yield func(*yaml.Node) bool) {
		var walk func(*yaml.Node) bool
		walk = func(n *yaml.Node) bool {
			if n.Kind == yaml.ScalarNode {
				return yield(n)
			}
			for _, c := range n.Content {
				if !walk(c) {
					return false
				}
			}
			return true
		}
		walk(n)
	}
}

func checkKeyFormat(k translations.KeyFormat) string {
	switch k {
	case "", translations.Flat, translations.Nested:
		return ""
	}
	return fmt.Sprintf("%s: want %s or %s", quoteName(string(k)), translations.Flat, translations.Nested)
}

// yamlLine finds the line yaml.v3 names in its messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlTypes names this file's types as partner.yaml's parts in yaml.v3's
// messages.
var yamlTypes = strings.NewReplacer(
	"type locales.configFile", "partner.yaml",
	"locales.configFile", "partner.yaml",
	"type locales.configGroup", "a file group",
	"[]locales.configGroup", "a list of file groups",
	"locales.configGroup", "a file group",
)

// yamlProblem turns a message of yaml.v3 into a problem at its line.
func yamlProblem(msg string) Problem {
	msg = yamlTypes.Replace(msg)
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return Problem{Line: line, Message: strings.TrimPrefix(msg, m[0])}
	}
	return Problem{Message: strings.TrimPrefix(msg, "yaml: ")}
}

// configLines are the lines of partner.yaml's keys, for problems.
type configLines struct {
	top   map[string]int   // top-level key -> line
	files []map[string]int // each group's keys -> line; "" the group's own
}

func newConfigLines(doc *yaml.Node) configLines {
	l := configLines{top: map[string]int{}}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return l
	}
	root := doc.Content[0]
	for k, v := range mappingPairs(root) {
		l.top[k.Value] = k.Line
		if k.Value != "files" || v.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range v.Content {
			g := map[string]int{"": item.Line}
			for gk, gv := range mappingPairs(item) {
				g[gk.Value] = gv.Line
			}
			l.files = append(l.files, g)
		}
	}
	return l
}

// group returns the line of group i's key, or of the group when the
// key is not there.
func (l configLines) group(i int) func(key string) int {
	return func(key string) int {
		if i >= len(l.files) {
			return 0
		}
		if line, ok := l.files[i][key]; ok {
			return line
		}
		return l.files[i][""]
	}
}

// mappingPairs yields a mapping node's keys and values.
func mappingPairs(n *yaml.Node) func(yield func(k, v *yaml.Node) bool) {
	return func(yield func(k, v *yaml.Node) bool) {
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !yield(n.Content[i], n.Content[i+1]) {
				return
			}
		}
	}
}

// placeholders are the names a pattern may hold in braces.
var placeholders = []string{"language", "locale", "android", "namespace"}

// checkPattern returns the placeholder names of pattern p, or why p is
// not a pattern: an unknown or unclosed placeholder, a '*' that is not
// a folder's "**", or a path that is not relative to the tree's root
// (empty, absolute, '\', "." or ".." or an empty folder).
func checkPattern(p string) (names []string, why string) {
	if strings.HasPrefix(p, "/") || strings.Contains(p, `\`) {
		return nil, "is not a slash-separated path relative to the tree's root"
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch {
		case seg == "" || seg == "." || seg == "..":
			return nil, fmt.Sprintf("has the folder %q; a pattern is a path relative to the tree's root, without empty, . or .. parts", seg)
		case seg == "**":
			continue
		case strings.Contains(seg, "*"):
			return nil, "has a '*' that is not a folder's \"**\"; use {namespace} for a file's stem"
		}
		rest := seg
		for rest != "" {
			open := strings.IndexAny(rest, "{}")
			if open < 0 {
				break
			}
			if rest[open] == '}' {
				return nil, "has a '}' without its '{'"
			}
			end := strings.IndexByte(rest[open:], '}')
			if end < 0 {
				return nil, "has a '{' without its '}'"
			}
			name := rest[open+1 : open+end]
			if !slices.Contains(placeholders, name) {
				return nil, fmt.Sprintf("has the placeholder {%s}; want {language}, {locale}, {android} or {namespace}", strings.ToValidUTF8(name, "?"))
			}
			names = append(names, name)
			rest = rest[open+end+1:]
		}
	}
	return names, ""
}

func hasLanguage(names []string) bool {
	return slices.Contains(names, "language") || slices.Contains(names, "locale") || slices.Contains(names, "android")
}

// configHeader opens every partner.yaml Marshal writes.
const configHeader = `partner.yaml: this tree's locale files and the project they belong to,
read by "partner push", "pull" and "status" and by Go programs
(locales.ReadConfig). Written by "partner init"; edit it as you need.
It holds no secret (the token comes from the environment): commit it.`

// configComments are the comments above partner.yaml's keys.
var configComments = map[string]string{
	"project":        "The project on the service: org/project.",
	"cdn":            "The base URL of the project's published files; a pull from it needs no token.",
	"sourceLanguage": "The project's source language.",
	"fileStructure":  "The project's file structure and key format, as last seen: the shape of its CDN files.",
	"files": `The file groups. In a pattern, {language} is the language in BCP 47
(pt-BR), {locale} with '_' (pt_BR), {android} as Android's resource
folders spell it (pt-rBR, b+sr+Latn), {namespace} a file's stem and **
any folders. source is the source language's files when their path
names no language; languages maps a file's spelling to the project's.`,
}

// Marshal returns c as partner.yaml, each group's format named by its
// name in formats.
//
// It writes a commented file that ReadConfig reads back as c, and
// refuses, as ReadConfig would, a Config it would not read back: a
// group's format formats lacks is an error.
func (c *Config) Marshal(formats map[string]Format) ([]byte, error) {
	f := configFile{Project: c.Project, CDN: c.CDN, SourceLanguage: c.SourceLanguage, FileStructure: c.FileStructure, KeyFormat: c.KeyFormat}
	for i, g := range c.Files {
		name := ""
		if g.Format != nil {
			name = formatName(formats, g.Format)
			if name == "" {
				return nil, fmt.Errorf("locales: file group %d (%s): its format %T is none of the formats named %s", i+1, quoteName(g.Translation), g.Format, strings.Join(slices.Sorted(maps.Keys(formats)), ", "))
			}
		}
		f.Files = append(f.Files, configGroup{Format: name, Group: g})
	}
	var root yaml.Node
	if err := root.Encode(f); err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	for k, v := range mappingPairs(&root) {
		k.HeadComment = configComments[k.Value]
		if k.Value == "files" {
			for _, g := range v.Content {
				formatAfterPaths(g)
			}
		}
	}
	doc := &yaml.Node{Kind: yaml.DocumentNode, HeadComment: configHeader, Content: []*yaml.Node{&root}}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("locales: %w", err)
	}
	if _, err := parseConfig(b.Bytes(), formats); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// formatAfterPaths moves a group's format after its patterns, which
// say most of what it is.
func formatAfterPaths(g *yaml.Node) {
	c := g.Content
	if len(c) < 4 || c[0].Value != "format" {
		return
	}
	at := 2 // after translation
	if len(c) >= 6 && c[4].Value == "source" {
		at = 4
	}
	g.Content = slices.Concat(c[2:at+2], c[:2], c[at+2:])
}

// formatName returns f's name in formats, the first in name order when
// several name it, or "".
func formatName(formats map[string]Format, f Format) string {
	for _, name := range slices.Sorted(maps.Keys(formats)) {
		g := formats[name]
		if g == nil || reflect.TypeOf(g) != reflect.TypeOf(f) {
			continue
		}
		if reflect.DeepEqual(g, f) {
			return name
		}
	}
	return ""
}

// Layout returns the layout of c's files.
func (c *Config) Layout() Layout {
	return Layout{Keys: c.KeyFormat, Groups: c.Files, SourceLanguage: c.SourceLanguage}
}
