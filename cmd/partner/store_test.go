package main

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"golang.org/x/oauth2"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/auth/storetest"
)

func TestFileStoreConformance(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.json")
	storetest.Run(t, func(t *testing.T) auth.Store {
		s, err := newFileStore(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestFileStoreRefusesAForeignFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(path, []byte("my notes, not tokens\n"), 0o600)
	s, err := newFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Save(context.Background(), "g", &oauth2.Token{RefreshToken: "r"}); err == nil || !strings.Contains(err.Error(), "not a token file") {
		t.Errorf("Save over a file that is not a token file: %v, want a refusal", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "my notes, not tokens\n" {
		t.Errorf("the file was changed to %q", b)
	}
}

// Processes share a file store on a fake that rotates refresh tokens and
// whose access tokens live a second: every run refreshes, and each
// refresh token must be spent once, or the fake revokes the grant (and the
// runs exit 3).
func TestFileStoreConcurrentProcessesRotate(t *testing.T) {
	env := startFake(t, "--rotate", "--access-token-lifetime", "1s")
	env = with(env, "PARTNER_STORE", "file:"+filepath.Join(t.TempDir(), "tokens.json"))
	const procs, runs = 4, 5
	var wg sync.WaitGroup
	for p := range procs {
		wg.Go(func() {
			for i := range runs {
				if r := runPartner(t, env, "status"); r.code != 0 {
					t.Errorf("process %d, run %d: exit %d\n%s", p, i, r.code, r.stderr)
					return
				}
			}
		})
	}
	wg.Wait()
	if r := runPartner(t, env, "status"); r.code != 0 {
		t.Errorf("a run after them: exit %d\n%s", r.code, r.stderr)
	}
}

func TestStoreSeeding(t *testing.T) {
	env := with(startFake(t), "PARTNER_STORE", "") // not the fake's store
	store := "file:" + filepath.Join(t.TempDir(), "tokens.json")

	// No store: the token is used once, with a warning.
	r := runPartner(t, env, "status")
	if r.code != 0 || !strings.Contains(r.stderr, "PARTNER_STORE") {
		t.Errorf("without a store: exit %d, stderr %q; want 0 and a warning naming PARTNER_STORE", r.code, r.stderr)
	}
	// The first run seeds the store...
	if r := runPartner(t, with(env, "PARTNER_STORE", store), "status"); r.code != 0 {
		t.Fatalf("seeding: exit %d\n%s", r.code, r.stderr)
	}
	// ...and the store wins over a stale PARTNER_REFRESH_TOKEN.
	if r := runPartner(t, with(env, "PARTNER_STORE", store, "PARTNER_REFRESH_TOKEN", "pt_rt_stale"), "status"); r.code != 0 {
		t.Errorf("a stale PARTNER_REFRESH_TOKEN with a seeded store: exit %d\n%s", r.code, r.stderr)
	}
	// --store overrides PARTNER_STORE; an empty store without a token is a usage error.
	empty := "file:" + filepath.Join(t.TempDir(), "empty.json")
	r = runPartner(t, with(env, "PARTNER_STORE", store, "PARTNER_REFRESH_TOKEN", ""), "status", "--store", empty)
	if r.code != 2 || !strings.Contains(r.stderr, "partner connect") {
		t.Errorf("--store naming an empty store: exit %d, stderr %q; want 2 and advice to connect", r.code, r.stderr)
	}
	for _, bad := range []string{"ftp://x", "sqlite:", "file:", "redis://localhost:6379/0"} {
		if r := runPartner(t, with(env, "PARTNER_STORE", bad), "status"); r.code != 2 {
			t.Errorf("PARTNER_STORE=%s: exit %d, want 2\n%s", bad, r.code, r.stderr)
		}
	}
}

func TestSQLiteStore(t *testing.T) {
	env := startFake(t, "--rotate")
	env = with(env, "PARTNER_STORE", "sqlite:"+filepath.Join(t.TempDir(), "tokens.db"))
	for i := range 2 {
		if r := runPartner(t, env, "status"); r.code != 0 {
			t.Fatalf("run %d on a sqlite store: exit %d\n%s", i, r.code, r.stderr)
		}
	}
	// Without the store the first refresh token comes back: the fake
	// revokes the grant, and the command says to reconnect.
	r := runPartner(t, with(env, "PARTNER_STORE", ""), "status")
	if r.code != 3 || !strings.Contains(r.stderr, "partner connect") {
		t.Errorf("a spent refresh token: exit %d, stderr %q; want 3 and advice to connect", r.code, r.stderr)
	}
}

// A store setting's passwords never reach an error: not when the setting
// does not parse (a bad port, an unknown kind of store), nor when the bad
// part is the store a Redis URL names with ?store=.
func TestStoreErrorsShowNoPassword(t *testing.T) {
	const pw = "s3cretPW"
	file := "file:" + filepath.Join(t.TempDir(), "tokens.json")
	env := map[string]string{
		"PARTNER_BASE_URL": "http://127.0.0.1:1", "PARTNER_AUTH_URL": "http://127.0.0.1:1", "PARTNER_MCP_URL": "http://127.0.0.1:1",
		"PARTNER_CLIENT_ID": "c", "PARTNER_CLIENT_SECRET": "s", "PARTNER_GRANT_ID": "g", "PARTNER_PROJECT": "acme/web",
	}
	for _, spec := range []string{
		"redis://:" + pw + "@localhost:badport/0?store=" + url.QueryEscape(file),
		"redis://:" + pw + "@[::1/0?store=" + url.QueryEscape(file),
		"redis://:" + pw + "@localhost:6379/notanumber?store=" + url.QueryEscape(file),
		"redis://:" + pw + "@localhost:6379/0?store=" + url.QueryEscape("ftp://u:"+pw+"@host:bad"),
		"redis://:" + pw + "@localhost:6379/0?store=" + url.QueryEscape("postgres://u:"+pw+"@localhost:badport/db"),
		"redis://:pass/" + pw + "@localhost:6379/0?store=" + url.QueryEscape(file),
		"postgres://u:" + pw + "@localhost:badport/db",
		"postgres://u:" + pw + "@localhost:5432/db?sslmode=nonsense",
		"mysql://u:" + pw + "@localhost/db",
		"ftp://u:" + pw + "@host:bad",
		"host=localhost password=" + pw,
	} {
		r := runPartner(t, with(env, "PARTNER_STORE", spec), "status")
		if r.code == 0 || strings.Contains(r.stdout+r.stderr, pw) {
			t.Errorf("PARTNER_STORE=%s: exit %d, printed\n%s%s", spec, r.code, r.stdout, r.stderr)
		}
	}
}

// connect prints where it saved the tokens with every password of the
// setting redacted, the backing store's too.
func TestRedactSpec(t *testing.T) {
	for _, tc := range []struct{ spec, want string }{
		{"file:/var/lib/partner/tokens.json", "file:/var/lib/partner/tokens.json"},
		{"postgres://u:pw1@db:5432/partner", "postgres://u:xxxxx@db:5432/partner"},
		{"postgres://u@db/partner?password=pw1&sslmode=require", "postgres://u@db/partner?password=xxxxx&sslmode=require"},
		{"redis://:pw1@localhost:6379/0?store=" + url.QueryEscape("postgres://u:pw2@db/partner"),
			"redis://:xxxxx@localhost:6379/0?store=" + url.QueryEscape("postgres://u:xxxxx@db/partner")},
		{"rediss://localhost:6379/0?store=" + url.QueryEscape("redis://:pw2@x/0?store="+url.QueryEscape("postgres://u:pw3@db/p")),
			"rediss://localhost:6379/0?store=" + url.QueryEscape("redis://:xxxxx@x/0?store="+url.QueryEscape("postgres://u:xxxxx@db/p"))},
		{"redis://:pw1@localhost:bad/0", "redis:..."},
		{"host=db password=pw1", "..."},
	} {
		if got := redactSpec(tc.spec); got != tc.want {
			t.Errorf("redactSpec(%s) = %s, want %s", tc.spec, got, tc.want)
		}
	}
}

// A token file restored from a cache or copied with mode 0644, and its
// lock file, are made 0600 by a run that only reads them.
func TestFileStoreMakesAnOpenFilePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("permission bits do not apply on Windows")
	}
	path := filepath.Join(t.TempDir(), "tokens.json")
	os.WriteFile(path, []byte(`{"grants": {"g": {"token": {"refresh_token": "r"}}}}`), 0o600)
	os.WriteFile(path+".lock", nil, 0o600)
	for _, p := range []string{path, path + ".lock"} {
		if err := os.Chmod(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := newFileStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if tok, err := s.Load(context.Background(), "g"); err != nil || tok.RefreshToken != "r" {
		t.Fatalf("Load: %v, %v", tok, err)
	}
	for _, p := range []string{path, path + ".lock"} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s after a run that only read it: %v (%v), want 0600", filepath.Base(p), fi.Mode().Perm(), err)
		}
	}
}
