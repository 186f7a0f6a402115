package toolcalls_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

func TestBadArgumentsFailBeforeAnyRequest(t *testing.T) {
	srv, sess := serve(t, map[string]string{})
	ctx := t.Context()
	ids := func(n int) []string {
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint("k-", i)
		}
		return s
	}
	values := make([]translations.Values, translations.MaxSet+1)
	for i := range values {
		values[i] = translations.Values{KeyID: "k", Text: map[string]string{"fr": "x"}}
	}
	for _, tc := range []struct {
		name, field string
		call        func() error
	}{
		{"empty project", "project", func() error {
			_, err := toolcalls.CreateKeys(ctx, sess, "", []keys.NewKey{{Name: "a"}}, keys.CreateOptions{})
			return err
		}},
		{"project without org", "project", func() error { _, err := toolcalls.PendingChanges(ctx, sess, "web"); return err }},
		{"project with two slashes", "project", func() error { _, err := toolcalls.PendingChanges(ctx, sess, "acme/web/x"); return err }},
		{"project with empty part", "project", func() error { _, err := toolcalls.PendingChanges(ctx, sess, "acme/"); return err }},
		{"no keys", "keys", func() error {
			_, err := toolcalls.CreateKeys(ctx, sess, "acme/web", nil, keys.CreateOptions{})
			return err
		}},
		{"empty key name", "keys[1].Name", func() error {
			_, err := toolcalls.CreateKeys(ctx, sess, "acme/web", []keys.NewKey{{Name: "a"}, {SourceText: "x"}}, keys.CreateOptions{})
			return err
		}},
		{"delete over the limit", "ids", func() error {
			_, err := toolcalls.DeleteKeys(ctx, sess, "acme/web", ids(keys.MaxDelete+1))
			return err
		}},
		{"set over the limit", "values", func() error {
			_, err := toolcalls.SetTranslations(ctx, sess, "acme/web", values)
			return err
		}},
		{"set without text", "values[0].Text", func() error {
			_, err := toolcalls.SetTranslations(ctx, sess, "acme/web", []translations.Values{{KeyID: "k"}})
			return err
		}},
		{"update without language", "updates[0].Language", func() error {
			_, err := toolcalls.UpdateKeys(ctx, sess, "acme/web", []keys.Update{{KeyID: "k", Text: "x"}})
			return err
		}},
		{"page size", "PageSize", func() error {
			_, err := toolcalls.ListKeys(ctx, sess, "acme/web", keys.ListOptions{PageSize: 101}, 1)
			return err
		}},
		{"status without languages", "Status", func() error {
			_, err := toolcalls.GetTranslations(ctx, sess, "acme/web", translations.GetOptions{Status: translations.StatusMissing})
			return err
		}},
		{"empty sync id", "sync id", func() error { _, err := toolcalls.WaitSync(ctx, sess, ""); return err }},
		{"language code", "languages[0].Code", func() error {
			_, err := toolcalls.ProposeLanguages(ctx, sess, "acme/web", []translations.LanguageProposal{{Code: "x"}})
			return err
		}},
		{"too many context keys", "KeyIDs", func() error {
			_, err := toolcalls.TranslationContext(ctx, sess, "acme/web", translations.ContextOptions{KeyIDs: ids(51)})
			return err
		}},
	} {
		err := tc.call()
		if !errors.Is(err, apierr.ErrInvalidArgument) || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("%s: err = %v, want ErrInvalidArgument naming %s", tc.name, err, tc.field)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for bad arguments, want none", n)
	}
	// The iterator reports the bad argument as its only element.
	for _, err := range toolcalls.AllKeys(ctx, sess, "nope", keys.ListOptions{}) {
		if !errors.Is(err, apierr.ErrInvalidArgument) {
			t.Errorf("AllKeys: err = %v", err)
		}
	}
}

func TestToolFailuresAreTypedErrors(t *testing.T) {
	for _, tc := range []struct {
		text     string
		kind     apierr.ToolErrorKind
		sentinel error
	}{
		{"Forbidden: missing_scope", apierr.ToolMissingScope, apierr.ErrMissingScope},
		{"TOO_MANY_REQUESTS: publish cooldown, wait 30 seconds", apierr.ToolTooManyRequests, apierr.ErrTemporary},
		{"Forbidden", apierr.ToolForbidden, nil},
		{"Project not found", apierr.ToolNotFound, nil},
		{"CONFLICT: 'a.b' would make 'a' a parent", apierr.ToolConflict, apierr.ErrConflict},
		{`Validation error: Required, Invalid uuid`, apierr.ToolValidation, nil},
		{"Unauthorized", apierr.ToolUnauthorized, apierr.ErrMCPUnauthorized},
		{"something else broke", apierr.ToolOther, nil},
	} {
		srv := mcptest.NewServer(t, mcptest.Tool{Name: "publishTranslations", Run: func(json.RawMessage) (string, bool) { return tc.text, true }})
		sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
		if err != nil {
			t.Fatal(err)
		}
		_, err = toolcalls.Publish(t.Context(), sess, "acme/web", translations.PublishOptions{})
		sess.Close()
		var te *apierr.ToolError
		if !errors.As(err, &te) || te.Kind != tc.kind || te.Tool != "publishTranslations" || te.Text != tc.text {
			t.Errorf("%q: err = %#v, want kind %s", tc.text, err, tc.kind)
			continue
		}
		if tc.sentinel != nil && !errors.Is(err, tc.sentinel) {
			t.Errorf("%q: errors.Is(%v) = false", tc.text, tc.sentinel)
		}
		if tc.kind == apierr.ToolForbidden && errors.Is(err, apierr.ErrMissingScope) {
			t.Errorf("%q: a plain Forbidden must not be a scope error", tc.text)
		}
		if tc.kind == apierr.ToolMissingScope {
			var mse *apierr.MissingScopeError
			if !errors.As(err, &mse) || mse.Required != "translations:publish" {
				t.Errorf("missing scope: Required = %v", mse)
			}
		}
		if tc.kind == apierr.ToolTooManyRequests && te.RetryAfter != 30*time.Second {
			t.Errorf("cooldown RetryAfter = %v, want 30s", te.RetryAfter)
		}
		if n := len(srv.Calls("publishTranslations")); n != 1 {
			t.Errorf("%q: publish sent %d times, want 1 (no automatic wait or retry)", tc.text, n)
		}
	}
}

func TestAllKeysWalksEveryPage(t *testing.T) {
	var pages atomic.Int32
	srv := mcptest.NewServer(t, mcptest.Tool{Name: "listKeys", ReadOnly: true, Run: func(args json.RawMessage) (string, bool) {
		var a struct{ Page, Limit int }
		json.Unmarshal(args, &a)
		pages.Add(1)
		more := a.Page < 3
		return fmt.Sprintf(`{"tot": 5, "pg": %d, "lim": %d, "has_more": %t, "nss": ["default"], "k": [{"k": "key%d.a", "ns": 0}, {"k": "key%d.b", "ns": 0}]}`,
			a.Page, a.Limit, more, a.Page, a.Page), false
	}})
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var names []string
	for k, err := range toolcalls.AllKeys(t.Context(), sess, "acme/web", keys.ListOptions{}) {
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, k.Name+"@"+k.Namespace)
	}
	want := "key1.a@default key1.b@default key2.a@default key2.b@default key3.a@default key3.b@default"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("keys = %s, want %s", got, want)
	}
	calls := srv.Calls("listKeys")
	if len(calls) != 3 {
		t.Fatalf("%d listKeys calls, want 3", len(calls))
	}
	jsonEqual(t, calls[2], `{"project":"acme/web","page":3,"limit":100}`)

	// Stopping early fetches no further page.
	for range toolcalls.AllKeys(t.Context(), sess, "acme/web", keys.ListOptions{}) {
		break
	}
	if n := len(srv.Calls("listKeys")); n != 4 {
		t.Errorf("%d listKeys calls after an early break, want 4", n)
	}
}

// callerFunc is a Caller without a server.
type callerFunc func(ctx context.Context, tool string, args any) ([]byte, error)

func (f callerFunc) Call(ctx context.Context, tool string, args any) ([]byte, error) {
	return f(ctx, tool, args)
}

func TestWaitSyncLongPollsUntilDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var waits []string
		c := callerFunc(func(ctx context.Context, tool string, args any) ([]byte, error) {
			b, _ := json.Marshal(args)
			waits = append(waits, string(b))
			st := "in_progress"
			if len(waits) == 3 {
				st = "completed"
			}
			return []byte(`{"id": "s-1", "st": "` + st + `"}`), nil
		})
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		start := time.Now()
		s, err := toolcalls.WaitSync(ctx, c, "s-1")
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != translations.SyncCompleted {
			t.Errorf("status = %s", s.Status)
		}
		// The long-poll never outlasts the caller's deadline, and a server
		// that answers at once is not asked again sooner than every 2 s.
		want := []string{`{"syncId":"s-1","waitMs":10000}`, `{"syncId":"s-1","waitMs":8000}`, `{"syncId":"s-1","waitMs":6000}`}
		if d := cmp.Diff(want, waits); d != "" {
			t.Errorf("getSync arguments (-want +got):\n%s", d)
		}
		if el := time.Since(start); el != 4*time.Second {
			t.Errorf("waited %v, want 4s", el)
		}
	})
}

func TestWaitSyncStopsWithContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := callerFunc(func(context.Context, string, any) ([]byte, error) {
			return []byte(`{"id": "s-1", "st": "pending"}`), nil
		})
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		_, err := toolcalls.WaitSync(ctx, c, "s-1")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want DeadlineExceeded", err)
		}
	})
}

func TestResultThatIsNotJSON(t *testing.T) {
	_, sess := serve(t, map[string]string{"getPendingChanges": "Done."})
	_, err := toolcalls.PendingChanges(t.Context(), sess, "acme/web")
	if !errors.Is(err, apierr.ErrUnexpectedResponse) {
		t.Fatalf("err = %v, want ErrUnexpectedResponse", err)
	}
}
