package locales_test

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"os"
	"path/filepath"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/partnertest"
)

// exampleClient returns a client of a grant on the fake service, and the
// "org/project" of a project with source en and targets de and pt-br.
func exampleClient(srv *partnertest.Server) (*partner.Client, string) {
	g := srv.NewGrant()
	srv.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
		TargetLanguages: []partnertest.Language{{Code: "de"}, {Code: "pt-br"}}})
	c, err := partner.NewClient(partner.Config{
		BaseURL: srv.URL, AuthURL: srv.AuthURL, MCPURL: srv.MCPURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
	})
	if err != nil {
		panic(err)
	}
	return c, g.Organizations[0].Slug + "/web"
}

func writeFile(dir, name, data string) {
	os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
	os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
}

// Push a locale tree, then push it again (nothing to do), then pull the
// project into another tree.
func Example() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleClient(srv)
	defer c.Close()
	ctx := context.Background()

	dir, _ := os.MkdirTemp("", "locales")
	defer os.RemoveAll(dir)
	writeFile(dir, "en.json", `{"nav": {"home": "Home", "about": "About"}, "title": "Welcome"}`)
	writeFile(dir, "de.json", `{"nav": {"home": "Startseite"}}`)
	writeFile(dir, "pt-BR.json", `{"title": "Bem-vindo"}`)

	cat, err := locales.Load(dir, locales.Layout{}) // layout detected: single files, nested keys
	if err != nil {
		fmt.Println(err) // every problem, with file, line and key
		return
	}
	plan, err := locales.NewPlan(ctx, c, project, cat, locales.PlanOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("to create:", len(plan.Create), "keys")
	rep, err := plan.Apply(ctx, c, locales.ApplyOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created:", len(rep.Created), "keys in", rep.Calls["createKeys"], "call")

	again, _ := locales.NewPlan(ctx, c, project, cat, locales.PlanOptions{})
	fmt.Println("second push writes something:", !again.Empty())

	pulled, err := locales.Pull(ctx, c, project, locales.PullOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, _ := os.MkdirTemp("", "pulled")
	defer os.RemoveAll(out)
	pulled.Write(out, cat.Layout)
	b, _ := os.ReadFile(filepath.Join(out, "pt-BR.json"))
	fmt.Print("pt-BR.json: ", string(b))
	// Output:
	// to create: 3 keys
	// created: 3 keys in 1 call
	// second push writes something: false
	// pt-BR.json: {
	//   "title": "Bem-vindo"
	// }
}

// A dry run: the plan alone, as JSON for a CI log or a review.
func ExampleNewPlan() {
	srv := partnertest.NewServer()
	defer srv.Close()
	c, project := exampleClient(srv)
	defer c.Close()

	cat := &locales.Catalog{}
	cat.Set("en", "common", "ok", "OK")
	cat.Set("de", "common", "ok", "OK")
	cat.Set("de", "common", "cancel", "Abbrechen") // not in the source language
	plan, err := locales.NewPlan(context.Background(), c, project, cat, locales.PlanOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	type newKey struct {
		Namespace    string            `json:"namespace"`
		Key          string            `json:"key"`
		Source       string            `json:"source"`
		Translations map[string]string `json:"translations,omitempty"`
	}
	var create []newKey
	for _, k := range plan.Create {
		create = append(create, newKey{k.Namespace, k.Name, k.SourceText, k.Translations})
	}
	b, _ := json.MarshalIndent(struct {
		Create  []newKey       `json:"create"`
		Skipped []locales.Item `json:"skipped"`
	}{create, plan.Skipped}, "", "  ")
	fmt.Println(string(b))
	// Output:
	// {
	//   "create": [
	//     {
	//       "namespace": "common",
	//       "key": "ok",
	//       "source": "OK",
	//       "translations": {
	//         "de": "OK"
	//       }
	//     }
	//   ],
	//   "skipped": [
	//     {
	//       "namespace": "common",
	//       "key": "cancel",
	//       "languages": [
	//         "de"
	//       ],
	//       "reason": "not in the source language en: keys are created from their source text"
	//     }
	//   ]
	// }
}

// Load reports every problem of a tree at once, before anything is sent.
func ExampleLoad() {
	dir, _ := os.MkdirTemp("", "locales")
	defer os.RemoveAll(dir)
	writeFile(dir, "en.json", "{\n  \"title\": \"Welcome\",\n  \"title\": \"Hello\",\n  \"count\": 3\n}\n")
	writeFile(dir, "de.json", "{\n  \"nav\": \"Navigation\",\n  \"nav.home\": \"Startseite\"\n}\n")

	_, err := locales.Load(dir, locales.Layout{})
	fmt.Println(err)
	// Output:
	// locales: 3 problems in 2 files, nothing written:
	// de.json: 1 problem
	// 	de.json:3: key "nav.home" is below "nav" (de.json:2), which is a text: a key cannot be both a text and a parent
	// en.json: 2 problems
	// 	en.json:3: duplicate key "title" in one object
	// 	en.json:4: the value of "count" is a number; want a string or an object
}

// Write lays a catalog out in any of the service's layouts.
func ExampleCatalog_Write() {
	cat := &locales.Catalog{}
	cat.Set("en", "default", "nav.home", "Home")
	cat.Set("en", "common", "ok", "OK")

	dir, _ := os.MkdirTemp("", "locales")
	defer os.RemoveAll(dir)
	cat.Write(dir, locales.Layout{Files: translations.NamespacedFolders, Keys: translations.Flat})
	for _, name := range []string{"en/common.json", "en/default.json"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		fmt.Print(name, ": ", string(b))
	}
	// Output:
	// en/common.json: {
	//   "ok": "OK"
	// }
	// en/default.json: {
	//   "nav.home": "Home"
	// }
}
