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
// A unit's id is its key. A file that names a target language
// (target-language, trgLang) holds the translations: its texts are the
// <target>s, and a unit without one is not translated yet. A file that
// names none holds the source texts: its texts are the <source>s. Texts
// are the elements' content as written (see the XML formats' rule).
//
// Write changes the file only where a text changed: a <target> is
// replaced or added after its <source>, a <source> follows the source
// language's text when the catalog has it (Catalog.SourceLanguage), a
// unit of a key the catalog no longer has in either language is
// removed, and new units are added at the end of the last <file>, in
// key order, with their source text. Notes, states, groups, other
// attributes and everything else stay byte for byte. Refused: a unit
// id used twice, a 2.0 unit of several segments, and on writing, a new
// translation whose source text the catalog lacks.
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
	targetState    string
}

type xliffDoc struct {
	version  string // "1.2" or "2.0"
	target   bool   // names a target language
	units    []xliffUnit
	insert   int    // where new units go
	indent   string // of a unit
	problems []locales.Problem
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
			if name == "file" && doc.version == "1.2" {
				if trg, ok := attr(t, "target-language"); ok && trg != "" {
					doc.target = true
				}
			}
			if (name == "trans-unit" && doc.version == "1.2") || (name == "unit" && doc.version == "2.0") {
				id, _ := attr(t, "id")
				unit = &xliffUnit{id: id, line: s.line(), source: xliffSpan{-1, -1}, target: xliffSpan{-1, -1}}
				unit.outer.start = lineStart(data, int(s.before))
				segments = 0
				if id == "" {
					doc.problems = append(doc.problems, problemf(unit.line, "", "a unit without an id"))
				}
			}
			if name == "segment" && unit != nil {
				segments++
				if segments == 2 {
					doc.problems = append(doc.problems, problemf(s.line(), unit.id, "unit %s has several segments; one text per key cannot hold them", input.Quote(unit.id)))
				}
			}
			if (name == "source" || name == "target") && unit != nil && len(stack) > 0 && (stack[len(stack)-1] == "trans-unit" || stack[len(stack)-1] == "segment") {
				if name == "target" {
					unit.targetState, _ = attr(t, "state")
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
// target language, its sources otherwise.
func (XLIFF) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parseXLIFF(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	var msgs []locales.Message
	for _, u := range doc.units {
		if t, ok := u.text(data, doc.target); ok {
			msgs = append(msgs, locales.Message{Key: u.id, Text: t, Line: u.line})
		}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

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

type splice struct {
	start, end int
	text       string
}

// Encode writes msgs over f.Old (a new file when nil), changing
// only the texts that differ.
func (x XLIFF) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	data := f.Old
	if data == nil {
		data = x.skeleton(f)
	}
	doc, err := parseXLIFF(data)
	if err != nil {
		return nil, err
	}
	texts := byKey(msgs)
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
	for _, u := range doc.units {
		have[u.id] = true
		text, ok := texts[u.id]
		_, inSource := sources[u.id]
		if !ok {
			_, hadText := u.text(data, doc.target)
			if hadText && !inSource {
				edits = append(edits, splice{u.outer.start, u.outer.end, ""})
			}
			continue
		}
		if !doc.target {
			edits = append(edits, splice{u.source.start, u.source.end, text})
			continue
		}
		if src, ok := sources[u.id]; ok {
			edits = append(edits, splice{u.source.start, u.source.end, src})
		}
		if u.target.start >= 0 {
			edits = append(edits, splice{u.target.start, u.target.end, text})
		} else {
			edits = append(edits, splice{u.afterSource, u.afterSource, "\n" + u.indent + "<target>" + text + "</target>"})
		}
	}
	var add strings.Builder
	inner := doc.indent + "  "
	for _, m := range msgs {
		if have[m.Key] {
			continue
		}
		src := m.Text
		if doc.target {
			s, ok := sources[m.Key]
			if !ok {
				problems = append(problems, problemf(0, m.Key, "no source text for new unit %s: the catalog needs its source language (Catalog.SourceLanguage) with this key", input.Quote(m.Key)))
				continue
			}
			src = s
		}
		id := strings.ReplaceAll(xmlEscape(m.Key), `"`, "&#34;")
		if doc.version == "2.0" {
			fmt.Fprintf(&add, "%s<unit id=\"%s\">\n%s<segment>\n%s  <source>%s</source>\n", doc.indent, id, inner, inner, src)
			if doc.target {
				fmt.Fprintf(&add, "%s  <target>%s</target>\n", inner, m.Text)
			}
			fmt.Fprintf(&add, "%s</segment>\n%s</unit>\n", inner, doc.indent)
			continue
		}
		fmt.Fprintf(&add, "%s<trans-unit id=\"%s\">\n%s<source>%s</source>\n", doc.indent, id, inner, src)
		if doc.target {
			fmt.Fprintf(&add, "%s<target>%s</target>\n", inner, m.Text)
		}
		fmt.Fprintf(&add, "%s</trans-unit>\n", doc.indent)
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if add.Len() > 0 {
		edits = append(edits, splice{doc.insert, doc.insert, add.String()})
	}
	return applySplices(data, edits), nil
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
