package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/cobra"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
	"github.com/locsvc/partner-go/translations"
)

// statusResult is what "partner status --json" prints.
type statusResult struct {
	Project string        `json:"project"`
	Pending pendingResult `json:"pending"`
	// Syncs are the latest sync jobs, newest first.
	Syncs []syncResult `json:"syncs"`
	// Languages are the project's target languages, by code: how far each
	// is translated and what waits to be published in it.
	Languages []languageStatus `json:"languages"`
}

// languageStatus is one target language in "partner status --json".
type languageStatus struct {
	Language string `json:"language"`
	// Translated is the number of keys with a text in the language, and
	// Percent that share of the project's keys, 0 to 100 (getProject's
	// coverage).
	Translated int `json:"translated"`
	Percent    int `json:"percent"`
	// Pending is the number of its translations waiting to be published.
	Pending int `json:"pending"`
}

type pendingResult struct {
	HasChanges      bool `json:"hasChanges"`
	Translations    int  `json:"translations"`
	DeletedKeys     int  `json:"deletedKeys"`
	LanguageChanges int  `json:"languageChanges"`
	Total           int  `json:"total"`
	// ByLanguage counts the pending translations per language code.
	ByLanguage map[string]int `json:"byLanguage"`
	// Destination is where a publish goes: "cdn", "github" or "none".
	Destination string `json:"destination"`
	// NoPublishReason says why publishing is not possible, if it is not.
	NoPublishReason string `json:"noPublishReason,omitempty"`
}

type syncResult struct {
	ID          string     `json:"id"`
	Type        string     `json:"type"`
	Status      string     `json:"status"`
	StartedAt   *time.Time `json:"startedAt,omitempty"`
	CompletedAt *time.Time `json:"completedAt,omitempty"`
	Error       string     `json:"error,omitempty"`
}

func newSyncResult(s *translations.Sync) syncResult {
	r := syncResult{ID: s.ID, Type: string(s.Type), Status: string(s.Status), Error: s.Error}
	if !s.StartedAt.IsZero() {
		r.StartedAt = &s.StartedAt
	}
	if !s.CompletedAt.IsZero() {
		r.CompletedAt = &s.CompletedAt
	}
	return r
}

// statusOptions are what status is asked to do: its flags, and the app
// it runs in.
type statusOptions struct {
	app *app
	projectFlags
	// minCoverage, with checkCoverage, is the translated share (percent)
	// every target language must reach: --min-coverage.
	minCoverage   int
	checkCoverage bool
}

func (a *app) statusCmd() *cobra.Command {
	opts := &statusOptions{app: a}
	cmd := &cobra.Command{
		Use:   "status [--project ORG/PROJECT | --config FILE] [--min-coverage PERCENT] [--json]",
		Short: "Show how translated each language is, what waits to be published, and the recent sync jobs",
		Long: `status shows, per target language, the share of the project's keys translated
(the service's coverage) and the translations waiting to be published; then
the changes waiting to be published and the recent sync jobs.

With --min-coverage PERCENT it exits 4, naming them, when languages are
translated below PERCENT: a CI gate.`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.checkCoverage = cmd.Flags().Changed("min-coverage")
			return runStatus(cmd.Context(), opts)
		},
	}
	opts.projectFlags.add(cmd)
	cmd.Flags().IntVar(&opts.minCoverage, "min-coverage", 0, "exit 4 when a target language is translated below this share, in percent (0-100)")
	return cmd
}

// runStatus runs "partner status": it prints what waits to be published
// and the recent sync jobs.
func runStatus(ctx context.Context, opts *statusOptions) error {
	a := opts.app
	p, err := opts.resolve(a)
	if err != nil {
		return err
	}
	if opts.checkCoverage && (opts.minCoverage < 0 || opts.minCoverage > 100) {
		return usageErrorf("--min-coverage %d: want a percentage, 0 to 100", opts.minCoverage)
	}
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	res, err := status(ctx, c, p)
	if err != nil {
		return err
	}
	if err := a.printResult(res, func() { a.printStatus(res) }); err != nil {
		return err
	}
	if !opts.checkCoverage {
		return nil
	}
	var below []string
	for _, l := range res.Languages {
		if l.Percent < opts.minCoverage {
			below = append(below, fmt.Sprintf("%s (%d%%)", l.Language, l.Percent))
		}
	}
	if below != nil {
		return &coverageError{min: opts.minCoverage, below: below}
	}
	return nil
}

func status(ctx context.Context, c *partner.Client, project string) (*statusResult, error) {
	pc, err := c.Translations.Pending(ctx, project)
	if err != nil {
		return nil, err
	}
	sl, err := c.Translations.ListSyncs(ctx, project, translations.ListSyncsOptions{})
	if err != nil {
		return nil, err
	}
	proj, err := c.Translations.GetProject(ctx, project)
	if err != nil {
		return nil, err
	}
	res := &statusResult{
		Project: project,
		Pending: pendingResult{
			HasChanges:      pc.HasChanges,
			Translations:    pc.Summary.Translations,
			DeletedKeys:     pc.Summary.DeletedKeys,
			LanguageChanges: pc.Summary.LanguageChanges,
			Total:           pc.Summary.Total,
			ByLanguage:      map[string]int{},
			Destination:     pc.Destination,
			NoPublishReason: pc.NoPublishReason,
		},
		Syncs: []syncResult{},
	}
	for lang, ch := range pc.ByLanguage {
		res.Pending.ByLanguage[lang] = ch.Count
	}
	for i := range sl.Syncs {
		res.Syncs = append(res.Syncs, newSyncResult(&sl.Syncs[i]))
	}
	res.Languages = []languageStatus{}
	for _, lang := range slices.Sorted(slices.Values(proj.Languages)) {
		cov := proj.Coverage[lang]
		res.Languages = append(res.Languages, languageStatus{Language: lang, Translated: cov.Translated, Percent: cov.Percent, Pending: res.Pending.ByLanguage[lang]})
	}
	return res, nil
}

func (a *app) printStatus(r *statusResult) {
	w := a.out
	p := r.Pending
	for _, l := range r.Languages {
		w.printf("%-8s %3d%% translated (%d keys), %d to publish\n", l.Language, l.Percent, l.Translated, l.Pending)
	}
	if !p.HasChanges {
		w.printf("%s: nothing to publish\n", r.Project)
	} else {
		w.printf("%s: %d changes to publish (%d translations, %d deleted keys, %d language changes)\n",
			r.Project, p.Total, p.Translations, p.DeletedKeys, p.LanguageChanges)
	}
	if p.NoPublishReason != "" {
		w.printf("publishing is not possible: %s\n", p.NoPublishReason)
	}
	if len(r.Syncs) == 0 {
		w.println("no sync jobs yet")
		return
	}
	w.println("recent sync jobs:")
	for _, s := range r.Syncs {
		when := ""
		if s.StartedAt != nil {
			when = s.StartedAt.Local().Format(time.DateTime)
		}
		w.printf("  %-40s %-14s %-12s %s %s\n", s.ID, s.Type, s.Status, when, s.Error)
	}
}

// publishResult is what "partner publish --json" prints.
type publishResult struct {
	Project string `json:"project"`
	// Published is the number of translations published.
	Published int `json:"published"`
	// Syncs are the jobs that ship the publish, as they ended.
	Syncs   []syncResult `json:"syncs"`
	Message string       `json:"message,omitempty"`
}

// publishOptions are what publish is asked to do: its flags, and the app
// it runs in.
type publishOptions struct {
	app     *app
	project string
}

func (a *app) publishCmd() *cobra.Command {
	opts := &publishOptions{app: a}
	var wait bool
	cmd := &cobra.Command{
		Use:   "publish --project ORG/PROJECT [--json]",
		Short: "Publish the project's pending changes and wait until they are shipped",
		Long: `publish publishes everything pending in the project (translations, deleted keys,
language changes) and waits until it is shipped, as "push --publish --wait"
does: a project can be published once every 30 seconds, so a publish within
that cooldown waits it out and is sent again; then the sync jobs that ship the
publish are waited for. The command fails unless every job completed (exit 4
when some did and some did not).`,
		Args: usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error { return runPublish(cmd.Context(), opts) },
	}
	cmd.Flags().StringVar(&opts.project, "project", "", "the project, ORG/PROJECT (default $PARTNER_PROJECT)")
	// --wait was needed to wait for the sync jobs; publish always waits
	// now, and takes it still for the scripts that give it.
	cmd.Flags().BoolVar(&wait, "wait", false, "wait until the sync jobs end (always done)")
	cmd.Flags().MarkHidden("wait")
	return cmd
}

// runPublish runs "partner publish": it publishes the project with
// PublishAndWait and prints the sync jobs as they ended.
func runPublish(ctx context.Context, opts *publishOptions) error {
	a := opts.app
	p, err := a.project(opts.project)
	if err != nil {
		return err
	}
	c, done, err := a.client(ctx)
	if err != nil {
		return err
	}
	defer done()
	report, finish := a.progress()
	if report != nil {
		report(locales.Progress{Step: locales.StepPublish})
	}
	pub, err := c.Translations.PublishAndWait(ctx, p, translations.PublishOptions{})
	finish()
	if pub == nil {
		return err
	}
	res := &publishResult{Project: p, Published: pub.Published, Syncs: []syncResult{}, Message: pub.Message}
	for i := range pub.Syncs {
		res.Syncs = append(res.Syncs, newSyncResult(&pub.Syncs[i]))
	}
	if perr := a.printResult(res, func() {
		a.out.printf("%s: published %d translations\n", res.Project, res.Published)
		for _, s := range res.Syncs {
			a.out.printf("  sync %s %s %s\n", s.ID, s.Status, s.Error)
		}
	}); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	return syncOutcome(res.Syncs)
}

// syncOutcome is nil when every job completed, a partialError when some
// did, and an error when none did.
func syncOutcome(syncs []syncResult) error {
	failed := 0
	for _, s := range syncs {
		if s.Status != string(translations.SyncCompleted) {
			failed++
		}
	}
	switch {
	case failed == 0:
		return nil
	case failed < len(syncs):
		return &partialError{failed: failed, total: len(syncs)}
	}
	return fmt.Errorf("no sync job completed (%d): see `partner status` for their errors", failed)
}
