package partner_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/auth"
	"github.com/locsvc/partner-go/partnertest"
)

// answerExchange makes the token endpoint answer the next exchange with a
// 200 and body, and runs Pool.Exchange.
func answerExchange(t *testing.T, body string) (*partnertest.Server, *partner.Pool, *recordingStore, []partner.Grant, error) {
	t.Helper()
	store := &recordingStore{MemoryStore: auth.NewMemoryStore()}
	r := newRig(t, connecting(store, nil))
	srv, pool := r.srv, r.pool
	srv.InjectFault(partnertest.Fault{Host: partnertest.HostAuth, Path: partnertest.TokenPath, Status: 200, Body: body})
	grants, err := pool.Exchange(t.Context(), "pt_code_S3CR3T")
	return srv, pool, store, grants, err
}

// TestExchangeGrantIDs: whatever grant id Exchange returns, Pool.Client and
// Pool.Disconnect accept; an id they could not accept (one that cannot be
// one segment of a request path) is refused by Exchange before anything
// is saved, with an error that says the code is spent.
func TestExchangeGrantIDs(t *testing.T) {
	answer := func(id string) string {
		quoted, _ := json.Marshal(id)
		return fmt.Sprintf(`{"access_token":"pt_at_S3CR3T","token_type":"Bearer","expires_in":1800,"refresh_token":"pt_rt_S3CR3T","grant_id":%s}`, quoted)
	}
	for _, id := range []string{"grt/1", "..", ".", `grt\1`, "grt\x001", "grt\n1", "grt\x7f", "a/../b"} {
		t.Run(fmt.Sprintf("refused %q", id), func(t *testing.T) {
			_, _, store, grants, err := answerExchange(t, answer(id))
			if !errors.Is(err, partner.ErrUnexpectedResponse) || grants != nil {
				t.Fatalf("Exchange: %v, %v; want ErrUnexpectedResponse", grants, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, "grant_id") || !strings.Contains(msg, "discarded") {
				t.Errorf("%q: want it to name grant_id and say the tokens were discarded", msg)
			}
			assertSpent(t, msg)
			assertNoSecret(t, msg, []string{"pt_at_S3CR3T", "pt_rt_S3CR3T", "pt_code_S3CR3T"})
			if saves := store.recorded(); len(saves) != 0 {
				t.Errorf("saved %v, want nothing", saves)
			}
		})
	}
	for _, id := range []string{"grt_1", "grt 1", "grt%2F1", "grt?x=1#y", "grånt", "grt:1@x", "grt.1", "grt;1"} {
		t.Run(fmt.Sprintf("accepted %q", id), func(t *testing.T) {
			_, pool, store, grants, err := answerExchange(t, answer(id))
			if err != nil || len(grants) != 1 || grants[0].GrantID != id {
				t.Fatalf("Exchange: %v, %v; want grant %q", grants, err, id)
			}
			if _, err := store.Load(t.Context(), id); err != nil {
				t.Errorf("Store.Load(%q): %v", id, err)
			}
			if _, err := pool.Client(t.Context(), id); err != nil {
				t.Errorf("Pool.Client(%q): %v", id, err)
			}
			if err := pool.Disconnect(t.Context(), id); errors.Is(err, partner.ErrInvalidArgument) {
				t.Errorf("Pool.Disconnect(%q): %v", id, err)
			}
			if _, err := store.Load(t.Context(), id); !errors.Is(err, auth.ErrNoToken) {
				t.Errorf("after Disconnect, Store.Load(%q): %v, want ErrNoToken", id, err)
			}
		})
	}
}

// TestExchangeAnswerOver1MiB: x/oauth2 reads the first 1 MiB of the
// exchange's answer and no more; an answer cut there fails with an error
// that says so and that the code is spent, not as bad JSON. An answer just
// under the limit is read.
func TestExchangeAnswerOver1MiB(t *testing.T) {
	answer := func(size int) string {
		const head = `{"access_token":"pt_at_S3CR3T","token_type":"Bearer","expires_in":1800,"refresh_token":"pt_rt_S3CR3T","grant_id":"grt_1","pad":"`
		return head + strings.Repeat("x", size-len(head)-2) + `"}`
	}
	_, _, store, grants, err := answerExchange(t, answer(1<<20+1))
	if !errors.Is(err, partner.ErrUnexpectedResponse) || grants != nil {
		t.Fatalf("Exchange of a 1 MiB + 1 byte answer: %v, %v; want ErrUnexpectedResponse", grants, err)
	}
	if msg := err.Error(); !strings.Contains(msg, "cut at") || !strings.Contains(msg, "1 MiB") || strings.Contains(msg, "JSON") {
		t.Errorf("%q: want it to say the answer was cut at 1 MiB", msg)
	}
	assertSpent(t, err.Error())
	if _, err := store.Load(t.Context(), "grt_1"); !errors.Is(err, auth.ErrNoToken) {
		t.Errorf("Store.Load: %v, want ErrNoToken", err)
	}

	if _, _, _, grants, err := answerExchange(t, answer(1<<20)); err != nil || len(grants) != 1 {
		t.Errorf("Exchange of a 1 MiB answer: %v, %v; want its grant", grants, err)
	}
}

// TestExchangeAnswerUnusable: an answer without what the SDK needs to keep
// a grant names every field missing, says the code is spent and the tokens
// discarded, and saves nothing.
func TestExchangeAnswerUnusable(t *testing.T) {
	cases := []struct {
		name, body string
		missing    []string
		notNamed   []string
	}{
		{"no grant_id, no refresh_token (no offline_access)",
			`{"access_token":"pt_at_S3CR3T","token_type":"Bearer","expires_in":1800,"scope":"org:read"}`,
			[]string{"grant_id", "refresh_token", "offline_access"}, nil},
		{"no grant_id", `{"access_token":"pt_at_S3CR3T","token_type":"Bearer","refresh_token":"pt_rt_S3CR3T"}`,
			[]string{"grant_id"}, []string{"refresh_token"}},
		{"no refresh_token", `{"access_token":"pt_at_S3CR3T","token_type":"Bearer","grant_id":"grt_1"}`,
			[]string{"refresh_token"}, []string{"no grant_id"}},
		{"no access_token either", `{"token_type":"Bearer","expires_in":1800}`,
			[]string{"grant_id", "refresh_token"}, nil},
		{"grants without ids and tokens",
			`{"access_token":"pt_at_S3CR3T","grant_id":"grt_1","grants":[{"grant_id":"grt_1","refresh_token":"pt_rt_S3CR3T"},{"access_token":"pt_at_2"},{"grant_id":"grt_3"}]}`,
			[]string{"grants[1].grant_id", "grants[1].refresh_token", "grants[2].refresh_token"}, []string{"grants[0]", "grants[2].grant_id"}},
		{"an error code in a 200", `{"error":"invalid_grant","access_token":"pt_at_S3CR3T"}`, []string{`"invalid_grant"`}, nil},
		{"not JSON", `<html>pt_at_S3CR3T</html>`, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, store, grants, err := answerExchange(t, tc.body)
			if !errors.Is(err, partner.ErrUnexpectedResponse) || grants != nil {
				t.Fatalf("Exchange: %v, %v; want ErrUnexpectedResponse", grants, err)
			}
			msg := err.Error()
			for _, f := range tc.missing {
				if !strings.Contains(msg, f) {
					t.Errorf("%q does not name %s", msg, f)
				}
			}
			for _, f := range tc.notNamed {
				if strings.Contains(msg, f) {
					t.Errorf("%q names %s, which is there", msg, f)
				}
			}
			if !strings.Contains(msg, "discarded") {
				t.Errorf("%q does not say the tokens were discarded", msg)
			}
			assertSpent(t, msg)
			assertNoSecret(t, msg, []string{"pt_at_S3CR3T", "pt_rt_S3CR3T", "pt_code_S3CR3T"})
			if saves := store.recorded(); len(saves) != 0 {
				t.Errorf("saved %v, want nothing", saves)
			}
		})
	}
}
