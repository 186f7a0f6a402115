package locales

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// defaultConcurrency is how many write calls Apply has in flight at once
// unless ApplyOptions.Concurrency says otherwise. The client's pacing
// (partner.Pacing) still spaces them under the service's rate limit.
const defaultConcurrency = 4

// ErrNotConfirmed is matched by the error of an Apply whose report lists
// texts in NotConfirmed: the service may or may not have written them.
// Make a new plan to see what is there; applying it writes the rest.
var ErrNotConfirmed = errors.New("locales: not confirmed by the service")

// ApplyOptions says how to apply a plan.
type ApplyOptions struct {
	// Concurrency is how many calls are in flight at once;
	// 0 is 4, the default. The client's pacing (partner.Pacing) still
	// spaces the calls under the service's rate limit.
	Concurrency int
	// Publish publishes everything pending in the project once every
	// write call succeeded and no text is left not confirmed, including
	// changes this push did not make (the service publishes a project as
	// a whole). It needs the translations:publish scope. It publishes
	// with the client's Translations.PublishAndWait: the cooldown the
	// service names is waited out, then the sync jobs, whose final
	// status the report gives.
	Publish bool
	// OnProgress, if set, is called after each call with how far its
	// step is. Calls are never concurrent.
	OnProgress func(Progress)
	// Hooks' Sync is told of the push's counts; nil is off.
	Hooks *hooks.Hooks
}

// A Report is what Apply did: per key, what it created, updated, deleted
// and skipped, what failed or is not confirmed and why, and the sync
// jobs of the publish. It
// encodes to JSON as it is.
type Report struct {
	Project string `json:"project"`
	// Created are the keys created; Languages are the texts sent with
	// each (the source language first).
	Created []Item `json:"created,omitempty"`
	// Updated are the keys written; Languages are the texts written.
	Updated []Item `json:"updated,omitempty"`
	// Deleted are the keys deleted (for good at the next publish).
	Deleted []Item `json:"deleted,omitempty"`
	// Skipped are texts not sent (the plan's Skipped) or that the service
	// passed over (a key that exists, a key it blocks), with the reason.
	Skipped []Item `json:"skipped,omitempty"`
	// Failed are texts not written, with the reason: the service refused
	// them, or they were not sent. A push run again picks them up.
	Failed []Item `json:"failed,omitempty"`
	// NotConfirmed are texts the service may or may not have written: a
	// call whose answer never came (the context ended, a timeout, the
	// connection broke after sending) or an answer that does not list
	// them, with the reason. A push run again finds what is there and
	// writes the rest.
	NotConfirmed []Item `json:"notConfirmed,omitempty"`
	// Counts counts the texts by language and namespace.
	Counts []Count `json:"counts"`
	// Calls counts the tool calls Apply sent, by tool (the plan's reads
	// are not counted); a publish counts one publishTranslations and one
	// getSync per sync job, however often PublishAndWait asked.
	Calls map[string]int `json:"calls"`
	// Published is what the publish did (PublishAndWait's result: the
	// publish and its sync jobs as they ended); nil without
	// ApplyOptions.Publish or when a write call failed or a text is not
	// confirmed.
	Published *translations.PublishWaitResult `json:"published,omitempty"`
}

// Apply carries out the plan on the service with c and reports what it
// did. It deletes, then creates, then writes source texts, then
// translations, in the calls the SDK's splitters cut (KeysService.CreateBatches
// and the others: the tools' item limits and partner.MaxBatchBytes), with
// several calls in flight (see ApplyOptions.Concurrency). Then, with
// ApplyOptions.Publish, it publishes and waits for the sync jobs
// (TranslationsService.PublishAndWait).
//
// The report says a text was written only when the service's answer
// confirmed it (by key id, or by name, per language), and not written
// when the service refused it or it was not sent; the rest is
// NotConfirmed, and then the error matches ErrNotConfirmed. A failed
// call stops the push: calls in flight finish, no new ones start, and
// the report lists what was written and what was not, per key, with the
// error returned beside it. When ctx ends, the calls in flight are not
// confirmed and the rest not sent. Apply writes only what differs,
// so making a new plan and applying it picks up where the failed one
// stopped; applying the same plan twice does not write twice what the
// first wrote.
func (p *Plan) Apply(ctx context.Context, c *partner.Client, opt ApplyOptions) (*Report, error) {
	start := time.Now()
	rep, err := p.apply(ctx, client{c}, opt)
	tell(ctx, opt.Hooks, hooks.Applied, p.Project, start, err, func() map[string]int {
		return map[string]int{"create": len(rep.Created), "update": len(rep.Updated), "delete": len(rep.Deleted), "skip": len(rep.Skipped), "fail": len(rep.Failed)}
	})
	return rep, err
}

// applier carries out one plan.
type applier struct {
	plan *Plan
	r    remote
	opt  ApplyOptions

	mu       sync.Mutex // guards the rest
	rep      *Report
	counts   map[countKey]*Count
	err      error // the first failure
	progress Progress
}

func (p *Plan) apply(ctx context.Context, r remote, opt ApplyOptions) (*Report, error) {
	a := &applier{plan: p, r: r, opt: opt, rep: &Report{Project: p.Project, Calls: map[string]int{}}, counts: map[countKey]*Count{}}
	a.rep.Skipped = slices.Clone(p.Skipped)
	// Room for the usual outcome, so 100,000 keys are not copied as the
	// lists grow (Grow by 0 leaves a list nil).
	a.rep.Created = slices.Grow(a.rep.Created, len(p.Create))
	a.rep.Updated = slices.Grow(a.rep.Updated, len(p.Update))
	a.rep.Deleted = slices.Grow(a.rep.Deleted, len(p.Delete))
	for _, c := range p.Counts {
		a.counts[countKey{c.Language, c.Namespace}] = &Count{Language: c.Language, Namespace: c.Namespace, Unchanged: c.Unchanged, Skipped: c.Skipped, Untranslated: c.Untranslated}
	}
	a.run(ctx, StepDelete, a.deleteBatches())
	a.run(ctx, StepCreate, a.createBatches())
	a.run(ctx, StepUpdate, a.updateBatches())
	a.run(ctx, StepTranslate, a.translateBatches())
	rep := a.rep
	if a.err == nil && len(rep.NotConfirmed) == 0 && opt.Publish {
		a.err = a.publish(ctx)
	}
	rep.Counts = sortedCounts(a.counts)
	for _, l := range [][]Item{rep.Created, rep.Updated, rep.Deleted, rep.Skipped, rep.Failed, rep.NotConfirmed} {
		sortItems(l)
	}
	switch {
	case a.err != nil && len(rep.NotConfirmed) > 0:
		return rep, unconfirmedError{fmt.Errorf("locales: push of %s stopped, %d keys not written, %d not confirmed: %w",
			p.Project, len(rep.Failed), len(rep.NotConfirmed), a.err)}
	case a.err != nil && len(rep.Failed) > 0:
		return rep, fmt.Errorf("locales: push of %s stopped, %d keys not written: %w", p.Project, len(rep.Failed), a.err)
	case a.err != nil:
		return rep, fmt.Errorf("locales: publishing %s: %w", p.Project, a.err)
	case len(rep.NotConfirmed) > 0:
		return rep, unconfirmedError{fmt.Errorf("locales: push of %s: %d keys not confirmed by the service", p.Project, len(rep.NotConfirmed))}
	}
	return rep, nil
}

// unconfirmedError is the error of an Apply whose report lists texts not
// confirmed: it matches ErrNotConfirmed, and what it wraps.
type unconfirmedError struct{ error }

func (e unconfirmedError) Is(target error) bool { return target == ErrNotConfirmed }
func (e unconfirmedError) Unwrap() error        { return e.error }

// A batch is one call. items are what it sends, one per key with the
// languages of its texts; send makes the call and records what the
// answer says of each, or returns the error of a call without a usable
// answer.
type batch struct {
	items []Item
	send  func(ctx context.Context) error
}

// run sends the batches of one step, Concurrency at a time. After the
// first failure, or once ctx is done, it sends no more and records the
// rest as not sent; the calls in flight finish.
func (a *applier) run(ctx context.Context, step Step, bs []batch) {
	total := 0
	for _, b := range bs {
		total += len(b.items)
	}
	a.progress = Progress{Step: step, Total: total}
	n := a.opt.Concurrency
	if n <= 0 {
		n = defaultConcurrency
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for _, b := range bs {
		sem <- struct{}{}
		if a.stopped(ctx, b.items) {
			<-sem
			continue
		}
		wg.Go(func() {
			defer func() { <-sem }()
			err := b.send(ctx)
			a.mu.Lock()
			defer a.mu.Unlock()
			if err != nil {
				if a.err == nil {
					a.err = err
				}
				a.unanswered(b.items, err)
				return
			}
			a.progress.Done += len(b.items)
			if a.opt.OnProgress != nil {
				a.opt.OnProgress(a.progress)
			}
		})
	}
	wg.Wait()
}

// stopped reports whether the push stopped, at a failure or because ctx
// is done, and if so records items as not sent.
func (a *applier) stopped(ctx context.Context, items []Item) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	why := "not sent: the push stopped at an earlier failure"
	if err := ctx.Err(); err != nil {
		why = "not sent: " + err.Error()
		if a.err == nil {
			a.err = err
		}
	}
	if a.err == nil {
		return false
	}
	for _, it := range items {
		it.Reason = why
		a.failItem(it)
	}
	return true
}

// unanswered records the items of a call that failed with err: not
// confirmed when the call may have run (see unconfirmed), not written
// otherwise. a.mu is held.
func (a *applier) unanswered(items []Item, err error) {
	for _, it := range items {
		if unconfirmed(err) {
			it.Reason = notConfirmed + err.Error()
			a.notConfirm(it)
			continue
		}
		it.Reason = err.Error()
		a.failItem(it)
	}
}

// notConfirmed starts the reason of a text whose write is not known.
const notConfirmed = "not confirmed (the next push checks): "

// unconfirmed reports whether err leaves unknown what a write call did:
// it may have run on the service but its answer never came (the context
// ended, a timeout, the connection broke after sending, the client was
// closed) or could not be read.
func unconfirmed(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.Is(err, partner.ErrTemporary) || errors.Is(err, partner.ErrUnexpectedResponse) ||
		errors.Is(err, partner.ErrClosed)
}

// call counts a tool call; a.mu is held.
func (a *applier) call(tool string) { a.rep.Calls[tool]++ }

func (a *applier) count(lang, ns string) *Count {
	c := a.counts[countKey{lang, ns}]
	if c == nil {
		c = &Count{Language: lang, Namespace: ns}
		a.counts[countKey{lang, ns}] = c
	}
	return c
}

// record adds it to list and counts its languages in the field of Count
// that n picks; a.mu is held.
func (a *applier) record(list *[]Item, it Item, n func(*Count) *int) {
	*list = append(*list, it)
	for _, l := range it.Languages {
		*n(a.count(l, it.Namespace))++
	}
}

// failItem records texts as not written; a.mu is held.
func (a *applier) failItem(it Item) {
	a.record(&a.rep.Failed, it, func(c *Count) *int { return &c.Failed })
}

// notConfirm records texts as not confirmed; a.mu is held.
func (a *applier) notConfirm(it Item) {
	a.record(&a.rep.NotConfirmed, it, func(c *Count) *int { return &c.NotConfirmed })
}

// keyIndex finds the key of a call that an answer's entry names. An
// answer usually lists the keys in the order sent: next is where the
// next id is looked for first, and the maps are made when first needed.
type keyIndex struct {
	sent   []Item
	next   int
	byID   map[string]int
	byName map[string][]int
}

func newKeyIndex(sent []Item) *keyIndex {
	return &keyIndex{sent: sent}
}

// find returns the index of the key sent that an entry names: by id
// when the entry has one, else by name (and namespace, when the entry
// has one) when exactly one key sent matches; -1 otherwise.
func (x *keyIndex) find(id, name, ns string) int {
	if id != "" {
		if x.next < len(x.sent) && x.sent[x.next].ID == id {
			x.next++
			return x.next - 1
		}
		if x.byID == nil {
			x.byID = make(map[string]int, len(x.sent))
			for i, it := range x.sent {
				if it.ID != "" {
					x.byID[it.ID] = i
				}
			}
		}
		if i, ok := x.byID[id]; ok {
			x.next = i + 1
			return i
		}
		return -1
	}
	if x.byName == nil {
		x.byName = make(map[string][]int, len(x.sent))
		for i, it := range x.sent {
			x.byName[it.Key] = append(x.byName[it.Key], i)
		}
	}
	found := -1
	for _, i := range x.byName[name] {
		if ns != "" && x.sent[i].Namespace != ns {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = i
	}
	return found
}

// The batch builders cut each step's writes with the SDK's splitters
// (partner.KeysService.CreateBatches and the others), which measure the
// calls as they are sent and send nothing: a zero service splits as a
// client's does. A batch is a run of the list split, in order, so the
// plan's entries of batch i follow those of the batches before it.

func (a *applier) deleteBatches() []batch {
	p := a.plan
	ids := make([]string, len(p.Delete))
	for i, k := range p.Delete {
		ids[i] = k.ID
	}
	var bs []batch
	off := 0
	for _, part := range new(partner.KeysService).DeleteBatches(p.Project, ids) {
		refs := p.Delete[off : off+len(part)]
		off += len(part)
		items := make([]Item, len(refs))
		for i, k := range refs {
			items[i] = Item{Namespace: k.Namespace, Key: k.Name, ID: k.ID, Languages: []string{p.SourceLanguage}}
		}
		bs = append(bs, batch{items: items, send: func(ctx context.Context) error {
			res, err := a.r.deleteKeys(ctx, p.Project, part)
			a.mu.Lock()
			defer a.mu.Unlock()
			a.call("deleteKeys")
			if err != nil {
				return err
			}
			x := newKeyIndex(items)
			deleted := make([]bool, len(items))
			for _, k := range res.Deleted {
				if i := x.find(k.ID, k.Name, k.Namespace); i >= 0 {
					deleted[i] = true
				}
			}
			skipped := map[string]bool{}
			for _, id := range res.Skipped {
				skipped[id] = true
			}
			for i, it := range items {
				switch {
				case deleted[i]:
					it.Languages = nil // a deleted key counts once, in the source language
					a.rep.Deleted = append(a.rep.Deleted, it)
					a.count(p.SourceLanguage, it.Namespace).Deleted++
				case skipped[it.ID]:
					it.Languages, it.Reason = nil, "the service passed over it (unknown or already deleted)"
					a.rep.Skipped = append(a.rep.Skipped, it)
					a.count(p.SourceLanguage, it.Namespace).Skipped++
				default:
					it.Reason = notConfirmed + "the service's answer does not list it"
					a.notConfirm(it)
				}
			}
			return nil
		}})
	}
	return bs
}

// languages returns the languages of a key's texts: source first when
// there is one, then the translations' sorted, in the one slice it
// makes (for 100,000 keys, collecting the map's keys into a slice of
// their own and then copying it was most of the report's cost).
func languages(source string, hasSource bool, tr map[string]string) []string {
	out := make([]string, 0, len(tr)+1)
	if hasSource {
		out = append(out, source)
	}
	n := len(out)
	for l := range tr {
		out = append(out, l)
	}
	slices.Sort(out[n:])
	return out
}

// createBatches cuts the plan's new keys into createKeys calls: those
// of the plan's opaque namespaces (Plan.Opaque) in calls of their own,
// with keys.CreateOptions.Force, the service's leaf-and-parent rule
// being no rule of theirs.
func (a *applier) createBatches() []batch {
	p := a.plan
	plain, forced := p.Create, []keys.NewKey(nil)
	if len(p.Opaque) > 0 {
		plain = nil
		for _, k := range p.Create {
			if slices.Contains(p.Opaque, k.Namespace) {
				forced = append(forced, k)
			} else {
				plain = append(plain, k)
			}
		}
	}
	var bs []batch
	for _, opt := range []keys.CreateOptions{{}, {Force: true}} {
		ks := plain
		if opt.Force {
			ks = forced
		}
		if len(ks) == 0 {
			continue
		}
		for _, part := range new(partner.KeysService).CreateBatches(p.Project, ks, opt) {
			bs = append(bs, a.createBatch(part, opt))
		}
	}
	return bs
}

// createBatch is the createKeys call of nks.
func (a *applier) createBatch(nks []keys.NewKey, opt keys.CreateOptions) batch {
	p := a.plan
	items := make([]Item, len(nks))
	for i, k := range nks {
		items[i] = Item{Namespace: k.Namespace, Key: k.Name, Languages: languages(p.SourceLanguage, true, k.Translations)}
	}
	return batch{items: items, send: func(ctx context.Context) error {
		res, err := a.r.createKeys(ctx, p.Project, nks, opt)
		a.mu.Lock()
		defer a.mu.Unlock()
		a.call("createKeys")
		if err != nil {
			return err
		}
		ids := make(map[string]string, len(res.Created))
		for _, c := range res.Created {
			ids[c.Name] = c.ID
		}
		why := map[string]string{}
		for _, s := range res.Skipped {
			why[s.Name] = "the service skipped it: " + s.Reason
		}
		for _, b := range res.Blocked {
			why[b.Name] = "the service blocked it: " + b.Reason
		}
		for _, it := range items {
			if id, ok := ids[it.Key]; ok {
				it.ID = id
				a.record(&a.rep.Created, it, func(c *Count) *int { return &c.Created })
				continue
			}
			if r, ok := why[it.Key]; ok {
				it.Reason = r
				a.record(&a.rep.Skipped, it, func(c *Count) *int { return &c.Skipped })
				continue
			}
			it.Reason = notConfirmed + "the service's answer does not list it"
			a.notConfirm(it)
		}
		return nil
	}}
}

func (a *applier) updateBatches() []batch {
	p := a.plan
	var us []*Change
	for i := range p.Update {
		if p.Update[i].Source != nil {
			us = append(us, &p.Update[i])
		}
	}
	all := make([]keys.Update, len(us))
	for i, u := range us {
		all[i] = keys.Update{KeyID: u.ID, Language: p.SourceLanguage, Text: *u.Source, Source: true}
	}
	// updateKeys may name a key by its name alone: a name twice in one
	// call would be ambiguous, so it starts a new call.
	var bs []batch
	off := 0
	for _, sized := range new(partner.KeysService).UpdateBatches(p.Project, all) {
		for _, r := range cutNames(us[off : off+len(sized)]) {
			part, ups := us[off+r[0]:off+r[1]], sized[r[0]:r[1]]
			items := make([]Item, len(part))
			for i, u := range part {
				items[i] = Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: []string{p.SourceLanguage}}
			}
			bs = append(bs, a.updateBatch(items, ups))
		}
		off += len(sized)
	}
	return bs
}

// updateBatch is the updateKeys call of ups, for items.
func (a *applier) updateBatch(items []Item, ups []keys.Update) batch {
	p := a.plan
	return batch{items: items, send: func(ctx context.Context) error {
		res, err := a.r.updateKeys(ctx, p.Project, ups)
		a.mu.Lock()
		defer a.mu.Unlock()
		a.call("updateKeys")
		if err != nil {
			return err
		}
		a.tally(items, res.Updated, res.Errors, p.SourceLanguage)
		return nil
	}}
}

// cutNames splits us where a key name repeats, as [start, end) ranges,
// for updateKeys, whose answers may name a key by its name alone.
func cutNames(us []*Change) [][2]int {
	var out [][2]int
	start, names := 0, map[string]bool{}
	for i, u := range us {
		if names[u.Key] {
			out = append(out, [2]int{start, i})
			start, names = i, map[string]bool{}
		}
		names[u.Key] = true
	}
	if len(us) > start {
		out = append(out, [2]int{start, len(us)})
	}
	return out
}

func (a *applier) translateBatches() []batch {
	p := a.plan
	var us []*Change
	for i := range p.Update {
		if len(p.Update[i].Translations) > 0 {
			us = append(us, &p.Update[i])
		}
	}
	all := make([]translations.Values, len(us))
	for i, u := range us {
		all[i] = translations.Values{KeyID: u.ID, Text: u.Translations}
	}
	var bs []batch
	off := 0
	for _, vs := range new(partner.TranslationsService).SetBatches(p.Project, all) {
		part := us[off : off+len(vs)]
		off += len(vs)
		items := make([]Item, len(part))
		for i, u := range part {
			items[i] = Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: languages("", false, u.Translations)}
		}
		bs = append(bs, batch{items: items, send: func(ctx context.Context) error {
			res, err := a.r.setTranslations(ctx, p.Project, vs)
			a.mu.Lock()
			defer a.mu.Unlock()
			a.call("setTranslations")
			if err != nil {
				return err
			}
			a.tally(items, res.Updated, res.Errors, "")
			return nil
		}})
	}
	return bs
}

// tally records what an updateKeys or setTranslations answer says of the
// texts sent, per key and language: written when the answer lists the
// language as written (source, the language of an updateKeys source
// text, when it says the source changed), not written when it lists it
// as refused (a refusal naming no language refuses them all), and not
// confirmed otherwise. An entry names its key by id, or by name (and
// namespace) alone. a.mu is held.
func (a *applier) tally(sent []Item, written []translations.UpdatedKey, refused []translations.ItemError, source string) {
	x := newKeyIndex(sent)
	first := make([]int, len(sent)) // by key: 1 + the index in written of its entry; 0: none
	var more, no map[int][]int      // by key: further entries of written; entries of refused
	for j := range written {
		switch i := x.find(written[j].KeyID, written[j].Name, ""); {
		case i < 0:
		case first[i] == 0:
			first[i] = j + 1
		default:
			more = appendAt(more, i, j)
		}
	}
	for j := range refused {
		if i := x.find(refused[j].KeyID, refused[j].Name, refused[j].Namespace); i >= 0 {
			no = appendAt(no, i, j)
		}
	}
	for i, it := range sent {
		// why is "" for a language written, else the reason it is not.
		why := func(l string) string {
			lists := func(j int) bool {
				u := &written[j]
				return u.Source && source != "" && sameLanguage(l, source) ||
					slices.ContainsFunc(u.Languages, func(w string) bool { return sameLanguage(l, w) })
			}
			wrote := first[i] > 0 && lists(first[i]-1) || slices.ContainsFunc(more[i], lists)
			k := slices.IndexFunc(no[i], func(j int) bool {
				e := &refused[j]
				return len(e.Languages) == 0 || slices.ContainsFunc(e.Languages, func(r string) bool { return sameLanguage(l, r) })
			})
			switch {
			case wrote && k < 0:
				return ""
			case wrote:
				return notConfirmed + "the service's answer lists it as written and as refused"
			case k >= 0:
				e := &refused[no[i][k]]
				return "the service refused it: " + cmp.Or(e.Message, e.Code)
			}
			return notConfirmed + "the service's answer does not list it"
		}
		if !slices.ContainsFunc(it.Languages, func(l string) bool { return why(l) != "" }) {
			a.record(&a.rep.Updated, it, func(c *Count) *int { return &c.Updated })
			continue
		}
		var done []string
		var reasons []string           // in the order first met
		langs := map[string][]string{} // reason -> languages
		for _, l := range it.Languages {
			r := why(l)
			if r == "" {
				done = append(done, l)
				continue
			}
			if langs[r] == nil {
				reasons = append(reasons, r)
			}
			langs[r] = append(langs[r], l)
		}
		if len(done) > 0 {
			a.record(&a.rep.Updated, Item{Namespace: it.Namespace, Key: it.Key, ID: it.ID, Languages: done}, func(c *Count) *int { return &c.Updated })
		}
		for _, r := range reasons {
			f := Item{Namespace: it.Namespace, Key: it.Key, ID: it.ID, Languages: langs[r], Reason: r}
			if strings.HasPrefix(r, notConfirmed) {
				a.notConfirm(f)
			} else {
				a.failItem(f)
			}
		}
	}
}

// appendAt appends j to m[i], making m when nil.
func appendAt(m map[int][]int, i, j int) map[int][]int {
	if m == nil {
		m = map[int][]int{}
	}
	m[i] = append(m[i], j)
	return m
}

// sameLanguage reports whether two codes name one language.
func sameLanguage(a, b string) bool { return languageKey(a) == languageKey(b) }

// publish publishes the project with PublishAndWait, which waits out
// the cooldown the service names and then the sync jobs. Calls counts
// one publishTranslations and one getSync per job followed, however
// many times the SDK asked.
func (a *applier) publish(ctx context.Context) error {
	p := a.plan
	a.progressed(Progress{Step: StepPublish})
	res, err := a.r.publishAndWait(ctx, p.Project)
	a.mu.Lock()
	a.call("publishTranslations")
	if res != nil {
		a.rep.Published = res
		for range res.Syncs {
			a.call("getSync")
		}
	}
	a.mu.Unlock()
	if err != nil {
		return err
	}
	a.progressed(Progress{Step: StepWait, Done: len(res.Syncs), Total: len(res.Syncs)})
	for _, s := range res.Syncs {
		if s.Status != translations.SyncCompleted {
			return fmt.Errorf("locales: sync job %s ended %s: %s", s.ID, s.Status, s.Error)
		}
	}
	return nil
}

func (a *applier) progressed(pr Progress) {
	if a.opt.OnProgress != nil {
		a.opt.OnProgress(pr)
	}
}
