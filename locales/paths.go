package locales

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// This file builds the paths of a locale tree from names that come from
// outside (the service, a file): every such name goes through treePath,
// which refuses what could leave the tree or mean another file on some
// system. It knows nothing of formats or layouts.

// A pathPart is one part of a path for treePath: a single file or folder
// name, or, where the caller allows folders, names joined by '/'.
type pathPart struct {
	name    string
	folders bool
}

// segment is a part that must be one file or folder name.
func segment(name string) pathPart { return pathPart{name: name} }

// folders is a part that may be several names joined by '/' (each
// checked as a segment), for a name a file pattern lets span folders.
func folders(name string) pathPart { return pathPart{name: name, folders: true} }

// treePath joins parts with '/' into a path relative to a tree's root,
// or says why it cannot: each segment must be a name every supported
// file system stores as given (see checkSegment). The result is local
// (filepath.IsLocal holds for it on every system): it never leaves the
// root by its name. Links are the reader's and writer's concern (they
// use os.Root).
func treePath(parts ...pathPart) (string, error) {
	var b strings.Builder
	for _, p := range parts {
		segs := []string{p.name}
		if p.folders {
			segs = strings.Split(p.name, "/")
		}
		for _, s := range segs {
			if why := checkSegment(s); why != "" {
				if p.folders && len(segs) > 1 {
					return "", fmt.Errorf("%s cannot be part of a file name: %s in it %s", quoteName(p.name), quoteName(s), why)
				}
				return "", fmt.Errorf("%s cannot be part of a file name: it %s", quoteName(p.name), why)
			}
			if b.Len() > 0 {
				b.WriteByte('/')
			}
			b.WriteString(s)
		}
	}
	return b.String(), nil
}

// checkSegment returns "" when s can be one file or folder name on
// Linux, macOS and Windows alike, or why not: an empty name, "." and
// "..", a separator ('/' or '\'), NUL and other control characters,
// invalid UTF-8, the characters Windows refuses (<>:"|?*), a trailing
// dot or space (Windows drops them) and Windows' reserved device names
// (CON, NUL, COM1, ... with or without an extension).
func checkSegment(s string) string {
	switch {
	case s == "":
		return "is empty"
	case s == "." || s == "..":
		return fmt.Sprintf("is %q, a link to a folder", s)
	case len(s) > 255:
		return "is longer than 255 bytes"
	case !utf8.ValidString(s):
		return "is not valid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '/' || r == '\\':
			return fmt.Sprintf("holds the separator %q", r)
		case unicode.IsControl(r):
			return fmt.Sprintf("holds the control character %U", r)
		case strings.ContainsRune(`<>:"|?*`, r):
			return fmt.Sprintf("holds %q, which Windows does not allow in a file name", r)
		}
	}
	if last := s[len(s)-1]; last == '.' || last == ' ' {
		return "ends in a dot or space, which Windows drops"
	}
	if reservedName(s) {
		return "is a device name on Windows"
	}
	return ""
}

// reservedName reports whether Windows reads name as a device: CON,
// PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript digits ¹²³), CONIN$
// and CONOUT$, in any case, before any extension and trailing spaces.
func reservedName(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.TrimRight(stem, " ")
	switch strings.ToUpper(stem) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(stem) < 4 {
		return false
	}
	switch strings.ToUpper(stem[:3]) {
	case "COM", "LPT":
		switch stem[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// A collisions finds paths that name one file on a case-insensitive or
// normalising file system (macOS, Windows): "Common.json" and
// "common.json", or a name in NFC and in NFD.
type collisions struct {
	fold  cases.Caser
	paths map[string]string // folded -> first path
}

func newCollisions() *collisions {
	return &collisions{fold: cases.Fold(), paths: map[string]string{}}
}

// add notes path and returns the path noted before that names the same
// file, if any. The same path twice is a collision too.
func (c *collisions) add(path string) (other string, collides bool) {
	key := norm.NFC.String(c.fold.String(norm.NFD.String(path)))
	if other, ok := c.paths[key]; ok {
		return other, true
	}
	c.paths[key] = path
	return "", false
}

// quoteName quotes a name for an error, Go-escaped and cut at 80 bytes.
func quoteName(s string) string {
	const max = 80
	if len(s) > max {
		return fmt.Sprintf("%q…", strings.ToValidUTF8(s[:max], ""))
	}
	return fmt.Sprintf("%q", s)
}
