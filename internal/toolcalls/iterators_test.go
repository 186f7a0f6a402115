package toolcalls_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
)

// TestIteratorsCheckWhatTheyWillSend: an iterator checks its options when
// it is ranged, which is when its requests read them; the options' slices
// are the caller's, and may change between building and ranging.
func TestIteratorsCheckWhatTheyWillSend(t *testing.T) {
	var sent []string
	c := callerFunc(func(_ context.Context, tool string, args any) ([]byte, error) {
		b, _ := json.Marshal(args)
		sent = append(sent, string(b))
		if tool == "listKeys" {
			return []byte(`{"tot":0,"pg":1,"has_more":false,"k":[]}`), nil
		}
		return []byte(`{"items":[],"tot":0,"more":false}`), nil
	})
	run := func(name string, seq func(yield func(any, error) bool), wantErr bool) {
		t.Helper()
		sent = nil
		var err error
		seq(func(_ any, e error) bool { err = e; return e == nil })
		if got := errors.Is(err, apierr.ErrInvalidArgument); got != wantErr {
			t.Errorf("%s: err = %v, want invalid argument %v", name, err, wantErr)
		}
		if wantErr && len(sent) > 0 {
			t.Errorf("%s: sent %v after refusing the options", name, sent)
		}
		if !wantErr && len(sent) != 1 {
			t.Errorf("%s: sent %d requests, want 1", name, len(sent))
		}
	}
	ctx := t.Context()

	kopt := keys.ListOptions{Namespaces: []string{""}}
	kseq := toolcalls.AllKeys(ctx, c, "acme/web", kopt)
	kopt.Namespaces[0] = "common" // fixed before ranging
	run("keys, fixed", func(y func(any, error) bool) { kseq(func(k keys.Key, e error) bool { return y(k, e) }) }, false)

	kopt = keys.ListOptions{Namespaces: []string{"common"}}
	kseq = toolcalls.AllKeys(ctx, c, "acme/web", kopt)
	kopt.Namespaces[0] = "" // broken before ranging
	run("keys, broken", func(y func(any, error) bool) { kseq(func(k keys.Key, e error) bool { return y(k, e) }) }, true)

	eopt := content.ListOptions{Slugs: []string{""}}
	eseq := toolcalls.AllEntries(ctx, c, "acme/web", eopt)
	eopt.Slugs[0] = "home"
	run("entries, fixed", func(y func(any, error) bool) { eseq(func(e content.Entry, err error) bool { return y(e, err) }) }, false)

	eopt = content.ListOptions{Slugs: []string{"home"}}
	eseq = toolcalls.AllEntries(ctx, c, "acme/web", eopt)
	eopt.Slugs[0] = ""
	run("entries, broken", func(y func(any, error) bool) { eseq(func(e content.Entry, err error) bool { return y(e, err) }) }, true)
}

// panicky is a field value whose encoding must not run when the entry is
// refused for a cheaper reason.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) {
	panic("a field value was encoded for an entry already refused")
}

func TestEntryChecksStopAtTheFirstRefusal(t *testing.T) {
	c := callerFunc(func(context.Context, string, any) ([]byte, error) {
		t.Fatal("a request was sent")
		return nil, nil
	})
	fields := map[string]any{"hero": panicky{}}
	_, err := toolcalls.CreateEntry(t.Context(), c, "acme/web", content.NewEntry{Model: "page", Slug: "home", Fields: fields})
	if !errors.Is(err, apierr.ErrInvalidArgument) {
		t.Errorf("CreateEntry without a title: err = %v, want invalid argument", err)
	}
	_, err = toolcalls.UpdateEntry(t.Context(), c, "acme/web", "e-1", content.EntryUpdate{Status: "bogus", Fields: fields})
	if !errors.Is(err, apierr.ErrInvalidArgument) {
		t.Errorf("UpdateEntry with a bogus status: err = %v, want invalid argument", err)
	}
}

// TestEntryTranslationsRefusedInOrder: of several bad translations, the
// error names the first by language code, every time.
func TestEntryTranslationsRefusedInOrder(t *testing.T) {
	c := callerFunc(func(context.Context, string, any) ([]byte, error) {
		t.Fatal("a request was sent")
		return nil, nil
	})
	e := content.NewEntry{Model: "page", Title: "Home", Slug: "home", Translations: map[string]content.LanguageValues{
		"fr": {}, "de": {}, "it": {}, "es": {}, "nl": {}, "pt": {},
	}}
	for range 50 {
		_, err := toolcalls.CreateEntry(t.Context(), c, "acme/web", e)
		if !errors.Is(err, apierr.ErrInvalidArgument) || !strings.Contains(err.Error(), `Translations["de"]`) {
			t.Fatalf("err = %v, want the first language in order, de", err)
		}
	}
}

// TestFieldValuesRefusedInOrder: of several values that do not encode, the
// error names the first by field name, every time.
func TestFieldValuesRefusedInOrder(t *testing.T) {
	c := callerFunc(func(context.Context, string, any) ([]byte, error) {
		t.Fatal("a request was sent")
		return nil, nil
	})
	bad := func() {}
	fields := map[string]any{"zeta": bad, "alpha": bad, "mid": bad, "omega": bad, "beta": bad}
	for range 50 {
		_, err := toolcalls.CreateEntry(t.Context(), c, "acme/web", content.NewEntry{Model: "page", Title: "Home", Slug: "home", Fields: fields})
		if !errors.Is(err, apierr.ErrInvalidArgument) || !strings.Contains(err.Error(), `Fields["alpha"]`) {
			t.Fatalf("err = %v, want the first field in order, alpha", err)
		}
	}
}
