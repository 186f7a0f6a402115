package formats

import (
	"strings"
)

// Plural forms are mapped to ICU MessageFormat text: see the package
// doc, "Plural forms".

// pluralArg is the argument of a plural in formats that name none.
const pluralArg = "count"

// pluralCategories are CLDR's plural categories, in CLDR's order.
var pluralCategories = []string{"zero", "one", "two", "few", "many", "other"}

type pluralCase struct {
	sel  string // a category, or "=N"
	text string // the platform's text
}

type pluralText struct {
	arg   string
	cases []pluralCase
}

// String writes p in ICU MessageFormat; verbatim branches are not quoted.
func (p pluralText) format(verbatim bool) string {
	var b strings.Builder
	b.WriteString("{" + p.arg + ", plural,")
	for _, c := range p.cases {
		b.WriteString(" " + c.sel + " {")
		if verbatim {
			b.WriteString(c.text)
		} else {
			b.WriteString(escapeICU(c.text))
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.String()
}

// text returns the text of case sel.
func (p pluralText) text(sel string) (string, bool) {
	for _, c := range p.cases {
		if c.sel == sel {
			return c.text, true
		}
	}
	return "", false
}

func isSpecialICU(c byte) bool { return c == '{' || c == '}' || c == '#' || c == '|' }

// escapeICU quotes s for an ICU plural branch.
func escapeICU(s string) string {
	if !strings.ContainsAny(s, "{}#'") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' || c == '}' || c == '#':
			// One quoted run holds the apostrophes among the specials too
			// (doubled): a quote closed just before "''" would read as
			// one still open.
			b.WriteByte('\'')
			for ; i < len(s) && (s[i] == '\'' || isSpecialICU(s[i]) && s[i] != '|'); i++ {
				if s[i] == '\'' {
					b.WriteByte('\'')
				}
				b.WriteByte(s[i])
			}
			i--
			b.WriteByte('\'')
		case c == '\'':
			if i+1 == len(s) || s[i+1] == '\'' || isSpecialICU(s[i+1]) {
				b.WriteString("''")
			} else {
				b.WriteByte('\'')
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parsePlural reads s as an ICU plural of plain branches. It reports
// false for anything else: another argument type, nested arguments in
// a quoted branch, no "other" case, a repeated case.
func parsePlural(s string, verbatim bool) (pluralText, bool) {
	p := icuParser{s: s}
	p.space()
	if !p.eat('{') {
		return pluralText{}, false
	}
	p.space()
	arg := p.word()
	if arg == "" {
		return pluralText{}, false
	}
	p.space()
	if !p.eat(',') {
		return pluralText{}, false
	}
	p.space()
	if p.word() != "plural" {
		return pluralText{}, false
	}
	p.space()
	if !p.eat(',') {
		return pluralText{}, false
	}
	out := pluralText{arg: arg}
	seen := map[string]bool{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		sel := p.selector()
		if sel == "" || seen[sel] {
			return pluralText{}, false
		}
		seen[sel] = true
		p.space()
		if !p.eat('{') {
			return pluralText{}, false
		}
		text, ok := p.branch(verbatim)
		if !ok {
			return pluralText{}, false
		}
		out.cases = append(out.cases, pluralCase{sel: sel, text: text})
	}
	p.space()
	if p.i != len(s) || !seen["other"] {
		return pluralText{}, false
	}
	return out, true
}

type icuParser struct {
	s string
	i int
}

func (p *icuParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *icuParser) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word reads an argument name or keyword: letters, digits and '_'.
func (p *icuParser) word() string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			p.i++
			continue
		}
		break
	}
	return p.s[start:p.i]
}

func (p *icuParser) selector() string {
	if p.eat('=') {
		start := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		if p.i == start {
			return ""
		}
		return "=" + p.s[start:p.i]
	}
	w := p.word()
	for _, c := range pluralCategories {
		if w == c {
			return w
		}
	}
	return ""
}

// branch reads a branch's text up to its closing '}', which it eats.
func (p *icuParser) branch(verbatim bool) (string, bool) {
	if verbatim {
		depth := 0
		start := p.i
		for ; p.i < len(p.s); p.i++ {
			switch p.s[p.i] {
			case '{':
				depth++
			case '}':
				if depth == 0 {
					text := p.s[start:p.i]
					p.i++
					return text, true
				}
				depth--
			}
		}
		return "", false
	}
	// Most branches hold no quote: their text is the bytes up to '}'.
	if j := strings.IndexAny(p.s[p.i:], "{}#'"); j >= 0 && p.s[p.i+j] == '}' {
		text := p.s[p.i : p.i+j]
		p.i += j + 1
		return text, true
	}
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '}':
			p.i++
			return b.String(), true
		case c == '{' || c == '#':
			return "", false
		case c == '\'' && p.i+1 < len(p.s) && p.s[p.i+1] == '\'':
			b.WriteByte('\'')
			p.i += 2
		case c == '\'' && p.i+1 < len(p.s) && isSpecialICU(p.s[p.i+1]):
			p.i++
			for {
				if p.i >= len(p.s) {
					return "", false
				}
				if p.s[p.i] == '\'' {
					if p.i+1 < len(p.s) && p.s[p.i+1] == '\'' {
						b.WriteByte('\'')
						p.i += 2
						continue
					}
					p.i++
					break
				}
				b.WriteByte(p.s[p.i])
				p.i++
			}
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return "", false
}

// countPlural returns the plural of text when it is one a format
// without argument names writes as its plural entry.
func countPlural(text string) (pluralText, bool) {
	p, ok := parsePlural(text, false)
	if !ok || p.arg != pluralArg {
		return pluralText{}, false
	}
	return p, true
}

// looksPlural is the problem of a plain text that would be written
// back as a plural entry, or "".
func looksPlural(text, entry string) string {
	if _, ok := countPlural(text); ok {
		return "a plain text that reads as an ICU plural of count would be written back as " + entry + "; make it one"
	}
	return ""
}
