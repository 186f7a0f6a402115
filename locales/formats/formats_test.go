package formats_test

import (
	"context"
	"errors"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/partnertest"
)

// keyed returns f with key format k.
func keyed(f locales.File, k translations.KeyFormat) locales.File {
	f.Keys = k
	return f
}

var cases = []struct {
	name    string
	format  locales.Format
	fixture string
	want    map[string]string
}{
	{"Rails YAML", formats.YAML{Rails: true}, "de.yml", map[string]string{
		"activerecord.attributes.user.email":    "E-Mail",
		"activerecord.attributes.user.password": "Passwort",
		"cart.title":                            "Warenkorb",
		"cart.items":                            "{count, plural, one {%'{'count'}' Artikel} other {%'{'count'}' Artikel}}",
		"date.abbr_day_names.0":                 "So",
		"date.abbr_day_names.1":                 "Mo",
		"date.abbr_day_names.2":                 "Di",
		"greeting":                              "Hallo %{name}!",
		"footer":                                "Alle Preise inkl. MwSt.\nVersand ab 4,95 €.\n",
	}},
	{"i18next YAML", formats.YAML{Extension: ".yaml"}, "translation.yaml", map[string]string{
		"nav.home":   "Startseite",
		"nav.about":  "Über uns",
		"item_one":   "{{count}} Artikel",
		"item_other": "{{count}} Artikel",
		"welcome":    "Willkommen, <1>{{name}}</1>!",
	}},
	{"Properties", formats.Properties{}, "messages_de.properties", map[string]string{
		"cart.title": "Warenkorb",
		"cart.items": "{0,choice,0#keine Artikel|1#ein Artikel|1<{0,number,integer} Artikel}",
		"greeting":   "Grüß dich, {0}!",
		"multiline":  "erste Zeile zweite Zeile",
	}},
}

func texts(msgs []locales.Message) map[string]string {
	out := map[string]string{}
	for _, m := range msgs {
		out[m.Key] = m.Text
	}
	return out
}

func comments(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") {
			out = append(out, strings.TrimSpace(strings.TrimLeft(t, "#!")))
		}
	}
	return out
}

// A fixture in the platform's style reads without loss: every text,
// and written back over it, the same texts and every comment.
func TestFixtureReadsWithoutLoss(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.fixture))
			if err != nil {
				t.Fatal(err)
			}
			f := locales.File{Language: "de"}
			msgs, _, err := c.format.Decode(f, data)
			if err != nil {
				t.Fatal(err)
			}
			if got := texts(msgs); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("texts %v\nwant %v", got, c.want)
			}
			f.Old = data
			out, err := c.format.Encode(f, msgs)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := c.format.Decode(f, out)
			if err != nil || !reflect.DeepEqual(texts(back), c.want) {
				t.Fatalf("read back %v, %v\n%s", texts(back), err, out)
			}
			if got, want := comments(out), comments(data); !reflect.DeepEqual(got, want) {
				t.Fatalf("comments %q; want %q\n%s", got, want, out)
			}
			if _, ok := c.format.(formats.YAML); ok && string(out) != string(data) {
				t.Fatalf("YAML written over with the same texts changed:\n%s", out)
			}
		})
	}
}

// Read, write a new file, read again gives the same texts; a second
// write over that file changes no byte; a changed and a new key read
// back as written.
func TestRoundTrip(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, _ := os.ReadFile(filepath.Join("testdata", c.fixture))
			f := locales.File{Language: "de"}
			msgs, got, err := c.format.Decode(f, data)
			kf := got.Keys
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.format.Encode(keyed(f, kf), msgs)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err := c.format.Decode(f, out)
			if err != nil || !reflect.DeepEqual(texts(back), texts(msgs)) {
				t.Fatalf("read again %v, %v\n%s", texts(back), err, out)
			}
			f.Old = out
			again, err := c.format.Encode(keyed(f, kf), back)
			if err != nil || string(again) != string(out) {
				t.Fatalf("second write differs (%v):\n%s\n---\n%s", err, out, again)
			}
			want := texts(msgs)
			want["greeting"] = "Geändert"
			want["zz.new"] = "Neu"
			var in []locales.Message
			for k, v := range want {
				in = append(in, locales.Message{Key: k, Text: v})
			}
			slices.SortFunc(in, func(a, b locales.Message) int { return strings.Compare(a.Key, b.Key) })
			f.Old = data
			out, err = c.format.Encode(keyed(f, kf), in)
			if err != nil {
				t.Fatal(err)
			}
			back, _, err = c.format.Decode(f, out)
			if err != nil || !reflect.DeepEqual(texts(back), want) {
				t.Fatalf("read back %v, %v\n%s", texts(back), err, out)
			}
		})
	}
}

// Values YAML would turn into texts, and aliases, are refused.
func TestYAMLRefusesWhatItCannotMap(t *testing.T) {
	for in, want := range map[string]string{
		"de:\n  precision: 3\n":    "is int, not a text",
		"a: &x hi\nb: *x\n":        "aliases",
		"a: x\na: y\n":             "twice",
		"a: [x\n":                  "malformed YAML",
		"--- {a: x}\n--- {b: y}\n": "more than one",
	} {
		_, _, err := formats.YAML{Rails: true}.Decode(locales.File{Language: "de"}, []byte(in))
		var ie *locales.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want one saying %q", in, err, want)
		}
	}
}

// Keys the properties writer cannot write back as they are read are
// refused before anything is written.
func TestPropertiesRefusesKeysItCannotWrite(t *testing.T) {
	for key, want := range map[string]string{
		"#a":    "comment character",
		"!a":    "comment character",
		"a=b":   "holds '='",
		"=":     "holds '='",
		"a\x00": "NUL",
	} {
		_, err := formats.Properties{}.Encode(locales.File{Language: "de", Keys: translations.Flat}, []locales.Message{{Key: key, Text: "x"}})
		var ie *locales.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want an *InputError saying %q", key, err, want)
		}
	}
}

// Each format pushes and pulls through plan and apply against the fake
// service, and the pulled tree reads as the pushed one.
func TestPushPull(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			srv := partnertest.NewServer()
			t.Cleanup(srv.Close)
			g := srv.NewGrant()
			srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en", TargetLanguages: []partnertest.Language{{Code: "de"}}})
			cl, err := partner.NewClient(partner.Config{
				BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
				ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
				GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
				HTTPClient: srv.Client(), Pacing: partner.Pacing{Off: true},
			})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { cl.Close() })
			project := g.Organizations[0].Slug + "/web"

			dir := t.TempDir()
			data, _ := os.ReadFile(filepath.Join("testdata", c.fixture))
			de, _, err := c.format.Decode(locales.File{Language: "de"}, data)
			if err != nil {
				t.Fatal(err)
			}
			en := make([]locales.Message, len(de))
			for i, m := range de {
				en[i] = locales.Message{Key: m.Key, Text: "EN " + m.Text}
			}
			for lang, msgs := range map[string][]locales.Message{"de": de, "en": en} {
				slices.SortFunc(msgs, func(a, b locales.Message) int { return strings.Compare(a.Key, b.Key) })
				out, err := c.format.Encode(locales.File{Language: lang, Keys: translations.Nested}, msgs)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, lang+c.format.Ext()), out, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			layout := locales.Layout{Files: translations.SingleFile, Format: c.format}
			cat, err := locales.Load(dir, layout)
			if err != nil {
				t.Fatal(err)
			}
			plan, err := locales.NewPlan(ctx, cl, project, cat, locales.PlanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plan.Apply(ctx, cl, locales.ApplyOptions{}); err != nil {
				t.Fatal(err)
			}
			pulled, err := locales.Pull(ctx, cl, project, locales.PullOptions{})
			if err != nil {
				t.Fatal(err)
			}
			out := t.TempDir()
			if err := pulled.Write(out, layout); err != nil {
				t.Fatal(err)
			}
			back, err := locales.Load(out, layout)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := slices.Collect(cat.All()), slices.Collect(back.All()); !reflect.DeepEqual(a, b) || len(a) != 2*len(de) {
				t.Fatalf("pulled %v\npushed %v", b, a)
			}
			again, err := locales.NewPlan(ctx, cl, project, back, locales.PlanOptions{})
			if err != nil || !again.Empty() {
				t.Fatalf("pushing the pulled tree: %v, %+v", err, again)
			}
		})
	}
}

// All adds this module's formats to DetectFormat.
func TestDetect(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "de.yml"), []byte("de: {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "en.properties"), nil, 0o644)
	if _, err := formats.DetectFormat(dir, formats.All()); err == nil || !strings.Contains(err.Error(), "mixes locale formats") {
		t.Fatalf("error %v; want a mixed tree refused", err)
	}
}

func fuzz(f *testing.F, format locales.Format, fixture string, seeds ...string) {
	if data, err := os.ReadFile(filepath.Join("testdata", fixture)); err == nil {
		f.Add(data)
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := locales.File{Language: "de"}
		msgs, got, err := format.Decode(file, data)
		kf := got.Keys
		if err != nil {
			var ie *locales.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("error %v is not an *InputError", err)
			}
			return
		}
		for _, old := range [][]byte{data, nil} {
			file.Old = old
			out, err := format.Encode(keyed(file, kf), msgs)
			if err != nil {
				var ie *locales.InputError
				if !errors.As(err, &ie) {
					t.Fatalf("writing: %v", err)
				}
				return
			}
			back, _, err := format.Decode(file, out)
			if err != nil || !reflect.DeepEqual(texts(back), texts(msgs)) {
				t.Fatalf("read back %v, %v; want %v\n%q", texts(back), err, texts(msgs), out)
			}
		}
	})
}

func FuzzYAML(f *testing.F) {
	fuzz(f, formats.YAML{Rails: true}, "de.yml", "de:\n  a: [x, y]\n  b: {c: 'z'}\n", "a: b\n")
}

func FuzzProperties(f *testing.F) {
	fuzz(f, formats.Properties{}, "messages_de.properties", "a=b\n! c\nd : e\\\n  f\n", "k=\\u00e9${x}\n")
}
