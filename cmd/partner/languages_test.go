package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestServiceLanguage: a language spelled as a platform spells it reads
// as the service's code; what is no language code is refused.
func TestServiceLanguage(t *testing.T) {
	for in, want := range map[string]string{
		"de":          "de",
		"pt-br":       "pt-br",
		"pt-BR":       "pt-br",
		"pt_BR":       "pt-br",
		"pt-rBR":      "pt-br",
		"es-r419":     "es-419",
		"zh-Hans":     "zh-hans",
		"zh_Hant":     "zh-hant",
		"zh-Hant-TW":  "zh-hant-tw",
		"b+sr+Latn":   "sr-latn",
		"b+es+419":    "es-419",
		"sr@latin":    "sr-latn",
		"sr_RS@latin": "sr-latn-rs",
		"iw":          "iw", // not replaced by he: the project may spell it so
		" fr ":        "fr",
	} {
		got, err := serviceLanguage(in)
		if err != nil || got != want {
			t.Errorf("serviceLanguage(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"", "Base", "values-de", "de.lproj", "messages_de", "und", "sr@klingon", "x", "zh-Hant-TW-u-ca-chinese"} {
		if got, err := serviceLanguage(in); err == nil {
			t.Errorf("serviceLanguage(%q) = %q, want an error", in, got)
		}
	}
}

// TestLanguagesAddList: languages add takes codes in any platform's
// spelling, adds each once in the service's, says which the project had,
// and languages list then shows them; a code that is none is a usage
// error and adds nothing.
func TestLanguagesAddList(t *testing.T) {
	env := startFake(t)
	var res addLanguagesResult
	r := runPartner(t, env, "languages", "add", "--json", "pt_BR", "zh-Hans", "b+sr+Latn", "pt-rBR", "de", "en")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("languages add: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if want := []string{"pt-br", "zh-hans", "sr-latn"}; !slices.Equal(res.Added, want) {
		t.Errorf("added %v, want %v", res.Added, want)
	}
	if want := []string{"de", "en"}; !slices.Equal(res.Skipped, want) {
		t.Errorf("skipped %v, want %v (a target and the source)", res.Skipped, want)
	}
	if r := runPartner(t, env, "languages", "add", "ja"); r.code != 0 || !strings.Contains(r.stdout, "added ja") {
		t.Errorf("languages add ja: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if r := runPartner(t, env, "languages", "add", "ko", "values-de"); r.code != 2 || !strings.Contains(r.stderr, `"values-de" is not a language code`) {
		t.Errorf("languages add with a bad code: exit %d, %q; want 2 naming it", r.code, r.stderr)
	}
	if r := runPartner(t, env, "languages", "add"); r.code != 2 {
		t.Errorf("languages add without codes: exit %d, want 2", r.code)
	}

	var list languagesResult
	r = runPartner(t, env, "languages", "list", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil {
		t.Fatalf("languages list: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	var codes []string
	for _, l := range list.Languages {
		codes = append(codes, l.Code)
		if l.Source != (l.Code == "en") {
			t.Errorf("language %s marked source %v", l.Code, l.Source)
		}
	}
	if want := []string{"en", "de", "fr", "ja", "pt-br", "sr-latn", "zh-hans"}; !slices.Equal(codes, want) {
		t.Errorf("languages list: %v, want %v (ko refused with values-de)", codes, want)
	}
	if r := runPartner(t, env, "languages", "list"); r.code != 0 || !strings.Contains(r.stdout, "en         source") || !strings.Contains(r.stdout, "pt-br") {
		t.Errorf("languages list: exit %d, %q", r.code, r.stdout)
	}
}

// TestProjectsList: projects list names each project as --project takes
// it, with its languages.
func TestProjectsList(t *testing.T) {
	env := startFake(t)
	var res projectsResult
	r := runPartner(t, env, "projects", "list", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &res) != nil {
		t.Fatalf("projects list: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if len(res.Projects) != 1 || res.Projects[0].Project != "acme/web" || res.Projects[0].SourceLanguage != "en" ||
		!slices.Equal(res.Projects[0].Languages, []string{"de", "fr"}) || res.CDN != env["PARTNER_CDN_URL"] {
		t.Errorf("projects list: %+v, want acme/web (en; de, fr) and the CDN %s", res, env["PARTNER_CDN_URL"])
	}
	if r := runPartner(t, env, "projects", "list"); r.code != 0 || !strings.HasPrefix(r.stdout, "acme/web ") || !strings.Contains(r.stdout, "de, fr") {
		t.Errorf("projects list: exit %d, %q", r.code, r.stdout)
	}
}

// FuzzServiceLanguage: any string either is refused or reads as a code
// of 2 to 10 characters, lower case, that reads as itself again.
func FuzzServiceLanguage(f *testing.F) {
	for _, s := range []string{"pt_BR", "pt-rBR", "b+sr+Latn", "zh-Hans", "sr@latin", "de", "Base", "values-de", "x-klingon", "b+", "@latin"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := serviceLanguage(s)
		if err != nil {
			return
		}
		if len(got) < 2 || len(got) > 10 || got != strings.ToLower(got) {
			t.Fatalf("serviceLanguage(%q) = %q: want 2 to 10 characters, lower case", s, got)
		}
		if again, err := serviceLanguage(got); err != nil || again != got {
			t.Fatalf("serviceLanguage(%q) = %q, which reads as %q, %v", s, got, again, err)
		}
	})
}
