package formats

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
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

// xcMaxDepth bounds the nesting of a string catalog's objects.
const xcMaxDepth = 1000

// parseXCTree reads a string catalog into where its parts are.
func parseXCTree(data []byte) (*input.JSONObject, error) {
	if ps := jsonNotUTF8(data, xcKeyOf); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	root, err := input.ReadJSONObject(data, xcMaxDepth)
	var je *input.JSONError
	if errors.As(err, &je) {
		switch je.Kind {
		case input.JSONNotObject:
			return nil, lineError(1, "the file is not a JSON object")
		case input.JSONMore:
			return nil, lineError(0, "more JSON after the object")
		case input.JSONTooDeep:
			return nil, lineError(lineOf(data, je.Offset), "%s", je.Error())
		}
		return nil, lineError(lineOf(data, je.Offset), "malformed JSON: %s", je.Error())
	}
	return root, nil
}

func lineOf(data []byte, off int) int {
	return bytes.Count(data[:min(off, len(data))], []byte("\n")) + 1
}

// toAny returns the value of o, when not nil, else of data[start:end],
// as json.Unmarshal into an any with json.Number gives it: the tree
// holds it but for arrays, which string catalogs do not use.
func toAny(data []byte, o *input.JSONObject, start, end int) any {
	if o == nil {
		dec := json.NewDecoder(bytes.NewReader(data[start:end]))
		dec.UseNumber()
		var v any
		_ = dec.Decode(&v)
		return v
	}
	obj := make(jsonObject, len(o.Members))
	for _, m := range o.Members {
		obj[m.Name] = memberValue(data, m)
	}
	return obj
}

// memberValue returns the value of m (see toAny).
func memberValue(data []byte, m *input.JSONMember) any {
	switch m.Value {
	case json.Delim('{'):
		return toAny(data, m.Object, 0, 0)
	case json.Delim('['):
		return toAny(data, nil, m.ValueStart, m.ValueEnd)
	}
	return m.Value
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
	root, err := parseXCTree(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	source := lastString(root, "sourceLanguage")
	if source == "" {
		return nil, locales.File{}, lineError(0, `the string catalog has no "sourceLanguage"; add "sourceLanguage": "<code>" (the language its keys are written in) at its top level, as Xcode writes it`)
	}
	// The members of each object by name, the last one as
	// json.Unmarshal keeps it; a localization is read into a value.
	strs := byName(lastMember(root, "strings"))
	texts := map[string][]locales.Message{}
	var problems []locales.Problem
	for _, key := range slices.Sorted(maps.Keys(strs)) {
		entry := strs[key].Object
		if entry == nil {
			problems = append(problems, problemf(0, key, "string %s is not an object", input.Quote(key)))
			continue
		}
		if m := lastMember(entry, "shouldTranslate"); m != nil && m.Value == false {
			continue // not a key to translate
		}
		locs := byName(lastMember(entry, "localizations"))
		if _, ok := locs[source]; !ok {
			texts[source] = append(texts[source], locales.Message{Language: source, Key: key, Text: key})
		}
		for _, lang := range slices.Sorted(maps.Keys(locs)) {
			text, problem, untranslated := xcRead(data, locs[lang])
			if lang == "" {
				problem = "a localization without a language"
			}
			if problem != "" {
				problems = append(problems, locales.Problem{Language: lang, Key: key, Message: fmt.Sprintf("%s, %s: %s", input.Quote(key), lang, problem)})
				continue
			}
			untranslated = untranslated && lang != source
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

// xcRead returns the text of the localization loc of data, or what
// keeps it from one, and whether it is in one of xcUntranslatedStates.
// The common shape, one stringUnit, is read off the tree; another is
// made a value for xcText.
func xcRead(data []byte, loc *input.JSONMember) (string, string, bool) {
	if u := xcPlainUnit(loc); u != nil {
		state := u.Member("state")
		untranslated := state != nil && xcUntranslatedStates[str(state)]
		v := u.Member("value")
		if v == nil || !isString(v) {
			return "", "a stringUnit without a string value", untranslated
		}
		if p := looksPlural(str(v), "a plural variation"); p != "" {
			return "", p, untranslated
		}
		return str(v), "", untranslated
	}
	obj := object(memberValue(data, loc))
	text, problem := xcText(obj)
	return text, problem, xcUntranslated(obj)
}

// xcPlainUnit returns the stringUnit of a localization that holds that
// alone, with no name twice in it, or nil.
func xcPlainUnit(loc *input.JSONMember) *input.JSONObject {
	o := loc.Object
	if o == nil || len(o.Members) != 1 || o.Members[0].Name != "stringUnit" {
		return nil
	}
	u := o.Members[0].Object
	if u == nil {
		return nil
	}
	for i, m := range u.Members {
		for _, n := range u.Members[:i] {
			if n.Name == m.Name {
				return nil
			}
		}
	}
	return u
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
	root, err := parseXCTree(old)
	if err != nil {
		return nil, err
	}
	if s := lastString(root, "sourceLanguage"); s != "" {
		source = s
	}
	if source == "" {
		return nil, lineError(0, "a new string catalog needs the source language (Catalog.SourceLanguage)")
	}
	var problems []locales.Problem
	var edits []splice
	strs := root.Member("strings")
	if strs == nil || strs.Object == nil {
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
	// A localizations object -> the localizations it gets, an entry ->
	// its new members; with the depth of the value.
	newLocs := map[xcAt]jsonObject{}
	newMembers := map[xcAt]jsonObject{}
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
		entry := strs.Object.Member(key)
		if entry == nil || entry.Object == nil {
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
		locs := entry.Object.Member("localizations")
		var cur *input.JSONMember
		if locs != nil {
			cur = locs.Object.Member(lang)
		}
		if cur == nil {
			if lang == source && text == key {
				continue // the key is the source text
			}
			if locs == nil {
				at := xcAt{entry, strs.Object.Depth + 1}
				if newMembers[at] == nil {
					newMembers[at] = jsonObject{}
				}
				l := object(newMembers[at]["localizations"])
				if l == nil {
					l = jsonObject{}
					newMembers[at]["localizations"] = l
				}
				l[lang] = loc
				continue
			}
			at := xcAt{locs, entry.Object.Depth + 1}
			if newLocs[at] == nil {
				newLocs[at] = jsonObject{}
			}
			newLocs[at][lang] = loc
			continue
		}
		if m.Untranslated {
			continue
		}
		oldText, problem1, _ := xcRead(old, cur)
		states := xcStates(cur)
		if problem1 == "" && oldText == text {
			if lang == source {
				continue
			}
			for _, st := range states { // the service holds it as a translation
				if xcUntranslatedStates[str(st)] {
					edits = append(edits, splice{st.ValueStart, st.ValueEnd, jsonQuote("translated")})
				}
			}
			continue
		}
		if unit := cur.Object.Member("stringUnit"); unit != nil && problem1 == "" && len(states) <= 1 {
			if _, plural := countPlural(text); !plural {
				if v := unit.Object.Member("value"); v != nil && isString(v) {
					edits = append(edits, splice{v.ValueStart, v.ValueEnd, jsonQuote(text)})
					for _, st := range states {
						if xcUntranslatedStates[str(st)] {
							edits = append(edits, splice{st.ValueStart, st.ValueEnd, jsonQuote("translated")})
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
			if !xcUntranslatedStates[str(st)] && str(st) != "" {
				state = str(st)
				break
			}
		}
		loc, _ = xcLocalization(text, state)
		var b bytes.Buffer
		writeXcodeJSON(&b, loc, locs.Object.Depth+1)
		edits = append(edits, splice{cur.ValueStart, cur.ValueEnd, b.String()})
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	for at, add := range newLocs {
		edits = append(edits, xcInsert(old, at, add)...)
	}
	for at, add := range newMembers {
		edits = append(edits, xcInsert(old, at, add)...)
	}
	if len(newStrings) > 0 {
		add := jsonObject{}
		for k, v := range newStrings {
			add[k] = v
		}
		edits = append(edits, xcInsert(old, xcAt{strs, root.Depth + 1}, add)...)
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

// The string catalog is written over by splicing what changed into
// the file's bytes, at the places input.ReadJSONObject gives, so that
// the rest stays as Xcode (or a person) wrote it.

// lastMember returns o's last member named name, as json.Unmarshal
// keeps it, or nil.
func lastMember(o *input.JSONObject, name string) *input.JSONMember {
	if o != nil {
		for i := len(o.Members) - 1; i >= 0; i-- {
			if o.Members[i].Name == name {
				return o.Members[i]
			}
		}
	}
	return nil
}

// byName returns the members of m's object by name, the last of a name
// as json.Unmarshal keeps it; nil when m's value is not an object.
func byName(m *input.JSONMember) map[string]*input.JSONMember {
	if m == nil || m.Object == nil {
		return nil
	}
	out := make(map[string]*input.JSONMember, len(m.Object.Members))
	for _, c := range m.Object.Members {
		out[c.Name] = c
	}
	return out
}

// lastString returns the string value of o's last member named name, as
// json.Unmarshal keeps it, or "".
func lastString(o *input.JSONObject, name string) string {
	s := ""
	for _, m := range o.Members {
		if m.Name == name {
			s, _ = m.Value.(string)
		}
	}
	return s
}

func isString(m *input.JSONMember) bool {
	_, ok := m.Value.(string)
	return ok
}

// str returns m's string value, or "".
func str(m *input.JSONMember) string {
	s, _ := m.Value.(string)
	return s
}

// xcStates returns the "state" members of a localization's stringUnit
// or of its plural cases' stringUnits.
func xcStates(loc *input.JSONMember) []*input.JSONMember {
	var units []*input.JSONMember
	if u := loc.Object.Member("stringUnit"); u != nil {
		units = append(units, u)
	}
	if vars := loc.Object.Member("variations"); vars != nil {
		if plural := vars.Object.Member("plural"); plural != nil && plural.Object != nil {
			for _, c := range plural.Object.Members {
				if u := c.Object.Member("stringUnit"); u != nil {
					units = append(units, u)
				}
			}
		}
	}
	var out []*input.JSONMember
	for _, u := range units {
		if s := u.Object.Member("state"); s != nil && isString(s) {
			out = append(out, s)
		}
	}
	return out
}

// An xcAt is a member whose value gets members, and the depth of that
// value (the root is 0).
type xcAt struct {
	m     *input.JSONMember
	depth int
}

// xcInsert returns the edits that add the members of add to the object
// value of at.m, in data, as Xcode writes them: each before the first
// member whose key sorts after it, else after the last.
func xcInsert(data []byte, at xcAt, add jsonObject) []splice {
	m, v := at.m, at.m.Object
	if v == nil || len(v.Members) == 0 {
		var b bytes.Buffer
		writeXcodeJSON(&b, add, at.depth)
		return []splice{{m.ValueStart, m.ValueEnd, b.String()}}
	}
	indent := strings.Repeat("  ", v.Depth+1)
	var edits []splice
	for _, k := range slices.Sorted(maps.Keys(add)) {
		var b bytes.Buffer
		input.WriteJSONString(&b, k)
		b.WriteString(" : ")
		writeXcodeJSON(&b, add[k], v.Depth+1)
		i := slices.IndexFunc(v.Members, func(have *input.JSONMember) bool { return have.Name > k })
		if i < 0 {
			last := v.Members[len(v.Members)-1]
			edits = append(edits, splice{last.ValueEnd, last.ValueEnd, ",\n" + indent + b.String()})
			continue
		}
		start := v.Members[i].NameStart
		at := lineStart(data, start)
		if at == start && at > 0 && data[at-1] != '\n' {
			edits = append(edits, splice{at, at, b.String() + ", "})
			continue
		}
		edits = append(edits, splice{at, at, indent + b.String() + ",\n"})
	}
	return edits
}
