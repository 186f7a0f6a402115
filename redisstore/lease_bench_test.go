package redisstore_test

import (
	"testing"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/redisstore"
)

// BenchmarkLeaseAcquireCommit measures one lease taken and committed on a
// local redis-server: for an installation token (two scripts) and an
// access token in front of a MemoryStore (three scripts and the backing
// store's Save). The baseline is two plain round trips, SET NX PX then
// DEL, the least any Redis lock costs.
func BenchmarkLeaseAcquireCommit(b *testing.B) {
	rdb := newClient(b)
	ctx := b.Context()
	b.Run("baseline=SETNX+DEL", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rdb.SetNX(ctx, "bench:lock", "x", time.Minute).Err(); err != nil {
				b.Fatal(err)
			}
			if err := rdb.Del(ctx, "bench:lock").Err(); err != nil {
				b.Fatal(err)
			}
		}
	})
	s := redisstore.New(rdb, auth.NewMemoryStore())
	tok := token("bench", time.Hour)
	for _, kind := range []auth.TokenKind{auth.KindInstallation, auth.KindAccess} {
		b.Run("kind="+string(kind), func(b *testing.B) {
			g := grantID(b, "g")
			b.ReportAllocs()
			for b.Loop() {
				// Due within 2h: a token of 1h is always due, so each
				// round takes the lease.
				l, _, err := s.AcquireLease(ctx, g, kind, 2*time.Hour, time.Minute)
				if err != nil || l == nil {
					b.Fatal(l, err)
				}
				if err := s.CommitLease(ctx, l, tok); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
