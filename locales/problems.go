package locales

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	partner "github.com/locsvc/partner-go"
)

// A Problem is one thing wrong with the input: a file that cannot be
// read, a key that cannot be sent, a language the project lacks.
type Problem struct {
	// File is the file's path, relative to the tree's root (slashes); ""
	// when the problem is not in one file.
	File string `json:"file,omitempty"`
	// Line is the line in File, from 1; 0 when not known.
	Line int `json:"line,omitempty"`
	// Language and Namespace are those of the file, when known.
	Language  string `json:"language,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Key is the key concerned, when there is one.
	Key string `json:"key,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// String returns the problem as "file:line: message".
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			b.WriteString(":" + strconv.Itoa(p.Line))
		}
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// InputError is the error of input the library refuses: it lists every
// problem found, sorted by file and line. Nothing was written. It
// matches partner.ErrInvalidArgument with errors.Is.
type InputError struct {
	Problems []Problem
}

// maxListed is how many problems Error lists.
const maxListed = 20

// Error lists the problems, one a line, up to 20.
func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "locales: %d problem", len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(", nothing written:")
	for i, p := range e.Problems {
		if i == maxListed {
			fmt.Fprintf(&b, "\n\t… and %d more", len(e.Problems)-maxListed)
			break
		}
		b.WriteString("\n\t" + p.String())
	}
	return b.String()
}

// Is reports whether target is partner.ErrInvalidArgument.
func (e *InputError) Is(target error) bool { return target == partner.ErrInvalidArgument }

// inputError returns the problems as an *InputError, sorted, or nil
// when there are none.
func inputError(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key))
	})
	return &InputError{Problems: ps}
}

// notUTF8 returns a problem for each line of data that holds bytes that
// are not UTF-8, naming the first such byte, or nil when data is UTF-8;
// after maxNotUTF8 lines, one more problem says there are more. keyOf,
// when not nil, returns what the problem's Key (and Language) should be
// for the byte at an offset; it is asked for growing offsets.
// maxNotUTF8 bounds the lines notUTF8 reports, so that a large file in
// another encoding does not make a problem of every line.
const maxNotUTF8 = 100

func notUTF8(data []byte, keyOf func(off int) Problem) []Problem {
	if utf8.Valid(data) {
		return nil
	}
	var problems []Problem
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
			problems = append(problems, Problem{Line: line, Message: "more lines are not UTF-8"})
			break
		}
		var p Problem
		if keyOf != nil {
			p = keyOf(i)
		}
		p.Line = line
		p.Message = fmt.Sprintf("byte 0x%02X (column %d) is not UTF-8; save the file as UTF-8", c, i-lineStart+1)
		if p.Key != "" {
			p.Message = fmt.Sprintf("key %s: %s", quote(p.Key), p.Message)
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

// jsonNotUTF8 is notUTF8 for a JSON document: keyOf is given the path
// of the member or item holding the offset (object member names and
// array indexes from the root), nil when it is not in a string.
func jsonNotUTF8(data []byte, keyOf func(path []string) Problem) []Problem {
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
	return notUTF8(data, func(off int) Problem {
		for len(spans) > 0 && spans[0].end <= off {
			spans = spans[1:]
		}
		if len(spans) > 0 && spans[0].start <= off {
			return keyOf(spans[0].path)
		}
		return Problem{}
	})
}
