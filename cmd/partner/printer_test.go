package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/locsvc/partner-go/locales"
)

// hostile is text from outside that drives a terminal (OSC title, BEL,
// clear screen, C1 CSI, DEL) and forges GitHub Actions workflow commands
// (a "::" line, the older "##[" form anywhere in a line).
const hostile = "x\x1b]0;pwned\x07\x1b[2J\u009b31m\x7f\n::error file=app.go,line=1::forged\n  ::add-mask::x ##[error]old\u2028\u202eevil"

// unsafeOutput returns what is wrong with text a terminal or a CI log
// would read, or "": a control character other than a line break or a
// tab, a line separator or bidirectional control, a byte that is not
// UTF-8, a line starting (after white space) with "::", or "##[".
func unsafeOutput(text string) string {
	if !utf8.ValidString(text) {
		return "invalid UTF-8"
	}
	for _, r := range text {
		if r != '\n' && r != '\t' && unsafeRune(r) {
			return fmt.Sprintf("%U", r)
		}
	}
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			return fmt.Sprintf("a workflow command line %q", line)
		}
	}
	if strings.Contains(text, "##[") {
		return "##["
	}
	return ""
}

func TestPrinterNeutralisesFields(t *testing.T) {
	for _, tc := range []struct {
		name, format string
		args         []any
		want         string
	}{
		{"plain text is kept", "%s: %d texts in %s\n", []any{"acme/web", 3, "de, fr, pt-BR, 日本語"}, "acme/web: 3 texts in de, fr, pt-BR, 日本語\n"},
		{"a colon pair inside a line is kept", "  %s\n", []any{"std::string a::b"}, "  std::string a::b\n"},
		{"C0 and DEL", "%s\n", []any{"a\x1b[31mb\x07c\x7f"}, `a\x1b[31mb\x07c\x7f` + "\n"},
		{"C1", "%s\n", []any{"a\u009b31mb\u0085"}, `a\u009b31mb\u0085` + "\n"},
		{"a field's line break", "  skipped %s [de]\n", []any{"k\n::error::forged"}, `  skipped k\x0a::error::forged [de]` + "\n"},
		{"a field's tab", "%s\n", []any{"a\tb"}, `a\x09b` + "\n"},
		{"invalid UTF-8", "%s\n", []any{"Caf\xe9"}, `Caf\xe9` + "\n"},
		{"separators and bidi", "%s\n", []any{"a\u2028b\u202ec"}, `a\u2028b\u202ec` + "\n"},
		{"a field at the start of a line", "%s %s\n", []any{"", "::error::forged"}, ` :\x3aerror::forged` + "\n"},
		{"the older form", "%s\n", []any{"x ##[error]y"}, `x ##\x5berror]y` + "\n"},
		{"an error", "(%v)\n", []any{fmt.Errorf("no\x1b[2J")}, `(no\x1b[2J)` + "\n"},
		{"a named string type", "%s\n", []any{locales.Step("a\u009bb")}, `a\u009bb` + "\n"},
	} {
		var b bytes.Buffer
		newPrinter(&b).printf(tc.format, tc.args...)
		if b.String() != tc.want {
			t.Errorf("%s: printed %q, want %q", tc.name, b.String(), tc.want)
		}
	}
}

// An error's message keeps its own lines (a list of problems), with what
// each line holds neutralised.
func TestPrinterKeepsTheLinesOfAText(t *testing.T) {
	var b bytes.Buffer
	newPrinter(&b).println("partner: locales: 2 problems, nothing written:\n\tde.json:3: key \"a\x1b[2J\"\n::error::forged")
	want := "partner: locales: 2 problems, nothing written:\n\tde.json:3: key \"a\\x1b[2J\"\n:\\x3aerror::forged\n"
	if b.String() != want {
		t.Errorf("printed %q, want %q", b.String(), want)
	}
}

// A line printed in pieces is checked whole.
func TestPrinterChecksALinePrintedInPieces(t *testing.T) {
	var b bytes.Buffer
	p := newPrinter(&b)
	p.printf("  %s", ":")
	p.printf("%s\n", ":error::forged")
	p.printf("x %s", "#")
	p.printf("%s\n", "#[error]old")
	if want := "  :\\x3aerror::forged\nx ##\\x5berror]old\n"; b.String() != want {
		t.Errorf("printed %q, want %q", b.String(), want)
	}
}

// --json output decodes to the same values, without a character that
// drives a terminal: encoding/json escapes C0 but leaves DEL and C1 (and
// "##[") as they are.
func TestPrintJSONEscapesWhatEncodingJSONLeaves(t *testing.T) {
	var b bytes.Buffer
	a := &app{stdout: &b}
	in := triggerResult{ID: "evt_1", Response: hostile + "\u0090\u009b"}
	if err := a.printJSON(in); err != nil {
		t.Fatal(err)
	}
	if bad := unsafeOutput(b.String()); bad != "" {
		t.Errorf("--json printed %s:\n%s", bad, b.String())
	}
	var out triggerResult
	if err := json.Unmarshal(b.Bytes(), &out); err != nil || out != in {
		t.Errorf("--json decodes to %+v (%v), want %+v", out, err, in)
	}
}

// status, publish and push print the service's and the tree's texts:
// reasons, sync ids, statuses and errors, language codes, keys.
func TestHumanOutputNeutralisesTextsFromOutside(t *testing.T) {
	var b bytes.Buffer
	a := &app{stdout: &b, out: newPrinter(&b)}
	now := time.Now()
	a.printStatus(&statusResult{
		Project: "acme/web",
		Pending: pendingResult{HasChanges: true, Total: 1, ByLanguage: map[string]int{hostile: 1}, NoPublishReason: hostile},
		Syncs:   []syncResult{{ID: hostile, Type: hostile, Status: hostile, StartedAt: &now, Error: hostile}},
	})
	item := locales.Item{Namespace: hostile, Key: hostile, Languages: []string{hostile}, Reason: hostile}
	a.printReport(&locales.Report{Project: "acme/web", Skipped: []locales.Item{item}, Failed: []locales.Item{item}})
	a.printPlan(&locales.Plan{Project: "acme/web", Skipped: []locales.Item{item}})
	if bad := unsafeOutput(b.String()); bad != "" {
		t.Errorf("printed %s:\n%s", bad, b.String())
	}
	if !strings.Contains(b.String(), `forged`) {
		t.Errorf("the texts were dropped, not shown:\n%s", b.String())
	}
}

// A receiver's answer is quoted in trigger's error, and kept whole in
// --json.
func TestTriggerNeutralisesTheReceiversAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadGateway)
		io.WriteString(w, hostile)
	}))
	t.Cleanup(srv.Close)
	r := runPartner(t, nil, "trigger", "keys.created", "--to", srv.URL, "--secret", testSecret)
	if r.code != 1 || !strings.Contains(r.stderr, "forged") {
		t.Errorf("exit %d, stderr %q; want 1 and the answer quoted", r.code, r.stderr)
	}
	if bad := unsafeOutput(r.stdout + r.stderr); bad != "" {
		t.Errorf("trigger printed %s:\n%s\n%s", bad, r.stdout, r.stderr)
	}
	r = runPartner(t, nil, "trigger", "keys.created", "--to", srv.URL, "--secret", testSecret, "--json")
	var res triggerResult
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil || res.Response != hostile {
		t.Errorf("--json printed %q (%v), want the whole answer", r.stdout, err)
	}
	if bad := unsafeOutput(r.stdout + r.stderr); bad != "" {
		t.Errorf("trigger --json printed %s:\n%s\n%s", bad, r.stdout, r.stderr)
	}
}

// A pull request's tree whose keys forge workflow commands: push
// --dry-run (the README's pull-request step) prints them neutralised.
func TestPushDryRunNeutralisesTheTreesKeys(t *testing.T) {
	env := startFake(t)
	dir := writeTree(t, map[string]string{
		"en.json": `{"nav": {"home": "Home"}}`,
		"de.json": `{"nav": {"home": "Startseite"}, "k\n::error file=app.go,line=1::forged": "x", "\u009b2J##[error]old": "y"}`,
	})
	for _, args := range [][]string{{"--dry-run"}, {"--dry-run", "--json"}} {
		r := runPartner(t, env, append([]string{"push", "--dir", dir}, args...)...)
		if !strings.Contains(r.stdout+r.stderr, "forged") {
			t.Errorf("push %v: exit %d, the keys are not shown:\n%s\n%s", args, r.code, r.stdout, r.stderr)
		}
		if bad := unsafeOutput(r.stdout + r.stderr); bad != "" {
			t.Errorf("push %v printed %s:\n%s\n%s", args, bad, r.stdout, r.stderr)
		}
	}
}

// FuzzPrinter: whatever a field or a text holds, nothing printed drives a
// terminal or forges a workflow command; a field with nothing to
// neutralise is printed as it is; --json decodes to the same value.
func FuzzPrinter(f *testing.F) {
	f.Add(hostile)
	f.Add("plain text, std::string")
	f.Add("\u00a0::error::x")
	f.Add("#\x00#[")
	f.Add(":")
	f.Add("#")
	f.Add("Caf\xe9")
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		p := newPrinter(&b)
		p.printf("%s %s:%s [%s]: %v\n", s, s, s, []string{s, s}, fmt.Errorf("%s", s))
		p.printf("%s", s)
		p.println(s)
		p.println("partner: " + s)
		p.printf("%s", s[:len(s)/2]) // a line printed in pieces
		p.printf("%s", s[len(s)/2:])
		p.println(s)
		if bad := unsafeOutput(b.String()); bad != "" {
			t.Fatalf("printed %s: %q", bad, b.String())
		}
		if unsafeOutput(s) == "" && !strings.ContainsAny(s, "\n\t") {
			b.Reset()
			p.printf("%s", s)
			if b.String() != s {
				t.Fatalf("%q printed as %q", s, b.String())
			}
		}
		raw, _ := json.MarshalIndent(map[string]string{s: s}, "", "  ")
		j := jsonSafe(raw)
		if bad := unsafeOutput(string(j)); bad != "" {
			t.Fatalf("JSON %s: %q", bad, j)
		}
		var want, got map[string]string
		json.Unmarshal(raw, &want)
		if err := json.Unmarshal(j, &got); err != nil || len(got) != 1 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("JSON %q decodes to %q (%v), want %q", j, got, err, want)
		}
	})
}
