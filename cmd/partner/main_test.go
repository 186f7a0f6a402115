package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// partnerBin is the command under test, built once by TestMain.
var partnerBin string

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		// A fuzzing worker runs one fuzz target, which needs no binary:
		// building it in each worker would take the fuzzing time.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "partner-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	partnerBin = filepath.Join(dir, "partner")
	build := exec.Command("go", "build", "-o", partnerBin, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building partner:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// environ returns the test process's environment without any PARTNER_
// variable, plus env.
func environ(env map[string]string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PARTNER_") {
			out = append(out, kv)
		}
	}
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	return out
}

// result is what one run of the command did.
type result struct {
	stdout, stderr string
	code           int
}

// runPartner runs the command with args in env and returns what it did.
func runPartner(t testing.TB, env map[string]string, args ...string) result {
	t.Helper()
	return runPartnerIn(t, "", env, args...)
}

// runPartnerIn runs the command in folder dir ("": the test's).
func runPartnerIn(t testing.TB, dir string, env map[string]string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, partnerBin, args...)
	cmd.Env = environ(env)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("partner %s: %v", strings.Join(args, " "), err)
	}
	return result{stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()}
}

// with returns env with more variables.
func with(env map[string]string, kv ...string) map[string]string {
	out := make(map[string]string, len(env)+len(kv)/2)
	for k, v := range env {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

// fakeEnvKeys are the variables "partner fake --print-env" prints.
var fakeEnvKeys = []string{
	"PARTNER_BASE_URL", "PARTNER_AUTH_URL", "PARTNER_MCP_URL", "PARTNER_CONTENT_MCP_URL",
	"PARTNER_CLIENT_ID", "PARTNER_CLIENT_SECRET", "PARTNER_GRANT_ID", "PARTNER_REFRESH_TOKEN",
	"PARTNER_STORE", "PARTNER_CDN_URL",
	"PARTNER_PROJECT", "PARTNER_REDIRECT_URL", "PARTNER_WEBHOOK_SECRET",
}

// startFake runs "partner fake --print-env" with more args and returns the
// environment it printed. The fake is stopped with SIGTERM at the end of
// the test, which checks that it exits 0.
func startFake(t *testing.T, args ...string) map[string]string {
	t.Helper()
	cmd := exec.Command(partnerBin, append([]string{"fake", "--print-env"}, args...)...)
	cmd.Env = environ(nil)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	drained := make(chan struct{})
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		<-drained // before Wait, which closes the pipe
		if err := cmd.Wait(); err != nil {
			t.Errorf("partner fake after SIGTERM: %v; stderr:\n%s", err, stderr.String())
		}
	})
	env := map[string]string{}
	sc := bufio.NewScanner(stdout)
	for len(env) < len(fakeEnvKeys) && sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), "=")
		if !ok {
			t.Fatalf("partner fake --print-env printed %q, not KEY=VALUE", sc.Text())
		}
		env[k] = v
	}
	if len(env) < len(fakeEnvKeys) {
		close(drained)
		t.Fatalf("partner fake --print-env stopped after %v; stderr:\n%s", env, stderr.String())
	}
	go func() { io.Copy(io.Discard, stdout); close(drained) }()
	return env
}
