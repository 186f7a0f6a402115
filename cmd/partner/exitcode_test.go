package main

import (
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
)

func TestExitCodes(t *testing.T) {
	item := locales.Item{Namespace: "default", Key: "a"}
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{"ok", nil, 0},
		{"failure", errors.New("boom"), 1},
		{"usage", usageErrorf("--dir is required"), 2},
		{"grant gone, wrapped", fmt.Errorf("status: %w", partner.ErrGrantRevoked), 3},
		{"push: some written, some failed", pushOutcome(&locales.Report{Created: []locales.Item{item}, Failed: []locales.Item{item}}, errors.New("call failed"), false), 4},
		{"push: nothing written", pushOutcome(&locales.Report{Failed: []locales.Item{item}}, errors.New("call failed"), false), 1},
		{"push: all written", pushOutcome(&locales.Report{Created: []locales.Item{item}}, nil, false), 0},
		{"push --wait: one of two syncs failed", pushOutcome(&locales.Report{Created: []locales.Item{item}, Published: &translations.PublishWaitResult{
			Syncs: []translations.Sync{{ID: "s1", Status: "completed"}, {ID: "s2", Status: "failed"}}}}, nil, true), 4},
		{"publish --wait: every sync failed", syncOutcome([]syncResult{{ID: "s1", Status: "failed"}}), 1},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("%s: exit code %d, want %d (%v)", tc.name, got, tc.want, tc.err)
		}
	}
}
