package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// ARB is Flutter's Application Resource Bundle (.arb): one JSON object
// whose members are messages ("key": "ICU text") and metadata: "@key"
// (the message's description and placeholders) and "@@locale" and
// other "@@" members of the file. Texts are ICU MessageFormat already,
// plurals included, and are kept as they are.
//
// Metadata is not a text: Load passes it over and Write keeps it, the
// "@key" of a message beside it, in the file's order; a message the
// catalog no longer has goes with its "@key". New messages are added at
// the end in key order, and a new file starts with "@@locale". A
// message that is not a string, an "@key" that is not an object, and
// bytes that are not UTF-8 are refused.
type ARB struct{}

// Ext returns ".arb".
func (ARB) Ext() string { return ".arb" }

// arbMember is one member of an ARB file, in the file's order.
type arbMember struct {
	name string
	text string          // a message's text
	raw  json.RawMessage // a metadata member's value
	line int
}

func isARBMeta(name string) bool { return strings.HasPrefix(name, "@") }

func parseARB(data []byte) ([]arbMember, error) {
	if ps := jsonNotUTF8(data, func(path []string) input.Where {
		return input.Where{Key: strings.Join(path[:min(len(path), 1)], "")}
	}); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	lines := input.Lines{Data: data}
	syntax := func(err error) error {
		off := dec.InputOffset()
		if se, ok := err.(*json.SyntaxError); ok {
			off = se.Offset
		}
		msg := "malformed JSON: " + err.Error()
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			msg = "malformed JSON: the file ends early"
		}
		return lineError(lines.At(off), "%s", msg)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, syntax(err)
	}
	if tok != json.Delim('{') {
		return nil, lineError(1, "the file holds %s; want a JSON object", input.Kind(tok))
	}
	var out []arbMember
	var problems []locales.Problem
	seen := map[string]int{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, syntax(err)
		}
		name := tok.(string)
		line := lines.At(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, syntax(err)
		}
		if first, dup := seen[name]; dup {
			problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("duplicate key %s (also on line %d)", input.Quote(name), first)})
			continue
		}
		seen[name] = line
		m := arbMember{name: name, line: line}
		switch {
		case isARBMeta(name):
			if strings.HasPrefix(name, "@@") || bytes.HasPrefix(raw, []byte("{")) {
				m.raw = raw
			} else {
				problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("metadata %s is not an object", input.Quote(name))})
				continue
			}
		default:
			if err := json.Unmarshal(raw, &m.text); err != nil {
				problems = append(problems, locales.Problem{Line: line, Key: name, Message: fmt.Sprintf("the value of %s is not a string", input.Quote(name))})
				continue
			}
			if msg := input.CheckKey(name); msg != "" {
				problems = append(problems, locales.Problem{Line: line, Key: name, Message: msg})
				continue
			}
		}
		out = append(out, m)
	}
	if _, err := dec.Token(); err != nil {
		return nil, syntax(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, lineError(lines.At(dec.InputOffset()), "more JSON after the object")
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	return out, nil
}

// Decode reads an ARB file's messages; metadata is passed over.
func (ARB) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	members, err := parseARB(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	var msgs []locales.Message
	for _, m := range members {
		if !isARBMeta(m.name) {
			msgs = append(msgs, locales.Message{Key: m.name, Text: m.text, Line: m.line})
		}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// Encode writes msgs over f.Old, keeping its metadata and order.
func (ARB) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	var members []arbMember
	if f.Old != nil {
		var err error
		if members, err = parseARB(f.Old); err != nil {
			return nil, err
		}
	} else if f.Language != "" {
		raw, _ := json.Marshal(f.Language)
		members = append(members, arbMember{name: "@@locale", raw: raw})
	}
	texts := byKey(msgs)
	var kept []arbMember
	have := map[string]bool{}
	for _, m := range members {
		switch {
		case !isARBMeta(m.name):
			t, ok := texts[m.name]
			if !ok {
				continue
			}
			m.text = t
			have[m.name] = true
		case !strings.HasPrefix(m.name, "@@"):
			if _, ok := texts[m.name[1:]]; !ok {
				continue
			}
		}
		kept = append(kept, m)
	}
	for _, m := range msgs {
		if !have[m.Key] {
			kept = append(kept, arbMember{name: m.Key, text: m.Text})
		}
	}
	var b bytes.Buffer
	b.WriteString("{")
	for i, m := range kept {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		input.WriteJSONString(&b, m.name)
		b.WriteString(": ")
		if m.raw != nil {
			var ind bytes.Buffer
			if err := json.Indent(&ind, m.raw, "  ", "  "); err != nil {
				return nil, err
			}
			b.Write(ind.Bytes())
		} else {
			input.WriteJSONString(&b, m.text)
		}
	}
	if len(kept) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}
