package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestFakeMode(t *testing.T) {
	var out strings.Builder
	code := run(t.Context(), func(string) string { return "" }, &out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, &out)
	}
	want := []string{
		`^No PARTNER_\* settings: using the built-in fake service`,
		`^Read 10 texts in de, en, pt-BR from .* \(namespaced_folders, nested keys\)$`,
		`^Plan: create 5 keys, update 0, delete 0, skip 0$`,
		`^  create…$`,
		`^  publish…$`,
		`^  wait…$`,
		`^Pushed: 5 keys created, 0 updated, in 3 calls$`,
		`^Published 5 texts: sync job [\w-]+ completed$`,
		`^A second push would write nothing: true$`,
		`^Pulled from the API: 10 texts, the same files byte for byte$`,
		`^Pulled from the CDN: 10 texts, the same files byte for byte$`,
		`^Done\.$`,
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), &out)
	}
	for i, re := range want {
		if !regexp.MustCompile(re).MatchString(lines[i]) {
			t.Errorf("line %d = %q, want it to match %s", i+1, lines[i], re)
		}
	}
}

func TestSomeSettingsMissing(t *testing.T) {
	var out strings.Builder
	code := run(t.Context(), func(k string) string {
		if k == "PARTNER_BASE_URL" {
			return "https://api.example"
		}
		return ""
	}, &out)
	if code != 2 || !strings.Contains(out.String(), "missing settings: PARTNER_AUTH_URL") {
		t.Errorf("exit %d: %s", code, &out)
	}
}
