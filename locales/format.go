package locales

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales/internal/input"
)

// A Message is one text: of a locale file, its key as the file spells
// it once levels are joined with dots, and its text; of a catalog
// (Catalog.All), its language, namespace, key and text.
type Message struct {
	// Language is the message's language in a catalog and in a file of
	// every language (see Format); "" in a file of one language, which
	// File names.
	Language string
	// Namespace is the message's namespace in a catalog; "" in a file,
	// which File names.
	Namespace string
	Key       string
	Text      string
	// Line is the line of the file where the key is, from 1; 0 when not
	// known.
	Line int
	// Untranslated says the file marks the entry as not translated yet
	// (gettext's fuzzy flag or empty msgstr, XLIFF's state="new", an
	// .xcstrings "new" state, a YAML or JSON null): Text is what the file
	// holds, if anything, and a push never sends it as a translation.
	// Encode is given messages with texts the service holds, which are
	// translations: it clears the file's marker for them.
	Untranslated bool
}

// A Format reads a locale file into messages and writes messages into a
// file. JSON is the service's own format; the others are in the module
// github.com/locsvc/partner-go/locales/formats, and plug in here.
//
// Decode reads data, the content of the file f names (its Language and
// Namespace as the tree names them). It reports every problem of the
// file it can find as an *InputError whose Problems have Line and Key
// set (the caller fills in File); it never returns two messages with
// the same key in one language. It returns what the file tells of
// itself as a File: its Keys and, when the file names it, its
// SourceLanguage.
//
// Encode writes msgs, sorted by key and with unique keys, in key format
// f.Keys, over f.Old when the file exists, keeping what the messages do
// not hold (comments, metadata) where the format has it. It must be
// stable: the same messages give the same bytes. What it cannot write
// (a text it cannot express, a source text it lacks) it returns as an
// *InputError, and Write writes nothing.
//
// A format whose files each hold every language of a namespace, as
// Apple's string catalogs do, also has a method DefaultName() string,
// the file name (without extension) of the default namespace. Load and
// Write then read and write one file per namespace, <dir>/<name><ext>,
// whatever the Layout's Files, with keys whole; Decode sets each
// Message's Language and Encode is given the messages of every language,
// sorted by language and then key, with f.Language "".
//
// A format whose keys are identifiers the platform chooses (Android
// resource names, gettext msgids, Apple and Java keys, XLIFF ids) rather
// than paths of nested objects also has a method OpaqueKeys() bool that
// returns true: its keys are taken whole, "a" beside "a.b", "Loading..."
// and "%s: done" are ordinary keys, and a push creates them with
// keys.CreateOptions.Force.
type Format interface {
	// Ext is the file name extension of the format, with its dot.
	Ext() string
	Decode(f File, data []byte) ([]Message, File, error)
	Encode(f File, msgs []Message) ([]byte, error)
}

// JSON is the service's file format: one JSON object per file whose
// members are keys (translations.Flat) or nested objects whose member names join
// with dots (translations.Nested), and whose leaves are strings. A null
// leaf is a key not translated yet, as i18next writes it: Decode reads
// it as an untranslated Message with no text.
//
// Decode refuses, with the line and key of each: a member repeated in
// one object, a key repeated once levels are joined ({"a.b":…} beside
// {"a":{"b":…}}), an empty key or an empty level ("", "a..b", "a."), and
// a value that is not a string, null or an object, and bytes that are
// not UTF-8 (encoding/json would read them as U+FFFD). Empty objects
// hold no text and are passed over.
//
// Encode over a file (File.Old) keeps its bytes: indentation, member
// order, escapes, final newline. A text that changed replaces that
// string's bytes alone; a null the messages give no text for stays; a
// member the messages lack stays. A new key goes after the member
// holding the key before it in the source file (File.SourceFile, else
// File.Source), else at the end of its object, indented as the member
// it follows. A new file takes the order, indentation and final newline
// of File.SourceFile when there is one; else Encode writes members
// sorted by name (byte order), indented by two spaces, with characters
// as they are (no \u escapes for <, > or &) and a final newline. An
// untranslated message is written as null.
type JSON struct{}

// Ext returns ".json".
func (JSON) Ext() string { return ".json" }

// Decode reads a JSON locale file.
func (JSON) Decode(_ File, data []byte) ([]Message, File, error) {
	if ps := jsonNotUTF8(data, func(path []string) input.Where { return input.Where{Key: strings.Join(path, ".")} }); ps != nil {
		return nil, File{}, &InputError{Problems: ps}
	}
	msgs, keys, err := decodeJSON(data, false)
	return msgs, File{Keys: keys}, err
}

// decodeJSON reads a JSON locale file. A file the service wrote (a CDN
// file: served) may hold any key the service took, since keys of
// formats with OpaqueKeys are created with Force: a level may be empty
// ("Try again." nested is {"Try again": {"": …}}), and joining the levels
// with dots gives the key back.
func decodeJSON(data []byte, served bool) ([]Message, translations.KeyFormat, error) {
	root, err := input.ReadJSONObject(data, maxDepth)
	d := jsonDecoder{lines: input.Lines{Data: data}, seen: map[string]int{}, served: served}
	return d.decode(root, err)
}

type jsonDecoder struct {
	lines    input.Lines
	msgs     []Message
	seen     map[string]int // joined key -> line
	problems []Problem
	nested   bool
	dotted   bool
	served   bool // see decodeJSON
	// cut is ReadJSONObject's error for a file that does not read
	// whole, reported at the member it cuts.
	cut *input.JSONError
}

func (d *jsonDecoder) problem(line int, key, format string, args ...any) {
	d.problems = append(d.problems, Problem{Line: line, Key: key, Message: fmt.Sprintf(format, args...)})
}

func (d *jsonDecoder) decode(root *input.JSONObject, err error) ([]Message, translations.KeyFormat, error) {
	var je *input.JSONError
	if err != nil && !errors.As(err, &je) {
		return nil, "", &InputError{Problems: []Problem{{Line: 1, Message: "malformed JSON: " + err.Error()}}}
	}
	if je != nil && root == nil {
		if je.Kind == input.JSONNotObject {
			return nil, "", &InputError{Problems: []Problem{{Line: 1, Message: fmt.Sprintf("the file holds %s; want a JSON object of keys", je.Msg)}}}
		}
		return nil, "", d.syntax(je, "")
	}
	d.cut = je
	if n := leaves(root); n > 0 && je == nil {
		d.msgs, d.seen = make([]Message, 0, n), make(map[string]int, n)
	}
	if err := d.object(root, ""); err != nil {
		return nil, "", err
	}
	if je != nil { // more JSON after the object, or what is not JSON
		return nil, "", d.syntax(je, "")
	}
	if len(d.problems) > 0 {
		return nil, "", &InputError{Problems: d.problems}
	}
	kf := translations.KeyFormat("")
	switch {
	case d.nested:
		kf = translations.Nested
	case d.dotted:
		kf = translations.Flat
	}
	return d.msgs, kf, nil
}

// maxDepth bounds the nesting the decoder follows, so that a hostile file
// cannot exhaust the stack.
const maxDepth = 100

// object reads the members of o; prefix is its joined key ("" at the
// top). It returns the error of a file cut in o.
func (d *jsonDecoder) object(o *input.JSONObject, prefix string) error {
	top := o.Depth == 0
	// A name twice in o: looked up among the names before it, in a map
	// when o is large.
	var members map[string]bool
	if len(o.Members) > 64 {
		members = make(map[string]bool, len(o.Members))
	}
	for i, m := range o.Members {
		name := m.Name
		line := d.lines.At(int64(m.NameStart))
		key := name
		if !top {
			key = prefix + "." + name
		}
		if top && strings.Contains(name, ".") {
			d.dotted = true
		}
		dup := members[name]
		if members == nil {
			dup = slices.ContainsFunc(o.Members[:i], func(p *input.JSONMember) bool { return p.Name == name })
		}
		if dup {
			d.problem(line, key, "duplicate key %s in one object", quote(name))
		}
		if members != nil {
			members[name] = true
		}
		if m.Cut && m.Object == nil {
			switch {
			case d.cut.Kind == input.JSONTooDeep:
				return &InputError{Problems: []Problem{{Line: d.lines.At(int64(d.cut.Offset)), Key: key, Message: d.cut.Msg}}}
			case m.Value == json.Delim('['):
				d.problem(line, key, "the value of %s is an array; want a string or an object", quote(key))
				return d.syntax(d.cut, "")
			}
			return d.syntax(d.cut, key)
		}
		switch v := m.Value.(type) {
		case string:
			if !dup {
				d.leaf(key, v, line, false)
			}
		case nil:
			if !dup {
				d.leaf(key, "", line, true)
			}
		case json.Delim:
			if v == '[' {
				d.problem(line, key, "the value of %s is an array; want a string or an object", quote(key))
				continue
			}
			d.nested = true
			if err := d.object(m.Object, key); err != nil {
				return err
			}
		default:
			d.problem(line, key, "the value of %s is %s; want a string or an object", quote(key), kind(m.Value))
		}
	}
	if o.Cut {
		return d.syntax(d.cut, prefix)
	}
	return nil
}

// leaves counts the members of o and its objects that are not objects.
func leaves(o *input.JSONObject) int {
	n := 0
	for _, m := range o.Members {
		if m.Object != nil {
			n += leaves(m.Object)
		} else {
			n++
		}
	}
	return n
}

func (d *jsonDecoder) leaf(key, text string, line int, untranslated bool) {
	if msg := checkKey(key); msg != "" && !(d.served && key != "") {
		d.problem(line, key, "%s", msg)
		return
	}
	if first, ok := d.seen[key]; ok {
		d.problem(line, key, "duplicate key %s (also on line %d)", quote(key), first)
		return
	}
	d.seen[key] = line
	d.msgs = append(d.msgs, Message{Key: key, Text: text, Line: line, Untranslated: untranslated})
}

// syntax turns ReadJSONObject's error into a problem with its line,
// after the problems found before it.
func (d *jsonDecoder) syntax(je *input.JSONError, key string) error {
	msg := "malformed JSON: " + je.Error()
	if je.Kind == input.JSONMore { // the object's problems are not the point
		return &InputError{Problems: []Problem{{Line: d.lines.At(int64(je.Offset)), Message: je.Error()}}}
	}
	problems := append(d.problems, Problem{Line: d.lines.At(int64(je.Offset)), Key: key, Message: msg})
	return &InputError{Problems: problems}
}

// checkKey returns what is wrong with a joined key, or "".
func checkKey(key string) string { return input.CheckKey(key) }

func kind(tok json.Token) string { return input.Kind(tok) }

// quote quotes s for a message, cut to a readable length.
func quote(s string) string { return input.Quote(s) }

// Encode writes msgs as a JSON locale file in key format f.Keys: over
// f.Old, keeping its bytes but for the texts that changed and the
// members it adds; a new file in the order and indentation of
// f.SourceFile when there is one, else sorted.
func (JSON) Encode(f File, msgs []Message) ([]byte, error) {
	msgs = slices.Clone(msgs)
	slices.SortFunc(msgs, func(a, b Message) int { return strings.Compare(a.Key, b.Key) })
	if f.Old != nil || f.SourceFile != nil {
		return encodeJSONOver(f, msgs)
	}
	return encodeSorted(f.Keys, msgs)
}

// encodeSorted writes msgs, sorted by key, as a new file whose members
// are sorted by name.
func encodeSorted(keys translations.KeyFormat, msgs []Message) ([]byte, error) {
	var b bytes.Buffer
	if len(msgs) == 0 {
		return []byte("{}\n"), nil
	}
	if keys != translations.Nested {
		b.WriteString("{\n")
		for i, m := range msgs {
			if i > 0 && msgs[i-1].Key == m.Key {
				return nil, fmt.Errorf("locales: key %s twice", quote(m.Key))
			}
			b.WriteString("  ")
			input.WriteJSONString(&b, m.Key)
			b.WriteString(": ")
			writeText(&b, m)
			if i < len(msgs)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString("}\n")
		return b.Bytes(), nil
	}
	root, err := tree(msgs)
	if err != nil {
		return nil, err
	}
	root.write(&b, 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// node is one object of a nested file: its members in order.
type node struct {
	names    []string
	texts    []Message // for a leaf member
	children []*node   // for an object member; nil for a leaf
	index    map[string]int
}

// tree builds the nested objects of sorted msgs. Sorting by joined key
// sorts each object's members too, except that "a.b" sorts after "a-b"
// while "a" sorts before it: members are sorted again per object.
func tree(msgs []Message) (*node, error) {
	root := &node{}
	for _, m := range msgs {
		if msg := checkKey(m.Key); msg != "" {
			return nil, fmt.Errorf("locales: %s", msg)
		}
		n := root
		levels := strings.Split(m.Key, ".")
		for i, level := range levels {
			j, ok := n.index[level]
			if !ok {
				j = -1
			}
			last := i == len(levels)-1
			switch {
			case j < 0 && last:
				n.add(level, m, nil)
			case j < 0:
				c := &node{}
				n.add(level, Message{}, c)
				n = c
			case last || n.children[j] == nil:
				return nil, fmt.Errorf("locales: key %s is both a text and a parent of other keys; nested keys cannot hold it", quote(m.Key))
			default:
				n = n.children[j]
			}
		}
	}
	return root, nil
}

func (n *node) add(name string, text Message, child *node) {
	if n.index == nil {
		n.index = map[string]int{}
	}
	n.index[name] = len(n.names)
	n.names, n.texts, n.children = append(n.names, name), append(n.texts, text), append(n.children, child)
}

func (n *node) write(b *bytes.Buffer, depth int) {
	order := make([]int, len(n.names))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(n.names[x], n.names[y]) })
	b.WriteString("{\n")
	for k, i := range order {
		indent(b, depth+1)
		input.WriteJSONString(b, n.names[i])
		b.WriteString(": ")
		if c := n.children[i]; c != nil {
			c.write(b, depth+1)
		} else {
			writeText(b, n.texts[i])
		}
		if k < len(order)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	indent(b, depth)
	b.WriteByte('}')
}

func indent(b *bytes.Buffer, depth int) {
	for range depth {
		b.WriteString("  ")
	}
}

// writeText writes m's text as a JSON value: null when m is
// untranslated.
func writeText(b *bytes.Buffer, m Message) {
	if m.Untranslated {
		b.WriteString("null")
		return
	}
	input.WriteJSONString(b, m.Text)
}

// encodeJSONOver writes msgs, sorted by key, over f.Old, or as a new
// file after the example of f.SourceFile.
func encodeJSONOver(f File, msgs []Message) ([]byte, error) {
	for i := 1; i < len(msgs); i++ {
		if msgs[i-1].Key == msgs[i].Key {
			return nil, fmt.Errorf("locales: key %s twice", quote(msgs[i].Key))
		}
	}
	e := jsonEdit{nested: f.Keys == translations.Nested, paths: map[string][]*input.JSONOutMember{}}
	var src *input.JSONObject
	if f.SourceFile != nil {
		// Load read the source file: a file that does not parse is one
		// whose example is not taken.
		if _, _, err := (JSON{}).Decode(File{}, f.SourceFile); err == nil {
			src, _ = input.ParseJSONObject(f.SourceFile)
		}
	}
	var st input.JSONStyle
	switch {
	case f.Old != nil:
		// One pass over the file: Decode tells what is wrong with one
		// that does not parse or that index finds wrong.
		old, err := input.ParseJSONObject(f.Old)
		if err == nil {
			st, e.out = old.Style(f.Old), input.NewJSONOut(old)
		}
		if err != nil || !utf8.Valid(f.Old) || !e.index(e.out, "", nil) {
			if _, _, err := (JSON{}).Decode(File{}, f.Old); err != nil {
				return nil, err
			}
			return nil, errors.New("locales: the JSON file does not read") // not reached: Decode refuses it
		}
		if len(old.Members) == 0 && src != nil {
			// An empty file shows no indentation: take the source's.
			end := st.End
			st = src.Style(f.SourceFile)
			st.End = end
		}
	case src != nil:
		st, e.out = src.Style(f.SourceFile), input.NewJSONOut(nil)
	default:
		return encodeSorted(f.Keys, msgs)
	}
	// order is the source file's keys in its order, else those of
	// f.Source (sorted).
	if src != nil {
		e.order = leafKeys(src, "", nil)
	} else {
		for _, m := range f.Source {
			e.order = append(e.order, m.Key)
		}
	}
	rank := make(map[string]int, len(e.order))
	for i, k := range e.order {
		rank[k] = i
	}
	var added []Message
	for _, m := range msgs {
		path, ok := e.paths[m.Key]
		if !ok {
			added = append(added, m)
			continue
		}
		leaf := path[len(path)-1]
		switch text, isText := leaf.Old.Value.(string); {
		case m.Untranslated && leaf.Old.Value == nil:
		case m.Untranslated:
			leaf.Value = []byte("null")
		case !isText || text != m.Text:
			leaf.Value = jsonValue(m)
		}
	}
	// New keys in the source's order, then the others in key order.
	slices.SortStableFunc(added, func(a, b Message) int {
		ra, ina := rank[a.Key]
		rb, inb := rank[b.Key]
		switch {
		case ina && inb:
			return ra - rb
		case ina != inb:
			if ina {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, m := range added {
		r, ok := rank[m.Key]
		if !ok {
			r = -1
		}
		if err := e.add(m, r); err != nil {
			return nil, err
		}
	}
	return e.out.Write(f.Old, st), nil
}

// jsonEdit is a JSON file being written over.
type jsonEdit struct {
	out    *input.JSONOut
	nested bool
	// paths holds the members down to each text, by joined key.
	paths map[string][]*input.JSONOutMember
	order []string // the source's keys, in its order
}

// index records the texts of o, whose members' keys start with prefix
// and are reached through path. It returns false for what Decode
// refuses: a member twice in an object, a key twice once joined, an
// empty key or level, a value that is not a string, null or an object,
// objects nested too deep.
func (e *jsonEdit) index(o *input.JSONOut, prefix string, path []*input.JSONOutMember) bool {
	if len(path) > maxDepth {
		return false
	}
	for _, m := range o.Members() {
		if o.Member(m.Name) != m {
			return false
		}
		p := append(path[:len(path):len(path)], m)
		key := prefix + m.Name
		if m.Object != nil {
			if !e.index(m.Object, key+".", p) {
				return false
			}
			continue
		}
		if _, isText := m.Old.Value.(string); !isText && m.Old.Value != nil {
			return false
		}
		if _, dup := e.paths[key]; dup || checkKey(key) != "" {
			return false
		}
		e.paths[key] = p
	}
	return true
}

// leafKeys appends the joined keys of o's texts, in o's order.
func leafKeys(o *input.JSONObject, prefix string, keys []string) []string {
	for _, m := range o.Members {
		if m.Object != nil {
			keys = leafKeys(m.Object, prefix+m.Name+".", keys)
		} else {
			keys = append(keys, prefix+m.Name)
		}
	}
	return keys
}

// add adds m, the file lacks, after the member holding the nearest key
// before it in the source's order (r is its place there, -1 when the
// source lacks it), else at the end of its object.
func (e *jsonEdit) add(m Message, r int) error {
	if e.nested {
		if msg := checkKey(m.Key); msg != "" {
			return fmt.Errorf("locales: %s", msg)
		}
	}
	conflict := func() error {
		return fmt.Errorf("locales: key %s is both a text and a parent of other keys; nested keys cannot hold it", quote(m.Key))
	}
	o, rest := e.out, m.Key
	var path []*input.JSONOutMember
	for {
		if o.Member(rest) != nil {
			return conflict()
		}
		// An object of the file whose name starts the rest holds it.
		var next *input.JSONOutMember
		for i := 0; i < len(rest); i++ {
			if rest[i] != '.' {
				continue
			}
			c := o.Member(rest[:i])
			if c == nil {
				continue
			}
			if c.Object == nil && e.nested {
				return conflict()
			}
			if c.Object != nil {
				next = c
				break
			}
		}
		if next == nil {
			name := rest
			if e.nested {
				name, _, _ = strings.Cut(rest, ".")
			}
			next = &input.JSONOutMember{Name: name}
			if name == rest {
				next.Value = jsonValue(m)
			} else {
				next.Object = input.NewJSONOut(nil)
			}
			o.Add(e.anchor(o, len(path), r), next)
		}
		path = append(path, next)
		if next.Object == nil {
			e.paths[m.Key] = path
			return nil
		}
		o, rest = next.Object, rest[len(next.Name)+1:]
	}
}

// anchor returns the member of o, at depth d, that holds the nearest
// key written before the r-th of the source's order, or nil.
func (e *jsonEdit) anchor(o *input.JSONOut, d, r int) *input.JSONOutMember {
	for j := r - 1; j >= 0; j-- {
		p, ok := e.paths[e.order[j]]
		if ok && len(p) > d && (d == 0 || p[d-1].Object == o) {
			return p[d]
		}
	}
	return nil
}

// jsonValue returns m's text as a JSON value: null when m is
// untranslated.
func jsonValue(m Message) []byte {
	var b bytes.Buffer
	writeText(&b, m)
	return b.Bytes()
}
