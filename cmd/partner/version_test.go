package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// partnerVersion runs "partner version --json" and its text forms with the
// binary bin, checks that they agree, and returns the JSON.
func partnerVersion(t *testing.T, bin string) buildVersion {
	t.Helper()
	r := runBinary(t, bin, "version", "--json")
	var v buildVersion
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &v) != nil {
		t.Fatalf("partner version --json: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	text := runBinary(t, bin, "version")
	flag := runBinary(t, bin, "--version")
	if want := "partner " + v.String() + "\n"; text.code != 0 || text.stdout != want || flag.code != 0 || flag.stdout != want {
		t.Errorf("partner version printed %q (exit %d), partner --version %q (exit %d); want both %q",
			text.stdout, text.code, flag.stdout, flag.code, want)
	}
	if v.Go != runtime.Version() || v.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("go %q, platform %q; want %q, %q", v.Go, v.Platform, runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH)
	}
	return v
}

// runBinary runs the partner binary bin with args.
func runBinary(t *testing.T, bin string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = environ(nil)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s %s: %v", bin, strings.Join(args, " "), err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

var fullRevision = regexp.MustCompile(`^[0-9a-f]{40}$`)

// The binary built as the README says (go build in cmd/partner, as
// TestMain does) reports the module's version and the clone's commit, or
// "unknown" when the build had no VCS data.
func TestVersionOfABuildFromAClone(t *testing.T) {
	v := partnerVersion(t, partnerBin)
	if v.Version == "" || v.Version == unknown {
		t.Errorf("version %q: want the module's version from the build info", v.Version)
	}
	if v.Revision == unknown {
		if v.Time != unknown || v.Modified {
			t.Errorf("no revision but time %q, modified %v", v.Time, v.Modified)
		}
		t.Logf("this build has no VCS data: %s", v)
		return
	}
	if !fullRevision.MatchString(v.Revision) {
		t.Errorf("revision %q: want a full commit hash", v.Revision)
	}
	if _, err := time.Parse(time.RFC3339, v.Time); err != nil {
		t.Errorf("time %q: %v", v.Time, err)
	}
	if head, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
		if got, want := v.Revision, strings.TrimSpace(string(head)); got != want {
			t.Errorf("revision %s, want HEAD %s", got, want)
		}
	}
}

// A build with -buildvcs=true (the default where GOFLAGS does not turn it
// off) reports the clone's commit and its time.
func TestVersionOfABuildWithVCSData(t *testing.T) {
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not in a git clone: %v", err)
	}
	// The go command finds a repository by a .git folder: a git worktree's
	// .git is a file, and its builds have no VCS data.
	top, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if fi, serr := os.Stat(filepath.Join(strings.TrimSpace(string(top)), ".git")); err != nil || serr != nil || !fi.IsDir() {
		t.Skip("in a git worktree (.git is not a folder): go build records no VCS data here")
	}
	bin := filepath.Join(t.TempDir(), "partner")
	build := exec.Command("go", "build", "-buildvcs=true", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build -buildvcs=true: %v", err)
	}
	v := partnerVersion(t, bin)
	if got, want := v.Revision, strings.TrimSpace(string(head)); got != want {
		t.Errorf("revision %s, want HEAD %s", got, want)
	}
	if _, err := time.Parse(time.RFC3339, v.Time); err != nil {
		t.Errorf("time %q: %v", v.Time, err)
	}
	if v.Version == "" || v.Version == unknown {
		t.Errorf("version %q: want the module's version from the build info", v.Version)
	}
}

// A release build stamps its version with -ldflags -X, as .goreleaser.yaml
// does; without VCS data the revision and time say "unknown".
func TestVersionStampedAtRelease(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "partner")
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags=-X main.version=v1.2.3", "-o", bin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		t.Fatalf("go build: %v", err)
	}
	v := partnerVersion(t, bin)
	if v.Version != "v1.2.3" || v.Revision != unknown || v.Time != unknown || v.Modified {
		t.Errorf("got %+v; want version v1.2.3, revision and time unknown", v)
	}
}

func TestVersionFromTheBuildInfo(t *testing.T) {
	vcs := &debug.BuildInfo{
		GoVersion: "go1.99.1",
		Main:      debug.Module{Path: "github.com/locsvc/partner-go/cmd/partner", Version: "v0.0.0-20261128162426-50e79507abcd+dirty"},
		Settings: []debug.BuildSetting{
			{Key: "vcs", Value: "git"},
			{Key: "vcs.revision", Value: "50e79507abcd0123456789abcdef0123456789ab"},
			{Key: "vcs.time", Value: "2026-11-28T16:24:26Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	installed := &debug.BuildInfo{GoVersion: "go1.99.1", Main: debug.Module{Version: "v1.4.0"}}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, tc := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    buildVersion
		line    string
	}{
		{"a build in a clone", "", vcs,
			buildVersion{"v0.0.0-20261128162426-50e79507abcd+dirty", "50e79507abcd0123456789abcdef0123456789ab", "2026-11-28T16:24:26Z", true, "go1.99.1", platform},
			"v0.0.0-20261128162426-50e79507abcd+dirty (revision 50e79507abcd0123456789abcdef0123456789ab, 2026-11-28T16:24:26Z, modified) go1.99.1 " + platform},
		{"a release build", "v1.5.0", vcs,
			buildVersion{"v1.5.0", "50e79507abcd0123456789abcdef0123456789ab", "2026-11-28T16:24:26Z", true, "go1.99.1", platform},
			"v1.5.0 (revision 50e79507abcd0123456789abcdef0123456789ab, 2026-11-28T16:24:26Z, modified) go1.99.1 " + platform},
		{"go install ...@v1.4.0", "", installed,
			buildVersion{"v1.4.0", unknown, unknown, false, "go1.99.1", platform},
			"v1.4.0 (revision unknown, unknown) go1.99.1 " + platform},
		{"no build info", "", nil,
			buildVersion{unknown, unknown, unknown, false, runtime.Version(), platform},
			"unknown (revision unknown, unknown) " + runtime.Version() + " " + platform},
	} {
		got := readVersion(tc.stamped, tc.bi)
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
		if got.String() != tc.line {
			t.Errorf("%s: printed %q, want %q", tc.name, got.String(), tc.line)
		}
	}
}
