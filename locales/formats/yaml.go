package formats

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/locsvc/partner-go/locales"
)

// YAML is YAML locale files, read and written with go.yaml.in/yaml/v3,
// the YAML organisation's kept continuation of gopkg.in/yaml.v3 (its
// node API keeps comments, order and lines). Extension is ".yml" when
// empty.
//
// Rails files have the language as their one root key (en: …);
// i18next's have none. A file whose one root key is the file's language
// is read as Rails and written back so. Nested mappings join with dots
// (nav.home); a sequence's items are key.0, key.1, …, as i18next names
// an array's items. A null (a key with no value, ~ or null) is a text
// not translated yet: a message with Untranslated set, written back as
// a null while the service has no text for it.
//
// A mapping below the top whose keys are all CLDR plural categories
// (zero, one, two, few, many, other) and that has other is, as in Rails,
// one plural text, not a parent of keys: the message of the mapping's
// key, in ICU MessageFormat (see package locales, "Plural forms"), its
// branches the texts as they are (%{count} stays) in the file's order:
//
//	entry_name:
//	  one: entry            {count, plural, one {entry} other {entries}}
//	  other: entries
//
// A text that is exactly an ICU plural of count is written as such a
// mapping (a plural with =N cases is refused); a plain text that reads
// as one is refused on reading. i18next's plurals (key_one, key_other)
// are keys like any other.
//
// Written over a file, only the bytes of the texts that changed change:
// the --- marker, comments, quoting, folded and literal blocks,
// indentation, order and the final line end stay. A changed text is
// written in its old style when that style can hold it, else
// double-quoted. A new key goes after the key before it in the source
// file's order (File.SourceFile, else File.Source), else at the end of
// its mapping; a key only the file has stays. The few files this cannot
// write into (a key added to a flow mapping or a sequence, anchors and
// tags, a UTF-16 file or one with a byte order mark) are written with
// the library's encoder, which keeps comments and order only.
//
// A new file takes the source file's shape: its language root, spelled
// as the file's language (fr:, pt-BR:), and its --- marker when it has
// them (without a source file, a root when Rails is set), its order and
// its sequences. Texts and keys that YAML 1.1 readers such as Ruby's
// Psych would read as something else than a string (y, yes, on, off,
// null, ~ in any case, numbers, dates, :symbols) are double-quoted:
// "on": "ON".
//
// Refused: values that are not strings or nulls (numbers, booleans,
// which a text would turn into strings), anchors and aliases, a key
// twice, more than one document.
type YAML struct {
	Rails     bool
	Extension string
}

// Ext returns y.Extension, or ".yml".
func (y YAML) Ext() string { return cmp.Or(y.Extension, ".yml") }

func parseYAML(data []byte) (*yaml.Node, error) {
	// The library reads UTF-16 with a byte order mark, and refuses bytes
	// that are not UTF-8 without saying where.
	if !bytes.HasPrefix(data, []byte{0xFE, 0xFF}) && !bytes.HasPrefix(data, []byte{0xFF, 0xFE}) && !utf8.Valid(data) {
		return nil, firstNotUTF8(data)
	}
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}, nil
		}
		return nil, lineError(yamlErrLine(err), "malformed YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		return nil, lineError(more.Line, "more than one YAML document")
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, lineError(1, "the file is not a mapping of keys")
	}
	return &doc, nil
}

func yamlErrLine(err error) int {
	var n int
	if _, e := fmt.Sscanf(err.Error(), "yaml: line %d:", &n); e == nil {
		return n
	}
	return 0
}

// sameLanguage reports whether a Rails root key names lang, whatever
// its case and separator (pt-BR, pt_br).
func sameLanguage(key, lang string) bool {
	return lang != "" && strings.EqualFold(strings.ReplaceAll(key, "_", "-"), strings.ReplaceAll(lang, "_", "-"))
}

// root returns the mapping of texts: under the language root when the
// file has one (a root with no value, as a Rails file with no text yet
// has, is an empty mapping that is not in doc).
func (y YAML) root(doc *yaml.Node, lang string) (*yaml.Node, bool) {
	m := doc.Content[0]
	if len(m.Content) == 2 && sameLanguage(m.Content[0].Value, lang) {
		switch v := m.Content[1]; {
		case v.Kind == yaml.MappingNode:
			return v, true
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
			return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, true
		}
	}
	return m, false
}

// Decode reads a YAML file of language f.Language. A null (a key with
// no value, ~ or null) is a text not translated yet: a message with
// Untranslated set and no text.
func (y YAML) Decode(f locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	return y.messages(f, doc)
}

// yamlPlural returns the plural text n is when it is a mapping of CLDR
// plural categories to strings that has other, its cases in the file's
// order.
func yamlPlural(n *yaml.Node) (pluralText, bool) {
	if n.Kind != yaml.MappingNode || len(n.Content) < 2 || n.Anchor != "" {
		return pluralText{}, false
	}
	p := pluralText{arg: pluralArg, cases: make([]pluralCase, 0, len(n.Content)/2)}
	other := false
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" || k.Anchor != "" || !slices.Contains(pluralCategories, k.Value) ||
			v.Kind != yaml.ScalarNode || v.Tag != "!!str" || v.Anchor != "" {
			return pluralText{}, false
		}
		if _, twice := p.text(k.Value); twice {
			return pluralText{}, false
		}
		other = other || k.Value == "other"
		p.cases = append(p.cases, pluralCase{sel: k.Value, text: v.Value})
	}
	return p, other
}

// isYAMLPlural reports whether n is a mapping yamlPlural reads as a
// plural text.
func isYAMLPlural(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	_, ok := yamlPlural(n)
	return ok
}

// yamlPluralText returns the plural a text is written as, or false for a
// plain text.
func yamlPluralText(m locales.Message) (pluralText, bool) {
	if null(m) || !strings.HasPrefix(strings.TrimLeft(m.Text, " \t\n\r"), "{") {
		return pluralText{}, false
	}
	return countPlural(m.Text)
}

// sameYAMLText reports whether texts a and b are written alike: equal,
// or the same plural but for spacing.
func sameYAMLText(a, b string) bool {
	if a == b {
		return true
	}
	p, ok := yamlPluralText(locales.Message{Text: a})
	q, ok2 := yamlPluralText(locales.Message{Text: b})
	return ok && ok2 && slices.Equal(p.cases, q.cases)
}

// messages returns the texts of doc, a file of language f.Language.
func (y YAML) messages(f locales.File, doc *yaml.Node) ([]locales.Message, locales.File, error) {
	m, _ := y.root(doc, f.Language)
	var msgs []locales.Message
	var problems []locales.Problem
	nested := false
	seenKeys := map[string]int{}
	text := func(key string, line int) bool {
		if first, ok := seenKeys[key]; ok {
			problems = append(problems, locales.Problem{Line: line, Key: key, Message: fmt.Sprintf("key %q twice once levels are joined (also on line %d)", key, first)})
			return false
		}
		seenKeys[key] = line
		return true
	}
	var walk func(n *yaml.Node, prefix string, depth, line int)
	walk = func(n *yaml.Node, prefix string, depth, line int) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		if depth > 100 {
			problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: "nested more than 100 deep"})
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			if p, ok := yamlPlural(n); ok && depth > 0 {
				// Its branches were keys below the top, unless it is a
				// flat file's dotted key.
				nested = nested || depth > 1 || !strings.Contains(prefix, ".")
				if text(prefix, line) {
					msgs = append(msgs, locales.Message{Key: prefix, Text: p.format(false), Line: line})
				}
				return
			}
			seen := map[string]bool{}
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				if k.Kind != yaml.ScalarNode || k.Value == "<<" {
					problems = append(problems, locales.Problem{Line: k.Line, Key: prefix, Message: "a key that is not a plain name (merge keys and complex keys are not mapped)"})
					continue
				}
				if k.Value == "" || strings.HasPrefix(k.Value, ".") || strings.HasSuffix(k.Value, ".") || strings.Contains(k.Value, "..") || depth > 0 && strings.Contains(k.Value, ".") {
					problems = append(problems, locales.Problem{Line: k.Line, Key: join(k.Value), Message: fmt.Sprintf("key %q: an empty name, or a dotted name in a nested mapping, would not be written back as read", k.Value)})
					continue
				}
				if seen[k.Value] {
					problems = append(problems, locales.Problem{Line: k.Line, Key: join(k.Value), Message: fmt.Sprintf("key %q twice in one mapping", k.Value)})
					continue
				}
				seen[k.Value] = true
				if depth > 0 {
					nested = true
				}
				walk(v, join(k.Value), depth+1, k.Line)
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				walk(v, join(strconv.Itoa(i)), depth+1, v.Line)
			}
		case yaml.ScalarNode:
			if !text(prefix, n.Line) {
				return
			}
			switch n.Tag {
			case "!!str":
				if _, ok := yamlPluralText(locales.Message{Text: n.Value}); ok {
					problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: looksPlural(n.Value, "a mapping of plural categories (one:, other:)")})
					return
				}
				msgs = append(msgs, locales.Message{Key: prefix, Text: n.Value, Line: n.Line})
			case "!!null":
				msgs = append(msgs, locales.Message{Key: prefix, Line: n.Line, Untranslated: true})
			default:
				problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: fmt.Sprintf("the value of %q is %s, not a text; quote it", prefix, strings.TrimPrefix(n.Tag, "!!"))})
			}
		case yaml.AliasNode:
			problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: "aliases (*name) are not mapped: each text is written once"})
		}
		if n.Anchor != "" {
			problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: "anchors (&name) are not mapped: each text is written once"})
		}
	}
	walk(m, "", 0, m.Line)
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	kf := translations.Flat
	if nested {
		kf = translations.Nested
	}
	return msgs, locales.File{Keys: kf}, nil
}

// Encode writes msgs over f.Old, changing only the texts that changed
// and adding new keys, or as a new file in the shape of f.SourceFile.
func (y YAML) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	var problems []locales.Problem
	for _, m := range msgs {
		p, ok := yamlPluralText(m)
		if !ok {
			continue
		}
		for _, c := range p.cases {
			if !slices.Contains(pluralCategories, c.sel) {
				problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("Rails plurals have no case %s, only CLDR's categories", c.sel)})
				break
			}
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	switch {
	case f.Old != nil && len(msgs) == 0 && len(bytes.TrimSpace(f.Old)) == 0:
		return f.Old, nil
	case f.Old == nil || len(bytes.TrimSpace(f.Old)) == 0:
		return y.fresh(f, msgs, nil)
	}
	out, ok, err := y.patch(f, msgs)
	if err != nil || ok {
		return out, err
	}
	return y.rewrite(f, msgs)
}

// null reports whether m is written as a null: an untranslated entry
// with no text.
func null(m locales.Message) bool { return m.Untranslated && m.Text == "" }

// rewrite writes msgs over f.Old with the library's encoder, which
// keeps comments and order but not the file's spacing or quoting: for
// the files patch cannot write into.
func (y YAML) rewrite(f locales.File, msgs []locales.Message) ([]byte, error) {
	doc, err := parseYAML(f.Old)
	if err != nil {
		return nil, err
	}
	m, hasRoot := y.root(doc, f.Language)
	top := doc.Content[0]
	switch {
	case hasRoot && top.Content[1] != m:
		top.Content[1] = m
	case !hasRoot && len(top.Content) == 0 && f.Language != "" && y.railsRoot(f):
		m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		top.Content = []*yaml.Node{yamlString(f.Language), m}
	}
	ix := index{}
	var problems []locales.Problem
	leaves := newYAMLPatch(nil).leaves(m) // the file's texts by joined key, dotted keys too
	for _, msg := range msgs {
		if leaf, ok := leaves[msg.Key]; ok {
			if err := setText(leaf.node, msg); err != "" {
				problems = append(problems, locales.Problem{Key: msg.Key, Message: err})
			}
			continue
		}
		path := []string{msg.Key}
		if f.Keys != translations.Flat || ix.hasPath(m, strings.Split(msg.Key, ".")) {
			path = strings.Split(msg.Key, ".")
		}
		if err := ix.set(m, path, msg); err != "" {
			problems = append(problems, locales.Problem{Key: msg.Key, Message: err})
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if back, _, err := y.messages(f, doc); err == nil {
		if problems := merged(back, msgs); len(problems) > 0 {
			return nil, &locales.InputError{Problems: problems}
		}
	}
	flowNulls(doc, false)
	var b bytes.Buffer
	if yamlMarker(f.Old) {
		b.WriteString("---\n")
	}
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// flowNulls spells the empty nulls in flow collections under n ~, which
// the library's encoder would write as an empty quoted string.
func flowNulls(n *yaml.Node, flow bool) {
	flow = flow || n.Style&yaml.FlowStyle != 0
	for _, c := range n.Content {
		if flow && c.Kind == yaml.ScalarNode && c.Tag == "!!null" && c.Value == "" {
			c.Value = "~"
		}
		flowNulls(c, flow)
	}
}

// mergedProblem is what is wrong with keys of plural categories that
// would be written under one mapping with other.
const mergedProblem = "the mapping of this key holds only plural categories (one, other, …) with other, so it would read back as one plural text; send that key's plural as one ICU text instead"

// merged returns a problem for each text of msgs that back, the texts of
// a file written, lacks: keys of plural categories that make a mapping
// one plural text.
func merged(back, msgs []locales.Message) []locales.Problem {
	keys := make(map[string]bool, len(back))
	for _, b := range back {
		keys[b.Key] = true
	}
	var problems []locales.Problem
	for _, m := range msgs {
		if !keys[m.Key] {
			problems = append(problems, locales.Problem{Key: m.Key, Message: mergedProblem})
		}
	}
	return problems
}

// yamlString returns a scalar node of s, quoted when a YAML 1.1 reader
// would read it as something else.
func yamlString(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yamlWordy(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// index finds a mapping's values by key in constant time, so that
// writing n keys is linear in n: it holds, per mapping looked in, the
// position in Content of each key's first value.
type index map[*yaml.Node]map[string]int

// hasPath reports whether the nested path leads to a scalar in m.
func (ix index) hasPath(m *yaml.Node, path []string) bool {
	n := m
	for _, p := range path {
		c := ix.child(n, p)
		if c == nil {
			return false
		}
		n = c
	}
	return n.Kind == yaml.ScalarNode || isYAMLPlural(n)
}

func (ix index) child(n *yaml.Node, name string) *yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		values := ix[n]
		if values == nil {
			values = make(map[string]int, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				if _, ok := values[n.Content[i].Value]; !ok {
					values[n.Content[i].Value] = i + 1
				}
			}
			ix[n] = values
		}
		if i, ok := values[name]; ok {
			return n.Content[i]
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(name); err == nil && i >= 0 && i < len(n.Content) && strconv.Itoa(i) == name {
			return n.Content[i]
		}
	}
	return nil
}

// set sets the text of msg at path under m, adding what is missing.
func (ix index) set(m *yaml.Node, path []string, msg locales.Message) string {
	n := m
	for i, p := range path {
		last := i == len(path)-1
		c := ix.child(n, p)
		if c == nil {
			switch {
			case n.Kind == yaml.SequenceNode && p == strconv.Itoa(len(n.Content)):
				c = newNode(last)
				n.Content = append(n.Content, c)
			case n.Kind == yaml.MappingNode:
				c = newNode(last)
				n.Content = append(n.Content, yamlString(p), c)
				ix[n][p] = len(n.Content) - 1
			default:
				return fmt.Sprintf("cannot add %q to a sequence of %d items", p, len(n.Content))
			}
		}
		if last {
			return setText(c, msg)
		}
		if c.Kind == yaml.ScalarNode || isYAMLPlural(c) {
			return "the key is below another key's text"
		}
		n = c
	}
	return ""
}

// setText sets the text of c, a scalar or a mapping of plural
// categories, to msg's.
func setText(c *yaml.Node, msg locales.Message) string {
	old, wasPlural := yamlPlural(c)
	if c.Kind != yaml.ScalarNode && !wasPlural {
		return "the key is both a text and a parent of other keys"
	}
	p, plural := yamlPluralText(msg)
	switch {
	case plural && wasPlural && slices.Equal(p.cases, old.cases):
	case plural:
		c.Kind, c.Tag, c.Style, c.Value, c.Content = yaml.MappingNode, "!!map", 0, "", nil
		for _, pc := range p.cases {
			c.Content = append(c.Content, yamlString(pc.sel), yamlString(pc.text))
		}
	case null(msg):
		c.Kind, c.Value, c.Tag, c.Style, c.Content = yaml.ScalarNode, "", "!!null", 0, nil
	case wasPlural || c.Value != msg.Text || c.Tag != "!!str":
		c.Kind, c.Value, c.Tag, c.Style, c.Content = yaml.ScalarNode, msg.Text, "!!str", yamlString(msg.Text).Style, nil
	}
	return ""
}

func newNode(leaf bool) *yaml.Node {
	if leaf {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// yamlSource is what a file takes from the source language's file.
type yamlSource struct {
	root   bool            // texts under a language root (Rails)
	marker bool            // a --- document marker
	keys   []string        // the texts' keys in the file's order
	place  map[string]int  // each key's place in keys
	seqs   map[string]bool // the keys of sequences
}

// source returns what f.SourceFile holds; without it, the keys of
// f.Source in the order of their lines, and a root when y.Rails is set.
func (y YAML) source(f locales.File) yamlSource {
	src := yamlSource{place: map[string]int{}, seqs: map[string]bool{}}
	doc, err := parseYAML(f.SourceFile)
	if f.SourceFile == nil || err != nil {
		src.root = y.Rails
		src.keys = linesOrder(f.Source)
	} else {
		m := doc.Content[0]
		if len(m.Content) == 2 && m.Content[1].Kind == yaml.MappingNode && sameLanguage(m.Content[0].Value, cmp.Or(f.SourceLanguage, m.Content[0].Value)) &&
			(f.SourceLanguage != "" || y.Rails) {
			src.root, m = true, m.Content[1]
		}
		src.marker = yamlMarker(f.SourceFile)
		var walk func(n *yaml.Node, prefix string, depth int)
		walk = func(n *yaml.Node, prefix string, depth int) {
			join := func(k string) string {
				if prefix == "" {
					return k
				}
				return prefix + "." + k
			}
			switch {
			case depth > 100:
			case n.Kind == yaml.MappingNode && depth > 0 && isYAMLPlural(n):
				src.keys = append(src.keys, prefix)
			case n.Kind == yaml.MappingNode:
				for i := 0; i+1 < len(n.Content); i += 2 {
					walk(n.Content[i+1], join(n.Content[i].Value), depth+1)
				}
			case n.Kind == yaml.SequenceNode:
				src.seqs[prefix] = true
				for i, v := range n.Content {
					walk(v, join(strconv.Itoa(i)), depth+1)
				}
			case n.Kind == yaml.ScalarNode:
				src.keys = append(src.keys, prefix)
			}
		}
		walk(m, "", 0)
	}
	for i, k := range src.keys {
		if _, ok := src.place[k]; !ok {
			src.place[k] = i
		}
	}
	return src
}

// railsRoot reports whether a new file of f has a language root.
func (y YAML) railsRoot(f locales.File) bool { return y.source(f).root }

// yamlMarker reports whether data begins, after comments, with a ---
// document marker.
func yamlMarker(data []byte) bool {
	for line := range bytes.Lines(data) {
		t := bytes.TrimSpace(line)
		switch {
		case len(t) == 0 || t[0] == '#' || t[0] == '%':
			continue
		case bytes.Equal(t, []byte("---")) || bytes.HasPrefix(t, []byte("--- ")):
			return true
		}
		return false
	}
	return false
}

// A yamlEntry is a key of a file being written: a text, a mapping or a
// sequence of texts.
type yamlEntry struct {
	name  string
	msg   *locales.Message // nil for a mapping or sequence
	kids  []*yamlEntry
	index map[string]*yamlEntry
	place int  // the smallest place in the source file of its texts
	seq   bool // written as a sequence
}

// maxYAMLKey bounds a mapping key as written: YAML's readers (yaml.v3,
// libyaml for Ruby) refuse an implicit key longer than 1,024
// characters, and a character is at least a byte.
const maxYAMLKey = 1000

// add adds msg at path under e, placed at place; it returns what is
// wrong, or "".
func (e *yamlEntry) add(path []string, msg *locales.Message, place int) string {
	for i, name := range path {
		e.place = min(e.place, place)
		c := e.index[name]
		last := i == len(path)-1
		switch {
		case c == nil:
			if n := len(appendYAMLKey(nil, name)); n > maxYAMLKey {
				return fmt.Sprintf("a level of the key is %d bytes long as YAML writes it; a YAML reader takes a key of at most 1,024 characters, and this writer at most %d bytes", n, maxYAMLKey)
			}
			c = &yamlEntry{name: name, place: place}
			if e.index == nil {
				e.index = map[string]*yamlEntry{}
			}
			e.index[name] = c
			e.kids = append(e.kids, c)
			if last {
				c.msg = msg
				return ""
			}
		case last || c.msg != nil:
			return "the key is both a text and a parent of other keys"
		}
		e = c
	}
	return ""
}

// arrange orders e's keys as the source file does, and makes the
// mappings that are sequences there, and whose keys are 0, 1, …,
// sequences.
func (e *yamlEntry) arrange(src yamlSource, key string) {
	slices.SortStableFunc(e.kids, func(a, b *yamlEntry) int { return cmp.Or(a.place-b.place, strings.Compare(a.name, b.name)) })
	if src.seqs[key] {
		e.seq = true
		for i := range e.kids {
			if e.index[strconv.Itoa(i)] == nil || e.kids[i].msg == nil {
				e.seq = false
			}
		}
		if e.seq {
			for i := range e.kids {
				e.kids[i] = e.index[strconv.Itoa(i)]
			}
		}
	}
	for _, k := range e.kids {
		if key == "" {
			k.arrange(src, k.name)
		} else {
			k.arrange(src, key+"."+k.name)
		}
	}
}

// write writes e's keys at indent, nested ones unit further.
func (e *yamlEntry) write(b []byte, indent, unit int) []byte {
	for _, k := range e.kids {
		b = append(b, strings.Repeat(" ", indent)...)
		if e.seq {
			b = append(b, '-')
		} else {
			b = appendYAMLKey(b, k.name)
			b = append(b, ':')
		}
		if k.msg == nil {
			b = append(b, '\n')
			b = k.write(b, indent+unit, unit)
			continue
		}
		if p, ok := yamlPluralText(*k.msg); ok {
			b = appendYAMLPlural(b, p, indent+unit)
		} else if !null(*k.msg) {
			b = append(b, ' ')
			b = appendYAMLText(b, k.msg.Text)
		}
		b = append(b, '\n')
	}
	return b
}

// appendYAMLPlural appends the cases of p as the lines of a mapping
// indented by indent, each after a line end.
func appendYAMLPlural(b []byte, p pluralText, indent int) []byte {
	for _, c := range p.cases {
		b = append(b, '\n')
		b = append(b, strings.Repeat(" ", indent)...)
		b = append(b, c.sel...)
		b = append(b, ": "...)
		b = appendYAMLText(b, c.text)
	}
	return b
}

// merged appends to out the keys below e that would be written as a
// mapping of plural categories with other, which reads back as one
// plural text.
func (e *yamlEntry) merged(key string, out []string) []string {
	plural := key != "" && e.msg == nil && !e.seq && len(e.kids) > 0 && e.index["other"] != nil
	for _, k := range e.kids {
		if plural = plural && slices.Contains(pluralCategories, k.name) && k.msg != nil && !null(*k.msg); plural {
			_, nested := yamlPluralText(*k.msg)
			plural = !nested
		}
	}
	for _, k := range e.kids {
		if !plural && k.msg != nil {
			continue // a text
		}
		kk := k.name
		if key != "" {
			kk = key + "." + k.name
		}
		if plural {
			out = append(out, kk)
		} else {
			out = k.merged(kk, out)
		}
	}
	return out
}

// yamlPath returns the levels of key: one, for a flat file.
func yamlPath(key string, keys translations.KeyFormat) []string {
	if keys == translations.Flat {
		return []string{key}
	}
	return strings.Split(key, ".")
}

// fresh writes msgs as a new file: in the source file's order, under a
// language root and after a --- marker when the source file has them.
func (y YAML) fresh(f locales.File, msgs []locales.Message, prefix []byte) ([]byte, error) {
	src := y.source(f)
	tree := &yamlEntry{}
	var problems []locales.Problem
	for i, m := range msgs {
		place, ok := src.place[m.Key]
		if !ok {
			place = len(src.keys) + i
		}
		if p := tree.add(yamlPath(m.Key, f.Keys), &msgs[i], place); p != "" {
			problems = append(problems, locales.Problem{Key: m.Key, Message: p})
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	tree.arrange(src, "")
	for _, k := range tree.merged("", nil) {
		problems = append(problems, locales.Problem{Key: k, Message: mergedProblem})
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	b := prefix
	if prefix == nil && src.marker {
		b = append(b, "---\n"...)
	}
	indent := 0
	if src.root && f.Language != "" {
		b = appendYAMLKey(b, f.Language)
		b = append(b, ":\n"...)
		indent = 2
	} else if len(tree.kids) == 0 {
		return append(b, "{}\n"...), nil
	}
	return tree.write(b, indent, 2), nil
}

// Psych, Ruby's YAML reader (YAML 1.1), reads a plain scalar as a
// string when it matches psychString, else as what the others match
// (its ScalarScanner.tokenize).
var (
	psychString = regexp.MustCompile(`^[^\d.:-]?[\p{L}\p{M}_\s!@#$%^&*(){}<>|/\\~;=]+`)
	psychOther  = []*regexp.Regexp{
		regexp.MustCompile(`^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`), // time
		regexp.MustCompile(`^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`),                                                    // date
		regexp.MustCompile(`(?i)^[-+]?\.inf$|^\.nan$`),
		regexp.MustCompile(`^:.`), // symbol
		regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}(\.[0-9_]*)?$`),                                                  // base 60
		regexp.MustCompile(`^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`),                                                    // float
		regexp.MustCompile(`^(?:[-+]?0b[0-1_,]+|[-+]?0[0-7_,]+|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)|[-+]?0x[0-9a-fA-F_,]+)$`), // int
	}
)

// yamlWordy reports whether a YAML reader would read s, written plain,
// as something else than the string s: a YAML 1.1 word (y, yes, on,
// off, null, ~, … in any case), a number, a date, a Ruby symbol, or
// what go.yaml.in/yaml/v3 reads as another type.
func yamlWordy(s string) bool {
	if s == "" {
		return true
	}
	switch strings.ToLower(s) {
	case "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "<<", "=":
		return true
	}
	if psychString.MatchString(s) {
		return false // Psych's words are handled above
	}
	for _, re := range psychOther {
		if re.MatchString(s) {
			return true
		}
	}
	if strings.IndexByte("0123456789+-.", s[0]) >= 0 {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(s), &n); err != nil || len(n.Content) != 1 || n.Content[0].Tag != "!!str" {
			return true
		}
	}
	return false
}

// yamlPrintable reports whether r may be written as it is in a quoted
// or block scalar (YAML's printable characters, without the line
// breaks of YAML 1.1 and the byte order mark).
func yamlPrintable(r rune) bool {
	switch {
	case r == '\t' || r >= 0x20 && r <= 0x7E:
		return true
	case r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF || r == utf8.RuneError:
		return false
	}
	return r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// plainOK reports whether s can be written as a plain scalar, in a flow
// collection when flow is set, and read back as s by every reader.
func plainOK(s string, flow bool) bool {
	if s == "" || strings.IndexByte("-?:,[]{}#&*!|>'\"%@` \t", s[0]) >= 0 || strings.ContainsAny(s[len(s)-1:], " \t:") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.ContainsAny(s, "\t\n\r") || flow && strings.ContainsAny(s, ",[]{}") {
		return false
	}
	for _, r := range s {
		if !yamlPrintable(r) {
			return false
		}
	}
	return !yamlWordy(s)
}

// appendYAMLKey appends a mapping key, plain when it can be.
func appendYAMLKey(b []byte, s string) []byte {
	if plainOK(s, false) {
		return append(b, s...)
	}
	return appendDoubleQuoted(b, s)
}

// appendYAMLText appends a new text: plain when it can be, else double
// quoted.
func appendYAMLText(b []byte, s string) []byte {
	return appendYAMLKey(b, s)
}

// appendDoubleQuoted appends s as a double-quoted scalar, which holds
// any text.
func appendDoubleQuoted(b []byte, s string) []byte {
	b = append(b, '"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\r':
			b = append(b, `\r`...)
		case yamlPrintable(r):
			b = utf8.AppendRune(b, r)
		case r <= 0xFF:
			b = fmt.Appendf(b, `\x%02X`, r)
		case r <= 0xFFFF:
			b = fmt.Appendf(b, `\u%04X`, r)
		default:
			b = fmt.Appendf(b, `\U%08X`, r)
		}
	}
	return append(b, '"')
}

// singleOK reports whether s can be written single-quoted: one line of
// printable characters.
func singleOK(s string) bool {
	for _, r := range s {
		if r == '\n' || !yamlPrintable(r) {
			return false
		}
	}
	return true
}

// blockOK reports whether s can be written as a literal block (or a
// folded one, when folded is set) whose indentation the reader finds
// by itself, and with at most one final line break.
func blockOK(s string, folded bool) bool {
	body := strings.TrimSuffix(s, "\n")
	if body == "" || strings.HasSuffix(body, "\n") {
		return false
	}
	for _, line := range strings.Split(body, "\n") {
		if line != "" && strings.TrimLeft(line, " \t") == "" {
			return false // blanks alone on a line
		}
		if folded && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			return false // a more indented line of a folded block keeps its breaks
		}
		for _, r := range line {
			if r == '\r' || !yamlPrintable(r) {
				return false
			}
		}
	}
	first := strings.TrimLeft(body, "\n")
	return !strings.HasPrefix(first, " ") && !strings.HasPrefix(first, "\t")
}

// appendBlock appends s as a literal or folded block scalar whose
// lines are indented by indent, without a final line end (blockOK(s)
// must hold).
func appendBlock(b []byte, s string, folded bool, indent int) []byte {
	if folded {
		b = append(b, '>')
	} else {
		b = append(b, '|')
	}
	if !strings.HasSuffix(s, "\n") {
		b = append(b, '-')
	}
	body := strings.TrimSuffix(s, "\n")
	pad := strings.Repeat(" ", indent)
	writeLine := func(line string) {
		b = append(b, '\n')
		if line != "" {
			b = append(b, pad...)
			b = append(b, line...)
		}
	}
	lines := strings.Split(body, "\n")
	for i, line := range lines {
		if folded && i > 0 && lines[i-1] != "" {
			// A line break after a line folds to a space: the first break
			// of the text after a line is an empty line.
			b = append(b, '\n')
		}
		if !folded {
			writeLine(line)
			continue
		}
		for _, part := range foldLine(line, max(80-indent, 20)) {
			writeLine(part)
		}
	}
	return b
}

// foldLine cuts line at single spaces into parts of about width bytes,
// which a folded block joins again with spaces.
func foldLine(line string, width int) []string {
	var parts []string
	for len(line) > width {
		cut := -1
		for i := 1; i < len(line)-1; i++ {
			if line[i] == ' ' && line[i-1] != ' ' && line[i+1] != ' ' {
				if i > width && cut > 0 {
					break
				}
				cut = i
			}
		}
		if cut < 0 {
			break
		}
		parts = append(parts, line[:cut])
		line = line[cut+1:]
	}
	return append(parts, line)
}

// yamlPatch writes into a file's bytes: the edits replace the bytes of
// changed scalars and insert new keys, the rest stays.
type yamlPatch struct {
	data    []byte
	lines   []int // the offset of each line's start
	unit    int   // the file's indentation step
	members map[*yaml.Node]map[string]int
	edits   []yamlEdit
}

// A yamlEdit replaces data[start:end] with text; at one place, edits
// of deeper mappings come first, then by place.
type yamlEdit struct {
	start, end, depth, place int
	text                     []byte
}

// A yamlLeaf is a text of the file, a scalar or a mapping of plural
// categories: where it is and the mapping members that lead to it.
type yamlLeaf struct {
	node   *yaml.Node
	key    *yaml.Node // its key, nil for a sequence's item
	indent int        // of the collection that holds it
	flow   bool       // in a flow collection
	chain  []yamlRef
}

// A yamlRef is member i of mapping m (its key is m.Content[2i]).
type yamlRef struct {
	m *yaml.Node
	i int
}

// errYAMLFallback says patch cannot write into this file.
var errYAMLFallback = errors.New("cannot patch")

func newYAMLPatch(data []byte) *yamlPatch {
	p := &yamlPatch{data: data, lines: []int{0}, unit: 0, members: map[*yaml.Node]map[string]int{}}
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\n':
			p.lines = append(p.lines, i+1)
		case data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

// offset returns the byte offset of a node's line and column (counted
// in characters, from 1).
func (p *yamlPatch) offset(n *yaml.Node) (int, error) {
	if n.Line < 1 || n.Line > len(p.lines) {
		return 0, errYAMLFallback
	}
	i := p.lines[n.Line-1]
	for c := 1; c < n.Column; c++ {
		if i >= len(p.data) || p.data[i] == '\n' || p.data[i] == '\r' {
			return 0, errYAMLFallback
		}
		_, size := utf8.DecodeRune(p.data[i:])
		i += size
	}
	return i, nil
}

// member returns the index of the member name of mapping m.
func (p *yamlPatch) member(m *yaml.Node, name string) (int, bool) {
	idx := p.members[m]
	if idx == nil {
		idx = make(map[string]int, len(m.Content)/2)
		for i := 0; i+1 < len(m.Content); i += 2 {
			if _, ok := idx[m.Content[i].Value]; !ok {
				idx[m.Content[i].Value] = i / 2
			}
		}
		p.members[m] = idx
	}
	i, ok := idx[name]
	return i, ok
}

// leaves returns the texts under n by joined key.
func (p *yamlPatch) leaves(n *yaml.Node) map[string]*yamlLeaf {
	out := map[string]*yamlLeaf{}
	var walk func(n, key *yaml.Node, prefix string, indent int, flow bool, chain []yamlRef)
	walk = func(n, key *yaml.Node, prefix string, indent int, flow bool, chain []yamlRef) {
		join := func(k string) string {
			if prefix == "" {
				return k
			}
			return prefix + "." + k
		}
		leaf := func() { out[prefix] = &yamlLeaf{node: n, key: key, indent: indent, flow: flow, chain: chain} }
		switch n.Kind {
		case yaml.MappingNode:
			if prefix != "" && isYAMLPlural(n) {
				leaf()
				return
			}
			flow = flow || n.Style&yaml.FlowStyle != 0
			for i := 0; i+1 < len(n.Content); i += 2 {
				v := n.Content[i+1]
				if p.unit == 0 && !flow && v.Kind == yaml.MappingNode && v.Style&yaml.FlowStyle == 0 && v.Column > n.Column {
					p.unit = v.Column - n.Column
				}
				walk(v, n.Content[i], join(n.Content[i].Value), n.Column-1, flow, append(slices.Clip(chain), yamlRef{n, i / 2}))
			}
		case yaml.SequenceNode:
			flow = flow || n.Style&yaml.FlowStyle != 0
			for i, v := range n.Content {
				walk(v, nil, join(strconv.Itoa(i)), n.Column-1, flow, chain)
			}
		case yaml.ScalarNode:
			flow = flow || n.Style&yaml.FlowStyle != 0
			leaf()
		}
	}
	walk(n, nil, "", -1, false, nil)
	return out
}

// scalar returns where the bytes of scalar n are, in a collection
// indented by indent.
func (p *yamlPatch) scalar(n *yaml.Node, indent int, flow bool) (int, int, error) {
	start, err := p.offset(n)
	if err != nil || n.Style&yaml.TaggedStyle != 0 || n.Anchor != "" {
		return 0, 0, errYAMLFallback
	}
	data := p.data
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0:
		if at(start) != '"' {
			return 0, 0, errYAMLFallback
		}
		for i := start + 1; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				return start, i + 1, nil
			}
		}
	case n.Style&yaml.SingleQuotedStyle != 0:
		if at(start) != '\'' {
			return 0, 0, errYAMLFallback
		}
		for i := start + 1; i < len(data); i++ {
			if data[i] == '\'' {
				if at(i+1) == '\'' {
					i++
					continue
				}
				return start, i + 1, nil
			}
		}
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return p.block(n, start)
	case n.Value == "" && n.Tag == "!!null":
		return start, start, nil
	default:
		return p.plain(n, start, indent, flow)
	}
	return 0, 0, errYAMLFallback
}

// lineOf returns the end of the line that holds offset i (before its
// line break) and the start of the next line.
func (p *yamlPatch) lineOf(i int) (int, int) {
	for j := i; j < len(p.data); j++ {
		switch p.data[j] {
		case '\n':
			return j, j + 1
		case '\r':
			if j+1 < len(p.data) && p.data[j+1] == '\n' {
				return j, j + 2
			}
			return j, j + 1
		}
	}
	return len(p.data), len(p.data)
}

// block returns the bytes of a block scalar: its header and its lines
// of content, without the blank lines after them.
func (p *yamlPatch) block(n *yaml.Node, start int) (int, int, error) {
	end, next := p.lineOf(start)
	header := p.data[start:end]
	if i := bytes.IndexByte(header, '#'); i >= 0 {
		header = header[:i]
	}
	header = bytes.TrimSpace(header)
	if bytes.ContainsAny(header, "+123456789") || header[0] != '|' && header[0] != '>' {
		return 0, 0, errYAMLFallback // kept final breaks, or an indentation indicator
	}
	content := -1
	for next < len(p.data) {
		lineEnd, after := p.lineOf(next)
		line := p.data[next:lineEnd]
		text := bytes.TrimLeft(line, " ")
		indent := len(line) - len(text)
		switch {
		case len(bytes.TrimSpace(line)) == 0:
		case content < 0 && indent > 0:
			content = indent
			end = lineEnd
		case content > 0 && indent >= content:
			end = lineEnd
		default:
			next = len(p.data)
			continue
		}
		next = after
	}
	return start, end, nil
}

// plain returns the bytes of a plain scalar, on one or more lines.
func (p *yamlPatch) plain(n *yaml.Node, start, indent int, flow bool) (int, int, error) {
	data := p.data
	lineRest := func(i int) int { // the end of plain text from i on its line
		end := i
		for j := i; j < len(data) && data[j] != '\n' && data[j] != '\r'; j++ {
			c := data[j]
			if c == '#' && j > i && (data[j-1] == ' ' || data[j-1] == '\t') {
				break
			}
			if flow && strings.IndexByte(",[]{}", c) >= 0 {
				break
			}
			if c == ':' && (j+1 == len(data) || strings.IndexByte(" \t\r\n", data[j+1]) >= 0 || flow && strings.IndexByte(",[]{}", data[j+1]) >= 0) {
				break
			}
			if c != ' ' && c != '\t' {
				end = j + 1
			}
		}
		return end
	}
	end := lineRest(start)
	folded := string(data[start:end])
	if folded == n.Value {
		return start, end, nil
	}
	if flow {
		return 0, 0, errYAMLFallback
	}
	// The text goes on over lines indented more than its collection.
	_, next := p.lineOf(start)
	breaks := 0
	for next < len(data) {
		lineEnd, after := p.lineOf(next)
		line := data[next:lineEnd]
		text := bytes.TrimLeft(line, " \t")
		switch {
		case len(text) == 0:
			breaks++
		case text[0] == '#' || len(line)-len(bytes.TrimLeft(line, " ")) <= indent:
			next = len(data)
			continue
		default:
			from := next + len(line) - len(text)
			e := lineRest(from)
			if breaks == 0 {
				folded += " "
			} else {
				folded += strings.Repeat("\n", breaks)
			}
			folded += string(data[from:e])
			breaks, end = 0, e
		}
		next = after
	}
	if folded != n.Value {
		return 0, 0, errYAMLFallback
	}
	return start, end, nil
}

// valueEnd returns the end of the bytes of n, a mapping's value.
func (p *yamlPatch) valueEnd(n *yaml.Node, indent int, flow bool) (int, error) {
	switch {
	case n.Kind == yaml.ScalarNode:
		_, end, err := p.scalar(n, indent, flow)
		return end, err
	case n.Kind == yaml.AliasNode || n.Anchor != "" || n.Style&yaml.TaggedStyle != 0:
	case n.Style&yaml.FlowStyle != 0:
		start, err := p.offset(n)
		if err != nil {
			return 0, err
		}
		depth := 0
		for i := start; i < len(p.data); i++ {
			switch p.data[i] {
			case '[', '{':
				depth++
			case ']', '}':
				if depth--; depth == 0 {
					return i + 1, nil
				}
			case '"', '\'':
				return 0, errYAMLFallback // quotes may hold brackets
			}
		}
	case n.Kind == yaml.MappingNode && len(n.Content) > 0:
		return p.valueEnd(n.Content[len(n.Content)-1], n.Column-1, false)
	case n.Kind == yaml.SequenceNode && len(n.Content) > 0:
		return p.valueEnd(n.Content[len(n.Content)-1], n.Column-1, false)
	}
	return 0, errYAMLFallback
}

// changed returns the bytes of leaf's new text, in its old style when
// that style can hold it, else double-quoted, and where they go.
func (p *yamlPatch) changed(leaf *yamlLeaf, msg locales.Message) error {
	n := leaf.node
	start, end, err := p.scalar(n, leaf.indent, leaf.flow)
	if err != nil {
		return err
	}
	var b []byte
	switch {
	case null(msg):
		if !leaf.flow && start > 0 && p.data[start-1] == ' ' {
			start--
		}
	case n.Style&yaml.SingleQuotedStyle != 0 && singleOK(msg.Text):
		b = append(b, '\'')
		b = append(b, strings.ReplaceAll(msg.Text, "'", "''")...)
		b = append(b, '\'')
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 && blockOK(msg.Text, n.Style&yaml.FoldedStyle != 0):
		indent := leaf.indent + cmp.Or(p.unit, 2)
		for _, next := p.lineOf(start); next < end; { // the old content's indentation
			lineEnd, after := p.lineOf(next)
			if line := p.data[next:lineEnd]; len(bytes.TrimSpace(line)) > 0 {
				indent = len(line) - len(bytes.TrimLeft(line, " "))
				break
			}
			next = after
		}
		b = appendBlock(b, msg.Text, n.Style&yaml.FoldedStyle != 0, indent)
	case n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && plainOK(msg.Text, leaf.flow):
		b = append(b, msg.Text...)
	default:
		b = appendDoubleQuoted(b, msg.Text)
	}
	if start == end && len(b) > 0 && start > 0 && p.data[start-1] != ' ' && p.data[start-1] != '\t' {
		b = append([]byte{' '}, b...) // after "key:" with no value
	}
	p.edits = append(p.edits, yamlEdit{start: start, end: end, text: b})
	return nil
}

// text writes the text of msg at leaf. A text that keeps its shape (a
// plain text, or a plural with the same cases in the same order)
// changes only the scalars that changed; another is written anew after
// the leaf's key.
func (p *yamlPatch) text(leaf *yamlLeaf, msg locales.Message) error {
	n := leaf.node
	plural, isPlural := yamlPluralText(msg)
	if n.Kind == yaml.ScalarNode && !isPlural {
		switch {
		case null(msg) && n.Tag == "!!null":
		case !null(msg) && n.Tag == "!!str" && n.Value == msg.Text:
		default:
			return p.changed(leaf, msg)
		}
		return nil
	}
	if old, ok := yamlPlural(n); ok && isPlural && slices.EqualFunc(old.cases, plural.cases, func(a, b pluralCase) bool { return a.sel == b.sel }) {
		for i, c := range plural.cases {
			if c.text != old.cases[i].text {
				branch := &yamlLeaf{node: n.Content[2*i+1], key: n.Content[2*i], indent: n.Column - 1, flow: leaf.flow || n.Style&yaml.FlowStyle != 0}
				if err := p.changed(branch, locales.Message{Text: c.text}); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return p.reshape(leaf, msg)
}

// reshape writes the text of msg after the key of leaf, in place of its
// old value: a plural written as a mapping of its cases, a plain text as
// a scalar.
func (p *yamlPatch) reshape(leaf *yamlLeaf, msg locales.Message) error {
	n := leaf.node
	if leaf.key == nil || leaf.flow {
		return errYAMLFallback
	}
	_, start, err := p.scalar(leaf.key, leaf.indent, false)
	if err != nil {
		return err
	}
	for start < len(p.data) && (p.data[start] == ' ' || p.data[start] == '\t') {
		start++
	}
	if start == len(p.data) || p.data[start] != ':' {
		return errYAMLFallback
	}
	start++
	end := start
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == "":
	case n.Kind == yaml.ScalarNode:
		_, end, err = p.scalar(n, leaf.indent, false)
	default:
		end, err = p.valueEnd(n, leaf.indent, false)
	}
	if err != nil || end < start {
		return errYAMLFallback
	}
	var b []byte
	if plural, ok := yamlPluralText(msg); ok {
		indent := leaf.indent + cmp.Or(p.unit, 2)
		if n.Kind == yaml.MappingNode && n.Style&yaml.FlowStyle == 0 {
			indent = n.Column - 1 // the old mapping's
		}
		b = appendYAMLPlural(b, plural, indent)
	} else if !null(msg) {
		b = append(b, ' ')
		b = appendYAMLText(b, msg.Text)
	}
	p.edits = append(p.edits, yamlEdit{start: start, end: end, text: b})
	return nil
}

// patch writes msgs into f.Old's bytes. It reports false when it cannot
// (a flow mapping or a sequence to add to, anchors, tags, a file that
// does not read as texts), for rewrite to write the file.
func (y YAML) patch(f locales.File, msgs []locales.Message) ([]byte, bool, error) {
	data := f.Old
	if bytes.HasPrefix(data, []byte(utf8BOM)) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, false, nil
	}
	doc, err := parseYAML(data)
	if err != nil {
		return nil, true, err
	}
	old, _, err := y.messages(f, doc)
	if err != nil {
		return nil, false, nil
	}
	m, hasRoot := y.root(doc, f.Language)
	top := doc.Content[0]
	switch {
	case len(top.Content) == 0 && len(msgs) == 0:
		return data, true, nil // comments only, or {}
	case len(top.Content) == 0 && top.Style&yaml.FlowStyle != 0 || hasRoot && top.Content[1] != m:
		return nil, false, nil
	case len(top.Content) == 0:
		// Comments only: the texts go after them.
		prefix := slices.Clip(data)
		if !bytes.HasSuffix(data, []byte("\n")) {
			prefix = append(prefix, '\n')
		}
		out, err := y.fresh(f, msgs, prefix)
		return out, true, err
	}
	p := newYAMLPatch(data)
	leaves := p.leaves(m)
	src := y.source(f)
	want := make(map[string]locales.Message, len(old)+len(msgs))
	for _, o := range old {
		want[o.Key] = o
	}
	// Changed texts, and where new keys go: the deepest mapping of their
	// path that the file has.
	parents := map[*yaml.Node]*yamlEntry{}
	depths := map[*yaml.Node]int{}
	newChains := map[string][]yamlRef{}
	groupOf := map[string]*yamlEntry{} // new key -> the new member of its mapping
	groupIn := map[*yamlEntry]*yaml.Node{}
	var problems []locales.Problem
	for i, msg := range msgs {
		want[msg.Key] = msg
		if leaf, ok := leaves[msg.Key]; ok {
			if err := p.text(leaf, msg); err != nil {
				return nil, false, nil
			}
			continue
		}
		path := yamlPath(msg.Key, f.Keys)
		n, depth := m, 0
		var chain []yamlRef
		for j, name := range path {
			last := j == len(path)-1
			var c *yaml.Node
			switch n.Kind {
			case yaml.MappingNode:
				if n.Style&yaml.FlowStyle != 0 {
					return nil, false, nil
				}
				k, ok := p.member(n, name)
				if !ok {
					if parents[n] == nil {
						parents[n], depths[n] = &yamlEntry{}, depth
					}
					place, ok := src.place[msg.Key]
					if !ok {
						place = len(src.keys) + i
					}
					if problem := parents[n].add(path[j:], &msgs[i], place); problem != "" {
						problems = append(problems, locales.Problem{Key: msg.Key, Message: problem})
					}
					g := parents[n].index[name]
					newChains[msg.Key], groupOf[msg.Key], groupIn[g] = chain, g, n
					break
				}
				chain = append(chain, yamlRef{n, k})
				c = n.Content[2*k+1]
			case yaml.SequenceNode:
				k, err := strconv.Atoi(name)
				if err != nil || k < 0 || k >= len(n.Content) {
					return nil, false, nil // added to a sequence
				}
				c = n.Content[k]
			}
			if c == nil {
				break
			}
			if last || c.Kind == yaml.ScalarNode || isYAMLPlural(c) {
				problem := "the key is below another key's text"
				if last {
					problem = "the key is both a text and a parent of other keys"
				}
				problems = append(problems, locales.Problem{Key: msg.Key, Message: problem})
				break
			}
			n, depth = c, depth+1
		}
	}
	if len(problems) > 0 {
		return nil, true, &locales.InputError{Problems: problems}
	}
	// A new key goes after the member before it in the source file's
	// order, else at the end of its mapping.
	last := map[*yaml.Node]int{}
	after := map[*yamlEntry]int{}
	for _, k := range src.keys {
		chain := newChains[k]
		if leaf, ok := leaves[k]; ok {
			chain = leaf.chain
		}
		for _, r := range chain {
			last[r.m] = r.i
		}
		if g := groupOf[k]; g != nil {
			if _, placed := after[g]; !placed {
				after[g] = -1
				if i, ok := last[groupIn[g]]; ok {
					after[g] = i
				}
			}
		}
	}
	for n, parent := range parents {
		parent.arrange(yamlSource{}, "")
		for _, g := range parent.kids {
			i, ok := after[g]
			if !ok || i < 0 {
				i = len(n.Content)/2 - 1
			}
			end, err := p.valueEnd(n.Content[2*i+1], n.Column-1, false)
			if err != nil {
				return nil, false, nil
			}
			_, pos := p.lineOf(end)
			text := (&yamlEntry{kids: []*yamlEntry{g}}).write(nil, n.Column-1, cmp.Or(p.unit, 2))
			p.edits = append(p.edits, yamlEdit{start: pos, end: pos, depth: depths[n], place: g.place, text: text})
		}
	}
	if len(p.edits) == 0 {
		return data, true, nil
	}
	if bytes.Contains(data, []byte("\r\n")) {
		for i := range p.edits { // the file's line ends
			p.edits[i].text = bytes.ReplaceAll(p.edits[i].text, []byte("\n"), []byte("\r\n"))
		}
	}
	out := p.apply()
	// What was written must read as meant; else the library writes it.
	back, _, err := y.Decode(f, out)
	if err != nil || len(back) != len(want) {
		return nil, false, nil
	}
	for _, b := range back {
		w, ok := want[b.Key]
		if !ok || !sameYAMLText(b.Text, w.Text) || b.Untranslated != null(w) {
			return nil, false, nil
		}
	}
	return out, true, nil
}

// apply returns the file with p's edits.
func (p *yamlPatch) apply() []byte {
	slices.SortStableFunc(p.edits, func(a, b yamlEdit) int {
		return cmp.Or(a.start-b.start, b.depth-a.depth, a.place-b.place)
	})
	out := make([]byte, 0, len(p.data)+64*len(p.edits))
	at, newline := 0, false
	for _, e := range p.edits {
		out = append(out, p.data[at:e.start]...)
		if e.start == len(p.data) && e.start == e.end && len(p.data) > 0 && !newline && !bytes.HasSuffix(p.data, []byte("\n")) && !bytes.HasSuffix(p.data, []byte("\r")) {
			out, newline = append(out, '\n'), true // the file had no final line end, and keeps none
		}
		out = append(out, e.text...)
		at = e.end
	}
	out = append(out, p.data[at:]...)
	if newline && bytes.HasSuffix(out, []byte("\n")) {
		out = out[:len(out)-1]
	}
	return out
}
