package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/cdn"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/locales/formats"
	"github.com/locsvc/partner-go/translations"
)

// layoutFlags are the flags push and pull share to say how a tree is laid
// out, and the partner.yaml they read it from.
type layoutFlags struct {
	project, dir, format, files, keys string
	// config is --config: the partner.yaml to read ("": the current
	// folder's, when --dir is not given).
	config string
	// cfg is the partner.yaml read, or nil.
	cfg *locales.Config
}

func (f *layoutFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.project, "project", "", "the project, ORG/PROJECT (default: partner.yaml's, else $PARTNER_PROJECT)")
	fl.StringVar(&f.dir, "dir", "", "the locale tree's folder (default: the folder of partner.yaml, read from the current folder or --config)")
	fl.StringVar(&f.config, "config", "", "the partner.yaml to read (default: ./"+locales.ConfigFile+" when --dir is not given); the tree's root is its folder")
	fl.StringVar(&f.format, "format", "", "the files' format: "+strings.Join(formatNames(), ", ")+"; default: partner.yaml's, else detected from the files (push), json (pull)")
	fl.StringVar(&f.files, "layout", "", "single (DIR/LANG.json) or namespaced (DIR/LANG/NAMESPACE.json); default: detected (push) or the project's (pull)")
	fl.StringVar(&f.keys, "keys", "", "flat ({\"a.b\": ...}) or nested ({\"a\": {\"b\": ...}}); default: partner.yaml's, else detected (push) or the project's (pull)")
	cmd.RegisterFlagCompletionFunc("layout", cobra.FixedCompletions([]string{"single", "namespaced"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.RegisterFlagCompletionFunc("keys", cobra.FixedCompletions([]string{"flat", "nested"}, cobra.ShellCompDirectiveNoFileComp))
	cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formatNames(), cobra.ShellCompDirectiveNoFileComp))
	cmd.MarkFlagDirname("dir")
	cmd.MarkFlagFilename("config", "yaml", "yml")
}

// formatNames are formats.ByName's names, in formats.All()'s order.
func formatNames() []string {
	var names []string
	for _, f := range formats.All() {
		if n := formats.Name(f); n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	return names
}

// fileFormat returns the format --format names. Without one, a tree that
// has files is taken to be in the one format its files have (a tree mixing
// formats is refused: choose one with --format), and a missing or empty
// folder is JSON.
func (f *layoutFlags) fileFormat() (locales.Format, error) {
	if f.format == "" {
		if entries, err := os.ReadDir(f.dir); err != nil || len(entries) == 0 {
			return locales.JSON{}, nil
		}
		ff, err := formats.DetectFormat(f.dir, formats.All())
		if err != nil {
			return nil, usageErrorf("%v; or choose the format with --format", err)
		}
		return ff, nil
	}
	return f.namedFormat()
}

// namedFormat returns the format --format names.
func (f *layoutFlags) namedFormat() (locales.Format, error) {
	if ff := formats.ByName()[f.format]; ff != nil {
		return ff, nil
	}
	return nil, usageErrorf("--format %q: want one of %s", f.format, strings.Join(formatNames(), ", "))
}

// target returns the layout and the project: those of partner.yaml (see
// fromConfig) when --dir is not given or --config is, else those the
// flags (or, for the project, the environment) name.
func (f *layoutFlags) target(a *app) (locales.Layout, string, error) {
	if f.dir == "" || f.config != "" {
		return f.fromConfig(a)
	}
	layout, err := f.layout()
	if err != nil {
		return layout, "", err
	}
	project, err := a.project(f.project)
	return layout, project, err
}

// layout returns the layout the flags name; empty fields are detected or
// the project's.
func (f *layoutFlags) layout() (locales.Layout, error) {
	var l locales.Layout
	if f.dir == "" {
		return l, usageErrorf("--dir is required: the folder of the locale files")
	}
	var err error
	if l.Format, err = f.fileFormat(); err != nil {
		return l, err
	}
	switch f.files {
	case "":
	case "single":
		l.Files = translations.SingleFile
	case "namespaced":
		l.Files = translations.NamespacedFolders
	default:
		return l, usageErrorf("--layout %q: want single or namespaced", f.files)
	}
	l.Keys, err = f.keyFormat()
	return l, err
}

// keyFormat returns the key format --keys names, or "".
func (f *layoutFlags) keyFormat() (translations.KeyFormat, error) {
	switch f.keys {
	case "":
		return "", nil
	case "flat":
		return translations.Flat, nil
	case "nested":
		return translations.Nested, nil
	}
	return "", usageErrorf("--keys %q: want flat or nested", f.keys)
}

// checkFolder returns a usage error unless dir is a folder, naming it as
// given: "does-not-exist: no such folder".
func checkFolder(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usageErrorf("%s: no such folder", dir)
	case err != nil:
		return usageErrorf("%s: %v", dir, errors.Unwrap(err))
	case !fi.IsDir():
		return usageErrorf("%s is a file, not a folder", dir)
	}
	return nil
}

// pushOptions are what push is asked to do: its flags, and the app it
// runs in.
type pushOptions struct {
	app *app
	layoutFlags
	dryRun, deleteMissing, publish, wait bool
	// addLanguages is --add-languages: add the languages the tree has and
	// the project lacks before planning.
	addLanguages bool
}

func (a *app) pushCmd() *cobra.Command {
	opts := &pushOptions{app: a}
	cmd := &cobra.Command{
		Use:   "push --project ORG/PROJECT --dir DIR [--format F] [--layout single|namespaced] [--keys flat|nested] [--dry-run] [--delete-missing] [--publish] [--wait] [--json]",
		Short: "Send a tree of locale files to the project: only what differs",
		Long: `push reads the locale tree in --dir, compares it with the project and writes
only what differs: keys to create (from their source-language text), source
texts and translations to change, and with --delete-missing the keys of the
tree's namespaces that the source language's files lack (refused when that is
more than a tenth of the project's keys). Bad files are refused before anything
is written, naming the file, line and key of every problem.

Without --dir it reads partner.yaml in the current folder (or --config FILE):
the project, the file groups and their formats; the tree's root is the file's
folder, and --project, --format and --keys override it.

A tree with languages the project lacks is refused before anything is written,
naming them; --add-languages adds them first (proposeLanguages: the translation
tools' token, no projects:write scope needed), as "partner languages add" does.

--dry-run prints the plan and writes nothing. --publish publishes the project
once every write succeeded and waits until the sync jobs that ship it end (it
waits out the service's cooldown); --wait also fails the push (exit 4) unless
every one of those jobs completed. A push that stopped half way (exit 4) is completed by
running it again.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runPush(cmd.Context(), opts) },
	}
	opts.layoutFlags.add(cmd)
	f := cmd.Flags()
	f.BoolVar(&opts.dryRun, "dry-run", false, "print what the push would do, and write nothing")
	f.BoolVar(&opts.deleteMissing, "delete-missing", false, "delete the keys of the tree's namespaces that its source-language files lack")
	f.BoolVar(&opts.publish, "publish", false, "publish the project once every write succeeded")
	f.BoolVar(&opts.wait, "wait", false, "with --publish, fail (exit 4) unless every sync job of the publish completed")
	f.BoolVar(&opts.addLanguages, "add-languages", false, "add the languages the tree has and the project lacks (proposeLanguages) before pushing")
	return cmd
}

// runPush runs "partner push": it plans the push, and prints the plan
// (--dry-run) or applies it and prints the report.
func runPush(ctx context.Context, opts *pushOptions) error {
	a := opts.app
	layout, project, err := opts.target(a)
	if err != nil {
		return err
	}
	if opts.wait && !opts.publish {
		return usageErrorf("--wait waits for the publish: give --publish too")
	}
	if err := checkFolder(opts.dir); err != nil {
		return err
	}
	cat, err := locales.Load(opts.dir, layout)
	if err != nil {
		return err
	}
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	popt := locales.PlanOptions{Delete: opts.deleteMissing}
	added, err := opts.projectLanguages(ctx, c, project, cat, &popt)
	if err != nil {
		return err
	}
	report, finish := a.progress()
	popt.OnProgress = report
	plan, err := locales.NewPlan(ctx, c, project, cat, popt)
	finish()
	if errors.Is(err, locales.ErrMassDelete) {
		return fmt.Errorf("%w: delete fewer keys at a time, or in the service's dashboard", err)
	}
	if err != nil {
		return err
	}
	if opts.dryRun {
		if a.json {
			v := planJSON(plan)
			v.AddLanguages = added
			return a.printJSON(v)
		}
		if len(added) > 0 {
			a.out.printf("%s: would add languages %s, and push their texts once added\n", project, strings.Join(added, ", "))
		}
		a.printPlan(plan)
		return nil
	}
	report, finish = a.progress()
	rep, err := plan.Apply(ctx, c, locales.ApplyOptions{Publish: opts.publish, OnProgress: report})
	finish()
	if rep == nil {
		return err
	}
	v := reportJSON(rep)
	v.AddedLanguages = added
	if perr := a.printResult(v, func() {
		if len(added) > 0 {
			a.out.printf("%s: added languages %s\n", project, strings.Join(added, ", "))
		}
		a.printReport(rep)
	}); perr != nil {
		return perr
	}
	return pushOutcome(rep, err, opts.wait)
}

// projectLanguages compares the tree's languages with the project's.
// When the project lacks some, it refuses the push (a *languagesError)
// unless --add-languages is given; then it adds them, and returns them
// (the service's spelling). A dry run adds nothing: it plans the
// languages the project has, and returns those it would add.
func (opts *pushOptions) projectLanguages(ctx context.Context, c *partner.Client, project string, cat *locales.Catalog, popt *locales.PlanOptions) ([]string, error) {
	p, err := c.Translations.GetProject(ctx, project)
	if err != nil {
		return nil, fmt.Errorf("project %s: %w", project, err)
	}
	has := map[string]bool{strings.ToLower(p.SourceLanguage): true}
	for _, l := range p.Languages {
		has[strings.ToLower(l)] = true
	}
	var lacking, kept []string
	seen := map[string]bool{}
	for m := range cat.All() {
		if seen[m.Language] {
			continue
		}
		seen[m.Language] = true
		code, err := serviceLanguage(m.Language)
		if err != nil {
			code = strings.ToLower(m.Language) // the plan names it
		}
		if has[code] || has[strings.ToLower(m.Language)] {
			kept = append(kept, m.Language)
		} else if !slices.Contains(lacking, code) {
			lacking = append(lacking, code)
		}
	}
	switch {
	case len(lacking) == 0:
		return nil, nil
	case !opts.addLanguages:
		return nil, newLanguagesError(project, lacking)
	case opts.dryRun:
		popt.Languages = kept
		return lacking, nil
	}
	res, err := addLanguages(ctx, c, project, lacking)
	if err != nil {
		return nil, err
	}
	return res.Added, nil
}

// languagesError refuses a push of languages the project lacks, naming
// them and the commands that add them. It wraps a *locales.InputError
// (a problem per language), as the library's own refusals of input do.
type languagesError struct {
	project string
	lacking []string
	input   *locales.InputError
}

func newLanguagesError(project string, lacking []string) error {
	e := &languagesError{project: project, lacking: lacking, input: &locales.InputError{}}
	for _, l := range lacking {
		e.input.Problems = append(e.input.Problems, locales.Problem{Language: l,
			Message: fmt.Sprintf("project %s has no language %s, which the tree has", project, l)})
	}
	return e
}

func (e *languagesError) Error() string {
	return fmt.Sprintf("project %s lacks languages the tree has: %s; nothing written. Add them with `partner languages add --project %s %s`, or push with --add-languages",
		e.project, strings.Join(e.lacking, ", "), e.project, strings.Join(e.lacking, " "))
}

func (e *languagesError) Unwrap() error { return e.input }

// pushOutcome is the error a push exits with: nil when everything was
// written (and, with wait, every sync job completed); a partialError when
// some texts failed and others were written, or some are not confirmed
// (the service may have written them: a push run again finds out); and
// err otherwise.
func pushOutcome(rep *locales.Report, err error, wait bool) error {
	done := len(rep.Created) + len(rep.Updated) + len(rep.Deleted)
	if len(rep.NotConfirmed) > 0 || len(rep.Failed) > 0 && done > 0 {
		return &partialError{failed: len(rep.Failed), notConfirmed: len(rep.NotConfirmed), total: len(rep.Failed) + len(rep.NotConfirmed) + done}
	}
	if err != nil {
		return err
	}
	if len(rep.Failed) > 0 {
		return fmt.Errorf("no text was written (%d failed): see the report", len(rep.Failed))
	}
	if !wait || rep.Published == nil {
		return nil
	}
	var syncs []syncResult
	for i := range rep.Published.Syncs {
		syncs = append(syncs, newSyncResult(&rep.Published.Syncs[i]))
	}
	return syncOutcome(syncs)
}

func (a *app) printPlan(p *locales.Plan) {
	var create, update, del, unescaped, untranslated int
	for _, c := range p.Counts {
		create += c.Created
		update += c.Updated
		del += c.Deleted
		unescaped += c.Unescaped
		untranslated += c.Untranslated
	}
	if p.Empty() {
		a.out.printf("%s: up to date, nothing to push (%d keys listed)\n", p.Project, p.Listed)
	} else {
		a.out.printf("%s: would create %d keys, write %d texts to existing keys and delete %d keys (%d texts created)\n",
			p.Project, len(p.Create), update, len(p.Delete), create)
	}
	if unescaped > 0 {
		a.out.printf("  %d of the texts written differ from the service's only in escapes (pushed before texts were read unescaped): stored once as a translator reads them\n", unescaped)
	}
	if untranslated > 0 {
		a.out.printf("  %d texts the files mark not translated yet are not sent\n", untranslated)
	}
	a.printItems("skipped", p.Skipped)
}

func (a *app) printReport(r *locales.Report) {
	a.out.printf("%s: %d keys created, %d updated, %d deleted, %d skipped, %d failed, %d not confirmed\n",
		r.Project, len(r.Created), len(r.Updated), len(r.Deleted), len(r.Skipped), len(r.Failed), len(r.NotConfirmed))
	a.printItems("skipped", r.Skipped)
	a.printItems("failed", r.Failed)
	a.printItems("not confirmed", r.NotConfirmed)
	if p := r.Published; p != nil {
		a.out.printf("published %d texts\n", p.Published)
		for _, s := range p.Syncs {
			a.out.printf("  sync %s %s %s\n", s.ID, s.Status, s.Error)
		}
	}
}

// printItems prints up to 20 items of a list, with their reasons. Every
// field comes from the tree or the service, and is printed as a field.
func (a *app) printItems(what string, items []locales.Item) {
	const most = 20
	for i, it := range items {
		if i == most {
			a.out.printf("  ... and %d more %s (--json lists them all)\n", len(items)-most, what)
			break
		}
		a.out.printf("  %s %s:%s [%s]: %s\n", what, it.Namespace, it.Key, strings.Join(it.Languages, ","), it.Reason)
	}
}

// pullResult is what "partner pull --json" prints.
type pullResult struct {
	Project string `json:"project"`
	Dir     string `json:"dir"`
	// From is "api" or "cdn".
	From string `json:"from"`
	// Layout is how the files were written.
	Layout    locales.Layout `json:"layout"`
	Languages []string       `json:"languages"`
	// Texts is the number of texts written.
	Texts int `json:"texts"`
}

// pullOptions are what pull is asked to do: its flags, and the app it
// runs in.
type pullOptions struct {
	app *app
	layoutFlags
	languages, namespaces []string
	from                  string
	cdnURL, source        string
}

func (a *app) pullCmd() *cobra.Command {
	opts := &pullOptions{app: a}
	cmd := &cobra.Command{
		Use:   "pull --project ORG/PROJECT --dir DIR [--format F] [--layout ...] [--keys ...] [--languages de,fr] [--namespaces a,b] [--from api|cdn [--cdn-url URL --source-language en]] [--json]",
		Short: "Write the project's texts into a tree of locale files",
		Long: `pull reads the project's texts and writes them under --dir, in the project's
layout unless --layout or --keys say otherwise. --from api (the default) reads
every text whatever its status, with the grant's token; --from cdn reads the
published files from the project's CDN. With a grant (PARTNER_CLIENT_ID set)
and no --cdn-url, --from cdn asks the service where the CDN files are and
what the project's languages and layout are; otherwise it needs no grant,
client id, secret or token: it reads the CDN at --cdn-url (default
$PARTNER_CDN_URL), with the source language from --source-language, the
languages, namespaces and file structure from the CDN's manifest unless
--languages, --namespaces and --layout say them, and nested keys unless
--keys says flat. Files are written stable (sorted,
two-space indentation): a pull followed by a push changes nothing. Files whose
content would not change are not touched, and files of other languages and
namespaces are left alone.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runPull(cmd.Context(), opts) },
	}
	opts.layoutFlags.add(cmd)
	cmd.Flags().StringSliceVar(&opts.languages, "languages", nil, "only these languages, comma-separated (default: all of the project's)")
	cmd.Flags().StringSliceVar(&opts.namespaces, "namespaces", nil, "only these namespaces, comma-separated (default: all of the project's)")
	cmd.Flags().StringVar(&opts.from, "from", "api", "api (every text, with the grant's token) or cdn (the published files)")
	cmd.Flags().StringVar(&opts.cdnURL, "cdn-url", "", "with --from cdn: the CDN's address, read without a grant (default $PARTNER_CDN_URL when no grant is set)")
	cmd.Flags().StringVar(&opts.source, "source-language", "", "with --from cdn without a grant: the project's source language (required there)")
	cmd.RegisterFlagCompletionFunc("from", cobra.FixedCompletions([]string{"api", "cdn"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// runPull runs "partner pull": it reads the project's texts and writes
// them under the folder.
func runPull(ctx context.Context, opts *pullOptions) error {
	a := opts.app
	layout, project, err := opts.target(a)
	if err != nil {
		return err
	}
	if opts.from != "api" && opts.from != "cdn" {
		return usageErrorf("--from %q: want api or cdn", opts.from)
	}
	if fi, err := os.Stat(opts.dir); err == nil && !fi.IsDir() {
		return usageErrorf("--dir %s is a file, not a folder", opts.dir)
	}
	popt := locales.PullOptions{FromCDN: opts.from == "cdn", Languages: opts.languages, Namespaces: opts.namespaces}
	var c *partner.Client
	if popt.FromCDN && (opts.cdnURL != "" || a.env("PARTNER_CLIENT_ID") == "") {
		if popt.CDN, err = opts.cdnClient(a); err != nil {
			return err
		}
		popt.SourceLanguage, popt.Layout = opts.sourceLanguage(), layout
	} else {
		if opts.cdnURL != "" || opts.source != "" {
			return usageErrorf("--cdn-url and --source-language go with --from cdn")
		}
		var done func()
		if c, done, err = a.client(ctx); err != nil {
			return err
		}
		defer done()
	}
	report, finish := a.progress()
	popt.OnProgress = report
	cat, err := locales.Pull(ctx, c, project, popt)
	finish()
	if c == nil && errors.Is(err, partner.ErrInvalidArgument) {
		return usageErrorf("pull --from cdn without a grant: %v; say it with --languages, --namespaces or --layout", err)
	}
	if err != nil {
		return err
	}
	if layout.Files == "" {
		layout.Files = cat.Layout.Files
	}
	if layout.Keys == "" {
		layout.Keys = cat.Layout.Keys
	}
	if err := opts.sameStructure(layout); err != nil {
		return err
	}
	if err := cat.Write(opts.dir, layout); err != nil {
		return err
	}
	res := pullResult{Project: project, Dir: opts.dir, From: opts.from, Layout: layout, Languages: []string{}}
	for m := range cat.All() {
		res.Texts++
		if !slices.Contains(res.Languages, m.Language) {
			res.Languages = append(res.Languages, m.Language) // All sorts by language
		}
	}
	if a.json {
		return a.printJSON(res)
	}
	if len(layout.Groups) > 0 {
		a.out.printf("%s: wrote %d texts in %s to %s (the file groups of %s)\n", project, res.Texts,
			strings.Join(res.Languages, ", "), opts.dir, locales.ConfigFile)
		return nil
	}
	a.out.printf("%s: wrote %d texts in %s to %s (%s, %s keys)\n", project, res.Texts,
		strings.Join(res.Languages, ", "), opts.dir, layoutName(layout.Files), layout.Keys)
	return nil
}

// cdnClient returns the client of the CDN at --cdn-url, else
// PARTNER_CDN_URL, for a pull without a grant, which needs
// --source-language.
func (opts *pullOptions) cdnClient(a *app) (*cdn.Client, error) {
	u := opts.cdnURL
	if u == "" && opts.cfg != nil {
		u = opts.cfg.CDN
	}
	if u == "" {
		u = a.env("PARTNER_CDN_URL")
	}
	if u == "" {
		return nil, usageErrorf("pull --from cdn without a grant needs the CDN's address: give --cdn-url or set PARTNER_CDN_URL (or set up a grant: PARTNER_CLIENT_ID and the rest)")
	}
	if opts.sourceLanguage() == "" {
		return nil, usageErrorf("pull --from cdn without a grant needs the project's source language: give --source-language")
	}
	cc, err := cdn.NewClient(u, a.httpClient)
	if err != nil {
		return nil, usageErrorf("the CDN's address %q: want an http or https URL of a host", u)
	}
	return cc, nil
}

// sourceLanguage is --source-language, else partner.yaml's.
func (opts *pullOptions) sourceLanguage() string {
	if opts.source == "" && opts.cfg != nil {
		return opts.cfg.SourceLanguage
	}
	return opts.source
}

// sameStructure refuses, before anything is written, a pull in single
// files into a tree of namespaced folders or the other way round, naming
// both, the file that shows the tree's, and where the pull's came from.
// File groups (partner.yaml) say their own paths, and a format whose
// files hold every language has no file structure: neither is checked.
func (opts *pullOptions) sameStructure(layout locales.Layout) error {
	format := cmp.Or[locales.Format](layout.Format, locales.JSON{})
	if len(layout.Groups) > 0 || isMultilingual(format) {
		return nil
	}
	names, err := locales.ListFiles(opts.dir)
	if err != nil {
		return nil // a missing tree has no layout; Write says what else is wrong
	}
	pulled := cmp.Or(layout.Files, translations.SingleFile)
	for _, n := range names {
		depth := strings.Count(n, "/")
		if depth > 1 || !strings.HasSuffix(n, format.Ext()) || (depth == 1) == (pulled == translations.NamespacedFolders) {
			continue
		}
		tree := translations.SingleFile
		if depth == 1 {
			tree = translations.NamespacedFolders
		}
		from := "the project's layout"
		if opts.files != "" {
			from = "--layout " + opts.files
		}
		return usageErrorf("%s is laid out in %s (%s) and this pull writes %s (%s): give --layout %s to pull into it, or pull into an empty folder; nothing written",
			opts.dir, structureWords(tree), n, structureWords(pulled), from, layoutName(tree))
	}
	return nil
}

// isMultilingual reports whether f's files hold every language of a
// namespace (.xcstrings), as locales.Format's doc says such a format
// shows it.
func isMultilingual(f locales.Format) bool {
	_, ok := f.(interface{ DefaultName() string })
	return ok
}

// structureWords names a file structure in a message.
func structureWords(fs translations.FileStructure) string {
	if fs == translations.NamespacedFolders {
		return "namespaced folders"
	}
	return "single files"
}

// layoutName returns the --layout name of a file structure.
func layoutName(fs translations.FileStructure) string {
	if fs == translations.NamespacedFolders {
		return "namespaced"
	}
	return "single"
}
