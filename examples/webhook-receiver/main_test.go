package main

import (
	"context"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/locsvc/partner-go/webhook"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestDemo(t *testing.T) {
	var out strings.Builder
	if err := demo(t.Context(), &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	s := out.String()
	if n := strings.Count(s, "  received "); n != len(webhook.EventTypes()) {
		t.Errorf("%d events handled, want %d (one per type, the repeat dropped):\n%s", n, len(webhook.EventTypes()), s)
	}
	for _, want := range []string{"entry hello-world deleted", "sync completed, 412 keys in 5.23s", "white space around it"} {
		if !strings.Contains(s, want) {
			t.Errorf("output lacks %q:\n%s", want, s)
		}
	}
	for what, status := range map[string]string{"tampered": "-> 401", "stale": "-> 401", "repeated": "-> 200"} {
		found := false
		for _, line := range strings.Split(s, "\n") {
			found = found || strings.HasPrefix(line, what) && strings.Contains(line, status)
		}
		if !found {
			t.Errorf("no line says %s %s:\n%s", what, status, s)
		}
	}
	if strings.Contains(s, "UNEXPECTED") {
		t.Errorf("unexpected statuses:\n%s", s)
	}
}

func TestServeShutsDown(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	var out strings.Builder
	done := make(chan error, 1)
	go func() { done <- serve(ctx, "whsec_test", "127.0.0.1:0", &out) }()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
}
