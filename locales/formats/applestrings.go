package formats

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
	"github.com/locsvc/partner-go/translations"
)

// AppleStrings is Apple's .strings files (<lang>.lproj/Localizable.strings):
// `"key" = "value";` entries with C-style escapes and /* */ and //
// comments, in UTF-8 or UTF-16 with a byte order mark. No kept Go
// parser of the format exists, so this is a small one.
//
// Texts are read as a translator reads them: the escapes \" \\ \n \t
// \r \0 and \UXXXX (or \uXXXX, a surrogate pair as one character) are
// read, and written back as \" \\ \n \r \t, other control characters as
// \UXXXX. Keys are identifiers, often the source sentence, taken whole
// (OpaqueKeys). A key a target file lacks is not translated yet.
//
// Write changes only the values that changed, each in place; every other
// byte stays: the file's encoding and byte order mark, comments, spaces,
// order, the entries the messages lack, the final newline. A new entry
// goes after the entry that precedes it in the source language's file
// (File.SourceFile, else File.Source), else at the end after a blank
// line; a new file takes the source language's file's encoding (UTF-16
// with its byte order mark when the source is). Refused: a key twice,
// and anything but entries and comments.
type AppleStrings struct{}

// Ext returns ".strings".
func (AppleStrings) Ext() string { return ".strings" }

// OpaqueKeys reports that keys are identifiers, often the source
// sentence itself (see locales.Format).
func (AppleStrings) OpaqueKeys() bool { return true }

type stringsEntry struct {
	key, value string
	line       int
	// valStart and valEnd are where the value is in the file's text,
	// end where the entry ends (past its ';').
	valStart, valEnd, end int
}

type stringsDoc struct {
	bom     []byte // the byte order mark, if any
	utf16   binary.AppendByteOrder
	text    string // the file's text, decoded
	entries []stringsEntry
}

// appleText decodes data into text by its byte order mark.
func appleText(data []byte) (string, []byte, binary.AppendByteOrder, error) {
	var order interface {
		binary.ByteOrder
		binary.AppendByteOrder
	}
	var bom []byte
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		order, bom = binary.LittleEndian, data[:2]
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		order, bom = binary.BigEndian, data[:2]
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		bom = data[:3]
	}
	if order == nil {
		s := string(data[len(bom):])
		if ps := notUTF8(data, nil); ps != nil {
			ps[0].Message += " (a .strings file is UTF-8, or UTF-16 with a byte order mark)"
			return "", nil, nil, &locales.InputError{Problems: ps}
		}
		return s, bom, nil, nil
	}
	body := data[2:]
	if len(body)%2 != 0 {
		return "", nil, nil, lineError(1, "UTF-16 file of an odd number of bytes")
	}
	units := make([]uint16, len(body)/2)
	for i := range units {
		units[i] = order.Uint16(body[2*i:])
	}
	return string(utf16.Decode(units)), bom, order, nil
}

func parseAppleStrings(data []byte) (*stringsDoc, error) {
	s, bom, order, err := appleText(data)
	if err != nil {
		return nil, err
	}
	// Each entry ends in a ';': their count bounds the entries.
	hint := strings.Count(s, ";")
	doc := &stringsDoc{bom: bom, utf16: order, text: s, entries: make([]stringsEntry, 0, hint)}
	p := stringsParser{s: s, line: 1}
	var problems []locales.Problem
	seen := make(map[string]int, hint)
	for {
		if err := p.trivia(); err != nil {
			return nil, err
		}
		if p.i == len(s) {
			break
		}
		line := p.line
		key, err := p.token()
		if err != nil {
			return nil, err
		}
		if err := p.trivia(); err != nil {
			return nil, err
		}
		if !p.eat('=') {
			return nil, p.errorf("want '=' after key %s", input.Quote(key))
		}
		if err := p.trivia(); err != nil {
			return nil, err
		}
		valStart := p.i
		value, err := p.token()
		if err != nil {
			return nil, err
		}
		valEnd := p.i
		if err := p.trivia(); err != nil {
			return nil, err
		}
		if !p.eat(';') {
			return nil, p.errorf("want ';' after the value of %s", input.Quote(key))
		}
		if first, dup := seen[key]; dup {
			problems = append(problems, problemf(line, key, "key %s twice (also on line %d)", input.Quote(key), first))
			continue
		}
		seen[key] = line
		doc.entries = append(doc.entries, stringsEntry{key: key, value: value, line: line, valStart: valStart, valEnd: valEnd, end: p.i})
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	return doc, nil
}

type stringsParser struct {
	s    string
	i    int
	line int
}

func (p *stringsParser) errorf(format string, args ...any) error {
	return lineError(p.line, format, args...)
}

func (p *stringsParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// trivia skips spaces and comments.
func (p *stringsParser) trivia() error {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '\n':
			p.line++
			p.i++
		case c == ' ' || c == '\t' || c == '\r':
			p.i++
		case strings.HasPrefix(p.s[p.i:], "/*"):
			end := strings.Index(p.s[p.i+2:], "*/")
			if end < 0 {
				return p.errorf("a comment that does not end")
			}
			p.line += strings.Count(p.s[p.i:p.i+2+end], "\n")
			p.i += 2 + end + 2
		case strings.HasPrefix(p.s[p.i:], "//"):
			end := strings.IndexByte(p.s[p.i:], '\n')
			if end < 0 {
				end = len(p.s) - p.i
			}
			p.i += end
		default:
			return nil
		}
	}
	return nil
}

func isBareStringsChar(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c == ':' || c == '/' || c == '-' ||
		c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// token reads a quoted or bare string.
func (p *stringsParser) token() (string, error) {
	if p.i < len(p.s) && p.s[p.i] != '"' {
		start := p.i
		for p.i < len(p.s) && isBareStringsChar(p.s[p.i]) {
			p.i++
		}
		if p.i == start {
			if p.i == len(p.s) {
				return "", p.errorf("the file ends early")
			}
			return "", p.errorf("unexpected %q; want a quoted string", p.s[p.i])
		}
		return p.s[start:p.i], nil
	}
	p.i++
	// Most strings hold no escape: they are the text between the quotes.
	if p.i < len(p.s) {
		rest := p.s[p.i:]
		if q := strings.IndexByte(rest, '"'); q >= 0 && strings.IndexByte(rest[:q], '\\') < 0 {
			p.line += strings.Count(rest[:q], "\n")
			p.i += q + 1
			return rest[:q], nil
		}
	}
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.errorf("a string that does not end")
		}
		c := p.s[p.i]
		switch c {
		case '"':
			p.i++
			return b.String(), nil
		case '\n':
			p.line++
		case '\\':
			p.i++
			if p.i >= len(p.s) {
				return "", p.errorf("a string that does not end")
			}
			e := p.s[p.i]
			p.i++
			if c, ok := cEscape(e); ok {
				b.WriteByte(c)
				continue
			}
			switch e {
			case '0':
				b.WriteByte(0)
			case 'u', 'U':
				r, ok := p.hex4()
				if !ok {
					return "", p.errorf("\\%c not followed by four hex digits", e)
				}
				if utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], "\\U") || utf16.IsSurrogate(r) && strings.HasPrefix(p.s[p.i:], "\\u") {
					save := p.i
					p.i += 2
					if r2, ok := p.hex4(); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							b.WriteRune(d)
							continue
						}
					}
					p.i = save
				}
				b.WriteRune(r)
			case '\n':
				p.line++
				b.WriteByte('\n')
			default:
				b.WriteByte(e)
			}
			continue
		}
		b.WriteByte(c)
		p.i++
	}
}

func (p *stringsParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(n), true
}

// Decode reads a .strings file.
func (AppleStrings) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseAppleStrings(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs := make([]locales.Message, 0, len(doc.entries))
	for _, e := range doc.entries {
		msgs = append(msgs, locales.Message{Key: e.key, Text: e.value, Line: e.line})
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

func quoteAppleString(b *strings.Builder, s string) {
	b.WriteByte('"')
	start := 0 // the run of bytes written as they are
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			if r, size = utf8.DecodeRuneInString(s[i:]); r != utf8.RuneError {
				i += size
				continue
			}
		}
		b.WriteString(s[start:i])
		i += size
		start = i
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default: // a control character, or not UTF-8
			fmt.Fprintf(b, `\U%04X`, r)
		}
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// Encode writes msgs over f.Old, changing only the values that differ
// (see AppleStrings).
func (AppleStrings) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	doc := &stringsDoc{}
	switch {
	case f.Old != nil:
		var err error
		if doc, err = parseAppleStrings(f.Old); err != nil {
			return nil, err
		}
	case f.SourceFile != nil:
		// A new file in the source file's encoding.
		if src, err := parseAppleStrings(f.SourceFile); err == nil {
			doc.bom, doc.utf16 = src.bom, src.utf16
		}
	}
	texts := newMsgIndex(msgs)
	entries := make(map[string]int, len(doc.entries))
	var edits []splice
	for i, e := range doc.entries {
		entries[e.key] = i
		if j, ok := texts.find(e.key); ok && msgs[j].Text != e.value {
			var b strings.Builder
			b.Grow(len(msgs[j].Text) + 2)
			quoteAppleString(&b, msgs[j].Text)
			edits = append(edits, splice{e.valStart, e.valEnd, b.String()})
		}
	}
	var added []int // of msgs, the entries the file lacks
	for i, m := range msgs {
		if texts.byKey != nil { // the key's message, maybe a later one
			var ok bool
			if i, ok = texts.byKey[m.Key]; !ok {
				continue
			}
		} else if m.Untranslated {
			continue
		}
		if _, ok := entries[m.Key]; ok {
			continue
		}
		added = append(added, i)
	}
	if len(added) > 0 {
		edits = append(edits, doc.insertions(f, msgs, texts, entries, added)...)
	}
	return doc.write(edits), nil
}

// A msgIndex finds the message of a key among msgs: the last of the
// key's, not Untranslated.
type msgIndex struct {
	msgs  []locales.Message
	byKey map[string]int // nil when msgs' keys are ascending (each once)
	next  int            // then: the place after the key last found
}

func newMsgIndex(msgs []locales.Message) *msgIndex {
	x := &msgIndex{msgs: msgs}
	if !keysAscending(msgs) {
		x.byKey = make(map[string]int, len(msgs))
		for i, m := range msgs {
			if !m.Untranslated {
				x.byKey[m.Key] = i
			}
		}
	}
	return x
}

// find returns the index in msgs of key k's message. Keys looked up in
// ascending order are found one after the other, others by binary
// search.
func (x *msgIndex) find(k string) (int, bool) {
	if x.byKey != nil {
		i, ok := x.byKey[k]
		return i, ok
	}
	i := x.next
	if i >= len(x.msgs) || x.msgs[i].Key != k {
		var ok bool
		i, ok = slices.BinarySearchFunc(x.msgs, k, func(m locales.Message, k string) int { return strings.Compare(m.Key, k) })
		if !ok {
			return 0, false
		}
	}
	x.next = i + 1
	return i, !x.msgs[i].Untranslated
}

// insertions returns the splices that add the entries of msgs[i] for
// each i of added, which d lacks: each after the entry that precedes it
// in the source language's file (File.SourceFile, then the keys of
// File.Source), else at the end, those the source lacks last in key
// order. texts and entries give a key's message and d's entry.
func (d *stringsDoc) insertions(f locales.File, msgs []locales.Message, texts *msgIndex, entries map[string]int, added []int) []splice {
	var order []string
	if f.SourceFile != nil {
		if src, err := parseAppleStrings(f.SourceFile); err == nil {
			for _, e := range src.entries {
				order = append(order, e.key)
			}
		}
	}
	for _, m := range f.Source {
		order = append(order, m.Key)
	}
	entry := func(b *strings.Builder, m locales.Message) {
		quoteAppleString(b, m.Key)
		b.WriteString(" = ")
		quoteAppleString(b, m.Text)
		b.WriteString(";")
	}
	var edits []splice
	placed := make([]bool, len(msgs))
	anchored := make([]bool, len(d.entries)) // an entry of the file met in order
	anchor := -1                             // the entry of the file last met in order
	var after strings.Builder                // the entries that go after it
	flush := func() {
		if after.Len() > 0 {
			end := d.entries[anchor].end
			edits = append(edits, splice{end, end, after.String()})
			after.Reset()
		}
	}
	var atEnd []int
	for _, k := range order {
		if i, ok := entries[k]; ok {
			if !anchored[i] {
				anchored[i] = true
				flush()
				anchor = i
			}
			continue
		}
		j, ok := texts.find(k)
		if !ok || placed[j] {
			continue
		}
		placed[j] = true
		if anchor < 0 {
			atEnd = append(atEnd, j)
			continue
		}
		after.WriteString("\n")
		entry(&after, msgs[j])
	}
	flush()
	var rest []int
	for _, j := range added {
		if !placed[j] {
			rest = append(rest, j)
		}
	}
	slices.SortStableFunc(rest, func(a, b int) int { return strings.Compare(msgs[a].Key, msgs[b].Key) })
	atEnd = append(atEnd, rest...)
	if len(atEnd) == 0 {
		return edits
	}
	// At the end, after a blank line, before the file's final spaces.
	end := len(strings.TrimRight(d.text, " \t\r\n"))
	var b strings.Builder
	size := 2
	for _, j := range atEnd {
		size += len(msgs[j].Key) + len(msgs[j].Text) + len("\n\"\" = \"\";")
	}
	b.Grow(size)
	for i, j := range atEnd {
		if i > 0 || end > 0 {
			b.WriteString("\n")
		}
		if i == 0 && end > 0 {
			b.WriteString("\n")
		}
		entry(&b, msgs[j])
	}
	if end == len(d.text) {
		b.WriteString("\n")
	}
	return append(edits, splice{end, end, b.String()})
}

// write returns the file of d's text with edits: its bytes in d's
// encoding, after its byte order mark.
func (d *stringsDoc) write(edits []splice) []byte {
	slices.SortStableFunc(edits, func(a, b splice) int { return cmp.Compare(a.start, b.start) })
	size := len(d.bom) + len(d.text)
	for _, e := range edits {
		size += len(e.text)
	}
	var out []byte
	if d.utf16 == nil {
		out = make([]byte, 0, size)
	} else {
		out = make([]byte, 0, len(d.bom)+2*size)
	}
	out = append(out, d.bom...)
	text := func(s string) {
		if d.utf16 == nil {
			out = append(out, s...)
			return
		}
		var units [2]uint16
		for _, r := range s {
			for _, u := range utf16.AppendRune(units[:0], r) {
				out = d.utf16.AppendUint16(out, u)
			}
		}
	}
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue
		}
		text(d.text[at:e.start])
		text(e.text)
		at = e.end
	}
	text(d.text[at:])
	if len(out) == 0 {
		return nil // as bytes.Clone(nil) gives
	}
	return out
}
