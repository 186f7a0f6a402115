package formats

import (
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"strconv"
	"strings"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// PO is GNU gettext's PO files (<lang>.po). The Go packages for PO files
// are runtime translators or keep less than a file holds, so this is a
// small reader and writer of its own.
//
// An entry's key is its msgid, or msgctxt and msgid joined by U+0004 as
// gettext joins them in .mo files. Its text is its msgstr; a plural
// entry's msgstr[0], msgstr[1], … are one ICU plural of count (see the
// package's Plural forms), whose cases the file's Plural-Forms header
// names: the common headers (one form; n != 1; n > 1; the Slavic,
// Czech and Arabic ones) are known, another is refused. An entry whose
// msgstr is empty is not translated yet: it holds no text. Fuzzy
// entries are texts (their flag is kept).
//
// Write changes only the msgstr lines of entries whose text changed; the
// header, comments (#, #., #:, #,, #|), obsolete #~ entries and
// untranslated entries stay as written. An entry the catalog no longer
// has in this language nor in its source language is removed; new
// entries are added at the end in key order. A new file gets a header
// with the language and, for the languages of the table above, its
// Plural-Forms. Refused: an entry twice, bytes that are not UTF-8 (a
// file in another charset must be converted, as msgconv does), and on
// writing, a plural whose cases are not the file's plural forms.
type PO struct{}

// Ext returns ".po".
func (PO) Ext() string { return ".po" }

// poContext joins msgctxt and msgid in a key.
const poContext = "\x04"

type poEntry struct {
	start, end         int // the entry's lines, comments included
	strStart, strEnd   int // the msgstr lines
	ctxt, id, idPlural string
	hasCtxt, plural    bool
	hasID, indexed     bool // a msgid was read; the msgstr lines are msgstr[n]
	strs               []string
	line               int
}

func (e poEntry) key() string {
	if e.hasCtxt {
		return e.ctxt + poContext + e.id
	}
	return e.id
}

type poDoc struct {
	entries []poEntry
	header  *poEntry
}

// poForms returns the plural categories of the forms of a Plural-Forms
// expression without spaces, or nil when not known.
func poForms(expr string) []string {
	switch expr {
	case "0":
		return []string{"other"}
	case "n!=1", "n>1":
		return []string{"one", "other"}
	case "n%10==1&&n%100!=11?0:n%10>=2&&n%10<=4&&(n%100<10||n%100>=20)?1:2", // Russian, Ukrainian, …
		"n==1?0:n%10>=2&&n%10<=4&&(n%100<10||n%100>=20)?1:2": // Polish
		return []string{"one", "few", "many"}
	case "(n==1)?0:(n>=2&&n<=4)?1:2": // Czech, Slovak
		return []string{"one", "few", "other"}
	case "n==0?0:n==1?1:n==2?2:n%100>=3&&n%100<=10?3:n%100>=11?4:5": // Arabic
		return []string{"zero", "one", "two", "few", "many", "other"}
	}
	return nil
}

// poLanguageForms returns the Plural-Forms of a new file of language
// lk (a LanguageKey), or "".
func poLanguageForms(lk string) string {
	switch lk {
	case "en", "de", "nl", "sv", "da", "nb", "nn", "no", "it", "es", "pt", "el", "fi", "et", "hu", "bg", "ca", "eo", "he":
		return "nplurals=2; plural=(n != 1);"
	case "fr", "pt-br", "tr":
		return "nplurals=2; plural=(n > 1);"
	case "ja", "zh", "ko", "vi", "th", "id", "ms":
		return "nplurals=1; plural=0;"
	case "ru", "uk", "be", "sr", "hr", "bs":
		return "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
	case "pl":
		return "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
	case "cs", "sk":
		return "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"
	case "ar":
		return "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;"
	}
	return ""
}

// categories returns the plural categories of a Plural-Forms header
// value, or nil when not known.
func poCategories(header string) []string {
	_, expr, ok := strings.Cut(header, "plural=")
	if !ok {
		return nil
	}
	expr = strings.TrimSuffix(strings.Join(strings.Fields(expr), ""), ";")
	for strings.HasPrefix(expr, "(") && strings.HasSuffix(expr, ")") && balanced(expr[1:len(expr)-1]) {
		expr = expr[1 : len(expr)-1]
	}
	cats := poForms(expr)
	n := 0
	if _, rest, ok := strings.Cut(header, "nplurals="); ok {
		n, _ = strconv.Atoi(strings.TrimSpace(strings.SplitN(rest, ";", 2)[0]))
	}
	if len(cats) != n {
		return nil
	}
	return cats
}

func balanced(s string) bool {
	depth := 0
	for _, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

// headerField returns a field of the header entry's msgstr.
func (d *poDoc) headerField(name string) string {
	if d.header == nil || len(d.header.strs) == 0 {
		return ""
	}
	for _, line := range strings.Split(d.header.strs[0], "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func parsePO(data []byte) (*poDoc, error) {
	s := string(data)
	doc := &poDoc{}
	var problems []locales.Problem
	lines := strings.SplitAfter(s, "\n")
	off := 0
	var cur *poEntry
	var field *string // the string continuation lines append to
	section := ""     // the keyword last read
	flush := func(end int) {
		if cur == nil {
			return
		}
		cur.end = end
		if section == "" { // comments only: obsolete entries, stray comments
			cur.id, cur.line = "", -cur.line
		}
		doc.entries = append(doc.entries, *cur)
		cur, field, section = nil, nil, ""
	}
	for n, raw := range lines {
		line := strings.TrimRight(raw, "\r\n")
		trim := strings.TrimSpace(line)
		start := off
		off += len(raw)
		if trim == "" {
			flush(start)
			continue
		}
		if strings.HasPrefix(trim, "#") {
			if section != "" && !strings.HasPrefix(trim, "#~") {
				flush(start) // comments start the next entry
			}
			if cur == nil {
				cur = &poEntry{start: start, line: n + 1, strStart: -1}
			}
			continue
		}
		if cur == nil {
			cur = &poEntry{start: start, line: n + 1, strStart: -1}
		}
		if strings.HasPrefix(trim, `"`) {
			if field == nil {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "a string without msgid, msgstr or msgctxt before it")}}
			}
			v, err := unquotePO(trim)
			if err != nil {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "%v", err)}}
			}
			*field += v
			if strings.HasPrefix(section, "msgstr") {
				cur.strEnd = off
			}
			continue
		}
		kw, rest, _ := strings.Cut(trim, " ")
		v, err := unquotePO(strings.TrimSpace(rest))
		if err != nil {
			return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "%s: %v", kw, err)}}
		}
		if kw == "msgctxt" && section != "" || kw == "msgid" && section != "" && section != "msgctxt" {
			flush(start)
			cur = &poEntry{start: start, line: n + 1, strStart: -1}
		}
		switch {
		case kw == "msgctxt":
			cur.hasCtxt, cur.ctxt = true, v
			field = &cur.ctxt
		case kw == "msgid":
			cur.id, cur.line, cur.hasID = v, n+1, true
			field = &cur.id
		case kw == "msgid_plural":
			if section != "msgid" {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "msgid_plural without a msgid just before it")}}
			}
			cur.plural, cur.idPlural = true, v
			field = &cur.idPlural
		case kw == "msgstr" || strings.HasPrefix(kw, "msgstr["):
			if !cur.hasID {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "%s without a msgid before it", kw)}}
			}
			indexed := kw != "msgstr"
			if len(cur.strs) > 0 && (!indexed || !cur.indexed) {
				return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "%s after msgstr: one msgstr, or msgstr[0], msgstr[1]…", kw)}}
			}
			cur.indexed = indexed
			i := 0
			if indexed {
				i, err = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(kw, "msgstr["), "]"))
				if err != nil || i != len(cur.strs) || !strings.HasSuffix(kw, "]") {
					return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "%s out of order", kw)}}
				}
			}
			if cur.strStart < 0 {
				cur.strStart = start
			}
			cur.strs = append(cur.strs, v)
			field = &cur.strs[len(cur.strs)-1]
			cur.strEnd = off
		default:
			return nil, &locales.InputError{Problems: []locales.Problem{problemf(n+1, "", "unknown keyword %s", input.Quote(kw))}}
		}
		section = kw
	}
	flush(len(s))
	seen := map[string]int{}
	for i := range doc.entries {
		e := &doc.entries[i]
		if e.line < 0 {
			continue
		}
		if e.strStart < 0 {
			problems = append(problems, problemf(e.line, e.key(), "entry %s has no msgstr", input.Quote(e.key())))
			continue
		}
		if e.plural != e.indexed {
			problems = append(problems, problemf(e.line, e.key(), "entry %s: msgid_plural goes with msgstr[n] and msgstr without", input.Quote(e.key())))
			continue
		}
		if e.id == "" && !e.hasCtxt {
			if doc.header != nil {
				problems = append(problems, problemf(e.line, "", "a second entry with an empty msgid (the header is on line %d)", doc.header.line))
				continue
			}
			doc.header = e
			continue
		}
		if first, dup := seen[e.key()]; dup {
			problems = append(problems, problemf(e.line, e.key(), "entry %s twice (also on line %d)", input.Quote(e.key()), first))
		}
		seen[e.key()] = e.line
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if ps := doc.notUTF8(data); ps != nil {
		return nil, &locales.InputError{Problems: ps}
	}
	return doc, nil
}

// cEscape returns the byte a C letter escape (\n, \t, \r, \a, \b, \f,
// \v) stands for, which PO and Apple .strings files share.
func cEscape(e byte) (byte, bool) {
	switch e {
	case 'n':
		return '\n', true
	case 't':
		return '\t', true
	case 'r':
		return '\r', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'v':
		return '\v', true
	}
	return 0, false
}

// unquotePO reads a PO string literal.
func unquotePO(s string) (string, error) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("want a quoted string")
	}
	s = s[1 : len(s)-1]
	if !strings.ContainsAny(s, `\"`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			return "", fmt.Errorf("a quote inside a string")
		}
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(s) {
			return "", fmt.Errorf("a string ending in a backslash")
		}
		e := s[i]
		if c, ok := cEscape(e); ok {
			b.WriteByte(c)
			continue
		}
		switch e {
		case '\\', '"', '\'', '?':
			b.WriteByte(e)
		case 'x':
			j := i + 1
			for j < len(s) && j < i+3 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if j == i+1 {
				return "", fmt.Errorf(`\x without hex digits`)
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 8)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			if e < '0' || e > '7' {
				return "", fmt.Errorf("unknown escape \\%c", e)
			}
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		}
	}
	return b.String(), nil
}

// quotePO writes a keyword and its string as PO lines: one line, or,
// for a text with line breaks inside, "" and a line per line.
func quotePO(b *strings.Builder, kw, s string) {
	b.WriteString(kw + " ")
	parts := strings.SplitAfter(s, "\n")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 1 {
		b.WriteString("\"\"\n")
	}
	if len(parts) == 0 {
		parts = []string{""}
	}
	for i, p := range parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteByte('"')
		for j := 0; j < len(p); j++ {
			switch c := p[j]; c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\t':
				b.WriteString(`\t`)
			case '\r':
				b.WriteString(`\r`)
			default:
				if c < 0x20 {
					fmt.Fprintf(b, `\%03o`, c)
					continue
				}
				b.WriteByte(c)
			}
		}
		b.WriteByte('"')
	}
	b.WriteByte('\n')
}

func (d *poDoc) text(e poEntry, cats []string) (string, bool, string) {
	if !e.plural {
		return e.strs[0], e.strs[0] != "", looksPlural(e.strs[0], "msgstr[n]")
	}
	empty := true
	for _, s := range e.strs {
		empty = empty && s == ""
	}
	if empty {
		return "", false, ""
	}
	if cats == nil {
		return "", false, fmt.Sprintf("plural forms %s are not known: their cases cannot be named", input.Quote(d.headerField("Plural-Forms")))
	}
	if len(cats) != len(e.strs) {
		return "", false, fmt.Sprintf("%d msgstr[n] for %d plural forms", len(e.strs), len(cats))
	}
	p := pluralText{arg: pluralArg}
	for i, s := range e.strs {
		p.cases = append(p.cases, pluralCase{sel: cats[i], text: s})
	}
	return p.format(false), true, ""
}

// Decode reads a PO file.
func (PO) Decode(_ locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parsePO(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	cats := poCategories(doc.headerField("Plural-Forms"))
	var msgs []locales.Message
	var problems []locales.Problem
	for _, e := range doc.entries {
		if e.line < 0 || doc.header != nil && e.start == doc.header.start {
			continue
		}
		text, ok, problem := doc.text(e, cats)
		if problem != "" {
			problems = append(problems, problemf(e.line, e.key(), "%s", problem))
			continue
		}
		if ok {
			msgs = append(msgs, locales.Message{Key: e.key(), Text: text, Line: e.line})
		}
	}
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	return msgs, locales.File{Keys: translations.Flat}, nil
}

// notUTF8 returns a problem for each line of data that is not UTF-8,
// naming its entry.
func (d *poDoc) notUTF8(data []byte) []locales.Problem {
	entries := d.entries
	ps := notUTF8(data, func(off int) input.Where {
		for len(entries) > 0 && entries[0].end <= off {
			entries = entries[1:]
		}
		if len(entries) == 0 || entries[0].start > off || entries[0].line < 0 {
			return input.Where{}
		}
		return input.Where{Key: entries[0].key()}
	})
	if cs := d.charset(); len(ps) > 0 && cs != "" && !strings.EqualFold(cs, "UTF-8") {
		ps[0].Message += fmt.Sprintf(" (the header says charset=%s: msgconv --to-code=UTF-8 converts it)", cs)
	}
	return ps
}

// charset returns the charset the header's Content-Type names, or "".
func (d *poDoc) charset() string {
	_, cs, _ := strings.Cut(d.headerField("Content-Type"), "charset=")
	cs, _, _ = strings.Cut(cs, ";")
	return strings.TrimSpace(cs)
}

func poHeader(lang string) []byte {
	var b strings.Builder
	b.WriteString("msgid \"\"\nmsgstr \"\"\n")
	b.WriteString(`"Content-Type: text/plain; charset=UTF-8\n"` + "\n")
	if lang != "" {
		fmt.Fprintf(&b, "\"Language: %s\\n\"\n", lang)
		forms := poLanguageForms(input.LanguageKey(lang))
		if forms == "" {
			forms = poLanguageForms(strings.SplitN(input.LanguageKey(lang), "-", 2)[0])
		}
		if forms != "" {
			fmt.Fprintf(&b, "\"Plural-Forms: %s\\n\"\n", forms)
		}
	}
	return []byte(b.String())
}

// msgstr writes the msgstr lines of text for entry e.
func poMsgstr(b *strings.Builder, key, text string, plural bool, cats []string) string {
	if !plural {
		quotePO(b, "msgstr", text)
		return ""
	}
	p, ok := countPlural(text)
	if !ok {
		return fmt.Sprintf("the text of plural entry %s is no ICU plural of count", input.Quote(key))
	}
	if cats == nil {
		return "the file's plural forms are not known: set a Plural-Forms header gettext knows"
	}
	if len(p.cases) != len(cats) {
		return fmt.Sprintf("the plural of %s has cases %s; the file's plural forms are %s", input.Quote(key), selectors(p), strings.Join(cats, ", "))
	}
	for i, c := range cats {
		t, ok := p.text(c)
		if !ok {
			return fmt.Sprintf("the plural of %s has cases %s; the file's plural forms are %s", input.Quote(key), selectors(p), strings.Join(cats, ", "))
		}
		quotePO(b, "msgstr["+strconv.Itoa(i)+"]", t)
	}
	return ""
}

func selectors(p pluralText) string {
	var s []string
	for _, c := range p.cases {
		s = append(s, c.sel)
	}
	return strings.Join(s, ", ")
}

// Encode writes msgs over f.Old, changing only the msgstr lines of
// changed entries.
func (PO) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	data := f.Old
	if data == nil {
		data = poHeader(f.Language)
	}
	doc, err := parsePO(data)
	if err != nil {
		return nil, err
	}
	cats := poCategories(doc.headerField("Plural-Forms"))
	texts := byKey(msgs)
	sources := byKey(f.Source)
	var problems []locales.Problem
	var edits []splice
	have := map[string]bool{}
	for _, e := range doc.entries {
		if e.line < 0 || doc.header != nil && e.start == doc.header.start {
			continue
		}
		k := e.key()
		have[k] = true
		text, ok := texts[k]
		if !ok {
			_, had, _ := doc.text(e, cats)
			if _, inSource := sources[k]; had && !inSource {
				end := e.end
				if end < len(data) && data[end] == '\n' {
					end++ // and the blank line after it
				}
				edits = append(edits, splice{e.start, end, ""})
			}
			continue
		}
		if old, _, _ := doc.text(e, cats); old == text {
			continue
		}
		var b strings.Builder
		if p := poMsgstr(&b, k, text, e.plural, cats); p != "" {
			problems = append(problems, problemf(e.line, k, "%s", p))
			continue
		}
		edits = append(edits, splice{e.strStart, e.strEnd, b.String()})
	}
	var add strings.Builder
	for _, m := range msgs {
		if have[m.Key] {
			continue
		}
		var b strings.Builder
		ctxt, id, hasCtxt := strings.Cut(m.Key, poContext)
		if !hasCtxt {
			id = ctxt
		}
		b.WriteString("\n")
		if hasCtxt {
			quotePO(&b, "msgctxt", ctxt)
		}
		quotePO(&b, "msgid", id)
		_, plural := countPlural(m.Text)
		if plural {
			other := ""
			if sp, ok := countPlural(sources[m.Key]); ok {
				other, _ = sp.text("other")
			} else {
				p, _ := countPlural(m.Text)
				other, _ = p.text("other")
			}
			quotePO(&b, "msgid_plural", other)
		}
		if p := poMsgstr(&b, m.Key, m.Text, plural, cats); p != "" {
			problems = append(problems, problemf(0, m.Key, "%s", p))
			continue
		}
		add.WriteString(b.String())
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	if add.Len() > 0 {
		end := len(data)
		for end > 0 && (data[end-1] == '\n' || data[end-1] == '\r' || data[end-1] == ' ') {
			end--
		}
		edits = append(edits, splice{end, len(data), "\n" + add.String()})
	}
	return applySplices(data, edits), nil
}
