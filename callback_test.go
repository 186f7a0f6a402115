package partner_test

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// TestReadCallback: the callback gives the code only when its state is
// this browser's; a consent the user or the service refused is a
// *CallbackError a caller branches on, and no error holds the code or
// the state.
func TestReadCallback(t *testing.T) {
	const state, code = "st-S3CR3T-state", "pt_code_S3CR3T"
	cases := []struct {
		name  string
		query string
		want  []error // errors.Is must hold for each; none: success
		not   []error
		text  string
	}{
		{"a code", "code=" + code + "&state=" + state, nil, nil, ""},
		{"refused by the user", "error=access_denied&error_description=the+user+denied+access&state=" + state,
			[]error{partner.ErrConsentDenied}, []error{partner.ErrConfiguration, partner.ErrInvalidCallback}, "the user denied access"},
		{"a scope the service refuses", "error=invalid_scope&error_description=unknown+scope+%22admin%22&state=" + state,
			[]error{partner.ErrConfiguration}, []error{partner.ErrConsentDenied}, "PoolConfig.Scopes"},
		{"the service is down", "error=temporarily_unavailable&state=" + state, []error{partner.ErrTemporary}, []error{partner.ErrConsentDenied}, "try again later"},
		{"an error unknown", "error=weird&state=" + state, nil, []error{partner.ErrConsentDenied, partner.ErrConfiguration, partner.ErrTemporary}, "weird"},
		{"another state", "code=" + code + "&state=forged", []error{partner.ErrInvalidCallback}, nil, "state does not match"},
		{"no state", "code=" + code, []error{partner.ErrInvalidCallback}, nil, "state"},
		{"an error with another state", "error=access_denied&state=forged", []error{partner.ErrInvalidCallback}, []error{partner.ErrConsentDenied}, "state"},
		{"neither code nor error", "state=" + state, []error{partner.ErrInvalidCallback}, nil, "neither a code nor an error"},
		{"two codes", "code=" + code + "&code=other&state=" + state, []error{partner.ErrInvalidCallback}, nil, "code is repeated"},
		{"a description echoing the code", "error=server_error&error_description=" + code + "+failed&code=" + code + "&state=" + state,
			[]error{partner.ErrTemporary}, nil, "failed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			got, err := partner.ReadCallback(q, state)
			if tc.want == nil && tc.text == "" {
				if err != nil || got != code {
					t.Fatalf("ReadCallback: %q, %v; want the code", got, err)
				}
				return
			}
			if err == nil || got != "" {
				t.Fatalf("ReadCallback: %q, %v; want an error and no code", got, err)
			}
			for _, w := range tc.want {
				if !errors.Is(err, w) {
					t.Errorf("%v is not %v", err, w)
				}
			}
			for _, w := range tc.not {
				if errors.Is(err, w) {
					t.Errorf("%v is %v", err, w)
				}
			}
			if !strings.Contains(err.Error(), tc.text) {
				t.Errorf("%q does not say %q", err, tc.text)
			}
			assertNoSecret(t, err.Error(), []string{code, state})
		})
	}
	if _, err := partner.ReadCallback(url.Values{"code": {code}}, ""); !errors.Is(err, partner.ErrInvalidArgument) {
		t.Errorf("ReadCallback with no state: %v, want ErrInvalidArgument", err)
	}
	var ce *partner.CallbackError
	_, err := partner.ReadCallback(url.Values{"error": {"access_denied"}, "state": {state}}, state)
	if !errors.As(err, &ce) || ce.Code != "access_denied" {
		t.Errorf("errors.As: %v, want a *CallbackError with Code access_denied", err)
	}
}

// TestReadCallbackFlow: against the fake's consent page, a user who refuses
// gives ErrConsentDenied and no exchange; one who consents gives a code
// Exchange takes.
func TestReadCallbackFlow(t *testing.T) {
	store := auth.NewMemoryStore()
	r := newRig(t, connecting(store, nil))
	srv, pool := r.srv, r.pool
	v := oauth2.GenerateVerifier()

	srv.SetConsent(partnertest.Consent{Deny: true})
	back := browse(t, srv, pool.AuthCodeURL("st-1", oauth2.S256ChallengeOption(v)))
	if code, err := partner.ReadCallback(back, "st-1"); !errors.Is(err, partner.ErrConsentDenied) || code != "" {
		t.Errorf("refused consent: %q, %v; want ErrConsentDenied", code, err)
	}

	srv.SetConsent(partnertest.Consent{})
	back = browse(t, srv, pool.AuthCodeURL("st-2", oauth2.S256ChallengeOption(v)))
	code, err := partner.ReadCallback(back, "st-2")
	if err != nil {
		t.Fatal(err)
	}
	grants, err := pool.Exchange(t.Context(), code, oauth2.VerifierOption(v))
	if err != nil || len(grants) != 1 {
		t.Fatalf("Exchange: %v, %v", grants, err)
	}
	if n := srv.Counts().Exchanges; n != 1 {
		t.Errorf("%d exchanges, want 1", n)
	}
}

// A callback handler: read the callback against this browser's state,
// branch on a refused consent, then exchange.
func ExampleReadCallback() {
	query, _ := url.ParseQuery("error=access_denied&error_description=the+user+denied+access&state=st-1")
	code, err := partner.ReadCallback(query, "st-1") // the state kept in this browser's session
	switch {
	case errors.Is(err, partner.ErrConsentDenied):
		fmt.Println("not connected:", err)
	case err != nil:
		fmt.Println("start again:", err)
	default:
		_ = code // pool.Exchange(ctx, code, oauth2.VerifierOption(verifier))
	}
	// Output: not connected: partner: consent: access_denied: the user denied access: the user did not allow the connection
}

// FuzzReadCallback: whatever query the browser brings back, ReadCallback
// never panics, gives a code only with this browser's state and no error
// parameter, and no error holds the code or the state.
func FuzzReadCallback(f *testing.F) {
	f.Add("code=pt_code_1&state=st-1")
	f.Add("code=pt_code_1&state=other&error=x&error_description=pt_code_1")
	f.Add("error=access_denied&error_description=no&state=st-1")
	f.Add("error=invalid_scope&state=st-1&state=st-1")
	f.Add("code=&state=st-1&error=%00")
	f.Fuzz(func(t *testing.T, query string) {
		const state = "st-1"
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		code, err := partner.ReadCallback(q, state)
		if err != nil {
			if code != "" {
				t.Fatalf("a code %q with the error %v", code, err)
			}
			secrets := []string{state}
			if c := q.Get("code"); strings.HasPrefix(c, "pt_code_") { // not a word the message says anyway
				secrets = append(secrets, c)
			}
			assertNoSecret(t, err.Error(), secrets)
			return
		}
		if code == "" || code != q.Get("code") || q.Get("state") != state || q.Has("error") && q.Get("error") != "" {
			t.Fatalf("query %q gave the code %q", query, code)
		}
	})
}
