package formats

import (
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// PO is GNU gettext's PO files (<lang>.po) and templates (.pot). The Go
// packages for PO files are runtime translators or keep less than a file
// holds, so this is a small reader and writer of its own.
//
// Keys are msgids, taken whole (OpaqueKeys): "%s: Snoozed until %s",
// "Loading..." and a sentence ending in "." are ordinary keys. An entry
// with a msgctxt is keyed by msgctxt and msgid joined by U+0004, as
// gettext itself keys it in .mo files: the same msgid in two contexts
// ("Open" in a menu and as a shop's status) is two keys, and the file's
// namespace stays the file's name.
//
// A message's text is its msgstr; a plural entry's msgstr[0],
// msgstr[1], … are one ICU plural of count (see the package's Plural
// forms), whose cases the file's Plural-Forms header names: the forms
// of the CLDR table (see below) for the file's Language and the common
// headers gettext's tools write are known, another is refused.
//
// Untranslated entries (Message.Untranslated) are the "#, fuzzy" ones
// (Text is their msgstr) and those with an empty msgstr, or with an
// empty msgstr[n] (Text is "" or what the forms hold). The header entry
// (msgid "") is never a message.
//
// Source texts: in a file read as the source language (File.Language is
// File.SourceLanguage) or as a template (File.Language is "", a .pot),
// an entry's text is its msgid: for a plural entry, {count, plural, one
// {msgid} other {msgid_plural}}; in a source-language file whose msgstr
// is its text (an en.po of identifier msgids, whose Language header is
// empty or the language it is read as), a translated entry's text is its
// msgstr, as it is in any file read with File.Language "". So the .pot of a tree of target .po files, or any of those
// files read as the source language, gives the source texts.
//
// Encode changes only what changed, byte for byte elsewhere (header,
// comments #, #. #: #, #|, line wrapping, order, obsolete #~ entries):
// the msgstr lines of an entry whose text changed, and, for a
// translation the service holds (not Untranslated), the "fuzzy" flag
// (other flags such as c-format are kept) and the "#|" previous-msgid
// comments that go with it, as msgattrib --clear-fuzzy --clear-previous
// does. An entry the messages lack stays as the file has it. A new entry
// goes after the entry that precedes it in the template (File.SourceFile),
// else after the file's last entry, and takes the template's comments,
// flags, msgctxt and msgid lines. A template's msgids are its texts: a
// source text that differs from its msgid is not written into a .pot.
//
// A new file is what msginit makes of the template when there is one:
// its header comments and fields (Project-Id-Version, Report-Msgid-Bugs-To,
// Content-Type with charset=UTF-8, …), Language, and Plural-Forms from
// a table generated from CLDR's plural rules (pluralforms.go: categories
// in CLDR's order zero, one, two, few, many, other, as far as integer
// counts reach them), then every template entry in its order,
// translated or with an empty msgstr. A file that needs plural forms
// (a plural entry) for a language the table lacks is refused once, as an
// *locales.InputError for that file.
//
// Refused: an entry twice, bytes that are not UTF-8 (a file in another
// charset must be converted, as msgconv does), and on writing, a plural
// whose cases are not the file's plural forms.
type PO struct{}

// Ext returns ".po".
func (PO) Ext() string { return ".po" }

// OpaqueKeys reports that PO keys are msgids, taken whole.
func (PO) OpaqueKeys() bool { return true }

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
	kwStart            int      // the first keyword line (msgctxt or msgid); -1 before
	fuzzy              bool     // a "#," line has the fuzzy flag
	flags, prev        []poSpan // the "#," lines and the "#|" lines
}

// poSpan is a line of a file: its offsets, line break included.
type poSpan struct{ start, end int }

func (e poEntry) key() string {
	if e.hasCtxt {
		return e.ctxt + poContext + e.id
	}
	return e.id
}

type poDoc struct {
	entries []poEntry
	header  *poEntry
	// otherLanguage: read as the source language, the file's Language
	// header names another (a target file whose msgids are the source).
	otherLanguage bool
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

// poLanguageForms returns the Plural-Forms header value of a new file
// of lang, as a file's name or Language header spells it ("pt_BR",
// "sr@latin", "zh-Hans"), and its categories, from the CLDR table: the
// language's own forms, else those of the language without its last
// subtag ("pt_BR" has "pt"'s).
func poLanguageForms(lang string) (string, []string) {
	lk, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(lang)), "@")
	lk = strings.ReplaceAll(lk, "_", "-")
	for lk != "" {
		if forms, cats, ok := cldrPluralForms(lk); ok {
			return forms, strings.Fields(cats)
		}
		i := strings.LastIndexByte(lk, '-')
		if i < 0 {
			break
		}
		lk = lk[:i]
	}
	return "", nil
}

// poPluralExpr returns a Plural-Forms value's nplurals and its
// expression without spaces and outer parentheses.
func poPluralExpr(header string) (int, string, bool) {
	_, expr, ok := strings.Cut(header, "plural=")
	if !ok {
		return 0, "", false
	}
	expr = strings.TrimSuffix(strings.Join(strings.Fields(expr), ""), ";")
	for strings.HasPrefix(expr, "(") && strings.HasSuffix(expr, ")") && balanced(expr[1:len(expr)-1]) {
		expr = expr[1 : len(expr)-1]
	}
	n := 0
	if _, rest, ok := strings.Cut(header, "nplurals="); ok {
		n, _ = strconv.Atoi(strings.TrimSpace(strings.SplitN(rest, ";", 2)[0]))
	}
	return n, expr, true
}

// poCategories returns the plural categories of a Plural-Forms header
// value in a file of language lang, or nil when not known: the common
// headers, and the CLDR table's forms of lang, however the file spells
// them (an expression that gives every count the same form).
func poCategories(header, lang string) []string {
	n, expr, ok := poPluralExpr(header)
	if !ok {
		return nil
	}
	cats := poForms(expr)
	if cats == nil {
		if forms, lcats := poLanguageForms(lang); forms != "" {
			if ln, lexpr, _ := poPluralExpr(forms); ln == n && (lexpr == expr || poSameForms(lexpr, expr)) {
				cats = lcats
			}
		}
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
	// An entry has a msgid line: their count bounds the entries but for
	// comments alone.
	hint := strings.Count(s, "msgid ")
	doc := &poDoc{entries: make([]poEntry, 0, hint+1)}
	var problems []locales.Problem
	var cur poEntry   // the entry being read, when open
	open := false     // cur has a line
	var field *string // the string continuation lines append to
	section := ""     // the keyword last read
	flush := func(end int) {
		if !open {
			return
		}
		cur.end = end
		if section == "" { // comments only: obsolete entries, stray comments
			cur.id, cur.line = "", -cur.line
		}
		doc.entries = append(doc.entries, cur)
		cur, open, field, section = poEntry{}, false, nil, ""
	}
	begin := func(start, n int) {
		cur, open = poEntry{start: start, line: n, strStart: -1, kwStart: -1}, true
	}
	off := 0
	for n := 0; off < len(s); n++ {
		start := off
		if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
			off += i + 1
		} else {
			off = len(s)
		}
		trim := strings.TrimSpace(s[start:off])
		if trim == "" {
			flush(start)
			continue
		}
		if trim[0] == '#' {
			if section != "" && !strings.HasPrefix(trim, "#~") {
				flush(start) // comments start the next entry
			}
			if !open {
				begin(start, n+1)
			}
			switch {
			case strings.HasPrefix(trim, "#,"):
				cur.flags = append(cur.flags, poSpan{start, off})
				for _, flag := range strings.Split(trim[2:], ",") {
					cur.fuzzy = cur.fuzzy || strings.TrimSpace(flag) == "fuzzy"
				}
			case strings.HasPrefix(trim, "#|"):
				cur.prev = append(cur.prev, poSpan{start, off})
			}
			continue
		}
		if !open {
			begin(start, n+1)
		}
		if trim[0] == '"' {
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
			begin(start, n+1)
		}
		if cur.kwStart < 0 {
			cur.kwStart = start
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
	seen := make(map[string]int, len(doc.entries))
	for i := range doc.entries {
		e := &doc.entries[i]
		if e.line < 0 {
			continue
		}
		k := e.key()
		if e.strStart < 0 {
			problems = append(problems, problemf(e.line, k, "entry %s has no msgstr", input.Quote(k)))
			continue
		}
		if e.plural != e.indexed {
			problems = append(problems, problemf(e.line, k, "entry %s: msgid_plural goes with msgstr[n] and msgstr without", input.Quote(k)))
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
		if first, dup := seen[k]; dup {
			problems = append(problems, problemf(e.line, k, "entry %s twice (also on line %d)", input.Quote(k), first))
		}
		seen[k] = e.line
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
	if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '"') < 0 { // neither escape nor quote: the text itself
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
	if !utf8.ValidString(b.String()) {
		// "\200": the file is UTF-8, the text it spells is not, and
		// writing it back would give a file that is not UTF-8.
		return "", fmt.Errorf(`its escapes (\x or octal) spell bytes that are not UTF-8; write the characters themselves`)
	}
	return b.String(), nil
}

// quotePO writes a keyword and its string as PO lines: one line, or,
// for a text with line breaks inside, "" and a line per line.
func quotePO(b *strings.Builder, kw, s string) {
	if kw != "" {
		b.WriteString(kw)
		b.WriteByte(' ')
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		b.WriteString("\"\"\n")
	}
	for first := true; first || s != ""; first = false {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		s = s[len(line):]
		if !first {
			b.WriteByte('\n')
		}
		b.WriteByte('"')
		start := 0 // the run of bytes written as they are
		for j := 0; j < len(line); j++ {
			c := line[j]
			if c >= 0x20 && c != '"' && c != '\\' {
				continue
			}
			b.WriteString(line[start:j])
			start = j + 1
			switch c {
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
				fmt.Fprintf(b, `\%03o`, c)
			}
		}
		b.WriteString(line[start:])
		b.WriteByte('"')
	}
	b.WriteByte('\n')
}

// poMessage is what an entry holds as a message.
type poMessage struct {
	text         string
	untranslated bool
}

// sourceText returns the text of e's msgid: for a plural entry, the
// ICU plural of msgid and msgid_plural.
func (e poEntry) sourceText() (string, string) {
	if !e.plural {
		return e.id, looksPlural(e.id, "msgid_plural")
	}
	p := pluralText{arg: pluralArg, cases: []pluralCase{{sel: "one", text: e.id}, {sel: "other", text: e.idPlural}}}
	return p.format(false), ""
}

// message returns e's message and a problem, or "": in a file of the
// source language (source), a translated entry's msgstr, else its
// msgid; in another, its msgstr, untranslated when fuzzy or empty.
func (d *poDoc) message(e *poEntry, cats []string, source bool) (poMessage, string) {
	empty, filled := false, false
	for _, s := range e.strs {
		empty, filled = empty || s == "", filled || s != ""
	}
	translated := !e.fuzzy && !empty
	if source && (!translated || d.otherLanguage) {
		text, problem := e.sourceText()
		return poMessage{text: text}, problem
	}
	m := poMessage{untranslated: !translated}
	if !filled {
		return m, ""
	}
	if !e.plural {
		m.text = e.strs[0]
		return m, looksPlural(e.strs[0], "msgstr[n]")
	}
	problem := ""
	switch {
	case cats == nil:
		problem = fmt.Sprintf("plural forms %s are not known: their cases cannot be named", input.Quote(d.headerField("Plural-Forms")))
	case len(cats) != len(e.strs):
		problem = fmt.Sprintf("%d msgstr[n] for %d plural forms", len(e.strs), len(cats))
	}
	if problem != "" {
		if m.untranslated {
			return m, "" // not a translation: its text is not needed
		}
		return m, problem
	}
	p := pluralText{arg: pluralArg}
	for i, s := range e.strs {
		p.cases = append(p.cases, pluralCase{sel: cats[i], text: s})
	}
	m.text = p.format(false)
	return m, ""
}

// poSameLanguage reports whether a file's Language header, h, is
// lang or empty.
func poSameLanguage(h, lang string) bool {
	norm := func(s string) string {
		s, _, _ = strings.Cut(s, "@")
		return strings.ReplaceAll(strings.ToLower(s), "_", "-")
	}
	return h == "" || norm(h) == norm(lang)
}

// poSource reports whether f is read or written as the source language
// (a template when f.Language is "").
func poSource(f locales.File) bool {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "-") }
	return f.Language == "" || f.SourceLanguage != "" && norm(f.Language) == norm(f.SourceLanguage)
}

// categories returns the plural categories of d's Plural-Forms, for a
// file of language lang (its Language header when it has one).
func (d *poDoc) categories(lang string) []string {
	if l := d.headerField("Language"); l != "" {
		lang = l
	}
	return poCategories(d.headerField("Plural-Forms"), lang)
}

// live returns whether e is an entry with a msgid other than the header.
func (d *poDoc) live(e *poEntry) bool {
	return e.line >= 0 && (d.header == nil || e.start != d.header.start)
}

// Decode reads a PO file or template (see PO).
func (PO) Decode(f locales.File, data []byte) ([]locales.Message, locales.File, error) {
	doc, err := parsePO(data)
	if err != nil {
		return nil, locales.File{}, err
	}
	cats := doc.categories(f.Language)
	source := poSource(f)
	doc.otherLanguage = source && f.Language != "" && !poSameLanguage(doc.headerField("Language"), f.Language)
	msgs := make([]locales.Message, 0, len(doc.entries))
	var problems []locales.Problem
	for i := range doc.entries {
		e := &doc.entries[i]
		if !doc.live(e) {
			continue
		}
		m, problem := doc.message(e, cats, source)
		if problem != "" {
			problems = append(problems, problemf(e.line, e.key(), "%s", problem))
			continue
		}
		msgs = append(msgs, locales.Message{Key: e.key(), Text: m.text, Line: e.line, Untranslated: m.untranslated})
	}
	if len(problems) > 0 {
		return nil, locales.File{}, &locales.InputError{Problems: problems}
	}
	if len(msgs) == 0 {
		msgs = nil // none, as before the slice was made to size
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

// poHeader returns the header entry of a new file of f's language: the
// template's (tmpl, or nil) with its fuzzy flag dropped, charset UTF-8,
// and Language and Plural-Forms set; the latter is left out when the
// table lacks the language.
func poHeader(f locales.File, tmpl *poDoc, tmplData []byte) []byte {
	forms, _ := poLanguageForms(f.Language)
	set := map[string]string{"Language": f.Language, "Plural-Forms": forms}
	fields := []string{"Content-Type: text/plain; charset=UTF-8", "MIME-Version: 1.0", "Content-Transfer-Encoding: 8bit"}
	var b strings.Builder
	if tmpl != nil && tmpl.header != nil {
		h := tmpl.header
		writeSkipping(&b, tmplData, h.start, h.kwStart, h.flags, h.prev)
		fields = nil
		for _, line := range strings.Split(h.strs[0], "\n") {
			if strings.TrimSpace(line) != "" {
				fields = append(fields, line)
			}
		}
	}
	b.WriteString("msgid \"\"\nmsgstr \"\"\n")
	for _, line := range fields {
		name, value, _ := strings.Cut(line, ":")
		name = strings.TrimSpace(name)
		if v, ok := set[name]; ok {
			delete(set, name)
			if v == "" && name == "Plural-Forms" {
				continue
			}
			value = " " + v
		}
		if strings.EqualFold(name, "Content-Type") {
			value = strings.Replace(value, "charset=CHARSET", "charset=UTF-8", 1)
		}
		quotePO(&b, "", name+":"+value+"\n")
	}
	for _, name := range []string{"Language", "Plural-Forms"} {
		if v, ok := set[name]; ok && v != "" {
			quotePO(&b, "", name+": "+v+"\n")
		}
	}
	return []byte(b.String())
}

// writeSkipping writes data[start:end] without the lines of skip; the
// fuzzy flag is dropped from "#," lines among them (other flags stay).
func writeSkipping(b *strings.Builder, data []byte, start, end int, flags, skip []poSpan) {
	at := start
	spans := slices.Concat(flags, skip)
	slices.SortFunc(spans, func(a, b poSpan) int { return a.start - b.start })
	for _, s := range spans {
		if s.start < at || s.end > end {
			continue
		}
		b.Write(data[at:s.start])
		if slices.Contains(flags, s) {
			b.WriteString(poWithoutFuzzy(string(data[s.start:s.end])))
		}
		at = s.end
	}
	b.Write(data[at:end])
}

// poWithoutFuzzy returns a "#," line without its fuzzy flag, or "" when
// it had no other.
func poWithoutFuzzy(line string) string {
	body := strings.TrimRight(line, "\r\n")
	eol := line[len(body):]
	var keep []string
	for _, flag := range strings.Split(strings.TrimPrefix(strings.TrimSpace(body), "#,"), ",") {
		if flag = strings.TrimSpace(flag); flag != "" && flag != "fuzzy" {
			keep = append(keep, flag)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	return "#, " + strings.Join(keep, ", ") + eol
}

// poMsgstr writes the msgstr lines of text for an entry; a plural's
// cases must be the file's forms. It returns a problem, or "".
func poMsgstr(b *strings.Builder, key, text string, plural bool, cats []string) string {
	if !plural {
		quotePO(b, "msgstr", text)
		return ""
	}
	if text == "" { // no translation: empty forms
		n := len(cats)
		if cats == nil {
			n = 2 // a template's: msgid and msgid_plural
		}
		for i := range n {
			quotePO(b, "msgstr["+strconv.Itoa(i)+"]", "")
		}
		return ""
	}
	p, ok := countPlural(text)
	if !ok {
		return fmt.Sprintf("the text of plural entry %s is no ICU plural of count", input.Quote(key))
	}
	return poPluralMsgstr(b, key, p, cats)
}

// poPluralMsgstr writes the msgstr[n] lines of plural p, whose cases
// must be the file's forms, cats. It returns a problem, or "".
func poPluralMsgstr(b *strings.Builder, key string, p pluralText, cats []string) string {
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

// poWriter holds what Encode writes a file with.
type poWriter struct {
	source     bool // the source language's file
	template   bool // a template: msgids are its texts
	cats       []string
	f          locales.File
	sourceText func(k string) string // f.Source's text of a key, made when first needed
	tmpl       *poDoc                // the template or source file, or nil
	tmplData   []byte
}

// keysAscending reports whether the keys of msgs are in ascending
// order, each once.
func keysAscending(msgs []locales.Message) bool {
	for i := 1; i < len(msgs); i++ {
		if msgs[i-1].Key >= msgs[i].Key {
			return false
		}
	}
	return true
}

// hasEntries reports whether d has an entry other than the header.
func (d *poDoc) hasEntries() bool {
	for i := range d.entries {
		if d.live(&d.entries[i]) {
			return true
		}
	}
	return false
}

// sourcePlural returns the plural of key k's text in f.Source, when it
// is one.
func (w *poWriter) sourcePlural(k string) (pluralText, bool) {
	if w.sourceText == nil {
		w.sourceText = textOf(w.f.Source)
	}
	return countPlural(w.sourceText(k))
}

// textOf returns a function that gives the text of a key in msgs (the
// last of the key's, "" when msgs lack it): by binary search when the
// keys are ascending, else from a map.
func textOf(msgs []locales.Message) func(k string) string {
	if keysAscending(msgs) {
		return func(k string) string {
			i, ok := slices.BinarySearchFunc(msgs, k, func(m locales.Message, k string) int { return strings.Compare(m.Key, k) })
			if !ok {
				return ""
			}
			return msgs[i].Text
		}
	}
	texts := byKey(msgs)
	return func(k string) string { return texts[k] }
}

// Encode writes msgs over f.Old, changing only the entries whose text
// or fuzzy flag changed, and adding new ones (see PO).
func (PO) Encode(f locales.File, msgs []locales.Message) ([]byte, error) {
	w := poWriter{source: poSource(f), template: f.Language == "", f: f}
	if f.SourceFile != nil {
		if tmpl, err := parsePO(f.SourceFile); err == nil {
			w.tmpl, w.tmplData = tmpl, f.SourceFile
		}
	}
	data := f.Old
	fresh := data == nil
	if fresh {
		data = poHeader(f, w.tmpl, w.tmplData)
	}
	doc, err := parsePO(data)
	if err != nil {
		return nil, err
	}
	w.cats = doc.categories(f.Language)
	doc.otherLanguage = w.source && f.Language != "" && !poSameLanguage(doc.headerField("Language"), f.Language)
	if fresh && w.cats == nil && !w.template && w.needsForms(msgs) {
		return nil, &locales.InputError{Problems: []locales.Problem{{Message: fmt.Sprintf(
			"gettext's plural forms of language %s are not known (the CLDR table lacks it): add the file with a Plural-Forms header, as msginit does", input.Quote(f.Language))}}}
	}
	// The message of each key is the last of that key's, msgs[texts[k]];
	// when no key comes twice, msgs[i] is its key's. Keys in ascending
	// order come once each: a new file of them needs no map.
	unique := keysAscending(msgs)
	var texts map[string]int
	if !unique || w.tmpl != nil || doc.hasEntries() {
		texts = make(map[string]int, len(msgs))
		for i, m := range msgs {
			texts[m.Key] = i
		}
		unique = len(texts) == len(msgs)
	}
	// written[j]: msgs[j]'s key has its entry, in the file or added.
	written := make([]bool, len(msgs))
	var problems []locales.Problem
	var edits []splice
	var endOf map[string]int // the end of each entry, by key: for the template's order
	if w.tmpl != nil {
		endOf = make(map[string]int, len(doc.entries))
	}
	lastLive := -1 // the end of the file's last entry
	if doc.header != nil {
		lastLive = doc.header.end
	}
	for i := range doc.entries {
		e := &doc.entries[i]
		if !doc.live(e) {
			continue
		}
		lastLive = e.end
		k := e.key()
		if endOf != nil {
			endOf[k] = e.end
		}
		j, ok := texts[k]
		if !ok {
			continue // the service lacks it: as the file has it
		}
		written[j] = true
		es, problem := w.update(doc, data, e, msgs[j])
		if problem != "" {
			problems = append(problems, problemf(e.line, k, "%s", problem))
			continue
		}
		edits = append(edits, es...)
	}
	// New entries: the template's, in its order, after the entry that
	// precedes them there; then the others at the end.
	after := map[int]*strings.Builder{}
	at := func(at int) *strings.Builder {
		if after[at] == nil {
			after[at] = &strings.Builder{}
		}
		return after[at]
	}
	if w.tmpl != nil {
		prev := lastLive
		if !fresh {
			prev = -1
		}
		for i := range w.tmpl.entries {
			te := &w.tmpl.entries[i]
			if !w.tmpl.live(te) {
				continue
			}
			k := te.key()
			if end, ok := endOf[k]; ok {
				prev = end
				continue
			}
			var m locales.Message
			j, ok := texts[k]
			if ok {
				m, written[j] = msgs[j], true
			} else if !fresh {
				continue
			}
			to := prev
			if to < 0 {
				to = lastLive
			}
			if problem := w.entry(at(to), k, m, ok, te); problem != "" {
				problems = append(problems, problemf(0, k, "%s", problem))
			}
		}
	}
	grown := false
	for i, m := range msgs {
		j := i
		if !unique {
			j = texts[m.Key]
		}
		if written[j] {
			continue
		}
		written[j] = true
		b := at(lastLive)
		if !grown { // room for the entries from here on, as most are new
			grown = true
			size := 0
			for _, m := range msgs[i:] {
				size += len("\nmsgid \"\"\nmsgstr \"\"\n") + len(m.Key) + len(m.Text)
			}
			b.Grow(size + size/16)
		}
		if problem := w.entry(b, m.Key, m, true, nil); problem != "" {
			problems = append(problems, problemf(0, m.Key, "%s", problem))
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var inserts []splice // before the edits: they go first where one starts at the same offset
	for at, b := range after {
		if at < 0 {
			at = len(data)
		}
		if at > 0 && data[at-1] != '\n' {
			inserts = append(inserts, splice{at, at, "\n"})
		}
		inserts = append(inserts, splice{at, at, b.String()})
	}
	return applySplices(data, append(inserts, edits...)), nil
}

// needsForms reports whether a new file holds a plural entry.
func (w *poWriter) needsForms(msgs []locales.Message) bool {
	if w.tmpl != nil {
		for i := range w.tmpl.entries {
			if e := &w.tmpl.entries[i]; w.tmpl.live(e) && e.plural {
				return true
			}
		}
	}
	for _, m := range msgs {
		if _, ok := countPlural(m.Text); ok {
			return true
		}
	}
	return false
}

// update returns the edits that give entry e message m's text.
func (w *poWriter) update(doc *poDoc, data []byte, e *poEntry, m locales.Message) ([]splice, string) {
	cur, _ := doc.message(e, w.cats, w.source)
	if w.source {
		if m.Text == cur.text || w.template {
			return nil, "" // a template's msgids are its texts
		}
	} else if m.Text == cur.text && (m.Untranslated || !cur.untranslated) {
		return nil, ""
	}
	var edits []splice
	if !m.Untranslated && e.fuzzy || !m.Untranslated && len(e.prev) > 0 && !cur.untranslated {
		for _, s := range e.flags {
			edits = append(edits, splice{s.start, s.end, poWithoutFuzzy(string(data[s.start:s.end]))})
		}
		for _, s := range e.prev {
			edits = append(edits, splice{s.start, s.end, ""})
		}
	}
	if m.Text == cur.text {
		return edits, "" // the same text, reviewed: the flag goes
	}
	var b strings.Builder
	if p := poMsgstr(&b, e.key(), m.Text, e.plural, w.cats); p != "" {
		return nil, p
	}
	return append(edits, splice{e.strStart, e.strEnd, b.String()}), ""
}

// entry writes a new entry of key k to b: with m's text when ok, else
// empty; with the template entry te's comments, flags and msgid lines
// when te is not nil. Each line ends in "\n" and a blank line comes
// before it. It returns a problem, or "" (then b holds part of the
// entry).
func (w *poWriter) entry(b *strings.Builder, k string, m locales.Message, ok bool, te *poEntry) string {
	b.WriteString("\n")
	plural := false
	var p pluralText     // m.Text's plural, when parsed
	parsed := false      // m.Text was read as plural p
	written := poEntry{} // the msgid lines written
	if te != nil {
		written = *te
		writeSkipping(b, w.tmplData, te.start, te.kwStart, te.flags, te.prev)
		if ok && m.Untranslated && m.Text != "" {
			b.WriteString("#, fuzzy\n")
		}
		b.Write(w.tmplData[te.kwStart:te.strStart])
		if w.tmplData[te.strStart-1] != '\n' {
			b.WriteByte('\n')
		}
		plural = te.plural
	} else {
		ctxt, id, hasCtxt := strings.Cut(k, poContext)
		if !hasCtxt {
			id = ctxt
		}
		if ok && m.Untranslated && m.Text != "" {
			b.WriteString("#, fuzzy\n")
		}
		if hasCtxt {
			quotePO(b, "msgctxt", ctxt)
		}
		quotePO(b, "msgid", id)
		written.id = id
		p, plural = countPlural(m.Text)
		parsed = plural
		if plural {
			other, _ := p.text("other")
			if sp, ok := w.sourcePlural(k); ok {
				other, _ = sp.text("other")
			}
			quotePO(b, "msgid_plural", other)
			written.plural, written.idPlural = true, other
		}
	}
	text := m.Text
	if !ok || w.template {
		text = ""
	} else if w.source {
		if s, _ := written.sourceText(); s == text {
			text = "" // the msgid is the text
		}
	}
	if parsed && text != "" { // text is m.Text
		return poPluralMsgstr(b, k, p, w.cats)
	}
	return poMsgstr(b, k, text, plural, w.cats)
}

// poMaxDepth bounds the nesting of a plural expression, so that a
// hostile header cannot exhaust the stack.
const poMaxDepth = 50

// poPlural reads a gettext plural expression (C's ?:, ||, &&, ==, !=,
// <, >, <=, >=, +, -, *, /, %, ! and parentheses over n and numbers,
// spaces removed) as a function of n; it reports false for anything
// else.
func poPlural(expr string) (func(n uint64) uint64, bool) {
	p := poExpr{s: expr}
	f := p.ternary(0)
	if p.bad || p.i != len(p.s) {
		return nil, false
	}
	return f, true
}

type poExpr struct {
	s   string
	i   int
	bad bool
}

func (p *poExpr) eat(op string) bool {
	if strings.HasPrefix(p.s[p.i:], op) {
		p.i += len(op)
		return true
	}
	return false
}

type poFn = func(n uint64) uint64

func poBool(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (p *poExpr) ternary(depth int) poFn {
	if depth > poMaxDepth {
		p.bad = true
		return nil
	}
	c := p.binary(0, depth)
	if p.bad || !p.eat("?") {
		return c
	}
	a := p.ternary(depth + 1)
	if p.bad || !p.eat(":") {
		p.bad = true
		return nil
	}
	b := p.ternary(depth + 1)
	if p.bad {
		return nil
	}
	return func(n uint64) uint64 {
		if c(n) != 0 {
			return a(n)
		}
		return b(n)
	}
}

// poLevels are C's binary operators by precedence, lowest first; longer
// operators before their prefixes.
var poLevels = [][]string{{"||"}, {"&&"}, {"==", "!="}, {"<=", ">=", "<", ">"}, {"+", "-"}, {"*", "/", "%"}}

func (p *poExpr) binary(level, depth int) poFn {
	if level == len(poLevels) {
		return p.unary(depth)
	}
	left := p.binary(level+1, depth)
	for !p.bad {
		op := ""
		for _, o := range poLevels[level] {
			if p.eat(o) {
				op = o
				break
			}
		}
		if op == "" {
			break
		}
		right := p.binary(level+1, depth)
		if p.bad {
			return nil
		}
		l := left
		left = func(n uint64) uint64 {
			a, b := l(n), right(n)
			switch op {
			case "||":
				return poBool(a != 0 || b != 0)
			case "&&":
				return poBool(a != 0 && b != 0)
			case "==":
				return poBool(a == b)
			case "!=":
				return poBool(a != b)
			case "<=":
				return poBool(a <= b)
			case ">=":
				return poBool(a >= b)
			case "<":
				return poBool(a < b)
			case ">":
				return poBool(a > b)
			case "+":
				return a + b
			case "-":
				return a - b
			case "*":
				return a * b
			}
			if b == 0 {
				return 0 // gettext raises SIGFPE; no count needs it
			}
			if op == "/" {
				return a / b
			}
			return a % b
		}
	}
	return left
}

func (p *poExpr) unary(depth int) poFn {
	switch {
	case p.eat("!"):
		if depth > poMaxDepth {
			p.bad = true
			return nil
		}
		f := p.unary(depth + 1)
		if p.bad {
			return nil
		}
		return func(n uint64) uint64 { return poBool(f(n) == 0) }
	case p.eat("("):
		f := p.ternary(depth + 1)
		if p.bad || !p.eat(")") {
			p.bad = true
			return nil
		}
		return f
	case p.eat("n"):
		return func(n uint64) uint64 { return n }
	}
	j := p.i
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	v, err := strconv.ParseUint(p.s[p.i:j], 10, 64)
	if err != nil {
		p.bad = true
		return nil
	}
	p.i = j
	return func(uint64) uint64 { return v }
}

// poSameForms reports whether two plural expressions give every count
// below poCheckUpTo the same form.
func poSameForms(a, b string) bool {
	fa, ok1 := poPlural(a)
	fb, ok2 := poPlural(b)
	if !ok1 || !ok2 {
		return false
	}
	for n := range uint64(poCheckUpTo) {
		if fa(n) != fb(n) {
			return false
		}
	}
	return true
}

// poCheckUpTo bounds the counts two plural expressions are compared for:
// the rules of the CLDR table repeat every 100 counts but for a few
// that test n%1000 or above, and those differ from another spelling
// below this bound too.
const poCheckUpTo = 20_000
