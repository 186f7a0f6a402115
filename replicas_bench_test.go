package partner_test

import (
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// BenchmarkSharedStoreHotPath: a call with fresh tokens through a Pool
// whose Store shares tokens between replicas (a Leaser and an
// InstallationCache) next to the same call through a Store that shares
// nothing: the hot path asks the Store nothing (store-calls/op), so the
// two cost the same.
func BenchmarkSharedStoreHotPath(b *testing.B) {
	srv := partnertest.NewServer()
	defer srv.Close()
	for _, bc := range []struct {
		name  string
		store func(*auth.MemoryStore, *countingStore) auth.Store
	}{
		{"plain-store", func(m *auth.MemoryStore, _ *countingStore) auth.Store { return plainStore{m} }},
		{"shared-store", func(_ *auth.MemoryStore, c *countingStore) auth.Store { return c }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			mem := auth.NewMemoryStore()
			counting := &countingStore{MemoryStore: mem}
			g := srv.NewGrant()
			if err := mem.Save(b.Context(), g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
				b.Fatal(err)
			}
			pool, err := partner.NewPool(partner.PoolConfig{Pacing: noPacing,
				BaseURL: srv.URL, AuthURL: srv.AuthURL, ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
				Store: bc.store(mem, counting), HTTPClient: srv.Client()})
			if err != nil {
				b.Fatal(err)
			}
			defer pool.Close()
			c, err := pool.Client(b.Context(), g.ID)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Organizations.List(b.Context()); err != nil { // refresh and mint
				b.Fatal(err)
			}
			before := counting.calls.Load()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Organizations.List(b.Context()); err != nil {
					b.Fatal(err)
				}
			}
			if bc.name == "shared-store" {
				b.ReportMetric(float64(counting.calls.Load()-before)/float64(b.N), "store-calls/op")
			}
		})
	}
}
