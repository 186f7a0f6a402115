package formats

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
	"github.com/locsvc/partner-go/translations"
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
	name  string
	start xliffSpan // the start tag
	// items are the entry's texts in doc.items: a <string>'s one, a
	// <plurals> or <string-array>'s per <item>.
	items span
	line  int
	// off and end are where the element starts and ends in the file.
	off, end int
	// fixed: translatable="false", not a text to translate.
	fixed bool
}

// A span is a run of a slice: [start, end).
type span struct{ start, end int }

// An androidItem is a text of an entry: its content, as written, and in
// <plurals> its quantity.
type androidItem struct {
	quantity string
	text     xliffSpan
}

type androidDoc struct {
	data    []byte
	entries []androidEntry
	items   []androidItem // the entries' texts
	open    int           // where <resources>'s content starts
	close   int           // where </resources> starts
}

// itemsOf returns e's texts.
func (doc *androidDoc) itemsOf(e *androidEntry) []androidItem {
	return doc.items[e.items.start:e.items.end]
}

// content returns an item's content, as written.
func (doc *androidDoc) content(it androidItem) string {
	return string(doc.data[it.text.start:it.text.end])
}

func parseAndroid(data []byte) (*androidDoc, error) {
	// encoding/xml refuses bytes that are not UTF-8 in names and texts
	// but not in comments; the file is refused whole, with its lines.
	if ps := notUTF8(data, nil); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	s := newRawScanner(data)
	doc := &androidDoc{data: data}
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
	// An entry per name, about; an item per entry, but for arrays and plurals.
	n := bytes.Count(data[doc.open:], []byte("name="))
	doc.entries = make([]androidEntry, 0, n)
	doc.items = make([]androidItem, 0, n+n/4)
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
			if text := bytes.TrimSpace(t); len(text) != 0 {
				problems = append(problems, problemf(s.line(), "", "text %s directly in <resources>", input.Quote(string(text))))
			}
			continue
		case xml.StartElement:
			e, ps, err := s.androidEntry(t, doc)
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

// androidEntry reads the entry whose start tag se was just read, its
// texts added to doc.items.
func (s *rawScanner) androidEntry(se xml.StartElement, doc *androidDoc) (androidEntry, []locales.Problem, error) {
	start := int(s.before)
	e := androidEntry{start: xliffSpan{start, int(s.dec.InputOffset())}, line: s.line(), kind: se.Name.Local, off: start}
	e.items = span{len(doc.items), len(doc.items)}
	e.name, _ = attr(se, "name")
	if v, _ := attr(se, "translatable"); v == "false" {
		e.fixed = true
	}
	if se.Name.Space != "" || (e.kind != "string" && e.kind != "plurals" && e.kind != "string-array") {
		e.kind = ""
		return e, nil, s.skip()
	}
	var problems []locales.Problem
	if e.name == "" {
		problems = append(problems, problemf(e.line, "", "<%s> without a name", e.kind))
	}
	if e.kind == "string" {
		from := int(s.dec.InputOffset())
		if err := s.skip(); err != nil {
			return e, nil, err
		}
		doc.items = append(doc.items, androidItem{text: xliffSpan{from, int(s.before)}})
		e.items.end = len(doc.items)
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
			e.items.end = len(doc.items)
			return e, problems, nil
		case xml.CharData:
			if len(bytes.TrimSpace(t)) != 0 {
				problems = append(problems, problemf(s.line(), e.name, "text outside <item> in <%s name=%q>", e.kind, e.name))
			}
		case xml.StartElement:
			line := s.line()
			if t.Name.Local != "item" || t.Name.Space != "" {
				problems = append(problems, problemf(line, e.name, "<%s> in <%s name=%q>: only <item>s are kept", t.Name.Local, e.kind, e.name))
				if err := s.skip(); err != nil {
					return e, nil, err
				}
				continue
			}
			from := int(s.dec.InputOffset())
			if err := s.skip(); err != nil {
				return e, nil, err
			}
			it := androidItem{text: xliffSpan{from, int(s.before)}}
			if e.kind == "plurals" {
				it.quantity, _ = attr(t, "quantity")
				q := it.quantity
				if !slices.Contains(pluralCategories, q) {
					problems = append(problems, problemf(line, e.name, "<item quantity=%q> in <plurals name=%q>: want zero, one, two, few, many or other", q, e.name))
					continue
				}
				if slices.ContainsFunc(doc.items[e.items.start:], func(it androidItem) bool { return it.quantity == q }) {
					problems = append(problems, problemf(line, e.name, "quantity %q twice in <plurals name=%q>", q, e.name))
					continue
				}
			}
			doc.items = append(doc.items, it)
		default:
			problems = append(problems, problemf(s.line(), e.name, "a comment or instruction in <%s name=%q> cannot be kept", e.kind, e.name))
		}
	}
}

// messages returns the doc's texts to translate as messages.
func (doc *androidDoc) messages() ([]locales.Message, []locales.Problem) {
	msgs := make([]locales.Message, 0, len(doc.items))
	var problems []locales.Problem
	seen := make(map[string]int, len(doc.entries))
	add := func(key, text string, line int) {
		if first, dup := seen[key]; dup {
			problems = append(problems, problemf(line, key, "name %s twice (also on line %d)", input.Quote(key), first))
			return
		}
		seen[key] = line
		msgs = append(msgs, locales.Message{Key: key, Text: text, Line: line})
	}
	for i := range doc.entries {
		e := &doc.entries[i]
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
			text := androidText(doc.content(doc.itemsOf(e)[0]))
			if p := looksPlural(text, "<plurals>"); p != "" {
				problems = append(problems, problemf(e.line, e.name, "%s", p))
				continue
			}
			add(e.name, text, e.line)
		case "plurals":
			if p, ok := doc.plural(e); ok {
				add(e.name, p.format(false), e.line)
				continue
			}
			problems = append(problems, problemf(e.line, e.name, "<plurals name=%q> has no quantity \"other\"", e.name))
		case "string-array":
			for i, it := range doc.itemsOf(e) {
				add(e.name+"."+strconv.Itoa(i), androidText(doc.content(it)), e.line)
			}
		}
	}
	return msgs, problems
}

// plural returns the texts of a <plurals> entry, and whether it has
// the case other.
func (doc *androidDoc) plural(e *androidEntry) (pluralText, bool) {
	items := doc.itemsOf(e)
	p := pluralText{arg: pluralArg, cases: make([]pluralCase, 0, len(items))}
	for _, it := range items {
		p.cases = append(p.cases, pluralCase{sel: it.quantity, text: androidText(doc.content(it))})
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
	plurals := map[string]pluralText{} // the texts that are plurals of count
	for name, text := range texts {
		if p, ok := countPlural(text); ok {
			plurals[name] = p
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
	present := make(map[string]bool, len(doc.entries))
	ends := make(map[string]int, len(doc.entries))
	indent := "    "
	for i := range doc.entries {
		e := &doc.entries[i]
		if e.name == "" {
			continue
		}
		present[e.name] = true
		ends[e.name] = lineEnd(data, e.end)
		if st := lineStart(data, e.off); st < e.off && string(data[st:e.off]) != indent {
			indent = string(data[st:e.off])
		}
		if e.kind == "" || e.fixed {
			continue
		}
		lead := data[lineStart(data, e.off):e.off]
		if items, ok := arrays[e.name]; ok {
			edits = doc.rewrite(edits, e, "string-array", nil, items, lead)
			continue
		}
		text, ok := texts[e.name]
		if !ok {
			continue
		}
		if p, ok := plurals[e.name]; ok {
			quantities, items := p.split()
			edits = doc.rewrite(edits, e, "plurals", quantities, items, lead)
			continue
		}
		edits = doc.rewrite(edits, e, "string", nil, []string{text}, lead)
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
			writeAndroidElement(b, "string-array", name, nil, items, indent)
		} else if p, ok := plurals[name]; ok {
			quantities, items := p.split()
			writeAndroidElement(b, "plurals", name, quantities, items, indent)
		} else {
			writeAndroidElement(b, "string", name, nil, []string{texts[name]}, indent)
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
		// About the size of what is written: each text escaped, in
		// its element.
		size := 1
		for _, name := range atEnd {
			size += 2*len(indent) + 2*len(name) + 32
			if items, ok := arrays[name]; ok {
				for _, it := range items {
					size += len(indent) + len(it) + 24
				}
			} else {
				size += len(texts[name]) + len(texts[name])/8
			}
		}
		b.Grow(size)
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

// split returns p's case selectors and texts.
func (p pluralText) split() (sels, texts []string) {
	sels, texts = make([]string, 0, len(p.cases)), make([]string, 0, len(p.cases))
	for _, c := range p.cases {
		sels, texts = append(sels, c.sel), append(texts, c.text)
	}
	return sels, texts
}

// rewrite appends to edits those that make e hold texts as an element
// of kind (quantities: a <plurals> element's, by item): each changed
// text in place when the shape stays, else the whole element. lead is
// the space before the element on its line.
func (doc *androidDoc) rewrite(edits []splice, e *androidEntry, kind string, quantities, texts []string, lead []byte) []splice {
	items := doc.itemsOf(e)
	same := e.kind == kind && len(items) == len(texts)
	for i := range items {
		if same && kind == "plurals" && items[i].quantity != quantities[i] {
			same = false
		}
	}
	start := doc.data[e.start.start:e.start.end]
	if same && kind == "string" && items[0].text.start == items[0].text.end && texts[0] != "" && bytes.HasSuffix(start, []byte("/>")) {
		// <string name="k"/> gets a text: its start tag opens the element.
		var b strings.Builder
		b.Write(bytes.TrimRight(bytes.TrimSuffix(start, []byte("/>")), " \t\r\n"))
		b.WriteByte('>')
		writeAndroidEscape(&b, texts[0], false)
		b.WriteString("</string>")
		return append(edits, splice{e.off, e.end, b.String()})
	}
	if !same {
		var b strings.Builder
		writeAndroidElement(&b, kind, e.name, quantities, texts, string(lead))
		return append(edits, splice{e.off, e.end, b.String()})
	}
	for i, it := range items {
		old := doc.data[it.text.start:it.text.end]
		if androidPlain(old) && string(old) == texts[i] || !androidPlain(old) && androidText(string(old)) == texts[i] {
			continue
		}
		edits = append(edits, splice{it.text.start, it.text.end, androidEscape(texts[i], androidQuoted(old))})
	}
	return edits
}

// writeAndroidElement writes an element of kind holding texts, its
// items indented one level more than indent.
func writeAndroidElement(b *strings.Builder, kind, name string, quantities, texts []string, indent string) {
	if kind == "string" {
		b.WriteString(`<string name="`)
		b.WriteString(xmlEscape(name))
		b.WriteString(`">`)
		writeAndroidEscape(b, texts[0], false)
		b.WriteString("</string>")
		return
	}
	fmt.Fprintf(b, "<%s name=\"%s\">", kind, xmlEscape(name))
	for i, t := range texts {
		b.WriteString("\n" + indent + "    ")
		if kind == "plurals" {
			fmt.Fprintf(b, "<item quantity=%q>", quantities[i])
		} else {
			b.WriteString("<item>")
		}
		writeAndroidEscape(b, t, false)
		b.WriteString("</item>")
	}
	b.WriteString("\n" + indent + "</" + kind + ">")
}

// androidText returns the text an element's content, as written, shows:
// entities and Android's escapes read, the double quotes that keep
// spaces taken off, other runs of spaces made one and the ends trimmed,
// comments dropped; inline markup stays as written.
func androidText(content string) string {
	if androidPlain(content) {
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

// androidPlain reports whether content, as written, is the text it
// shows: no entity, escape, quote, tag or run of spaces, no space at
// its ends.
func androidPlain[S ~string | ~[]byte](content S) bool {
	for i := 0; i < len(content); i++ {
		switch content[i] {
		case '\\', '"', '&', '<', '\t', '\n', '\r':
			return false
		case ' ':
			if i+1 < len(content) && content[i+1] == ' ' {
				return false
			}
		}
	}
	if len(content) == 0 {
		return true
	}
	first, _ := utf8.DecodeRuneInString(string(content[:min(len(content), utf8.UTFMax)]))
	last, _ := utf8.DecodeLastRuneInString(string(content[max(0, len(content)-utf8.UTFMax):]))
	return !unicode.IsSpace(first) && !unicode.IsSpace(last)
}

// androidQuoted reports whether content, as written, is a text in
// double quotes ("…", as AOSP's exported files write every text).
func androidQuoted(content []byte) bool {
	return len(content) >= 2 && content[0] == '"' && content[len(content)-1] == '"' && !bytes.HasSuffix(content, []byte(`\"`))
}

// androidTag matches a start, end or empty tag of inline markup.
var androidTag = regexp.MustCompile(`</?[A-Za-z_][-A-Za-z0-9_.:]*(?:\s+[A-Za-z_][-A-Za-z0-9_.:]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*\s*/?>`)

// androidEscape returns the content that shows text (see androidText):
// its inline markup as it is, when it is well-formed, and the rest with
// Android's escapes, in double quotes when quote is set or when spaces
// need them.
func androidEscape(text string, quote bool) string {
	var b strings.Builder
	writeAndroidEscape(&b, text, quote)
	return b.String()
}

// writeAndroidEscape writes androidEscape(text, quote) to b.
func writeAndroidEscape(b *strings.Builder, text string, quote bool) {
	var tags [][]int
	if strings.IndexByte(text, '<') >= 0 {
		tags = androidTag.FindAllStringIndex(text, -1)
	}
	if len(tags) > 0 {
		var check strings.Builder
		at := 0
		for _, t := range tags {
			check.WriteString(strings.Repeat("x", t[0]-at)) // text, for the check
			check.WriteString(text[t[0]:t[1]])
			at = t[1]
		}
		if checkXMLContent(check.String()) != "" {
			tags = nil // not markup: every < is text
		}
	}
	if !quote {
		quote = strings.TrimSpace(text) != text || strings.Contains(text, "  ")
	}
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
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	if quote {
		b.WriteByte('"')
	}
}
