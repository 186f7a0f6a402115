package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/locales"
)

// TestPushAddLanguages: a push of a tree with languages the project
// lacks is refused before any write, naming them (in the service's
// spelling) and the commands that add them; --dry-run --add-languages
// says what it would add and adds nothing; --add-languages adds them and
// pushes their texts; a second push writes nothing.
func TestPushAddLanguages(t *testing.T) {
	env := startFake(t)
	dir := writeTree(t, map[string]string{
		"en.json":    `{"a": "A", "b": "B"}`,
		"de.json":    `{"a": "Ä"}`,
		"pt-BR.json": `{"a": "Á"}`,
		"ja.json":    `{"b": "ビー"}`,
	})
	r := runPartner(t, env, "push", "--dir", dir)
	if r.code != 1 || !strings.Contains(r.stderr, "ja, pt-br") || !strings.Contains(r.stderr, "partner languages add --project acme/web ja pt-br") || !strings.Contains(r.stderr, "--add-languages") {
		t.Errorf("push of languages the project lacks: exit %d, %q; want 1 naming ja, pt-br and the commands that add them", r.code, r.stderr)
	}
	// Nothing was written: no key, no language.
	languages := func() []string {
		var list languagesResult
		r := runPartner(t, env, "languages", "list", "--json")
		if err := json.Unmarshal([]byte(r.stdout), &list); err != nil {
			t.Fatalf("languages list: %v, %q", err, r.stderr)
		}
		var codes []string
		for _, l := range list.Languages {
			codes = append(codes, l.Code)
		}
		return codes
	}
	if got := languages(); !slices.Equal(got, []string{"en", "de", "fr"}) {
		t.Errorf("after a refused push the project has languages %v", got)
	}

	var plan struct {
		planView
		Create []json.RawMessage `json:"create"`
	}
	r = runPartner(t, env, "push", "--dir", dir, "--add-languages", "--dry-run", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &plan) != nil {
		t.Fatalf("push --add-languages --dry-run: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !slices.Equal(plan.AddLanguages, []string{"ja", "pt-br"}) || len(plan.Create) != 2 {
		t.Errorf("dry run: would add %v and create %d keys; want ja, pt-br and 2 keys", plan.AddLanguages, len(plan.Create))
	}
	if got := languages(); !slices.Equal(got, []string{"en", "de", "fr"}) {
		t.Errorf("after a dry run the project has languages %v", got)
	}

	var rep struct {
		AddedLanguages []string       `json:"addedLanguages"`
		Created        []locales.Item `json:"created"`
	}
	r = runPartner(t, env, "push", "--dir", dir, "--add-languages", "--json")
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &rep) != nil {
		t.Fatalf("push --add-languages: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !slices.Equal(rep.AddedLanguages, []string{"ja", "pt-br"}) || len(rep.Created) != 2 {
		t.Errorf("push --add-languages: added %v, created %v", rep.AddedLanguages, rep.Created)
	}
	if got := languages(); !slices.Equal(got, []string{"en", "de", "fr", "ja", "pt-br"}) {
		t.Errorf("after push --add-languages the project has languages %v", got)
	}
	if r := runPartner(t, env, "push", "--dir", dir, "--add-languages"); r.code != 0 || !strings.Contains(r.stdout, "0 keys created, 0 updated") || strings.Contains(r.stdout, "added languages") {
		t.Errorf("second push: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
}
