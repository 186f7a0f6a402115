// Package input holds what package locales and the formats of
// locales/formats share to check and describe their input: bytes that
// are not UTF-8, keys, quoting for messages, language codes.
package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Where names what holds a byte: the key and the language, as far as
// the format tells.
type Where struct {
	Key, Language string
}

// Bad is one line holding bytes that are not UTF-8.
type Bad struct {
	Where
	Line    int
	Message string
}

// Quote quotes s for a message, cut to a readable length.
func Quote(s string) string {
	const max = 80
	if len(s) > max {
		s = strings.ToValidUTF8(s[:max], "") + "…"
	}
	return fmt.Sprintf("%q", s)
}

// CheckKey returns what is wrong with a joined key, or "".
func CheckKey(key string) string {
	switch {
	case key == "":
		return "empty key"
	case strings.HasPrefix(key, ".") || strings.HasSuffix(key, ".") || strings.Contains(key, ".."):
		return fmt.Sprintf("key %s has an empty level", Quote(key))
	}
	return ""
}

// Kind names a JSON token for a message.
func Kind(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
	}
	return fmt.Sprint(tok)
}

// LanguageKey returns the key under which language codes are compared:
// codes that differ only in case are one language.
func LanguageKey(code string) string { return strings.ToLower(code) }

// NotUTF8 returns a problem for each line of data that holds bytes that
// are not UTF-8, naming the first such byte, or nil when data is UTF-8;
// after maxNotUTF8 lines, one more problem says there are more. keyOf,
// when not nil, returns what the problem's Key (and Language) should be
// for the byte at an offset; it is asked for growing offsets.
// maxNotUTF8 bounds the lines notUTF8 reports, so that a large file in
// another encoding does not make a problem of every line.
const maxNotUTF8 = 100

func NotUTF8(data []byte, keyOf func(off int) Where) []Bad {
	if utf8.Valid(data) {
		return nil
	}
	var problems []Bad
	line, lineStart := 1, 0
	for i := 0; i < len(data); {
		c := data[i]
		if c == '\n' {
			line, lineStart = line+1, i+1
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r != utf8.RuneError || size != 1 {
			i += size
			continue
		}
		if len(problems) == maxNotUTF8 {
			problems = append(problems, Bad{Line: line, Message: "more lines are not UTF-8"})
			break
		}
		var p Bad
		if keyOf != nil {
			p.Where = keyOf(i)
		}
		p.Line = line
		p.Message = fmt.Sprintf("byte 0x%02X (column %d) is not UTF-8; save the file as UTF-8", c, i-lineStart+1)
		if p.Key != "" {
			p.Message = fmt.Sprintf("key %s: %s", Quote(p.Key), p.Message)
		}
		problems = append(problems, p)
		// One problem a line: go on at the next line.
		if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
			i += j
		} else {
			break
		}
	}
	return problems
}

// JSONNotUTF8 is NotUTF8 for a JSON document: keyOf is given the path
// of the member or item holding the offset (object member names and
// array indexes from the root), nil when it is not in a string.
func JSONNotUTF8(data []byte, keyOf func(path []string) Where) []Bad {
	if utf8.Valid(data) {
		return nil
	}
	// spans are the strings holding bad bytes, with their paths.
	type span struct {
		start, end int
		path       []string
	}
	var spans []span
	dec := json.NewDecoder(bytes.NewReader(data))
	// path is the members and items down to the next value; isKey
	// tells, per open container, whether the next string is a member
	// name (objects) and holds an array's next index.
	var path []string
	type frame struct {
		object bool
		key    bool
		index  int
	}
	var stack []frame
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			break
		}
		after := int(dec.InputOffset())
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && top.object && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack, path = stack[:len(stack)-1], path[:len(path)-1]
				continue
			}
			name, _ := tok.(string)
			path[len(path)-1] = name
			top.key = false
			if !utf8.Valid(data[before:after]) {
				spans = append(spans, span{before, after, slices.Clone(path)})
			}
			continue
		}
		if top != nil && !top.object {
			if d, ok := tok.(json.Delim); ok && d == ']' {
				stack, path = stack[:len(stack)-1], path[:len(path)-1]
				continue
			}
			path[len(path)-1] = strconv.Itoa(top.index)
			top.index++
		}
		if top != nil && top.object {
			top.key = true
		}
		switch tok {
		case json.Delim('{'):
			stack, path = append(stack, frame{object: true, key: true}), append(path, "")
		case json.Delim('['):
			stack, path = append(stack, frame{}), append(path, "")
		default:
			if !utf8.Valid(data[before:after]) {
				spans = append(spans, span{before, after, slices.Clone(path)})
			}
		}
	}
	// notUTF8 asks for growing offsets.
	return NotUTF8(data, func(off int) Where {
		for len(spans) > 0 && spans[0].end <= off {
			spans = spans[1:]
		}
		if len(spans) > 0 && spans[0].start <= off {
			return keyOf(spans[0].path)
		}
		return Where{}
	})
}

// WriteJSONString writes s as a JSON string as encoding/json does with
// SetEscapeHTML(false): quotes, backslashes and control characters
// escaped, U+2028 and U+2029 too (JavaScript reads them as line ends),
// invalid UTF-8 as U+FFFD, everything else as it is.
func WriteJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// IsDigits reports whether s is made of ASCII digits only.
func IsDigits(s string) bool {
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Lines finds the line of growing byte offsets into Data.
type Lines struct {
	Data []byte
	off  int64
	line int
}

// At returns the line (from 1) of byte offset off; offsets must not
// shrink between calls.
func (l *Lines) At(off int64) int {
	if off > int64(len(l.Data)) {
		off = int64(len(l.Data))
	}
	if off > l.off {
		l.line += bytes.Count(l.Data[l.off:off], []byte{'\n'})
		l.off = off
	}
	return l.line + 1
}
