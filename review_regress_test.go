package partner_test

// Regression tests from a code review: each failed before its fix.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
)

// rt is a scriptable RoundTripper: h answers every request.
type rt func(*http.Request) (*http.Response, error)

func (f rt) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func resp(r *http.Request, status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}
}

func rvCfg(h rt) partner.Config {
	return partner.Config{
		BaseURL: "https://api.x.test", AuthURL: "https://auth.x.test",
		ClientID: "cid", ClientSecret: "csecret", GrantID: "g",
		Token:      &oauth2.Token{RefreshToken: "rt-1"},
		HTTPClient: &http.Client{Transport: h},
	}
}

// A 410 for a request sent with the old token that arrives after SetToken
// must not make the new token final (Fail carries the generation).
func TestStaleFailIgnoredAfterSetToken(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var first atomic.Bool
		var meCalls atomic.Int32
		h := rt(func(r *http.Request) (*http.Response, error) {
			switch r.URL.Path {
			case "/api/auth/mcp/token":
				return resp(r, 200, `{"access_token":"at","refresh_token":"rt","expires_in":1800}`), nil
			case "/api/oauth-client/me":
				meCalls.Add(1)
				if first.CompareAndSwap(false, true) {
					<-release // old grant's request in flight
					return resp(r, 410, `{"error":"grant_revoked"}`), nil
				}
				return resp(r, 200, `{"id":"u1"}`), nil
			}
			return resp(r, 404, ``), nil
		})
		c, _ := partner.NewClient(rvCfg(h))
		done := make(chan error)
		go func() { _, err := c.Me(context.Background()); done <- err }()
		for !first.Load() {
			time.Sleep(time.Millisecond)
		}
		c.SetToken(&oauth2.Token{RefreshToken: "rt-NEW"}) // user reconnected
		close(release)
		<-done
		_, err := c.Me(context.Background())
		if err != nil {
			t.Fatalf("new token refused without a request (me calls=%d): %v", meCalls.Load(), err)
		}
	})
}

// Many requests refused with 401 for the same cached installation token
// all replay once, with one new token between them.
func TestConcurrent401sAllReplayed(t *testing.T) {
	var mints atomic.Int32
	var gate sync.WaitGroup
	const n = 8
	gate.Add(n)
	h := rt(func(r *http.Request) (*http.Response, error) {
		switch r.URL.Path {
		case "/api/auth/mcp/token":
			return resp(r, 200, `{"access_token":"at","refresh_token":"rt","expires_in":1800}`), nil
		case "/api/oauth-client/installations/g/tokens":
			k := mints.Add(1)
			return resp(r, 200, fmt.Sprintf(`{"token":"svc_oat_%d"}`, k)), nil
		case "/api/oauth-client/organizations":
			if r.Header.Get("Authorization") == "Bearer svc_oat_2" {
				return resp(r, 200, `[]`), nil
			}
			if r.Header.Get("Authorization") == "Bearer svc_oat_1" {
				gate.Done()
				gate.Wait() // all n carry token 1 to the server
			}
			return resp(r, 401, `{"error":"unauthorized"}`), nil
		case "/api/oauth-client/me":
			return resp(r, 200, `{"id":"u"}`), nil
		}
		return resp(r, 404, ``), nil
	})
	c, _ := partner.NewClient(rvCfg(h))
	if _, err := c.Me(context.Background()); err != nil { // warm access token
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range n {
		wg.Go(func() {
			if _, err := c.Organizations.List(context.Background()); err != nil {
				failed.Add(1)
				t.Log(err)
			}
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		t.Fatalf("%d of %d callers got a 401 although a new token was minted (mints=%d)", failed.Load(), n, mints.Load())
	}
}

// A failed grant rebuilt after eviction, asked for again, must not revive
// with the very refresh token that failed.
func TestPoolNeverResendsFailedRefreshToken(t *testing.T) {
	var refreshes atomic.Int32
	h := rt(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/api/auth/mcp/token" {
			refreshes.Add(1)
			return resp(r, 400, `{"error":"invalid_grant"}`), nil
		}
		return resp(r, 404, ``), nil
	})
	st := auth.NewMemoryStore()
	st.Save(context.Background(), "g1", &oauth2.Token{RefreshToken: "rt-dead"})
	cfg := rvCfg(h)
	p, err := partner.NewPool(partner.PoolConfig{BaseURL: cfg.BaseURL, AuthURL: cfg.AuthURL,
		ClientID: "cid", ClientSecret: "csecret", Store: st, HTTPClient: cfg.HTTPClient, MaxClients: 1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, _ := p.Client(ctx, "g1")
	if _, err := c.Me(ctx); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatal(err)
	}
	p.Client(ctx, "g2") // evicts g1, remembered as failed with rt-dead
	if _, err := p.Client(ctx, "g1"); !errors.Is(err, partner.ErrReauthorizationRequired) {
		t.Fatalf("first: %v", err) // correct
	}
	c, err = p.Client(ctx, "g1") // cached entry; RefreshToken() == "" so revive uses the store's rt-dead
	if err == nil {
		c.Me(ctx)
	}
	if n := refreshes.Load(); n != 1 {
		t.Fatalf("token endpoint called %d times with the refused refresh token (want 1)", n)
	}
}

// A caller arriving after SetToken must not join a refresh still running
// with the old refresh token, nor get its error.
func TestSetTokenDetachesStaleRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var inFlight atomic.Bool
		h := rt(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/api/auth/mcp/token" {
				r.ParseForm()
				if r.PostForm.Get("refresh_token") == "rt-1" {
					inFlight.Store(true)
					<-release
					return resp(r, 400, `{"error":"invalid_grant"}`), nil
				}
				return resp(r, 200, `{"access_token":"at-new","refresh_token":"rt-NEW","expires_in":1800}`), nil
			}
			if r.URL.Path == "/api/oauth-client/me" {
				return resp(r, 200, `{"id":"u"}`), nil
			}
			return resp(r, 404, ``), nil
		})
		c, _ := partner.NewClient(rvCfg(h))
		go c.Me(context.Background())
		for !inFlight.Load() {
			time.Sleep(time.Millisecond)
		}
		c.SetToken(&oauth2.Token{RefreshToken: "rt-NEW"})
		errc := make(chan error)
		go func() { _, err := c.Me(context.Background()); errc <- err }()
		time.Sleep(20 * time.Millisecond)
		close(release)
		if err := <-errc; err != nil {
			t.Fatalf("call made after SetToken got the old token's error: %v", err)
		}
	})
}

// A refresh with the old token that ends after SetToken must not save over
// the token the application stored for the reconnect.
func TestStaleRefreshDoesNotOverwriteStore(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var inFlight atomic.Bool
		h := rt(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/api/auth/mcp/token" {
				r.ParseForm()
				if r.PostForm.Get("refresh_token") == "rt-old" {
					inFlight.Store(true)
					<-release
					return resp(r, 200, `{"access_token":"at-old2","refresh_token":"rt-old","expires_in":1800}`), nil
				}
			}
			return resp(r, 200, `{"id":"u"}`), nil
		})
		st := auth.NewMemoryStore()
		cfg := rvCfg(h)
		cfg.Store = st
		cfg.Token = &oauth2.Token{RefreshToken: "rt-old"}
		c, _ := partner.NewClient(cfg)
		done := make(chan struct{})
		go func() { c.Me(context.Background()); close(done) }()
		for !inFlight.Load() {
			time.Sleep(time.Millisecond)
		}
		nt := &oauth2.Token{RefreshToken: "rt-reconnected", AccessToken: "at-r", Expiry: time.Now().Add(time.Hour)}
		st.Save(context.Background(), "g", nt) // app saves the new exchange
		c.SetToken(nt)
		close(release)
		<-done
		got, _ := st.Load(context.Background(), "g")
		if got.RefreshToken != "rt-reconnected" {
			t.Fatalf("store now holds %q: the stale refresh overwrote the reconnected token", got.RefreshToken)
		}
	})
}

// An installation token living less than the margin is still cached, not
// minted again on every call.
func TestShortLivedInstallationTokenIsCached(t *testing.T) {
	var mints atomic.Int32
	h := rt(func(r *http.Request) (*http.Response, error) {
		switch r.URL.Path {
		case "/api/auth/mcp/token":
			return resp(r, 200, `{"access_token":"at","refresh_token":"rt","expires_in":1800}`), nil
		case "/api/oauth-client/installations/g/tokens":
			mints.Add(1)
			return resp(r, 200, `{"token":"svc_oat_x","expires_in":240}`), nil
		}
		return resp(r, 200, `[]`), nil
	})
	c, _ := partner.NewClient(rvCfg(h))
	for range 10 {
		c.Organizations.List(context.Background())
	}
	if mints.Load() > 1 {
		t.Fatalf("%d mints for 10 calls", mints.Load())
	}
}

// trackBody records whether it was closed.
type trackBody struct {
	io.Reader
	closed *atomic.Bool
}

func (b trackBody) Close() error { b.closed.Store(true); return nil }

// When the refresh times out as the answer arrives, its body is closed
// (go-retryablehttp's RoundTripper returned it with the error; net/http
// would have logged and dropped it unclosed).
func TestRefreshTimeoutClosesBody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var closed atomic.Bool
		h := rt(func(r *http.Request) (*http.Response, error) {
			if r.URL.Path == "/api/auth/mcp/token" {
				time.Sleep(80 * time.Millisecond) // ignores ctx, like a slow proxy
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
					Body: trackBody{strings.NewReader(`{"access_token":"at","expires_in":1800}`), &closed}, Request: r}, nil
			}
			return resp(r, 200, `{"id":"u"}`), nil
		})
		cfg := rvCfg(h)
		cfg.RefreshTimeout = 40 * time.Millisecond
		c, _ := partner.NewClient(cfg)
		_, err := c.Me(context.Background())
		t.Log(err)
		time.Sleep(50 * time.Millisecond)
		if !closed.Load() {
			t.Fatal("token endpoint response body never closed")
		}
	})
}

// Secrets stay out of formatted values and error snippets, also when the
// server echoes them JSON-escaped.
func TestSecretsNotFormatted(t *testing.T) {
	h := rt(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/api/auth/mcp/token" {
			// A Go server echoing the secret: encoding/json escapes '&' and '<'.
			return resp(r, 401, `{"error":"invalid_client","error_description":"bad secret p\u0026ss\u003cw0rd"}`), nil
		}
		return resp(r, 200, `{"token":"svc_oat_SECRET"}`), nil
	})
	cfg := rvCfg(h)
	cfg.ClientSecret = "p&ss<w0rd"
	c, _ := partner.NewClient(cfg)
	_, err := c.Me(context.Background())
	var ae *partner.APIError
	errors.As(err, &ae)
	if strings.Contains(err.Error(), "p&ss<w0rd") {
		t.Errorf("secret in Error(): %v", err)
	}
	if strings.Contains(string(ae.Body), `p\u0026ss\u003cw0rd`) {
		t.Errorf("JSON-escaped secret left in APIError.Body: %s", ae.Body)
	}

	c2, _ := partner.NewClient(rvCfg(rt(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/api/auth/mcp/token" {
			return resp(r, 200, `{"access_token":"at","expires_in":1800}`), nil
		}
		return resp(r, 200, `{"token":"svc_oat_SECRET"}`), nil
	})))
	tok, err := c2.Installations.CreateToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{fmt.Sprintf("%v", *tok), fmt.Sprintf("%#v", tok), fmt.Sprint([]installationsToken{*tok})} {
		if strings.Contains(s, "svc_oat_SECRET") {
			t.Errorf("installation token in formatted value: %.80s", s)
		}
	}
}

type installationsToken = partner.InstallationToken
