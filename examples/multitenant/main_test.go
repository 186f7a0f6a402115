package main

import (
	"os"
	"strings"
	"testing"
)

func TestRunSQLite(t *testing.T) {
	testRun(t, "")
}

func TestRunPostgres(t *testing.T) {
	dsn := os.Getenv("PARTNER_TEST_PG_DSN")
	if dsn == "" {
		t.Skip("set PARTNER_TEST_PG_DSN to a PostgreSQL database to run the replicas on it")
	}
	testRun(t, dsn)
}

// testRun runs the demo and checks what it prints: every live call
// succeeds, one refresh per grant across the replicas. (run itself fails
// when the mints are not one per replica that served a grant.)
func testRun(t *testing.T, pgDSN string) {
	var out strings.Builder
	if err := run(t.Context(), &out, pgDSN); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	for _, want := range []string{
		"live grants (990): 9900 calls ok, 0 failed",
		"refreshes 990, mints ",
		": 1.00 and ",
		"refused with ErrReauthorizationRequired, 0 other errors",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}

func TestRunUnreachableDatabase(t *testing.T) {
	var out strings.Builder
	err := run(t.Context(), &out, "postgres://nobody@127.0.0.1:1/none?connect_timeout=5")
	if err == nil {
		t.Fatalf("run on a database nobody listens on: no error\n%s", &out)
	}
	if !strings.Contains(err.Error(), "migrate") {
		t.Errorf("error %q does not say which step failed", err)
	}
}
