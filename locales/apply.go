package locales

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// How Apply batches its writes: the item limits the tools check, and a
// cap on the size of one call's arguments so that no request grows past
// about 1 MiB. createKeys and updateKeys check no item count; their
// batches are bounded by size alone.
const (
	maxSetItems    = translations.MaxSet // setTranslations: 1 to 500 keys
	maxDeleteItems = keys.MaxDelete      // deleteKeys: 1 to 100 ids
	maxCallBytes   = 1<<20 - 16<<10      // 1 MiB, less room for the JSON-RPC envelope
)

// DefaultConcurrency is how many write calls Apply has in flight at once
// unless ApplyOptions.Concurrency says otherwise. The client's pacing
// (partner.Pacing) still spaces them under the service's rate limit.
const DefaultConcurrency = 4

// maxPublishTries is how many times Apply publishes when the service
// answers with its cooldown.
const maxPublishTries = 5

// defaultCooldown is waited when the service names no wait.
const defaultCooldown = 30 * time.Second

// ApplyOptions says how to apply a plan.
type ApplyOptions struct {
	// Concurrency is how many calls are in flight at once;
	// 0 is DefaultConcurrency.
	Concurrency int
	// Publish publishes everything pending in the project once every
	// write succeeded, including changes this push did not make (the
	// service publishes a project as a whole). It needs the
	// translations:publish scope. When the service answers with its
	// publish cooldown, Apply waits the time it names and tries again.
	Publish bool
	// Wait waits for the sync jobs of the publish to end (WaitSync) and
	// reports their status.
	Wait bool
	// OnProgress, if set, is called after each call with how far its
	// step is. Calls are never concurrent.
	OnProgress func(Progress)
	// Hooks' Sync is told of the push's counts; nil is off.
	Hooks *hooks.Hooks
}

// A Report is what Apply did: per key, what it created, updated, deleted
// and skipped, what failed and why, and the sync jobs of the publish. It
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
	// Failed are texts not written, with the reason. A push run again
	// picks them up.
	Failed []Item `json:"failed,omitempty"`
	// Counts counts the texts by language and namespace.
	Counts []Count `json:"counts"`
	// Calls counts the tool calls Apply sent, by tool (the plan's reads
	// are not counted).
	Calls map[string]int `json:"calls"`
	// Published is what the publish did; nil without ApplyOptions.Publish
	// or when a write failed.
	Published *Published `json:"published,omitempty"`
}

// Published is what a publish did.
type Published struct {
	// Texts is the number of translations the service published.
	Texts int `json:"texts"`
	// Syncs are the sync jobs that ship the publish; with
	// ApplyOptions.Wait, with their final status.
	Syncs []Sync `json:"syncs"`
}

// Sync is a sync job of a publish.
type Sync struct {
	ID     string                  `json:"id"`
	Status translations.SyncStatus `json:"status,omitempty"`
	Error  string                  `json:"error,omitempty"`
}

// Apply carries out the plan on the service with c and reports what it
// did. It deletes, then creates, then writes source texts, then
// translations, in the fewest calls the tools' limits allow (batches are
// also cut at about 1 MiB), with several calls in flight (see
// ApplyOptions.Concurrency). Then, with ApplyOptions.Publish, it
// publishes and, with Wait, waits for the sync jobs.
//
// A failed call stops the push: calls in flight finish, no new ones
// start, and the report lists what was written and what was not, per
// key, with the error returned beside it. Apply writes only what differs,
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
	for _, c := range p.Counts {
		a.counts[countKey{c.Language, c.Namespace}] = &Count{Language: c.Language, Namespace: c.Namespace, Unchanged: c.Unchanged, Skipped: c.Skipped}
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	a.run(ctx, cancel, StepDelete, a.deleteBatches())
	a.run(ctx, cancel, StepCreate, a.createBatches())
	a.run(ctx, cancel, StepUpdate, a.updateBatches())
	a.run(ctx, cancel, StepTranslate, a.translateBatches())
	if a.err == nil && opt.Publish {
		a.err = a.publish(ctx)
	}
	rep := a.rep
	rep.Counts = sortedCounts(a.counts)
	for _, l := range [][]Item{rep.Created, rep.Updated, rep.Deleted, rep.Skipped, rep.Failed} {
		sortItems(l)
	}
	switch {
	case a.err != nil && len(rep.Failed) > 0:
		return rep, fmt.Errorf("locales: push of %s stopped, %d keys not written: %w", p.Project, len(rep.Failed), a.err)
	case a.err != nil:
		return rep, fmt.Errorf("locales: publishing %s: %w", p.Project, a.err)
	}
	return rep, nil
}

// A batch is one call: send makes it and records its outcome; fail
// records that it was not written, with the reason.
type batch struct {
	size int // keys
	send func(ctx context.Context) error
	fail func(reason string)
}

// run sends the batches of one step, Concurrency at a time. After the
// first failure it sends no more, and records the rest as not sent.
func (a *applier) run(ctx context.Context, cancel context.CancelFunc, step Step, bs []batch) {
	total := 0
	for _, b := range bs {
		total += b.size
	}
	a.progress = Progress{Step: step, Total: total}
	n := a.opt.Concurrency
	if n <= 0 {
		n = DefaultConcurrency
	}
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for _, b := range bs {
		if a.failed() {
			b.fail("not sent: the push stopped at an earlier failure")
			continue
		}
		sem <- struct{}{}
		if a.failed() {
			<-sem
			b.fail("not sent: the push stopped at an earlier failure")
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
					cancel()
				}
				return
			}
			a.progress.Done += b.size
			if a.opt.OnProgress != nil {
				a.opt.OnProgress(a.progress)
			}
		})
	}
	wg.Wait()
}

func (a *applier) failed() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.err != nil
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

// failItems records keys as not written; a.mu is held.
func (a *applier) failItem(it Item) {
	a.rep.Failed = append(a.rep.Failed, it)
	for _, l := range it.Languages {
		a.count(l, it.Namespace).Failed++
	}
}

// reason is the reason of a failed call, as a report says it.
func reason(err error) string {
	if errors.Is(err, partner.ErrTemporary) {
		return "not confirmed (the next push checks): " + err.Error()
	}
	return err.Error()
}

// cut splits n items into batches of at most maxItems (0: no limit) and
// maxCallBytes, by the size of each.
func cut(n, maxItems int, size func(i int) int) [][2]int {
	var out [][2]int
	start, bytes := 0, 0
	for i := range n {
		s := size(i)
		if i > start && ((maxItems > 0 && i-start == maxItems) || bytes+s > maxCallBytes) {
			out = append(out, [2]int{start, i})
			start, bytes = i, 0
		}
		bytes += s
	}
	if n > start {
		out = append(out, [2]int{start, n})
	}
	return out
}

func (a *applier) deleteBatches() []batch {
	p := a.plan
	var bs []batch
	for _, r := range cut(len(p.Delete), maxDeleteItems, func(i int) int { return jsonLen(p.Delete[i].ID) + 1 }) {
		refs := p.Delete[r[0]:r[1]]
		fail := func(reason string) {
			for _, k := range refs {
				a.failItem(Item{Namespace: k.Namespace, Key: k.Key, ID: k.ID, Languages: []string{p.SourceLanguage}, Reason: reason})
			}
		}
		bs = append(bs, batch{size: len(refs), fail: a.locked(fail), send: func(ctx context.Context) error {
			ids := make([]string, len(refs))
			for i, k := range refs {
				ids[i] = k.ID
			}
			res, err := a.r.deleteKeys(ctx, p.Project, ids)
			a.mu.Lock()
			defer a.mu.Unlock()
			a.call("deleteKeys")
			if err != nil {
				fail(reason(err))
				return err
			}
			skipped := map[string]bool{}
			for _, id := range res.Skipped {
				skipped[id] = true
			}
			for _, k := range refs {
				it := Item{Namespace: k.Namespace, Key: k.Key, ID: k.ID}
				if skipped[k.ID] {
					it.Reason = "the service passed over it (unknown or already deleted)"
					a.rep.Skipped = append(a.rep.Skipped, it)
					a.count(p.SourceLanguage, k.Namespace).Skipped++
					continue
				}
				a.rep.Deleted = append(a.rep.Deleted, it)
				a.count(p.SourceLanguage, k.Namespace).Deleted++
			}
			return nil
		}})
	}
	return bs
}

// locked returns f run with a.mu held.
func (a *applier) locked(f func(string)) func(string) {
	return func(s string) {
		a.mu.Lock()
		defer a.mu.Unlock()
		f(s)
	}
}

// languages returns the languages of a key's texts: source first when
// there is one, then the translations' sorted.
func languages(source string, hasSource bool, tr map[string]string) []string {
	out := make([]string, 0, len(tr)+1)
	if hasSource {
		out = append(out, source)
	}
	return append(out, slices.Sorted(maps.Keys(tr))...)
}

func (a *applier) createBatches() []batch {
	p := a.plan
	size := func(i int) int {
		k := &p.Create[i]
		n := 24 + jsonLen(k.Key) + jsonLen(k.Namespace) + jsonLen(k.Source)
		for l, t := range k.Translations {
			n += 4 + jsonLen(l) + jsonLen(t)
		}
		return n
	}
	var bs []batch
	for _, r := range cut(len(p.Create), 0, size) {
		// createKeys reports keys by name: a name twice in one call (in
		// two namespaces) would be ambiguous, so it starts a new call.
		start := r[0]
		names := map[string]bool{}
		for i := r[0]; i < r[1]; i++ {
			if names[p.Create[i].Key] {
				bs = append(bs, a.createBatch(p.Create[start:i]))
				start, names = i, map[string]bool{}
			}
			names[p.Create[i].Key] = true
		}
		bs = append(bs, a.createBatch(p.Create[start:r[1]]))
	}
	return bs
}

func (a *applier) createBatch(ks []NewKey) batch {
	p := a.plan
	fail := func(reason string) {
		for _, k := range ks {
			a.failItem(Item{Namespace: k.Namespace, Key: k.Key, Languages: languages(p.SourceLanguage, true, k.Translations), Reason: reason})
		}
	}
	return batch{size: len(ks), fail: a.locked(fail), send: func(ctx context.Context) error {
		nks := make([]keys.NewKey, len(ks))
		for i, k := range ks {
			nks[i] = keys.NewKey{Name: k.Key, Namespace: k.Namespace, SourceText: k.Source, Translations: k.Translations}
		}
		res, err := a.r.createKeys(ctx, p.Project, nks)
		a.mu.Lock()
		defer a.mu.Unlock()
		a.call("createKeys")
		if err != nil {
			fail(reason(err))
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
		for _, k := range ks {
			langs := languages(p.SourceLanguage, true, k.Translations)
			it := Item{Namespace: k.Namespace, Key: k.Key, Languages: langs}
			if id, ok := ids[k.Key]; ok {
				it.ID = id
				a.rep.Created = append(a.rep.Created, it)
				for _, l := range langs {
					a.count(l, k.Namespace).Created++
				}
				continue
			}
			if r, ok := why[k.Key]; ok {
				it.Reason = r
				a.rep.Skipped = append(a.rep.Skipped, it)
				for _, l := range langs {
					a.count(l, k.Namespace).Skipped++
				}
				continue
			}
			it.Reason = "the service did not report it created"
			a.failItem(it)
		}
		return nil
	}}
}

func (a *applier) updateBatches() []batch {
	p := a.plan
	var us []*KeyUpdate
	for i := range p.Update {
		if p.Update[i].Source != nil {
			us = append(us, &p.Update[i])
		}
	}
	size := func(i int) int { return 40 + jsonLen(us[i].ID) + jsonLen(p.SourceLanguage) + jsonLen(*us[i].Source) }
	var bs []batch
	for _, r := range cut(len(us), 0, size) {
		part := us[r[0]:r[1]]
		fail := func(reason string) {
			for _, u := range part {
				a.failItem(Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: []string{p.SourceLanguage}, Reason: reason})
			}
		}
		bs = append(bs, batch{size: len(part), fail: a.locked(fail), send: func(ctx context.Context) error {
			ups := make([]keys.Update, len(part))
			for i, u := range part {
				ups[i] = keys.Update{KeyID: u.ID, Language: p.SourceLanguage, Text: *u.Source, Source: true}
			}
			res, err := a.r.updateKeys(ctx, p.Project, ups)
			a.mu.Lock()
			defer a.mu.Unlock()
			a.call("updateKeys")
			if err != nil {
				fail(reason(err))
				return err
			}
			failed := map[string]string{}
			for _, e := range res.Errors {
				failed[e.KeyID] = "the service refused it: " + cmp.Or(e.Message, e.Code)
			}
			for _, u := range part {
				it := Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: []string{p.SourceLanguage}}
				if r, ok := failed[u.ID]; ok {
					it.Reason = r
					a.failItem(it)
					continue
				}
				a.rep.Updated = append(a.rep.Updated, it)
				a.count(p.SourceLanguage, u.Namespace).Updated++
			}
			return nil
		}})
	}
	return bs
}

func (a *applier) translateBatches() []batch {
	p := a.plan
	var us []*KeyUpdate
	for i := range p.Update {
		if len(p.Update[i].Translations) > 0 {
			us = append(us, &p.Update[i])
		}
	}
	size := func(i int) int {
		n := 16 + jsonLen(us[i].ID)
		for l, t := range us[i].Translations {
			n += 4 + jsonLen(l) + jsonLen(t)
		}
		return n
	}
	var bs []batch
	for _, r := range cut(len(us), maxSetItems, size) {
		part := us[r[0]:r[1]]
		fail := func(reason string) {
			for _, u := range part {
				a.failItem(Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: languages("", false, u.Translations), Reason: reason})
			}
		}
		bs = append(bs, batch{size: len(part), fail: a.locked(fail), send: func(ctx context.Context) error {
			vs := make([]translations.Values, len(part))
			for i, u := range part {
				vs[i] = translations.Values{KeyID: u.ID, Text: u.Translations}
			}
			res, err := a.r.setTranslations(ctx, p.Project, vs)
			a.mu.Lock()
			defer a.mu.Unlock()
			a.call("setTranslations")
			if err != nil {
				fail(reason(err))
				return err
			}
			failed := map[string]translations.ItemError{}
			for _, e := range res.Errors {
				failed[e.KeyID] = e
			}
			for _, u := range part {
				langs := languages("", false, u.Translations)
				e, bad := failed[u.ID]
				if !bad {
					a.rep.Updated = append(a.rep.Updated, Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: langs})
					for _, l := range langs {
						a.count(l, u.Namespace).Updated++
					}
					continue
				}
				// The failed languages, when the service names them; all
				// of them otherwise.
				badLangs := langs
				if len(e.Languages) > 0 {
					badLangs = e.Languages
				}
				var good []string
				for _, l := range langs {
					if !slices.ContainsFunc(badLangs, func(b string) bool { return LanguageKey(b) == LanguageKey(l) }) {
						good = append(good, l)
					}
				}
				if len(good) > 0 {
					a.rep.Updated = append(a.rep.Updated, Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: good})
					for _, l := range good {
						a.count(l, u.Namespace).Updated++
					}
				}
				a.failItem(Item{Namespace: u.Namespace, Key: u.Key, ID: u.ID, Languages: badLangs, Reason: "the service refused it: " + cmp.Or(e.Message, e.Code)})
			}
			return nil
		}})
	}
	return bs
}

// publish publishes the project, waiting out the cooldown the service
// names, then waits for the sync jobs with opt.Wait.
func (a *applier) publish(ctx context.Context) error {
	p := a.plan
	var res *translations.PublishResult
	for try := 1; ; try++ {
		a.progressed(Progress{Step: StepPublish})
		var err error
		res, err = a.r.publish(ctx, p.Project)
		a.mu.Lock()
		a.call("publishTranslations")
		a.mu.Unlock()
		if err == nil {
			break
		}
		var te *partner.ToolError
		if !errors.As(err, &te) || te.Kind != partner.ToolTooManyRequests || try == maxPublishTries {
			return err
		}
		wait := te.RetryAfter
		if wait <= 0 {
			wait = defaultCooldown
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	pub := &Published{Texts: res.Published, Syncs: []Sync{}}
	a.rep.Published = pub
	for _, id := range res.SyncIDs {
		pub.Syncs = append(pub.Syncs, Sync{ID: id})
	}
	if !a.opt.Wait {
		return nil
	}
	for i := range pub.Syncs {
		a.progressed(Progress{Step: StepWait, Done: i, Total: len(pub.Syncs)})
		s, err := a.r.waitSync(ctx, pub.Syncs[i].ID)
		a.mu.Lock()
		a.call("getSync")
		a.mu.Unlock()
		if err != nil {
			return err
		}
		pub.Syncs[i].Status, pub.Syncs[i].Error = s.Status, s.Error
	}
	a.progressed(Progress{Step: StepWait, Done: len(pub.Syncs), Total: len(pub.Syncs)})
	for _, s := range pub.Syncs {
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

// jsonLen returns the length of s encoded as a JSON string by
// encoding/json (which escapes <, > and & too).
func jsonLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}
