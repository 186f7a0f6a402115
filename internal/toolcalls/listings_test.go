package toolcalls_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/toolcalls"
	"github.com/locsvc/partner-go/keys"
)

// listingFake answers listKeys and listContentEntries: page n (from 1) of
// the listing holds the items numbered ids(n) (from, up to to); total is
// tot ("" leaves it out) and has_more is more(n). The iterators ask for
// the pages in turn, so the nth call asks for page n.
type listingFake struct {
	tot   string
	ids   func(page int) (from, to int)
	more  func(page int) bool
	calls int
}

func (f *listingFake) Call(_ context.Context, tool string, _ any) ([]byte, error) {
	f.calls++
	if f.calls > 12_000 {
		return nil, errors.New("listingFake: 12,000 calls, and the listing goes on")
	}
	page := f.calls
	b := []byte("{")
	if f.tot != "" {
		b = append(b, `"tot":`+f.tot+`,`...)
	}
	var item string
	switch tool {
	case "listKeys":
		b = fmt.Appendf(b, `"pg":%d,"has_more":%t,"k":[`, page, f.more(page))
		item = `{"k":"key","id":"id-`
	case "listContentEntries":
		b = fmt.Appendf(b, `"more":%t,"items":[`, f.more(page))
		item = `{"id":"id-`
	default:
		return nil, fmt.Errorf("tool %s", tool)
	}
	from, to := f.ids(page)
	for i := from; i < to; i++ {
		if i > from {
			b = append(b, ',')
		}
		b = append(strconv.AppendInt(append(b, item...), int64(i), 10), `"}`...)
	}
	return append(b, "]}"...), nil
}

// drainKeys ranges over the key listing of f and returns the number of
// keys yielded and the error that ended it.
func drainKeys(f *listingFake, pageSize int) (n int, err error) {
	for _, err := range toolcalls.AllKeys(context.Background(), f, "acme/web", keys.ListOptions{PageSize: pageSize}) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// drainEntries is drainKeys for the entry listing.
func drainEntries(f *listingFake, pageSize int) (n int, err error) {
	for _, err := range toolcalls.AllEntries(context.Background(), f, "acme/web", content.ListOptions{PageSize: pageSize}) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

var listings = []struct {
	name  string
	size  int // the page size asked for
	drain func(*listingFake, int) (int, error)
}{
	{"keys", keys.MaxPageSize, drainKeys},
	{"entries", content.MaxPageSize, drainEntries},
}

// TestListingThatRepeatsAPageEnds: a listing whose page repeats the items
// of an earlier page ends with ErrUnexpectedResponse at that page, with or
// without a total, and yields the repeated items no second time.
func TestListingThatRepeatsAPageEnds(t *testing.T) {
	always := func(int) bool { return true }
	for _, l := range listings {
		for _, tc := range []struct {
			name  string
			tot   string
			ids   func(page int) (from, to int)
			calls int
		}{
			{"the first page again and again", "1000", func(int) (int, int) { return 0, l.size }, 2},
			{"two pages in turn", "1000", func(p int) (int, int) { return (p + 1) % 2 * l.size, ((p+1)%2 + 1) * l.size }, 3},
			{"without a total", "", func(int) (int, int) { return 0, l.size }, 2},
		} {
			t.Run(l.name+", "+tc.name, func(t *testing.T) {
				f := &listingFake{tot: tc.tot, ids: tc.ids, more: always}
				n, err := l.drain(f, l.size)
				if !errors.Is(err, apierr.ErrUnexpectedResponse) {
					t.Errorf("err = %v, want ErrUnexpectedResponse", err)
				}
				if f.calls != tc.calls || n != (tc.calls-1)*l.size {
					t.Errorf("%d calls, %d items; want %d calls, %d items", f.calls, n, tc.calls, (tc.calls-1)*l.size)
				}
			})
		}
	}
}

// TestListingPastItsTotalEnds: a listing that keeps yielding new items
// while its first page claimed a total of 2 ends with
// ErrUnexpectedResponse within its bound (a page plus a margin of 2).
func TestListingPastItsTotalEnds(t *testing.T) {
	for _, l := range listings {
		t.Run(l.name, func(t *testing.T) {
			f := &listingFake{tot: "2", ids: func(p int) (int, int) { return (p - 1) * l.size, p * l.size }, more: func(int) bool { return true }}
			_, err := l.drain(f, l.size)
			if !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Errorf("err = %v, want ErrUnexpectedResponse", err)
			}
			if f.calls > 3 {
				t.Errorf("%d calls for a total of 2 keys, want at most 3", f.calls)
			}
		})
	}
}

// TestListingWithoutATotalEnds: a listing that gives no total and keeps
// yielding new items ends with ErrUnexpectedResponse after 10,000 pages
// and a margin.
func TestListingWithoutATotalEnds(t *testing.T) {
	for _, l := range listings {
		t.Run(l.name, func(t *testing.T) {
			f := &listingFake{ids: func(p int) (int, int) { return p, p + 1 }, more: func(int) bool { return true }}
			n, err := l.drain(f, 1)
			if !errors.Is(err, apierr.ErrUnexpectedResponse) {
				t.Errorf("err = %v, want ErrUnexpectedResponse", err)
			}
			if n < 10_000 || f.calls > 11_002 {
				t.Errorf("%d calls, %d items; want 10,000 items at least and at most 11,002 calls", f.calls, n)
			}
		})
	}
}

// TestLargeListingsAreNotCutOff: a project of 100,000 keys (1,000 pages of
// 100) is listed whole, and so is one of 50,000 entries (1,000 pages of
// 50); so is a listing that grows by a tenth while it runs.
func TestLargeListingsAreNotCutOff(t *testing.T) {
	for _, l := range listings {
		for _, tc := range []struct {
			name       string
			tot, items int
		}{
			{"1,000 pages", 1000 * l.size, 1000 * l.size},
			{"100 pages grown to 110", 100 * l.size, 110 * l.size},
			{"one short page", 1, 1},
		} {
			t.Run(l.name+", "+tc.name, func(t *testing.T) {
				f := &listingFake{tot: fmt.Sprint(tc.tot),
					ids:  func(p int) (int, int) { return (p - 1) * l.size, min(p*l.size, tc.items) },
					more: func(p int) bool { return p*l.size < tc.items }}
				n, err := l.drain(f, l.size)
				if err != nil || n != tc.items {
					t.Errorf("%d items, %v; want %d items", n, err, tc.items)
				}
			})
		}
	}
}

// BenchmarkKeyListing lists 10,000 keys (100 pages of 100) with AllKeys,
// next to the floor of fetching and decoding the same pages one by one with
// ListKeys (no identities kept, no bound): listing/pages is what ending
// every listing costs.
func BenchmarkKeyListing(b *testing.B) {
	fake := func() *listingFake {
		return &listingFake{tot: "10000",
			ids:  func(p int) (int, int) { return (p - 1) * 100, p * 100 },
			more: func(p int) bool { return p < 100 }}
	}
	b.Run("pages", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			f := fake()
			for p := 1; ; p++ {
				pg, err := toolcalls.ListKeys(b.Context(), f, "acme/web", keys.ListOptions{PageSize: 100}, p)
				if err != nil {
					b.Fatal(err)
				}
				if !pg.HasMore {
					break
				}
			}
		}
	})
	b.Run("listing", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if n, err := drainKeys(fake(), 100); err != nil || n != 10_000 {
				b.Fatal(n, err)
			}
		}
	})
}
