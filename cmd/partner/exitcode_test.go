package main

import (
	"errors"
	"fmt"
	"github.com/locsvc/partner-go/translations"
	"path/filepath"
	"strings"
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
		{"push: languages the project lacks, as bad input", newLanguagesError("acme/web", []string{"pt-br"}), 1},
		{"a missing folder", checkFolder(filepath.Join(t.TempDir(), "missing")), 2},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("%s: exit code %d, want %d (%v)", tc.name, got, tc.want, tc.err)
		}
	}
}

// TestErrorJSON: the --json error document carries the exit code and
// every problem of a *locales.InputError, wrapped or not.
func TestErrorJSON(t *testing.T) {
	ie := &locales.InputError{Problems: []locales.Problem{{File: "de.json", Line: 3, Key: "a", Message: "bad"}, {Language: "pt-br", Message: "no such language"}}}
	d := errorJSON(fmt.Errorf("push: %w", ie))
	want := []problemView{{File: "de.json", Line: 3, Key: "a", Message: "bad"}, {Message: "pt-br: no such language"}}
	if d.Error.ExitCode != 1 || len(d.Error.Problems) != 2 || d.Error.Problems[0] != want[0] || d.Error.Problems[1] != want[1] {
		t.Errorf("errorJSON = %+v, want exit code 1 and problems %+v", d, want)
	}
	if d := errorJSON(usageErrorf("--dir is required")); d.Error.ExitCode != 2 || d.Error.Problems == nil || len(d.Error.Problems) != 0 || d.Error.Message != "--dir is required" {
		t.Errorf("errorJSON of a usage error = %+v", d)
	}
	if d := errorJSON(newLanguagesError("acme/web", []string{"ja"})); len(d.Error.Problems) != 1 || !strings.Contains(d.Error.Problems[0].Message, "ja") {
		t.Errorf("errorJSON of languages the project lacks = %+v", d)
	}
}
