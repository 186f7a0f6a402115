package formats

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// Android is Android's string resources (res/values-<lang>/strings.xml):
// a <resources> element of <string>, <plurals> and <string-array>.
//
//   - <string name="k"> is key k.
//   - <plurals name="k"> is key k, an ICU plural of count (see the
//     package's Plural forms): {count, plural, one {…} other {…}}.
//   - <string-array name="k"> is keys k.0, k.1, … in order, as i18next
//     names the items of an array.
//
// Texts are the elements' content as written (see the XML formats'
// rule): Android's escapes (\', \n) and markup stay as they are. Write
// keeps the file's other resources (<color>, <dimen>, …), its comments,
// its blank lines between entries and each entry's attributes
// (translatable="false", tools:…), and adds new entries at the end in
// key order. Refused: a name used twice, a <string> whose name would
// read as an array item (ending in .N), a plain text that reads as a
// plural of count, anything but <item>s in <plurals> and
// <string-array>, and on writing, a key that is no resource name, a
// plural case Android lacks (=N) and text that is not XML content.
type Android struct{}

// Ext returns ".xml".
func (Android) Ext() string { return ".xml" }

type androidEntry struct {
	kind  string // "string", "plurals", "string-array"; "" for raw XML kept as it is
	raw   string // a comment or another resource, as written
	name  string
	start string   // the start tag, as written
	texts []string // string: one; plurals, string-array: per item
	items []string // plurals: the items' start tags
	blank bool     // a blank line before it
	line  int
}

type androidDoc struct {
	head, tail string // before <resources>'s content (its start tag included), after its end
	entries    []androidEntry
}

func parseAndroid(data []byte) (*androidDoc, error) {
	// encoding/xml refuses bytes that are not UTF-8 in names and texts
	// but not in comments; the file is refused whole, with its lines.
	if ps := notUTF8(data, nil); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	s := newRawScanner(data)
	doc := &androidDoc{}
	var problems []locales.Problem
	// Up to <resources>.
	for {
		tok, err := s.next()
		if err == io.EOF {
			return nil, lineError(1, "no <resources> element")
		}
		if err != nil {
			return nil, err
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != "resources" {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(s.line(), "", "the root element is <%s>; want <resources>", se.Name.Local)}}
			}
			doc.head = string(data[:s.dec.InputOffset()])
			break
		}
	}
	blank := false
	for {
		tok, err := s.next()
		if err != nil {
			if err == io.EOF {
				err = s.syntax(io.ErrUnexpectedEOF)
			}
			return nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			doc.tail = string(data[s.before:])
			if _, err := s.rest(); err != nil {
				return nil, err
			}
			if len(problems) > 0 {
				return nil, &locales.InputError{Problems: problems}
			}
			return doc, nil
		case xml.CharData:
			if strings.Count(string(t), "\n") >= 2 {
				blank = true
			}
			if strings.TrimSpace(string(t)) != "" {
				problems = append(problems, problemf(s.line(), "", "text %s directly in <resources>", input.Quote(strings.TrimSpace(string(t)))))
			}
			continue
		case xml.Comment:
			doc.entries = append(doc.entries, androidEntry{raw: string(data[s.before:s.dec.InputOffset()]), blank: blank})
		case xml.StartElement:
			e, ps, err := s.androidEntry(t, data)
			if err != nil {
				return nil, err
			}
			problems = append(problems, ps...)
			e.blank = blank
			doc.entries = append(doc.entries, e)
		default: // processing instructions, directives
			doc.entries = append(doc.entries, androidEntry{raw: string(data[s.before:s.dec.InputOffset()]), blank: blank})
		}
		blank = false
	}
}

// rest reads past the end of the document.
func (s *rawScanner) rest() (int, error) {
	n := 0
	for {
		_, err := s.next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

func (s *rawScanner) androidEntry(se xml.StartElement, data []byte) (androidEntry, []locales.Problem, error) {
	start := s.before
	e := androidEntry{start: s.startTag(), line: s.line(), kind: se.Name.Local}
	e.name, _ = attr(se, "name")
	if se.Name.Space != "" || (e.kind != "string" && e.kind != "plurals" && e.kind != "string-array") {
		e.kind = ""
		if _, err := s.inner(); err != nil {
			return e, nil, err
		}
		e.raw = string(data[start:s.dec.InputOffset()])
		return e, nil, nil
	}
	var problems []locales.Problem
	if e.name == "" {
		problems = append(problems, problemf(e.line, "", "<%s> without a name", e.kind))
	}
	if e.kind == "string" {
		text, err := s.inner()
		if err != nil {
			return e, nil, err
		}
		e.texts = []string{text}
		return e, problems, nil
	}
	for {
		tok, err := s.next()
		if err == io.EOF {
			return e, nil, s.syntax(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return e, nil, err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			return e, problems, nil
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				problems = append(problems, problemf(s.line(), e.name, "text outside <item> in <%s name=%q>", e.kind, e.name))
			}
		case xml.StartElement:
			line := s.line()
			tag := s.startTag()
			if t.Name.Local != "item" || t.Name.Space != "" {
				problems = append(problems, problemf(line, e.name, "<%s> in <%s name=%q>: only <item>s are kept", t.Name.Local, e.kind, e.name))
				if _, err := s.inner(); err != nil {
					return e, nil, err
				}
				continue
			}
			text, err := s.inner()
			if err != nil {
				return e, nil, err
			}
			if e.kind == "plurals" {
				q, _ := attr(t, "quantity")
				if !slices.Contains(pluralCategories, q) {
					problems = append(problems, problemf(line, e.name, "<item quantity=%q> in <plurals name=%q>: want zero, one, two, few, many or other", q, e.name))
					continue
				}
				if slices.ContainsFunc(e.items, func(it string) bool { return quantityOf(it) == q }) {
					problems = append(problems, problemf(line, e.name, "quantity %q twice in <plurals name=%q>", q, e.name))
					continue
				}
			}
			e.items = append(e.items, tag)
			e.texts = append(e.texts, text)
		default:
			problems = append(problems, problemf(s.line(), e.name, "a comment or instruction in <%s name=%q> cannot be kept", e.kind, e.name))
		}
	}
}

// quantityOf returns the quantity attribute of an <item> start tag.
func quantityOf(tag string) string {
	d := xml.NewDecoder(strings.NewReader(tag))
	tok, err := d.RawToken()
	if err != nil {
		return ""
	}
	se, _ := tok.(xml.StartElement)
	q, _ := attr(se, "quantity")
	return q
}

// messages returns the doc's texts as messages.
func (doc *androidDoc) messages() ([]locales.Message, []locales.Problem) {
	var msgs []locales.Message
	var problems []locales.Problem
	seen := map[string]int{}
	add := func(key, text string, line int) {
		if first, dup := seen[key]; dup {
			problems = append(problems, problemf(line, key, "name %s twice (also on line %d)", input.Quote(key), first))
			return
		}
		seen[key] = line
		msgs = append(msgs, locales.Message{Key: key, Text: text, Line: line})
	}
	for _, e := range doc.entries {
		switch e.kind {
		case "string":
			if _, i := arrayItem(e.name); i >= 0 {
				problems = append(problems, problemf(e.line, e.name, "<string name=%q> would be written back as an item of a <string-array>", e.name))
				continue
			}
			if p := looksPlural(e.texts[0], "<plurals>"); p != "" {
				problems = append(problems, problemf(e.line, e.name, "%s", p))
				continue
			}
			add(e.name, e.texts[0], e.line)
		case "plurals":
			p := pluralText{arg: pluralArg}
			for i, it := range e.items {
				p.cases = append(p.cases, pluralCase{sel: quantityOf(it), text: e.texts[i]})
			}
			if _, ok := p.text("other"); !ok {
				problems = append(problems, problemf(e.line, e.name, "<plurals name=%q> has no quantity \"other\"", e.name))
				continue
			}
			add(e.name, p.format(false), e.line)
		case "string-array":
			for i, t := range e.texts {
				add(e.name+"."+strconv.Itoa(i), t, e.line)
			}
		}
	}
	return msgs, problems
}

// arrayItem splits an array item's key "name.N".
func arrayItem(key string) (name string, index int) {
	i := strings.LastIndexByte(key, '.')
	if i <= 0 || i == len(key)-1 || !input.IsDigits(key[i+1:]) || (len(key) > i+2 && key[i+1] == '0') {
		return "", -1
	}
	n, err := strconv.Atoi(key[i+1:])
	if err != nil {
		return "", -1
	}
	return key[:i], n
}

// Decode reads a strings.xml file.
func (Android) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseAndroid(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs, problems := doc.messages()
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

func validAndroidName(s string) bool {
	for i, c := range []byte(s) {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '.') {
			continue
		}
		return false
	}
	return s != ""
}

// Encode writes msgs over f.Old, keeping its other resources,
// comments and attributes.
func (Android) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	doc := &androidDoc{head: "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>", tail: "</resources>\n"}
	if f.Old != nil {
		var err error
		if doc, err = parseAndroid(f.Old); err != nil {
			return nil, err
		}
	}
	var problems []locales.Problem
	texts := map[string]string{}
	arrays := map[string][]string{} // name -> items, by index
	for _, m := range msgs {
		if msg := checkXMLContent(m.Text); msg != "" {
			problems = append(problems, problemf(0, m.Key, "%s", msg))
			continue
		}
		if name, i := arrayItem(m.Key); i >= 0 {
			items := arrays[name]
			for len(items) <= i {
				items = append(items, "\x00") // a missing item
			}
			items[i] = m.Text
			arrays[name] = items
			continue
		}
		if !validAndroidName(m.Key) {
			problems = append(problems, problemf(0, m.Key, "%s is not an Android resource name (letters, digits, '_' and '.')", input.Quote(m.Key)))
			continue
		}
		texts[m.Key] = m.Text
	}
	for name, items := range arrays {
		if !validAndroidName(name) {
			problems = append(problems, problemf(0, name, "%s is not an Android resource name (letters, digits, '_' and '.')", input.Quote(name)))
		}
		if i := slices.Index(items, "\x00"); i >= 0 {
			problems = append(problems, problemf(0, name+"."+strconv.Itoa(i), "<string-array name=%q> lacks item %d: its items must be %s.0, %s.1, … without gaps", name, i, name, name))
		}
		if _, ok := texts[name]; ok {
			problems = append(problems, problemf(0, name, "%s is both a text and a <string-array>", input.Quote(name)))
		}
	}
	entry := func(old *androidEntry, name string) (androidEntry, bool) {
		if items, ok := arrays[name]; ok {
			e := androidEntry{kind: "string-array", name: name, start: fmt.Sprintf("<string-array name=%q>", xmlEscape(name)), texts: items}
			if old != nil && old.kind == "string-array" {
				e.start, e.blank, e.items = old.start, old.blank, old.items
			}
			return e, true
		}
		text, ok := texts[name]
		if !ok {
			return androidEntry{}, false
		}
		if p, ok := countPlural(text); ok {
			e := androidEntry{kind: "plurals", name: name, start: fmt.Sprintf("<plurals name=%q>", xmlEscape(name))}
			if old != nil && old.kind == "plurals" {
				e.start, e.blank = old.start, old.blank
			}
			for _, c := range p.cases {
				if !slices.Contains(pluralCategories, c.sel) {
					problems = append(problems, problemf(0, name, "Android plurals have no case %s", c.sel))
				}
				e.items = append(e.items, fmt.Sprintf("<item quantity=%q>", c.sel))
				e.texts = append(e.texts, c.text)
			}
			return e, true
		}
		e := androidEntry{kind: "string", name: name, start: fmt.Sprintf("<string name=%q>", xmlEscape(name)), texts: []string{text}}
		if old != nil && old.kind == "string" {
			e.start, e.blank = old.start, old.blank
			if s, ok := strings.CutSuffix(e.start, "/>"); ok && text != "" {
				e.start = strings.TrimRight(s, " \t\r\n") + ">"
			}
		}
		return e, true
	}
	var out []androidEntry
	done := map[string]bool{}
	for i := range doc.entries {
		old := &doc.entries[i]
		if old.kind == "" {
			out = append(out, *old)
			continue
		}
		if done[old.name] {
			continue
		}
		if e, ok := entry(old, old.name); ok {
			out = append(out, e)
			done[old.name] = true
		}
	}
	var names []string
	for name := range texts {
		names = append(names, name)
	}
	for name := range arrays {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if !done[name] {
			e, _ := entry(nil, name)
			out = append(out, e)
			done[name] = true
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var b bytes.Buffer
	b.WriteString(doc.head)
	for _, e := range out {
		b.WriteByte('\n')
		if e.blank {
			b.WriteByte('\n')
		}
		b.WriteString("    ")
		switch e.kind {
		case "":
			b.WriteString(e.raw)
		case "string":
			if strings.HasSuffix(e.start, "/>") {
				b.WriteString(e.start) // <string name="k"/>, still empty
				break
			}
			b.WriteString(e.start + e.texts[0] + "</string>")
		default:
			b.WriteString(e.start)
			for i, t := range e.texts {
				tag := "<item>"
				if i < len(e.items) {
					tag = e.items[i]
				}
				b.WriteString("\n        " + tag + t + "</item>")
			}
			b.WriteString("\n    </" + e.kind + ">")
		}
	}
	b.WriteByte('\n')
	b.WriteString(strings.TrimLeft(doc.tail, " \t\r\n"))
	if !bytes.HasSuffix(b.Bytes(), []byte("\n")) {
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}
