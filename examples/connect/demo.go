package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"time"

	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// browser is what -demo uses in place of a browser: an HTTP client with
// a cookie jar that follows redirects and remembers where they went.
type browser struct {
	base   string
	client *http.Client
	hops   []*url.URL // the redirects of the last request
	follow bool
}

func newBrowser(base string) *browser {
	jar, _ := cookiejar.New(nil) // never fails without options
	b := &browser{base: base}
	b.client = &http.Client{
		Jar:       jar,
		Transport: http.DefaultTransport.(*http.Transport).Clone(),
		Timeout:   30 * time.Second,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if !b.follow {
				return http.ErrUseLastResponse
			}
			if len(via) >= 10 {
				return errors.New("stopped after 10 redirects")
			}
			b.hops = append(b.hops, req.URL)
			return nil
		},
	}
	return b
}

// do sends a request to path on the app, following redirects if follow,
// and returns the last answer's status and body.
func (b *browser) do(ctx context.Context, method, path, accept string, follow bool) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, b.base+path, nil)
	if err != nil {
		return 0, nil, err
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	b.hops, b.follow = nil, follow
	resp, err := b.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, body, err
}

// list reads / as JSON.
func (b *browser) list(ctx context.Context) ([]grantView, error) {
	status, body, err := b.do(ctx, http.MethodGet, "/", "application/json", true)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET /: %d %s", status, strings.TrimSpace(string(body)))
	}
	var views []grantView
	if err := json.Unmarshal(body, &views); err != nil {
		return nil, fmt.Errorf("GET /: %w", err)
	}
	for _, v := range views {
		if v.Error != "" {
			return nil, fmt.Errorf("GET /: grant %s: %s", v.GrantID, v.Error)
		}
	}
	return views, nil
}

// describe is one line about the grants / lists.
func describe(views []grantView) string {
	parts := make([]string, len(views))
	for i, v := range views {
		parts[i] = v.GrantID + " in " + strings.Join(v.Organizations, ", ")
	}
	noun := "grants"
	if len(views) == 1 {
		noun = "grant"
	}
	return fmt.Sprintf("%d %s: %s", len(views), noun, strings.Join(parts, "; "))
}

// runDemo does what a user's browser does on the app, against the fake
// service: connect (two organizations), list, a forged callback, a
// refused consent, and disconnect one grant; one line per step.
func runDemo(ctx context.Context, base string, fake *partnertest.Server, store auth.Store, out io.Writer) error {
	b := newBrowser(base)
	defer b.client.CloseIdleConnections()

	// 1. Connect: the app's redirect to the consent page, which consents
	// at once and sends the browser back to the callback with a code.
	status, body, err := b.do(ctx, http.MethodGet, "/connect", "", true)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if status != http.StatusOK || len(b.hops) != 3 {
		return fmt.Errorf("connect: %d after %d redirects: %s", status, len(b.hops), strings.TrimSpace(string(body)))
	}
	consent, callback := b.hops[0], b.hops[1]
	q := consent.Query()
	switch {
	case consent.Path != partnertest.AuthorizePath:
		return fmt.Errorf("connect: sent to %s, not the consent page", consent.Redacted())
	case q.Get("state") == "" || q.Get("code_challenge") == "" || q.Get("code_challenge_method") != "S256":
		return errors.New("connect: the consent page's address lacks state or an S256 code challenge")
	case callback.Query().Get("code") == "" || callback.Query().Get("state") != q.Get("state"):
		return errors.New("connect: the service came back without a code or with another state")
	}
	fmt.Fprintf(out, "Connect: /connect -> consent page %s%s (state, S256 challenge, scope %q) -> %s?code=... -> %s: %d\n",
		consent.Host, consent.Path, q.Get("scope"), callback.Path, b.hops[2].Path, status)

	// 2. List: one grant per organization the user picked.
	views, err := b.list(ctx)
	if err != nil {
		return err
	}
	if len(views) < 2 {
		return fmt.Errorf("list: %s, want a grant per organization", describe(views))
	}
	fmt.Fprintf(out, "List: %s\n", describe(views))

	// 3. A callback that does not carry the state this browser was given
	// (a forged link) is refused before any code reaches the service.
	if status, _, err := b.do(ctx, http.MethodGet, "/connect", "", false); err != nil || status != http.StatusFound {
		return fmt.Errorf("connect: %d, %v", status, err)
	}
	before := fake.Counts().Exchanges
	status, _, err = b.do(ctx, http.MethodGet, "/callback?code=forged&state=forged", "", true)
	if err != nil {
		return fmt.Errorf("callback: %w", err)
	}
	sent := fake.Counts().Exchanges - before
	if status != http.StatusBadRequest || sent != 0 {
		return fmt.Errorf("a forged callback: %d, %d exchanges", status, sent)
	}
	fmt.Fprintf(out, "A callback with another state: %d %s, no code sent to the service\n", status, http.StatusText(status))

	// 4. The user refuses on the consent page: the service sends the
	// browser back with error=access_denied and no code.
	fake.SetConsent(partnertest.Consent{Deny: true})
	before = fake.Counts().Exchanges
	status, _, err = b.do(ctx, http.MethodGet, "/connect", "", true)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	if sent := fake.Counts().Exchanges - before; status != http.StatusForbidden || sent != 0 || len(b.hops) != 2 {
		return fmt.Errorf("a refused consent: %d after %d redirects, %d exchanges", status, len(b.hops), sent)
	}
	fmt.Fprintf(out, "A refused consent: %s?error=%s: %d %s, nothing exchanged\n",
		b.hops[1].Path, b.hops[1].Query().Get("error"), status, http.StatusText(status))

	// 5. Disconnect the first grant: revoked at the service, its token
	// deleted from the Store.
	id := views[0].GrantID
	status, body, err = b.do(ctx, http.MethodPost, "/disconnect?grant="+url.QueryEscape(id), "", true)
	if err != nil {
		return fmt.Errorf("disconnect: %w", err)
	}
	if status != http.StatusOK {
		return fmt.Errorf("disconnect: %d %s", status, strings.TrimSpace(string(body)))
	}
	g, _ := fake.Grant(id)
	_, lerr := store.Load(ctx, id)
	fmt.Fprintf(out, "Disconnect %s: revoked at the service %v, token deleted from the Store %v\n",
		id, g.Revoked, errors.Is(lerr, auth.ErrNoToken))

	// 6. The others stay connected.
	if views, err = b.list(ctx); err != nil {
		return err
	}
	fmt.Fprintf(out, "List: %s\n", describe(views))
	return nil
}
