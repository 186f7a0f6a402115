package sqlstoretest_test

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/sqlstore"
	"github.com/locsvc/partner-go/sqlstore/sqlstoretest"
)

// Replicas as separate OS processes: the test binary runs itself again
// as TestReplicaProcess, a replica with one partner.Pool on the same
// database, told by its environment where the service and the database
// are, and by its standard input when to call.

// replicaEnv, when set (to the engine's name), makes TestReplicaProcess a
// replica; replicaEnv+"_..." carry the rest of its configuration.
const replicaEnv = "SQLSTORETEST_REPLICA"

// The service's token lifetimes in the test across processes: a refresh
// is due 2 s after one, by the SDK's clock, and installation tokens
// expire after 2 s, so that every round finds both due.
const (
	processRefreshEvery     = 2 * time.Second
	processAccessLife       = partner.AccessTokenEarlyRefresh + processRefreshEvery
	processInstallationLife = processRefreshEvery
)

// TestReplicaProcess is a replica run by TestReplicasAcrossProcesses; it
// skips in any other run. For each line "round N" on its standard input
// it calls every grant once, spread over its workers, and answers
//
//	done N calls C errors E reauth R [the first error]
func TestReplicaProcess(t *testing.T) {
	name := os.Getenv(replicaEnv)
	if name == "" {
		t.Skip("a replica process of TestReplicasAcrossProcesses")
	}
	env := func(k string) string { return os.Getenv(replicaEnv + "_" + k) }
	dialect := sqlstore.Postgres
	if name == "sqlite" {
		dialect = sqlstore.SQLite
	}
	db, err := sql.Open(env("DRIVER"), env("DSN"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := sqlstore.New(db, dialect)
	if err != nil {
		t.Fatal(err)
	}
	p, err := partner.NewPool(partner.PoolConfig{
		BaseURL: env("BASE_URL"), AuthURL: env("AUTH_URL"),
		ClientID: env("CLIENT_ID"), ClientSecret: env("CLIENT_SECRET"),
		Store: s, Pacing: partner.Pacing{Off: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	grants := strings.Split(env("GRANTS"), ",")

	ctx := context.Background()
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		round, ok := strings.CutPrefix(sc.Text(), "round ")
		if !ok {
			t.Fatalf("bad command %q", sc.Text())
		}
		next := make(chan string)
		go func() {
			defer close(next)
			for _, id := range grants {
				next <- id
			}
		}()
		var errs errorLog
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				for id := range next {
					errs.add(call(ctx, p, id))
				}
			})
		}
		wg.Wait()
		first := ""
		if len(errs.errs) > 0 {
			first = strings.ReplaceAll(errs.errs[0].Error(), "\n", " ")
		}
		fmt.Printf("done %s calls %d errors %d reauth %d %s\n", round, errs.calls, len(errs.errs), errs.reauth, first)
	}
}

// TestReplicasAcrossProcesses: 5 replica processes of 10 goroutines each
// serve 20 grants on one database, 10 rounds; in each, every replica
// calls every grant once, at the same time, after the grant's access
// token became due. Each round the service answers exactly one refresh
// per grant: the replicas take the token the lease holder committed.
// sqlstore is not an auth.InstallationCache, so each replica mints its
// own installation token: at most one per replica, grant and round.
func TestReplicasAcrossProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 10 rounds of a few seconds each")
	}
	engines := []func(*testing.T) engine{
		func(t *testing.T) engine { return postgresEngine(sqlstoretest.StartPostgres(t)) },
		func(*testing.T) engine { return sqliteEngine() },
	}
	for _, mk := range engines {
		e := mk(t)
		t.Run(e.name, func(t *testing.T) { testReplicasAcrossProcesses(t, e) })
	}
}

func testReplicasAcrossProcesses(t *testing.T, e engine) {
	const grants, rounds = 20, 10
	srv := newReplicaServer(t, processAccessLife, processInstallationLife)
	store, dsn := e.newStore(t)
	ids := newGrants(t, srv, store, grants)
	env := []string{
		replicaEnv + "=" + e.name,
		replicaEnv + "_DRIVER=" + e.driver,
		replicaEnv + "_DSN=" + dsn,
		replicaEnv + "_BASE_URL=" + srv.URL,
		replicaEnv + "_AUTH_URL=" + srv.AuthURL,
		replicaEnv + "_CLIENT_ID=" + srv.ClientID(),
		replicaEnv + "_CLIENT_SECRET=" + srv.ClientSecret(),
		replicaEnv + "_GRANTS=" + strings.Join(ids, ","),
	}
	children := startReplicas(t, env, processes)

	before := make(map[string]int) // refreshes and mints so far, by grant
	mintsBefore := make(map[string]int)
	var maxMints int
	for round := range rounds {
		if round > 0 {
			time.Sleep(processRefreshEvery + 250*time.Millisecond) // every token due
		}
		start := time.Now()
		for i, a := range ask(t, children, "round "+strconv.Itoa(round)) {
			var n, calls, errCount, reauth int
			if _, err := fmt.Sscanf(a, "done %d calls %d errors %d reauth %d", &n, &calls, &errCount, &reauth); err != nil || n != round {
				t.Fatalf("replica %d: %q: %v", i, a, err)
			}
			if calls != grants || errCount != 0 {
				t.Errorf("round %d, replica %d: %d calls, %d failed (%d ErrReauthorizationRequired): %s", round, i, calls, errCount, reauth, a)
			}
		}
		// A round slower than the refresh period (a loaded machine) lets
		// a refresh fall due again before it ends: one more per period.
		took := time.Since(start)
		want := 1 + int(took/processRefreshEvery)
		if want > 1 {
			t.Logf("round %d took %v, more than the refresh period: up to %d refreshes per grant", round, took.Round(time.Millisecond), want)
		}
		for _, id := range ids {
			c := srv.GrantCounts(id)
			refreshes, mints := c.Refreshes-before[id], c.Mints-mintsBefore[id]
			before[id], mintsBefore[id] = c.Refreshes, c.Mints
			maxMints = max(maxMints, mints)
			if refreshes < 1 || refreshes > want || mints < 1 || mints > want*processes {
				t.Errorf("round %d (%v), grant %s: %d refreshes and %d mints; want %d refresh and 1 to %d mints (one per replica: sqlstore shares no installation token)",
					round, took.Round(time.Millisecond), id, refreshes, mints, want, want*processes)
			}
		}
	}
	c := srv.Counts()
	t.Logf("%s: %d rounds of %d replicas x %d goroutines x %d grants: %d refreshes (%.2f per grant and round), %d mints (%.2f per grant and round, at most %d), %d refresh tokens sent again, %d grants revoked",
		e.name, rounds, processes, workers, grants, c.Refreshes, float64(c.Refreshes)/grants/rounds,
		c.Mints, float64(c.Mints)/grants/rounds, maxMints, c.ReusedRefreshTokens, c.ReuseRevocations)
	checkRotation(t, srv, store, ids)
}

// startReplicas starts n replica processes, running TestReplicaProcess
// with env; they are killed when t ends.
func startReplicas(t *testing.T, env []string, n int) []*child {
	t.Helper()
	children := make([]*child, n)
	for i := range children {
		cmd := exec.Command(os.Args[0], "-test.run=^TestReplicaProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), env...)
		cmd.Stderr = os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c := &child{cmd: cmd, in: in, out: bufio.NewScanner(out)}
		t.Cleanup(func() { c.kill() })
		children[i] = c
	}
	return children
}
