package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/translations"
)

type projectArgs struct {
	Project string `json:"project"`
}

type getTranslationsArgs struct {
	Project    string   `json:"project"`
	Search     any      `json:"search,omitempty"`
	Languages  []string `json:"languages,omitempty"`
	Namespaces []string `json:"namespaces,omitempty"`
	Keys       []string `json:"keys,omitempty"`
	Status     string   `json:"status,omitempty"`
	Limit      int      `json:"limit,omitempty"`
}

// getTranslationsWire accepts the long and the abbreviated form of the
// answer: the server sends either.
type getTranslationsWire struct {
	Project, Prj, SourceLanguage, SL string
	Returned, Ret, Total, Tot        int
	HasMore                          bool
	HasMore2                         bool `json:"has_more"`
	Keys                             []keyTranslationsWire
	NamespaceDetails, NSD            namespacesWire
	Hint                             string
}

type keyTranslationsWire struct {
	ID, Key, K, Namespace, NS, SourceText, Src string
	Translations, Tr                           map[string]translationWire
}

type translationWire struct{ ID, Text, T, Status, St string }

// GetTranslations reads translations with getTranslations.
func GetTranslations(ctx context.Context, c Caller, project string, q translations.GetOptions) (*translations.Result, error) {
	if err := cmp.Or(checkProject(project), between("Limit", q.Limit, 1, translations.MaxGetLimit)); err != nil {
		return nil, err
	}
	switch q.Status {
	case "", translations.StatusAll, translations.StatusMissing, translations.StatusDraft, translations.StatusPublished:
	default:
		return nil, apierr.ArgumentError("Status", fmt.Sprintf("%q is not missing, draft, published or all", q.Status))
	}
	if q.Status != "" && q.Status != translations.StatusAll && len(q.Languages) == 0 {
		return nil, apierr.ArgumentError("Status", "needs Languages: the service ignores it without them")
	}
	args := getTranslationsArgs{
		Project: project, Search: search(q.Search), Languages: q.Languages, Namespaces: q.Namespaces,
		Keys: q.Keys, Status: string(q.Status), Limit: q.Limit,
	}
	return result(ctx, c, "getTranslations", args, func(w *getTranslationsWire, raw json.RawMessage) *translations.Result {
		return &translations.Result{
			Project: cmp.Or(w.Project, w.Prj), SourceLanguage: cmp.Or(w.SourceLanguage, w.SL),
			Returned: cmp.Or(w.Returned, w.Ret), Total: cmp.Or(w.Total, w.Tot), HasMore: w.HasMore || w.HasMore2,
			Namespaces: w.NamespaceDetails.or(w.NSD), Hint: w.Hint, Raw: raw,
			Keys: each(w.Keys, func(k keyTranslationsWire) translations.KeyTranslations {
				tr := k.Translations
				if tr == nil {
					tr = k.Tr
				}
				return translations.KeyTranslations{
					KeyID: k.ID, Name: cmp.Or(k.Key, k.K), Namespace: cmp.Or(k.Namespace, k.NS), SourceText: cmp.Or(k.SourceText, k.Src),
					Translations: eachValue(tr, func(t translationWire) translations.Translation {
						return translations.Translation{ID: t.ID, Text: cmp.Or(t.Text, t.T), Status: cmp.Or(t.Status, t.St)}
					}),
				}
			}),
		}
	})
}

type valuesWire struct {
	ID string            `json:"id"`
	T  map[string]string `json:"t"`
}

type setTranslationsArgs struct {
	Project string       `json:"project"`
	T       []valuesWire `json:"t"`
}

type setTranslationsWire struct {
	OK         bool
	Cnt, Wrote int
	batchWire
	Pub  *pubWire
	Hint string
}

// SetTranslations writes translations with setTranslations. More than
// translations.MaxSet keys are refused, not split.
func SetTranslations(ctx context.Context, c Caller, project string, vs []translations.Values) (*translations.SetResult, error) {
	if err := cmp.Or(checkProject(project), batch("values", len(vs), translations.MaxSet, "keys")); err != nil {
		return nil, err
	}
	args := setTranslationsArgs{Project: project, T: make([]valuesWire, len(vs))}
	for i, v := range vs {
		switch {
		case v.KeyID == "":
			return nil, apierr.ArgumentError(fmt.Sprintf("values[%d].KeyID", i), "is empty")
		case len(v.Text) == 0:
			return nil, apierr.ArgumentError(fmt.Sprintf("values[%d].Text", i), "is empty; want at least one language")
		}
		args.T[i] = valuesWireOf(v)
	}
	return result(ctx, c, "setTranslations", args, func(w *setTranslationsWire, raw json.RawMessage) *translations.SetResult {
		r := &translations.SetResult{OK: w.OK, Count: w.Cnt, Written: w.Wrote, Pending: w.Pub.pending(), Hint: w.Hint, Raw: raw}
		r.Updated, r.Errors = w.results()
		return r
	})
}

type pendingWire struct {
	Prj    string
	HasChg bool `json:"has_chg"`
	Sum    struct {
		Tr     int
		DelK   int `json:"del_k"`
		LngChg int `json:"lng_chg"`
		Tot    int
	}
	ByLng    map[string]langChangesWire         `json:"by_lng"`
	DelK     []struct{ KID, K, NS, Src string } `json:"del_k"`
	PubDst   string                             `json:"pub_dst"`
	NoPubRsn string                             `json:"no_pub_rsn"`
	Recent   []recentWire
	Hint     string
}

type langChangesWire struct {
	Cnt int
	Prv []struct{ KID, K, NS, T, St string }
}

type recentWire struct {
	ID, Tp, St string
	At         flexTime
	NK, UK, TF int
}

// PendingChanges reads what waits to be published, with getPendingChanges.
func PendingChanges(ctx context.Context, c Caller, project string) (*translations.PendingChanges, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	return result(ctx, c, "getPendingChanges", projectArgs{project}, func(w *pendingWire, raw json.RawMessage) *translations.PendingChanges {
		return &translations.PendingChanges{
			Project: w.Prj, HasChanges: w.HasChg,
			Summary:     translations.PendingSummary{Translations: w.Sum.Tr, DeletedKeys: w.Sum.DelK, LanguageChanges: w.Sum.LngChg, Total: w.Sum.Tot},
			Destination: w.PubDst, NoPublishReason: w.NoPubRsn, Hint: w.Hint, Raw: raw,
			ByLanguage: eachValue(w.ByLng, func(l langChangesWire) translations.LanguageChanges {
				return translations.LanguageChanges{Count: l.Cnt, Preview: each(l.Prv, func(p struct{ KID, K, NS, T, St string }) translations.PendingTranslation {
					return translations.PendingTranslation{KeyID: p.KID, Name: p.K, Namespace: p.NS, Text: p.T, Status: p.St}
				})}
			}),
			DeletedKeys: each(w.DelK, func(d struct{ KID, K, NS, Src string }) translations.PendingDeletion {
				return translations.PendingDeletion{KeyID: d.KID, Name: d.K, Namespace: d.NS, SourceText: d.Src}
			}),
			Recent: each(w.Recent, func(p recentWire) translations.RecentPublish {
				return translations.RecentPublish{ID: p.ID, Type: p.Tp, Status: p.St, At: p.At.Time, NewKeys: p.NK, UpdatedKeys: p.UK, Files: p.TF}
			}),
		}
	})
}

type selectionWire struct {
	KeyID        string `json:"keyId"`
	LanguageCode string `json:"languageCode"`
}

type publishArgs struct {
	Project      string          `json:"project"`
	Translations []selectionWire `json:"translations,omitempty"`
}

type publishWire struct {
	Success                                                   bool
	Published, DeletedKeysProcessed, LanguageChangesProcessed int
	Repositories                                              json.RawMessage
	SyncJobIDs                                                flexStrings
	Message, Hint                                             string
}

// Publish publishes everything pending, or opt.Only, with
// publishTranslations. The service's cooldown per project comes back as a
// *apierr.ToolError that is ErrTemporary; the SDK does not wait.
func Publish(ctx context.Context, c Caller, project string, opt translations.PublishOptions) (*translations.PublishResult, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	args := publishArgs{Project: project}
	for i, s := range opt.Only {
		f := fmt.Sprintf("Only[%d].", i)
		if err := cmp.Or(required(f+"KeyID", s.KeyID), required(f+"Language", s.Language)); err != nil {
			return nil, err
		}
		args.Translations = append(args.Translations, selectionWire{KeyID: s.KeyID, LanguageCode: s.Language})
	}
	return result(ctx, c, "publishTranslations", args, func(w *publishWire, raw json.RawMessage) *translations.PublishResult {
		return &translations.PublishResult{
			Success: w.Success, Published: w.Published, SyncIDs: w.SyncJobIDs,
			DeletedKeysProcessed: w.DeletedKeysProcessed, LanguageChangesProcessed: w.LanguageChangesProcessed,
			Repositories: present(w.Repositories), Message: w.Message, Hint: w.Hint, Raw: raw,
		}
	})
}

type syncWire struct {
	ID, Tp, St string
	StAt       flexTime                  `json:"st_at"`
	CpAt       flexTime                  `json:"cp_at"`
	ErrMsg     string                    `json:"err_msg"`
	TrigBy     *struct{ Nm, Img string } `json:"trig_by"`
	Meta       struct{ KP, TF, PF flexCount }
	Log        flexStrings
	AffK       []struct{ K, Act string } `json:"aff_k"`
	Hint       string
}

func (w *syncWire) sync(raw json.RawMessage) *translations.Sync {
	s := &translations.Sync{
		ID: w.ID, Type: translations.SyncType(w.Tp), Status: translations.SyncStatus(w.St),
		StartedAt: w.StAt.Time, CompletedAt: w.CpAt.Time, Error: w.ErrMsg,
		KeysProcessed: int(w.Meta.KP), Files: int(w.Meta.TF), FilesProcessed: int(w.Meta.PF),
		Log: w.Log, Hint: w.Hint, Raw: raw,
		AffectedKeys: each(w.AffK, func(a struct{ K, Act string }) translations.AffectedKey {
			return translations.AffectedKey{Name: a.K, Action: a.Act}
		}),
	}
	if w.TrigBy != nil {
		s.TriggeredBy = &translations.Person{Name: w.TrigBy.Nm, Image: w.TrigBy.Img}
	}
	return s
}

type getSyncsArgs struct {
	Project string `json:"project"`
	Limit   int    `json:"limit,omitempty"`
	Status  string `json:"status,omitempty"`
	Type    string `json:"type,omitempty"`
}

type getSyncsWire struct {
	Prj, Msg string
	Tot      int
	Sy       []json.RawMessage
}

// ListSyncs lists a project's sync jobs with getSyncs.
func ListSyncs(ctx context.Context, c Caller, project string, opt translations.ListSyncsOptions) (*translations.SyncList, error) {
	if err := cmp.Or(checkProject(project), between("Limit", opt.Limit, 1, 50)); err != nil {
		return nil, err
	}
	if err := cmp.Or(
		oneOf("Status", opt.Status, "pending, in_progress, completed or failed (the states getSyncs filters by)",
			"", translations.SyncPending, translations.SyncInProgress, translations.SyncCompleted, translations.SyncFailed),
		oneOf("Type", opt.Type, "initial_import, source_sync, cdn_upload or batch_publish",
			"", translations.SyncInitialImport, translations.SyncSourceSync, translations.SyncCDNUpload, translations.SyncBatchPublish),
	); err != nil {
		return nil, err
	}
	args := getSyncsArgs{Project: project, Limit: opt.Limit, Status: string(opt.Status), Type: string(opt.Type)}
	return result(ctx, c, "getSyncs", args, func(w *getSyncsWire, raw json.RawMessage) *translations.SyncList {
		return &translations.SyncList{Project: w.Prj, Total: w.Tot, Message: w.Msg, Raw: raw,
			Syncs: each(w.Sy, func(raw json.RawMessage) translations.Sync {
				var sw syncWire
				_ = decode("getSyncs", raw, &sw)
				return *sw.sync(raw)
			})}
	})
}

type getSyncArgs struct {
	SyncID string `json:"syncId"`
	WaitMs *int   `json:"waitMs,omitempty"`
}

// GetSync reads a sync job with getSync, at once.
func GetSync(ctx context.Context, c Caller, id string) (*translations.Sync, error) {
	if id == "" {
		return nil, apierr.ArgumentError("sync id", "is empty")
	}
	return getSync(ctx, c, id, nil)
}

func getSync(ctx context.Context, c Caller, id string, waitMs *int) (*translations.Sync, error) {
	return result(ctx, c, "getSync", getSyncArgs{SyncID: id, WaitMs: waitMs}, (*syncWire).sync)
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
	if id == "" {
		return nil, apierr.ArgumentError("sync id", "is empty")
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

type cancelSyncArgs struct {
	Project string `json:"project"`
	SyncID  string `json:"syncId"`
}

type cancelWire struct {
	ID, Prev, Rsn, Hint string
	Can                 bool
}

// CancelSync cancels a pending sync job with cancelSync. A job that cannot
// be cancelled is a result with Cancelled false.
func CancelSync(ctx context.Context, c Caller, project, id string) (*translations.CancelResult, error) {
	if err := cmp.Or(checkProject(project), required("sync id", id)); err != nil {
		return nil, err
	}
	return result(ctx, c, "cancelSync", cancelSyncArgs{Project: project, SyncID: id}, func(w *cancelWire, raw json.RawMessage) *translations.CancelResult {
		return &translations.CancelResult{
			ID: w.ID, Cancelled: w.Can, PreviousStatus: translations.SyncStatus(w.Prev),
			Reason: translations.CancelReason(w.Rsn), Hint: w.Hint, Raw: raw,
		}
	})
}

type contextArgs struct {
	Project   string   `json:"project"`
	Keys      []string `json:"keys,omitempty"`
	KPerKey   int      `json:"kPerKey,omitempty"`
	Languages []string `json:"languages,omitempty"`
}

type contextWire struct {
	Prj, Src, Inst string
	Tgt            flexStrings
	Ctx            *struct {
		D, Aud, Cat string
		Tone        json.RawMessage
	}
	Gl []struct {
		T, Tp, D string
		Mnt      bool
		Tr       map[string]string
	}
	Glt   int
	Rules []struct {
		ID, K string
		Sim   []struct {
			Tp, C, L string
			S        float64
		}
	}
	Hint string
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
	args := contextArgs{Project: project, Keys: opt.KeyIDs, KPerKey: opt.MatchesPerKey, Languages: opt.Languages}
	return result(ctx, c, "getTranslationContext", args, func(w *contextWire, raw json.RawMessage) *translations.Context {
		r := &translations.Context{
			Project: w.Prj, SourceLanguage: w.Src, TargetLanguages: w.Tgt, Instructions: w.Inst,
			GlossaryTotal: w.Glt, Hint: w.Hint, Raw: raw,
		}
		for _, g := range w.Gl {
			r.Glossary = append(r.Glossary, translations.Term{Term: g.T, Type: g.Tp, Description: g.D, DoNotTranslate: g.Mnt, Translations: g.Tr})
		}
		for _, rule := range w.Rules {
			km := translations.KeyMatches{KeyID: rule.ID, Name: rule.K}
			for _, s := range rule.Sim {
				km.Similar = append(km.Similar, translations.Match{Type: s.Tp, Content: s.C, Score: s.S, Language: s.L})
			}
			r.Matches = append(r.Matches, km)
		}
		if w.Ctx != nil {
			r.Description, r.Audience, r.Category = w.Ctx.D, w.Ctx.Aud, w.Ctx.Cat
			if len(w.Ctx.Tone) > 0 && string(w.Ctx.Tone) != "null" {
				r.Tone = w.Ctx.Tone
			}
		}
		return r
	})
}

type languageWire struct {
	LanguageCode string `json:"languageCode"`
	Status       string `json:"status,omitempty"`
}

type proposeArgs struct {
	Project   string         `json:"project"`
	Languages []languageWire `json:"languages"`
}

type proposeWire struct {
	Success        bool
	Added, Skipped int
	Results        []struct {
		LanguageCode, Status string
		Added                bool
	}
	Project, Hint  string
	PendingPublish *pubWire
}

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
	args := proposeArgs{Project: project, Languages: make([]languageWire, len(ls))}
	for i, l := range ls {
		args.Languages[i] = languageWire{LanguageCode: l.Code, Status: string(l.Status)}
	}
	return result(ctx, c, "proposeLanguages", args, func(w *proposeWire, raw json.RawMessage) *translations.ProposeLanguagesResult {
		r := &translations.ProposeLanguagesResult{
			Success: w.Success, Added: w.Added, Skipped: w.Skipped, Project: w.Project,
			Pending: w.PendingPublish.pending(), Hint: w.Hint, Raw: raw,
		}
		for _, x := range w.Results {
			r.Results = append(r.Results, translations.LanguageResult{Code: x.LanguageCode, Status: translations.LanguageStatus(x.Status), Added: x.Added})
		}
		return r
	})
}

type editWire struct {
	LanguageCode string `json:"languageCode"`
	NewStatus    string `json:"newStatus"`
}

type editArgs struct {
	Project string     `json:"project"`
	Edits   []editWire `json:"edits"`
}

type editLanguagesWire struct {
	Success bool
	Results []struct {
		LanguageCode, PreviousStatus, NewStatus string
		Changed                                 bool
	}
	NotFound       flexStrings
	Project, Hint  string
	PendingPublish *pubWire
}

// ProposeLanguageEdits changes the status of a project's languages with
// proposeLanguageEdits.
func ProposeLanguageEdits(ctx context.Context, c Caller, project string, es []translations.LanguageEdit) (*translations.ProposeLanguageEditsResult, error) {
	code := func(i int) string { return es[i].Code }
	if err := cmp.Or(checkProject(project), checkLanguages("edits", len(es), code)); err != nil {
		return nil, err
	}
	args := editArgs{Project: project, Edits: make([]editWire, len(es))}
	for i, e := range es {
		switch e.NewStatus {
		case translations.LanguageActive, translations.LanguageDraft, translations.LanguageArchived:
		default:
			return nil, apierr.ArgumentError(fmt.Sprintf("edits[%d].NewStatus", i), fmt.Sprintf("%q is not active, draft or archived", e.NewStatus))
		}
		args.Edits[i] = editWire{LanguageCode: e.Code, NewStatus: string(e.NewStatus)}
	}
	return result(ctx, c, "proposeLanguageEdits", args, func(w *editLanguagesWire, raw json.RawMessage) *translations.ProposeLanguageEditsResult {
		r := &translations.ProposeLanguageEditsResult{
			Success: w.Success, NotFound: w.NotFound, Project: w.Project,
			Pending: w.PendingPublish.pending(), Hint: w.Hint, Raw: raw,
		}
		for _, x := range w.Results {
			r.Results = append(r.Results, translations.LanguageEditResult{
				Code: x.LanguageCode, PreviousStatus: translations.LanguageStatus(x.PreviousStatus),
				NewStatus: translations.LanguageStatus(x.NewStatus), Changed: x.Changed,
			})
		}
		return r
	})
}
