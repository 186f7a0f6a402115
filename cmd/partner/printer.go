package main

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// printer writes the command's human-readable text: what it says on
// stdout and stderr, and its error messages. Most of what it prints comes
// from outside (the service's names, reasons and errors, a locale tree's
// keys, a webhook receiver's answer) and may hold characters that drive a
// terminal or a CI log, so every write is neutralised:
//
//   - control characters (C0 but the command's own line breaks and tabs,
//     DEL, C1 such as U+009B, a one-character CSI), the line and paragraph
//     separators U+2028 and U+2029, and the bidirectional overrides and
//     isolates (U+202A-U+202E, U+2066-U+2069) are shown as Go escapes
//     (\x1b, \u009b), and a byte that is not UTF-8 as \xNN: nothing is
//     lost, nothing is acted on;
//   - a line whose first characters after white space are "::" (a GitHub
//     Actions workflow command: ::error, ::add-mask, ::stop-commands) has
//     its second colon shown as \x3a, and "##[" (the runner's older form,
//     found anywhere in a line) is shown as ##\x5b; a printer remembers
//     the line it is in, so text printed in pieces is checked whole.
//
// printf's arguments are fields: their line breaks and tabs are escaped
// too, so a field never starts a line of its own. --json output is not
// written by a printer: see jsonSafe.
type printer struct {
	w io.Writer
	// line is what was printed of the line not yet ended.
	line string
}

// newPrinter returns a printer that writes on w.
func newPrinter(w io.Writer) *printer { return &printer{w: w} }

// printf formats like fmt.Fprintf, with every argument that formats as
// text (a string of any type, an error, a fmt.Stringer) made one safe
// field first, and writes the neutralised result.
func (p *printer) printf(format string, args ...any) {
	for i, arg := range args {
		args[i] = field(arg)
	}
	p.write(fmt.Sprintf(format, args...))
}

// println writes text and a line break, neutralised; text may span lines
// (an error's message lists problems one a line), whose breaks and tabs
// are kept.
func (p *printer) println(text string) {
	p.write(text + "\n")
}

// field returns arg as a safe field when it formats as text, and arg
// itself otherwise (numbers, times).
func field(arg any) any {
	switch v := arg.(type) {
	case nil:
		return arg
	case error:
		return escape(v.Error(), nil)
	case fmt.Stringer:
		return escape(v.String(), nil)
	case []string:
		out := make([]string, len(v))
		for i, s := range v {
			out[i] = escape(s, nil)
		}
		return out
	}
	if rv := reflect.ValueOf(arg); rv.Kind() == reflect.String {
		return escape(rv.String(), nil)
	}
	return arg
}

// unsafeRune reports whether r drives a terminal or breaks a line: a
// control character (C0, DEL, C1), U+2028, U+2029, or a bidirectional
// embedding, override or isolate.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' ||
		('\u202a' <= r && r <= '\u202e') || ('\u2066' <= r && r <= '\u2069')
}

// escape returns s with every unsafe rune but those keep allows, and every
// byte that is not UTF-8, written as a Go escape.
func escape(s string, keep func(rune) bool) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (unsafeRune(r) && (keep == nil || !keep(r))) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unsafeRune(r) && (keep == nil || !keep(r)) && r < utf8.RuneSelf:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r) && (keep == nil || !keep(r)):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// layout reports whether r is one of the command's own layout characters,
// which write keeps.
func layout(r rune) bool { return r == '\n' || r == '\t' }

// write writes text neutralised: unsafe runes escaped (line breaks and
// tabs kept), no line starting with a workflow command's "::", no "##[",
// also where text continues the line printed last.
func (p *printer) write(text string) {
	// What p.line holds is neutralised already, and none of the changes
	// below touches it: each one changes the last character of what it
	// finds, and p.line holds no "##[" and starts with no "::".
	whole := p.line + escape(text, layout)
	whole = strings.ReplaceAll(whole, "##[", `##\x5b`)
	if strings.Contains(whole, "::") {
		lines := strings.Split(whole, "\n")
		for i, line := range lines {
			rest := strings.TrimLeftFunc(line, unicode.IsSpace)
			if strings.HasPrefix(rest, "::") {
				lines[i] = line[:len(line)-len(rest)] + `:\x3a` + rest[2:]
			}
		}
		whole = strings.Join(lines, "\n")
	}
	io.WriteString(p.w, whole[len(p.line):])
	p.line = whole[strings.LastIndexByte(whole, '\n')+1:]
}

// jsonSafe returns JSON text with the unsafe runes encoding/json leaves as
// they are (DEL, C1, the bidirectional controls; it escapes C0, U+2028 and
// U+2029 itself) written as \u escapes, and "##[" as "##\u005b". Such
// runes and "#" occur only inside strings, so the JSON decodes to the
// same values.
func jsonSafe(b []byte) []byte {
	// The C0 controls in encoding/json's output are its own layout.
	unsafe := func(r rune) bool { return r > 0x7e && unsafeRune(r) }
	if !bytes.ContainsFunc(b, unsafe) && !bytes.Contains(b, []byte("##[")) {
		return b
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		switch {
		case unsafe(r):
			fmt.Fprintf(&out, `\u%04x`, r)
		case bytes.HasPrefix(b[i:], []byte("##[")):
			out.WriteString(`##\u005b`)
			n = 3
		default:
			out.Write(b[i : i+n])
		}
		i += n
	}
	return out.Bytes()
}
