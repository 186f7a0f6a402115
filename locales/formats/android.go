package formats

import (
	"encoding/xml"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
// Texts are what a translator reads and the app shows: Android's
// escapes (\' \" \n \t \@ \? \\ \uXXXX) and XML's entities (&amp;) are
// read, the double quotes that keep spaces are taken off, and spaces
// outside them are collapsed as Android does; inline markup (<b>,
// <xliff:g>) stays as written. Texts are written back with Android's
// escapes: apostrophes and quotes escaped, a leading @ or ? escaped, &
// and < as entities, in double quotes when spaces need keeping or when
// the file wrote the text so.
//
// Android says what is not to be translated: an entry with
// translatable="false" is no key to translate (read as no message) and a
// file whose name starts with "donottranslate" (its namespace) holds
// none; a write keeps both byte for byte. Names are identifiers, taken
// whole (OpaqueKeys).
//
// Write changes only the texts that changed, each in place; every other
// byte stays: other resources (<color>, <dimen>, …), comments, blank
// lines, attributes (msgid, tools:…), entries the messages lack. A new
// entry goes after the entry that precedes it in the source language's
// file (File.SourceFile, else File.Source), else at the end. A new file
// starts as the source language's file does (its prolog and <resources>
// tag, with the namespaces its markup uses) and holds the messages, in
// the source file's order; they never include what is not to
// translate.
// Refused: a name used twice, a <string> whose name would read as an
// array item (ending in .N), a plain text that reads as a plural of
// count, anything but <item>s in <plurals> and <string-array>, and on
// writing, a key that is no resource name and a plural case Android
// lacks (=N).
type Android struct{}

// Ext returns ".xml".
func (Android) Ext() string { return ".xml" }

// OpaqueKeys reports that resource names are identifiers (see
// locales.Format).
func (Android) OpaqueKeys() bool { return true }

type androidEntry struct {
	kind  string // "string", "plurals", "string-array"; "" for raw XML kept as it is
	raw   string // a comment or another resource, as written
	name  string
	start string      // the start tag, as written
	texts []string    // string: one; plurals, string-array: per item, as written
	spans []xliffSpan // where each of texts is in the file
	items []string    // plurals: the items' start tags
	line  int
	// off and end are where the element starts and ends in the file.
	off, end int
	// fixed: translatable="false", not a text to translate.
	fixed bool
}

type androidDoc struct {
	entries []androidEntry
	open    int // where <resources>'s content starts
	close   int // where </resources> starts
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
			doc.open = int(s.dec.InputOffset())
			break
		}
	}
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
			doc.close = int(s.before)
			if _, err := s.rest(); err != nil {
				return nil, err
			}
			if len(problems) > 0 {
				return nil, &locales.InputError{Problems: problems}
			}
			return doc, nil
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				problems = append(problems, problemf(s.line(), "", "text %s directly in <resources>", input.Quote(strings.TrimSpace(string(t)))))
			}
			continue
		case xml.StartElement:
			e, ps, err := s.androidEntry(t, data)
			if err != nil {
				return nil, err
			}
			problems = append(problems, ps...)
			e.end = int(s.dec.InputOffset())
			doc.entries = append(doc.entries, e)
		}
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
	e := androidEntry{start: s.startTag(), line: s.line(), kind: se.Name.Local, off: int(start)}
	e.name, _ = attr(se, "name")
	if v, _ := attr(se, "translatable"); v == "false" {
		e.fixed = true
	}
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
		from := int(s.dec.InputOffset())
		text, err := s.inner()
		if err != nil {
			return e, nil, err
		}
		e.texts, e.spans = []string{text}, []xliffSpan{{from, int(s.before)}}
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
			from := int(s.dec.InputOffset())
			text, err := s.inner()
			if err != nil {
				return e, nil, err
			}
			span := xliffSpan{from, int(s.before)}
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
			e.spans = append(e.spans, span)
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

// messages returns the doc's texts to translate as messages.
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
		if e.kind == "" {
			continue
		}
		if e.fixed {
			if first, dup := seen[e.name]; dup {
				problems = append(problems, problemf(e.line, e.name, "name %s twice (also on line %d)", input.Quote(e.name), first))
			}
			seen[e.name] = e.line
			continue
		}
		switch e.kind {
		case "string":
			if _, i := arrayItem(e.name); i >= 0 {
				problems = append(problems, problemf(e.line, e.name, "<string name=%q> would be written back as an item of a <string-array>", e.name))
				continue
			}
			text := androidText(e.texts[0])
			if p := looksPlural(text, "<plurals>"); p != "" {
				problems = append(problems, problemf(e.line, e.name, "%s", p))
				continue
			}
			add(e.name, text, e.line)
		case "plurals":
			if p, ok := e.plural(); ok {
				add(e.name, p.format(false), e.line)
				continue
			}
			problems = append(problems, problemf(e.line, e.name, "<plurals name=%q> has no quantity \"other\"", e.name))
		case "string-array":
			for i, t := range e.texts {
				add(e.name+"."+strconv.Itoa(i), androidText(t), e.line)
			}
		}
	}
	return msgs, problems
}

// plural returns the texts of a <plurals> entry, and whether it has
// the case other.
func (e *androidEntry) plural() (pluralText, bool) {
	p := pluralText{arg: pluralArg}
	for i, it := range e.items {
		p.cases = append(p.cases, pluralCase{sel: quantityOf(it), text: androidText(e.texts[i])})
	}
	_, ok := p.text("other")
	return p, ok
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

// Decode reads a strings.xml file: no messages when its namespace
// says it holds none to translate (see Android).
func (Android) Decode(f locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseAndroid(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs, problems := doc.messages()
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	if doNotTranslate(f) {
		msgs = nil
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// doNotTranslate reports whether f is a file Android's lint reads as
// holding nothing to translate (donottranslate.xml,
// donottranslate-cldr.xml, …).
func doNotTranslate(f locales.File) bool {
	return strings.HasPrefix(path.Base(f.Namespace), "donottranslate")
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

// androidSkeleton is a new strings.xml file.
const androidSkeleton = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n</resources>\n"

// Encode writes msgs over f.Old (a new file when nil), changing only the
// texts that differ (see Android).
func (Android) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	data := f.Old
	if data == nil {
		data = []byte(androidSkeleton)
		if src, err := parseAndroid(f.SourceFile); f.SourceFile != nil && err == nil {
			// The source file's prolog and <resources> tag, with its
			// namespaces (xmlns:xliff, xmlns:tools).
			data = append(slices.Clip(f.SourceFile[:src.open]), "\n</resources>\n"...)
		}
	}
	doc, err := parseAndroid(data)
	if err != nil {
		return nil, err
	}
	if doNotTranslate(f) && f.Old != nil {
		return f.Old, nil
	}
	var problems []locales.Problem
	texts := map[string]string{}
	arrays := map[string][]string{} // name -> items, by index
	for _, m := range msgs {
		if m.Untranslated {
			continue // Android has no mark for it: the file keeps what it has
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
	for name, text := range texts {
		if p, ok := countPlural(text); ok {
			for _, c := range p.cases {
				if !slices.Contains(pluralCategories, c.sel) {
					problems = append(problems, problemf(0, name, "Android plurals have no case %s", c.sel))
				}
			}
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b locales.Problem) int { return strings.Compare(a.Key, b.Key) })
		return nil, &locales.InputError{Problems: problems}
	}
	var edits []splice
	present := map[string]bool{}
	ends := map[string]int{}
	indent := "    "
	for i := range doc.entries {
		e := &doc.entries[i]
		if e.name == "" {
			continue
		}
		present[e.name] = true
		ends[e.name] = lineEnd(data, e.end)
		if st := lineStart(data, e.off); st < e.off {
			indent = string(data[st:e.off])
		}
		if e.kind == "" || e.fixed {
			continue
		}
		lead := string(data[lineStart(data, e.off):e.off])
		if items, ok := arrays[e.name]; ok {
			edits = append(edits, e.rewrite(data, "string-array", nil, items, lead)...)
			continue
		}
		text, ok := texts[e.name]
		if !ok {
			continue
		}
		if p, ok := countPlural(text); ok {
			var quantities, items []string
			for _, c := range p.cases {
				quantities, items = append(quantities, c.sel), append(items, c.text)
			}
			edits = append(edits, e.rewrite(data, "plurals", quantities, items, lead)...)
			continue
		}
		edits = append(edits, e.rewrite(data, "string", nil, []string{text}, lead)...)
	}
	var added []string
	for name := range texts {
		if !present[name] {
			added = append(added, name)
		}
	}
	for name := range arrays {
		if !present[name] {
			added = append(added, name)
		}
	}
	var order []string
	for _, k := range sourceOrder(Android{}, f, added) {
		if name, i := arrayItem(k); i >= 0 {
			k = name
		}
		order = append(order, k)
	}
	after, atEnd := placeNew(order, present, added)
	write := func(b *strings.Builder, name string) {
		b.WriteString(indent)
		if items, ok := arrays[name]; ok {
			b.WriteString(newAndroidElement("string-array", name, nil, items, indent))
		} else if p, ok := countPlural(texts[name]); ok {
			var quantities, items []string
			for _, c := range p.cases {
				quantities, items = append(quantities, c.sel), append(items, c.text)
			}
			b.WriteString(newAndroidElement("plurals", name, quantities, items, indent))
		} else {
			b.WriteString(newAndroidElement("string", name, nil, []string{texts[name]}, indent))
		}
		b.WriteString("\n")
	}
	for anchor, names := range after {
		var b strings.Builder
		at := ends[anchor]
		if at > 0 && data[at-1] != '\n' {
			b.WriteString("\n")
		}
		for _, name := range names {
			write(&b, name)
		}
		edits = append(edits, splice{at, at, b.String()})
	}
	if len(atEnd) > 0 {
		var b strings.Builder
		at := lineStart(data, doc.close)
		if at > 0 && data[at-1] != '\n' {
			b.WriteString("\n")
		}
		for _, name := range atEnd {
			write(&b, name)
		}
		edits = append(edits, splice{at, at, b.String()})
	}
	return applySplices(data, edits), nil
}

// rewrite returns the edits that make e hold texts as an element of
// kind (quantities: a <plurals> element's, by item): each changed text
// in place when the shape stays, else the whole element. lead is the
// space before the element on its line.
func (e *androidEntry) rewrite(data []byte, kind string, quantities, texts []string, lead string) []splice {
	same := e.kind == kind && len(e.texts) == len(texts)
	for i := range e.items {
		if same && kind == "plurals" && quantityOf(e.items[i]) != quantities[i] {
			same = false
		}
	}
	if same && kind == "string" && e.texts[0] == "" && texts[0] != "" && strings.HasSuffix(e.start, "/>") {
		// <string name="k"/> gets a text: its start tag opens the element.
		start := strings.TrimRight(strings.TrimSuffix(e.start, "/>"), " \t\r\n") + ">"
		return []splice{{e.off, e.end, start + androidEscape(texts[0], false) + "</string>"}}
	}
	if !same {
		return []splice{{e.off, e.end, newAndroidElement(kind, e.name, quantities, texts, lead)}}
	}
	var edits []splice
	for i, old := range e.texts {
		if androidText(old) == texts[i] {
			continue
		}
		edits = append(edits, splice{e.spans[i].start, e.spans[i].end, androidEscape(texts[i], androidQuoted(old))})
	}
	return edits
}

// newAndroidElement writes an element of kind holding texts, its items
// indented one level more than indent.
func newAndroidElement(kind, name string, quantities, texts []string, indent string) string {
	var b strings.Builder
	if kind == "string" {
		fmt.Fprintf(&b, "<string name=\"%s\">%s</string>", xmlEscape(name), androidEscape(texts[0], false))
		return b.String()
	}
	fmt.Fprintf(&b, "<%s name=\"%s\">", kind, xmlEscape(name))
	for i, t := range texts {
		tag := "<item>"
		if kind == "plurals" {
			tag = fmt.Sprintf("<item quantity=%q>", quantities[i])
		}
		b.WriteString("\n" + indent + "    " + tag + androidEscape(t, false) + "</item>")
	}
	b.WriteString("\n" + indent + "</" + kind + ">")
	return b.String()
}

// androidText returns the text an element's content, as written, shows:
// entities and Android's escapes read, the double quotes that keep
// spaces taken off, other runs of spaces made one and the ends trimmed,
// comments dropped; inline markup stays as written.
func androidText(content string) string {
	if !strings.ContainsAny(content, "\\\"&<\t\n\r") && !strings.Contains(content, "  ") && strings.TrimSpace(content) == content {
		return content
	}
	wrapped := "<x>" + content + "</x>"
	d := xml.NewDecoder(strings.NewReader(wrapped))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	var b strings.Builder
	quoted, space := false, false
	emit := func() {
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
	}
	depth := 0
	for {
		before := d.InputOffset()
		tok, err := d.Token()
		if err != nil {
			break // content the parser read once; io.EOF at its end
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > 1 {
				emit()
				b.WriteString(wrapped[before:d.InputOffset()])
			}
		case xml.EndElement:
			depth--
			if depth > 0 {
				emit()
				b.WriteString(wrapped[before:d.InputOffset()])
			}
		case xml.CharData:
			s := string(t)
			for i := 0; i < len(s); i++ {
				c := s[i]
				switch {
				case c == '\\' && i+1 < len(s):
					emit()
					i++
					switch e := s[i]; e {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					case 'u':
						if n, err := strconv.ParseUint(s[i+1:min(i+5, len(s))], 16, 32); err == nil && i+5 <= len(s) {
							b.WriteRune(rune(n))
							i += 4
							continue
						}
						b.WriteByte('u')
					default:
						b.WriteByte(e)
					}
				case c == '"':
					quoted = !quoted
				case !quoted && isXMLSpace(c):
					space = true
				default:
					emit()
					b.WriteByte(c)
				}
			}
		case xml.ProcInst, xml.Directive:
			emit()
			b.WriteString(wrapped[before:d.InputOffset()])
		}
	}
	return b.String()
}

// androidQuoted reports whether content, as written, is a text in
// double quotes ("…", as AOSP's exported files write every text).
func androidQuoted(content string) bool {
	return len(content) >= 2 && content[0] == '"' && content[len(content)-1] == '"' && !strings.HasSuffix(content, `\"`)
}

// androidTag matches a start, end or empty tag of inline markup.
var androidTag = regexp.MustCompile(`</?[A-Za-z_][-A-Za-z0-9_.:]*(?:\s+[A-Za-z_][-A-Za-z0-9_.:]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*/?>`)

// androidEscape returns the content that shows text (see androidText):
// its inline markup as it is, when it is well-formed, and the rest with
// Android's escapes, in double quotes when quote is set or when spaces
// need them.
func androidEscape(text string, quote bool) string {
	tags := androidTag.FindAllStringIndex(text, -1)
	if len(tags) > 0 {
		var b strings.Builder
		at := 0
		for _, t := range tags {
			b.WriteString(strings.Repeat("x", t[0]-at)) // text, for the check
			b.WriteString(text[t[0]:t[1]])
			at = t[1]
		}
		if checkXMLContent(b.String()) != "" {
			tags = nil // not markup: every < is text
		}
	}
	if !quote {
		quote = strings.TrimSpace(text) != text || strings.Contains(text, "  ")
	}
	var b strings.Builder
	if quote {
		b.WriteByte('"')
	}
	for i := 0; i < len(text); {
		if len(tags) > 0 && i == tags[0][0] {
			b.WriteString(text[i:tags[0][1]])
			i = tags[0][1]
			tags = tags[1:]
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\'':
			b.WriteString(`\'`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>' && strings.HasSuffix(text[:i], "]]"):
			b.WriteString("&gt;")
		case (r == '@' || r == '?') && i == 0:
			b.WriteString(`\` + string(r))
		case r < 0x20 || r == 0x7f || r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	if quote {
		b.WriteByte('"')
	}
	return b.String()
}
