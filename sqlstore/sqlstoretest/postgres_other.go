//go:build !linux

package sqlstoretest

import (
	"database/sql"
	"testing"
)

// DSNEnv names the environment variable with the DSN of a PostgreSQL
// server for the tests to use instead of starting their own.
const DSNEnv = "PARTNER_TEST_PG_DSN"

// Postgres is a PostgreSQL server for tests; starting one is implemented
// on Linux only.
type Postgres struct{}

// StartPostgres skips tb: starting a server is implemented on Linux only.
func StartPostgres(tb testing.TB) *Postgres {
	tb.Skip("starting PostgreSQL for tests is implemented on Linux only")
	return nil
}

// PID returns 0.
func (p *Postgres) PID() int { return 0 }

// Stop does nothing.
func (p *Postgres) Stop() error { return nil }

// Open is never reached: StartPostgres skipped.
func (p *Postgres) Open(tb testing.TB) (*sql.DB, string) { panic("unreachable") }
