package sqlstoretest_test

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/sqlstore"
	"github.com/locsvc/partner-go/webhook"
)

// The tests across processes run this test binary again as a child (with
// childEnv set), which opens the same database and answers commands, one
// a line, on its standard input.
const childEnv = "SQLSTORETEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if err := runChild(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// runChild serves the commands of a parent test:
//
//	refresh GRANT NAME WORKERS  -> "wins N TOKEN..." (refreshRound)
//	claim ID WORKERS            -> "claimed N inprogress N handled N"
//	holdlease GRANT TTL         -> "fence F", then holds it until killed
//	holdclaim ID TTL            -> "claimed", then holds it until killed
func runChild(in io.Reader, out io.Writer) error {
	dialect := sqlstore.Postgres
	if os.Getenv(childEnv) == "sqlite" {
		dialect = sqlstore.SQLite
	}
	db, err := sql.Open(os.Getenv(childEnv+"_DRIVER"), os.Getenv(childEnv+"_DSN"))
	if err != nil {
		return err
	}
	defer db.Close()
	s, err := sqlstore.New(db, dialect)
	if err != nil {
		return err
	}
	ctx := context.Background()
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 {
			return fmt.Errorf("bad command %q", sc.Text())
		}
		switch f[0] {
		case "refresh":
			n, _ := strconv.Atoi(f[3])
			wins, got, err := refreshRound(ctx, s, f[1], f[2], n)
			if err != nil {
				return err
			}
			fmt.Fprintln(out, "wins", wins, strings.Join(got, " "))
		case "claim":
			n, _ := strconv.Atoi(f[2])
			counts, err := claimRound(ctx, s.Dedup(), f[1], n)
			if err != nil {
				return err
			}
			fmt.Fprintf(out, "claimed %d inprogress %d handled %d\n", counts[webhook.Claimed], counts[webhook.InProgress], counts[webhook.Handled])
		case "holdlease":
			d, _ := time.ParseDuration(f[2])
			l, _, err := s.AcquireLease(ctx, f[1], auth.KindAccess, due, d)
			if err != nil || l == nil {
				return fmt.Errorf("holdlease: %v, %v", l, err)
			}
			fmt.Fprintln(out, "fence", l.Fence)
			select {} // the refresh hangs until the parent kills us
		case "holdclaim":
			d, _ := time.ParseDuration(f[2])
			st, err := s.Dedup().Claim(ctx, f[1], "child-"+strconv.Itoa(os.Getpid()), d)
			if err != nil || st != webhook.Claimed {
				return fmt.Errorf("holdclaim: %v, %v", st, err)
			}
			fmt.Fprintln(out, "claimed")
			select {} // the callback hangs until the parent kills us
		default:
			return fmt.Errorf("bad command %q", sc.Text())
		}
	}
	return sc.Err()
}

// child is a running child process.
type child struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

// startChildren starts n children on the database of e at dsn; they are
// killed when t ends.
func startChildren(t *testing.T, e engine, dsn string, n int) []*child {
	t.Helper()
	children := make([]*child, n)
	for i := range children {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+e.name, childEnv+"_DRIVER="+e.driver, childEnv+"_DSN="+dsn)
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

// ask sends a command to every child at once and returns their answers.
func ask(t *testing.T, children []*child, command string) []string {
	t.Helper()
	answers := make([]string, len(children))
	errs := make([]error, len(children))
	var wg sync.WaitGroup
	for i, c := range children {
		wg.Go(func() { answers[i], errs[i] = c.ask(command) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	return answers
}

func (c *child) ask(command string) (string, error) {
	if _, err := fmt.Fprintln(c.in, command); err != nil {
		return "", err
	}
	if !c.out.Scan() {
		return "", fmt.Errorf("child %d: no answer to %q (%v)", c.cmd.Process.Pid, command, c.out.Err())
	}
	return c.out.Text(), nil
}

// kill kills the child, as a crash would, and waits for it.
func (c *child) kill() {
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}
