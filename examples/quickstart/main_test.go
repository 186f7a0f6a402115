package main

import (
	"strings"
	"testing"
)

func TestFakeMode(t *testing.T) {
	var out strings.Builder
	code := run(t.Context(), func(string) string { return "" }, &out)
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, &out)
	}
	for _, want := range []string{
		"built-in fake service", "Connected as", "Organizations granted: 1",
		"Created project quickstart-", "Added target language de",
		"errors.Is(err, partner.ErrReauthorizationRequired) = true",
		"must reconnect", "a later call: same error true, requests sent 0",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}

func TestSomeSettingsMissing(t *testing.T) {
	env := map[string]string{"PARTNER_BASE_URL": "https://api.example.test", "PARTNER_CLIENT_ID": "x"}
	var out strings.Builder
	code := run(t.Context(), func(k string) string { return env[k] }, &out)
	if code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	for _, k := range []string{"PARTNER_AUTH_URL", "PARTNER_CLIENT_SECRET", "PARTNER_REFRESH_TOKEN", "PARTNER_GRANT_ID"} {
		if !strings.Contains(out.String(), k) {
			t.Errorf("the message does not name %s: %s", k, &out)
		}
	}
	if strings.Contains(out.String(), "PARTNER_BASE_URL") {
		t.Errorf("the message names a setting that is set: %s", &out)
	}
}

func TestBadSettings(t *testing.T) {
	env := map[string]string{}
	for _, k := range required {
		env[k] = "x"
	}
	env["PARTNER_BASE_URL"] = "http://api.example.test" // plain http off loopback
	var out strings.Builder
	if code := run(t.Context(), func(k string) string { return env[k] }, &out); code != 2 {
		t.Fatalf("exit %d, want 2:\n%s", code, &out)
	}
	if strings.Contains(out.String(), "x\"") {
		t.Errorf("the message may show a secret: %s", &out)
	}
}
