package locales

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales/internal/input"
)

// A Problem is one thing wrong with the input: a file that cannot be
// read, a key that cannot be sent, a language the project lacks.
type Problem struct {
	// File is the file's path, relative to the tree's root (slashes); ""
	// when the problem is not in one file.
	File string `json:"file,omitempty"`
	// Line is the line in File, from 1; 0 when not known.
	Line int `json:"line,omitempty"`
	// Language and Namespace are those of the file, when known.
	Language  string `json:"language,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	// Key is the key concerned, when there is one.
	Key string `json:"key,omitempty"`
	// Message says what is wrong.
	Message string `json:"message"`
}

// String returns the problem as "file:line: message".
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		if p.Line > 0 {
			b.WriteString(":" + strconv.Itoa(p.Line))
		}
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// InputError is the error of input the library refuses: it lists every
// problem found, sorted by file, line and key (see inputError). Nothing
// was written. It matches partner.ErrInvalidArgument with errors.Is.
type InputError struct {
	Problems []Problem
}

// Error lists every problem, grouped by file in the order of the files'
// paths, each file's by line and key; the problems not in a file come
// first. A file's problems follow a line naming it and their count, one
// a line as "file:line: message".
func (e *InputError) Error() string {
	ps := slices.Clone(e.Problems)
	sortProblems(ps)
	var b strings.Builder
	files := 0
	for i, p := range ps {
		if p.File != "" && (i == 0 || ps[i-1].File != p.File) {
			files++
		}
	}
	fmt.Fprintf(&b, "locales: %s", plural(len(ps), "problem"))
	if files > 0 {
		fmt.Fprintf(&b, " in %s", plural(files, "file"))
	}
	b.WriteString(", nothing written:")
	for i, p := range ps {
		if p.File != "" && (i == 0 || ps[i-1].File != p.File) {
			n := 1
			for n < len(ps)-i && ps[i+n].File == p.File {
				n++
			}
			fmt.Fprintf(&b, "\n%s: %s", p.File, plural(n, "problem"))
		}
		b.WriteString("\n\t" + p.String())
	}
	return b.String()
}

// plural returns "1 problem" or "n problems".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Is reports whether target is partner.ErrInvalidArgument.
func (e *InputError) Is(target error) bool { return target == partner.ErrInvalidArgument }

// inputError returns the problems as an *InputError, sorted, or nil
// when there are none.
func inputError(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	sortProblems(ps)
	return &InputError{Problems: ps}
}

// sortProblems sorts ps by file, line and key, then by what else tells
// two apart, so that one input always lists its problems in one order.
func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key),
			strings.Compare(a.Language, b.Language), strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Message, b.Message))
	})
}

// jsonNotUTF8 returns the problems of a JSON document's bytes that are
// not UTF-8 (see input.JSONNotUTF8).
func jsonNotUTF8(data []byte, keyOf func(path []string) input.Where) []Problem {
	var ps []Problem
	for _, b := range input.JSONNotUTF8(data, keyOf) {
		ps = append(ps, Problem{Line: b.Line, Language: b.Language, Key: b.Key, Message: b.Message})
	}
	return ps
}
