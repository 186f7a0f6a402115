package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestJSONErrors: with --json, a failure prints one JSON document on
// stdout, {"error": {message, exitCode, problems}}, with every problem of
// bad input, and the exit code is the one without --json; a failure
// after the result was printed adds no second document.
func TestJSONErrors(t *testing.T) {
	env := startFake(t)
	bad := writeTree(t, map[string]string{
		"en.json": "{\n  \"a\": \"A\",\n  \"a\": \"again\"\n}\n",
		"de.json": "{\"a\": 42}\n",
	})
	type doc struct {
		Error struct {
			Message  string        `json:"message"`
			ExitCode int           `json:"exitCode"`
			Problems []problemView `json:"problems"`
		} `json:"error"`
	}
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		message  string
		problems []string // file:line:key of each
	}{
		{"bad files", []string{"push", "--dir", bad, "--json"}, 1, "2 problems", []string{"de.json:1:a", "en.json:3:a"}},
		{"a missing folder", []string{"push", "--dir", "does-not-exist", "--json"}, 2, "does-not-exist: no such folder", nil},
		{"a wrong flag before --json", []string{"push", "--bogus", "--json"}, 2, "bogus", nil},
		{"no grant", []string{"status", "--json"}, 2, "PARTNER_BASE_URL", nil},
	} {
		e := env
		if tc.name == "no grant" {
			e = map[string]string{"PARTNER_PROJECT": "acme/web"}
		}
		r := runPartner(t, e, tc.args...)
		var d doc
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		if err := dec.Decode(&d); err != nil || dec.More() {
			t.Errorf("%s: stdout %q is not one JSON document (%v)", tc.name, r.stdout, err)
			continue
		}
		if r.code != tc.code || d.Error.ExitCode != tc.code || !strings.Contains(d.Error.Message, tc.message) {
			t.Errorf("%s: exit %d, %+v; want exit and exitCode %d, a message with %q", tc.name, r.code, d.Error, tc.code, tc.message)
		}
		var got []string
		for _, p := range d.Error.Problems {
			got = append(got, p.File+":"+strconv.Itoa(p.Line)+":"+p.Key)
		}
		if strings.Join(got, " ") != strings.Join(tc.problems, " ") || d.Error.Problems == nil {
			t.Errorf("%s: problems %v (%s), want %v", tc.name, got, r.stdout, tc.problems)
		}
		if !strings.Contains(r.stderr, tc.message) {
			t.Errorf("%s: stderr %q, want the message there too", tc.name, r.stderr)
		}
	}
	// Without --json, stdout stays empty on failure.
	if r := runPartner(t, env, "push", "--dir", bad); r.stdout != "" || r.code != 1 {
		t.Errorf("push of bad files without --json: exit %d, stdout %q", r.code, r.stdout)
	}
}

// TestJSONErrorAfterResult: a command that printed its result and then
// fails (here status --min-coverage) prints no error document after it.
func TestJSONErrorAfterResult(t *testing.T) {
	env := startFake(t)
	r := runPartner(t, env, "status", "--min-coverage", "50", "--json")
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	var v map[string]any
	if r.code != 4 || dec.Decode(&v) != nil || dec.More() || v["project"] != "acme/web" {
		t.Errorf("status --min-coverage --json below the bar: exit %d, stdout %q; want 4 and the status alone", r.code, r.stdout)
	}
}

// TestWantsJSON: --json is found on a command line whose flags cobra did
// not finish parsing, and not after "--".
func TestWantsJSON(t *testing.T) {
	for args, want := range map[string]bool{
		"push --bogus --json": true, "push --json=true": true, "push --json": true,
		"push -- --json": false, "push --dir x": false, "push --jsonx": false,
	} {
		if got := wantsJSON(strings.Fields(args)); got != want {
			t.Errorf("wantsJSON(%q) = %v, want %v", args, got, want)
		}
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"push", "--nope", "--json"}, func(string) string { return "" }, &stdout, &stderr)
	if code != 2 || !strings.Contains(stdout.String(), `"exitCode": 2`) {
		t.Errorf("push --nope --json: exit %d, stdout %q", code, stdout.String())
	}
}
