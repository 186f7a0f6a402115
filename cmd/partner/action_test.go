package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The composite action in the repository's action.yml, run without GitHub:
// each step's run: body with bash as a runner runs it (bash --noprofile
// --norc -eo pipefail), its env: evaluated from the inputs, the runner's
// variables set, and GITHUB_OUTPUT and GITHUB_PATH honoured between steps.

// action is the part of action.yml the runner reads.
type action struct {
	Inputs map[string]struct {
		Required bool   `yaml:"required"`
		Default  string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	Uses  string            `yaml:"uses"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// repoRoot is where action.yml is, as github.action_path.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func loadAction(t *testing.T) action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// actionRun is what one run of the action did.
type actionRun struct {
	log     string            // every step's stdout and stderr
	failed  string            // the id of the step that failed, or ""
	code    int               // its exit code
	outputs map[string]string // step id.name: value
}

// expr is the only form a step's env: value may take: one context value.
var expr = regexp.MustCompile(`^\$\{\{ *(inputs\.[a-z-]+|github\.action_path|github\.action_ref|steps\.[a-z-]+\.outputs\.[a-z-]+) *\}\}$`)

// runnerArch is RUNNER_ARCH on this machine.
func runnerArch() string {
	return map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
}

// runAction runs action.yml's steps in the folder workspace with the job's
// environment env (as a workflow's env: sets it), the action's inputs and
// github.action_ref ref.
func runAction(t *testing.T, workspace string, env, inputs map[string]string, ref string) actionRun {
	t.Helper()
	a := loadAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using %q, want composite", a.Runs.Using)
	}
	values := map[string]string{"github.action_path": repoRoot(t), "github.action_ref": ref}
	for name, in := range a.Inputs {
		values["inputs."+name] = in.Default
		if in.Required && inputs[name] == "" {
			t.Fatalf("input %s is required", name)
		}
	}
	for name, v := range inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("action.yml has no input %q", name)
		}
		values["inputs."+name] = v
	}

	runner := t.TempDir()
	pathFile := filepath.Join(runner, "path")
	base := environ(env)
	base = append(base, "RUNNER_OS=Linux", "RUNNER_ARCH="+runnerArch(), "RUNNER_TEMP="+runner,
		"GITHUB_WORKSPACE="+workspace, "GITHUB_PATH="+pathFile, "CI=true", "GITHUB_ACTIONS=true")
	var log strings.Builder
	run := actionRun{outputs: map[string]string{}}
	for i, step := range a.Runs.Steps {
		if step.Uses != "" || step.Shell != "bash" || step.Run == "" {
			t.Fatalf("step %d (%s): want a run: step with shell bash", i, step.ID)
		}
		if strings.Contains(step.Run, "${{") {
			t.Fatalf("step %s: its run: body holds an expression; read inputs through env: instead", step.ID)
		}
		stepEnv := append([]string(nil), base...)
		if b, err := os.ReadFile(pathFile); err == nil {
			dirs := strings.Fields(string(b))
			for l, r := 0, len(dirs)-1; l < r; l, r = l+1, r-1 {
				dirs[l], dirs[r] = dirs[r], dirs[l] // the last added comes first
			}
			stepEnv = append(stepEnv, "PATH="+strings.Join(append(dirs, os.Getenv("PATH")), string(os.PathListSeparator)))
		}
		for k, v := range step.Env {
			m := expr.FindStringSubmatch(v)
			if m == nil {
				t.Fatalf("step %s: env %s: %q, want one ${{ inputs.* }}, ${{ github.* }} or ${{ steps.*.outputs.* }}", step.ID, k, v)
			}
			stepEnv = append(stepEnv, k+"="+values[m[1]])
		}
		script := filepath.Join(runner, fmt.Sprintf("step%d.sh", i))
		output := filepath.Join(runner, fmt.Sprintf("output%d", i))
		if err := os.WriteFile(script, []byte(step.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(output, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = workspace
		cmd.Env = append(stepEnv, "GITHUB_OUTPUT="+output)
		cmd.Stdout, cmd.Stderr = &log, &log
		err := cmd.Run()
		b, rerr := os.ReadFile(output)
		if rerr != nil {
			t.Fatal(rerr)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if k, v, ok := strings.Cut(line, "="); ok {
				values["steps."+step.ID+".outputs."+k] = v
				run.outputs[step.ID+"."+k] = v
			}
		}
		if err != nil {
			run.failed, run.code = step.ID, cmd.ProcessState.ExitCode()
			if run.code <= 0 {
				t.Fatalf("step %s: %v", step.ID, err)
			}
			break
		}
	}
	run.log = log.String()
	return run
}

// fakeTree is a project's worth of locale files for the fake's acme/web.
var fakeTree = map[string]string{
	"locales/en.json": "{\n  \"checkout\": {\n    \"submit\": \"Pay now\"\n  },\n  \"nav\": {\n    \"home\": \"Home\"\n  }\n}\n",
	"locales/de.json": "{\n  \"checkout\": {\n    \"submit\": \"Jetzt bezahlen\"\n  },\n  \"nav\": {\n    \"home\": \"Startseite\"\n  }\n}\n",
	"locales/fr.json": "{\n  \"nav\": {\n    \"home\": \"Accueil\"\n  }\n}\n",
}

func TestActionPushesAndPulls(t *testing.T) {
	env := startFake(t)
	delete(env, "PARTNER_PROJECT") // the input gives it
	workspace := writeTree(t, fakeTree)
	store := "file:" + filepath.Join(t.TempDir(), "token.json")

	push := runAction(t, workspace, env, map[string]string{
		"command": "push", "project": "acme/web", "dir": "locales", "store": store,
		"flags": "--publish\n--delete-missing", "binary": partnerBin,
	}, "main")
	if push.failed != "" {
		t.Fatalf("push failed at step %s (exit %d):\n%s", push.failed, push.code, push.log)
	}
	for _, want := range []string{"partner push --project acme/web --dir locales --publish --delete-missing", "2 keys created"} {
		if !strings.Contains(push.log, want) {
			t.Errorf("push log lacks %q:\n%s", want, push.log)
		}
	}
	if strings.Contains(push.log, "warning") {
		t.Errorf("with the store input, the command still warns:\n%s", push.log)
	}
	if _, err := os.Stat(strings.TrimPrefix(store, "file:")); err != nil {
		t.Errorf("the store input did not reach the command: %v", err)
	}
	if p := push.outputs["install.path"]; filepath.Base(p) != "partner" || push.outputs["install.version"] == "" {
		t.Errorf("install outputs %v", push.outputs)
	}

	// The pull writes the tree back, byte for byte; PARTNER_PROJECT from the
	// job's environment serves when the input is empty.
	env["PARTNER_PROJECT"] = "acme/web"
	pulled := t.TempDir()
	pull := runAction(t, pulled, env, map[string]string{
		"command": "pull", "dir": "locales", "store": store, "binary": partnerBin,
	}, "")
	if pull.failed != "" {
		t.Fatalf("pull failed at step %s (exit %d):\n%s", pull.failed, pull.code, pull.log)
	}
	got := readTree(t, pulled)
	if len(got) != len(fakeTree) {
		t.Errorf("pull wrote %v", got)
	}
	for name, want := range fakeTree {
		if got[name] != want {
			t.Errorf("pull: %s =\n%s\nwant\n%s", name, got[name], want)
		}
	}
}

func TestActionFailingPushFailsTheStep(t *testing.T) {
	env := startFake(t)
	workspace := writeTree(t, map[string]string{"locales/en.json": "{\n  \"nav\": {\"home\": 42}\n}\n"})
	r := runAction(t, workspace, env, map[string]string{"command": "push", "dir": "locales", "binary": partnerBin}, "")
	if r.failed != "run" || r.code != 1 {
		t.Fatalf("a bad locale file: failed step %q, exit %d; want step run, exit 1:\n%s", r.failed, r.code, r.log)
	}
	if !strings.Contains(r.log, "::error::partner push exited 1") || !strings.Contains(r.log, "en.json") {
		t.Errorf("log:\n%s", r.log)
	}

	// A usage error keeps its exit code; a command other than push or pull
	// never reaches the binary.
	r = runAction(t, workspace, env, map[string]string{"command": "push", "dir": "locales", "project": "nope", "binary": partnerBin}, "")
	if r.failed != "run" || r.code != 2 {
		t.Errorf("--project nope: failed step %q, exit %d; want run, 2:\n%s", r.failed, r.code, r.log)
	}
	r = runAction(t, workspace, env, map[string]string{"command": "fake", "binary": partnerBin}, "")
	if r.failed != "run" || r.code != 2 || !strings.Contains(r.log, "command must be push or pull") {
		t.Errorf("command fake: failed step %q, exit %d; want run, 2:\n%s", r.failed, r.code, r.log)
	}
}

// Inputs reach the commands as data: quotes, $(...) and globs in them are
// never run or expanded.
func TestActionInputsAreNotCode(t *testing.T) {
	env := startFake(t)
	workspace := writeTree(t, fakeTree)
	r := runAction(t, workspace, env, map[string]string{
		"command": "push", "dir": "locales", "binary": partnerBin, "config": `x"; touch injected; echo "`,
		"project": "acme/web$(touch injected)", "flags": "--dry-run `touch injected` *",
	}, "")
	if r.failed != "run" || r.code != 2 {
		t.Errorf("failed step %q, exit %d; want run, 2 (a usage error):\n%s", r.failed, r.code, r.log)
	}
	if _, err := os.Stat(filepath.Join(workspace, "injected")); err == nil {
		t.Errorf("an input ran as a command:\n%s", r.log)
	}
	if !strings.Contains(r.log, "--config x\"; touch injected; echo \"") {
		t.Errorf("the config input is not passed as --config:\n%s", r.log)
	}
}

// releaseServer serves a release of partner version 1.2.3 as GitHub does,
// its archive holding bin, with the checksum sum for it ("" for the right
// one).
func releaseServer(t *testing.T, bin, sum string) *httptest.Server {
	t.Helper()
	exe, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	var archive bytes.Buffer
	gz, err := gzip.NewWriterLevel(&archive, gzip.NoCompression) // fast, and still gzip
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(gz)
	for name, body := range map[string][]byte{"partner": exe, "README.md": []byte("# partner-go\n")} {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("partner_1.2.3_linux_%s.tar.gz", runtime.GOARCH)
	if sum == "" {
		sum = fmt.Sprintf("%x", sha256.Sum256(archive.Bytes()))
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /releases/latest", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/releases/tag/cmd%2Fpartner%2Fv1.2.3", http.StatusFound)
	})
	mux.HandleFunc("GET /releases/tag/", func(w http.ResponseWriter, r *http.Request) {})
	mux.HandleFunc("GET /releases/download/cmd/partner/v1.2.3/"+name, func(w http.ResponseWriter, r *http.Request) {
		w.Write(archive.Bytes())
	})
	mux.HandleFunc("GET /releases/download/cmd/partner/v1.2.3/partner_1.2.3_checksums.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s  %s\n%x  partner_1.2.3_windows_amd64.zip\n", sum, name, sha256.Sum256(nil))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestActionInstallsARelease(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil || runnerArch() == "" || runtime.GOOS != "linux" {
		t.Skip("needs curl on linux/amd64 or linux/arm64")
	}
	env := startFake(t)
	workspace := writeTree(t, fakeTree)
	srv := releaseServer(t, partnerBin, "")
	env["PARTNER_RELEASES_URL"] = srv.URL + "/releases"
	for _, tc := range []struct{ version, ref string }{
		{"1.2.3", "main"},
		{"cmd/partner/v1.2.3", ""},
		{"", "cmd/partner/v1.2.3"}, // the action's own tag
		{"latest", ""},
		{"", "main"}, // latest
	} {
		r := runAction(t, workspace, env, map[string]string{"command": "push", "dir": "locales", "version": tc.version, "flags": "--dry-run"}, tc.ref)
		if r.failed != "" || !strings.Contains(r.log, "would create 2 keys") {
			t.Errorf("version %q at ref %q: failed step %q, exit %d:\n%s", tc.version, tc.ref, r.failed, r.code, r.log)
		}
	}

	// A download that does not match the checksums is refused.
	bad := releaseServer(t, partnerBin, strings.Repeat("0", 64))
	env["PARTNER_RELEASES_URL"] = bad.URL + "/releases"
	r := runAction(t, workspace, env, map[string]string{"command": "push", "dir": "locales", "version": "1.2.3"}, "")
	if r.failed != "install" || !strings.Contains(r.log, "checksum") {
		t.Errorf("a bad checksum: failed step %q, exit %d:\n%s", r.failed, r.code, r.log)
	}
	// And a version that is no release names what it wants.
	r = runAction(t, workspace, env, map[string]string{"command": "push", "version": "../../evil"}, "")
	if r.failed != "install" || !strings.Contains(r.log, "want 1.2.3") {
		t.Errorf("version ../../evil: failed step %q, exit %d:\n%s", r.failed, r.code, r.log)
	}
}
