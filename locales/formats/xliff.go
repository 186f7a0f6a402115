package formats

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
	"github.com/locsvc/partner-go/translations"
)

// XLIFF is the XML Localisation Interchange locales.File Format, versions 1.2
// (<trans-unit>) and 2.0 (<unit> with one <segment>): a file per target
// language holding each unit's source text and its translation. Both
// versions are read; an existing file keeps its version, a new one is
// written in Version ("1.2" when empty). Extension is the file name
// extension, ".xlf" when empty (Xcode writes ".xliff").
//
// A unit's id is its key, taken whole (OpaqueKeys). A file that names
// a target language (target-language, trgLang) holds the translations:
// its texts are the <target>s; a unit without one, or whose state says
// it is not translated yet (see xliffUntranslated: 1.2's new,
// needs-translation, needs-l10n, needs-review-translation and
// needs-review-l10n; 2.0's initial), is read as untranslated
// (locales.Message.Untranslated). A file that names none holds the
// source texts: its texts are the <source>s. Texts are the elements'
// content as written (see the XML formats' rule).
//
// Write changes the file only where a text changed: a <target> is
// replaced or added after its <source>, and a unit the file marked
// untranslated is marked state="translated" once the service holds its
// translation; a target file's <source> follows the source language's
// text when the catalog has it and it differs in more than whitespace.
// A unit the messages lack, or hand back untranslated, stays byte for
// byte, and so does every unit only the file has. A new unit goes after
// the unit that precedes it in the source language's file
// (File.SourceFile, else File.Source), else at the end of the last
// <file>, with its source text. A new target file is the source
// language's file (File.SourceFile) with the target language added:
// its version, files, notes and inline markup. Notes, states, groups,
// other attributes and everything else stay byte for byte. Refused: a
// unit id used twice, a 2.0 unit of several segments, and on writing, a
// new translation whose source text the catalog lacks.
type XLIFF struct {
	Version   string
	Extension string
}

// Ext returns x.Extension, or ".xlf".
func (x XLIFF) Ext() string { return cmp.Or(x.Extension, ".xlf") }

type xliffSpan struct{ start, end int } // content between tags; start < 0 when absent

type xliffUnit struct {
	id             string
	line           int
	outer          xliffSpan // the unit element, from its line's start
	source, target xliffSpan
	afterSource    int       // where a new <target> goes
	indent         xliffSpan // of the <source> line
	// stateTag is the start tag that holds the unit's state: its
	// <target> in 1.2, its <segment> in 2.0; state is its value.
	stateTag xliffSpan
	state    string
}

type xliffDoc struct {
	version  string // "1.2" or "2.0"
	target   bool   // names a target language
	units    []xliffUnit
	byID     map[string]int // unit id -> its index in units
	insert   int            // where new units go
	indent   string         // of a unit
	langTags []xliffSpan    // where a target language goes: 1.2's <file> tags, 2.0's <xliff> tag
	problems []locales.Problem
}

// xliffUntranslated lists the states that say a unit's target is not a
// translation yet. XLIFF 1.2: new and needs-translation (no translation
// yet), needs-l10n (text and the rest still to adapt), and
// needs-review-translation and needs-review-l10n (a text still to be
// reviewed, as gettext's fuzzy and Xcode's needs_review, which Xcode
// exports as needs-review-translation). needs-adaptation and
// needs-review-adaptation concern only what is not text, so their text
// is a translation, as are translated, signed-off, final and custom
// x- states. XLIFF 2.0: initial, when written; a segment without a
// state (Angular writes none) holds a translation when it has a target.
var xliffUntranslated = map[string]bool{
	"new": true, "needs-translation": true, "needs-l10n": true,
	"needs-review-translation": true, "needs-review-l10n": true,
	"initial": true,
}

func parseXLIFF(data []byte) (*xliffDoc, error) {
	// encoding/xml refuses bytes that are not UTF-8 in names and texts
	// but not in comments; the file is refused whole, with its lines.
	if ps := notUTF8(data, nil); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	s := newRawScanner(data)
	doc := &xliffDoc{insert: -1}
	var stack []string
	var unit xliffUnit
	inUnit := false
	segments := 0
	bodyIndent := xliffSpan{-1, -1} // of the last end of a file's units, before any unit
	for {
		tok, err := s.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			name := t.Name.Local
			if len(stack) == 0 {
				if name != "xliff" {
					return nil, &locales.InputError{Problems: []locales.Problem{problemf(s.line(), "", "the root element is <%s>; want <xliff>", name)}}
				}
				v, _ := attr(t, "version")
				switch {
				case strings.HasPrefix(v, "1."):
					doc.version = "1.2"
					doc.units = make([]xliffUnit, 0, bytes.Count(data, []byte("<trans-unit")))
				case strings.HasPrefix(v, "2."):
					doc.version = "2.0"
					if trg, ok := attr(t, "trgLang"); ok && trg != "" {
						doc.target = true
					}
					doc.units = make([]xliffUnit, 0, bytes.Count(data, []byte("<unit")))
				default:
					return nil, &locales.InputError{Problems: []locales.Problem{problemf(s.line(), "", "XLIFF version %q; want 1.2 or 2.0", v)}}
				}
			}
			if len(stack) == 0 && doc.version == "2.0" || name == "file" && doc.version == "1.2" {
				doc.langTags = append(doc.langTags, xliffSpan{int(s.before), int(s.dec.InputOffset())})
			}
			if name == "file" && doc.version == "1.2" {
				if trg, ok := attr(t, "target-language"); ok && trg != "" {
					doc.target = true
				}
			}
			if (name == "trans-unit" && doc.version == "1.2") || (name == "unit" && doc.version == "2.0") {
				id, _ := attr(t, "id")
				unit = xliffUnit{id: id, line: s.line(), source: xliffSpan{-1, -1}, target: xliffSpan{-1, -1}, stateTag: xliffSpan{-1, -1}}
				unit.outer.start = lineStart(data, int(s.before))
				inUnit = true
				segments = 0
				if id == "" {
					doc.problems = append(doc.problems, problemf(unit.line, "", "a unit without an id"))
				}
			}
			if name == "segment" && inUnit {
				segments++
				unit.stateTag = xliffSpan{int(s.before), int(s.dec.InputOffset())}
				unit.state, _ = attr(t, "state")
				if segments == 2 {
					doc.problems = append(doc.problems, problemf(s.line(), unit.id, "unit %s has several segments; one text per key cannot hold them", input.Quote(unit.id)))
				}
			}
			if (name == "source" || name == "target") && inUnit && len(stack) > 0 && (stack[len(stack)-1] == "trans-unit" || stack[len(stack)-1] == "segment") {
				if name == "target" && doc.version == "1.2" {
					unit.stateTag = xliffSpan{int(s.before), int(s.dec.InputOffset())}
					unit.state, _ = attr(t, "state")
				}
				tagStart := int(s.before)
				start := int(s.dec.InputOffset())
				if err := s.skip(); err != nil {
					return nil, err
				}
				span := xliffSpan{start, int(s.before)}
				if name == "source" {
					unit.source = span
					unit.afterSource = int(s.dec.InputOffset())
					unit.indent = xliffSpan{lineStart(data, tagStart), tagStart}
				} else {
					unit.target = span
				}
				continue
			}
			stack = append(stack, name)
		case xml.EndElement:
			name := t.Name.Local
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			if inUnit && ((name == "trans-unit" && doc.version == "1.2") || (name == "unit" && doc.version == "2.0")) {
				unit.outer.end = lineEnd(data, int(s.dec.InputOffset()))
				if unit.source.start < 0 {
					doc.problems = append(doc.problems, problemf(unit.line, unit.id, "unit %s has no <source>", input.Quote(unit.id)))
				}
				doc.units = append(doc.units, unit)
				inUnit = false
			}
			if (name == "body" && doc.version == "1.2") || (name == "file" && doc.version == "2.0") {
				doc.insert = lineStart(data, int(s.before))
				if len(doc.units) == 0 {
					bodyIndent = xliffSpan{doc.insert, int(s.before)}
				}
			}
		}
	}
	if doc.version == "" {
		return nil, lineError(1, "no <xliff> element")
	}
	if doc.insert < 0 {
		return nil, lineError(1, "no <file> to hold units")
	}
	if n := len(doc.units); n > 0 {
		start := doc.units[n-1].outer.start
		doc.indent = string(data[start:lineStartTrim(data, start)])
	} else if bodyIndent.start >= 0 {
		doc.indent = string(data[bodyIndent.start:bodyIndent.end]) + "  "
	}
	doc.byID = make(map[string]int, len(doc.units))
	for i, u := range doc.units {
		if first, dup := doc.byID[u.id]; dup && u.id != "" {
			doc.problems = append(doc.problems, problemf(u.line, u.id, "unit id %s twice (also on line %d)", input.Quote(u.id), doc.units[first].line))
		}
		doc.byID[u.id] = i
	}
	if len(doc.problems) > 0 {
		return nil, &locales.InputError{Problems: doc.problems}
	}
	return doc, nil
}

// lineStart returns the offset of the start of the line of off, when
// only spaces precede off on it; off otherwise.
func lineStart(data []byte, off int) int {
	i := off
	for i > 0 && (data[i-1] == ' ' || data[i-1] == '\t') {
		i--
	}
	if i == 0 || data[i-1] == '\n' {
		return i
	}
	return off
}

// lineStartTrim returns the offset past the spaces from off.
func lineStartTrim(data []byte, off int) int {
	for off < len(data) && (data[off] == ' ' || data[off] == '\t') {
		off++
	}
	return off
}

// lineEnd returns the offset past the line end after off, when only
// spaces follow off on its line; off otherwise.
func lineEnd(data []byte, off int) int {
	i := off
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r') {
		i++
	}
	if i < len(data) && data[i] == '\n' {
		return i + 1
	}
	return off
}

func (u xliffUnit) text(data []byte, target bool) (string, bool) {
	sp := u.source
	if target {
		sp = u.target
	}
	if sp.start < 0 {
		return "", false
	}
	return string(data[sp.start:sp.end]), true
}

// Decode reads an XLIFF file's texts: its targets when it names a
// target language, its sources otherwise. A unit of a target file
// without a <target>, or whose state is one of xliffUntranslated's, is
// read as untranslated (Message.Untranslated), with the target's text
// if it has one.
func (XLIFF) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseXLIFF(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	var msgs []locales.Message
	for _, u := range doc.units {
		t, ok := u.text(data, doc.target)
		msgs = append(msgs, locales.Message{Key: u.id, Text: t, Line: u.line, Untranslated: doc.target && (!ok || xliffUntranslated[u.state])})
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// OpaqueKeys reports that unit ids are identifiers (see locales.Format).
func (XLIFF) OpaqueKeys() bool { return true }

// skeleton returns an empty file of language f.Language.
func (x XLIFF) skeleton(f locales.File) []byte {
	src := cmp.Or(f.SourceLanguage, f.Language)
	target := f.Language != "" && input.LanguageKey(f.Language) != input.LanguageKey(src)
	if cmp.Or(x.Version, "1.2") == "2.0" {
		trg := ""
		if target {
			trg = fmt.Sprintf(" trgLang=%q", xmlEscape(f.Language))
		}
		return fmt.Appendf(nil, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\" srcLang=%q%s>\n  <file id=\"f1\">\n  </file>\n</xliff>\n", xmlEscape(src), trg)
	}
	trg := ""
	if target {
		trg = fmt.Sprintf(" target-language=%q", xmlEscape(f.Language))
	}
	return fmt.Appendf(nil, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:1.2\" version=\"1.2\">\n  <file original=\"messages\" datatype=\"plaintext\" source-language=%q%s>\n    <body>\n    </body>\n  </file>\n</xliff>\n", xmlEscape(src), trg)
}

// base returns the file Encode writes over and its units: f.Old; for a
// new file, the source language's file (f.SourceFile) when it holds
// source texts only, read as a file of language f.Language, with the
// edits that add that language to it (Encode writes them after its
// own), so that the new file has its version, files, units, notes and
// inline markup; else an empty skeleton.
func (x XLIFF) base(f locales.File) ([]byte, *xliffDoc, []splice, error) {
	if f.Old != nil {
		doc, err := parseXLIFF(f.Old)
		return f.Old, doc, nil, err
	}
	src := cmp.Or(f.SourceLanguage, f.Language)
	if f.SourceFile != nil && f.Language != "" && input.LanguageKey(f.Language) != input.LanguageKey(src) {
		if doc, err := parseXLIFF(f.SourceFile); err == nil && !doc.target {
			name := "target-language"
			if doc.version == "2.0" {
				name = "trgLang"
			}
			edits := make([]splice, 0, len(doc.langTags))
			for _, sp := range doc.langTags {
				edits = append(edits, splice{sp.start, sp.end, setAttr(string(f.SourceFile[sp.start:sp.end]), name, f.Language)})
			}
			doc.target = true
			return f.SourceFile, doc, edits, nil
		}
	}
	data := x.skeleton(f)
	doc, err := parseXLIFF(data)
	return data, doc, nil, err
}

type splice struct {
	start, end int
	text       string
}

// Encode writes msgs over f.Old (a new file when nil, see base),
// changing only the texts that differ; a unit msgs lack, or whose
// message is untranslated, stays as it is.
func (x XLIFF) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	data, doc, langEdits, err := x.base(f)
	if err != nil {
		return nil, err
	}
	// Each unit's message and source text, the last of its key.
	msgOf, srcOf := make([]int, len(doc.units)), make([]int, len(doc.units))
	for i := range doc.units {
		msgOf[i], srcOf[i] = -1, -1
	}
	for i, m := range msgs {
		if u, ok := doc.byID[m.Key]; ok {
			msgOf[u] = i
		}
	}
	for i, m := range f.Source {
		if u, ok := doc.byID[m.Key]; ok {
			srcOf[u] = i
		}
	}
	var problems []locales.Problem
	for _, m := range msgs {
		if msg := checkXMLContent(m.Text); msg != "" {
			problems = append(problems, problemf(0, m.Key, "%s", msg))
		}
	}
	for _, m := range f.Source {
		if msg := checkXMLContent(m.Text); msg != "" && doc.target {
			problems = append(problems, problemf(0, m.Key, "source text: %s", msg))
		}
	}
	edits := make([]splice, 0, len(msgs)+len(langEdits)+1)
	for ui, u := range doc.units {
		if msgOf[ui] < 0 || msgs[msgOf[ui]].Untranslated {
			continue
		}
		m := msgs[msgOf[ui]]
		if !doc.target {
			edits = append(edits, splice{u.source.start, u.source.end, m.Text})
			continue
		}
		if si := srcOf[ui]; si >= 0 && !sameXMLText(data[u.source.start:u.source.end], f.Source[si].Text) {
			edits = append(edits, splice{u.source.start, u.source.end, f.Source[si].Text})
		}
		if u.target.start >= 0 {
			edits = append(edits, splice{u.target.start, u.target.end, m.Text})
		} else {
			edits = append(edits, splice{u.afterSource, u.afterSource, "\n" + string(data[u.indent.start:u.indent.end]) + "<target>" + m.Text + "</target>"})
		}
		if u.stateTag.start >= 0 && xliffUntranslated[u.state] {
			tag := string(data[u.stateTag.start:u.stateTag.end])
			edits = append(edits, splice{u.stateTag.start, u.stateTag.end, setAttr(tag, "state", "translated")})
		}
	}
	var added []string
	for _, m := range msgs {
		if _, ok := doc.byID[m.Key]; !ok {
			added = append(added, m.Key)
		}
	}
	if len(added) > 0 {
		have := make(map[string]bool, len(doc.units))
		for _, u := range doc.units {
			have[u.id] = true
		}
		after, atEnd := placeNew(sourceOrder(x, f, added), have, added)
		texts, sources := map[string]locales.Message{}, byKey(f.Source)
		for _, m := range msgs {
			texts[m.Key] = m
		}
		inner := doc.indent + "  "
		unit := func(b *strings.Builder, key string) {
			m := texts[key]
			src := m.Text
			if doc.target {
				s, ok := sources[key]
				if !ok {
					problems = append(problems, problemf(0, key, "no source text for new unit %s: the catalog needs its source language (Catalog.SourceLanguage) with this key", input.Quote(key)))
					return
				}
				src = s
			}
			id := strings.ReplaceAll(xmlEscape(key), `"`, "&#34;")
			target := doc.target && (!m.Untranslated || m.Text != "")
			if doc.version == "2.0" {
				state := ""
				if doc.target && m.Untranslated {
					state = ` state="initial"`
				}
				fmt.Fprintf(b, "%s<unit id=\"%s\">\n%s<segment%s>\n%s  <source>%s</source>\n", doc.indent, id, inner, state, inner, src)
				if target {
					fmt.Fprintf(b, "%s  <target>%s</target>\n", inner, m.Text)
				}
				fmt.Fprintf(b, "%s</segment>\n%s</unit>\n", inner, doc.indent)
				return
			}
			fmt.Fprintf(b, "%s<trans-unit id=\"%s\">\n%s<source>%s</source>\n", doc.indent, id, inner, src)
			if target {
				state := ""
				if m.Untranslated {
					state = ` state="new"`
				}
				fmt.Fprintf(b, "%s<target%s>%s</target>\n", inner, state, m.Text)
			}
			fmt.Fprintf(b, "%s</trans-unit>\n", doc.indent)
		}
		for anchor, keys := range after {
			var b strings.Builder
			for _, k := range keys {
				unit(&b, k)
			}
			at := doc.units[doc.byID[anchor]].outer.end
			edits = append(edits, splice{at, at, b.String()})
		}
		var b strings.Builder
		for _, k := range atEnd {
			unit(&b, k)
		}
		if b.Len() > 0 {
			edits = append(edits, splice{doc.insert, doc.insert, b.String()})
		}
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b locales.Problem) int { return strings.Compare(a.Key, b.Key) })
		return nil, &locales.InputError{Problems: problems}
	}
	// The target language goes into the source file's tags after what
	// is inserted where a tag starts: the edits then read as the old
	// ones did on the source file with the language added.
	return applySplices(data, append(edits, langEdits...)), nil
}

// sameXMLText reports whether two XML contents differ at most in
// whitespace, as a source text re-indented by a tool does: whether
// their fields (strings.Fields) are the same.
func sameXMLText(a []byte, b string) bool {
	if string(a) == b {
		return true
	}
	i, j := 0, 0
	for {
		// The next field of each.
		i = skipSpace(a, i)
		j = skipSpace(b, j)
		if i == len(a) || j == len(b) {
			return i == len(a) && j == len(b)
		}
		ei, ej := fieldEnd(a, i), fieldEnd(b, j)
		if string(a[i:ei]) != b[j:ej] {
			return false
		}
		i, j = ei, ej
	}
}

// skipSpace returns the offset of s's first rune from i that is not a
// space (unicode.IsSpace), or len(s).
func skipSpace[S []byte | string](s S, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// fieldEnd returns the offset of s's first space from i, or len(s).
func fieldEnd[S []byte | string](s S, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		if unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// applySplices replaces the spans of edits in data, in one allocation;
// nothing left is nil.
func applySplices(data []byte, edits []splice) []byte {
	slices.SortStableFunc(edits, func(a, b splice) int { return cmp.Compare(a.start, b.start) })
	size, at := len(data), 0
	for _, e := range edits {
		if e.start >= at {
			size += len(e.text) - (e.end - e.start)
			at = e.end
		}
	}
	if size == 0 {
		return nil
	}
	out := make([]byte, 0, size)
	at = 0
	for _, e := range edits {
		if e.start < at {
			continue
		}
		out = append(out, data[at:e.start]...)
		out = append(out, e.text...)
		at = e.end
	}
	return append(out, data[at:]...)
}
