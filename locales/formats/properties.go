package formats

import (
	"bytes"
	"cmp"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/magiconair/properties"

	"github.com/locsvc/partner-go/locales"
)

// Properties is Java's .properties resource bundles
// (messages_de.properties in Java, <lang>.properties here), read with
// github.com/magiconair/properties, the kept Go parser of the format
// (viper's), with ${…} expansion off: a text is what the file says.
// Keys are identifiers, taken whole (OpaqueKeys). Texts are as a
// translator reads them: escapes (\uXXXX, \t, \n, \\, \:, …) are undone
// on reading and done again on writing.
//
// A file is read as UTF-8 (Java 9 and later read resource bundles so)
// or, when it is not valid UTF-8, as ISO-8859-1 (older Java). A UTF-8
// byte order mark is passed over and written back. Java reads neither
// UTF-16 nor NUL bytes in a .properties file: a file with a UTF-16 byte
// order mark or a NUL byte (UTF-16 without a mark) is refused. A key
// written twice is read as Java reads it: the last wins.
//
// Written over a file, only the values whose texts changed change:
// separators (k=v, k = v, k: v), comments, blank lines, continued lines
// and order stay. A changed value is written in the file's style:
// characters beyond ASCII as they are in a UTF-8 file, as \uXXXX in an
// ASCII file that escapes them, as bytes (U+0080 to U+00FF, \uXXXX
// beyond) in an ISO-8859-1 file, where a character beyond U+FFFF is
// refused; ':', '=', '#' and '!' escaped where the file escapes them.
// A value continued over lines keeps its continued lines at its line
// breaks. A new key goes after the key before it in the source file's
// order (File.SourceFile, else File.Source), else at the end; a key only
// the file has stays. A new file is written in the source file's style
// and order (key=value, UTF-8, without one).
//
// Keys starting with '#' or '!', keys holding '=' (which other readers
// than Java's take for a separator) and NUL characters are refused on
// writing.
type Properties struct{}

// Ext returns ".properties".
func (Properties) Ext() string { return ".properties" }

// utf8BOM is the UTF-8 byte order mark.
const utf8BOM = "\ufeff"

// propertiesFile is a .properties file read: its texts and what
// writing it back keeps.
type propertiesFile struct {
	p     *properties.Properties
	lines map[string]int // key -> line of its last definition
	data  []byte         // the file after its byte order mark
	enc   properties.Encoding
	bom   bool
}

// entries returns every definition of the file, in its order.
func (f *propertiesFile) entries() []propEntry {
	var entries []propEntry
	scanProperties(f.data, f.enc == properties.ISO_8859_1, func(e propEntry) { entries = append(entries, e) })
	return entries
}

func loadProperties(data []byte) (*propertiesFile, error) {
	f := &propertiesFile{enc: properties.UTF8}
	switch {
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}), bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return nil, lineError(1, "the file is UTF-16, which Java does not read in a .properties file; save it as UTF-8")
	case bytes.HasPrefix(data, []byte(utf8BOM)):
		f.bom, data = true, data[len(utf8BOM):]
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, lineError(1+bytes.Count(data[:i], []byte("\n")), "a NUL byte: the file is UTF-16 or binary, which Java does not read in a .properties file; save it as UTF-8")
	}
	text := data
	if !utf8.Valid(data) {
		if f.bom {
			err := firstNotUTF8(data)
			p := &err.(*locales.InputError).Problems[0]
			p.Message += " (the file starts with a UTF-8 byte order mark)"
			return nil, err
		}
		// ISO-8859-1: each byte is the code point of its value.
		f.enc = properties.ISO_8859_1
		text = make([]byte, 0, len(data)+len(data)/8)
		for _, b := range data {
			text = utf8.AppendRune(text, rune(b))
		}
	}
	l := &properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}
	p, err := l.LoadBytes(text)
	if err != nil {
		return nil, lineError(0, "malformed properties: %s", strings.TrimPrefix(err.Error(), "properties: "))
	}
	f.p = p
	f.data = data
	f.lines = make(map[string]int, p.Len())
	scanProperties(data, f.enc == properties.ISO_8859_1, func(e propEntry) { f.lines[e.key] = e.line })
	return f, nil
}

// Decode reads a .properties file.
func (Properties) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	f, err := loadProperties(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs := make([]locales.Message, 0, f.p.Len())
	for _, k := range f.p.Keys() {
		v, _ := f.p.Get(k)
		msgs = append(msgs, locales.Message{Key: k, Text: v, Line: f.lines[k]})
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// endsKey reports whether c ends a key (the library's isEndOfKey).
func endsKey(c byte) bool {
	switch c {
	case ' ', '\f', '\t', '\r', '\n', ':', '=':
		return true
	}
	return false
}

// OpaqueKeys reports that .properties keys are identifiers, taken whole.
func (Properties) OpaqueKeys() bool { return true }

// A propEntry is one definition of a .properties file: where its key,
// separator and value are (byte offsets in the file after its byte
// order mark).
type propEntry struct {
	key      string // unescaped
	line     int    // of the key, from 1
	start    int    // the key's first byte
	keyEnd   int    // after the key
	valStart int    // the value's first byte, after the separator
	end      int    // after the value, before its line end
	// contIndent is the blank that begins the value's first continued
	// line; cont says the value goes on over more lines.
	cont       bool
	contIndent string
}

// scanProperties visits the definitions of data, a file the library
// read: it follows the library's lexer (lex.go) for where keys, their
// separators and values start and end, and unescapes keys as it does.
// The syntax is ASCII, so it reads ISO-8859-1 (latin1) and UTF-8 alike.
func scanProperties(data []byte, latin1 bool, visit func(propEntry)) {
	line, i := 1, 0
	eol := func() { // i is at '\r' or '\n': pass over it, counting lines
		if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			i++
		}
		i++
		line++
	}
	blank := func() {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\f') {
			i++
		}
	}
	for i < len(data) {
		switch data[i] {
		case '\n':
			i++
			line++
			continue
		case '\r':
			// The library takes "\r\n" as two line ends, which is one line here.
			eol()
			continue
		case ' ', '\t', '\f':
			i++
			continue
		case '#', '!':
			for i < len(data) && data[i] != '\n' && data[i] != '\r' {
				i++
			}
			continue
		}
		e := propEntry{start: i, line: line}
		for i < len(data) && !endsKey(data[i]) {
			if data[i] == '\\' && i+1 < len(data) {
				if data[i+1] == '\n' {
					line++ // an escaped line end is part of the key
				}
				i++
			}
			i++
		}
		e.keyEnd = i
		e.key = unescapeProperties(data[e.start:e.keyEnd], latin1)
		blank()
		if i < len(data) && (data[i] == ':' || data[i] == '=') {
			i++
		}
		blank()
		e.valStart = i
		for i < len(data) && data[i] != '\n' && data[i] != '\r' {
			if data[i] == '\\' && i+1 < len(data) {
				i++
				if data[i] == '\n' || data[i] == '\r' {
					// The library passes over one line end character and
					// the blanks after it.
					i++
					line++
					start := i
					blank()
					if !e.cont {
						e.cont, e.contIndent = true, string(data[start:i])
					}
					continue
				}
			}
			i++
		}
		e.end = i
		visit(e)
	}
}

// unescapeProperties returns the text of raw, a key or value as the
// file spells it, as the library reads it.
func unescapeProperties(raw []byte, latin1 bool) string {
	if !latin1 && bytes.IndexByte(raw, '\\') < 0 {
		return string(raw)
	}
	var b strings.Builder
	for i := 0; i < len(raw); {
		r, n := rune(raw[i]), 1
		if !latin1 {
			r, n = utf8.DecodeRune(raw[i:])
		}
		i += n
		if r != '\\' || i >= len(raw) {
			b.WriteRune(r)
			continue
		}
		r, n = rune(raw[i]), 1
		if !latin1 {
			r, n = utf8.DecodeRune(raw[i:])
		}
		i += n
		switch r {
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			if i+4 <= len(raw) {
				if v, err := strconv.ParseUint(string(raw[i:i+4]), 16, 32); err == nil {
					r = rune(v)
					i += 4
				}
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// propStyle is how a file writes its texts, which new and changed
// texts follow.
type propStyle struct {
	latin1     bool   // an ISO-8859-1 file: U+0080 to U+00FF as bytes, the others as \uXXXX
	uEscapes   bool   // every character beyond ASCII as \uXXXX
	sepEscapes bool   // ':', '=', '#' and '!' escaped in values too
	sep        string // between a new key and its value
	eol        string
}

// styleOf returns the style of data, a file of entries; a file with no
// entry is written as Java writes one: key=value.
func styleOf(data []byte, latin1 bool, entries []propEntry) propStyle {
	st := propStyle{latin1: latin1, sep: "=", eol: "\n"}
	nonASCII := slices.ContainsFunc(data, func(c byte) bool { return c >= 0x80 })
	st.uEscapes = !nonASCII && bytes.Contains(data, []byte(`\u`))
	st.sepEscapes = bytes.Contains(data, []byte(`\:`)) || bytes.Contains(data, []byte(`\=`))
	if bytes.Contains(data, []byte("\r\n")) {
		st.eol = "\r\n"
	}
	if len(entries) > 0 {
		st.sep = entries[0].sepOf(data)
	}
	return st
}

// sepOf returns what separates e's key from its value in data, "=" when
// nothing does (a key alone on its line).
func (e propEntry) sepOf(data []byte) string {
	if e.valStart == e.keyEnd {
		return "="
	}
	return string(data[e.keyEnd:e.valStart])
}

// appendProperties appends s, a key or a value, escaped in style st,
// and reports false when st cannot hold a character of it. When cont is
// not "", a value's line breaks after its first line go on over lines
// that begin with cont, as the file's old value did.
func appendProperties(b []byte, s string, key bool, st propStyle, cont string) ([]byte, bool) {
	lineStart := true
	for i, r := range s {
		start := lineStart
		lineStart = false
		switch {
		case r == '\\':
			b = append(b, `\\`...)
		case r == '\n':
			b = append(b, `\n`...)
			if cont != "" && !key && i < len(s)-1 {
				b = append(b, '\\')
				b = append(b, st.eol...)
				b = append(b, cont...)
				lineStart = true
			}
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r == ' ' && (key || start):
			b = append(b, `\ `...)
		case key && (r == ':' || r == '=' || i == 0 && (r == '#' || r == '!')):
			b = append(b, '\\', byte(r))
		case !key && (st.sepEscapes && strings.ContainsRune(":=#!", r) || i == 0 && (r == ':' || r == '=')):
			// A value's first ':' or '=' after a separator of spaces
			// alone ("key :") would be read as the separator.
			b = append(b, '\\', byte(r))
		case r < 0x20 || r == 0x7F || r == 0xFEFF: // a byte order mark would not begin a file's first key
			b = fmt.Appendf(b, `\u%04X`, r)
		case r < 0x80:
			b = append(b, byte(r))
		case st.latin1 && r <= 0xFF && !st.uEscapes:
			b = append(b, byte(r))
		case st.latin1 && r > 0xFFFF:
			return b, false
		case st.latin1 || st.uEscapes && r <= 0xFFFF:
			b = fmt.Appendf(b, `\u%04X`, r)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b, true
}

// propEdit replaces data[start:end] with text; seq orders edits at one
// place.
type propEdit struct {
	start, end, seq int
	text            []byte
}

// Encode writes msgs over file.Old, changing only the values whose
// texts changed, or as a new file in the style of file.SourceFile.
func (Properties) Encode(file locales.File, msgs []locales.Message) ([]byte, error) {
	var problems []locales.Problem
	for _, m := range msgs {
		// A line starting with '#' or '!' is a comment and '=' ends a key
		// for other readers than Java's: such keys are refused.
		if strings.HasPrefix(m.Key, "#") || strings.HasPrefix(m.Key, "!") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q starts with a comment character", m.Key)})
			continue
		}
		if strings.Contains(m.Key, "=") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q holds '=', which a .properties writer would not escape", m.Key)})
			continue
		}
		if strings.Contains(m.Key+m.Text, "\x00") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: "a NUL character, which a .properties file cannot hold"})
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if file.Old == nil {
		st := propStyle{sep: "=", eol: "\n"}
		if src, err := loadProperties(file.SourceFile); file.SourceFile != nil && err == nil {
			st = styleOf(file.SourceFile, src.enc == properties.ISO_8859_1, src.entries())
		}
		return writeProperties(nil, st, propOrderKeys(msgs, propSourceOrder(file)), msgs)
	}
	old, err := loadProperties(file.Old)
	if err != nil {
		return nil, err
	}
	bom := 0
	if old.bom {
		bom = len(utf8BOM)
	}
	data := file.Old[bom:]
	latin1 := old.enc == properties.ISO_8859_1
	entries := old.entries()
	st := styleOf(data, latin1, entries)
	last := make(map[string]int, len(entries)) // key -> its last definition
	for i, e := range entries {
		last[e.key] = i
	}
	consistent := len(last) == old.p.Len()
	for _, k := range old.p.Keys() {
		if _, ok := last[k]; !ok {
			consistent = false
		}
	}
	if !consistent {
		// Not seen in bytes as the library reads it: written anew, every key kept.
		all := slices.Clone(msgs)
		for _, k := range old.p.Keys() {
			if _, ok := slices.BinarySearchFunc(msgs, k, func(m locales.Message, k string) int { return strings.Compare(m.Key, k) }); !ok {
				v, _ := old.p.Get(k)
				all = append(all, locales.Message{Key: k, Text: v})
			}
		}
		return writeProperties(file.Old[:bom], st, propOrderKeys(all, old.p.Keys(), propSourceOrder(file)), all)
	}
	var edits []propEdit
	isNew := map[string]locales.Message{}
	for _, m := range msgs {
		i, ok := last[m.Key]
		if !ok {
			isNew[m.Key] = m
			continue
		}
		if v, _ := old.p.Get(m.Key); v == m.Text {
			continue
		}
		e := entries[i]
		var text []byte
		if e.valStart == e.keyEnd && m.Text != "" {
			text = append(text, st.sep...)
		}
		text, ok = appendProperties(text, m.Text, false, st, e.contIndent)
		if !ok {
			problems = append(problems, beyondLatin1(m.Key))
			continue
		}
		if e.cont && e.contIndent == "" {
			// A continued line with no blank: a break cannot be told from
			// the text, so the new text is written on one line.
			text, _ = appendProperties(text[:0], m.Text, false, st, "")
		}
		edits = append(edits, propEdit{start: e.valStart, end: e.end, text: text})
	}
	// A new key goes after the key before it in the source file's order
	// that this file has, else at the end.
	after := map[int][]string{} // entry -> new keys after it; -1: at the end
	placed := map[string]bool{}
	prev := -1
	for _, k := range propSourceOrder(file) {
		if i, ok := last[k]; ok {
			prev = i
		} else if _, ok := isNew[k]; ok && !placed[k] {
			after[prev] = append(after[prev], k)
			placed[k] = true
		}
	}
	for _, m := range msgs {
		if _, ok := isNew[m.Key]; ok && !placed[m.Key] {
			after[-1] = append(after[-1], m.Key)
		}
	}
	for i, keys := range after {
		pos, seq, sep := len(data), 1, st.sep
		if i >= 0 {
			e := entries[i]
			pos, seq, sep = propLineEnd(data, e.end), 0, e.sepOf(data)
		}
		// At the end of a file without a final line end, the new lines
		// come after one, and end without one.
		atEOF := pos == len(data) && len(data) > 0 && (data[len(data)-1] != '\n' && data[len(data)-1] != '\r' ||
			len(entries) > 0 && entries[len(entries)-1].end == len(data)) // a value continued past the last line end
		var text []byte
		for j, k := range keys {
			if atEOF || j > 0 {
				text = append(text, st.eol...)
			}
			var ok bool
			if text, ok = appendEntry(text, k, isNew[k].Text, sep, st); !ok {
				problems = append(problems, beyondLatin1(k))
			}
		}
		if !atEOF {
			text = append(text, st.eol...)
		}
		edits = append(edits, propEdit{start: pos, end: pos, seq: seq, text: text})
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	slices.SortFunc(edits, func(a, b propEdit) int { return cmp.Or(a.start-b.start, a.seq-b.seq) })
	out := make([]byte, 0, len(file.Old)+64*len(edits))
	out = append(out, file.Old[:bom]...)
	at := 0
	for _, e := range edits {
		out = append(out, data[at:e.start]...)
		out = append(out, e.text...)
		at = e.end
	}
	out = append(out, data[at:]...)
	if latin1 && utf8.Valid(out) && slices.ContainsFunc(out, func(c byte) bool { return c >= 0x80 }) {
		// The file would now read as UTF-8, and its bytes as other
		// characters: written anew in ASCII, which reads the same both ways.
		all := slices.Clone(msgs)
		for _, k := range old.p.Keys() {
			if _, ok := slices.BinarySearchFunc(msgs, k, func(m locales.Message, k string) int { return strings.Compare(m.Key, k) }); !ok {
				v, _ := old.p.Get(k)
				all = append(all, locales.Message{Key: k, Text: v})
			}
		}
		st.uEscapes, st.latin1 = true, false
		return writeProperties(file.Old[:bom], st, propOrderKeys(all, old.p.Keys(), propSourceOrder(file)), all)
	}
	return out, nil
}

// propLineEnd returns the offset after the line end at data[i], or i at the
// end of data.
func propLineEnd(data []byte, i int) int {
	switch {
	case i+1 < len(data) && data[i] == '\r' && data[i+1] == '\n':
		return i + 2
	case i < len(data):
		return i + 1
	}
	return i
}

// appendEntry appends a line's key, separator and value, without a
// line end.
func appendEntry(b []byte, key, text, sep string, st propStyle) ([]byte, bool) {
	b, ok := appendProperties(b, key, true, st, "")
	b = append(b, sep...)
	b, ok2 := appendProperties(b, text, false, st, "")
	return b, ok && ok2
}

func beyondLatin1(key string) locales.Problem {
	return locales.Problem{Key: key, Message: "a character beyond U+FFFF, which an ISO-8859-1 file cannot hold"}
}

// writeProperties writes msgs in the order of keys (every key of msgs)
// and in style st, after prefix (a byte order mark).
func writeProperties(prefix []byte, st propStyle, keys []string, msgs []locales.Message) ([]byte, error) {
	texts := byKey(msgs)
	out := slices.Clone(prefix)
	var problems []locales.Problem
	for _, k := range keys {
		var ok bool
		if out, ok = appendEntry(out, k, texts[k], st.sep, st); !ok {
			problems = append(problems, beyondLatin1(k))
		}
		out = append(out, st.eol...)
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if st.latin1 && utf8.Valid(out) && slices.ContainsFunc(out, func(c byte) bool { return c >= 0x80 }) {
		// These bytes would read as UTF-8, as other characters: ASCII
		// reads the same both ways.
		st.uEscapes, st.latin1 = true, false
		return writeProperties(prefix, st, keys, msgs)
	}
	return out, nil
}

// propSourceOrder returns the keys of the source language's file in its
// order: of file.SourceFile when there is one, else of file.Source by
// line.
func propSourceOrder(file locales.File) []string {
	if file.SourceFile != nil {
		if src, err := loadProperties(file.SourceFile); err == nil {
			var keys []string
			scanProperties(src.data, src.enc == properties.ISO_8859_1, func(e propEntry) { keys = append(keys, e.key) })
			return keys
		}
	}
	return linesOrder(file.Source)
}

// linesOrder returns the keys of source in the order of their lines
// (in key order when no line is known).
func linesOrder(source []locales.Message) []string {
	src := slices.Clone(source)
	slices.SortStableFunc(src, func(a, b locales.Message) int { return a.Line - b.Line })
	keys := make([]string, len(src))
	for i, m := range src {
		keys[i] = m.Key
	}
	return keys
}

// propOrderKeys returns the keys of msgs: first in the orders of lead, one
// after the other, then the rest in key order.
func propOrderKeys(msgs []locales.Message, lead ...[]string) []string {
	want := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		want[m.Key] = true
	}
	keys := make([]string, 0, len(msgs))
	for _, order := range lead {
		for _, k := range order {
			if want[k] {
				keys = append(keys, k)
				delete(want, k)
			}
		}
	}
	for _, m := range msgs {
		if want[m.Key] {
			keys = append(keys, m.Key)
			delete(want, m.Key)
		}
	}
	return keys
}
