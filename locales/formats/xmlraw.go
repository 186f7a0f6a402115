package formats

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// The XML formats (Android strings.xml, XLIFF) keep an element's text as
// the file writes it: its content between the tags, entities (&amp;) and
// inline markup (<b>, <xliff:g>, <x/>, <ph>) as they are, so that what
// the app or tool read before it reads again. A text written into such
// a file must be well-formed XML content.

// rawScanner walks an XML document with the byte offsets of its tokens.
type rawScanner struct {
	data   []byte
	dec    *xml.Decoder
	lines  input.Lines
	before int64 // offset before the last token
}

func newRawScanner(data []byte) *rawScanner {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	return &rawScanner{data: data, dec: d, lines: input.Lines{Data: data}}
}

// next returns the next token, with its start offset in s.before. As
// xml.Decoder.Token's, a CharData, Comment, ProcInst or Directive token
// holds bytes valid only until the next call.
func (s *rawScanner) next() (xml.Token, error) {
	s.before = s.dec.InputOffset()
	tok, err := s.dec.Token()
	if err != nil {
		return nil, s.syntax(err)
	}
	return tok, nil
}

func (s *rawScanner) line() int { return s.lines.At(s.before) }

func (s *rawScanner) syntax(err error) error {
	if err == io.EOF {
		return err
	}
	var se *xml.SyntaxError
	line := s.lines.At(s.dec.InputOffset())
	msg := err.Error()
	if errors.As(err, &se) {
		line, msg = se.Line, se.Msg
	}
	if err == io.ErrUnexpectedEOF {
		msg = "the file ends early"
	}
	return lineError(line, "malformed XML: %s", msg)
}

// skip reads up to the end tag of the element whose start tag was just
// read; s.before is then where that end tag starts.
func (s *rawScanner) skip() error {
	depth := 1
	for {
		tok, err := s.next()
		if err == io.EOF {
			return s.syntax(io.ErrUnexpectedEOF)
		}
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
			if depth == 0 {
				return nil
			}
		}
	}
}

func attr(se xml.StartElement, local string) (string, bool) {
	for _, a := range se.Attr {
		if a.Name.Local == local && a.Name.Space == "" {
			return a.Value, true
		}
	}
	return "", false
}

// checkXMLContent returns what makes s no well-formed XML content, or "".
func checkXMLContent(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return ""
	}
	d := xml.NewDecoder(strings.NewReader("<x>" + s + "</x>"))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	depth := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if depth != 0 {
				return "the text is not well-formed XML content (tags not closed)"
			}
			return ""
		}
		if err != nil {
			return "the text is not well-formed XML content (write & as &amp; and < as &lt;): " + err.Error()
		}
		switch tok.(type) {
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
			if depth < 0 {
				return "the text is not well-formed XML content (an end tag without its start)"
			}
		}
	}
}

// xmlEscape escapes s for an attribute value.
func xmlEscape(s string) string {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\'' && c != '&' && c != '<' && c != '>'
	}
	if plain {
		return s
	}
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

func problemf(line int, key, format string, args ...any) locales.Problem {
	return locales.Problem{Line: line, Key: key, Message: fmt.Sprintf(format, args...)}
}

// setAttr returns the start tag tag with attribute name (no prefix) set
// to value: its value replaced where the tag has it, else added at its
// end; the rest of the tag stays as written.
func setAttr(tag, name, value string) string {
	v := xmlEscape(value)
	i := 1
	for i < len(tag) && !isXMLSpace(tag[i]) && tag[i] != '>' && tag[i] != '/' {
		i++
	}
	for {
		for i < len(tag) && isXMLSpace(tag[i]) {
			i++
		}
		if i >= len(tag) || tag[i] == '>' || tag[i] == '/' {
			break
		}
		ns := i
		for i < len(tag) && tag[i] != '=' && !isXMLSpace(tag[i]) {
			i++
		}
		n := tag[ns:i]
		for i < len(tag) && (isXMLSpace(tag[i]) || tag[i] == '=') {
			i++
		}
		if i >= len(tag) {
			break
		}
		vs := i + 1
		e := strings.IndexByte(tag[vs:], tag[i])
		if e < 0 {
			break
		}
		if n == name {
			return tag[:vs] + v + tag[vs+e:]
		}
		i = vs + e + 1
	}
	end := len(tag) - 1
	if strings.HasSuffix(tag, "/>") {
		end--
	}
	head := strings.TrimRight(tag[:end], " \t\r\n")
	return head + " " + name + `="` + v + `"` + tag[end:]
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// sourceOrder returns the keys of the source language's file in its
// order: those of f.SourceFile as format reads it, then those of
// f.Source it lacks, sorted. Only new entries need the order: with none
// added, it reads nothing and returns nil.
func sourceOrder(format locales.Format, f locales.File, added []string) []string {
	if len(added) == 0 {
		return nil
	}
	var order []string
	seen := map[string]bool{}
	if f.SourceFile != nil {
		msgs, _, err := format.Decode(locales.File{Language: f.SourceLanguage, Namespace: f.Namespace, SourceLanguage: f.SourceLanguage}, f.SourceFile)
		if err == nil {
			for _, m := range msgs {
				if !seen[m.Key] {
					seen[m.Key] = true
					order = append(order, m.Key)
				}
			}
		}
	}
	for _, m := range f.Source {
		if !seen[m.Key] {
			seen[m.Key] = true
			order = append(order, m.Key)
		}
	}
	return order
}

// placeNew says where each key of added, not in the file, goes: after
// the key that precedes it in order, present in the file or itself
// added (after, by that key, in order), or at the end (atEnd: those
// that nothing precedes and those order lacks, in order and then in
// key order).
func placeNew(order []string, present map[string]bool, added []string) (after map[string][]string, atEnd []string) {
	if len(order) == 0 {
		atEnd = slices.Clone(added)
		slices.Sort(atEnd)
		return map[string][]string{}, atEnd
	}
	isNew := map[string]bool{}
	for _, k := range added {
		isNew[k] = true
	}
	after = map[string][]string{}
	anchor := ""
	placed := map[string]bool{}
	for _, k := range order {
		switch {
		case present[k]:
			anchor = k
		case isNew[k] && !placed[k]:
			placed[k] = true
			if anchor == "" {
				atEnd = append(atEnd, k)
				continue
			}
			after[anchor] = append(after[anchor], k)
		}
	}
	rest := slices.Clone(added)
	slices.Sort(rest)
	for _, k := range rest {
		if !placed[k] {
			atEnd = append(atEnd, k)
		}
	}
	return after, atEnd
}
