package redisstore_test

import (
	"sync"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/redisstore"
)

// TestReplicasRefreshAndMintOncePerGrant: Pools standing for replicas,
// each with its own Redis client and its own redisstore.Store in front of
// one database, serve the same grants at once: each grant's token is
// refreshed once and its installation token minted once between them.
func TestReplicasRefreshAndMintOncePerGrant(t *testing.T) {
	const replicas, grants, callers = 5, 10, 4
	ctx := t.Context()
	srv := partnertest.NewServer(partnertest.WithRefreshRotation())
	t.Cleanup(srv.Close)
	redisSrv := startRedis(t)
	database := auth.NewMemoryStore()
	ids := make([]string, grants)
	for i := range ids {
		g := srv.NewGrant()
		ids[i] = g.ID
		if err := database.Save(ctx, g.ID, &oauth2.Token{RefreshToken: g.RefreshToken}); err != nil {
			t.Fatal(err)
		}
	}
	pools := make([]*partner.Pool, replicas)
	for i := range pools {
		p, err := partner.NewPool(partner.PoolConfig{
			BaseURL: srv.URL, AuthURL: srv.AuthURL,
			ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
			Store:      redisstore.New(redisSrv.client(t), database),
			HTTPClient: srv.Client(),
			Pacing:     partner.Pacing{Off: true},
		})
		if err != nil {
			t.Fatal(err)
		}
		pools[i] = p
	}
	var wg sync.WaitGroup
	for _, p := range pools {
		for _, id := range ids {
			for range callers {
				wg.Go(func() {
					c, err := p.Client(ctx, id)
					if err == nil {
						_, err = c.Organizations.List(ctx)
					}
					if err != nil {
						t.Errorf("grant %s: %v", id, err)
					}
				})
			}
		}
	}
	wg.Wait()
	for _, id := range ids {
		c := srv.GrantCounts(id)
		if c.Refreshes != 1 || c.Mints != 1 {
			t.Errorf("grant %s: %d refreshes and %d mints by %d replicas; want 1 and 1", id, c.Refreshes, c.Mints, replicas)
		}
		if g, _ := srv.Grant(id); g.Revoked {
			t.Errorf("grant %s was revoked (a rotated refresh token used twice)", id)
		}
	}
}
