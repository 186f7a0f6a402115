package input

import (
	"bytes"
	"encoding/json"
	"strings"
)

// jsonMaxDepth bounds the nesting ParseJSONObject follows.
const jsonMaxDepth = 1000

// ParseJSONObject reads data, one JSON object, into where its members
// are (see ReadJSONObject). Its errors are *JSONError; a format reports
// its own problems before it calls ParseJSONObject, which only places
// what it has checked.
func ParseJSONObject(data []byte) (*JSONObject, error) {
	o, err := ReadJSONObject(data, jsonMaxDepth)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// Indent returns the white space before the member on its line, or ""
// when the member does not start a line.
func (m *JSONMember) Indent() (string, bool) {
	i := strings.LastIndexByte(m.Lead, '\n')
	if i < 0 {
		return "", false
	}
	return m.Lead[i+1:], true
}

// A JSONStyle is how a JSON document is laid out, for what is written
// into it or after its example.
type JSONStyle struct {
	// Newline ends lines: "\n" or "\r\n"; "" for a document on one line
	// (Indent is then "").
	Newline string
	// Indent is one level of indentation: "  ", "    ", "\t".
	Indent string
	// Colon is what is between a member's name and its value: ": ".
	Colon string
	// End is what follows the root object: "\n", or "".
	End string
}

// DefaultJSONStyle returns two spaces, ": " and a final newline.
func DefaultJSONStyle() JSONStyle {
	return JSONStyle{Newline: "\n", Indent: "  ", Colon: ": ", End: "\n"}
}

// Style returns the style of data, whose root object o is: that of
// its first member, and the default for an empty object.
func (o *JSONObject) Style(data []byte) JSONStyle {
	st := DefaultJSONStyle()
	st.End = string(data[o.Close+1:])
	if len(o.Members) == 0 {
		return st
	}
	m := o.Members[0]
	st.Colon = m.Colon
	if ind, ok := m.Indent(); ok {
		st.Indent = ind
		st.Newline = "\n"
		if strings.HasSuffix(m.Lead[:len(m.Lead)-len(ind)], "\r\n") {
			st.Newline = "\r\n"
		}
	} else {
		st.Newline, st.Indent = "", ""
	}
	return st
}

// A JSONOut is an object to write: one of a document (Old), whose bytes
// are kept but where its members say otherwise, or a new one.
type JSONOut struct {
	Old     *JSONObject
	members []*JSONOutMember // Old's, then those added at the end
	index   map[string]*JSONOutMember
}

// A JSONOutMember is a member of a JSONOut.
type JSONOutMember struct {
	Name string
	// Old is the member as the document has it; nil for a new member.
	Old *JSONMember
	// Value is the value's bytes to write, nil to keep Old's. A value
	// copied from another document on several lines has its lines
	// indented for a member indented by ValueIndent: they are indented
	// again for this one.
	Value       []byte
	ValueIndent string
	// Object is the value when it is an object.
	Object *JSONOut
	after  []*JSONOutMember // added right after this member, in order
}

// NewJSONOut returns the JSONOut of old, every member as it is; nil is
// a new, empty object.
func NewJSONOut(old *JSONObject) *JSONOut {
	o := &JSONOut{Old: old, index: map[string]*JSONOutMember{}}
	if old == nil {
		return o
	}
	o.members = make([]*JSONOutMember, len(old.Members))
	for i, m := range old.Members {
		om := &JSONOutMember{Name: m.Name, Old: m}
		if m.Object != nil {
			om.Object = NewJSONOut(m.Object)
		}
		o.members[i] = om
		if _, dup := o.index[m.Name]; !dup {
			o.index[m.Name] = om
		}
	}
	return o
}

// Member returns o's member named name (the first, when the document
// repeats it), or nil.
func (o *JSONOut) Member(name string) *JSONOutMember { return o.index[name] }

// Members returns o's members in the order they are written.
func (o *JSONOut) Members() []*JSONOutMember {
	out := make([]*JSONOutMember, 0, len(o.members))
	var walk func(ms []*JSONOutMember)
	walk = func(ms []*JSONOutMember) {
		for _, m := range ms {
			out = append(out, m)
			walk(m.after)
		}
	}
	walk(o.members)
	return out
}

// Add adds m to o right after the member after (after what was added
// after it before), or at the end when after is nil.
func (o *JSONOut) Add(after, m *JSONOutMember) {
	if after == nil {
		o.members = append(o.members, m)
	} else {
		after.after = append(after.after, m)
	}
	if _, dup := o.index[m.Name]; !dup {
		o.index[m.Name] = m
	}
}

// Write returns the document of root o: data, o's document, with only
// what o changes changed, or, when o is new (data nil), o written in
// style st. Members added to an object of data take the indentation,
// line ends and colon of the member they follow; new objects take st.
func (o *JSONOut) Write(data []byte, st JSONStyle) []byte {
	w := jsonWriter{data: data, st: st}
	w.b.Grow(len(data) + 64)
	if o.Old == nil {
		w.fresh(o, "")
		w.b.WriteString(st.End)
		return w.b.Bytes()
	}
	w.old(o, "")
	w.copyTo(len(data))
	return w.b.Bytes()
}

type jsonWriter struct {
	data []byte
	pos  int // data before pos is written
	st   JSONStyle
	b    bytes.Buffer
}

func (w *jsonWriter) copyTo(off int) {
	w.b.Write(w.data[w.pos:off])
	w.pos = off
}

// old writes what o changes in its object of data, whose '{' is on a
// line indented by ind.
func (w *jsonWriter) old(o *JSONOut, ind string) {
	members := o.Members()
	if len(o.Old.Members) == 0 {
		if len(members) > 0 {
			w.copyTo(o.Old.Open)
			w.fresh(o, ind)
			w.pos = o.Old.Close + 1
		}
		return
	}
	var prev *JSONOutMember // the last member of data written
	for _, m := range members {
		if m.Old != nil {
			prev = m
			switch {
			case m.Value != nil:
				w.copyTo(m.Old.ValueStart)
				w.value(m, memberIndent(m.Old, ind+w.st.Indent))
				w.pos = m.Old.ValueEnd
			case m.Object != nil:
				w.old(m.Object, memberIndent(m.Old, ind+w.st.Indent))
			}
			continue
		}
		w.copyTo(prev.Old.ValueEnd)
		w.b.WriteByte(',')
		w.b.WriteString(prev.Old.Lead)
		WriteJSONString(&w.b, m.Name)
		w.b.WriteString(prev.Old.Colon)
		w.value(m, memberIndent(prev.Old, ind+w.st.Indent))
	}
}

// memberIndent returns the indentation of m's line, or ind when m does
// not start a line.
func memberIndent(m *JSONMember, ind string) string {
	if i, ok := m.Indent(); ok {
		return i
	}
	return ind
}

// fresh writes o whole in the writer's style, its '{' on a line
// indented by ind.
func (w *jsonWriter) fresh(o *JSONOut, ind string) {
	members := o.Members()
	if len(members) == 0 {
		w.b.WriteString("{}")
		return
	}
	inner := ind + w.st.Indent
	w.b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			w.b.WriteByte(',')
		}
		w.b.WriteString(w.st.Newline)
		if w.st.Newline != "" {
			w.b.WriteString(inner)
		}
		WriteJSONString(&w.b, m.Name)
		w.b.WriteString(w.st.Colon)
		w.value(m, inner)
	}
	w.b.WriteString(w.st.Newline)
	if w.st.Newline != "" {
		w.b.WriteString(ind)
	}
	w.b.WriteByte('}')
}

// value writes m's new value for a member indented by ind.
func (w *jsonWriter) value(m *JSONOutMember, ind string) {
	if m.Object != nil {
		w.fresh(m.Object, ind)
		return
	}
	v := m.Value
	if bytes.IndexByte(v, '\n') < 0 {
		w.b.Write(v)
		return
	}
	if w.st.Newline == "" {
		if err := json.Compact(&w.b, v); err == nil {
			return
		}
	}
	// A line break in JSON is white space between tokens: a string
	// holds none.
	for i, line := range bytes.Split(v, []byte("\n")) {
		if i > 0 {
			line = bytes.TrimPrefix(line, []byte(m.ValueIndent))
			w.b.WriteString(w.st.Newline)
			w.b.WriteString(ind)
		}
		w.b.Write(bytes.TrimSuffix(line, []byte("\r")))
	}
}
