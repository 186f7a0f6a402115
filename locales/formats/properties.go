package formats

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/magiconair/properties"

	"github.com/locsvc/partner-go/locales"
)

// Properties is Java's .properties resource bundles
// (messages_de.properties in Java, <lang>.properties here), read and
// written with github.com/magiconair/properties, the kept Go parser of
// the format (viper's), with ${…} expansion off: a text is what the file
// says.
//
// A file is read as UTF-8 (Java 9 and later read resource bundles so)
// or, when it is not valid UTF-8, as ISO-8859-1 (older Java), and is
// written back in the same encoding, a new file in UTF-8. In
// ISO-8859-1 the library writes other characters as \uXXXX but those
// beyond U+FFFF as '?': such texts are refused there. A key
// written twice is read as Java reads it: the last wins. Write keeps the
// comments before each key and the keys' order; new keys are added at
// the end in key order. Keys are flat: dotted keys are written whole.
// The library's writer escapes ' ' and ':' in a key but not '=' or a
// leading '#' or '!': a key holding those reads, but is refused on write.
type Properties struct{}

// Ext returns ".properties".
func (Properties) Ext() string { return ".properties" }

func loadProperties(data []byte) (*properties.Properties, error) {
	enc := properties.UTF8
	if !utf8.Valid(data) {
		enc = properties.ISO_8859_1
	}
	l := &properties.Loader{Encoding: enc, DisableExpansion: true}
	p, err := l.LoadBytes(data)
	if err != nil {
		return nil, &locales.InputError{Problems: []locales.Problem{{Message: "malformed properties: " + strings.TrimPrefix(err.Error(), "properties: ")}}}
	}
	return p, nil
}

// Decode reads a .properties file.
func (Properties) Decode(data []byte) ([]locales.Message, locales.KeyFormat, error) {
	p, err := loadProperties(data)
	if err != nil {
		return nil, "", err
	}
	var msgs []locales.Message
	for _, k := range p.Keys() {
		v, _ := p.Get(k)
		msgs = append(msgs, locales.Message{Key: k, Text: v, Line: lineOf(data, k)})
	}
	return msgs, locales.FlatKeys, nil
}

// lineOf returns the line of the first line starting with key, or 0.
func lineOf(data []byte, key string) int {
	for i, line := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte(key)) {
			return i + 1
		}
	}
	return 0
}

// Encode writes msgs as a new .properties file.
func (f Properties) Encode(msgs []locales.Message, keys locales.KeyFormat) ([]byte, error) {
	return f.EncodeFile(locales.File{}, msgs, keys)
}

// DecodeFile reads a .properties file.
func (f Properties) DecodeFile(_ locales.File, data []byte) ([]locales.Message, locales.KeyFormat, error) {
	return f.Decode(data)
}

// EncodeFile writes msgs over file.Old, keeping its comments and order.
func (Properties) EncodeFile(file locales.File, msgs []locales.Message, _ locales.KeyFormat) ([]byte, error) {
	p := properties.NewProperties()
	p.DisableExpansion = true
	enc := properties.UTF8
	if file.Old != nil && !utf8.Valid(file.Old) {
		enc = properties.ISO_8859_1
	}
	if file.Old != nil {
		var err error
		if p, err = loadProperties(file.Old); err != nil {
			return nil, err
		}
	}
	texts := map[string]bool{}
	for _, m := range msgs {
		texts[m.Key] = true
	}
	for _, k := range p.Keys() {
		if !texts[k] {
			p.Delete(k)
		}
	}
	var problems []locales.Problem
	for _, m := range msgs {
		// The writer escapes ' ' and ':' in a key, but not a leading '#' or
		// '!' (the line would read as a comment) nor '=' (the key would end
		// there).
		if strings.HasPrefix(m.Key, "#") || strings.HasPrefix(m.Key, "!") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q starts with a comment character", m.Key)})
			continue
		}
		if strings.Contains(m.Key, "=") {
			problems = append(problems, locales.Problem{Key: m.Key, Message: fmt.Sprintf("key %q holds '=', which a .properties writer would not escape", m.Key)})
			continue
		}
		if enc == properties.ISO_8859_1 && strings.IndexFunc(m.Key+m.Text, func(r rune) bool { return r > 0xFFFF }) >= 0 {
			problems = append(problems, locales.Problem{Key: m.Key, Message: "a character beyond U+FFFF, which an ISO-8859-1 file cannot hold"})
			continue
		}
		if _, _, err := p.Set(m.Key, m.Text); err != nil {
			return nil, fmt.Errorf("locales: %w", err)
		}
	}
	if len(problems) > 0 {
		return nil, &locales.InputError{Problems: problems}
	}
	var b bytes.Buffer
	if _, err := p.WriteComment(&b, "# ", enc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
