package sqlstore

import (
	"database/sql"
	"errors"
	"strings"
	"testing"
)

func TestNewRefusesWhatItCannotUse(t *testing.T) {
	if _, err := New(nil, Postgres); !errors.Is(err, ErrInvalid) {
		t.Errorf("New(nil) = %v, want ErrInvalid", err)
	}
	db := &sql.DB{} // never used: New does not touch the database
	if _, err := New(db, Dialect(0)); !errors.Is(err, ErrInvalid) {
		t.Errorf("New with dialect 0 = %v, want ErrInvalid", err)
	}
	for _, d := range []Dialect{Postgres, SQLite} {
		if _, err := New(db, d); err != nil {
			t.Errorf("New(%v) = %v", d, err)
		}
	}
}

func TestDialectString(t *testing.T) {
	for d, want := range map[Dialect]string{Postgres: "postgres", SQLite: "sqlite", 7: "Dialect(7)"} {
		if got := d.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", int(d), got, want)
		}
	}
}

func TestQueriesSpelledForTheirDialect(t *testing.T) {
	for _, d := range []Dialect{Postgres, SQLite} {
		q := forDialect(d)
		for _, stmt := range []string{q.load, q.saveToken, q.lockLease, q.endLease, q.claim, q.claimState, q.done, q.purge} {
			if strings.Contains(stmt, "{now}") {
				t.Errorf("%v: %q keeps {now}", d, stmt)
			}
			if d == SQLite && placeholder.MatchString(stmt) {
				t.Errorf("%v: %q keeps a $N placeholder", d, stmt)
			}
		}
	}
	if got := forDialect(SQLite).deleteToken; got != `DELETE FROM partner_sdk_tokens WHERE grant_id = ?1` {
		t.Errorf("SQLite deleteToken = %q", got)
	}
}
