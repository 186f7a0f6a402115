package formats

import (
	"bytes"
	"cmp"
	"fmt"
	"github.com/locsvc/partner-go/translations"
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
// is read as Rails and written back so; a new file is written with the
// root when Rails is set. Nested mappings join with dots (nav.home);
// a sequence's items are key.0, key.1, …, as i18next names an array's
// items, and are written back as a sequence. Plurals are texts as the
// platform writes them: Rails' one:/other: and i18next's key_one are
// keys like any other.
//
// Write keeps comments, the order of the keys and the quoting of texts
// that did not change; new keys are added at the end of their mapping
// in key order. Refused: values that are not strings (numbers,
// booleans, null, which a text would turn into strings), anchors and
// aliases, a key twice, more than one document.
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

// root returns the mapping of texts: under the language root when the
// file has one.
func (y YAML) root(doc *yaml.Node, lang string) (*yaml.Node, bool) {
	m := doc.Content[0]
	if len(m.Content) == 2 && lang != "" && strings.EqualFold(m.Content[0].Value, lang) && m.Content[1].Kind == yaml.MappingNode {
		return m.Content[1], true
	}
	return m, false
}

// Decode reads a YAML file of language f.Language.
func (y YAML) Decode(f locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseYAML(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	m, _ := y.root(doc, f.Language)
	var msgs []locales.Message
	var problems []locales.Problem
	nested := false
	var walk func(n *yaml.Node, prefix string, depth int)
	walk = func(n *yaml.Node, prefix string, depth int) {
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
				walk(v, join(k.Value), depth+1)
			}
		case yaml.SequenceNode:
			for i, v := range n.Content {
				walk(v, join(strconv.Itoa(i)), depth+1)
			}
		case yaml.ScalarNode:
			if n.Tag != "!!str" {
				problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: fmt.Sprintf("the value of %q is %s, not a text; quote it", prefix, strings.TrimPrefix(n.Tag, "!!"))})
				return
			}
			msgs = append(msgs, locales.Message{Key: prefix, Text: n.Value, Line: n.Line})
		case yaml.AliasNode:
			problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: "aliases (*name) are not mapped: each text is written once"})
		}
		if n.Anchor != "" {
			problems = append(problems, locales.Problem{Line: n.Line, Key: prefix, Message: "anchors (&name) are not mapped: each text is written once"})
		}
	}
	walk(m, "", 0)
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	kf := translations.Flat
	if nested {
		kf = translations.Nested
	}
	return msgs, locales.File{Keys: kf}, nil
}

// Encode writes msgs over f.Old, keeping comments and order.
func (y YAML) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	keys := f.Keys
	doc := &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	if f.Old != nil {
		var err error
		if doc, err = parseYAML(f.Old); err != nil {
			return nil, err
		}
	}
	m, hasRoot := y.root(doc, f.Language)
	if !hasRoot && y.Rails && len(doc.Content[0].Content) == 0 && f.Language != "" {
		m = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		doc.Content[0].Content = []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: f.Language}, m}
	}
	texts := map[string]string{}
	for _, msg := range msgs {
		texts[msg.Key] = msg.Text
	}
	prune(m, "", texts)
	ix := index{}
	var problems []locales.Problem
	for _, msg := range msgs {
		path := []string{msg.Key}
		if keys != translations.Flat || ix.hasPath(m, strings.Split(msg.Key, ".")) {
			path = strings.Split(msg.Key, ".")
		}
		if err := ix.set(m, path, msg.Text); err != "" {
			problems = append(problems, locales.Problem{Key: msg.Key, Message: err})
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var b bytes.Buffer
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
	return n.Kind == yaml.ScalarNode
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

// prune removes the texts under n whose keys texts lacks, and the
// mappings they leave empty.
func prune(n *yaml.Node, prefix string, texts map[string]string) bool {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch n.Kind {
	case yaml.MappingNode:
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if prune(n.Content[i+1], join(n.Content[i].Value), texts) {
				kept = append(kept, n.Content[i], n.Content[i+1])
			}
		}
		n.Content = kept
		return len(kept) > 0
	case yaml.SequenceNode:
		// Items go from the end only: an item before another keeps its index.
		for len(n.Content) > 0 && !prune(n.Content[len(n.Content)-1], join(strconv.Itoa(len(n.Content)-1)), texts) {
			n.Content = n.Content[:len(n.Content)-1]
		}
		return len(n.Content) > 0
	default:
		_, ok := texts[prefix]
		return ok
	}
}

// set sets the text at path under m, adding what is missing.
func (ix index) set(m *yaml.Node, path []string, text string) string {
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
				n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: p}, c)
				ix[n][p] = len(n.Content) - 1
			default:
				return fmt.Sprintf("cannot add %q to a sequence of %d items", p, len(n.Content))
			}
		}
		if last {
			if c.Kind != yaml.ScalarNode {
				return "the key is both a text and a parent of other keys"
			}
			if c.Value != text || c.Tag != "!!str" {
				c.Value, c.Tag, c.Style = text, "!!str", 0
			}
			return ""
		}
		if c.Kind == yaml.ScalarNode {
			return "the key is below another key's text"
		}
		n = c
	}
	return ""
}

func newNode(leaf bool) *yaml.Node {
	if leaf {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
	}
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}
