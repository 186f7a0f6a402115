// Command locales pushes a directory of JSON locale files to a project,
// publishes them, waits for the deploy, and pulls the project back: from
// the API (every text) and from the public CDN (what was published, no
// token), checking that both trees equal the one pushed, byte for byte.
//
// With no configuration it runs against partnertest, the SDK's
// in-process fake of the service, on a sample tree it writes to a
// temporary directory, and says so. To use a real service, set all of
//
//	PARTNER_BASE_URL PARTNER_AUTH_URL PARTNER_MCP_URL PARTNER_CLIENT_ID
//	PARTNER_CLIENT_SECRET PARTNER_REFRESH_TOKEN PARTNER_GRANT_ID
//	PARTNER_PROJECT (org/project) LOCALES_DIR (the tree to push)
//
// The grant needs keys:write, translations:write and, to publish,
// translations:publish. Set LOCALES_PUBLISH=0 to push without
// publishing.
//
//	go run ./examples/locales
package main

import (
	"context"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/partnertest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Getenv, os.Stdout))
}

var required = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_MCP_URL", "PARTNER_CLIENT_ID",
	"PARTNER_CLIENT_SECRET", "PARTNER_REFRESH_TOKEN", "PARTNER_GRANT_ID", "PARTNER_PROJECT", "LOCALES_DIR",
}

// sample is the tree pushed to the fake: two namespaces in folders, keys
// nested, and a language with a region (pt-BR on disk, pt-br to the
// service).
var sample = map[string]string{
	"en/default.json":    `{"nav": {"home": "Home", "pricing": "Pricing"}, "title": "Welcome"}`,
	"en/common.json":     `{"ok": "OK", "errors": {"notFound": "Not found"}}`,
	"de/default.json":    `{"nav": {"home": "Startseite", "pricing": "Preise"}, "title": "Willkommen"}`,
	"de/common.json":     `{"ok": "OK"}`,
	"pt-BR/default.json": `{"nav": {"home": "Início"}}`,
}

// run is the program; it returns the exit code: 0 on success, 1 when
// the push or a pull failed, 2 for a bad configuration.
func run(ctx context.Context, getenv func(string) string, out io.Writer) int {
	var missing []string
	for _, k := range required {
		if getenv(k) == "" {
			missing = append(missing, k)
		}
	}
	var (
		cfg     partner.Config
		project string
		dir     string
		fake    *partnertest.Server
	)
	switch len(missing) {
	case 0:
		cfg = partner.Config{
			BaseURL: getenv("PARTNER_BASE_URL"), AuthURL: getenv("PARTNER_AUTH_URL"), MCPURL: getenv("PARTNER_MCP_URL"),
			ClientID: getenv("PARTNER_CLIENT_ID"), ClientSecret: getenv("PARTNER_CLIENT_SECRET"),
			GrantID: getenv("PARTNER_GRANT_ID"), Token: &oauth2.Token{RefreshToken: getenv("PARTNER_REFRESH_TOKEN")},
		}
		project, dir = getenv("PARTNER_PROJECT"), getenv("LOCALES_DIR")
		fmt.Fprintf(out, "Pushing %s to %s at %s\n", dir, project, cfg.MCPURL)
	case len(required):
		fake = partnertest.NewServer()
		defer fake.Close()
		g := fake.NewGrant()
		p := fake.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en",
			TargetLanguages: []partnertest.Language{{Code: "de"}, {Code: "pt-br"}}})
		fake.SetProjectLayout(p.ID, translations.NamespacedFolders, translations.Nested)
		cfg = partner.Config{
			BaseURL: fake.URL, AuthURL: fake.AuthURL, MCPURL: fake.MCPURL,
			ClientID: fake.ClientID(), ClientSecret: fake.ClientSecret(),
			GrantID: g.ID, Token: &oauth2.Token{RefreshToken: g.RefreshToken},
		}
		project = g.Organizations[0].Slug + "/web"
		tmp, err := os.MkdirTemp("", "locales-example")
		if err != nil {
			fmt.Fprintf(out, "locales: %v\n", err)
			return 1
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "pushed")
		if err := writeSample(dir); err != nil {
			fmt.Fprintf(out, "locales: %v\n", err)
			return 1
		}
		fmt.Fprintln(out, "No PARTNER_* settings: using the built-in fake service (partnertest) and a sample tree.")
	default:
		fmt.Fprintf(out, "locales: missing settings: %s (set all of them, or none to use the fake service)\n", strings.Join(missing, ", "))
		return 2
	}
	c, err := partner.NewClient(cfg)
	if err != nil {
		fmt.Fprintf(out, "locales: %v\n", err)
		return 2
	}
	defer c.Close()
	if err := work(ctx, c, project, dir, getenv("LOCALES_PUBLISH") != "0", out); err != nil {
		fmt.Fprintf(out, "locales: %v\n", err)
		return 1
	}
	fmt.Fprintln(out, "Done.")
	return 0
}

func writeSample(dir string) error {
	for name, data := range sample {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			return err
		}
	}
	// Lay the sample out as the library writes new files: sorted,
	// indented (written over, a file keeps its own layout).
	cat, err := locales.Load(dir, locales.Layout{})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return cat.Write(dir, cat.Layout)
}

func work(ctx context.Context, c *partner.Client, project, dir string, publish bool, out io.Writer) error {
	cat, err := locales.Load(dir, locales.Layout{})
	if err != nil {
		return err // *locales.InputError: every problem, with file, line and key
	}
	texts, langs := count(cat)
	fmt.Fprintf(out, "Read %d texts in %s from %s (%s, %s keys)\n", texts, strings.Join(langs, ", "), dir, cat.Layout.Files, cat.Layout.Keys)

	plan, err := locales.NewPlan(ctx, c, project, cat, locales.PlanOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "Plan: create %d keys, update %d, delete %d, skip %d\n", len(plan.Create), len(plan.Update), len(plan.Delete), len(plan.Skipped))
	for _, s := range plan.Skipped {
		fmt.Fprintf(out, "  skip %s/%s (%s): %s\n", s.Namespace, s.Key, strings.Join(s.Languages, ", "), s.Reason)
	}
	var last locales.Step
	rep, err := plan.Apply(ctx, c, locales.ApplyOptions{Publish: publish, OnProgress: func(p locales.Progress) {
		if p.Step != last { // one line a step
			fmt.Fprintf(out, "  %s…\n", p.Step)
			last = p.Step
		}
	}})
	if err != nil {
		for _, f := range rep.Failed {
			fmt.Fprintf(out, "  not written: %s/%s (%s): %s\n", f.Namespace, f.Key, strings.Join(f.Languages, ", "), f.Reason)
		}
		return err
	}
	fmt.Fprintf(out, "Pushed: %d keys created, %d updated, in %d calls\n", len(rep.Created), len(rep.Updated), total(rep.Calls))
	if rep.Published != nil {
		for _, s := range rep.Published.Syncs {
			fmt.Fprintf(out, "Published %d texts: sync job %s %s\n", rep.Published.Published, s.ID, s.Status)
		}
	}

	again, err := locales.NewPlan(ctx, c, project, cat, locales.PlanOptions{})
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "A second push would write nothing: %v\n", again.Empty())

	sources := []struct {
		name string
		opt  locales.PullOptions
	}{{"API", locales.PullOptions{}}}
	if publish {
		sources = append(sources, struct {
			name string
			opt  locales.PullOptions
		}{"CDN", locales.PullOptions{FromCDN: true}})
	}
	for _, src := range sources {
		pulled, err := locales.Pull(ctx, c, project, src.opt)
		if err != nil {
			return err
		}
		to, err := os.MkdirTemp("", "locales-pulled")
		if err != nil {
			return err
		}
		defer os.RemoveAll(to)
		if err := pulled.Write(to, cat.Layout); err != nil {
			return err
		}
		diff, err := differ(dir, to)
		if err != nil {
			return err
		}
		if len(diff) > 0 {
			return fmt.Errorf("the tree pulled from the %s differs: %s", src.name, strings.Join(diff, ", "))
		}
		texts, _ := count(pulled)
		fmt.Fprintf(out, "Pulled from the %s: %d texts, the same files byte for byte\n", src.name, texts)
	}
	return nil
}

func total(calls map[string]int) int {
	n := 0
	for _, c := range calls {
		n += c
	}
	return n
}

// differ returns the files that differ between two trees.
func differ(a, b string) ([]string, error) {
	read := func(root string) (map[string]string, error) {
		files := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			files[filepath.ToSlash(rel)] = string(data)
			return err
		})
		return files, err
	}
	fa, err := read(a)
	if err != nil {
		return nil, err
	}
	fb, err := read(b)
	if err != nil {
		return nil, err
	}
	var out []string
	for name, data := range fa {
		if fb[name] != data {
			out = append(out, name)
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// count returns the number of texts of cat and their languages, sorted.
func count(cat *locales.Catalog) (texts int, languages []string) {
	for m := range cat.All() {
		texts++
		if !slices.Contains(languages, m.Language) {
			languages = append(languages, m.Language) // All sorts by language
		}
	}
	return texts, languages
}
