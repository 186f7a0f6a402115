package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// initResult is what "partner init --json" prints.
type initResult struct {
	// Config is the path of the file written.
	Config         string                     `json:"config"`
	Project        string                     `json:"project"`
	Preset         string                     `json:"preset"`
	SourceLanguage string                     `json:"sourceLanguage,omitempty"`
	CDN            string                     `json:"cdn,omitempty"`
	FileStructure  translations.FileStructure `json:"fileStructure,omitempty"`
	KeyFormat      translations.KeyFormat     `json:"keyFormat,omitempty"`
	Groups         []groupView                `json:"groups"`
	// Languages are those the tree's files hold.
	Languages []string `json:"languages"`
	// Lacking are the tree's languages the project lacks (the service's
	// spelling): push --add-languages adds them.
	Lacking []string `json:"lacking,omitempty"`
	// unread: the tree's files could not be read (the problems were
	// printed on stderr).
	unread bool
}

// groupView is a file group of partner.yaml.
type groupView struct {
	Translation string `json:"translation"`
	Source      string `json:"source,omitempty"`
	Format      string `json:"format"`
}

// initOptions are what init is asked to do.
type initOptions struct {
	app            *app
	project, dir   string
	force          bool
	languages      map[string]string // --language SPELLING=CODE
	serviceChecked bool              // set when the service was asked about the project
}

func (a *app) initCmd() *cobra.Command {
	opts := &initOptions{app: a}
	cmd := &cobra.Command{
		Use:   "init --project ORG/PROJECT [--dir DIR] [--language SPELLING=CODE]... [--force] [--json]",
		Short: "Detect the locale tree's layout and write partner.yaml",
		Long: `init finds which platform's layout the tree in --dir (default: the current
folder) has (Android, Apple .strings, .xcstrings, Flutter, gettext, Angular
XLIFF, Rails, i18next, Java .properties, Go, the service's JSON) and writes
partner.yaml at its root: the project, its file groups and formats, and, when
a grant is set up, the project's source language, CDN address, file structure
and key format as the service gives them. A tree that matches no preset, or
several, is refused, listing what was found. It prints what it found: the
preset, the groups, the languages the files hold and those the project lacks.

A language the files spell in a way no standard knows (a folder "cn" for
Simplified Chinese) is refused when the tree is read: map it with --language
cn=zh-cn, which init writes into every group (partner.yaml's languages).

The project comes from --project (or PARTNER_PROJECT): init asks nothing. An
existing partner.yaml is kept unless --force is given. The file holds no
secret: commit it. push, pull and status then read it when run in that folder
without --dir.`,
		Example: `  cd app && partner init --project acme/web && partner push --add-languages --dry-run`,
		Args:    usageArgs(cobra.NoArgs),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runInit(cmd.Context(), opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.project, "project", "", "the project, ORG/PROJECT (default $PARTNER_PROJECT)")
	f.StringVar(&opts.dir, "dir", ".", "the locale tree's root, where partner.yaml is written")
	f.BoolVar(&opts.force, "force", false, "overwrite an existing partner.yaml")
	f.StringToStringVar(&opts.languages, "language", nil, "a language as the files spell it and the project's code for it, SPELLING=CODE, for spellings no standard knows (repeatable: --language cn=zh-cn --language tw=zh-tw)")
	cmd.MarkFlagDirname("dir")
	return cmd
}

// runInit runs "partner init".
func runInit(ctx context.Context, opts *initOptions) error {
	a := opts.app
	if err := checkFolder(opts.dir); err != nil {
		return err
	}
	path := filepath.Join(opts.dir, locales.ConfigFile)
	if _, err := os.Lstat(path); err == nil && !opts.force {
		return usageErrorf("%s exists: give --force to overwrite it", path)
	}
	project, err := a.project(opts.project)
	if err != nil {
		return err
	}
	preset, err := formats.Detect(opts.dir)
	if err != nil {
		return err
	}
	cfg := &locales.Config{Project: project, Files: preset.Groups, SourceLanguage: preset.SourceLanguage}
	if len(opts.languages) > 0 {
		for i := range cfg.Files {
			cfg.Files[i].Languages = maps.Clone(opts.languages)
		}
	}
	var known []string // the project's languages, when the service was asked
	if p, cdnRoot, err := opts.serviceProject(ctx, project); err != nil {
		return err
	} else if p != nil {
		cfg.SourceLanguage, cfg.CDN = p.SourceLanguage, cdnRoot
		cfg.FileStructure, cfg.KeyFormat = p.FileStructure(), p.KeyFormat()
		known = append([]string{p.SourceLanguage}, p.Languages...)
	}
	res := &initResult{Config: path, Project: project, Preset: preset.Name, SourceLanguage: cfg.SourceLanguage,
		CDN: cfg.CDN, FileStructure: cfg.FileStructure, KeyFormat: cfg.KeyFormat, Groups: []groupView{}, Languages: []string{}}
	for _, g := range cfg.Files {
		name := "json"
		if g.Format != nil {
			name = formats.Name(g.Format)
		}
		res.Groups = append(res.Groups, groupView{Translation: g.Translation, Source: g.Source, Format: name})
	}
	if cat, err := locales.Load(opts.dir, cfg.Layout()); err != nil {
		// println keeps the error's lines: it lists a problem a line.
		a.errOut.println("partner: init: reading the tree as push will (fix this before pushing): " + err.Error())
		res.unread = true
	} else {
		res.Languages, res.Lacking = treeLanguages(cat, known, opts.serviceChecked)
		for i := range cfg.Files { // the tree's own spellings (zh_CN.lproj), for fresh pulls
			cfg.Files[i].Languages = cat.Layout.Groups[i].Languages
		}
	}
	data, err := cfg.Marshal(formats.ByName())
	if err != nil {
		return err
	}
	if err := writeConfig(path, data, opts.force); err != nil {
		return err
	}
	return a.printResult(res, func() { a.printInit(res) })
}

// serviceProject returns the project as the service describes it, and
// the CDN's address (what cdn.NewClient takes), when a grant is set up;
// without one it says so on stderr and returns nil: the file is written
// without what only the service knows.
func (opts *initOptions) serviceProject(ctx context.Context, project string) (*translations.Project, string, error) {
	a := opts.app
	c, done, err := a.client(ctx)
	var ue *usageError
	if errors.As(err, &ue) {
		a.errOut.printf("partner: init: no grant (%v): the source language, CDN address and the project's file structure and key format are left out; run init again with a grant (--force) to fill them in\n", err)
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer done()
	p, err := c.Translations.GetProject(ctx, project)
	if err != nil {
		return nil, "", err
	}
	opts.serviceChecked = true
	return p, cdnRoot(ctx, c, project, p), nil
}

// cdnRoot returns the CDN's address from the project's folder on it
// (CDN.BaseURL, ".../ORG/PROJECT"), else from listProjects, else "".
func cdnRoot(ctx context.Context, c *partner.Client, project string, p *translations.Project) string {
	if p.CDN == nil {
		return ""
	}
	if root, ok := strings.CutSuffix(strings.TrimRight(p.CDN.BaseURL, "/"), "/"+project); ok {
		return root
	}
	if l, err := c.Translations.ListProjects(ctx); err == nil {
		return l.CDNBaseURL
	}
	return ""
}

// treeLanguages returns the catalog's languages, sorted, and when the
// project's (known) were read, those it lacks in the service's spelling.
func treeLanguages(cat *locales.Catalog, known []string, checked bool) (langs, lacking []string) {
	has := map[string]bool{}
	for _, l := range known {
		has[strings.ToLower(l)] = true
	}
	langs = []string{}
	for m := range cat.All() {
		if slices.Contains(langs, m.Language) {
			continue
		}
		langs = append(langs, m.Language)
		code, err := serviceLanguage(m.Language)
		if err != nil {
			code = strings.ToLower(m.Language)
		}
		if checked && !has[code] && !has[strings.ToLower(m.Language)] {
			lacking = append(lacking, code)
		}
	}
	slices.Sort(langs)
	return langs, lacking
}

// writeConfig writes partner.yaml: a new file, unless force.
func writeConfig(path string, data []byte, force bool) error {
	flag := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if force {
		flag = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return usageErrorf("%s exists: give --force to overwrite it", path)
	}
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

func (a *app) printInit(r *initResult) {
	a.out.printf("wrote %s: project %s, preset %s\n", r.Config, r.Project, r.Preset)
	for _, g := range r.Groups {
		if g.Source != "" {
			a.out.printf("  %s files: %s (source: %s)\n", g.Format, g.Translation, g.Source)
		} else {
			a.out.printf("  %s files: %s\n", g.Format, g.Translation)
		}
	}
	if r.SourceLanguage != "" {
		a.out.printf("  source language %s; the project's files: %s, %s keys\n", r.SourceLanguage, layoutName(r.FileStructure), r.KeyFormat)
	}
	if r.CDN != "" {
		a.out.printf("  CDN %s\n", r.CDN)
	}
	if r.unread {
		a.out.println("  languages in the tree: not read (see the problems above)")
	} else {
		a.out.printf("  languages in the tree: %s\n", strings.Join(r.Languages, ", "))
	}
	if len(r.Lacking) > 0 {
		a.out.printf("  the project lacks %s: `partner push --add-languages` adds them (or `partner languages add --project %s %s`)\n",
			strings.Join(r.Lacking, ", "), r.Project, strings.Join(r.Lacking, " "))
	}
}
