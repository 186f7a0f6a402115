package main

import (
	"github.com/schollz/progressbar/v3"

	"github.com/locsvc/partner-go/locales"
)

// progressBars draws a bar per step of a push, a pull or a publish on
// stderr. Its zero-step value draws nothing until the first report.
type progressBars struct {
	a    *app
	step locales.Step
	bar  *progressbar.ProgressBar
}

// progress returns a callback that draws progress on stderr, or nil when
// stderr is not a terminal or only the result is printed (--json).
func (a *app) progress() (report func(locales.Progress), finish func()) {
	if a.json || !a.stderrIsTerminal() {
		return nil, func() {}
	}
	p := &progressBars{a: a}
	return p.report, p.finish
}

func (p *progressBars) report(pr locales.Progress) {
	if p.bar == nil || pr.Step != p.step {
		p.finish()
		p.step = pr.Step
		total := pr.Total
		if total == 0 {
			total = -1 // not known yet: a spinner
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.a.stderr),
			progressbar.OptionSetDescription(string(pr.Step)),
			progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish())
	}
	if pr.Total > 0 && int64(pr.Total) != p.bar.GetMax64() {
		p.bar.ChangeMax(pr.Total)
	}
	p.bar.Set(pr.Done)
}

func (p *progressBars) finish() {
	if p.bar != nil {
		p.bar.Finish()
		p.bar = nil
	}
}
