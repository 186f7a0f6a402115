package partner_test

// Failures of the content tools (Config.ContentMCPURL) against
// partnertest, for a read (listContentEntries, getContentEntry) and a
// write (createContentEntry): broken connections and error statuses,
// expired tokens, revoked grants, and secrets in error texts.

import (
	"errors"
	"fmt"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/partnertest"
)

// entries lists every entry of the rig's project and returns how many.
func (r *rig) entries(t *testing.T) (int, error) {
	t.Helper()
	n := 0
	for _, err := range r.c.Content.Entries.All(t.Context(), r.project, content.ListOptions{}) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func (r *rig) createEntry(t *testing.T, slug string) (*content.Entry, error) {
	t.Helper()
	return r.c.Content.Entries.Create(t.Context(), r.project, content.NewEntry{Model: "post", Title: "Title of " + slug, Slug: slug,
		Fields: map[string]any{"summary": "about " + slug, "rank": 1}})
}

func contentCalls(r *rig, tool string) int { return r.srv.ContentMCPCounts().ToolCalls[tool] }

// TestContentDroppedConnection: a connection that breaks during
// createContentEntry is not sent again, whether the write ran (the answer
// was cut short) or not (the connection dropped): the SDK cannot tell, so
// the error matches ErrTemporary and a read tells. During a read it is
// sent again.
func TestContentDroppedConnection(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      bool // the create is the session's first call
		fault      partnertest.Fault
		wantExists bool
	}{
		{"dropped", false, partnertest.Fault{Drop: true}, false},
		{"dropped on the first call", true, partnertest.Fault{Drop: true}, false},
		{"answer cut short", false, partnertest.Fault{Truncate: true}, true},
	} {
		t.Run("createContentEntry "+tc.name, func(t *testing.T) {
			r := newRig(t, withPostModel())
			if !tc.first {
				if _, err := r.entries(t); err != nil { // connected
					t.Fatal(err)
				}
			}
			f := tc.fault
			f.Host, f.Tool = partnertest.HostContentMCP, "createContentEntry"
			r.srv.InjectFault(f)
			_, err := r.createEntry(t, "a")
			if !errors.Is(err, partner.ErrTemporary) {
				t.Fatalf("Create over a broken connection: %v, want ErrTemporary", err)
			}
			if n := contentCalls(r, "createContentEntry"); n != 1 {
				t.Errorf("createContentEntry sent %d times, want 1", n)
			}
			// A read tells whether the write ran; the session goes on.
			if n, err := r.entries(t); err != nil || (n == 1) != tc.wantExists {
				t.Errorf("after the broken create: %d entries, %v; want the entry there: %v", n, err, tc.wantExists)
			}
			if _, err := r.createEntry(t, "b"); err != nil {
				t.Errorf("the next call: %v", err)
			}
		})
	}
	t.Run("listContentEntries", func(t *testing.T) {
		r := newRig(t, withPostModel())
		for _, s := range []string{"a", "b"} {
			if _, err := r.createEntry(t, s); err != nil {
				t.Fatal(err)
			}
		}
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: "listContentEntries", Drop: true})
		if n, err := r.entries(t); err != nil || n != 2 {
			t.Fatalf("All over a dropped connection: %d entries, %v; want it retried", n, err)
		}
		if n := contentCalls(r, "listContentEntries"); n != 2 {
			t.Errorf("listContentEntries sent %d times, want 2 (one retry)", n)
		}
	})
	t.Run("getContentEntry", func(t *testing.T) {
		r := newRig(t, withPostModel())
		e, err := r.createEntry(t, "a")
		if err != nil {
			t.Fatal(err)
		}
		r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: "getContentEntry", Drop: true})
		got, err := r.c.Content.Entries.Get(t.Context(), r.project, e.ID, content.GetOptions{})
		if err != nil || got.ID != e.ID || got.Title != "Title of a" {
			t.Fatalf("Get over a dropped connection: %+v, %v; want it retried", got, err)
		}
		if n := contentCalls(r, "getContentEntry"); n != 2 {
			t.Errorf("getContentEntry sent %d times, want 2 (one retry)", n)
		}
	})
}

// TestContentErrorStatuses: statuses of the content listener. A read is
// retried after any of them; createContentEntry only after a status that
// says it did not run (429, 503), and never sent again after one that
// says it may have run.
func TestContentErrorStatuses(t *testing.T) {
	for _, tc := range []struct {
		tool       string
		status     int
		retryAfter string
		resent     bool
	}{
		{"listContentEntries", http.StatusTooManyRequests, "2", true},
		{"listContentEntries", http.StatusServiceUnavailable, "", true},
		{"listContentEntries", http.StatusInternalServerError, "", true},
		{"getContentEntry", http.StatusBadGateway, "", true},
		{"getContentEntry", http.StatusGatewayTimeout, "", true},
		{"createContentEntry", http.StatusTooManyRequests, "2", true},
		{"createContentEntry", http.StatusServiceUnavailable, "1", true},
		{"createContentEntry", http.StatusInternalServerError, "", false},
		{"createContentEntry", http.StatusBadGateway, "", false},
		{"createContentEntry", http.StatusGatewayTimeout, "", false},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.tool, tc.status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, withPostModel())
				e, err := r.createEntry(t, "a") // connected, one entry
				if err != nil {
					t.Fatal(err)
				}
				before := contentCalls(r, tc.tool)
				r.srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: tc.tool, Status: tc.status, RetryAfter: tc.retryAfter})
				switch tc.tool {
				case "listContentEntries":
					_, err = r.entries(t)
				case "getContentEntry":
					_, err = r.c.Content.Entries.Get(t.Context(), r.project, e.ID, content.GetOptions{})
				default:
					_, err = r.createEntry(t, "b")
				}
				sent := contentCalls(r, tc.tool) - before
				switch {
				case tc.resent && (err != nil || sent != 2):
					t.Errorf("%v after sending %d times; want success on the second", err, sent)
				case !tc.resent && sent != 1:
					t.Errorf("sent %d times, want 1: it may have run", sent)
				case !tc.resent && !errors.Is(err, partner.ErrTemporary):
					t.Errorf("%v, want ErrTemporary", err)
				}
				if n := r.srv.ContentMCPCounts().Initializes; n != 1 {
					t.Errorf("%d initialize calls, want 1: a status does not end the session", n)
				}
				if _, err := r.entries(t); err != nil {
					t.Errorf("the next call: %v", err)
				}
			})
		})
	}
}

// TestContentTokenExpiresMidSession: the installation token expires
// between two content calls. One new token is minted, the session goes
// on and the calls succeed, whether the client saw the expiry coming
// (both clocks moved) or the server refused the token (its clock alone
// moved).
func TestContentTokenExpiresMidSession(t *testing.T) {
	for _, tc := range []struct {
		name string
		pass func(*partnertest.Server)
	}{
		{"both clocks move", func(*partnertest.Server) { time.Sleep(partnertest.InstallationTokenLifetime + time.Minute) }},
		{"the server refuses the token", func(srv *partnertest.Server) {
			srv.Advance(partnertest.InstallationTokenLifetime + time.Minute)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				r := newRig(t, withPostModel())
				if _, err := r.createEntry(t, "a"); err != nil {
					t.Fatal(err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 1 {
					t.Fatalf("%d mints before the expiry, want 1", m)
				}
				tc.pass(r.srv)
				if n, err := r.entries(t); err != nil || n != 1 {
					t.Fatalf("after the expiry: %d entries, %v", n, err)
				}
				if _, err := r.createEntry(t, "b"); err != nil {
					t.Fatalf("a write after the expiry: %v", err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
					t.Errorf("%d mints, want 2 (one new token)", m)
				}
				if n := r.srv.ContentMCPCounts().Initializes; n != 1 {
					t.Errorf("%d initialize calls, want 1: the session survives", n)
				}
				if n := contentCalls(r, "createContentEntry"); n != 2 {
					t.Errorf("createContentEntry sent %d times, want 2", n)
				}
			})
		})
	}
}

// TestContentGrantRevokedMidSession: once the user revokes the grant, the
// next content call says so, and no later call (content, translation
// tools or REST) reaches the service.
func TestContentGrantRevokedMidSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := newRig(t, withPostModel())
		e, err := r.createEntry(t, "a")
		if err != nil {
			t.Fatal(err)
		}
		r.srv.Revoke(r.g.ID)
		if _, err := r.createEntry(t, "b"); !errors.Is(err, partner.ErrReauthorizationRequired) {
			t.Fatalf("after the revocation: %v, want ErrReauthorizationRequired", err)
		}
		if n := contentCalls(r, "createContentEntry"); n != 2 {
			t.Errorf("createContentEntry reached the service %d times, want 2", n)
		}
		sent := len(r.srv.Requests())
		ctx := t.Context()
		later := map[string]func() error{
			"Entries.All":    func() error { _, err := r.entries(t); return err },
			"Entries.Create": func() error { _, err := r.createEntry(t, "c"); return err },
			"Entries.Get": func() error {
				_, err := r.c.Content.Entries.Get(ctx, r.project, e.ID, content.GetOptions{})
				return err
			},
			"Entries.BulkPublish": func() error {
				_, err := r.c.Content.Entries.BulkPublish(ctx, r.project, []string{e.ID})
				return err
			},
			"Tools.List": func() error {
				_, err := r.c.Tools.List(ctx, partner.ContentTools)
				return err
			},
			"Projects.List": func() error {
				_, err := r.c.Projects.List(ctx, r.g.Organizations[0].ID)
				return err
			},
		}
		for range 2 {
			for name, call := range later {
				if err := call(); !errors.Is(err, partner.ErrReauthorizationRequired) {
					t.Errorf("%s after the revocation: %v, want ErrReauthorizationRequired", name, err)
				}
			}
			time.Sleep(2 * partnertest.InstallationTokenLifetime) // past every token's expiry too
		}
		if n := len(r.srv.Requests()) - sent; n != 0 {
			t.Errorf("%d requests reached the service after the grant was known to be revoked: %+v", n, r.srv.Requests()[sent:])
		}
		if es := r.srv.ContentEntries(r.p.ID); len(es) != 1 {
			t.Errorf("%d entries, want 1", len(es))
		}
	})
}

// TestContentErrorTextEchoesToken: a content tool failure whose text
// echoes the token reaches the caller and the log without it, for a read
// and a write.
func TestContentErrorTextEchoesToken(t *testing.T) {
	for _, tool := range []string{"listContentEntries", "createContentEntry"} {
		for _, text := range []string{
			"Entry not found for token {token}",
			"Unauthorized: {token}",
			"Forbidden: missing_scope content:write for Bearer {token}",
			`Validation error: "{token}" is not allowed`,
		} {
			t.Run(tool+" "+text[:min(len(text), 20)], func(t *testing.T) {
				r := newRig(t, withPostModel())
				srv, rec, logs := r.srv, r.sent, r.logs
				var err error
				// Twice: an "Unauthorized" is replayed once with a new token (the tool did not run).
				srv.InjectFault(partnertest.Fault{Host: partnertest.HostContentMCP, Tool: tool, ToolError: text, Times: 2})

				if tool == "listContentEntries" {
					_, err = r.entries(t)
				} else {
					_, err = r.createEntry(t, "a")
				}
				if err == nil {
					t.Fatal("the isError answer was taken for a success")
				}
				if len(rec.tokens()) == 0 {
					t.Fatal("no token was recorded")
				}
				secrets := r.secrets()
				assertNoSecret(t, err.Error(), secrets)
				assertNoSecret(t, fmt.Sprintf("%+v", err), secrets)
				assertNoSecret(t, fmt.Sprintf("%#v", err), secrets)
				var te *partner.ToolError
				if !errors.As(err, &te) || te.Tool != tool {
					t.Errorf("%v, want a *ToolError of %s", err, tool)
				} else {
					assertNoSecret(t, te.Text, secrets)
					assertNoSecret(t, fmt.Sprintf("%#v", *te), secrets)
				}
				var mse *partner.MissingScopeError
				if errors.As(err, &mse) {
					assertNoSecret(t, fmt.Sprintf("%+v", mse), secrets)
				}
				assertNoSecret(t, logs.String(), secrets)
			})
		}
	}
}
