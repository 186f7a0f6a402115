package partnertest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// args are a tool call's arguments, read leniently as the service's tools
// do: unknown keys are ignored, strings are never converted to numbers,
// and every problem is collected into one "Validation error: ..." text
// with the validator's default messages and no field paths.
type args struct {
	m    map[string]json.RawMessage
	errs []string
	root *args // where a nested object's problems go; nil at the top
}

// child returns args for a nested object whose problems are collected
// with a's.
func (a *args) child(m map[string]json.RawMessage) *args {
	r := a
	if a.root != nil {
		r = a.root
	}
	return &args{m: m, root: r}
}

func newArgs(raw json.RawMessage) *args {
	a := &args{m: map[string]json.RawMessage{}}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &a.m); err != nil {
			a.fail("Expected object, received " + jsonKind(raw))
		}
	}
	return a
}

func (a *args) fail(msg string) {
	if a.root != nil {
		a.root.fail(msg)
		return
	}
	a.errs = append(a.errs, msg)
}

// err returns the validation error text, or "".
func (a *args) err() string {
	if len(a.errs) == 0 {
		return ""
	}
	return "Validation error: " + strings.Join(a.errs, ", ")
}

func jsonKind(raw json.RawMessage) string {
	switch t := strings.TrimSpace(string(raw)); {
	case t == "null":
		return "null"
	case strings.HasPrefix(t, `"`):
		return "string"
	case strings.HasPrefix(t, "{"):
		return "object"
	case strings.HasPrefix(t, "["):
		return "array"
	case t == "true" || t == "false":
		return "boolean"
	}
	return "number"
}

func present(raw json.RawMessage) bool { return raw != nil && string(raw) != "null" }

// str reads a string; min and max bound its length when > 0.
func (a *args) str(key string, required bool, min, max int) string {
	return a.strOf(a.m[key], required, min, max)
}

func (a *args) strOf(raw json.RawMessage, required bool, min, max int) string {
	if !present(raw) {
		if required {
			a.fail("Required")
		}
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		a.fail("Expected string, received " + jsonKind(raw))
		return ""
	}
	if min > 0 && len(s) < min {
		a.fail(fmt.Sprintf("String must contain at least %d character(s)", min))
	}
	if max > 0 && len(s) > max {
		a.fail(fmt.Sprintf("String must contain at most %d character(s)", max))
	}
	return s
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

func (a *args) uuidOf(raw json.RawMessage, required bool) string {
	s := a.strOf(raw, required, 0, 0)
	if s != "" && !uuidRE.MatchString(s) {
		a.fail("Invalid uuid")
	}
	return s
}

// enum reads a string that must be one of values; def when absent.
func (a *args) enum(key, def string, values ...string) string {
	raw := a.m[key]
	if !present(raw) {
		return def
	}
	s := a.strOf(raw, false, 0, 0)
	for _, v := range values {
		if s == v {
			return s
		}
	}
	if len(a.errs) == 0 || s != "" {
		a.fail(fmt.Sprintf("Invalid enum value. Expected '%s', received '%s'", strings.Join(values, "' | '"), s))
	}
	return def
}

// integer reads an int in [min, max]; def when absent.
func (a *args) integer(key string, def, min, max int) int {
	raw := a.m[key]
	if !present(raw) {
		return def
	}
	var f float64
	if json.Unmarshal(raw, &f) != nil {
		a.fail("Expected number, received " + jsonKind(raw))
		return def
	}
	if f != float64(int64(f)) {
		a.fail("Expected integer, received float")
		return def
	}
	n := int(f)
	if n < min {
		a.fail(fmt.Sprintf("Number must be greater than or equal to %d", min))
		return def
	}
	if n > max {
		a.fail(fmt.Sprintf("Number must be less than or equal to %d", max))
		return def
	}
	return n
}

func (a *args) boolean(key string) bool {
	raw := a.m[key]
	if !present(raw) {
		return false
	}
	var b bool
	if json.Unmarshal(raw, &b) != nil {
		a.fail("Expected boolean, received " + jsonKind(raw))
	}
	return b
}

// array reads an array of raw items, with between min and max items
// (max 0: no limit).
func (a *args) array(key string, required bool, min, max int) []json.RawMessage {
	raw := a.m[key]
	if !present(raw) {
		if required {
			a.fail("Required")
		}
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		a.fail("Expected array, received " + jsonKind(raw))
		return nil
	}
	if len(items) < min {
		a.fail(fmt.Sprintf("Array must contain at least %d element(s)", min))
	}
	if max > 0 && len(items) > max {
		a.fail(fmt.Sprintf("Array must contain at most %d element(s)", max))
	}
	return items
}

// strings reads an array of strings; with orOne, a single string too.
func (a *args) strings(key string, orOne bool) []string {
	raw := a.m[key]
	if !present(raw) {
		return nil
	}
	if orOne && jsonKind(raw) == "string" {
		return []string{a.strOf(raw, false, 0, 0)}
	}
	var out []string
	for _, it := range a.array(key, false, 0, 0) {
		out = append(out, a.strOf(it, true, 0, 0))
	}
	return out
}

// object reads an object of raw members.
func (a *args) objectOf(raw json.RawMessage, required bool) map[string]json.RawMessage {
	if !present(raw) {
		if required {
			a.fail("Required")
		}
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		a.fail("Expected object, received " + jsonKind(raw))
		return nil
	}
	return m
}

// textMap reads an object of strings, such as {lang: text}, with keys
// lowercased.
func (a *args) textMap(raw json.RawMessage, required bool) map[string]string {
	m := a.objectOf(raw, required)
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[strings.ToLower(k)] = a.strOf(v, true, 0, 0)
	}
	return out
}
