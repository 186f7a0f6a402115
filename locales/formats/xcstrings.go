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
// Write keeps everything else (comments, extraction states,
// shouldTranslate, each stringUnit's state; a new or changed
// translation is "translated"), removes a localization only in a
// language the catalog has, and a string only when the catalog's
// source language lacks it. Files are written as Xcode writes them:
// members sorted, two spaces, " : ". Refused: device variations and
// substitutions (%#@arg@), which one text per key cannot hold, a plain
// text that reads as a plural of count, the plural cases Apple lacks
// (=N), and bytes that are not UTF-8.
type XCStrings struct{}

// Ext returns ".xcstrings".
func (XCStrings) Ext() string { return ".xcstrings" }

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
		locs := object(entry["localizations"])
		if _, ok := locs[source]; !ok {
			texts[source] = append(texts[source], locales.Message{Language: source, Key: key, Text: key})
		}
		for _, lang := range slices.Sorted(maps.Keys(locs)) {
			text, problem := xcText(object(locs[lang]))
			if problem != "" {
				problems = append(problems, locales.Problem{Language: lang, Key: key, Message: fmt.Sprintf("%s, %s: %s", input.Quote(key), lang, problem)})
				continue
			}
			texts[lang] = append(texts[lang], locales.Message{Language: lang, Key: key, Text: text})
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
// keeping what they do not hold. A Message without Language is in
// f.Language, or else in the source language: f.SourceLanguage, or the
// one f.Old names.
func (XCStrings) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	old, source := f.Old, f.SourceLanguage
	root := jsonObject{"sourceLanguage": source, "strings": jsonObject{}, "version": "1.0"}
	if old != nil {
		var err error
		if root, err = parseJSONTree(old); err != nil {
			return nil, err
		}
		if s, _ := root["sourceLanguage"].(string); s != "" {
			source = s
		}
	}
	if source == "" {
		return nil, lineError(0, "a new string catalog needs the source language (Catalog.SourceLanguage)")
	}
	texts := map[string][]locales.Message{}
	for _, m := range msgs {
		lang := cmp.Or(m.Language, f.Language, source)
		texts[lang] = append(texts[lang], m)
	}
	strs := object(root["strings"])
	if strs == nil {
		strs = jsonObject{}
		root["strings"] = strs
	}
	byLang := map[string]map[string]string{}
	var langs []string
	for lang, msgs := range texts {
		m := map[string]string{}
		for _, msg := range msgs {
			m[msg.Key] = msg.Text
		}
		byLang[lang] = m
		langs = append(langs, lang)
	}
	var problems []locales.Problem
	sourceTexts, haveSource := byLang[source]
	for key := range strs {
		if _, ok := sourceTexts[key]; haveSource && !ok {
			delete(strs, key)
		}
	}
	for _, lang := range langs {
		for key, text := range byLang[lang] {
			entry := object(strs[key])
			if entry == nil {
				entry = jsonObject{}
				strs[key] = entry
			}
			locs := object(entry["localizations"])
			if lang == source && text == key && locs[source] == nil {
				continue // the key is the source text
			}
			if locs == nil {
				locs = jsonObject{}
				entry["localizations"] = locs
			}
			state := "translated"
			if oldText, problem := xcText(object(locs[lang])); locs[lang] != nil && problem == "" && oldText == text {
				continue
			}
			if unit := object(object(locs[lang])["stringUnit"]); unit != nil {
				if s, ok := unit["state"].(string); ok && s != "" {
					state = s
				}
			}
			if p, ok := countPlural(text); ok {
				plural := jsonObject{}
				for _, c := range p.cases {
					if !slices.Contains(pluralCategories, c.sel) {
						problems = append(problems, locales.Problem{Language: lang, Key: key, Message: fmt.Sprintf("%s, %s: string catalogs have no plural case %s", input.Quote(key), lang, c.sel)})
					}
					plural[c.sel] = jsonObject{"stringUnit": jsonObject{"state": state, "value": c.text}}
				}
				locs[lang] = jsonObject{"variations": jsonObject{"plural": plural}}
				continue
			}
			locs[lang] = jsonObject{"stringUnit": jsonObject{"state": state, "value": text}}
		}
	}
	// A localization the catalog's language no longer has goes.
	for key, v := range strs {
		locs := object(object(v)["localizations"])
		for lang := range locs {
			if m, ok := byLang[lang]; ok {
				if _, has := m[key]; !has {
					delete(locs, lang)
				}
			}
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var b bytes.Buffer
	writeXcodeJSON(&b, root, 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
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
