package sqlstoretest

import (
	"database/sql"
	"path/filepath"
	"testing"

	_ "modernc.org/sqlite" // registers "sqlite"
)

// OpenSQLite opens a new SQLite database in a file in tb's temporary
// directory, in WAL mode with a busy timeout so that writers from many
// goroutines and processes wait for each other, and returns it with its
// DSN (for other processes to open the same file). The database is
// closed when tb ends.
func OpenSQLite(tb testing.TB) (*sql.DB, string) {
	tb.Helper()
	dsn := "file:" + filepath.Join(tb.TempDir(), "partner.db") +
		"?_pragma=busy_timeout(30000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db, dsn
}
