// Package sqlstoretest runs sqlstore on real databases in tests: it
// starts a PostgreSQL server of its own (or uses PARTNER_TEST_PG_DSN) and
// opens SQLite files, with pure-Go drivers. It is a module of its own, so
// that the SDK's module depends on no database driver; its tests hold
// sqlstore's tests on both engines. Run them with
//
//	cd sqlstore/sqlstoretest && go test -race ./...
//
// (.ci/run does, after installing PostgreSQL with apt-get).
package sqlstoretest
