package formats

import (
	"bytes"
	"cmp"
	"encoding/xml"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
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
	afterSource    int    // where a new <target> goes
	indent         string // of the <source> line
	// stateTag is the start tag that holds the unit's state: its
	// <target> in 1.2, its <segment> in 2.0; state is its value.
	stateTag xliffSpan
	state    string
}

type xliffDoc struct {
	version  string // "1.2" or "2.0"
	target   bool   // names a target language
	units    []xliffUnit
	insert   int         // where new units go
	indent   string      // of a unit
	langTags []xliffSpan // where a target language goes: 1.2's <file> tags, 2.0's <xliff> tag
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
	var unit *xliffUnit
	segments := 0
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
				case strings.HasPrefix(v, "2."):
					doc.version = "2.0"
					if trg, ok := attr(t, "trgLang"); ok && trg != "" {
						doc.target = true
					}
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
				unit = &xliffUnit{id: id, line: s.line(), source: xliffSpan{-1, -1}, target: xliffSpan{-1, -1}, stateTag: xliffSpan{-1, -1}}
				unit.outer.start = lineStart(data, int(s.before))
				segments = 0
				if id == "" {
					doc.problems = append(doc.problems, problemf(unit.line, "", "a unit without an id"))
				}
			}
			if name == "segment" && unit != nil {
				segments++
				unit.stateTag = xliffSpan{int(s.before), int(s.dec.InputOffset())}
				unit.state, _ = attr(t, "state")
				if segments == 2 {
					doc.problems = append(doc.problems, problemf(s.line(), unit.id, "unit %s has several segments; one text per key cannot hold them", input.Quote(unit.id)))
				}
			}
			if (name == "source" || name == "target") && unit != nil && len(stack) > 0 && (stack[len(stack)-1] == "trans-unit" || stack[len(stack)-1] == "segment") {
				if name == "target" && doc.version == "1.2" {
					unit.stateTag = xliffSpan{int(s.before), int(s.dec.InputOffset())}
					unit.state, _ = attr(t, "state")
				}
				tagStart := int(s.before)
				start := int(s.dec.InputOffset())
				if _, err := s.inner(); err != nil {
					return nil, err
				}
				span := xliffSpan{start, int(s.before)}
				if name == "source" {
					unit.source = span
					unit.afterSource = int(s.dec.InputOffset())
					unit.indent = string(data[lineStart(data, tagStart):tagStart])
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
			if unit != nil && ((name == "trans-unit" && doc.version == "1.2") || (name == "unit" && doc.version == "2.0")) {
				unit.outer.end = lineEnd(data, int(s.dec.InputOffset()))
				if unit.source.start < 0 {
					doc.problems = append(doc.problems, problemf(unit.line, unit.id, "unit %s has no <source>", input.Quote(unit.id)))
				}
				doc.indent = string(data[unit.outer.start:lineStartTrim(data, unit.outer.start)])
				doc.units = append(doc.units, *unit)
				unit = nil
			}
			if (name == "body" && doc.version == "1.2") || (name == "file" && doc.version == "2.0") {
				doc.insert = lineStart(data, int(s.before))
				if len(doc.units) == 0 {
					doc.indent = string(data[doc.insert:int(s.before)]) + "  "
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
	seen := map[string]int{}
	for _, u := range doc.units {
		if first, dup := seen[u.id]; dup && u.id != "" {
			doc.problems = append(doc.problems, problemf(u.line, u.id, "unit id %s twice (also on line %d)", input.Quote(u.id), first))
		}
		seen[u.id] = u.line
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

// fresh returns what a new file of language f.Language starts from: the
// source language's file (f.SourceFile) when it holds source texts only,
// with the target language added, so that the new file has its version,
// files, units, notes and inline markup; else an empty skeleton.
func (x XLIFF) fresh(f locales.File) []byte {
	src := cmp.Or(f.SourceLanguage, f.Language)
	if f.SourceFile == nil || f.Language == "" || input.LanguageKey(f.Language) == input.LanguageKey(src) {
		return x.skeleton(f)
	}
	doc, err := parseXLIFF(f.SourceFile)
	if err != nil || doc.target {
		return x.skeleton(f)
	}
	name := "target-language"
	if doc.version == "2.0" {
		name = "trgLang"
	}
	var edits []splice
	for _, sp := range doc.langTags {
		edits = append(edits, splice{sp.start, sp.end, setAttr(string(f.SourceFile[sp.start:sp.end]), name, f.Language)})
	}
	return applySplices(f.SourceFile, edits)
}

type splice struct {
	start, end int
	text       string
}

// Encode writes msgs over f.Old (a new file when nil, see fresh),
// changing only the texts that differ; a unit msgs lack, or whose
// message is untranslated, stays as it is.
func (x XLIFF) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	data := f.Old
	if data == nil {
		data = x.fresh(f)
	}
	doc, err := parseXLIFF(data)
	if err != nil {
		return nil, err
	}
	texts := map[string]locales.Message{}
	for _, m := range msgs {
		texts[m.Key] = m
	}
	sources := byKey(f.Source)
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
	var edits []splice
	have := map[string]bool{}
	ends := map[string]int{} // unit id -> the end of its element's line
	for _, u := range doc.units {
		have[u.id] = true
		ends[u.id] = u.outer.end
		m, ok := texts[u.id]
		if !ok || m.Untranslated {
			continue
		}
		if !doc.target {
			edits = append(edits, splice{u.source.start, u.source.end, m.Text})
			continue
		}
		if src, ok := sources[u.id]; ok {
			if old, _ := u.text(data, false); !sameXMLText(old, src) {
				edits = append(edits, splice{u.source.start, u.source.end, src})
			}
		}
		if u.target.start >= 0 {
			edits = append(edits, splice{u.target.start, u.target.end, m.Text})
		} else {
			edits = append(edits, splice{u.afterSource, u.afterSource, "\n" + u.indent + "<target>" + m.Text + "</target>"})
		}
		if u.stateTag.start >= 0 && xliffUntranslated[u.state] {
			tag := string(data[u.stateTag.start:u.stateTag.end])
			edits = append(edits, splice{u.stateTag.start, u.stateTag.end, setAttr(tag, "state", "translated")})
		}
	}
	var added []string
	for _, m := range msgs {
		if !have[m.Key] {
			added = append(added, m.Key)
		}
	}
	after, atEnd := placeNew(sourceOrder(x, f, added), have, added)
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
		edits = append(edits, splice{ends[anchor], ends[anchor], b.String()})
	}
	var b strings.Builder
	for _, k := range atEnd {
		unit(&b, k)
	}
	if b.Len() > 0 {
		edits = append(edits, splice{doc.insert, doc.insert, b.String()})
	}
	if len(problems) > 0 {
		slices.SortStableFunc(problems, func(a, b locales.Problem) int { return strings.Compare(a.Key, b.Key) })
		return nil, &locales.InputError{Problems: problems}
	}
	return applySplices(data, edits), nil
}

// sameXMLText reports whether two XML contents differ at most in
// whitespace, as a source text re-indented by a tool does.
func sameXMLText(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// applySplices replaces the spans of edits in data.
func applySplices(data []byte, edits []splice) []byte {
	slices.SortStableFunc(edits, func(a, b splice) int { return cmp.Compare(a.start, b.start) })
	var b bytes.Buffer
	at := 0
	for _, e := range edits {
		if e.start < at {
			continue
		}
		b.Write(data[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(data[at:])
	return b.Bytes()
}
