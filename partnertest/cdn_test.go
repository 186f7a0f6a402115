package partnertest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
)

// cdnGet fetches path below srv's CDN and returns the status and body.
func cdnGet(t testing.TB, srv *partnertest.Server, path string) (int, string) {
	t.Helper()
	resp, err := srv.Client().Get(srv.CDNURL + "/" + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// publishNow publishes the project and lets its sync job complete, so
// that the CDN serves what was published.
func publishNow(t testing.TB, f *mcpFixture, project string) {
	t.Helper()
	callOK(t, f.cs, "publishTranslations", map[string]any{"project": project}, new(map[string]any))
	f.srv.Advance(partnertest.SyncPendingTime + partnertest.SyncRunTime)
}

// The CDN spells every language as the service spells codes, in
// lowercase, the source language too, in its paths, its manifest and
// getProject's example URLs; a path in another spelling is not found.
// getProject's coverage counts the texts of a language the project
// spells otherwise.
func TestCDNSpellsLanguagesInLowercase(t *testing.T) {
	f := newMCPFixture(t)
	p := f.srv.AddProject(f.g.Organizations[0].ID, partnertest.Project{Name: "Mixed", Slug: "mixed", SourceLanguage: "pt-BR",
		TargetLanguages: []partnertest.Language{{Code: "zh-Hans"}, {Code: "sr-Latn"}}})
	project := f.g.Organizations[0].Slug + "/" + p.Slug
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{
		map[string]any{"n": "hello", "v": "Olá", "t": map[string]string{"zh-Hans": "你好", "sr-Latn": "Zdravo"}},
	}}, new(map[string]any))
	var info struct {
		Cov map[string]struct{ Tr int }
		CDN struct{ Ex []string }
	}
	callOK(t, f.cs, "getProject", map[string]any{"project": project}, &info)
	if info.Cov["zh-Hans"].Tr != 1 || info.Cov["sr-Latn"].Tr != 1 {
		t.Errorf("coverage %+v, want 1 text of zh-Hans and sr-Latn", info.Cov)
	}
	if len(info.CDN.Ex) != 1 || !strings.HasSuffix(info.CDN.Ex[0], "/"+project+"/pt-br/translations.json") {
		t.Errorf("getProject's example URLs %q, want the source's file spelled pt-br", info.CDN.Ex)
	}
	publishNow(t, f, project)

	for path, want := range map[string]string{
		"pt-br/translations.json":   `{"hello": "Olá"}`,
		"zh-hans/translations.json": `{"hello": "你好"}`,
		"sr-latn/translations.json": `{"hello": "Zdravo"}`,
	} {
		status, body := cdnGet(t, f.srv, project+"/"+path)
		var got, w map[string]any
		json.Unmarshal([]byte(body), &got)
		json.Unmarshal([]byte(want), &w)
		if status != http.StatusOK || !cmp.Equal(got, w) {
			t.Errorf("GET %s: %d %s, want 200 %s", path, status, body, want)
		}
	}
	for _, path := range []string{"pt-BR/translations.json", "zh-Hans/translations.json", "sr-Latn/translations.json"} {
		if status, _ := cdnGet(t, f.srv, project+"/"+path); status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404: the CDN spells languages in lowercase", path, status)
		}
	}
	_, body := cdnGet(t, f.srv, project+"/manifest.json")
	var m struct{ Files map[string][]string }
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"pt-br": {"pt-br/translations.json"}, "sr-latn": {"sr-latn/translations.json"}, "zh-hans": {"zh-hans/translations.json"}}
	if diff := cmp.Diff(want, m.Files); diff != "" {
		t.Errorf("manifest (-want +got):\n%s", diff)
	}
}

// createKeys refuses a batch that would make a key both a leaf and a
// parent, with the project's keys or within the batch, unless force is
// set; with force both are created, and a published nested file keeps
// the parent in its place and writes the keys below it whole beside it,
// the same way every time.
func TestCreateKeysForce(t *testing.T) {
	f := newMCPFixture(t)
	callOK(t, f.cs, "createKeys", map[string]any{"project": project, "k": []any{map[string]any{"n": "x.y", "v": "XY", "t": map[string]string{"de": "XY"}}}}, new(map[string]any)) // a translation, for the publish to ship
	var ks []any
	want := map[string]any{"x": "X", "x.y": "XY"}
	for i := range 20 {
		ks = append(ks, map[string]any{"n": fmt.Sprintf("p%02d", i), "v": "P"}, map[string]any{"n": fmt.Sprintf("p%02d.c", i), "v": "C"})
		want[fmt.Sprintf("p%02d", i)], want[fmt.Sprintf("p%02d.c", i)] = "P", "C"
	}
	for _, tc := range []struct {
		name string
		k    []any
	}{
		{"the parent of a key the project has", []any{map[string]any{"n": "x", "v": "X"}}},
		{"a leaf and its parent in one batch", ks},
	} {
		if text := callErr(t, f.cs, "createKeys", map[string]any{"project": project, "k": tc.k}); !strings.HasPrefix(text, "CONFLICT") {
			t.Errorf("%s without force: %q, want CONFLICT", tc.name, text)
		}
		var out struct{ Cnt int }
		callOK(t, f.cs, "createKeys", map[string]any{"project": project, "force": true, "k": tc.k}, &out)
		if out.Cnt != len(tc.k) {
			t.Errorf("%s with force: created %d keys, want %d", tc.name, out.Cnt, len(tc.k))
		}
	}
	var names []string
	for _, k := range f.srv.TranslationKeys(f.p.ID) {
		names = append(names, k.Name)
	}
	if len(names) != len(want) {
		t.Errorf("the project has %d keys (%v), want %d", len(names), names, len(want))
	}
	publishNow(t, f, project)
	_, body := cdnGet(t, f.srv, project+"/en/translations.json")
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the CDN's nested file (-want +got):\n%s", diff)
	}
}
