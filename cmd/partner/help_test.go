package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestHelpUnknownTopic checks that "partner help" of a command that does
// not exist is a usage error naming it (escaped), not the root's help and
// success, while "partner help push" still prints push's help.
func TestHelpUnknownTopic(t *testing.T) {
	getenv := func(string) string { return "" }
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"help", "pusj\x1b[31m"}, getenv, &stdout, &stderr)
	if code != 2 {
		t.Errorf("help of an unknown topic: exit %d, want 2\nstdout: %q", code, stdout.String())
	}
	if !strings.Contains(stderr.String(), "pusj") || strings.Contains(stderr.String(), "\x1b") {
		t.Errorf("stderr %q: want the topic named, escaped", stderr.String())
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(context.Background(), []string{"help", "push"}, getenv, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "--dry-run") {
		t.Errorf("help push: exit %d, stdout %q", code, stdout.String())
	}
}

// TestHelpCompletes checks that the shell completes "partner help pu"
// with the commands it may name.
func TestHelpCompletes(t *testing.T) {
	var stdout, stderr bytes.Buffer
	run(context.Background(), []string{"__complete", "help", "pu"}, func(string) string { return "" }, &stdout, &stderr)
	for _, name := range []string{"push", "pull", "publish"} {
		if !strings.Contains(stdout.String(), name) {
			t.Errorf("completion of help pu: %q, want %s among them", stdout.String(), name)
		}
	}
}
