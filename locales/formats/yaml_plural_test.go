package formats_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// A Blacklight-shaped pair of Rails files: English has plural mappings
// where German has a plain text (grouped.default), and a plural whose
// branches are in another order than CLDR's.
const (
	railsPluralEN = "---\n" +
		"en:\n" +
		"  blacklight:\n" +
		"    bookmarks:\n" +
		"      add:\n" +
		"        success:\n" +
		"          one: Added the bookmark.\n" +
		"          other: Added the bookmarks.\n" +
		"    entry_name:\n" +
		"      default:\n" +
		"        one: entry\n" +
		"        other: entries\n" +
		"      grouped:\n" +
		"        default:\n" +
		"          other: grouped results\n" +
		"          one: grouped result\n" +
		"    search:\n" +
		"      pages:\n" +
		"        one: \"<b>%{start}</b> of <b>%{total}</b>\"\n" +
		"        other: \"<b>%{start}</b> - <b>%{end}</b> of <b>%{total}</b>\"\n" +
		"      title: Search\n"
	railsPluralDE = "---\n" +
		"de:\n" +
		"  blacklight:\n" +
		"    bookmarks:\n" +
		"      add:\n" +
		"        success:\n" +
		"          one: Lesezeichen hinzugefügt.\n" +
		"          other: Lesezeichen hinzugefügt.\n" +
		"    entry_name:\n" +
		"      default:\n" +
		"        one: Eintrag\n" +
		"        other: Einträge\n" +
		"      grouped:\n" +
		"        default: gruppiertes Ergebnis\n" +
		"    search:\n" +
		"      title: Suche\n"
)

// A mapping of CLDR plural categories with other is one text in ICU
// MessageFormat: the branches in the file's order, Rails' %{count} as it
// is (its braces quoted, as every format's branches are).
func TestYAMLRailsPluralIsOneText(t *testing.T) {
	y := formats.YAML{Rails: true}
	msgs, file, err := y.Decode(locales.File{Language: "en"}, []byte(railsPluralEN))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"blacklight.bookmarks.add.success":      "{count, plural, one {Added the bookmark.} other {Added the bookmarks.}}",
		"blacklight.entry_name.default":         "{count, plural, one {entry} other {entries}}",
		"blacklight.entry_name.grouped.default": "{count, plural, other {grouped results} one {grouped result}}",
		"blacklight.search.pages":               "{count, plural, one {<b>%'{'start'}'</b> of <b>%'{'total'}'</b>} other {<b>%'{'start'}'</b> - <b>%'{'end'}'</b> of <b>%'{'total'}'</b>}}",
		"blacklight.search.title":               "Search",
	}
	if diff := cmp.Diff(want, texts(msgs)); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	if file.Keys != translations.Nested {
		t.Errorf("keys %q; want nested", file.Keys)
	}
	for _, m := range msgs {
		if m.Key == "blacklight.entry_name.default" && m.Line != 10 {
			t.Errorf("line %d; want 10, the mapping's key", m.Line)
		}
	}
	rails, _, err := y.Decode(locales.File{Language: "de"}, []byte("de:\n  n:\n    zero: \"%{count} Dinge\"\n    one: \"%{count} Ding\"\n    other: \"%{count} Dinge\"\n"))
	if err != nil || len(rails) != 1 || rails[0].Text != "{count, plural, zero {%'{'count'}' Dinge} one {%'{'count'}' Ding} other {%'{'count'}' Dinge}}" {
		t.Errorf("got %v, %v; want one plural with %%{count} quoted", rails, err)
	}
}

// What is not a mapping of plural categories with other stays keys:
// i18next's suffixed keys, a mapping with another key, one without
// other, one with a null, and the file's top level.
func TestYAMLOnlyCategoryMappingsArePlurals(t *testing.T) {
	for _, tt := range []struct {
		name string
		y    formats.YAML
		data string
		want map[string]string
	}{
		{"i18next suffixes", formats.YAML{}, "item_one: \"{{count}} item\"\nitem_other: \"{{count}} items\"\n",
			map[string]string{"item_one": "{{count}} item", "item_other": "{{count}} items"}},
		{"another key", formats.YAML{Rails: true}, "de:\n  n:\n    one: x\n    other: y\n    title: z\n",
			map[string]string{"n.one": "x", "n.other": "y", "n.title": "z"}},
		{"no other", formats.YAML{Rails: true}, "de:\n  n:\n    one: x\n    few: y\n",
			map[string]string{"n.one": "x", "n.few": "y"}},
		{"a null", formats.YAML{Rails: true}, "de:\n  n:\n    one: x\n    other:\n",
			map[string]string{"n.one": "x", "n.other": ""}},
		{"top level", formats.YAML{}, "one: x\nother: y\n",
			map[string]string{"one": "x", "other": "y"}},
		{"under the language root", formats.YAML{Rails: true}, "de:\n  one: x\n  other: y\n",
			map[string]string{"one": "x", "other": "y"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs, _, err := tt.y.Decode(locales.File{Language: "de"}, []byte(tt.data))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, texts(msgs)); diff != "" {
				t.Errorf("texts (-want +got):\n%s", diff)
			}
		})
	}
}

// A plain text that reads as an ICU plural of count would be written
// back as a mapping, so it is refused on reading, as in the other
// formats; a plural of another argument is a plain text.
func TestYAMLRefusesPlainTextReadingAsPlural(t *testing.T) {
	y := formats.YAML{}
	_, _, err := y.Decode(locales.File{Language: "de"}, []byte("a: ok\nn: \"{count, plural, one {x} other {y}}\"\n"))
	var ie *locales.InputError
	if !errors.As(err, &ie) || len(ie.Problems) != 1 || ie.Problems[0].Key != "n" || ie.Problems[0].Line != 2 {
		t.Fatalf("error %v; want one problem for n on line 2", err)
	}
	msgs, _, err := y.Decode(locales.File{Language: "de"}, []byte("n: \"{n, plural, one {x} other {y}}\"\n"))
	if err != nil || len(msgs) != 1 {
		t.Fatalf("got %v, %v; want the plural of n as a plain text", msgs, err)
	}
}

// A tree where one language has a plural mapping and another a plain
// text under the same key loads: the key is a text in both.
func TestYAMLPluralBesidePlainTextLoads(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{"en.yml": railsPluralEN, "de.yml": railsPluralDE} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cat, err := locales.Load(dir, locales.Layout{Files: translations.SingleFile, Format: formats.YAML{Rails: true}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for m := range cat.All() {
		if m.Key == "blacklight.entry_name.grouped.default" {
			got[m.Language] = m.Text
		}
	}
	want := map[string]string{"en": "{count, plural, other {grouped results} one {grouped result}}", "de": "gruppiertes Ergebnis"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("grouped.default (-want +got):\n%s", diff)
	}
}

// Written over the file, a plural whose cases stay changes the bytes of
// its changed branches only; a text that changes shape (plain to plural,
// plural to plain, other cases) is written anew in its place.
func TestYAMLPluralOverOld(t *testing.T) {
	old := "de:\n" +
		"  a:\n" +
		"    one: 'ein Ding' # eins\n" +
		"    other: \"%{count} Dinge\"\n" +
		"  b: Text\n" +
		"  c:\n" +
		"      one: x\n" +
		"      other: v\n" +
		"  d: {one: x, other: v}\n"
	for _, tt := range []struct {
		name   string
		change map[string]string
		want   string
	}{
		{"a branch", map[string]string{"a": "{count, plural, one {genau ein Ding} other {%'{'count'}' Dinge}}"},
			strings.Replace(old, "'ein Ding'", "'genau ein Ding'", 1)},
		{"a branch, other spacing", map[string]string{"a": "{count,plural,one{ein Ding}other{%'{count}' Sachen}}"},
			strings.Replace(old, "\"%{count} Dinge\"", "\"%{count} Sachen\"", 1)},
		{"a flow branch", map[string]string{"d": "{count, plural, one {x} other {z}}"},
			strings.Replace(old, "other: v}", "other: z}", 1)},
		{"plain to plural", map[string]string{"b": "{count, plural, one {Text} other {Texte}}"},
			strings.Replace(old, "  b: Text\n", "  b:\n    one: Text\n    other: Texte\n", 1)},
		{"plural to plain", map[string]string{"a": "Dinge"},
			strings.Replace(old, "  a:\n    one: 'ein Ding' # eins\n    other: \"%{count} Dinge\"\n", "  a: Dinge\n", 1)},
		{"other cases", map[string]string{"c": "{count, plural, one {x} few {w} other {v}}"},
			strings.Replace(old, "      one: x\n      other: v\n", "      one: x\n      few: w\n      other: v\n", 1)},
		{"a flow plural to plain", map[string]string{"d": "yes"},
			strings.Replace(old, "{one: x, other: v}", "\"yes\"", 1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := yamlOver(t, locales.File{Language: "de"}, old, tt.change); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// A new file writes a plural as a mapping of its cases, in the source
// file's shape, and Ruby reads it as a mapping of strings.
func TestYAMLPluralNewFile(t *testing.T) {
	msgs := sortedByKey([]locales.Message{
		{Key: "blacklight.entry_name.default", Text: "{count, plural, one {Eintrag} other {Einträge}}"},
		{Key: "blacklight.search.pages", Text: "{count, plural, one {%'{'start'}' von %'{'total'}'} other {on}}"},
		{Key: "blacklight.search.title", Text: "Suche"},
	})
	file := locales.File{Language: "de", SourceLanguage: "en", SourceFile: []byte(railsPluralEN)}
	out, err := formats.YAML{}.Encode(file, msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := "---\n" +
		"de:\n" +
		"  blacklight:\n" +
		"    entry_name:\n" +
		"      default:\n" +
		"        one: Eintrag\n" +
		"        other: Einträge\n" +
		"    search:\n" +
		"      pages:\n" +
		"        one: \"%{start} von %{total}\"\n" +
		"        other: \"on\"\n" +
		"      title: Suche\n"
	if string(out) != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	rubyReads(t, out, true)
}

// A Rails tree reads, is written as new files and over itself, and reads
// back as the same texts; written over with its own texts, a file does
// not change.
func TestYAMLPluralRoundTrip(t *testing.T) {
	y := formats.YAML{Rails: true}
	for lang, data := range map[string]string{"en": railsPluralEN, "de": railsPluralDE} {
		t.Run(lang, func(t *testing.T) {
			file := locales.File{Language: lang, SourceLanguage: "en", SourceFile: []byte(railsPluralEN)}
			msgs, got, err := y.Decode(file, []byte(data))
			if err != nil {
				t.Fatal(err)
			}
			file.Keys = got.Keys
			fresh, err := y.Encode(file, msgs)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := y.Decode(file, fresh)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(texts(msgs), texts(back)); diff != "" {
				t.Errorf("new file read back (-want +got):\n%s\n%s", diff, fresh)
			}
			file.Old = []byte(data)
			over, err := y.Encode(file, msgs)
			if err != nil || string(over) != data {
				t.Errorf("written over with its own texts: %v\n%s", err, over)
			}
		})
	}
}

// What a mapping cannot hold is refused before anything is written: a
// plural with =N cases, and keys of plural categories that, nested, would
// read back as one plural.
func TestYAMLPluralRefusedOnWriting(t *testing.T) {
	y := formats.YAML{Rails: true}
	for _, tt := range []struct {
		name string
		old  string
		msgs []locales.Message
		key  string
	}{
		{"=N case", "", []locales.Message{{Key: "n", Text: "{count, plural, =0 {keine} other {viele}}"}}, "n"},
		{"=N case over a file", "de:\n  n: x\n", []locales.Message{{Key: "n", Text: "{count, plural, =0 {keine} other {viele}}"}}, "n"},
		{"category keys", "", []locales.Message{{Key: "n.one", Text: "x"}, {Key: "n.other", Text: "y"}}, "n.one"},
		{"category key completing a mapping", "de:\n  n:\n    one: x\n    other:\n", []locales.Message{{Key: "n.other", Text: "y"}}, "n.other"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			file := locales.File{Language: "de", Keys: translations.Nested}
			if tt.old != "" {
				file.Old = []byte(tt.old)
			}
			out, err := y.Encode(file, tt.msgs)
			var ie *locales.InputError
			if !errors.As(err, &ie) || ie.Problems[0].Key != tt.key {
				t.Fatalf("got %v\n%s\nwant a problem with %s", err, out, tt.key)
			}
		})
	}
}

// A file patch cannot write into (one with a byte order mark) is written
// by the library's encoder, with plurals as mappings and plain texts as
// scalars all the same.
func TestYAMLPluralRewritten(t *testing.T) {
	y := formats.YAML{Rails: true}
	old := "\ufeffde:\n  a:\n    one: x\n    other: v\n  b: Text\n  c:\n    one: x\n    other: v\n"
	file := locales.File{Language: "de", Keys: translations.Nested, Old: []byte(old)}
	msgs := []locales.Message{
		{Key: "a", Text: "Dinge"},
		{Key: "b", Text: "{count, plural, one {Text} other {Texte}}"},
		{Key: "c", Text: "{count, plural, one {x} other {w}}"},
	}
	out, err := y.Encode(file, msgs)
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := y.Decode(file, out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(texts(msgs), texts(back)); diff != "" {
		t.Errorf("read back (-want +got):\n%s\n%s", diff, out)
	}
	if !strings.Contains(string(out), "  b:\n    one: Text\n    other: Texte\n") {
		t.Errorf("b is not a mapping of its cases:\n%s", out)
	}
}

// yamlReadsAs returns what text reads back as, written in a new file: a
// plural written as a mapping reads back in ICU's spacing.
func yamlReadsAs(y formats.YAML, text string) string {
	file := locales.File{Language: "de", Keys: translations.Flat}
	out, err := y.Encode(file, []locales.Message{{Key: "k", Text: text}})
	if err != nil {
		return text
	}
	back, _, err := y.Decode(file, out)
	if err != nil || len(back) != 1 {
		return text
	}
	return back[0].Text
}

// A null in a flow mapping stays a null when the library's encoder
// writes the file (it would write an empty null there as an empty
// quoted string).
func TestYAMLRewriteKeepsFlowNulls(t *testing.T) {
	y := formats.YAML{}
	old := "\ufeff{a: , b: x}\n"
	file := locales.File{Language: "de", Keys: translations.Flat, Old: []byte(old)}
	out, err := y.Encode(file, []locales.Message{{Key: "a", Untranslated: true}, {Key: "b", Text: "y"}})
	if err != nil {
		t.Fatal(err)
	}
	back, _, err := y.Decode(file, out)
	if err != nil || len(back) != 2 || !back[0].Untranslated || back[1].Text != "y" {
		t.Fatalf("read back %+v, %v\n%s", back, err, out)
	}
}
