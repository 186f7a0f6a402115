package main

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/text/language"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/translations"
)

// androidRegion matches Android's resource qualifier with a region:
// "pt-rBR", "es-r419".
var androidRegion = regexp.MustCompile(`^([A-Za-z]{2,3})-r([A-Za-z]{2}|[0-9]{3})$`)

// serviceLanguage returns a language code as the service spells it
// (BCP 47, lower case: "pt-br", "zh-hans", "sr-latn"), from the
// service's spelling or a platform's: BCP 47 in any case (pt-BR,
// zh-Hans), with '_' (gettext's and Java's pt_BR; gettext's sr@latin),
// or Android's resource qualifier (pt-rBR, b+sr+Latn). It is parsed
// with golang.org/x/text/language, without replacing deprecated codes
// (iw stays iw: the project may have it so).
func serviceLanguage(code string) (string, error) {
	s := strings.TrimSpace(code)
	if rest, ok := strings.CutPrefix(s, "b+"); ok {
		s = strings.ReplaceAll(rest, "+", "-")
	} else if m := androidRegion.FindStringSubmatch(s); m != nil {
		s = m[1] + "-" + m[2]
	}
	s, modifier, _ := strings.Cut(s, "@")
	s = strings.ReplaceAll(s, "_", "-")
	tag, err := language.Raw.Parse(s)
	if err != nil || tag == language.Und {
		return "", fmt.Errorf("%q is not a language code: want BCP 47 (pt-BR, zh-Hans), pt_BR, or Android's pt-rBR or b+sr+Latn", code)
	}
	switch strings.ToLower(modifier) {
	case "":
	case "latin", "cyrillic":
		script := language.MustParseScript("Latn")
		if strings.EqualFold(modifier, "cyrillic") {
			script = language.MustParseScript("Cyrl")
		}
		base, _ := tag.Base()
		parts := []any{base, script}
		if region, conf := tag.Region(); conf == language.Exact { // not a guess
			parts = append(parts, region)
		}
		if tag, err = language.Raw.Compose(parts...); err != nil {
			return "", fmt.Errorf("%q is not a language code: %v", code, err)
		}
	default:
		return "", fmt.Errorf("%q is not a language code: the modifier @%s names no script (@latin, @cyrillic)", code, modifier)
	}
	out := strings.ToLower(tag.String())
	if len(out) > 10 {
		return "", fmt.Errorf("%q is not a language code the service takes: %s is longer than 10 characters", code, out)
	}
	return out, nil
}

// serviceLanguages returns codes in the service's spelling, each once,
// in their order, or a usage error naming every code that is none.
func serviceLanguages(codes []string) ([]string, error) {
	var out, bad []string
	for _, c := range codes {
		l, err := serviceLanguage(c)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	if bad != nil {
		return nil, usageErrorf("%s", strings.Join(bad, "; "))
	}
	return out, nil
}

// languagesResult is what "partner languages list --json" prints.
type languagesResult struct {
	Project   string         `json:"project"`
	Languages []languageView `json:"languages"`
}

// languageView is one of a project's languages: the source language
// first, then the targets by code, with how far each is translated.
type languageView struct {
	Code       string `json:"code"`
	Source     bool   `json:"source"`
	Translated int    `json:"translated"`
	Percent    int    `json:"percent"`
}

// addLanguagesResult is what "partner languages add --json" prints.
type addLanguagesResult struct {
	Project string `json:"project"`
	// Added and Skipped are codes as the service spells them; Skipped are
	// those the project had (as source or target).
	Added   []string `json:"added"`
	Skipped []string `json:"skipped"`
}

// languagesOptions are what "languages list" and "languages add" are
// asked to do.
type languagesOptions struct {
	app *app
	projectFlags
	codes []string
}

func (a *app) languagesCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "languages",
		Short: "List a project's languages, or add target languages",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	list := &languagesOptions{app: a}
	listCmd := &cobra.Command{
		Use:   "list --project ORG/PROJECT [--json]",
		Short: "List the project's languages: the source language, then the targets and how far each is translated",
		Args:  usageArgs(cobra.NoArgs),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runLanguagesList(cmd.Context(), list) },
	}
	list.projectFlags.add(listCmd)
	add := &languagesOptions{app: a}
	addCmd := &cobra.Command{
		Use:   "add --project ORG/PROJECT CODE... [--json]",
		Short: "Add target languages to the project",
		Long: `add adds target languages to the project with the translation tools'
proposeLanguages, which needs no projects:write scope. Codes may be spelled as
the service spells them (pt-br, zh-hans) or as a platform does: BCP 47 (pt-BR,
zh-Hans), gettext's and Java's pt_BR, Android's pt-rBR and b+sr+Latn. It says
which were added and which the project had already (skipped).`,
		Example: `  partner languages add --project acme/web pt_BR zh-Hans b+sr+Latn`,
		Args:    usageArgs(cobra.MinimumNArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			add.codes = args
			return runLanguagesAdd(cmd.Context(), add)
		},
	}
	add.projectFlags.add(addCmd)
	cmd.AddCommand(listCmd, addCmd)
	return cmd
}

// runLanguagesList runs "partner languages list".
func runLanguagesList(ctx context.Context, opts *languagesOptions) error {
	a := opts.app
	project, err := opts.resolve(a)
	if err != nil {
		return err
	}
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	p, err := c.Translations.GetProject(ctx, project)
	if err != nil {
		return err
	}
	res := languagesResult{Project: project, Languages: []languageView{{Code: p.SourceLanguage, Source: true}}}
	for _, l := range slices.Sorted(slices.Values(p.Languages)) {
		cov := p.Coverage[l]
		res.Languages = append(res.Languages, languageView{Code: l, Translated: cov.Translated, Percent: cov.Percent})
	}
	return a.printResult(res, func() {
		for _, l := range res.Languages {
			if l.Source {
				a.out.printf("%-10s source\n", l.Code)
				continue
			}
			a.out.printf("%-10s %3d%% translated (%d keys)\n", l.Code, l.Percent, l.Translated)
		}
	})
}

// runLanguagesAdd runs "partner languages add".
func runLanguagesAdd(ctx context.Context, opts *languagesOptions) error {
	a := opts.app
	project, err := opts.resolve(a)
	if err != nil {
		return err
	}
	codes, err := serviceLanguages(opts.codes)
	if err != nil {
		return err
	}
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	res, err := addLanguages(ctx, c, project, codes)
	if err != nil {
		return err
	}
	return a.printResult(res, func() { a.printAdded(res) })
}

// addLanguages adds codes (the service's spelling) to project with
// ProposeLanguages, in calls of at most translations.MaxLanguages.
func addLanguages(ctx context.Context, c *partner.Client, project string, codes []string) (*addLanguagesResult, error) {
	res := &addLanguagesResult{Project: project, Added: []string{}, Skipped: []string{}}
	for chunk := range slices.Chunk(codes, translations.MaxLanguages) {
		ls := make([]translations.LanguageProposal, len(chunk))
		for i, code := range chunk {
			ls[i] = translations.LanguageProposal{Code: code}
		}
		r, err := c.Translations.ProposeLanguages(ctx, project, ls)
		if err != nil {
			return nil, fmt.Errorf("adding languages %s to %s: %w", strings.Join(chunk, ", "), project, err)
		}
		added := map[string]bool{}
		for _, lr := range r.Results {
			added[strings.ToLower(lr.Code)] = lr.Added
		}
		for _, code := range chunk {
			if added[code] {
				res.Added = append(res.Added, code)
			} else {
				res.Skipped = append(res.Skipped, code)
			}
		}
	}
	return res, nil
}

// printAdded says what "languages add" (or "push --add-languages") did.
func (a *app) printAdded(r *addLanguagesResult) {
	if len(r.Added) > 0 {
		a.out.printf("%s: added %s\n", r.Project, strings.Join(r.Added, ", "))
	}
	if len(r.Skipped) > 0 {
		a.out.printf("%s: skipped %s: the project has them already\n", r.Project, strings.Join(r.Skipped, ", "))
	}
}
