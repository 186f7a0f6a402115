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
// problem found, sorted by file and line. Nothing was written. It
// matches partner.ErrInvalidArgument with errors.Is.
type InputError struct {
	Problems []Problem
}

// maxListed is how many problems Error lists.
const maxListed = 20

// Error lists the problems, one a line, up to 20.
func (e *InputError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "locales: %d problem", len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteByte('s')
	}
	b.WriteString(", nothing written:")
	for i, p := range e.Problems {
		if i == maxListed {
			fmt.Fprintf(&b, "\n\t… and %d more", len(e.Problems)-maxListed)
			break
		}
		b.WriteString("\n\t" + p.String())
	}
	return b.String()
}

// Is reports whether target is partner.ErrInvalidArgument.
func (e *InputError) Is(target error) bool { return target == partner.ErrInvalidArgument }

// inputError returns the problems as an *InputError, sorted, or nil
// when there are none.
func inputError(ps []Problem) error {
	if len(ps) == 0 {
		return nil
	}
	slices.SortStableFunc(ps, func(a, b Problem) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), strings.Compare(a.Key, b.Key))
	})
	return &InputError{Problems: ps}
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
