package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/lenient"
	"github.com/locsvc/partner-go/translations"
)

// Tool names on the translations server.
const (
	toolGetTranslations = "getTranslations"
	toolSetTranslations = "setTranslations"
	toolPending         = "getPendingChanges"
	toolPublish         = "publishTranslations"
	toolGetSyncs        = "getSyncs"
	toolGetSync         = "getSync"
	toolCancelSync      = "cancelSync"
	toolContext         = "getTranslationContext"
	toolProposeLangs    = "proposeLanguages"
	toolEditLangs       = "proposeLanguageEdits"
)

type projectArgs struct {
	Project string `json:"project"`
}

// oneOf checks that v is one of values; want names them in the error.
func oneOf[T ~string](field string, v T, want string, values ...T) error {
	if slices.Contains(values, v) {
		return nil
	}
	return apierr.ArgumentError(field, fmt.Sprintf("%s is not %s", apierr.Quote(string(v)), want))
}

// GetTranslations reads translations with getTranslations.
func GetTranslations(ctx context.Context, c Caller, project string, q translations.GetOptions) (*translations.Result, error) {
	if err := cmp.Or(checkProject(project), between("Limit", q.Limit, 1, translations.MaxGetLimit)); err != nil {
		return nil, err
	}
	if err := oneOf("Status", q.Status, "missing, draft, published or all",
		"", translations.StatusAll, translations.StatusMissing, translations.StatusDraft, translations.StatusPublished); err != nil {
		return nil, err
	}
	if q.Status != "" && q.Status != translations.StatusAll && len(q.Languages) == 0 {
		return nil, apierr.ArgumentError("Status", "needs Languages: the service ignores it without them")
	}
	args := struct {
		Project string `json:"project"`
		Search  any    `json:"search,omitempty"`
		translations.GetOptions
	}{project, search(q.Search), q}
	var r translations.Result
	if err := fill(ctx, c, toolGetTranslations, args, &r, &r.Raw); err != nil {
		return nil, err
	}
	// The answer comes in a long form or an abbreviated one.
	r.Project = cmp.Or(r.Project, lenient.Get[string](r.Raw, "prj"))
	r.SourceLanguage = cmp.Or(r.SourceLanguage, lenient.Get[string](r.Raw, "sl"))
	r.Returned, r.Total = cmp.Or(r.Returned, lenient.Get[int](r.Raw, "ret")), cmp.Or(r.Total, lenient.Get[int](r.Raw, "tot"))
	r.HasMore = r.HasMore || lenient.Get[bool](r.Raw, "has_more")
	r.Namespaces = lenient.Get[namespaces](r.Raw, "namespaceDetails").or(lenient.Get[namespaces](r.Raw, "nsd"))
	return &r, nil
}

// SetTranslations writes translations with setTranslations. More than
// translations.MaxSet keys are refused, not split.
func SetTranslations(ctx context.Context, c Caller, project string, vs []translations.Values) (*translations.SetResult, error) {
	if err := cmp.Or(checkProject(project), batch("values", len(vs), translations.MaxSet, "keys")); err != nil {
		return nil, err
	}
	for i, v := range vs {
		if err := required(fmt.Sprintf("values[%d].KeyID", i), v.KeyID); err != nil {
			return nil, err
		}
		if len(v.Text) == 0 {
			return nil, apierr.ArgumentError(fmt.Sprintf("values[%d].Text", i), "is empty; want at least one language")
		}
	}
	args := struct {
		Project string                `json:"project"`
		T       []translations.Values `json:"t"`
	}{project, vs}
	var r translations.SetResult
	return result(ctx, c, toolSetTranslations, args, &r, &r.Raw)
}

// PendingChanges reads what waits to be published, with getPendingChanges.
func PendingChanges(ctx context.Context, c Caller, project string) (*translations.PendingChanges, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	var r translations.PendingChanges
	return result(ctx, c, toolPending, projectArgs{project}, &r, &r.Raw)
}

// Publish publishes everything pending, or opt.Only, with
// publishTranslations. The service's cooldown per project comes back as a
// *apierr.ToolError that is ErrTemporary; the SDK does not wait.
func Publish(ctx context.Context, c Caller, project string, opt translations.PublishOptions) (*translations.PublishResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	for i, s := range opt.Only {
		f := fmt.Sprintf("Only[%d].", i)
		if err := required(f+"KeyID", s.KeyID, f+"Language", s.Language); err != nil {
			return nil, err
		}
	}
	args := struct {
		Project      string                   `json:"project"`
		Translations []translations.Selection `json:"translations,omitempty"`
	}{project, opt.Only}
	var r translations.PublishResult
	if err := fill(ctx, c, toolPublish, args, &r, &r.Raw); err != nil {
		return nil, err
	}
	r.SyncIDs, r.Repositories = lenient.Get[lenient.Strings](r.Raw, "syncJobIds"), lenient.Present(r.Repositories)
	return &r, nil
}

// ListSyncs lists a project's sync jobs with getSyncs.
func ListSyncs(ctx context.Context, c Caller, project string, opt translations.ListSyncsOptions) (*translations.SyncList, error) {
	if err := cmp.Or(checkProject(project), between("Limit", opt.Limit, 1, 50)); err != nil {
		return nil, err
	}
	if err := oneOf("Status", opt.Status, "pending, in_progress, completed or failed (the states getSyncs filters by)",
		"", translations.SyncPending, translations.SyncInProgress, translations.SyncCompleted, translations.SyncFailed); err != nil {
		return nil, err
	}
	if err := oneOf("Type", opt.Type, "initial_import, source_sync, cdn_upload or batch_publish",
		"", translations.SyncInitialImport, translations.SyncSourceSync, translations.SyncCDNUpload,
		translations.SyncBatchPublish); err != nil {
		return nil, err
	}
	args := struct {
		Project string `json:"project"`
		translations.ListSyncsOptions
	}{project, opt}
	var r translations.SyncList
	return result(ctx, c, toolGetSyncs, args, &r, &r.Raw)
}

// GetSync reads a sync job with getSync, at once.
func GetSync(ctx context.Context, c Caller, id string) (*translations.Sync, error) {
	if err := required("sync id", id); err != nil {
		return nil, err
	}
	return getSync(ctx, c, id, nil)
}

func getSync(ctx context.Context, c Caller, id string, waitMs *int) (*translations.Sync, error) {
	args := struct {
		SyncID string `json:"syncId"`
		WaitMs *int   `json:"waitMs,omitempty"`
	}{id, waitMs}
	var s translations.Sync
	return result(ctx, c, toolGetSync, args, &s, &s.Raw)
}

// minPollSpacing is the least time between two long-polls of WaitSync: a
// server that answers a long-poll at once with an unfinished job is not
// asked again sooner (the service re-checks about every 2 s).
const minPollSpacing = 2 * time.Second

// maxSyncWait is the longest the service holds one getSync long-poll.
const maxSyncWait = 25 * time.Second

// WaitSync waits until the sync job is completed, failed or cancelled, or
// ctx ends, with getSync's long-poll (waitMs, at most 25 s per request,
// never past ctx's deadline). It returns the job in its final state.
func WaitSync(ctx context.Context, c Caller, id string) (*translations.Sync, error) {
	if err := required("sync id", id); err != nil {
		return nil, err
	}
	for {
		wait := maxSyncWait
		if dl, ok := ctx.Deadline(); ok {
			wait = min(max(time.Until(dl), time.Second), wait)
		}
		ms := int(wait / time.Millisecond)
		start := time.Now()
		s, err := getSync(ctx, c, id, &ms)
		if err != nil {
			return nil, err
		}
		if s.Status.Done() {
			return s, nil
		}
		if d := minPollSpacing - time.Since(start); d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return nil, fmt.Errorf("partner: waiting for sync %s (status %s): %w", id, s.Status, ctx.Err())
			}
		}
	}
}

// CancelSync cancels a pending sync job with cancelSync. A job that cannot
// be cancelled is a result with Cancelled false.
func CancelSync(ctx context.Context, c Caller, project, id string) (*translations.CancelResult, error) {
	if err := cmp.Or(checkProject(project), required("sync id", id)); err != nil {
		return nil, err
	}
	args := struct {
		Project string `json:"project"`
		SyncID  string `json:"syncId"`
	}{project, id}
	var r translations.CancelResult
	return result(ctx, c, toolCancelSync, args, &r, &r.Raw)
}

// TranslationContext reads the glossary, tone and memory matches with
// getTranslationContext.
func TranslationContext(ctx context.Context, c Caller, project string, opt translations.ContextOptions) (*translations.Context, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if len(opt.KeyIDs) > translations.MaxContextKeys {
		return nil, apierr.ArgumentError("KeyIDs", fmt.Sprintf("has %d ids; at most %d", len(opt.KeyIDs), translations.MaxContextKeys))
	}
	if err := cmp.Or(nonEmpty("KeyIDs", opt.KeyIDs), between("MatchesPerKey", opt.MatchesPerKey, 1, 20)); err != nil {
		return nil, err
	}
	args := struct {
		Project string `json:"project"`
		translations.ContextOptions
	}{project, opt}
	var r translations.Context
	if err := fill(ctx, c, toolContext, args, &r, &r.Raw); err != nil {
		return nil, err
	}
	about := lenient.Get[struct {
		D    string          `json:"d"`
		Aud  string          `json:"aud"`
		Cat  string          `json:"cat"`
		Tone json.RawMessage `json:"tone"`
	}](r.Raw, "ctx")
	r.TargetLanguages, r.Tone = lenient.Get[lenient.Strings](r.Raw, "tgt"), lenient.Present(about.Tone)
	r.Description, r.Audience, r.Category = about.D, about.Aud, about.Cat
	return &r, nil
}

// checkLanguages checks a batch of n language codes.
func checkLanguages(field string, n int, code func(int) string) error {
	if err := batch(field, n, translations.MaxLanguages, "languages"); err != nil {
		return err
	}
	for i := range n {
		if c := code(i); len(c) < 2 || len(c) > 10 {
			return apierr.ArgumentError(fmt.Sprintf("%s[%d].Code", field, i), fmt.Sprintf("%q is not a language code of 2 to 10 characters", c))
		}
	}
	return nil
}

// ProposeLanguages adds languages to a project with proposeLanguages.
func ProposeLanguages(ctx context.Context, c Caller, project string, ls []translations.LanguageProposal) (*translations.ProposeLanguagesResult, error) {
	code := func(i int) string { return ls[i].Code }
	if err := cmp.Or(checkProject(project), checkLanguages("languages", len(ls), code)); err != nil {
		return nil, err
	}
	args := struct {
		Project   string                          `json:"project"`
		Languages []translations.LanguageProposal `json:"languages"`
	}{project, ls}
	var r translations.ProposeLanguagesResult
	return result(ctx, c, toolProposeLangs, args, &r, &r.Raw)
}

// ProposeLanguageEdits changes the status of a project's languages with
// proposeLanguageEdits.
func ProposeLanguageEdits(ctx context.Context, c Caller, project string, es []translations.LanguageEdit) (*translations.ProposeLanguageEditsResult, error) {
	if err := cmp.Or(checkProject(project), checkLanguages("edits", len(es), func(i int) string { return es[i].Code })); err != nil {
		return nil, err
	}
	for i, e := range es {
		if err := oneOf(fmt.Sprintf("edits[%d].NewStatus", i), e.NewStatus, "active, draft or archived",
			translations.LanguageActive, translations.LanguageDraft, translations.LanguageArchived); err != nil {
			return nil, err
		}
	}
	args := struct {
		Project string                      `json:"project"`
		Edits   []translations.LanguageEdit `json:"edits"`
	}{project, es}
	var r translations.ProposeLanguageEditsResult
	if err := fill(ctx, c, toolEditLangs, args, &r, &r.Raw); err != nil {
		return nil, err
	}
	r.NotFound = lenient.Get[lenient.Strings](r.Raw, "notFound")
	return &r, nil
}
