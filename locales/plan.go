package locales

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"html"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/keys"
)

// maxDeleteShare is the share of the listed keys a plan deletes without
// PlanOptions.AllowMassDelete: 10%.
const maxDeleteShare = 0.10

// ErrMassDelete is the error of a plan that would delete more than
// 10% of the project's keys without
// PlanOptions.AllowMassDelete. Nothing was written.
var ErrMassDelete = errors.New("locales: the plan would delete more than 10% of the project's keys; set AllowMassDelete to allow it")

// PlanOptions says what a plan covers and whether it may delete.
type PlanOptions struct {
	// Languages keeps only these languages of the catalog (compared
	// without regard to case); nil keeps all.
	Languages []string
	// Namespaces keeps only these namespaces; nil keeps those the
	// catalog holds. Keys of other namespaces are not listed, written or
	// deleted.
	Namespaces []string
	// Delete deletes the keys of the plan's namespaces that the service
	// has and the catalog's source language lacks. Without it they are
	// left alone. It needs the source language in the catalog.
	Delete bool
	// AllowMassDelete lets Delete remove more than 10% of the
	// keys listed; without it such a plan fails with ErrMassDelete.
	AllowMassDelete bool
	// OnProgress, if set, is called as the keys are listed (Step
	// StepList), from the goroutine that called NewPlan.
	OnProgress func(Progress)
	// Hooks' Sync is told of the plan and its counts; nil is off.
	Hooks *hooks.Hooks
}

// A Plan is what a push would do to a project to make it hold the
// catalog's texts: the keys to create, the texts to change, the keys to
// delete, and what it leaves alone and why. It writes only texts that
// differ: an identical write still marks a text pending and republishes
// it. Making the plan writes nothing (a dry run); Apply carries it out.
//
// Languages are the project's codes, as the service spells them.
type Plan struct {
	Project        string `json:"project"`
	SourceLanguage string `json:"sourceLanguage"`
	// Languages and Namespaces are what the plan covers.
	Languages  []string `json:"languages"`
	Namespaces []string `json:"namespaces"`
	// Create are the keys to create, with their source text and
	// translations (one createKeys item each).
	Create []keys.NewKey `json:"create,omitempty"`
	// Update are the source texts and translations to write to keys the
	// project has.
	Update []Change `json:"update,omitempty"`
	// Delete are the keys to delete (PlanOptions.Delete).
	Delete []keys.KeyRef `json:"delete,omitempty"`
	// Skipped are texts the plan does not send, with the reason. A new
	// key whose source text the file marks untranslated is listed here
	// (reason "untranslated in the file"); a translation so marked is
	// only counted (Count.Untranslated).
	Skipped []Item `json:"skipped,omitempty"`
	// Opaque are the namespaces whose keys are identifiers (read with a
	// Format whose OpaqueKeys is true): no dotted-path rule applies to
	// them, and their keys are created with keys.CreateOptions.Force.
	Opaque []string `json:"opaque,omitempty"`
	// Counts counts the texts by language and namespace: Created,
	// Updated and Deleted are what the plan would do.
	Counts []Count `json:"counts"`
	// Listed is the number of keys the service listed.
	Listed int `json:"listed"`
}

// A Change is what a plan writes to a key the project has.
type Change struct {
	Namespace string `json:"namespace"`
	Key       string `json:"key"`
	ID        string `json:"id"`
	// Source is the new source text; nil leaves it.
	Source *string `json:"source,omitempty"`
	// Translations are the texts to write, by target language.
	Translations map[string]string `json:"translations,omitempty"`
	// Unescaped says every text of the change differs from the
	// service's only in a file format's escapes: the service holds it as
	// a file spelled it (Android's \' or &amp;), from a push before
	// texts were read as a translator reads them. Writing it stores the
	// text once as read; no person edited it.
	Unescaped bool `json:"unescaped,omitempty"`
}

// An Item is one key in a plan's or a report's lists: the languages
// concerned and, for what was skipped or failed, why.
type Item struct {
	Namespace string   `json:"namespace"`
	Key       string   `json:"key"`
	ID        string   `json:"id,omitempty"`
	Languages []string `json:"languages,omitempty"`
	Reason    string   `json:"reason,omitempty"`
}

// Count counts texts of one language and namespace. A deleted key
// counts once, in the source language.
type Count struct {
	Language  string `json:"language"`
	Namespace string `json:"namespace"`
	Created   int    `json:"created"`
	Updated   int    `json:"updated"`
	Deleted   int    `json:"deleted"`
	Unchanged int    `json:"unchanged"`
	Skipped   int    `json:"skipped"`
	Failed    int    `json:"failed"`
	// Untranslated counts the texts the files mark not translated yet
	// (Message.Untranslated): never sent, neither as a translation nor
	// as the source text of a new key.
	Untranslated int `json:"untranslated,omitempty"`
	// Unescaped counts the Updated texts that differ from the
	// service's only in escapes (see Change.Unescaped).
	Unescaped int `json:"unescaped,omitempty"`
	// NotConfirmed counts the texts a report lists in
	// Report.NotConfirmed; a plan's is 0.
	NotConfirmed int `json:"notConfirmed,omitempty"`
}

// Empty reports whether the plan writes nothing.
func (p *Plan) Empty() bool { return len(p.Create)+len(p.Update)+len(p.Delete) == 0 }

// Step names what a sync is doing, in Progress.
type Step string

// The steps of a push and a pull.
const (
	StepList      Step = "list"      // listing the project's keys
	StepDelete    Step = "delete"    // deleting keys
	StepCreate    Step = "create"    // creating keys
	StepUpdate    Step = "update"    // writing source texts
	StepTranslate Step = "translate" // writing translations
	StepPublish   Step = "publish"   // publishing (waiting out the cooldown)
	StepWait      Step = "wait"      // waiting for sync jobs
	StepFetch     Step = "fetch"     // fetching files from the CDN
)

// Progress says how far a step is: Done of Total keys (list, writes),
// sync jobs (wait) or files (fetch). Total is 0 when not known yet.
type Progress struct {
	Step  Step `json:"step"`
	Done  int  `json:"done"`
	Total int  `json:"total"`
}

type countKey struct{ lang, ns string }

type nsKey struct{ ns, key string }

// NewPlan compares cat with project ("org/project") as the service holds
// it, listing its keys with their texts page by page, and returns what a
// push would do. It writes nothing.
//
// Before the plan is returned, every problem is reported at once as an
// *InputError naming the file, line and key (for catalogs that Load
// read): a language the project lacks, a key that would be both a text
// and the parent of another key here or on the service (except in a
// namespace whose keys are identifiers, see Plan.Opaque). A key only in
// target languages (not in the source language's files) is skipped with
// its reason: keys are created from their source text. A text the file
// marks untranslated (Message.Untranslated) is never sent, only counted
// (Count.Untranslated); a new key whose source text is so marked is not
// created and is listed in Skipped. A plan that would delete too much
// fails with ErrMassDelete.
func NewPlan(ctx context.Context, c *partner.Client, project string, cat *Catalog, opt PlanOptions) (*Plan, error) {
	start := time.Now()
	p, err := newPlan(ctx, client{c}, project, cat, opt)
	tell(ctx, opt.Hooks, hooks.Planned, project, start, err, func() map[string]int {
		return map[string]int{"create": len(p.Create), "update": len(p.Update), "delete": len(p.Delete), "skip": len(p.Skipped)}
	})
	return p, err
}

// tell gives the Sync hook a step's counts (items, called only when the
// hook is set and the step has a result: a push's report comes with its
// failure too).
func tell(ctx context.Context, h *hooks.Hooks, phase hooks.SyncPhase, project string, start time.Time, err error, items func() map[string]int) {
	if h == nil || h.Sync == nil {
		return
	}
	s := hooks.Sync{Phase: phase, Project: project, Duration: time.Since(start), Err: err}
	if err == nil || phase == hooks.Applied {
		s.Items = items()
	}
	h.Sync(ctx, s)
}

func newPlan(ctx context.Context, r remote, project string, cat *Catalog, opt PlanOptions) (*Plan, error) {
	info, err := r.project(ctx, project)
	if err != nil {
		return nil, err
	}
	if info.source == "" {
		return nil, fmt.Errorf("locales: project %s has no source language: %w", project, partner.ErrUnexpectedResponse)
	}
	p := &Plan{Project: project, SourceLanguage: info.source}
	pl := planner{plan: p, cat: cat, counts: map[countKey]*Count{}}
	problems := pl.languages(info, opt.Languages)
	pl.namespaces(opt.Namespaces)
	pl.opaqueNamespaces()
	if opt.Delete && pl.src == nil {
		problems = append(problems, Problem{Language: info.source, Message: fmt.Sprintf(
			"Delete needs the source language %s in the catalog: keys are deleted when its files lack them", info.source)})
	}
	for _, pr := range cat.conflicts() {
		if !pl.opaque[pr.Namespace] {
			problems = append(problems, pr)
		}
	}
	if len(p.Namespaces) == 0 {
		if err := inputError(problems); err != nil {
			return nil, err
		}
		p.Counts = []Count{}
		return p, nil
	}
	// The keys are listed even when the catalog has problems already, so
	// that those with the project's keys are reported with them, in one
	// error: a user fixes them all in one go.
	if err := pl.list(ctx, r, opt); err != nil {
		return nil, err
	}
	problems = append(problems, pl.creates()...)
	if err := inputError(problems); err != nil {
		return nil, err
	}
	if opt.Delete && !opt.AllowMassDelete && float64(len(p.Delete)) > maxDeleteShare*float64(p.Listed) {
		return nil, fmt.Errorf("%w (%d of %d keys)", ErrMassDelete, len(p.Delete), p.Listed)
	}
	pl.finish()
	return p, nil
}

// planner holds what NewPlan works with.
type planner struct {
	plan    *Plan
	cat     *Catalog
	src     *langTexts   // the catalog's source language; nil when absent
	targets []*langTexts // the catalog's target languages covered
	codes   []string     // the project's codes of targets, in step
	covered map[string]bool
	remote  map[nsKey]string // listed keys -> id
	deleted map[nsKey]bool
	counts  map[countKey]*Count
	skipped map[nsKey]*Item
	opaque  map[string]bool // namespaces whose keys are identifiers
}

// languages matches the catalog's languages with the project's.
func (pl *planner) languages(info *projectInfo, keep []string) []Problem {
	project := map[string]string{languageKey(info.source): info.source}
	for _, t := range info.targets {
		project[languageKey(t)] = t
	}
	kept := map[string]bool{}
	for _, l := range keep {
		kept[languageKey(l)] = true
	}
	var problems []Problem
	for _, lk := range slices.Sorted(maps.Keys(pl.cat.langs)) {
		l := pl.cat.langs[lk]
		if len(keep) > 0 && !kept[lk] {
			continue
		}
		code, ok := project[lk]
		switch {
		case !ok:
			file := ""
			for _, ns := range slices.Sorted(maps.Keys(l.ns)) {
				file = cmp.Or(file, l.ns[ns].file)
			}
			problems = append(problems, Problem{File: file, Language: l.code, Message: fmt.Sprintf(
				"project %s has no language %s (source %s, targets %s): add it to the project (Projects.AddLanguage, or the service's dashboard), or leave its files out", pl.plan.Project, quote(l.code), info.source, strings.Join(info.targets, ", "))})
			continue
		case lk == languageKey(info.source):
			pl.src = l
		default:
			pl.targets = append(pl.targets, l)
			pl.codes = append(pl.codes, code)
		}
		pl.plan.Languages = append(pl.plan.Languages, code)
	}
	return problems
}

// namespaces settles the namespaces the plan covers.
func (pl *planner) namespaces(keep []string) {
	pl.covered = map[string]bool{}
	if keep != nil {
		for _, ns := range keep {
			pl.covered[ns] = true
		}
	} else {
		for _, l := range pl.langs() {
			for ns, n := range l.ns {
				if len(n.texts) > 0 {
					pl.covered[ns] = true
				}
			}
		}
	}
	pl.plan.Namespaces = slices.Sorted(maps.Keys(pl.covered))
}

// opaqueNamespaces settles the namespaces whose keys are identifiers:
// those a file of any language read as such.
func (pl *planner) opaqueNamespaces() {
	pl.opaque = map[string]bool{}
	for _, l := range pl.cat.langs {
		for ns, n := range l.ns {
			if n.opaque {
				pl.opaque[ns] = true
			}
		}
	}
	for _, ns := range pl.plan.Namespaces {
		if pl.opaque[ns] {
			pl.plan.Opaque = append(pl.plan.Opaque, ns)
		}
	}
}

// langs returns the catalog's languages the plan covers.
func (pl *planner) langs() []*langTexts {
	if pl.src == nil {
		return pl.targets
	}
	return append([]*langTexts{pl.src}, pl.targets...)
}

func (pl *planner) count(lang, ns string) *Count {
	c := pl.counts[countKey{lang, ns}]
	if c == nil {
		c = &Count{Language: lang, Namespace: ns}
		pl.counts[countKey{lang, ns}] = c
	}
	return c
}

func (pl *planner) source(ns, key string) (text, bool) {
	if pl.src == nil {
		return text{}, false
	}
	n := pl.src.ns[ns]
	if n == nil {
		return text{}, false
	}
	t, ok := n.texts[key]
	return t, ok
}

// list lists the project's keys of the covered namespaces and compares
// each with the catalog.
func (pl *planner) list(ctx context.Context, r remote, opt PlanOptions) error {
	p := pl.plan
	pl.remote = map[nsKey]string{}
	pl.deleted = map[nsKey]bool{}
	lopt := keys.ListOptions{Namespaces: p.Namespaces, Fields: []keys.Field{keys.FieldID, keys.FieldSourceText, keys.FieldTranslations}}
	for page, err := range r.keyPages(ctx, p.Project, lopt) {
		if err != nil {
			return err
		}
		for i := range page.Keys {
			k := &page.Keys[i]
			nk := nsKey{k.Namespace, k.Name}
			if _, dup := pl.remote[nk]; dup || k.LegacyDuplicate || !pl.covered[k.Namespace] {
				continue
			}
			pl.remote[nk] = k.ID
			p.Listed++
			pl.compare(k, opt.Delete)
		}
		if opt.OnProgress != nil {
			opt.OnProgress(Progress{Step: StepList, Done: p.Listed, Total: page.Total})
		}
	}
	return nil
}

// compare adds what a listed key needs to the plan.
func (pl *planner) compare(k *keys.Key, del bool) {
	p := pl.plan
	u := Change{Namespace: k.Namespace, Key: k.Name, ID: k.ID}
	escaped := 0 // texts of u that differ only in escapes
	src, hasSrc := pl.source(k.Namespace, k.Name)
	if del && !hasSrc {
		p.Delete = append(p.Delete, keys.KeyRef{Namespace: k.Namespace, Name: k.Name, ID: k.ID})
		pl.deleted[nsKey{k.Namespace, k.Name}] = true
		pl.count(p.SourceLanguage, k.Namespace).Deleted++
		return
	}
	if hasSrc {
		switch {
		case src.untranslated:
			pl.count(p.SourceLanguage, k.Namespace).Untranslated++
		case src.s != k.SourceText:
			s := src.s // only the text escapes
			u.Source = &s
			c := pl.count(p.SourceLanguage, k.Namespace)
			c.Updated++
			if onlyEscapes(k.SourceText, src.s) {
				c.Unescaped++
				escaped++
			}
		default:
			pl.count(p.SourceLanguage, k.Namespace).Unchanged++
		}
	}
	for i, l := range pl.targets {
		n := l.ns[k.Namespace]
		if n == nil {
			continue
		}
		t, ok := n.texts[k.Name]
		if !ok {
			continue
		}
		code := pl.codes[i]
		if t.untranslated {
			pl.count(code, k.Namespace).Untranslated++
			continue
		}
		old, ok := translation(k.Translations, code)
		if ok && old == t.s {
			pl.count(code, k.Namespace).Unchanged++
			continue
		}
		if u.Translations == nil {
			u.Translations = make(map[string]string, len(pl.targets)-i)
		}
		u.Translations[code] = t.s
		c := pl.count(code, k.Namespace)
		c.Updated++
		if onlyEscapes(old, t.s) {
			c.Unescaped++
			escaped++
		}
	}
	if u.Source != nil || u.Translations != nil {
		u.Unescaped = escaped == len(u.Translations)+btoi(u.Source != nil)
		p.Update = append(p.Update, u)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// onlyEscapes reports whether old, the service's text, is the file's
// text s with a format's escapes still in it: backslash escapes (\'
// \" \\ \n \t \@ \? \uXXXX, as Android, Apple and .properties files
// write them) and XML character references (&amp; &#39;).
func onlyEscapes(old, s string) bool {
	if old == s || !strings.ContainsAny(old, "\\&") {
		return false
	}
	var b strings.Builder
	for i := 0; i < len(old); i++ {
		c := old[i]
		if c != '\\' || i+1 == len(old) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := old[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := strconv.ParseUint(old[i+1:min(i+5, len(old))], 16, 32)
			if err != nil || i+5 > len(old) {
				return false // not an escape: the text differs otherwise
			}
			b.WriteRune(rune(r))
			i += 4
		default:
			b.WriteByte(e)
		}
	}
	return html.UnescapeString(b.String()) == s
}

// untranslatedInFile is the reason a new key whose source text the file
// marks untranslated is not created.
const untranslatedInFile = "untranslated in the file: a key is created from its source text"

// creates adds the catalog's keys the service lacks, and returns the
// problems they meet: a key that would be both a text and a parent with
// the keys the project keeps (not in an opaque namespace).
func (pl *planner) creates() []Problem {
	p := pl.plan
	var problems []Problem
	var parents map[nsKey]string // a kept key's dotted prefixes -> the key
	for _, ns := range p.Namespaces {
		var srcTexts map[string]text
		if pl.src != nil && pl.src.ns[ns] != nil {
			srcTexts = pl.src.ns[ns].texts
		}
		for key, t := range srcTexts {
			if _, ok := pl.remote[nsKey{ns, key}]; ok {
				continue
			}
			if t.untranslated {
				pl.untranslatedKey(ns, key)
				continue
			}
			if !pl.opaque[ns] {
				if parents == nil {
					parents = pl.parents()
				}
				if other, ok := pl.clash(parents, ns, key); ok {
					file, line := pl.cat.where(languageKey(pl.src.code), ns, key)
					problems = append(problems, Problem{File: file, Line: line, Language: pl.src.code, Namespace: ns, Key: key, Message: fmt.Sprintf(
						"new key %s and the project's key %s would make one both a text and a parent", quote(key), quote(other))})
					continue
				}
			}
			nk := keys.NewKey{Namespace: ns, Name: key, SourceText: t.s}
			pl.count(p.SourceLanguage, ns).Created++
			for i, l := range pl.targets {
				n := l.ns[ns]
				if n == nil {
					continue
				}
				if tt, ok := n.texts[key]; ok {
					if tt.untranslated {
						pl.count(pl.codes[i], ns).Untranslated++
						continue
					}
					if nk.Translations == nil {
						nk.Translations = make(map[string]string, len(pl.targets)-i)
					}
					nk.Translations[pl.codes[i]] = tt.s
					pl.count(pl.codes[i], ns).Created++
				}
			}
			p.Create = append(p.Create, nk)
		}
		for i, l := range pl.targets {
			n := l.ns[ns]
			if n == nil {
				continue
			}
			for key := range n.texts {
				if _, ok := pl.remote[nsKey{ns, key}]; ok {
					continue
				}
				if _, ok := srcTexts[key]; ok {
					continue
				}
				if n.texts[key].untranslated {
					pl.count(pl.codes[i], ns).Untranslated++
					continue
				}
				pl.skip(ns, key, pl.codes[i], fmt.Sprintf("not in the source language %s: keys are created from their source text", p.SourceLanguage))
			}
		}
	}
	return problems
}

// parents returns the dotted prefixes of the keys the project keeps.
func (pl *planner) parents() map[nsKey]string {
	out := map[nsKey]string{}
	for nk := range pl.remote {
		if pl.deleted[nk] {
			continue
		}
		for i := strings.IndexByte(nk.key, '.'); i >= 0; i = next(nk.key, i) {
			out[nsKey{nk.ns, nk.key[:i]}] = nk.key
		}
	}
	return out
}

// clash returns a kept key of the project that key would be a text and
// a parent with.
func (pl *planner) clash(parents map[nsKey]string, ns, key string) (string, bool) {
	if child, ok := parents[nsKey{ns, key}]; ok {
		return child, true
	}
	for i := strings.IndexByte(key, '.'); i >= 0; i = next(key, i) {
		nk := nsKey{ns, key[:i]}
		if _, ok := pl.remote[nk]; ok && !pl.deleted[nk] {
			return nk.key, true
		}
	}
	return "", false
}

// untranslatedKey skips a new key whose source text the file marks
// untranslated, with its translations: it is listed once in Skipped, its
// texts counted as untranslated (those so marked) or skipped.
func (pl *planner) untranslatedKey(ns, key string) {
	p := pl.plan
	pl.listSkipped(ns, key, p.SourceLanguage, untranslatedInFile)
	pl.count(p.SourceLanguage, ns).Untranslated++
	for i, l := range pl.targets {
		n := l.ns[ns]
		if n == nil {
			continue
		}
		if t, ok := n.texts[key]; ok {
			if t.untranslated {
				pl.count(pl.codes[i], ns).Untranslated++
				continue
			}
			pl.skip(ns, key, pl.codes[i], untranslatedInFile)
		}
	}
}

// skip lists a text as skipped, and counts it.
func (pl *planner) skip(ns, key, lang, reason string) {
	pl.listSkipped(ns, key, lang, reason)
	pl.count(lang, ns).Skipped++
}

// listSkipped adds lang to the item of a key in Skipped, making the
// item, with reason, when it is the key's first.
func (pl *planner) listSkipped(ns, key, lang, reason string) {
	if pl.skipped == nil {
		pl.skipped = map[nsKey]*Item{}
	}
	it := pl.skipped[nsKey{ns, key}]
	if it == nil {
		it = &Item{Namespace: ns, Key: key, Reason: reason}
		pl.skipped[nsKey{ns, key}] = it
	}
	it.Languages = append(it.Languages, lang)
}

// finish sorts the plan's lists.
func (pl *planner) finish() {
	p := pl.plan
	slices.SortFunc(p.Create, func(a, b keys.NewKey) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	slices.SortFunc(p.Update, func(a, b Change) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Key, b.Key))
	})
	slices.SortFunc(p.Delete, func(a, b keys.KeyRef) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	for _, it := range pl.skipped {
		slices.Sort(it.Languages)
		p.Skipped = append(p.Skipped, *it)
	}
	sortItems(p.Skipped)
	p.Counts = sortedCounts(pl.counts)
}

// sortItems sorts a plan's or a report's list by namespace and key.
// The lists of a report arrive as runs already in order (each call's
// keys, the calls nearly in turn): a stable sort costs little more than
// a pass over them there, where pdqsort does its n log n (a quarter of
// an Apply of 100,000 keys, BenchmarkApplyRequests100k), and it keeps a
// key's entries in the order they were recorded.
func sortItems(items []Item) {
	slices.SortStableFunc(items, func(a, b Item) int {
		if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
			return c
		}
		return strings.Compare(a.Key, b.Key)
	})
}

func sortedCounts(m map[countKey]*Count) []Count {
	out := make([]Count, 0, len(m))
	for _, c := range m {
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b Count) int {
		return cmp.Or(strings.Compare(a.Language, b.Language), strings.Compare(a.Namespace, b.Namespace))
	})
	return out
}

// translation returns the text of language code in a listed key's
// translations, whose codes the service may spell in another case.
func translation(tr map[string]string, code string) (string, bool) {
	if t, ok := tr[code]; ok {
		return t, true
	}
	for l, t := range tr {
		if languageKey(l) == languageKey(code) {
			return t, true
		}
	}
	return "", false
}
