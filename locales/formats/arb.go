package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// ARB is Flutter's Application Resource Bundle (.arb): one JSON object
// whose members are messages ("key": "ICU text") and metadata: "@key"
// (the message's description and placeholders) and "@@locale" and
// other "@@" members of the file. Texts are ICU MessageFormat already,
// plurals included, and are kept as they are. Keys are message names,
// taken whole (see OpaqueKeys).
//
// Metadata is not a text: Load passes it over and Write keeps it.
// Written over a file, ARB keeps the file's bytes but for the texts
// that changed and the messages it adds, as JSON does; a message the
// catalog lacks (one only the target files have) stays. A new message
// goes after the member that precedes it in the template (File.SourceFile),
// else at the end, with the template's "@key" when the file holds
// metadata. A new file starts with "@@locale" set to its language as
// its name spells it (gen-l10n refuses one that differs from the name)
// and follows the template's order and indentation, each message with
// the template's "@key" unless BareTargets; without a template, its
// messages are sorted. A null message is one not translated yet (see
// locales.Message.Untranslated), as in JSON. A message that is not a string, an "@key" that
// is not an object, and bytes that are not UTF-8 are refused.
type ARB struct {
	// BareTargets says the tree's target files hold no "@key" metadata,
	// only the template does (as in Flutter Gallery): a new target file
	// then has messages only. gen-l10n reads a target's placeholders
	// where it has them and the template's otherwise, so copies of the
	// template's are the same; a tree's own convention is what keeps a
	// pull from showing as a change.
	BareTargets bool
}

// Ext returns ".arb".
func (ARB) Ext() string { return ".arb" }

// OpaqueKeys returns true: ARB keys are message names.
func (ARB) OpaqueKeys() bool { return true }

// arbMember is one member of an ARB file, in the file's order.
type arbMember struct {
	name string
	text string          // a message's text
	raw  json.RawMessage // a metadata member's value
	line int
	// untranslated: the message is null, not translated yet.
	untranslated bool
}

func isARBMeta(name string) bool { return strings.HasPrefix(name, "@") }

// arbMaxDepth bounds the nesting of metadata objects parseARB follows.
const arbMaxDepth = 1000

// parseARB reads an ARB file: its members, and where they are.
func parseARB(data []byte) ([]arbMember, *input.JSONObject, error) {
	if ps := jsonNotUTF8(data, func(path []string) input.Where {
		return input.Where{Key: strings.Join(path[:min(len(path), 1)], "")}
	}); ps != nil {
		return nil, nil, &locales.InputError{Problems: ps}
	}
	lines := input.Lines{Data: data}
	root, err := input.ReadJSONObject(data, arbMaxDepth)
	if je := (*input.JSONError)(nil); errors.As(err, &je) {
		switch je.Kind {
		case input.JSONNotObject:
			return nil, nil, lineError(1, "%s", je.Error())
		case input.JSONSyntax, input.JSONEndsEarly:
			return nil, nil, lineError(lines.At(int64(je.Offset)), "malformed JSON: %s", je.Error())
		}
		return nil, nil, lineError(lines.At(int64(je.Offset)), "%s", je.Error())
	}
	out := make([]arbMember, 0, len(root.Members))
	var problems []locales.Problem
	seen := make(map[string]int, len(root.Members))
	for _, jm := range root.Members {
		name := jm.Name
		line := lines.At(int64(jm.NameStart))
		if first, dup := seen[name]; dup {
			problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("duplicate key %s (also on line %d)", input.Quote(name), first)})
			continue
		}
		seen[name] = line
		m := arbMember{name: name, line: line}
		text, isText := jm.Value.(string)
		switch {
		case isARBMeta(name):
			if strings.HasPrefix(name, "@@") || jm.Value == json.Delim('{') {
				m.raw = data[jm.ValueStart:jm.ValueEnd]
			} else {
				problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("metadata %s is not an object", input.Quote(name))})
				continue
			}
		case jm.Value == nil:
			m.untranslated = true
		case !isText:
			problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("the value of %s is not a string", input.Quote(name))})
			continue
		case name == "":
			problems = append(problems, locales.Problem{Line: line, Message: "empty key"})
			continue
		default:
			m.text = text
		}
		out = append(out, m)
	}
	if len(problems) > 0 {
		return nil, nil, &locales.InputError{Problems: problems}
	}
	return out, root, nil
}

// Decode reads an ARB file's messages; metadata is passed over.
func (ARB) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	members, _, err := parseARB(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs := make([]locales.Message, 0, len(members))
	for _, m := range members {
		if !isARBMeta(m.name) {
			msgs = append(msgs, locales.Message{Key: m.name, Text: m.text, Line: m.line, Untranslated: m.untranslated})
		}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// Encode writes msgs over f.Old, keeping its bytes, or as a new file
// after the template f.SourceFile.
func (a ARB) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	for _, m := range msgs {
		if isARBMeta(m.Key) {
			return nil, &locales.InputError{Problems: []locales.Problem{{Key: m.Key, Message: fmt.Sprintf("key %s starts with '@', which ARB reads as metadata", input.Quote(m.Key))}}}
		}
	}
	tmpl, tdata := templateARB(f.SourceFile)
	st := input.DefaultJSONStyle()
	var out *input.JSONOut
	metadata := false // whether a new message gets its "@key"
	if f.Old != nil {
		_, old, err := parseARB(f.Old)
		if err != nil {
			return nil, err
		}
		st, out = old.Style(f.Old), input.NewJSONOut(old)
		if len(old.Members) == 0 && tmpl != nil {
			// An empty file shows no indentation: take the template's.
			end := st.End
			st = tmpl.Style(tdata)
			st.End = end
		}
		for _, m := range old.Members {
			if isARBMeta(m.Name) && !strings.HasPrefix(m.Name, "@@") {
				metadata = true
				break
			}
		}
	} else {
		out = input.NewJSONOut(nil)
		if tmpl != nil {
			st = tmpl.Style(tdata)
			metadata = !a.BareTargets
		}
		if f.Language != "" {
			raw, _ := json.Marshal(f.Language)
			out.Add(nil, &input.JSONOutMember{Name: "@@locale", Value: raw})
		}
	}
	// rank is each member's place in the template.
	rank := map[string]int{}
	if tmpl != nil {
		for i, m := range tmpl.Members {
			if _, dup := rank[m.Name]; !dup {
				rank[m.Name] = i
			}
		}
	}
	var added []locales.Message
	for _, m := range msgs {
		om := out.Member(m.Key)
		if om == nil {
			added = append(added, m)
			continue
		}
		text, isText := "", false
		if om.Old != nil {
			text, isText = om.Old.Value.(string)
		}
		switch {
		case m.Untranslated && om.Old != nil && om.Old.Value == nil:
		case m.Untranslated || !isText || text != m.Text:
			om.Value = arbValue(m)
		}
	}
	// New messages in the template's order, then the others in key order.
	slices.SortStableFunc(added, func(x, y locales.Message) int {
		rx, inx := rank[x.Key]
		ry, iny := rank[y.Key]
		switch {
		case inx && iny:
			return rx - ry
		case inx != iny:
			if inx {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Key, y.Key)
	})
	for _, m := range added {
		r, ok := rank[m.Key]
		var after *input.JSONOutMember
		for j := r - 1; ok && j >= 0 && after == nil; j-- {
			after = out.Member(tmpl.Members[j].Name)
		}
		nm := &input.JSONOutMember{Name: m.Key, Value: arbValue(m)}
		out.Add(after, nm)
		if !ok || !metadata || out.Member("@"+m.Key) != nil {
			continue
		}
		if i, ok := rank["@"+m.Key]; ok {
			tm := tmpl.Members[i]
			ind, _ := tm.Indent()
			out.Add(nm, &input.JSONOutMember{Name: tm.Name, Value: tdata[tm.ValueStart:tm.ValueEnd], ValueIndent: ind})
		}
	}
	return out.Write(f.Old, st), nil
}

// templateARB returns the root object of the template data, or nil
// when there is none or it does not read.
func templateARB(data []byte) (*input.JSONObject, []byte) {
	if data == nil {
		return nil, nil
	}
	_, o, err := parseARB(data)
	if err != nil {
		return nil, nil
	}
	return o, data
}

// arbValue returns m's text as a JSON value: null when m is
// untranslated.
func arbValue(m locales.Message) []byte {
	if m.Untranslated {
		return []byte("null")
	}
	var b bytes.Buffer
	input.WriteJSONString(&b, m.Text)
	return b.Bytes()
}
