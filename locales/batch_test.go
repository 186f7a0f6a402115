package locales

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/translations"
)

// sizing is a prepared remote that keeps the arguments of every write.
type sizing struct {
	prepared
	creates [][]keys.NewKey
	sets    [][]translations.Values
}

func (r *sizing) createKeys(ctx context.Context, p string, ks []keys.NewKey, opt keys.CreateOptions) (*keys.CreateResult, error) {
	r.mu.Lock()
	r.creates = append(r.creates, ks)
	r.mu.Unlock()
	return r.prepared.createKeys(ctx, p, ks, opt)
}

func (r *sizing) setTranslations(ctx context.Context, p string, vs []translations.Values) (*translations.SetResult, error) {
	r.mu.Lock()
	r.sets = append(r.sets, vs)
	r.mu.Unlock()
	return r.prepared.setTranslations(ctx, p, vs)
}

// Apply cuts its calls at the tools' item limits and at about 1 MiB of
// arguments, and no further: the fewest calls that fit.
func TestApplyBatches(t *testing.T) {
	ctx := context.Background()
	cat := &Catalog{}
	long := strings.Repeat("<&> é ", 2000) // 12,000 characters, more once escaped
	for i := range 300 {
		key := fmt.Sprintf("k%03d", i)
		cat.Set("en", "", key, long)
		cat.Set("de", "", key, "short")
	}
	r := &sizing{}
	r.calls = map[string]int{}
	plan, err := newPlan(ctx, r, "acme/web", cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.apply(ctx, r, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, ks := range r.creates {
		b := wireJSON(ks) // as the wire (MCP's JSON-RPC) carries them: no HTML escaping
		if len(b) > 1<<20 {
			t.Errorf("a createKeys call of %d bytes", len(b))
		}
		total += len(b)
	}
	if min := total/partner.MaxBatchBytes + 1; len(r.creates) > min+1 {
		t.Errorf("%d createKeys calls for %d bytes; %d would do", len(r.creates), total, min)
	}
	if len(r.creates) < 2 {
		t.Errorf("%d createKeys calls for %d bytes", len(r.creates), total)
	}

	// 1,200 translations to change: 500 keys a call, 3 calls.
	cat = &Catalog{}
	var listing []keys.Key
	for i := range 1200 {
		cat.Set("en", "", "k"+itoa(i), "s")
		cat.Set("de", "", "k"+itoa(i), "new")
		listing = append(listing, keys.Key{Name: "k" + itoa(i), Namespace: keys.DefaultNamespace, ID: "id" + itoa(i), SourceText: "s", Translations: map[string]string{"de": "old"}})
	}
	r = &sizing{}
	r.pages, r.calls = []*keys.Page{{Keys: listing}}, map[string]int{}
	plan, err = newPlan(ctx, r, "acme/web", cat, PlanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plan.apply(ctx, r, ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	for _, vs := range r.sets {
		sizes = append(sizes, len(vs))
	}
	slices.Sort(sizes) // the calls run concurrently
	if !slices.Equal(sizes, []int{200, 500, 500}) {
		t.Errorf("setTranslations calls of %v keys, want 200, 500 and 500", sizes)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

// wireJSON encodes v as the MCP client's JSON-RPC does (SetEscapeHTML(false)).
func wireJSON(v any) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}
