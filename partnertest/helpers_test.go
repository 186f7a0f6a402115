package partnertest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/locsvc/partner-go/partnertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// reply is an answer read in full.
type reply struct {
	status int
	header http.Header
	body   []byte
}

// errorCode returns the "error" member of a JSON error body, or "" if the
// body is not one.
func (r reply) errorCode() string {
	var e struct{ Error string }
	json.Unmarshal(r.body, &e)
	return e.Error
}

// send makes one request with srv's client. token, if not empty, goes in
// a Bearer header; ctype, if not empty, in Content-Type.
func send(t testing.TB, srv *partnertest.Server, method, url, token, ctype, body string) reply {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return reply{resp.StatusCode, resp.Header, b}
}

// refreshForm is the token endpoint's form for a refresh token, with the
// default credentials.
func refreshForm(refreshToken string) url.Values {
	return url.Values{
		"grant_type":    {"refresh_token"},
		"refresh_token": {refreshToken},
		"client_id":     {partnertest.DefaultClientID},
		"client_secret": {partnertest.DefaultClientSecret},
	}
}

// accessToken gets an access token for g from the token endpoint.
func accessToken(t testing.TB, srv *partnertest.Server, g partnertest.Grant) string {
	t.Helper()
	r := send(t, srv, "POST", srv.AuthURL+partnertest.TokenPath, "", "application/x-www-form-urlencoded", refreshForm(g.RefreshToken).Encode())
	if r.status != http.StatusOK {
		t.Fatalf("refresh: %d %s", r.status, r.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.Unmarshal(r.body, &tok); err != nil || tok.AccessToken == "" {
		t.Fatalf("refresh: %s: %v", r.body, err)
	}
	return tok.AccessToken
}

// installationToken mints an installation token for g with endpoint 8.
func installationToken(t testing.TB, srv *partnertest.Server, g partnertest.Grant) string {
	t.Helper()
	at := accessToken(t, srv, g)
	r := send(t, srv, "POST", srv.URL+"/api/oauth-client/installations/"+g.ID+"/tokens", at, "", "")
	if r.status != http.StatusCreated {
		t.Fatalf("mint: %d %s", r.status, r.body)
	}
	var tok struct {
		Token string `json:"installation_token"`
	}
	if err := json.Unmarshal(r.body, &tok); err != nil || tok.Token == "" {
		t.Fatalf("mint: %s: %v", r.body, err)
	}
	return tok.Token
}

func newServer(t testing.TB, opts ...partnertest.Option) *partnertest.Server {
	srv := partnertest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}
