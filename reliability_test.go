package partner_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/projects"
)

// Outcomes a fault-matrix row can end with; docs/reliability.md uses the
// same words.
const (
	outOK       = "success"
	outReauth   = "ErrReauthorizationRequired"
	outConfig   = "ErrConfiguration"
	outScope    = "MissingScopeError"
	outTemp     = "ErrTemporary"
	outDeadline = "context.DeadlineExceeded"
	outAPI      = "APIError " // + status
	outUnexp    = "ErrUnexpectedResponse"
	outWrongOrg = "ErrWrongOrganization"
)

// Where a row's fault applies.
const (
	atToken = "token endpoint"
	atMint  = "mint (endpoint 8)"
	atAPI   = "resource" // the call's own endpoint, after a warm-up call
)

// matrixRow is one scenario of the fault matrix.
type matrixRow struct {
	name  string
	at    string
	call  string                                       // me, orgs, projects, create, get, language
	fault *partnertest.Fault                           // injected on the row's target; Path and Host filled in
	setup func(*partnertest.Server, partnertest.Grant) // instead of, or besides, a fault
	want  string
	// requests is how many requests the fake saw, from the fault on (a
	// new client's refresh included, for mint rows).
	requests int
	// minTime and maxTime bound the call's fake duration (maxTime 0: 1 min).
	minTime, maxTime time.Duration
}

var matrix = []matrixRow{
	// The token endpoint, reached by a new client's first call.
	{name: "400 invalid_grant", at: atToken, fault: &partnertest.Fault{Status: 400, Body: `{"error":"invalid_grant"}`}, want: outReauth, requests: 1},
	{name: "400 without a JSON body (a gateway)", at: atToken, fault: &partnertest.Fault{Status: 400, Body: "bad request"}, want: outConfig, requests: 1},
	{name: "401 invalid_client", at: atToken, fault: &partnertest.Fault{Status: 401, Body: `{"error":"invalid_client"}`}, want: outConfig, requests: 1},
	{name: "403 without a code (a proxy)", at: atToken, fault: &partnertest.Fault{Status: 403}, want: outConfig, requests: 1},
	{name: "404 (a wrong AuthURL)", at: atToken, fault: &partnertest.Fault{Status: 404}, want: outConfig, requests: 1},
	{name: "429 Retry-After 1, once", at: atToken, fault: &partnertest.Fault{Status: 429, RetryAfter: "1"}, want: outOK, requests: 4, minTime: time.Second},
	{name: "500 (a POST: not resent)", at: atToken, fault: &partnertest.Fault{Status: 500}, want: outTemp, requests: 1},
	{name: "502 HTML", at: atToken, fault: &partnertest.Fault{Status: 502, Body: "<html>bad gateway</html>"}, want: outTemp, requests: 1},
	{name: "503 once", at: atToken, fault: &partnertest.Fault{Status: 503}, want: outOK, requests: 4},
	{name: "503 always", at: atToken, fault: &partnertest.Fault{Status: 503, Times: -1}, want: outTemp, requests: 4},
	{name: "connection dropped after the request", at: atToken, fault: &partnertest.Fault{Drop: true}, want: outTemp, requests: 1},
	{name: "hangs past the caller's deadline", at: atToken, fault: &partnertest.Fault{Hang: true}, want: outDeadline, requests: 1, minTime: 5 * time.Second, maxTime: 5 * time.Second},
	{name: "truncated body", at: atToken, fault: &partnertest.Fault{Status: 200, Truncate: true}, want: outTemp, requests: 1},
	{name: "307 to another host: credentials not sent there", at: atToken, fault: &partnertest.Fault{Status: 307, Location: "https://evil.example:8443/token?x=1"}, want: outConfig, requests: 1},
	{name: "308 to another host: credentials not sent there", at: atToken, fault: &partnertest.Fault{Status: 308, Location: "https://evil.example/token"}, want: outConfig, requests: 1},
	{name: "429 Retry-After 3600: reported, not awaited", at: atToken, fault: &partnertest.Fault{Status: 429, RetryAfter: "3600"}, want: outTemp, requests: 1},
	{name: "200 with expires_in 1800.0: one clear error", at: atToken, fault: &partnertest.Fault{Status: 200, Body: `{"access_token":"x","expires_in":1800.0}`}, want: outUnexp, requests: 1},

	// Minting the installation token, on a new client's first resource call.
	{name: "410 grant_revoked", at: atMint, fault: &partnertest.Fault{Status: 410, Body: `{"error":"grant_revoked"}`}, want: outReauth, requests: 2},
	{name: "401 twice: one new access token, then a configuration error", at: atMint, fault: &partnertest.Fault{Status: 401, Times: 2}, want: outConfig, requests: 4},
	{name: "403 missing_scope (final too)", at: atMint, fault: &partnertest.Fault{Status: 403, Body: `{"error":"missing_scope","required":"installations:write"}`}, want: outScope, requests: 2},
	{name: "429 Retry-After 2, once", at: atMint, fault: &partnertest.Fault{Status: 429, RetryAfter: "2"}, want: outOK, requests: 4, minTime: 2 * time.Second},
	{name: "500 (a POST: not resent)", at: atMint, fault: &partnertest.Fault{Status: 500}, want: outTemp, requests: 2},
	{name: "503 once", at: atMint, fault: &partnertest.Fault{Status: 503}, want: outOK, requests: 4},
	{name: "connection dropped after the request", at: atMint, fault: &partnertest.Fault{Drop: true}, want: outTemp, requests: 2},
	{name: "truncated body", at: atMint, fault: &partnertest.Fault{Status: 201, Truncate: true}, want: outTemp, requests: 2},
	{name: "404 grant_not_found", at: atMint, fault: &partnertest.Fault{Status: 404, Body: `{"error":"grant_not_found"}`}, want: outReauth, requests: 2},
	{name: "404 HTML (a wrong BaseURL or a proxy)", at: atMint, fault: &partnertest.Fault{Status: 404, Body: "<html>Not Found</html>"}, want: outConfig, requests: 2},
	{name: "410 without a body", at: atMint, fault: &partnertest.Fault{Status: 410, Body: " "}, want: outReauth, requests: 2},
	{name: "307 to another host: not followed", at: atMint, fault: &partnertest.Fault{Status: 307, Location: "https://evil.example/tokens"}, want: outConfig, requests: 2},
	{name: "201 with a 1 MiB bad expires_at: a short error", at: atMint, fault: &partnertest.Fault{Status: 201, Body: `{"installation_token":"svc_oat_x","expires_at":"` + strings.Repeat("9", 1<<20) + `"}`}, want: outUnexp, requests: 2},

	// Resource endpoints, after a warm-up call (tokens in hand).
	{name: "GET organizations: 400 JSON", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 400, Body: `{"error":"invalid_request"}`}, want: outAPI + "400", requests: 1},
	{name: "GET organizations: 401 once: new token, replayed", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 401}, want: outOK, requests: 3},
	{name: "GET organizations: 403 missing_scope", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 403, Body: `{"error":"missing_scope","required":"org:read"}`}, want: outScope, requests: 1},
	{name: "GET organizations: 403 without a body", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 403, Body: " "}, want: outAPI + "403", requests: 1},
	{name: "GET organizations: 404 JSON", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 404, Body: `{"error":"not_found"}`}, want: outAPI + "404", requests: 1},
	{name: "GET organizations: 409", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 409}, want: outAPI + "409", requests: 1},
	{name: "GET organizations: 410 grant_revoked", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 410, Body: `{"error":"grant_revoked"}`}, want: outReauth, requests: 1},
	{name: "GET organizations: 403 wrong_organization: per call", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 403, Body: `{"error":"wrong_organization"}`}, want: outWrongOrg, requests: 1},
	{name: "GET organizations: 404 grant_not_found", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 404, Body: `{"error":"grant_not_found"}`}, want: outReauth, requests: 1},
	{name: "GET organizations: 429 Retry-After 3 s", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 429, RetryAfter: "3"}, want: outOK, requests: 2, minTime: 3 * time.Second},
	{name: "GET organizations: 429 Retry-After as a date", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 429, RetryAfter: "Sat, 01 Jan 2000 00:00:05 GMT"}, want: outOK, requests: 2, minTime: 5 * time.Second},
	{name: "GET organizations: 429 Retry-After 3600: reported, not awaited", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 429, RetryAfter: "3600"}, want: outTemp, requests: 1},
	{name: "GET organizations: 500 once", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 500}, want: outOK, requests: 2},
	{name: "GET organizations: 502 HTML once", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 502, Body: "<html>bad gateway</html>"}, want: outOK, requests: 2},
	{name: "GET organizations: 503 always", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 503, Times: -1}, want: outTemp, requests: 4},
	{name: "GET organizations: connection dropped once", at: atAPI, call: "orgs", fault: &partnertest.Fault{Drop: true}, want: outOK, requests: 2},
	{name: "GET organizations: hangs past the caller's deadline", at: atAPI, call: "orgs", fault: &partnertest.Fault{Hang: true}, want: outDeadline, requests: 1, minTime: 5 * time.Second, maxTime: 5 * time.Second},
	{name: "GET organizations: truncated body once", at: atAPI, call: "orgs", fault: &partnertest.Fault{Status: 200, Truncate: true}, want: outOK, requests: 2},
	{name: "GET projects: 404 JSON", at: atAPI, call: "projects", fault: &partnertest.Fault{Status: 404, Body: `{"error":"not_found"}`}, want: outAPI + "404", requests: 1},
	{name: "GET projects: 503 once", at: atAPI, call: "projects", fault: &partnertest.Fault{Status: 503}, want: outOK, requests: 2},
	{name: "GET project: 500 always", at: atAPI, call: "get", fault: &partnertest.Fault{Status: 500, Times: -1}, want: outTemp, requests: 4},
	{name: "GET project: delayed 2 s", at: atAPI, call: "get", fault: &partnertest.Fault{Delay: 2 * time.Second}, want: outOK, requests: 1, minTime: 2 * time.Second},
	{name: "POST project: 500: not resent", at: atAPI, call: "create", fault: &partnertest.Fault{Status: 500}, want: outTemp, requests: 1},
	{name: "POST project: 502: not resent", at: atAPI, call: "create", fault: &partnertest.Fault{Status: 502}, want: outTemp, requests: 1},
	{name: "POST project: 503 once: retried", at: atAPI, call: "create", fault: &partnertest.Fault{Status: 503}, want: outOK, requests: 2},
	{name: "POST project: 429 Retry-After 1 once: retried", at: atAPI, call: "create", fault: &partnertest.Fault{Status: 429, RetryAfter: "1"}, want: outOK, requests: 2, minTime: time.Second},
	{name: "POST project: connection dropped: not resent", at: atAPI, call: "create", fault: &partnertest.Fault{Drop: true}, want: outTemp, requests: 1},
	{name: "POST project: truncated answer: not resent", at: atAPI, call: "create", fault: &partnertest.Fault{Status: 201, Truncate: true}, want: outTemp, requests: 1},
	{name: "POST project: 409 slug taken", at: atAPI, call: "create", setup: func(s *partnertest.Server, g partnertest.Grant) {
		s.AddProject(g.Organizations[0].ID, partnertest.Project{Name: "Site", Slug: "site", SourceLanguage: "en"})
	}, want: outAPI + "409", requests: 1},
	{name: "POST language: 403 after the scope was narrowed", at: atAPI, call: "language", setup: func(s *partnertest.Server, g partnertest.Grant) {
		// Scopes are bound per installation token: the narrowing shows in
		// the next token, once the one in use has expired (refresh, mint,
		// call).
		s.SetScopes(g.ID, partnertest.ScopeProjectsRead)
		time.Sleep(partnertest.InstallationTokenLifetime)
	}, want: outScope, requests: 3},
	{name: "POST language: 410 after revocation", at: atAPI, call: "language", setup: func(s *partnertest.Server, g partnertest.Grant) {
		s.Revoke(g.ID)
	}, want: outReauth, requests: 1},
	{name: "GET me: 401 once: new access token, replayed", at: atAPI, call: "me", fault: &partnertest.Fault{Status: 401}, want: outOK, requests: 3},
	{name: "GET me: 503 once", at: atAPI, call: "me", fault: &partnertest.Fault{Status: 503}, want: outOK, requests: 2},
	{name: "GET projects: revoked, then two hours pass", at: atAPI, call: "projects", setup: func(s *partnertest.Server, g partnertest.Grant) {
		s.Revoke(g.ID)
		s.Advance(2 * time.Hour) // every token has expired too
	}, want: outReauth, requests: 1},
}

// faultPath is the path pattern of each call's endpoint.
var faultPath = map[string]string{
	"me":       "/api/oauth-client/me",
	"orgs":     "/api/oauth-client/organizations",
	"projects": "/api/oauth-client/organizations/*/projects",
	"create":   "/api/oauth-client/v1/projects",
	"get":      "/api/oauth-client/v1/projects/*",
	"language": "/api/oauth-client/v1/projects/*/languages",
}

// TestFaultMatrix runs every scenario of the matrix (see
// docs/reliability.md) against partnertest.
func TestFaultMatrix(t *testing.T) {
	if len(matrix) < 40 {
		t.Fatalf("the matrix has %d rows; it promises at least 40", len(matrix))
	}
	for _, row := range matrix {
		t.Run(row.at+"/"+row.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) { runRow(t, row) })
		})
	}
}

func runRow(t *testing.T, row matrixRow) {
	r := newRig(t)
	srv, c, g, logs := r.srv, r.c, r.g, r.logs
	call := row.call
	if call == "" {
		call = "orgs"
	}
	run := func(ctx context.Context) error { return doCall(ctx, c, call, g) }

	if row.at == atAPI {
		warm := call
		if warm == "create" {
			warm = "orgs" // without taking the slug
		}
		if err := doCall(t.Context(), c, warm, g); err != nil {
			t.Fatalf("warm-up: %v", err)
		}
	}
	if row.fault != nil {
		f := *row.fault
		switch row.at {
		case atToken:
			f.Host, f.Path = partnertest.HostAuth, partnertest.TokenPath
		case atMint:
			f.Host, f.Path = partnertest.HostAPI, "/api/oauth-client/installations/*/tokens"
		default:
			f.Host, f.Path = partnertest.HostAPI, faultPath[call]
		}
		srv.InjectFault(f)
	}
	if row.setup != nil {
		row.setup(srv, g)
	}
	before := len(srv.Requests())

	deadline := 5*time.Second + row.minTime
	if row.want == outDeadline {
		deadline = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	start := time.Now()
	err := run(ctx)
	took := time.Since(start)

	if got := outcome(err); got != row.want {
		t.Errorf("outcome %s (%v), want %s", got, err, row.want)
	}
	maxTime := row.maxTime
	if maxTime == 0 {
		maxTime = time.Minute
	}
	if took < row.minTime || took > maxTime {
		t.Errorf("the call took %v of fake time, want between %v and %v", took, row.minTime, maxTime)
	}
	secrets := []string{srv.ClientSecret(), g.RefreshToken, "pt_rt_", "pt_at_", "svc_oat_"}
	if err != nil {
		assertNoSecret(t, err.Error(), secrets)
	}
	// Let a refresh the caller gave up on run to its own timeout, and the
	// fake log a request the caller abandoned.
	time.Sleep(partner.DefaultRefreshTimeout)
	synctest.Wait()
	if got := len(srv.Requests()) - before; got != row.requests {
		t.Errorf("the service saw %d requests, want %d:\n%s", got, row.requests, requestLog(srv.Requests()[before:]))
	}
	assertNoSecret(t, logs.String(), secrets)

	for _, final := range []error{partner.ErrReauthorizationRequired, partner.ErrConfiguration} {
		if !errors.Is(err, final) {
			continue
		}
		// Final: no further request, ever.
		n := len(srv.Requests())
		srv.Advance(3 * time.Hour)
		for _, other := range []string{"orgs", "projects", "get"} {
			if err := doCall(t.Context(), c, other, g); !errors.Is(err, final) {
				t.Errorf("%s after a final error: %v", other, err)
			}
		}
		if more := len(srv.Requests()) - n; more != 0 {
			t.Errorf("%d requests after the final error", more)
		}
	}
}

func doCall(ctx context.Context, c *partner.Client, call string, g partnertest.Grant) error {
	var err error
	switch call {
	case "me":
		_, err = c.Me(ctx)
	case "orgs":
		_, err = c.Organizations.List(ctx)
	case "projects":
		_, err = c.Projects.List(ctx, g.Organizations[0].ID)
	case "create":
		_, err = c.Projects.Create(ctx, projects.NewProject{Name: "Site", Slug: "site", SourceLanguage: "en"})
	case "get":
		_, err = c.Projects.Get(ctx, "prj_missing")
		var ae *partner.APIError
		if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound && ae.Code == "not_found" && !strings.Contains(ae.Message, "injected") {
			// The fake's own 404 for an unknown project: a success for
			// the purpose of the matrix, which is about faults.
			err = nil
		}
	case "language":
		_, err = c.Projects.AddLanguage(ctx, "prj_missing", "de")
		var ae *partner.APIError
		if errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound {
			err = nil
		}
	default:
		panic("unknown call " + call)
	}
	return err
}

// outcome names the class of err, in the matrix's words.
func outcome(err error) string {
	var scope *partner.MissingScopeError
	var ae *partner.APIError
	switch {
	case err == nil:
		return outOK
	case errors.Is(err, context.DeadlineExceeded):
		return outDeadline
	case errors.As(err, &scope):
		return outScope
	case errors.Is(err, partner.ErrReauthorizationRequired):
		return outReauth
	case errors.Is(err, partner.ErrConfiguration):
		return outConfig
	case errors.Is(err, partner.ErrTemporary):
		return outTemp
	case errors.Is(err, partner.ErrWrongOrganization):
		return outWrongOrg
	case errors.Is(err, partner.ErrUnexpectedResponse):
		return outUnexp
	case errors.As(err, &ae):
		return fmt.Sprintf("%s%d", outAPI, ae.StatusCode)
	}
	return "unexpected: " + err.Error()
}

func requestLog(rs []partnertest.Request) string {
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "  %s %s %s -> %d (fault %v)\n", r.Host, r.Method, r.Path, r.Status, r.Fault)
	}
	return b.String()
}

// TestReliabilityDoc fails when docs/reliability.md and the matrix
// disagree. PARTNER_UPDATE_DOCS=1 rewrites the doc's table from the matrix.
func TestReliabilityDoc(t *testing.T) {
	const path = "docs/reliability.md"
	const begin, end = "<!-- matrix:begin -->\n", "<!-- matrix:end -->"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(begin)
	b.WriteString("| # | Where | Scenario | Outcome | Requests the service saw |\n|---|---|---|---|---|\n")
	for i, r := range matrix {
		fmt.Fprintf(&b, "| %d | %s | %s | %s | %d |\n", i+1, r.at, r.name, r.want, r.requests)
	}
	b.WriteString("\nWebhook deliveries (`TestDeliveryMatrix`), to a receiver made with `webhook.NewHandler`:\n\n")
	b.WriteString("| # | Scenario | Receiver answers | Callback runs |\n|---|---|---|---|\n")
	for i, r := range deliveryMatrix {
		fmt.Fprintf(&b, "| %d | %s | %d | %d |\n", len(matrix)+i+1, r.name, r.status, r.handled)
	}
	want := b.String()
	i, j := bytes.Index(doc, []byte(begin)), bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q and %q markers", path, begin, end)
	}
	if got := string(doc[i:j]); got != want {
		if os.Getenv("PARTNER_UPDATE_DOCS") == "1" {
			updated := append(append(append([]byte{}, doc[:i]...), want...), doc[j:]...)
			if err := os.WriteFile(path, updated, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's table differs from the fault matrix in reliability_test.go; run\n\tPARTNER_UPDATE_DOCS=1 go test -run TestReliabilityDoc .\nand commit the result", path)
	}
}
