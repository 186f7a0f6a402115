package formats

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"slices"
	"strconv"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// GoText is the catalog file of golang.org/x/text's gotext tool,
// <lang>/messages.gotext.json in a NamespacedFolders tree (the namespace
// is "messages"): {"language": …, "messages": [{"id": …, "message": …,
// "translation": …, …}]}. Its fields are read with encoding/json into
// the shape gotext writes.
//
// A message's id is its key, taken whole (OpaqueKeys; an id of several
// strings is refused) and its translation its text: a string, or a
// plural select, as an ICU plural of the select's argument whose
// branches keep gotext's {Placeholder}s (see the package's Plural
// forms). A message without a translation, or marked "fuzzy", is not
// translated yet (locales.Message.Untranslated).
//
// Write keeps every other field (message, comments, placeholders,
// position), the messages' order and every message the messages lack or
// hand back untranslated; a translation the service holds clears
// "fuzzy". A new message goes after the one that precedes it in the
// source language's file (File.SourceFile, else File.Source), else at
// the end, and the file is indented as gotext does. Refused: unknown
// fields, an id twice, selects other than plural, nested selects, bytes
// that are not UTF-8.
type GoText struct{}

// Ext returns ".gotext.json".
func (GoText) Ext() string { return ".gotext.json" }

// OpaqueKeys reports that message ids, the source sentences, are taken
// whole (see locales.Format).
func (GoText) OpaqueKeys() bool { return true }

// gotextFile and gotextMessage have the fields, order and tags of
// golang.org/x/text/message/pipeline's Messages and locales.Message.
type gotextFile struct {
	Language string          `json:"language"`
	Messages []gotextMessage `json:"messages"`
	Macros   json.RawMessage `json:"macros,omitempty"`
}

type gotextMessage struct {
	ID                json.RawMessage `json:"id"`
	Key               string          `json:"key,omitempty"`
	Meaning           string          `json:"meaning,omitempty"`
	Message           json.RawMessage `json:"message"`
	Translation       json.RawMessage `json:"translation"`
	Comment           string          `json:"comment,omitempty"`
	TranslatorComment string          `json:"translatorComment,omitempty"`
	Placeholders      json.RawMessage `json:"placeholders,omitempty"`
	Fuzzy             bool            `json:"fuzzy,omitempty"`
	Position          string          `json:"position,omitempty"`
}

type gotextSelect struct {
	Feature string                     `json:"feature"`
	Arg     string                     `json:"arg"`
	Cases   map[string]json.RawMessage `json:"cases"`
}

func parseGoText(data []byte) (*gotextFile, error) {
	if ps := jsonNotUTF8(data, gotextKeyOf(data)); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f gotextFile
	if err := dec.Decode(&f); err != nil {
		line := 0
		if se, ok := err.(*json.SyntaxError); ok {
			line = bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
		}
		return nil, lineError(line, "malformed gotext catalog: %s", err.Error())
	}
	if dec.More() {
		return nil, lineError(0, "more JSON after the catalog")
	}
	return &f, nil
}

// gotextKeyOf names the message of a path in data ("messages", index,
// …) by its id, as far as data reads. It reads data on its first call
// only, when there is a problem to name: a valid file is decoded once.
func gotextKeyOf(data []byte) func(path []string) input.Where {
	var f *gotextFile
	return func(path []string) input.Where {
		if f == nil {
			f = &gotextFile{}
			_ = json.Unmarshal(data, f) // what reads is enough to name the message
		}
		if len(path) < 2 || path[0] != "messages" {
			return input.Where{}
		}
		i, err := strconv.Atoi(path[1])
		if err != nil || i >= len(f.Messages) {
			return input.Where{}
		}
		id, _ := f.Messages[i].id()
		return input.Where{Key: id}
	}
}

func (m gotextMessage) id() (string, string) {
	if s, ok := input.JSONString(m.ID); ok {
		return s, ""
	}
	var list []string
	if json.Unmarshal(m.ID, &list) == nil && len(list) == 1 {
		return list[0], ""
	}
	return "", fmt.Sprintf("id %s is not one string", string(m.ID))
}

// gotextText returns a translation's text and whether there is one.
func gotextText(raw json.RawMessage) (string, bool, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false, ""
	}
	if s, ok := input.JSONString(raw); ok {
		if p, ok := parsePlural(s, true); ok && p.arg != "" {
			return "", false, "a plain translation that reads as an ICU plural would be written back as a select; make it one"
		}
		return s, s != "", ""
	}
	var wrap struct {
		Msg    *string       `json:"msg"`
		Select *gotextSelect `json:"select"`
	}
	if err := json.Unmarshal(raw, &wrap); err != nil {
		return "", false, "a translation that is neither a string nor a select"
	}
	if wrap.Msg != nil {
		return *wrap.Msg, *wrap.Msg != "", ""
	}
	sel := wrap.Select
	if sel == nil || sel.Feature != "plural" {
		return "", false, "only plural selects are mapped"
	}
	p := pluralText{arg: sel.Arg}
	var sels []string
	for c := range sel.Cases {
		sels = append(sels, c)
	}
	slices.SortFunc(sels, func(a, b string) int { return caseOrder(a) - caseOrder(b) })
	for _, c := range sels {
		var msg struct {
			Msg string `json:"msg"`
		}
		var str string
		switch {
		case json.Unmarshal(sel.Cases[c], &str) == nil:
			msg.Msg = str
		case json.Unmarshal(sel.Cases[c], &msg) != nil:
			return "", false, fmt.Sprintf("case %s is not a message (nested selects are not mapped)", c)
		}
		p.cases = append(p.cases, pluralCase{sel: c, text: msg.Msg})
	}
	text := p.format(true)
	if q, ok := parsePlural(text, true); !ok || len(q.cases) != len(p.cases) {
		return "", false, "a plural select whose cases or argument ICU cannot hold"
	}
	return text, true, ""
}

// caseOrder orders "=N" cases first, then CLDR's categories.
func caseOrder(sel string) int {
	if i := slices.Index(pluralCategories, sel); i >= 0 {
		return 1000 + i
	}
	return len(sel)
}

// Decode reads a messages.gotext.json file.
func (GoText) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	f, err := parseGoText(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	msgs := make([]locales.Message, 0, len(f.Messages))
	var problems []locales.Problem
	seen := make(map[string]bool, len(f.Messages))
	for i, m := range f.Messages {
		id, problem := m.id()
		if problem == "" && seen[id] {
			problem = fmt.Sprintf("id %s twice", input.Quote(id))
		}
		seen[id] = true
		text, ok, p2 := gotextText(m.Translation)
		if problem == "" {
			problem = p2
		}
		if problem != "" {
			problems = append(problems, locales.Problem{Key: id, Message: fmt.Sprintf("message %d: %s", i+1, problem)})
			continue
		}
		msgs = append(msgs, locales.Message{Key: id, Text: text, Untranslated: !ok || m.Fuzzy})
	}
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// gotextTranslation returns the JSON of a text.
func gotextTranslation(text string) json.RawMessage {
	if p, ok := parsePlural(text, true); ok {
		sel := map[string]any{"feature": "plural", "arg": p.arg}
		cases := map[string]any{}
		for _, c := range p.cases {
			cases[c.sel] = map[string]string{"msg": c.text}
		}
		sel["cases"] = cases
		raw, _ := json.Marshal(map[string]any{"select": sel})
		return raw
	}
	raw, _ := json.Marshal(text)
	return raw
}

// Encode writes msgs over f.Old, keeping every other field and every
// message the messages lack or hand back untranslated.
func (GoText) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	doc := &gotextFile{Language: f.Language, Messages: []gotextMessage{}}
	if f.Old != nil {
		var err error
		if doc, err = parseGoText(f.Old); err != nil {
			return nil, err
		}
	}
	texts := map[string]locales.Message{}
	for _, m := range msgs {
		texts[m.Key] = m
	}
	sources := byKey(f.Source)
	present := map[string]bool{}
	for i, m := range doc.Messages {
		id, _ := m.id()
		present[id] = true
		msg, ok := texts[id]
		if !ok || msg.Untranslated {
			continue
		}
		if old, _, _ := gotextText(m.Translation); old != msg.Text {
			doc.Messages[i].Translation = gotextTranslation(msg.Text)
		}
		doc.Messages[i].Fuzzy = false // the service holds it as a translation
	}
	var added []string
	for _, m := range msgs {
		if !present[m.Key] {
			added = append(added, m.Key)
		}
	}
	message := func(key string) gotextMessage {
		m := texts[key]
		id, _ := json.Marshal(key)
		src := sources[key]
		if src == "" {
			src = m.Text
		}
		message, _ := json.Marshal(src)
		if p, ok := parsePlural(src, true); ok {
			message, _ = json.Marshal(p.cases[len(p.cases)-1].text)
		}
		return gotextMessage{ID: id, Message: message, Translation: gotextTranslation(m.Text), Fuzzy: m.Untranslated && m.Text != ""}
	}
	after, atEnd := placeNew(sourceOrder(GoText{}, f, added), present, added)
	var out []gotextMessage
	for _, m := range doc.Messages {
		out = append(out, m)
		id, _ := m.id()
		for _, k := range after[id] {
			out = append(out, message(k))
		}
	}
	for _, k := range atEnd {
		out = append(out, message(k))
	}
	doc.Messages = out
	if doc.Messages == nil {
		doc.Messages = []gotextMessage{}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "    ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
