package input

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file reads a JSON document into where its parts are: each
// object's members in order, with the offsets of their names and values.
// Writing a locale file over itself byte for byte, and naming the line
// of each key, need exactly that; encoding/json gives it only through
// Decoder.Token and InputOffset, token by token, at about five times the
// cost of a json.Unmarshal (and a *json.SyntaxError built for every
// value streamed that way). So encoding/json validates the document (one
// json.Valid, and the position and text of what is wrong from
// json.Unmarshal when it is not valid) and unquotes every string that
// holds an escape; the walk below only follows the structure of bytes
// that encoding/json has accepted: where a value starts and ends. It
// never reads past what encoding/json accepted, and objects deeper than
// a bound are not followed.

// A JSONObject is an object of a JSON document and where its parts are
// in the document's bytes.
type JSONObject struct {
	// Open and Close are the offsets of the object's '{' and '}'.
	Open, Close int
	// Depth is the object's: the root is 0.
	Depth   int
	Members []*JSONMember
	// Cut says the document ends, or is not valid JSON, before the
	// object's '}' (see ReadJSONObject): Close is not set.
	Cut   bool
	index map[string]*JSONMember
}

// A JSONMember is a member of a JSONObject.
type JSONMember struct {
	Name string
	// NameStart is the offset of the '"' that opens the name.
	NameStart int
	// Lead is the white space between the ',' or '{' before the member
	// and its name; Colon what is between its name and its value.
	Lead, Colon string
	// ValueStart and ValueEnd delimit the value.
	ValueStart, ValueEnd int
	// Value is the value's token: a string, nil for null, a bool, a
	// json.Number, or json.Delim('{') for an object (Object) and
	// json.Delim('[') for an array.
	Value json.Token
	// Object is the value when it is an object.
	Object *JSONObject
	// Cut says the document ends, or is not valid JSON, or nests objects
	// too deep, before the end of the value: Value is nil unless the
	// value is an object or an array, ValueEnd is not set.
	Cut bool
}

// Member returns o's member named name (the first, when o repeats it),
// or nil. An object of many members is indexed on the first call, so
// that looking up each of them is not quadratic.
func (o *JSONObject) Member(name string) *JSONMember {
	if o == nil {
		return nil
	}
	if len(o.Members) <= 32 {
		for _, m := range o.Members {
			if m.Name == name {
				return m
			}
		}
		return nil
	}
	if o.index == nil {
		o.index = make(map[string]*JSONMember, len(o.Members))
		for _, m := range o.Members {
			if _, dup := o.index[m.Name]; !dup {
				o.index[m.Name] = m
			}
		}
	}
	return o.index[name]
}

// A JSONErrorKind says what a JSONError is.
type JSONErrorKind int

// The kinds of JSONError.
const (
	// JSONSyntax: the document is not valid JSON; Msg is encoding/json's
	// text.
	JSONSyntax JSONErrorKind = iota + 1
	// JSONEndsEarly: the document ends before its value does.
	JSONEndsEarly
	// JSONMore: a JSON value follows the root object.
	JSONMore
	// JSONNotObject: the root is another value; Msg names it ("an
	// array").
	JSONNotObject
	// JSONTooDeep: objects nest deeper than the bound given.
	JSONTooDeep
)

// A JSONError is why ReadJSONObject could not read a whole document.
type JSONError struct {
	Kind JSONErrorKind
	// Offset is where it is: the byte offset whose line names it.
	Offset int
	Msg    string
}

func (e *JSONError) Error() string {
	switch e.Kind {
	case JSONEndsEarly:
		return "the file ends early"
	case JSONMore:
		return "more JSON after the object"
	case JSONNotObject:
		return fmt.Sprintf("the file holds %s; want a JSON object", e.Msg)
	}
	return e.Msg
}

// ReadJSONObject reads data, one JSON object, into where its members
// are, following objects nested up to maxDepth below the root.
// encoding/json validates data and unquotes the strings with escapes;
// ReadJSONObject only walks the structure of what encoding/json
// accepted, for what encoding/json does not give but token by token at
// about five times the cost: members in order, with the offsets a write
// over the file byte for byte and the line of each key need. When
// data does not read whole, it returns a *JSONError and, for kinds
// JSONSyntax, JSONEndsEarly and JSONTooDeep, the object as far as it
// reads: the objects and the member that the error cuts are marked Cut,
// so that a format can name the key where the file goes wrong after the
// problems of what comes before it.
func ReadJSONObject(data []byte, maxDepth int) (*JSONObject, error) {
	limit, syntax := len(data), error(nil)
	if !json.Valid(data) {
		var raw json.RawMessage
		err := json.Unmarshal(data, &raw) // the same check, with its place and text
		se, ok := err.(*json.SyntaxError)
		if !ok {
			return nil, &JSONError{Kind: JSONSyntax, Msg: fmt.Sprint(err)}
		}
		// At the end of data, encoding/json reads a space to end a
		// number or refuse what is left open.
		atEnd := int(se.Offset) == len(data) && (len(data) == 0 || data[len(data)-1] != ' ')
		if se.Error() == "unexpected end of JSON input" || atEnd && strings.HasPrefix(se.Error(), "invalid character ' '") {
			syntax = &JSONError{Kind: JSONEndsEarly, Offset: len(bytes.TrimRight(data, " \t\r\n"))}
		} else {
			limit = max(0, min(int(se.Offset)-1, len(data)))
			syntax = &JSONError{Kind: JSONSyntax, Offset: limit, Msg: se.Error()} // the byte refused
		}
	}
	r := jsonReader{data: data[:limit], s: string(data[:limit]), max: maxDepth}
	if je, ok := syntax.(*JSONError); ok {
		// A literal that data ends in is whole when encoding/json
		// finds what is wrong after it, or finds the file ends there
		// and a number or a word can end there.
		r.wholeAtEnd = je.Kind == JSONEndsEarly || strings.HasSuffix(je.Msg, "after object key:value pair")
	}
	i := r.space(0)
	if i < limit && data[i] != '{' {
		return nil, notObject(data)
	}
	if i >= limit {
		if syntax == nil { // not reached: valid JSON holds a value
			syntax = &JSONError{Kind: JSONEndsEarly}
		}
		return nil, syntax
	}
	root, end, ok := r.object(i, 0)
	switch {
	case r.deep != nil:
		return root, r.deep
	case !ok:
		return root, syntax
	case syntax != nil:
		// What follows the object is not white space: another value
		// ("more JSON"), or what is not JSON at all.
		dec := json.NewDecoder(bytes.NewReader(data[end:]))
		_, err := dec.Token()
		if err == nil {
			return root, &JSONError{Kind: JSONMore, Offset: end + int(dec.InputOffset())}
		}
		off := end + int(dec.InputOffset())
		if se, ok := err.(*json.SyntaxError); ok {
			off = end + int(se.Offset) - 1
			return root, &JSONError{Kind: JSONSyntax, Offset: off, Msg: se.Error()}
		}
		return root, &JSONError{Kind: JSONSyntax, Offset: off, Msg: err.Error()}
	}
	return root, nil
}

// notObject returns the error of a document whose root is not an
// object: what it holds, or what is wrong with its first value.
func notObject(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err == nil {
		return &JSONError{Kind: JSONNotObject, Offset: 0, Msg: Kind(tok)}
	}
	if se, ok := err.(*json.SyntaxError); ok {
		return &JSONError{Kind: JSONSyntax, Offset: max(0, int(se.Offset)-1), Msg: se.Error()}
	}
	return &JSONError{Kind: JSONEndsEarly, Offset: int(dec.InputOffset())}
}

// jsonReader walks the structure of data, a prefix of a document that
// encoding/json accepted: it checks nothing but the end of data.
type jsonReader struct {
	data []byte
	s    string // data, whose substrings names and white space are
	max  int
	deep *JSONError // the first object deeper than max
	// wholeAtEnd: see ReadJSONObject.
	wholeAtEnd bool
	stack      []*JSONMember // the members of the objects being read
}

func (r *jsonReader) space(i int) int {
	for i < len(r.data) {
		switch r.data[i] {
		case ' ', '\t', '\r', '\n':
			i++
		default:
			return i
		}
	}
	return i
}

// object reads the object whose '{' is at i, of depth depth. It returns
// the offset after its '}', and false when data ends before it.
func (r *jsonReader) object(i, depth int) (*JSONObject, int, bool) {
	o := &JSONObject{Open: i, Depth: depth}
	// The members are gathered on r.stack, above those of the objects
	// holding o, and copied once their number is known.
	base := len(r.stack)
	end, ok := r.members(o, i, depth)
	if n := len(r.stack) - base; n > 0 {
		o.Members = make([]*JSONMember, n)
		copy(o.Members, r.stack[base:])
		clear(r.stack[base:])
		r.stack = r.stack[:base]
	}
	return o, end, ok
}

// members reads the members of o, whose '{' is at i, onto r.stack.
func (r *jsonReader) members(o *JSONObject, i, depth int) (int, bool) {
	lead := i + 1
	i = r.space(i + 1)
	if i < len(r.data) && r.data[i] == '}' {
		o.Close = i
		return i + 1, true
	}
	for {
		if i >= len(r.data) || r.data[i] != '"' {
			o.Cut = true
			return i, false
		}
		end, ok := r.stringEnd(i)
		if !ok {
			o.Cut = true
			return i, false
		}
		m := &JSONMember{Name: r.text(i, end), NameStart: i, Lead: r.s[lead:i]}
		r.stack = append(r.stack, m)
		j := r.space(end)
		if j >= len(r.data) || r.data[j] != ':' {
			m.Cut, o.Cut = true, true
			return j, false
		}
		j = r.space(j + 1)
		m.Colon, m.ValueStart = r.s[end:j], j
		k, ok := r.value(m, j, depth)
		if !ok {
			m.Cut, o.Cut = true, true
			return k, false
		}
		m.ValueEnd = k
		i = r.space(k)
		if i >= len(r.data) {
			o.Cut = true
			return i, false
		}
		switch r.data[i] {
		case ',':
			lead = i + 1
			i = r.space(i + 1)
		case '}':
			o.Close = i
			return i + 1, true
		default: // not reached: encoding/json accepted data
			o.Cut = true
			return i, false
		}
	}
}

// value reads the value of m at j, in an object of depth depth, and
// returns the offset after it, and false when data ends before it.
func (r *jsonReader) value(m *JSONMember, j, depth int) (int, bool) {
	if j >= len(r.data) {
		return j, false
	}
	switch c := r.data[j]; c {
	case '{':
		m.Value = json.Delim('{')
		if depth+1 > r.max {
			r.deep = &JSONError{Kind: JSONTooDeep, Offset: j + 1, Msg: fmt.Sprintf("objects nested more than %d deep", r.max)}
			r.data = r.data[:j] // read no further
			return j, false
		}
		var ok bool
		m.Object, j, ok = r.object(j, depth+1)
		return j, ok
	case '[':
		m.Value = json.Delim('[')
		return r.skipArray(j)
	case '"':
		end, ok := r.stringEnd(j)
		if !ok {
			return j, false
		}
		m.Value = r.text(j, end)
		return end, true
	default:
		k := j
		for k < len(r.data) && isLiteral(r.data[k]) {
			k++
		}
		if k >= len(r.data) && !r.whole(r.s[j:k]) { // a literal is followed by ',' or '}'
			return k, false
		}
		switch c {
		case 'n':
			m.Value = nil
		case 't':
			m.Value = true
		case 'f':
			m.Value = false
		default:
			m.Value = json.Number(r.s[j:k])
		}
		return k, true
	}
}

// whole reports whether lit, a literal data ends in, is whole.
func (r *jsonReader) whole(lit string) bool {
	if !r.wholeAtEnd || lit == "" {
		return false
	}
	switch lit[0] {
	case 't', 'f', 'n':
		return lit == "true" || lit == "false" || lit == "null"
	}
	c := lit[len(lit)-1]
	return '0' <= c && c <= '9'
}

func isLiteral(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '+' || c == '-' || c == 'E'
}

// stringEnd returns the offset after the string whose '"' is at i, and
// false when data ends before it.
func (r *jsonReader) stringEnd(i int) (int, bool) {
	for j := i + 1; ; {
		k := bytes.IndexByte(r.data[j:], '"')
		if k < 0 {
			return len(r.data), false
		}
		q := j + k
		b := q
		for b > i+1 && r.data[b-1] == '\\' {
			b--
		}
		if (q-b)%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// text returns the text of the string data[i:end].
func (r *jsonReader) text(i, end int) string {
	return unquote(r.s[i:end])
}

// JSONString returns the text of raw, one JSON value encoding/json has
// accepted (a json.RawMessage it decoded), and whether it is a string.
func JSONString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	return unquote(string(raw)), true
}

// unquote returns the text of q, a JSON string encoding/json has
// accepted: q's own bytes when it holds no escape and is UTF-8, else
// what encoding/json unquotes.
func unquote(q string) string {
	if in := q[1 : len(q)-1]; !strings.Contains(in, `\`) && utf8.ValidString(in) {
		return in
	}
	var s string
	_ = json.Unmarshal([]byte(q), &s)
	return s
}

// skipArray returns the offset after the array whose '[' is at i, and
// false when data ends before it.
func (r *jsonReader) skipArray(i int) (int, bool) {
	depth := 0
	for i < len(r.data) {
		switch r.data[i] {
		case '"':
			end, ok := r.stringEnd(i)
			if !ok {
				return end, false
			}
			i = end
			continue
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1, true
			}
		}
		i++
	}
	return i, false
}
