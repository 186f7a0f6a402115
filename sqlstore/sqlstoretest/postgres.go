//go:build linux

package sqlstoretest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// DSNEnv names the environment variable with the DSN of a PostgreSQL
// server for the tests to use instead of starting their own.
const DSNEnv = "PARTNER_TEST_PG_DSN"

// Postgres is a PostgreSQL server for tests: one that StartPostgres
// started (a child process, stopped when the test ends), or the one
// PARTNER_TEST_PG_DSN names.
type Postgres struct {
	dsn  string
	cmd  *exec.Cmd     // nil for a server of PARTNER_TEST_PG_DSN
	exit chan struct{} // closed when cmd has exited
	log  string        // the server's log file
}

// StartPostgres starts a PostgreSQL server for tb, listening only on a
// unix socket in a temporary directory, and stops it (by its PID) when
// tb ends. When run as root it runs initdb and the server as the user
// nobody, which PostgreSQL requires. With PARTNER_TEST_PG_DSN set it uses
// that server instead. It skips tb when the PostgreSQL binaries are
// absent.
func StartPostgres(tb testing.TB) *Postgres {
	tb.Helper()
	if dsn := os.Getenv(DSNEnv); dsn != "" {
		return &Postgres{dsn: dsn}
	}
	initdb, postgres, ok := findBinaries()
	if !ok {
		tb.Skipf("PostgreSQL binaries (initdb, postgres) not found in PATH or /usr/lib/postgresql/*/bin: apt-get install postgresql, or set %s", DSNEnv)
	}
	dir, err := os.MkdirTemp("", "sqlstoretest-pg-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		cred = nobody()
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			tb.Fatal(err)
		}
	}
	data := filepath.Join(dir, "data")
	cmd := exec.Command(initdb, "-D", data, "-U", "postgres", "--auth=trust", "--no-locale", "-E", "UTF8", "--no-sync")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("initdb: %v\n%s", err, out)
	}

	p := &Postgres{
		dsn:  "host=" + dir + " user=postgres dbname=postgres sslmode=disable",
		exit: make(chan struct{}),
		log:  filepath.Join(dir, "postgres.log"),
	}
	logf, err := os.Create(p.log)
	if err != nil {
		tb.Fatal(err)
	}
	defer logf.Close()
	p.cmd = exec.Command(postgres, "-D", data, "-k", dir,
		"-c", "listen_addresses=", "-c", "max_connections=200",
		"-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	// SIGQUIT is PostgreSQL's immediate shutdown: the server goes when
	// the test binary dies without its cleanup.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	if err := p.cmd.Start(); err != nil {
		tb.Fatalf("start postgres: %v", err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exit) }()
	tb.Cleanup(func() {
		if err := p.Stop(); err != nil {
			tb.Errorf("stop postgres: %v", err)
		}
	})
	if err := p.waitReady(30 * time.Second); err != nil {
		tb.Fatalf("postgres did not start: %v\n%s", err, p.tail())
	}
	return p
}

// findBinaries looks for initdb and postgres in PATH, then in the newest
// of Debian's /usr/lib/postgresql/*/bin.
func findBinaries() (initdb, postgres string, ok bool) {
	if i, err := exec.LookPath("initdb"); err == nil {
		if p, err := exec.LookPath("postgres"); err == nil {
			return i, p, true
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	slices.SortFunc(dirs, func(a, b string) int { return version(b) - version(a) })
	for _, d := range dirs {
		i, p := filepath.Join(d, "initdb"), filepath.Join(d, "postgres")
		if isFile(i) && isFile(p) {
			return i, p, true
		}
	}
	return "", "", false
}

// version returns the major version in a path such as
// /usr/lib/postgresql/15/bin.
func version(bin string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(bin)))
	return n
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// nobody returns the credentials of the user nobody (65534 where it is
// not in the user database).
func nobody() *syscall.Credential {
	c := &syscall.Credential{Uid: 65534, Gid: 65534}
	if u, err := user.Lookup("nobody"); err == nil {
		if uid, err := strconv.Atoi(u.Uid); err == nil {
			c.Uid = uint32(uid)
		}
		if gid, err := strconv.Atoi(u.Gid); err == nil {
			c.Gid = uint32(gid)
		}
	}
	return c
}

func (p *Postgres) waitReady(limit time.Duration) error {
	db, err := sql.Open("pgx", p.dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(limit)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-p.exit:
			return fmt.Errorf("the server exited: %v", p.cmd.ProcessState)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return err
		}
	}
}

// tail returns the end of the server's log.
func (p *Postgres) tail() string {
	b, _ := os.ReadFile(p.log)
	return string(b[max(0, len(b)-4000):])
}

// PID returns the process id of the server StartPostgres started, or 0
// for the server of PARTNER_TEST_PG_DSN.
func (p *Postgres) PID() int {
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// Stop shuts the server down (fast shutdown: SIGINT to its PID, then
// SIGKILL if it is still running after 10 s) and waits for it. It does
// nothing to the server of PARTNER_TEST_PG_DSN, and nothing a second
// time. Tests of a store outage call it; StartPostgres's cleanup does.
func (p *Postgres) Stop() error {
	if p.cmd == nil {
		return nil
	}
	select {
	case <-p.exit:
		return nil
	default:
	}
	if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return err
	}
	select {
	case <-p.exit:
		return nil
	case <-time.After(10 * time.Second):
	}
	_ = p.cmd.Process.Kill()
	<-p.exit
	return errors.New("postgres ignored SIGINT for 10 s and was killed")
}

// Open creates a schema of its own for tb in the server and returns a
// database whose connections use it, with its DSN (for other processes
// to open the same). The database is closed, and a schema in the server
// of PARTNER_TEST_PG_DSN dropped, when tb ends.
func (p *Postgres) Open(tb testing.TB) (*sql.DB, string) {
	tb.Helper()
	admin, err := sql.Open("pgx", p.dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer admin.Close()
	schema := "sqlstoretest_" + strings.ToLower(rand.Text())
	if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
		tb.Fatalf("create schema: %v", err)
	}
	if p.cmd == nil {
		tb.Cleanup(func() {
			admin, err := sql.Open("pgx", p.dsn)
			if err != nil {
				tb.Error(err)
				return
			}
			defer admin.Close()
			if _, err := admin.Exec("DROP SCHEMA " + schema + " CASCADE"); err != nil {
				tb.Errorf("drop schema: %v", err)
			}
		})
	}
	dsn, err := withSearchPath(p.dsn, schema)
	if err != nil {
		tb.Fatal(err)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, dsn
}

// withSearchPath adds search_path to a DSN in URL or keyword/value form.
func withSearchPath(dsn, schema string) (string, error) {
	if !strings.Contains(dsn, "://") {
		return dsn + " search_path=" + schema, nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "", fmt.Errorf("%s: %w", DSNEnv, err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
