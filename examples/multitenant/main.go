// Command multitenant shows one Pool serving many users: it starts the
// fake service, connects 1,000 users, runs 10 calls per user from 50
// workers, revokes 10 grants midway, and prints what happened: calls made,
// refreshes and mints (one each per grant), the revoked grants' outcome,
// and the heap the pool keeps per grant.
//
//	go run ./examples/multitenant
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

const (
	users   = 1000
	calls   = 10 // per user
	workers = 50
	revoked = 10
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "multitenant:", err)
		os.Exit(1)
	}
}

type result struct {
	ok, reauth, other atomic.Int64
}

func run(ctx context.Context, out io.Writer) error {
	srv := partnertest.NewServer()
	defer srv.Close()

	// Each user connected the application; the tokens are in the Store
	// (in a real application, a table in its database).
	store := auth.NewMemoryStore()
	grants := make([]partnertest.Grant, users)
	for i := range grants {
		grants[i] = srv.NewGrant()
		if err := store.Save(ctx, grants[i].ID, &oauth2.Token{RefreshToken: grants[i].RefreshToken}); err != nil {
			return err
		}
	}
	pool, err := partner.NewPool(partner.PoolConfig{
		BaseURL: srv.URL, AuthURL: srv.AuthURL,
		ClientID: srv.ClientID(), ClientSecret: srv.ClientSecret(),
		Store: store,
	})
	if err != nil {
		return err
	}

	// The jobs: call i of every user, for i in 0..9, so that the revoked
	// users are revoked after some calls succeeded.
	jobs := make(chan int)
	go func() {
		defer close(jobs)
		for j := range users * calls {
			if j == users*calls/2 {
				for _, g := range grants[:revoked] {
					srv.Revoke(g.ID) // users who disconnect mid-run
				}
			}
			jobs <- j
		}
	}()
	var live, gone result
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				g := grants[j%users]
				r := &live
				if j%users < revoked {
					r = &gone
				}
				c, err := pool.Client(ctx, g.ID)
				if err == nil {
					_, err = c.Projects.List(ctx, g.Organizations[0].ID)
				}
				switch {
				case err == nil:
					r.ok.Add(1)
				case errors.Is(err, partner.ErrReauthorizationRequired):
					r.reauth.Add(1)
				default:
					r.other.Add(1)
					fmt.Fprintln(out, "unexpected:", err)
				}
			}
		})
	}
	wg.Wait()

	// What the pool keeps: the heap with it, less the heap without it
	// (the fake service's own state stays in both).
	with := heap()
	runtime.KeepAlive(pool)
	pool = nil
	perGrant := float64(int64(with)-int64(heap())) / users
	var liveRefreshes, liveMints, goneRequests int
	for i, g := range grants {
		n := srv.GrantCounts(g.ID)
		if i >= revoked {
			liveRefreshes += n.Refreshes
			liveMints += n.Mints
		}
	}
	for _, r := range srv.Requests() {
		for _, g := range grants[:revoked] {
			if r.GrantID == g.ID && (r.Status == 410 || r.Status == 400) {
				goneRequests++
			}
		}
	}

	fmt.Fprintf(out, "users %d, calls %d from %d workers through one Pool\n", users, users*calls, workers)
	fmt.Fprintf(out, "live grants (%d): %d calls ok, %d failed\n", users-revoked, live.ok.Load(), live.reauth.Load()+live.other.Load())
	fmt.Fprintf(out, "  refreshes %d, mints %d: %.2f and %.2f per grant\n", liveRefreshes, liveMints,
		float64(liveRefreshes)/(users-revoked), float64(liveMints)/(users-revoked))
	fmt.Fprintf(out, "revoked grants (%d): %d calls ok before, %d refused with ErrReauthorizationRequired, %d other errors\n",
		revoked, gone.ok.Load(), gone.reauth.Load(), gone.other.Load())
	fmt.Fprintf(out, "  refused answers from the service for them: %d (at most one per grant; later calls never left the process)\n", goneRequests)
	fmt.Fprintf(out, "heap kept by the pool: about %.0f bytes per grant\n", perGrant)

	if live.reauth.Load()+live.other.Load()+gone.other.Load() > 0 || goneRequests > revoked ||
		liveRefreshes != users-revoked || liveMints != users-revoked {
		return errors.New("unexpected outcome (see above)")
	}
	return nil
}

// heap returns the live heap after a collection.
func heap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
