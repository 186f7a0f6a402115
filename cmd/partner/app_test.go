package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/locsvc/partner-go/partnertest"
)

// testApp is an app whose output is kept, for a test that calls a
// command's run function without building the binary.
type testApp struct {
	*app
	stdout, stderr *bytes.Buffer
}

// newTestApp returns an app with the environment "partner fake
// --print-env" would print for srv, seeded as the fake is, and with its
// output kept. With an in-memory srv (partnertest.WithInMemoryNetwork) it
// reaches srv through srv.Client().
func newTestApp(t *testing.T, srv *partnertest.Server) *testApp {
	t.Helper()
	_, g := seedFake(srv)
	env := map[string]string{}
	for _, kv := range fakeEnv(srv, g, "", "http://127.0.0.1:1/callback", "whsec_"+strings.Repeat("A", 32)) {
		env[kv[0]] = kv[1]
	}
	var stdout, stderr bytes.Buffer
	a := newApp(func(k string) string { return env[k] }, strings.NewReader(""), &stdout, &stderr)
	a.httpClient = srv.Client()
	return &testApp{app: a, stdout: &stdout, stderr: &stderr}
}

// setenv sets a setting of the app.
func (ta *testApp) setenv(key, value string) {
	old := ta.getenv
	ta.getenv = func(k string) string {
		if k == key {
			return value
		}
		return old(k)
	}
}
