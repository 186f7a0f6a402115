package partner_test

import (
	"runtime"
	"testing"
)

// BenchmarkPoolIdleGrant measures what a Pool costs per grant:
//   - retained: heap bytes the pool keeps per idle grant, with 10,000 grants
//     each used once (the difference between the heap with and without the
//     pool, so the fake service's and the Store's share is not counted);
//   - first-call: Pool.Client and one call for a grant never used before
//     (a refresh, a mint and the call itself), next to
//   - warm: the same for a grant already in the pool (the call alone).
func BenchmarkPoolIdleGrant(b *testing.B) {
	b.Run("retained", func(b *testing.B) {
		const n = 10_000
		var perGrant float64
		for b.Loop() {
			r := newRig(b, withPool(n, 0))
			_, pool, _, grants := r.srv, r.pool, r.store, r.grants
			ctx := b.Context()
			for _, g := range grants {
				c, err := pool.Client(ctx, g.ID)
				if err == nil {
					_, err = c.Organizations.List(ctx)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			with := heapBytes()
			if pool.Len() != n {
				b.Fatalf("pool holds %d grants", pool.Len())
			}
			runtime.KeepAlive(pool)
			pool = nil
			without := heapBytes()
			perGrant = float64(with-without) / n
		}
		b.ReportMetric(perGrant, "B/grant")
	})

	b.Run("first-call", func(b *testing.B) {
		r := newRig(b, withPool(b.N, 0))
		_, pool, _, grants := r.srv, r.pool, r.store, r.grants
		ctx := b.Context()
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			c, err := pool.Client(ctx, grants[i].ID)
			if err == nil {
				_, err = c.Organizations.List(ctx)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})

	b.Run("warm", func(b *testing.B) {
		r := newRig(b, withPool(1, 0))
		_, pool, _, grants := r.srv, r.pool, r.store, r.grants
		ctx := b.Context()
		id := grants[0].ID
		c, _ := pool.Client(ctx, id)
		if _, err := c.Organizations.List(ctx); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			c, err := pool.Client(ctx, id)
			if err == nil {
				_, err = c.Organizations.List(ctx)
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// heapBytes returns the live heap after a full collection.
func heapBytes() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
