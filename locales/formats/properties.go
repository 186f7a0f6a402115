package formats

import (
	"bytes"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"strings"
	"unicode/utf8"

	"github.com/magiconair/properties"

	"github.com/locsvc/partner-go/locales"
)

// Properties is Java's .properties resource bundles
// (messages_de.properties in Java, <lang>.properties here), read and
// written with github.com/magiconair/properties, the kept Go parser of
// the format (viper's), with ${…} expansion off: a text is what the file
// says.
//
// A file is read as UTF-8 (Java 9 and later read resource bundles so)
// or, when it is not valid UTF-8, as ISO-8859-1 (older Java), and is
// written back in the same encoding (unless no character that made it
// ISO-8859-1 is left: then in UTF-8), a new file in UTF-8. A UTF-8 byte
// order mark is passed over and written back. Java reads neither UTF-16
// nor NUL bytes in a .properties file: a file with a UTF-16 byte order
// mark or a NUL byte (UTF-16 without a mark) is refused. In
// ISO-8859-1 the library writes other characters as \uXXXX but those
// beyond U+FFFF as '?': such texts are refused there. A key
// written twice is read as Java reads it: the last wins. Write keeps the
// comments before each key and the keys' order; new keys are added at
// the end in key order. Keys are flat: dotted keys are written whole.
// The library's writer escapes ' ' and ':' in a key but not '=' or a
// leading '#' or '!', nor NUL anywhere: a key holding those reads, but
// is refused on write, as is a text holding NUL.
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
	enc   properties.Encoding
	bom   bool
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
	f.lines = keyLines(text)
	return f, nil
}

// keyLines returns the line of each key's last definition in text, a
// file the library read: it follows the library's lexer (lex.go) for
// where keys start and end, and has the library unescape a key that
// holds a backslash.
func keyLines(text []byte) map[string]int {
	lines := map[string]int{}
	line := 1
	i := 0
	next := func() byte { // the next byte, counting lines; 0 at the end
		if i >= len(text) {
			return 0
		}
		c := text[i]
		i++
		if c == '\n' {
			line++
		}
		return c
	}
	for i < len(text) {
		// Before a key: line ends, blanks and comment lines.
		switch c := next(); c {
		case '\n', '\r', ' ', '\t', '\f':
			continue
		case '#', '!':
			for c != 0 && c != '\n' && c != '\r' {
				c = next()
			}
			continue
		}
		i--
		start, at := i, line
		for i < len(text) && !endsKey(text[i]) {
			if next() == '\\' {
				next()
			}
		}
		key := string(text[start:i])
		if strings.Contains(key, "\\") {
			l := &properties.Loader{Encoding: properties.UTF8, DisableExpansion: true}
			p, err := l.LoadBytes([]byte(key + "="))
			if err != nil || len(p.Keys()) != 1 {
				key = ""
			} else {
				key = p.Keys()[0]
			}
		}
		lines[key] = at
		// The delimiter and the value, to the line's end; a backslash
		// before a line end goes on to the next line.
		for i < len(text) {
			c := next()
			if c == '\\' {
				next()
				continue
			}
			if c == '\n' || c == '\r' {
				break
			}
		}
	}
	return lines
}

// endsKey reports whether c ends a key (the library's isEndOfKey).
func endsKey(c byte) bool {
	switch c {
	case ' ', '\f', '\t', '\r', '\n', ':', '=':
		return true
	}
	return false
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

// Encode writes msgs over file.Old, keeping its comments and order.
func (Properties) Encode(file locales.File, msgs []locales.Message) ([]byte, error) {
	p := properties.NewProperties()
	p.DisableExpansion = true
	enc, bom := properties.UTF8, false
	if file.Old != nil {
		old, err := loadProperties(file.Old)
		if err != nil {
			return nil, err
		}
		enc, bom = old.enc, old.bom
		texts := map[string]bool{}
		for _, m := range msgs {
			texts[m.Key] = true
		}
		// The old keys the texts keep, in order, with their comments
		// (Delete would be linear in the keys for each key removed).
		for _, k := range old.p.Keys() {
			if texts[k] {
				v, _ := old.p.Get(k)
				p.Set(k, v)
				p.SetComments(k, old.p.GetComments(k))
			}
		}
	}
	var problems []locales.Problem
	for _, m := range msgs {
		// The writer escapes ' ' and ':' in a key, but not a leading '#' or
		// '!' (the line would read as a comment) nor '=' (the key would end
		// there).
		if strings.HasPrefix(m.Key, "#") || strings.HasPrefix(m.Key, "!") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q starts with a comment character", m.Key)})
			continue
		}
		if strings.Contains(m.Key, "=") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q holds '=', which a .properties writer would not escape", m.Key)})
			continue
		}
		if strings.Contains(m.Key+m.Text, "\x00") {
			// The writer writes it as it is, and a NUL is refused on reading.
			problems = append(problems, locales.Problem{Key: m.Key, Message: "a NUL character, which a .properties file cannot hold"})
			continue
		}
		if enc == properties.ISO_8859_1 && strings.IndexFunc(m.Key+m.Text, func(r rune) bool { return r > 0xFFFF }) >= 0 {
			problems = append(problems, locales.Problem{Key: m.Key, Message: "a character beyond U+FFFF, which an ISO-8859-1 file cannot hold"})
			continue
		}
		if _, _, err := p.Set(m.Key, m.Text); err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var b bytes.Buffer
	if bom {
		b.WriteString(utf8BOM)
	}
	if _, err := p.WriteComment(&b, "# ", enc); err != nil {
		return nil, err
	}
	if enc == properties.ISO_8859_1 {
		return latin1(b.Bytes()), nil
	}
	return b.Bytes(), nil
}

// latin1 returns the library's ISO-8859-1 output, which writes U+0080 to
// U+00FF in UTF-8 (and the others as \uXXXX), in ISO-8859-1. When those
// bytes would read as UTF-8 (the text that made the file ISO-8859-1 is
// gone), it returns out: UTF-8, which reads back as the same texts.
func latin1(out []byte) []byte {
	l := make([]byte, 0, len(out))
	for _, r := range string(out) {
		if r > 0xFF {
			return out
		}
		l = append(l, byte(r))
	}
	if utf8.Valid(l) {
		return out
	}
	return l
}
