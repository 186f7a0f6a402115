package formats

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// XCStrings is Apple's string catalog (Localizable.xcstrings): one JSON
// file holding every language of a table (see locales.Format): a tree
// is <dir>/<table>.xcstrings, and the table Localizable is the default
// namespace.
//
// A string's key is the key; its text in a language is the
// localization's stringUnit value, or, for a plural variation, an ICU
// plural of count (see the package's Plural forms). A string without a
// localization in the source language has its key as its source text,
// as Xcode reads it, and is written back without one.
//
// Keys are identifiers, often the source sentence, taken whole
// (OpaqueKeys). A target language's localization in state "new" (Xcode's
// copy of the source text) or "needs_review" (the source changed since)
// is read as untranslated (locales.Message.Untranslated), with its text;
// a plural is when any case is. A string with "shouldTranslate" : false
// is no key to translate and is read as no message in any language.
//
// Write splices what changes into the file and keeps every other byte
// (Xcode's order of strings, comments, extraction states,
// shouldTranslate, the missing final newline): a changed text's value
// in place, a translation the service holds over an untranslated one
// with its state made "translated", a new localization or string as
// Xcode writes it (two spaces, " : "), before the first member that
// sorts after it. Nothing is removed: a string or localization the
// messages lack, or hand back untranslated, stays as it is. Refused:
// device variations and substitutions (%#@arg@), which one text per key
// cannot hold, a plain text that reads as a plural of count, the plural
// cases Apple lacks (=N), a localization without a language, and bytes
// that are not UTF-8.
type XCStrings struct{}

// Ext returns ".xcstrings".
func (XCStrings) Ext() string { return ".xcstrings" }

// OpaqueKeys reports that keys are identifiers, often the source
// sentence itself (see locales.Format).
func (XCStrings) OpaqueKeys() bool { return true }

// DefaultName returns "Localizable".
func (XCStrings) DefaultName() string { return "Localizable" }

type jsonObject = map[string]any

func parseJSONTree(data []byte) (jsonObject, error) {
	if ps := jsonNotUTF8(data, xcKeyOf); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		line := 0
		var se *json.SyntaxError
		if e, ok := err.(*json.SyntaxError); ok {
			se = e
			line = bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n")) + 1
		}
		return nil, lineError(line, "malformed JSON: %s", err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, lineError(0, "more JSON after the object")
	}
	obj, ok := v.(jsonObject)
	if !ok {
		return nil, lineError(1, "the file is not a JSON object")
	}
	return obj, nil
}

// xcKeyOf names the string and language of a path in a string catalog
// ("strings", key, "localizations", language, …).
func xcKeyOf(path []string) input.Where {
	var p input.Where
	if len(path) > 1 && path[0] == "strings" {
		p.Key = path[1]
	}
	if len(path) > 3 && path[2] == "localizations" {
		p.Language = path[3]
	}
	return p
}

func object(v any) jsonObject {
	o, _ := v.(jsonObject)
	return o
}

// Decode reads a string catalog: the texts of every language, each
// Message with its Language, sorted by language and then key, and the
// catalog's SourceLanguage.
func (XCStrings) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	root, err := parseJSONTree(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	source, _ := root["sourceLanguage"].(string)
	if source == "" {
		return nil, locales.File{}, lineError(0, `the string catalog has no "sourceLanguage"; add "sourceLanguage": "<code>" (the language its keys are written in) at its top level, as Xcode writes it`)
	}
	strs := object(root["strings"])
	texts := map[string][]locales.Message{}
	var problems []locales.Problem
	for _, key := range slices.Sorted(maps.Keys(strs)) {
		entry := object(strs[key])
		if entry == nil {
			problems = append(problems, problemf(0, key, "string %s is not an object", input.Quote(key)))
			continue
		}
		if v, ok := entry["shouldTranslate"].(bool); ok && !v {
			continue // not a key to translate
		}
		locs := object(entry["localizations"])
		if _, ok := locs[source]; !ok {
			texts[source] = append(texts[source], locales.Message{Language: source, Key: key, Text: key})
		}
		for _, lang := range slices.Sorted(maps.Keys(locs)) {
			text, problem := xcText(object(locs[lang]))
			if lang == "" {
				problem = "a localization without a language"
			}
			if problem != "" {
				problems = append(problems, locales.Problem{Language: lang, Key: key, Message: fmt.Sprintf("%s, %s: %s", input.Quote(key), lang, problem)})
				continue
			}
			untranslated := lang != source && xcUntranslated(object(locs[lang]))
			texts[lang] = append(texts[lang], locales.Message{Language: lang, Key: key, Text: text, Untranslated: untranslated})
		}
	}
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	var msgs []locales.Message
	for _, lang := range slices.Sorted(maps.Keys(texts)) {
		msgs = append(msgs, texts[lang]...)
	}
	return msgs, locales.File{SourceLanguage: source, Keys: translations.Flat}, nil
}

// xcUntranslatedStates are the states of a stringUnit that say its
// value is not a translation yet: "new" (Xcode's copy of the source
// text) and "needs_review" (the source changed since). Of the source
// language, whose texts are the source, they say nothing.
var xcUntranslatedStates = map[string]bool{"new": true, "needs_review": true}

// xcUntranslated reports whether a localization, or any case of its
// plural, is in one of xcUntranslatedStates.
func xcUntranslated(loc jsonObject) bool {
	for _, unit := range xcUnits(loc) {
		if s, _ := unit["state"].(string); xcUntranslatedStates[s] {
			return true
		}
	}
	return false
}

// xcUnits returns the stringUnits of a localization: its own, or its
// plural cases'.
func xcUnits(loc jsonObject) []jsonObject {
	if unit := object(loc["stringUnit"]); unit != nil {
		return []jsonObject{unit}
	}
	var units []jsonObject
	plural := object(object(loc["variations"])["plural"])
	for _, cat := range slices.Sorted(maps.Keys(plural)) {
		if unit := object(object(plural[cat])["stringUnit"]); unit != nil {
			units = append(units, unit)
		}
	}
	return units
}

// xcText returns the text of a localization, or what keeps it from one.
func xcText(loc jsonObject) (string, string) {
	if _, ok := loc["substitutions"]; ok {
		return "", "substitutions (%#@arg@) are not mapped: one text per key cannot hold them"
	}
	if unit := object(loc["stringUnit"]); unit != nil {
		v, ok := unit["value"].(string)
		if !ok {
			return "", "a stringUnit without a string value"
		}
		if p := looksPlural(v, "a plural variation"); p != "" {
			return "", p
		}
		return v, ""
	}
	vars := object(loc["variations"])
	plural := object(vars["plural"])
	if plural == nil || len(vars) != 1 {
		return "", "only plural variations are mapped (device variations are not)"
	}
	p := pluralText{arg: pluralArg}
	for _, cat := range pluralCategories {
		c, ok := plural[cat]
		if !ok {
			continue
		}
		unit := object(object(c)["stringUnit"])
		v, ok := unit["value"].(string)
		if !ok || len(object(c)) != 1 {
			return "", fmt.Sprintf("plural case %s is not one stringUnit", cat)
		}
		p.cases = append(p.cases, pluralCase{sel: cat, text: v})
	}
	if len(p.cases) != len(plural) {
		return "", "a plural case that is not a CLDR category"
	}
	if _, ok := p.text("other"); !ok {
		return "", "a plural variation without other"
	}
	return p.format(false), ""
}

// Encode writes msgs, the texts of every language, over f.Old,
// changing only what they change (see XCStrings). A Message without
// Language is in f.Language, or else in the source language:
// f.SourceLanguage, or the one f.Old names.
func (XCStrings) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	old, source := f.Old, f.SourceLanguage
	if old == nil {
		if source == "" {
			return nil, lineError(0, "a new string catalog needs the source language (Catalog.SourceLanguage)")
		}
		old = fmt.Appendf(nil, "{\n  \"sourceLanguage\" : %s,\n  \"strings\" : {\n\n  },\n  \"version\" : \"1.0\"\n}\n", jsonQuote(source))
	}
	root, err := parseJSONTree(old)
	if err != nil {
		return nil, err
	}
	if s, _ := root["sourceLanguage"].(string); s != "" {
		source = s
	}
	if source == "" {
		return nil, lineError(0, "a new string catalog needs the source language (Catalog.SourceLanguage)")
	}
	tree := parseJSONSpans(old)
	var problems []locales.Problem
	var edits []splice
	strs := tree.member("strings")
	if strs == nil || strs.kind != '{' {
		return nil, lineError(0, `the string catalog has no "strings" object`)
	}
	newStrings := map[string]jsonObject{}
	// Sorted by language, then key: the edits of a string's new
	// localizations are made in language order.
	sorted := slices.Clone(msgs)
	for i := range sorted {
		sorted[i].Language = cmp.Or(sorted[i].Language, f.Language, source)
	}
	slices.SortStableFunc(sorted, func(a, b locales.Message) int {
		return cmp.Or(strings.Compare(a.Key, b.Key), strings.Compare(a.Language, b.Language))
	})
	newLocs := map[*jsonSpan]jsonObject{} // a localizations object -> the localizations it gets
	newMembers := map[*jsonSpan]jsonObject{}
	for _, m := range sorted {
		lang, key, text := m.Language, m.Key, m.Text
		state := "translated"
		if m.Untranslated {
			state = "new" // where the file lacks it; else the file keeps what it has
		}
		loc, problem := xcLocalization(text, state)
		for _, p := range problem {
			problems = append(problems, locales.Problem{Language: lang, Key: key, Message: fmt.Sprintf("%s, %s: %s", input.Quote(key), lang, p)})
		}
		entry := strs.member(key)
		if entry == nil || entry.kind != '{' {
			if entry != nil {
				continue // not an object: Decode refuses it
			}
			if lang == source && text == key {
				if newStrings[key] == nil {
					newStrings[key] = jsonObject{}
				}
				continue
			}
			e := newStrings[key]
			if e == nil {
				e = jsonObject{}
				newStrings[key] = e
			}
			locs := object(e["localizations"])
			if locs == nil {
				locs = jsonObject{}
				e["localizations"] = locs
			}
			locs[lang] = loc
			continue
		}
		locs := entry.member("localizations")
		var cur *jsonSpan
		if locs != nil {
			cur = locs.member(lang)
		}
		if cur == nil {
			if lang == source && text == key {
				continue // the key is the source text
			}
			if locs == nil {
				if newMembers[entry] == nil {
					newMembers[entry] = jsonObject{}
				}
				l := object(newMembers[entry]["localizations"])
				if l == nil {
					l = jsonObject{}
					newMembers[entry]["localizations"] = l
				}
				l[lang] = loc
				continue
			}
			if newLocs[locs] == nil {
				newLocs[locs] = jsonObject{}
			}
			newLocs[locs][lang] = loc
			continue
		}
		if m.Untranslated {
			continue
		}
		curObj := object(cur.value(old))
		oldText, problem1 := xcText(curObj)
		states := cur.states()
		if problem1 == "" && oldText == text {
			if lang == source {
				continue
			}
			for _, st := range states { // the service holds it as a translation
				if xcUntranslatedStates[st.str] {
					edits = append(edits, splice{st.start, st.end, jsonQuote("translated")})
				}
			}
			continue
		}
		if unit := cur.member("stringUnit"); unit != nil && problem1 == "" && len(states) <= 1 {
			if _, plural := countPlural(text); !plural {
				if v := unit.member("value"); v != nil && v.kind == '"' {
					edits = append(edits, splice{v.start, v.end, jsonQuote(text)})
					for _, st := range states {
						if xcUntranslatedStates[st.str] {
							edits = append(edits, splice{st.start, st.end, jsonQuote("translated")})
						}
					}
					continue
				}
			}
		}
		// Another shape: the whole localization is written anew, keeping
		// a state that is no mark of an untranslated text.
		state = "translated"
		for _, st := range states {
			if !xcUntranslatedStates[st.str] && st.str != "" {
				state = st.str
				break
			}
		}
		loc, _ = xcLocalization(text, state)
		var b bytes.Buffer
		writeXcodeJSON(&b, loc, cur.depth)
		edits = append(edits, splice{cur.start, cur.end, b.String()})
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	for locs, add := range newLocs {
		edits = append(edits, locs.insert(old, add)...)
	}
	for entry, add := range newMembers {
		edits = append(edits, entry.insert(old, add)...)
	}
	if len(newStrings) > 0 {
		add := jsonObject{}
		for k, v := range newStrings {
			add[k] = v
		}
		edits = append(edits, strs.insert(old, add)...)
	}
	return applySplices(old, edits), nil
}

// xcLocalization returns the localization of text in state: a
// stringUnit, or a plural variation; and the plural cases Apple lacks.
func xcLocalization(text, state string) (jsonObject, []string) {
	p, ok := countPlural(text)
	if !ok {
		return jsonObject{"stringUnit": jsonObject{"state": state, "value": text}}, nil
	}
	var problems []string
	plural := jsonObject{}
	for _, c := range p.cases {
		if !slices.Contains(pluralCategories, c.sel) {
			problems = append(problems, fmt.Sprintf("string catalogs have no plural case %s", c.sel))
		}
		plural[c.sel] = jsonObject{"stringUnit": jsonObject{"state": state, "value": c.text}}
	}
	return jsonObject{"variations": jsonObject{"plural": plural}}, problems
}

func jsonQuote(s string) string {
	var b bytes.Buffer
	input.WriteJSONString(&b, s)
	return b.String()
}

// writeXcodeJSON writes v as Xcode writes string catalogs.
func writeXcodeJSON(b *bytes.Buffer, v any, depth int) {
	switch v := v.(type) {
	case jsonObject:
		b.WriteString("{\n")
		keys := slices.Sorted(maps.Keys(v))
		if len(keys) == 0 {
			b.WriteString("\n")
		}
		for i, k := range keys {
			b.WriteString(strings.Repeat("  ", depth+1))
			input.WriteJSONString(b, k)
			b.WriteString(" : ")
			writeXcodeJSON(b, v[k], depth+1)
			if i < len(keys)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteByte('}')
	case []any:
		b.WriteString("[\n")
		for i, e := range v {
			b.WriteString(strings.Repeat("  ", depth+1))
			writeXcodeJSON(b, e, depth+1)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(strings.Repeat("  ", depth))
		b.WriteByte(']')
	case string:
		input.WriteJSONString(b, v)
	case json.Number:
		b.WriteString(v.String())
	case bool:
		b.WriteString(strings.ToLower(fmt.Sprint(v)))
	case nil:
		b.WriteString("null")
	}
}

// A jsonSpan is a JSON value of a file with where it is: the string
// catalog is written over by splicing what changed into the file's
// bytes, so that the rest stays as Xcode (or a person) wrote it.
type jsonSpan struct {
	start, end int // the value, in the file
	kind       byte
	depth      int    // of the value: the root is 0
	str        string // a string's value
	keys       []string
	keyStarts  []int
	vals       []*jsonSpan    // an object's members, an array's elements
	index      map[string]int // keys' first indexes, made by member for a large object
}

// parseJSONSpans reads the spans of data, which parseJSONTree read.
func parseJSONSpans(data []byte) *jsonSpan {
	p := spanParser{data: data}
	v, _ := p.value(p.space(0), 0)
	return v
}

type spanParser struct{ data []byte }

func (p spanParser) space(i int) int {
	for i < len(p.data) && isXMLSpace(p.data[i]) {
		i++
	}
	return i
}

func (p spanParser) value(i, depth int) (*jsonSpan, int) {
	v := &jsonSpan{start: i, depth: depth}
	if i >= len(p.data) {
		v.end = i
		return v, i
	}
	v.kind = p.data[i]
	switch v.kind {
	case '{', '[':
		i = p.space(i + 1)
		for i < len(p.data) && p.data[i] != '}' && p.data[i] != ']' {
			if v.kind == '{' {
				key, j := p.value(i, depth+1)
				v.keys, v.keyStarts = append(v.keys, key.str), append(v.keyStarts, i)
				i = p.space(p.space(j) + 1) // past ':'
			}
			var e *jsonSpan
			e, i = p.value(i, depth+1)
			v.vals = append(v.vals, e)
			i = p.space(i)
			if i < len(p.data) && p.data[i] == ',' {
				i = p.space(i + 1)
			}
		}
		i++
	case '"':
		j := i + 1
		for j < len(p.data) && p.data[j] != '"' {
			if p.data[j] == '\\' {
				j++
			}
			j++
		}
		i = j + 1
		_ = json.Unmarshal(p.data[v.start:min(i, len(p.data))], &v.str)
	default:
		for i < len(p.data) && !isXMLSpace(p.data[i]) && !strings.ContainsRune(",}]", rune(p.data[i])) {
			i++
		}
	}
	v.end = min(i, len(p.data))
	return v, v.end
}

// member returns the value of an object's member key (its first), or
// nil. An object of many members (a catalog's "strings") is indexed on
// the first call, so that looking up every string is not quadratic.
func (v *jsonSpan) member(key string) *jsonSpan {
	if v == nil || v.kind != '{' {
		return nil
	}
	if len(v.keys) > 32 {
		if v.index == nil {
			v.index = make(map[string]int, len(v.keys))
			for i, k := range v.keys {
				if _, dup := v.index[k]; !dup {
					v.index[k] = i
				}
			}
		}
		if i, ok := v.index[key]; ok {
			return v.vals[i]
		}
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.vals[i]
		}
	}
	return nil
}

// value decodes the span of a value.
func (v *jsonSpan) value(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(data[v.start:v.end]))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// states returns the "state" strings of a localization's stringUnit or
// of its plural cases' stringUnits.
func (v *jsonSpan) states() []*jsonSpan {
	var units []*jsonSpan
	if u := v.member("stringUnit"); u != nil {
		units = append(units, u)
	}
	if plural := v.member("variations").member("plural"); plural != nil {
		for _, c := range plural.vals {
			if u := c.member("stringUnit"); u != nil {
				units = append(units, u)
			}
		}
	}
	var out []*jsonSpan
	for _, u := range units {
		if s := u.member("state"); s != nil && s.kind == '"' {
			out = append(out, s)
		}
	}
	return out
}

// insert returns the edits that add the members of add to the object v
// of data, as Xcode writes them: each before the first member whose key
// sorts after it, else after the last.
func (v *jsonSpan) insert(data []byte, add jsonObject) []splice {
	if len(v.keys) == 0 {
		var b bytes.Buffer
		writeXcodeJSON(&b, add, v.depth)
		return []splice{{v.start, v.end, b.String()}}
	}
	indent := strings.Repeat("  ", v.depth+1)
	var edits []splice
	for _, k := range slices.Sorted(maps.Keys(add)) {
		var b bytes.Buffer
		input.WriteJSONString(&b, k)
		b.WriteString(" : ")
		writeXcodeJSON(&b, add[k], v.depth+1)
		i := slices.IndexFunc(v.keys, func(have string) bool { return have > k })
		if i < 0 {
			last := v.vals[len(v.vals)-1]
			edits = append(edits, splice{last.end, last.end, ",\n" + indent + b.String()})
			continue
		}
		at := lineStart(data, v.keyStarts[i])
		if at == v.keyStarts[i] && at > 0 && data[at-1] != '\n' {
			edits = append(edits, splice{at, at, b.String() + ", "})
			continue
		}
		edits = append(edits, splice{at, at, indent + b.String() + ",\n"})
	}
	return edits
}
