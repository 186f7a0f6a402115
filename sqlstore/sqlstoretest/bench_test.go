package sqlstoretest_test

import (
	"context"
	"testing"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/sqlstore/sqlstoretest"
)

// BenchmarkLease measures what a replica pays to refresh a grant through
// the Store: AcquireLease of a due token, then CommitLease of the new one.
// The baseline is what a replica pays without sharing: Load, then Save.
// The refresh itself (an HTTP call) is not counted.
func BenchmarkLease(b *testing.B) {
	b.Run("sqlite", func(b *testing.B) { benchLease(b, sqliteEngine()) })
	b.Run("postgres", func(b *testing.B) { benchLease(b, postgresEngine(sqlstoretest.StartPostgres(b))) })
}

func benchLease(b *testing.B, e engine) {
	s, _ := e.newStore(b)
	ctx := context.Background()
	// Due for ever: every AcquireLease takes the lease.
	const alwaysDue = 100 * 365 * 24 * time.Hour
	tok := tokenIn("bench", time.Hour)
	if err := s.Save(ctx, "g", tok); err != nil {
		b.Fatal(err)
	}
	b.Run("acquire+commit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			l, _, err := s.AcquireLease(ctx, "g", auth.KindAccess, alwaysDue, time.Minute)
			if err != nil || l == nil {
				b.Fatal(l, err)
			}
			if err := s.CommitLease(ctx, l, tok); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline load+save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := s.Load(ctx, "g"); err != nil {
				b.Fatal(err)
			}
			if err := s.Save(ctx, "g", tok); err != nil {
				b.Fatal(err)
			}
		}
	})
}
