package partner_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jarcoal/httpmock"
	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
)

// The fake's credentials; tests check that none of them, nor any token the
// fake issues, appears in an error or a log line.
const (
	baseURL      = "https://api.example.test"
	authURL      = "https://auth.example.test"
	clientID     = "client-id-1"
	clientSecret = "client-secret-S3CR3T"
	refreshTok   = "refresh-token-R3FR3SH"
	grantID      = "grant-1"
)

// reply is one scripted answer of the fake.
type reply struct {
	status int
	body   string
	ctype  string // default application/json
	header http.Header
	err    error // a transport error instead of an answer
	hang   bool  // block until the request's context ends
	// wait, if set, holds the answer until it is closed; then the
	// endpoint answers as usual.
	wait <-chan struct{}
	// truncate makes the body fail with io.ErrUnexpectedEOF after the
	// given text.
	truncate bool
}

// fake models the service well enough for the client's tests: it issues
// access tokens (1800 s) and installation tokens (1 h), refuses expired or
// wrong-kind tokens with 401 and counts what it sees. Scripted replies
// override the next answers of an endpoint. It serves through httpmock, so
// it needs no network and works inside testing/synctest bubbles.
type fake struct {
	t  *testing.T
	mt *httpmock.MockTransport

	mu       sync.Mutex
	script   map[string][]reply
	count    map[string]int
	access   map[string]time.Time
	install  map[string]time.Time
	seq      int
	expired  int             // requests that carried an expired token
	early    []time.Duration // at each refresh, the life left in the newest access token
	mintLeft []time.Duration // at each mint, the life left in the newest installation token
	lastAT   string
	lastIT   string
	revoked  bool
	noExpiry bool // mint answers without an expiry
}

// Endpoint names used in scripts and counts.
const (
	epToken  = "token"
	epMint   = "mint"
	epMe     = "me"
	epOrgs   = "orgs"
	epList   = "list"
	epCreate = "create"
	epGet    = "get"
	epLang   = "lang"
)

func newFake(t *testing.T) *fake {
	f := &fake{
		t:       t,
		mt:      httpmock.NewMockTransport(),
		script:  map[string][]reply{},
		count:   map[string]int{},
		access:  map[string]time.Time{},
		install: map[string]time.Time{},
	}
	f.mt.RegisterResponder("POST", authURL+"/api/auth/mcp/token", f.handle(epToken, f.token))
	f.mt.RegisterResponder("POST", baseURL+"/api/oauth-client/installations/"+grantID+"/tokens", f.handle(epMint, f.mint))
	f.mt.RegisterResponder("GET", baseURL+"/api/oauth-client/me", f.handle(epMe, f.me))
	f.mt.RegisterResponder("GET", baseURL+"/api/oauth-client/organizations", f.handle(epOrgs, f.orgs))
	f.mt.RegisterResponder("GET", baseURL+"/api/oauth-client/organizations/org-1/projects", f.handle(epList, f.list))
	f.mt.RegisterResponder("POST", baseURL+"/api/oauth-client/v1/projects", f.handle(epCreate, f.create))
	f.mt.RegisterResponder("GET", baseURL+"/api/oauth-client/v1/projects/p1", f.handle(epGet, f.get))
	f.mt.RegisterResponder("POST", baseURL+"/api/oauth-client/v1/projects/p1/languages", f.handle(epLang, f.lang))
	return f
}

// revoke sets whether the user has revoked the grant.
func (f *fake) revoke(v bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revoked = v
}

// config returns a client configuration that talks to the fake.
func (f *fake) config() partner.Config {
	return partner.Config{
		BaseURL: baseURL, AuthURL: authURL,
		ClientID: clientID, ClientSecret: clientSecret,
		GrantID:    grantID,
		Token:      &oauth2.Token{RefreshToken: refreshTok},
		HTTPClient: &http.Client{Transport: f.mt},
	}
}

func (f *fake) client(cfg partner.Config) *partner.Client {
	f.t.Helper()
	c, err := partner.NewClient(cfg)
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// then queues replies for the next requests to endpoint ep.
func (f *fake) then(ep string, rs ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script[ep] = append(f.script[ep], rs...)
}

func (f *fake) n(ep string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count[ep]
}

// secrets lists every credential and token the fake knows of.
func (f *fake) secrets() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := []string{clientSecret, refreshTok}
	for k := range f.access {
		s = append(s, k)
	}
	for k := range f.install {
		s = append(s, k)
	}
	return s
}

func (f *fake) handle(ep string, def func(*http.Request) reply) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		f.mu.Lock()
		f.count[ep]++
		var r reply
		if q := f.script[ep]; len(q) > 0 {
			r, f.script[ep] = q[0], q[1:]
			f.mu.Unlock()
		} else {
			f.mu.Unlock()
			r = def(req)
		}
		if r.wait != nil {
			select {
			case <-r.wait:
				r = def(req)
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
		}
		if r.hang {
			<-req.Context().Done()
			return nil, req.Context().Err()
		}
		if r.err != nil {
			return nil, r.err
		}
		resp := httpmock.NewStringResponse(r.status, r.body)
		ct := r.ctype
		if ct == "" {
			ct = "application/json"
		}
		resp.Header.Set("Content-Type", ct)
		for k, v := range r.header {
			resp.Header[k] = v
		}
		if r.truncate {
			resp.Body = io.NopCloser(io.MultiReader(strings.NewReader(r.body), errReader{}))
		}
		return resp, nil
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, io.ErrUnexpectedEOF }

func jsonReply(status int, v any) reply {
	b, _ := json.Marshal(v)
	return reply{status: status, body: string(b)}
}

func errReply(status int, code string) reply {
	return jsonReply(status, map[string]string{"error": code})
}

func (f *fake) token(req *http.Request) reply {
	if ct := req.Header.Get("Content-Type"); ct != "application/x-www-form-urlencoded" {
		return errReply(400, "invalid_request")
	}
	if err := req.ParseForm(); err != nil {
		return errReply(400, "invalid_request")
	}
	form := req.PostForm
	if form.Get("client_id") != clientID || form.Get("client_secret") != clientSecret || req.Header.Get("Authorization") != "" {
		return errReply(401, "invalid_client")
	}
	if form.Get("grant_type") != "refresh_token" {
		return errReply(400, "unsupported_grant_type")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.revoked || form.Get("refresh_token") != refreshTok {
		return errReply(400, "invalid_grant")
	}
	if f.lastAT != "" {
		f.early = append(f.early, time.Until(f.access[f.lastAT]))
	}
	f.seq++
	tok := fmt.Sprintf("at-%d", f.seq)
	f.access[tok] = time.Now().Add(1800 * time.Second)
	f.lastAT = tok
	return jsonReply(200, map[string]any{"access_token": tok, "token_type": "Bearer", "refresh_token": refreshTok, "expires_in": 1800})
}

// authorize checks the bearer token against the kinds an endpoint takes.
func (f *fake) authorize(req *http.Request, access, install bool) (reply, bool) {
	tok, ok := strings.CutPrefix(req.Header.Get("Authorization"), "Bearer ")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.revoked {
		return errReply(410, "grant_revoked"), false
	}
	var exp time.Time
	var found bool
	if access {
		exp, found = f.access[tok]
	}
	if !found && install {
		exp, found = f.install[tok]
	}
	if !ok || !found {
		return errReply(401, "invalid_token"), false
	}
	if !time.Now().Before(exp) {
		f.expired++
		return errReply(401, "token_expired"), false
	}
	return reply{}, true
}

func (f *fake) mint(req *http.Request) reply {
	if r, ok := f.authorize(req, true, false); !ok {
		return r
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.lastIT != "" {
		f.mintLeft = append(f.mintLeft, time.Until(f.install[f.lastIT]))
	}
	f.seq++
	tok := fmt.Sprintf("svc_oat_%d", f.seq)
	exp := time.Now().Add(time.Hour)
	f.install[tok] = exp
	f.lastIT = tok
	if f.noExpiry {
		return jsonReply(201, map[string]string{"token": tok})
	}
	return jsonReply(201, map[string]string{"token": tok, "expiresAt": exp.UTC().Format(time.RFC3339)})
}

func (f *fake) me(req *http.Request) reply {
	if r, ok := f.authorize(req, true, true); !ok {
		return r
	}
	return reply{status: 200, body: `{"id":"usr_1","email":"ada@example.test","name":"Ada","account":{"id":"acc_1","name":"Ada's"}}`}
}

const projectJSON = `{"id":"p1","organizationId":"org-1","name":"Site","slug":"site","sourceLanguage":"en","targetLanguages":[{"code":"de","name":"German"}]}`

func (f *fake) orgs(req *http.Request) reply {
	if r, ok := f.authorize(req, false, true); !ok {
		return r
	}
	return reply{status: 200, body: `{"organizations":[{"id":"org-1","slug":"acme","name":"Acme"}]}`}
}

func (f *fake) list(req *http.Request) reply {
	if r, ok := f.authorize(req, false, true); !ok {
		return r
	}
	return reply{status: 200, body: `{"projects":[` + projectJSON + `]}`}
}

func (f *fake) get(req *http.Request) reply {
	if r, ok := f.authorize(req, false, true); !ok {
		return r
	}
	return reply{status: 200, body: projectJSON}
}

func (f *fake) create(req *http.Request) reply {
	if r, ok := f.authorize(req, false, true); !ok {
		return r
	}
	return reply{status: 201, body: projectJSON}
}

func (f *fake) lang(req *http.Request) reply {
	if r, ok := f.authorize(req, false, true); !ok {
		return r
	}
	return reply{status: 201, body: `{"code":"de","name":"German"}`}
}
