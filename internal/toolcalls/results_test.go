package toolcalls_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
)

// TestResultOfAnotherKind: a tool answer that is JSON but not the kind of
// value the tool answers is ErrUnexpectedResponse, said in JSON's terms,
// not in the SDK's Go types.
func TestResultOfAnotherKind(t *testing.T) {
	for _, answer := range []string{`[]`, `"done"`, `42`, `true`} {
		c := callerFunc(func(context.Context, string, any) ([]byte, error) { return []byte(answer), nil })
		for name, call := range map[string]func() error{
			"ListKeys": func() error {
				_, err := toolcalls.ListKeys(t.Context(), c, "acme/web", keys.ListOptions{}, 1)
				return err
			},
			"ListEntries": func() error {
				_, err := toolcalls.ListEntries(t.Context(), c, "acme/web", content.ListOptions{}, 1)
				return err
			},
			"DeleteEntry": func() error { return toolcalls.DeleteEntry(t.Context(), c, "acme/web", "e-1") },
		} {
			err := call()
			if !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Errorf("%s answered %s: err = %v, want ErrUnexpectedResponse", name, answer, err)
				continue
			}
			if msg := err.Error(); !strings.Contains(msg, "the result is a JSON ") || strings.Contains(msg, "struct") || strings.Contains(msg, "toolcalls.") {
				t.Errorf("%s answered %s: %s; want the JSON kind, not a Go type", name, answer, msg)
			}
		}
	}
}
