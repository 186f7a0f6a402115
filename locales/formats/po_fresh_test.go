package formats_test

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
)

// A new file from a template is what msginit writes: the template's
// header comments and fields, charset UTF-8, no fuzzy header, the
// language and its plural forms; then every template entry in order,
// with its comments and flags, translated or empty.
func TestPOFreshFileFromTemplate(t *testing.T) {
	f := locales.File{Language: "pt_BR", SourceLanguage: "en", SourceFile: []byte(poTemplate), Source: poTemplateTexts}
	out, err := formats.PO{}.Encode(f, sortMsgs([]locales.Message{
		{Key: "Inbox", Text: "Caixa de entrada"},
		{Key: "%d file", Text: "{count, plural, one {%d arquivo} other {%d arquivos}}"},
		{Key: "Extra", Text: "Extra"},
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := `# SOME DESCRIPTIVE TITLE.
# Copyright (C) YEAR THE PACKAGE'S COPYRIGHT HOLDER
#
msgid ""
msgstr ""
"Project-Id-Version: mail 2.1\n"
"Report-Msgid-Bugs-To: https://example.org/mail/issues\n"
"POT-Creation-Date: 2024-05-01 10:00+0200\n"
"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\n"
"Last-Translator: FULL NAME <EMAIL@ADDRESS>\n"
"Language-Team: LANGUAGE <LL@li.org>\n"
"Language: pt_BR\n"
"MIME-Version: 1.0\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\n"

#: src/main.c:10
msgid "Inbox"
msgstr "Caixa de entrada"

#: src/main.c:20
#, c-format
msgid "%s: Snoozed until %s"
msgstr ""

#: src/main.c:30
msgid "Archive"
msgstr ""

#: src/list.c:5
#, c-format
msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d arquivo"
msgstr[1] "%d arquivos"

#: src/main.c:40
msgctxt "folder"
msgid "Spam"
msgstr ""

msgid "Extra"
msgstr "Extra"
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Fatalf("new file (-want +got):\n%s", diff)
	}
}

// A new file's plural forms are gettext's well-known ones for each
// language (compared for every count up to 20,000), and a plural text
// in the language's CLDR categories reads back as written.
func TestPOFreshPluralForms(t *testing.T) {
	ru := "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
	for _, c := range []struct {
		lang, header, text string
	}{
		{"de", "nplurals=2; plural=(n != 1);", "{count, plural, one {# Datei} other {# Dateien}}"},
		{"fr", "nplurals=2; plural=(n > 1);", "{count, plural, one {# fichier} other {# fichiers}}"},
		{"pt_BR", "nplurals=2; plural=(n > 1);", "{count, plural, one {# arquivo} other {# arquivos}}"},
		{"pt-PT", "nplurals=2; plural=(n != 1);", "{count, plural, one {# ficheiro} other {# ficheiros}}"},
		{"ja", "nplurals=1; plural=0;", "{count, plural, other {# ファイル}}"},
		{"zh_CN", "nplurals=1; plural=0;", "{count, plural, other {# 个文件}}"},
		{"ru", ru, "{count, plural, one {# файл} few {# файла} many {# файлов}}"},
		{"sr", ru, "{count, plural, one {# fajl} few {# fajla} other {# fajlova}}"},
		{"sr@latin", ru, "{count, plural, one {# fajl} few {# fajla} other {# fajlova}}"},
		{"pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);", "{count, plural, one {# plik} few {# pliki} many {# plików}}"},
		{"cs", "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", "{count, plural, one {# soubor} few {# soubory} other {# souborů}}"},
		{"ar", "nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5;",
			"{count, plural, zero {a} one {b} two {c} few {d} many {e} other {f}}"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			msgs := []locales.Message{{Key: "# file", Text: c.text}}
			f := locales.File{Language: c.lang, SourceLanguage: "en"}
			out, err := formats.PO{}.Encode(f, msgs)
			if err != nil {
				t.Fatal(err)
			}
			m := regexp.MustCompile(`"Plural-Forms: (.*)\\n"`).FindStringSubmatch(string(out))
			if m == nil {
				t.Fatalf("no Plural-Forms:\n%s", out)
			}
			gotN, got := pluralHeader(t, m[1])
			wantN, want := pluralHeader(t, c.header)
			if gotN != wantN {
				t.Fatalf("%s: nplurals %d; want %d", m[1], gotN, wantN)
			}
			for n := range 20_000 {
				if g, w := got(n), want(n); g != w {
					t.Fatalf("%s: n=%d has form %d; gettext's %s has %d", m[1], n, g, c.header, w)
				}
			}
			back := decodePO(t, f, string(out))
			if diff := cmp.Diff(msgs, back); diff != "" {
				t.Fatalf("read back (-want +got):\n%s\n%s", diff, out)
			}
		})
	}
}

// A language the table lacks is refused once for a file that needs its
// plural forms; a file without plurals is written without them.
func TestPOFreshUnknownLanguage(t *testing.T) {
	f := locales.File{Language: "qq", SourceLanguage: "en"}
	plurals := []locales.Message{
		{Key: "a", Text: "{count, plural, one {x} other {y}}"},
		{Key: "b", Text: "{count, plural, one {x} other {y}}"},
	}
	_, err := formats.PO{}.Encode(f, plurals)
	var ie *locales.InputError
	if !errors.As(err, &ie) || len(ie.Problems) != 1 || !strings.Contains(err.Error(), `"qq"`) {
		t.Fatalf("error %v; want one problem naming the language", err)
	}
	out, err := formats.PO{}.Encode(f, []locales.Message{{Key: "a", Text: "x"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "Plural-Forms") || !strings.Contains(string(out), `"Language: qq\n"`) {
		t.Fatalf("written:\n%s", out)
	}
}

// A file whose Plural-Forms is the CLDR table's for its language reads
// its plural entries, as one the SDK wrote does.
func TestPOReadsTablePluralForms(t *testing.T) {
	po := `msgid ""
msgstr ""
"Language: sr\n"
"Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<12 || n%100>14) ? 1 : 2);\n"

msgid "%d file"
msgid_plural "%d files"
msgstr[0] "%d fajl"
msgstr[1] "%d fajla"
msgstr[2] "%d fajlova"
`
	got := decodePO(t, locales.File{Language: "sr", SourceLanguage: "en"}, po)
	want := []locales.Message{{Key: "%d file", Text: "{count, plural, one {%d fajl} few {%d fajla} other {%d fajlova}}"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// pluralHeader reads a Plural-Forms value: nplurals and the expression
// as a function of n.
func pluralHeader(t *testing.T, h string) (int, func(n int) int) {
	t.Helper()
	m := regexp.MustCompile(`^nplurals=(\d+); plural=(.*);$`).FindStringSubmatch(h)
	if m == nil {
		t.Fatalf("Plural-Forms %q", h)
	}
	n, _ := strconv.Atoi(m[1])
	expr := strings.ReplaceAll(m[2], " ", "")
	return n, func(n int) int {
		p := cExpr{s: expr, n: n}
		v := p.ternary()
		if p.i != len(p.s) {
			t.Fatalf("%s: cannot read from %q", expr, p.s[p.i:])
		}
		return v
	}
}

// cExpr evaluates gettext's plural expressions (C without spaces).
type cExpr struct {
	s    string
	i, n int
}

func (p *cExpr) eat(op string) bool {
	if strings.HasPrefix(p.s[p.i:], op) {
		p.i += len(op)
		return true
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (p *cExpr) ternary() int {
	c := p.or()
	if !p.eat("?") {
		return c
	}
	a := p.ternary()
	p.eat(":")
	b := p.ternary()
	if c != 0 {
		return a
	}
	return b
}

func (p *cExpr) or() int {
	v := p.and()
	for p.eat("||") {
		w := p.and()
		v = b2i(v != 0 || w != 0)
	}
	return v
}

func (p *cExpr) and() int {
	v := p.cmp()
	for p.eat("&&") {
		w := p.cmp()
		v = b2i(v != 0 && w != 0)
	}
	return v
}

func (p *cExpr) cmp() int {
	v := p.mod()
	for {
		switch {
		case p.eat("=="):
			v = b2i(v == p.mod())
		case p.eat("!="):
			v = b2i(v != p.mod())
		case p.eat("<="):
			v = b2i(v <= p.mod())
		case p.eat(">="):
			v = b2i(v >= p.mod())
		case p.eat("<"):
			v = b2i(v < p.mod())
		case p.eat(">"):
			v = b2i(v > p.mod())
		default:
			return v
		}
	}
}

func (p *cExpr) mod() int {
	v := p.atom()
	for p.eat("%") {
		v %= p.atom()
	}
	return v
}

func (p *cExpr) atom() int {
	switch {
	case p.eat("("):
		v := p.ternary()
		p.eat(")")
		return v
	case p.eat("n"):
		return p.n
	}
	j := p.i
	for j < len(p.s) && p.s[j] >= '0' && p.s[j] <= '9' {
		j++
	}
	v, _ := strconv.Atoi(p.s[p.i:j])
	p.i = j
	return v
}
