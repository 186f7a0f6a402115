package toolcalls_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/internal/benchcmp"
	"github.com/locsvc/partner-go/internal/mcpsession"
	"github.com/locsvc/partner-go/internal/mcptest"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

const batchProject = "acme/web"

// awkward are texts encoding/json escapes or replaces: quotes, control
// characters, HTML characters, the JavaScript line separators, non-ASCII
// and an invalid UTF-8 byte.
var awkward = []string{`say "hi"\now`, "tab\there\r\n", "<b>&amp;</b>", "line\u2028sep\u2029", "größe ✓ 日本語", "bad\xffbyte", "\x01\x1f"}

func uuid(i int) string { return fmt.Sprintf("%08x-4c1f-4e0a-9d7b-%012x", i, i) }

// text returns the i-th text, about n bytes long, with awkward parts.
func text(i, n int) string {
	s := awkward[i%len(awkward)]
	return s + strings.Repeat("x", max(n-len(s), 0))
}

func newKeys(n, textLen int) []keys.NewKey {
	ks := make([]keys.NewKey, n)
	for i := range ks {
		ks[i] = keys.NewKey{
			Name: fmt.Sprintf("screen%d.label%d", i/7, i%7), Namespace: []string{"", "common", "web"}[i%3],
			SourceText:   text(i, textLen),
			Translations: map[string]string{"de": text(i+1, textLen), "fr": text(i+2, textLen), "ja": text(i+3, textLen)},
		}
		if i%50 == 0 {
			ks[i].Context = &keys.NamespaceContext{Description: "Checkout <flow>", Tags: []string{"a&b"}}
		}
	}
	return ks
}

func newUpdates(n, textLen int) []keys.Update {
	us := make([]keys.Update, n)
	for i := range us {
		us[i] = keys.Update{KeyID: uuid(i), Language: "en", Text: text(i, textLen), Source: i%2 == 0, Status: []string{"", "draft"}[i%2]}
	}
	return us
}

func newValues(n, textLen int) []translations.Values {
	vs := make([]translations.Values, n)
	for i := range vs {
		vs[i] = translations.Values{KeyID: uuid(i), Text: map[string]string{"de": text(i, textLen), "pt-BR": text(i+4, textLen)}}
	}
	return vs
}

func newIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = uuid(i)
	}
	return ids
}

// checkPartition fails unless the batches, joined, are items in order,
// and none is empty or longer than most (0: no limit).
func checkPartition[T any](t *testing.T, items []T, batches [][]T, most int, eq func(a, b T) bool) {
	t.Helper()
	if !slices.EqualFunc(slices.Concat(batches...), items, eq) {
		t.Errorf("the batches joined are not the items in order")
	}
	for i, b := range batches {
		if len(b) == 0 || most > 0 && len(b) > most {
			t.Errorf("batch %d has %d items, want 1 to %d", i, len(b), most)
		}
	}
}

func sameKey(a, b keys.NewKey) bool {
	return a.Name == b.Name && a.Namespace == b.Namespace && a.SourceText == b.SourceText
}
func sameUpdate(a, b keys.Update) bool         { return a == b }
func sameValues(a, b translations.Values) bool { return a.KeyID == b.KeyID }
func sameID(a, b string) bool                  { return a == b }

func checkCap(t *testing.T, tool string, sizes []int) {
	t.Helper()
	for i, n := range sizes {
		if n > toolcalls.MaxBatchBytes {
			t.Errorf("%s batch %d measures %d bytes, over MaxBatchBytes (%d)", tool, i, n, toolcalls.MaxBatchBytes)
		}
	}
}

// TestBatchesKeepTheToolsLimits: every item is in exactly one batch, in
// order; no batch passes the tool's item limit or MaxBatchBytes; no
// createKeys batch names a key twice.
func TestBatchesKeepTheToolsLimits(t *testing.T) {
	t.Run("createKeys", func(t *testing.T) {
		ks := newKeys(2000, 200) // about 2 MiB
		// Names repeat across namespaces: "screen0.label0" in "", "common", ...
		ks = append(ks, keys.NewKey{Name: ks[0].Name, Namespace: "other"}, keys.NewKey{Name: ks[0].Name, Namespace: "more"})
		bs := toolcalls.CreateKeysBatches(batchProject, ks, keys.CreateOptions{})
		checkPartition(t, ks, bs, 0, sameKey)
		checkCap(t, "createKeys", toolcalls.CreateKeysBatchSizes(batchProject, ks, keys.CreateOptions{}))
		if len(bs) < 3 { // two by size, more by name
			t.Errorf("%d batches for about 2 MiB, want at least 3", len(bs))
		}
		for i, b := range bs {
			seen := map[string]bool{}
			for _, k := range b {
				if seen[k.Name] {
					t.Errorf("batch %d names %q twice", i, k.Name)
				}
				seen[k.Name] = true
			}
		}
	})
	t.Run("updateKeys", func(t *testing.T) {
		us := newUpdates(3000, 500)
		bs := toolcalls.UpdateKeysBatches(batchProject, us)
		checkPartition(t, us, bs, 0, sameUpdate)
		checkCap(t, "updateKeys", toolcalls.UpdateKeysBatchSizes(batchProject, us))
	})
	t.Run("deleteKeys", func(t *testing.T) {
		ids := newIDs(1234)
		bs := toolcalls.DeleteKeysBatches(batchProject, ids)
		checkPartition(t, ids, bs, keys.MaxDelete, sameID)
		if len(bs) != 13 {
			t.Errorf("%d batches of 1234 ids, want 13", len(bs))
		}
	})
	t.Run("setTranslations", func(t *testing.T) {
		for _, n := range []int{20, 2000} { // cut by count, then by bytes
			vs := newValues(1201, n)
			bs := toolcalls.SetTranslationsBatches(batchProject, vs)
			checkPartition(t, vs, bs, translations.MaxSet, sameValues)
			checkCap(t, "setTranslations", toolcalls.SetTranslationsBatchSizes(batchProject, vs))
		}
		if bs := toolcalls.SetTranslationsBatches(batchProject, newValues(1201, 20)); len(bs) != 3 {
			t.Errorf("%d batches of 1201 short values, want 3 (500, 500, 201)", len(bs))
		}
	})
	t.Run("empty", func(t *testing.T) {
		if bs := toolcalls.DeleteKeysBatches(batchProject, nil); len(bs) != 0 {
			t.Errorf("batches of nothing = %v, want none", bs)
		}
	})
}

// TestBatchesMeasureTheArgumentsSent: the size the splitter gives each
// batch is the length of the arguments the tool call carries over the
// wire, byte for byte, escapes included.
func TestBatchesMeasureTheArgumentsSent(t *testing.T) {
	answer := func(json.RawMessage) (string, bool) { return `{"ok": true}`, false }
	srv := mcptest.NewServer(t,
		mcptest.Tool{Name: "createKeys", Run: answer}, mcptest.Tool{Name: "updateKeys", Run: answer},
		mcptest.Tool{Name: "deleteKeys", Run: answer}, mcptest.Tool{Name: "setTranslations", Run: answer})
	sess, err := mcpsession.New(mcpsession.Config{URL: srv.Endpoint, Tokens: staticToken("svc_oat_x")})
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	ctx := t.Context()
	compare := func(tool string, sizes []int) {
		t.Helper()
		sent := srv.Calls(tool)
		if len(sent) != len(sizes) {
			t.Fatalf("%s: %d calls, want %d", tool, len(sent), len(sizes))
		}
		for i, args := range sent {
			if len(args) != sizes[i] {
				t.Errorf("%s batch %d: measured %d bytes, sent %d", tool, i, sizes[i], len(args))
			}
		}
	}

	// Exactness does not depend on size: small batches, cut by name
	// (createKeys), by count (deleteKeys, setTranslations), or not at all.
	ks := newKeys(40, 30)
	for _, opt := range []keys.CreateOptions{{}, {Force: true}} {
		for _, b := range toolcalls.CreateKeysBatches(batchProject, ks, opt) {
			if _, err := toolcalls.CreateKeys(ctx, sess, batchProject, b, opt); err != nil {
				t.Fatal(err)
			}
		}
	}
	compare("createKeys", slices.Concat(toolcalls.CreateKeysBatchSizes(batchProject, ks, keys.CreateOptions{}),
		toolcalls.CreateKeysBatchSizes(batchProject, ks, keys.CreateOptions{Force: true})))

	us := newUpdates(60, 40)
	for _, b := range toolcalls.UpdateKeysBatches(batchProject, us) {
		if _, err := toolcalls.UpdateKeys(ctx, sess, batchProject, b); err != nil {
			t.Fatal(err)
		}
	}
	compare("updateKeys", toolcalls.UpdateKeysBatchSizes(batchProject, us))

	ids := newIDs(250)
	for _, b := range toolcalls.DeleteKeysBatches(batchProject, ids) {
		if _, err := toolcalls.DeleteKeys(ctx, sess, batchProject, b); err != nil {
			t.Fatal(err)
		}
	}
	compare("deleteKeys", toolcalls.DeleteKeysBatchSizes(batchProject, ids))

	vs := newValues(600, 20)
	for _, b := range toolcalls.SetTranslationsBatches(batchProject, vs) {
		if _, err := toolcalls.SetTranslations(ctx, sess, batchProject, b); err != nil {
			t.Fatal(err)
		}
	}
	compare("setTranslations", toolcalls.SetTranslationsBatchSizes(batchProject, vs))
}

// TestBatchesCutAtTheByteCap: arguments of exactly MaxBatchBytes are one
// call; one byte more makes two. A single item over the cap is a call of
// its own.
func TestBatchesCutAtTheByteCap(t *testing.T) {
	vs := newValues(100, 5000)
	last := &vs[len(vs)-1]
	last.Text = map[string]string{"de": ""}
	n := toolcalls.SetTranslationsBatchSizes(batchProject, vs)
	if len(n) != 1 {
		t.Fatalf("%d batches of %v bytes, want 1", len(n), n)
	}
	last.Text["de"] = strings.Repeat("a", toolcalls.MaxBatchBytes-n[0])
	if n := toolcalls.SetTranslationsBatchSizes(batchProject, vs); len(n) != 1 || n[0] != toolcalls.MaxBatchBytes {
		t.Errorf("sizes %v, want one batch of exactly %d bytes", n, toolcalls.MaxBatchBytes)
	}
	last.Text["de"] += "a"
	if bs := toolcalls.SetTranslationsBatches(batchProject, vs); len(bs) != 2 || len(bs[1]) != 1 {
		t.Errorf("one byte over the cap: batches of %v items, want 99 and 1", lens(bs))
	}

	big := []keys.Update{{KeyID: uuid(1), Language: "en", Text: "a"}, {KeyID: uuid(2), Language: "en", Text: strings.Repeat("b", toolcalls.MaxBatchBytes)}, {KeyID: uuid(3), Language: "en", Text: "c"}}
	if bs := toolcalls.UpdateKeysBatches(batchProject, big); !slices.Equal(lens(bs), []int{1, 1, 1}) {
		t.Errorf("an item over the cap: batches of %v items, want 1, 1, 1", lens(bs))
	}
}

func lens[T any](bs [][]T) []int {
	out := make([]int, len(bs))
	for i, b := range bs {
		out[i] = len(b)
	}
	return out
}

// BenchmarkBatches splits 5,000 keys with three translations each (about
// 2.4 MiB of arguments) into createKeys calls (split); marshal-all is the
// baseline, json.Marshal of the same arguments as one call, which sending
// them costs anyway. The two take turns in one run (benchcmp): read
// split-x-marshal-all.
func BenchmarkBatches(b *testing.B) {
	ks := newKeys(5000, 120)
	type wire struct {
		N  string            `json:"n"`
		NS string            `json:"ns,omitempty"`
		V  string            `json:"v,omitempty"`
		T  map[string]string `json:"t,omitempty"`
	}
	marshalAll := func(b *testing.B) {
		args := struct {
			Project string `json:"project"`
			K       []wire `json:"k"`
		}{batchProject, make([]wire, len(ks))}
		for i, k := range ks {
			args.K[i] = wire{k.Name, k.Namespace, k.SourceText, k.Translations}
		}
		if _, err := json.Marshal(args); err != nil {
			b.Fatal(err)
		}
	}
	split := func(*testing.B) { toolcalls.CreateKeysBatches(batchProject, ks, keys.CreateOptions{}) }
	benchcmp.Compare(b, benchcmp.Contender{Name: "marshal-all", Run: marshalAll}, benchcmp.Contender{Name: "split", Run: split})
}
