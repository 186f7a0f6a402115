package partner_test

// What both MCP servers share, run as one table over the two against
// partnertest: the translation tools (Config.MCPURL) with a paged read
// (listKeys), a read that needs no key (getPendingChanges) and a write
// (createKeys); the content tools (Config.ContentMCPURL) with a paged read
// (listContentEntries), a read of one entry (getContentEntry) and a write
// (createContentEntry). The session path: expired and refused tokens,
// revoked grants, dropped connections, error statuses, tokens echoed in
// error texts, concurrency and Close; then listing the tools, the checks
// made before any request, and a client without the server's URL.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"go.uber.org/goleak"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/keys"
	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/translations"
)

// mcpServer is one MCP server as these tests drive it.
type mcpServer struct {
	name     string
	server   partner.MCPServer
	host     partnertest.Host
	urlField string      // the Config and PoolConfig field of its URL
	opts     []rigOption // what the write needs in the rig's project
	counts   func(*partnertest.Server) partnertest.MCPCounts

	list, idle mcpRead   // the paged read, and a read that needs no item
	reads      []mcpRead // every read the statuses and drops are tried on
	writeTool  string
	create     func(t *testing.T, r *rig, name string) (item, error)
	stored     func(r *rig) int // how many items the server holds
	// more are further calls of the server's, each refused without the
	// grant or without the server's URL.
	more map[string]func(ctx context.Context, r *rig) error

	kinds     map[string]bool // every tool, and whether it is a read
	noProject []string        // the tools whose input takes no project
}

// item is what a write created.
type item struct{ id, name string }

// mcpRead is a read tool and a call of it about an item the write created;
// n is how many items it saw.
type mcpRead struct {
	tool string
	call func(t *testing.T, r *rig, it item) (n int, err error)
}

var (
	listKeysRead = mcpRead{"listKeys", func(t *testing.T, r *rig, _ item) (int, error) { return r.listAll(t) }}
	pendingRead  = mcpRead{"getPendingChanges", func(t *testing.T, r *rig, _ item) (int, error) {
		_, err := r.c.Translations.Pending(t.Context(), r.project)
		return 0, err
	}}
	listEntriesRead = mcpRead{"listContentEntries", func(t *testing.T, r *rig, _ item) (int, error) { return r.entries(t) }}
	getEntryRead    = mcpRead{"getContentEntry", func(t *testing.T, r *rig, it item) (int, error) {
		got, err := r.c.Content.Entries.Get(t.Context(), r.project, it.id, content.GetOptions{})
		if err == nil && (got.ID != it.id || got.Title != "Title of "+it.name) {
			return 0, fmt.Errorf("Get = %+v, want entry %s titled %q", got, it.id, "Title of "+it.name)
		}
		return 1, err
	}}
)

var mcpServers = []mcpServer{{
	name: "translation tools", server: partner.TranslationTools, host: partnertest.HostMCP, urlField: "MCPURL",
	counts: (*partnertest.Server).MCPCounts,
	list:   listKeysRead, idle: pendingRead, reads: []mcpRead{listKeysRead, pendingRead},
	writeTool: "createKeys",
	create: func(t *testing.T, r *rig, name string) (item, error) {
		res, err := r.create(t, name)
		if err != nil {
			return item{}, err
		}
		return item{res.Created[0].ID, name}, nil
	},
	stored: func(r *rig) int { return len(r.srv.TranslationKeys(r.p.ID)) },
	more: map[string]func(context.Context, *rig) error{
		"Translations.Publish": func(ctx context.Context, r *rig) error {
			_, err := r.c.Translations.Publish(ctx, r.project, translations.PublishOptions{})
			return err
		},
		"Translations.Pending": func(ctx context.Context, r *rig) error {
			_, err := r.c.Translations.Pending(ctx, r.project)
			return err
		},
	},
	kinds: map[string]bool{ // the 16 tools; a read is marked read-only
		"listProjects": true, "getProject": true, "proposeLanguages": false, "proposeLanguageEdits": false,
		"listKeys": true, "getTranslations": true, "createKeys": false, "updateKeys": false,
		"setTranslations": false, "deleteKeys": false, "getPendingChanges": true, "publishTranslations": false,
		"getSyncs": true, "getSync": true, "cancelSync": false, "getTranslationContext": true,
	},
	noProject: []string{"listProjects", "getSync"},
}, {
	name: "content tools", server: partner.ContentTools, host: partnertest.HostContentMCP, urlField: "ContentMCPURL",
	opts:   []rigOption{withPostModel()},
	counts: (*partnertest.Server).ContentMCPCounts,
	list:   listEntriesRead, idle: listEntriesRead, reads: []mcpRead{listEntriesRead, getEntryRead},
	writeTool: "createContentEntry",
	create: func(t *testing.T, r *rig, name string) (item, error) {
		e, err := r.createEntry(t, name)
		if err != nil {
			return item{}, err
		}
		return item{e.ID, name}, nil
	},
	stored: func(r *rig) int { return len(r.srv.ContentEntries(r.p.ID)) },
	more: map[string]func(context.Context, *rig) error{
		"Entries.Get": func(ctx context.Context, r *rig) error {
			_, err := r.c.Content.Entries.Get(ctx, r.project, noSuchEntry, content.GetOptions{})
			return err
		},
		"Entries.BulkPublish": func(ctx context.Context, r *rig) error {
			_, err := r.c.Content.Entries.BulkPublish(ctx, r.project, []string{noSuchEntry})
			return err
		},
		"Models.List": func(ctx context.Context, r *rig) error {
			_, err := r.c.Content.Models.List(ctx, r.project)
			return err
		},
	},
	kinds: map[string]bool{ // the 25 tools; a read is marked read-only
		"listContentModels": true, "getContentModel": true, "listContentEntries": true, "getContentEntry": true,
		"createContentEntry": false, "updateContentEntry": false, "publishContentEntry": false, "deleteContentEntry": false,
		"duplicateContentEntry": false, "bulkPublishEntries": false, "bulkCreateEntries": false, "bulkUpdateEntries": false,
		"createContentModel": false, "updateContentModel": false, "deleteContentModel": false,
		"addField": false, "updateField": false, "removeField": false, "reorderFields": false,
		"registerBlock": false, "bulkRegisterBlocks": false, "listBlocks": true, "getBlock": true,
		"validateBlockParams": true, "deleteBlock": false,
	},
}}

// forEachServer runs f as a subtest for each MCP server, with a rig for
// it (made inside synctest's bubble when bubble is set).
func forEachServer(t *testing.T, bubble bool, f func(t *testing.T, s mcpServer, r *rig)) {
	for _, s := range mcpServers {
		t.Run(s.name, func(t *testing.T) {
			if !bubble {
				f(t, s, newRig(t, s.opts...))
				return
			}
			synctest.Test(t, func(t *testing.T) { f(t, s, newRig(t, s.opts...)) })
		})
	}
}

func (s mcpServer) calls(r *rig, tool string) int { return s.counts(r.srv).ToolCalls[tool] }

// requestsTo returns the requests listener h logged.
func requestsTo(srv *partnertest.Server, h partnertest.Host) []partnertest.Request {
	var out []partnertest.Request
	for _, r := range srv.Requests() {
		if r.Host == h {
			out = append(out, r)
		}
	}
	return out
}

// TestMCPTokenExpiresMidSession: the installation token expires between
// two calls of one session. One new token is minted, the session goes on
// (no second initialize) and the calls succeed, whether the client saw the
// expiry coming (both clocks moved) or the server refused the token (its
// clock alone moved).
func TestMCPTokenExpiresMidSession(t *testing.T) {
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
			forEachServer(t, true, func(t *testing.T, s mcpServer, r *rig) {
				if _, err := s.create(t, r, "a"); err != nil {
					t.Fatal(err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 1 {
					t.Fatalf("%d mints before the expiry, want 1", m)
				}
				tc.pass(r.srv)
				if n, err := s.list.call(t, r, item{}); err != nil || n != 1 {
					t.Fatalf("after the expiry: %d items, %v", n, err)
				}
				if _, err := s.create(t, r, "b"); err != nil {
					t.Fatalf("a write after the expiry: %v", err)
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
					t.Errorf("%d mints, want 2 (one new token)", m)
				}
				if n := s.counts(r.srv).Initializes; n != 1 {
					t.Errorf("%d initialize calls, want 1: the session survives", n)
				}
				if n := s.calls(r, s.writeTool); n != 2 {
					t.Errorf("%s sent %d times, want 2", s.writeTool, n)
				}
			})
		})
	}
}

// TestMCPGrantRevokedMidSession: once the user revokes the grant, the
// next tool call (a read or a write) says so, and no later call (tools of
// either server, or REST) reaches the service.
func TestMCPGrantRevokedMidSession(t *testing.T) {
	for _, write := range []bool{false, true} {
		t.Run(map[bool]string{false: "noticed by a read", true: "noticed by a write"}[write], func(t *testing.T) {
			forEachServer(t, true, func(t *testing.T, s mcpServer, r *rig) {
				if _, err := s.create(t, r, "a"); err != nil {
					t.Fatal(err)
				}
				r.srv.Revoke(r.g.ID)
				var err error
				if write {
					_, err = s.create(t, r, "b")
				} else {
					_, err = s.list.call(t, r, item{})
				}
				if !errors.Is(err, partner.ErrReauthorizationRequired) {
					t.Fatalf("after the revocation: %v, want ErrReauthorizationRequired", err)
				}
				if n, want := s.calls(r, s.writeTool), map[bool]int{false: 1, true: 2}[write]; n != want {
					t.Errorf("%s reached the service %d times, want %d", s.writeTool, n, want)
				}
				sent := len(r.srv.Requests())
				ctx := t.Context()
				later := map[string]func() error{
					"the read":  func() error { _, err := s.list.call(t, r, item{}); return err },
					"the write": func() error { _, err := s.create(t, r, "c"); return err },
					"Tools.List": func() error {
						_, err := r.c.Tools.List(ctx, s.server)
						return err
					},
					"Projects.List": func() error {
						_, err := r.c.Projects.List(ctx, r.g.Organizations[0].ID)
						return err
					},
				}
				for name, call := range s.more {
					later[name] = func() error { return call(ctx, r) }
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
				if n := s.stored(r); n != 1 {
					t.Errorf("%d items, want 1", n)
				}
			})
		})
	}
}

// TestMCPEndpointRefusesEveryToken: an MCP endpoint that answers 401 to
// every token gives ErrMCPUnauthorized, not a revoked grant; REST keeps
// working; and 50 calls cost one re-mint, not one per call.
func TestMCPEndpointRefusesEveryToken(t *testing.T) {
	forEachServer(t, true, func(t *testing.T, s mcpServer, r *rig) {
		r.srv.InjectFault(partnertest.Fault{Host: s.host, Status: http.StatusUnauthorized,
			Body: `{"error":"Invalid or expired OAuth token"}`, Times: -1})
		for i := range 50 {
			_, err := s.create(t, r, fmt.Sprintf("k%d", i))
			if !errors.Is(err, partner.ErrMCPUnauthorized) {
				t.Fatalf("call %d: %v, want ErrMCPUnauthorized", i, err)
			}
			if errors.Is(err, partner.ErrReauthorizationRequired) {
				t.Fatalf("call %d: %v matches ErrReauthorizationRequired; the grant is not gone", i, err)
			}
		}
		// The first token, then one re-mint for it; the refused new token
		// is remembered.
		if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
			t.Errorf("%d mints over 50 calls, want 2 (the token and one re-mint)", m)
		}
		if n := len(requestsTo(r.srv, s.host)); n != 2 {
			t.Errorf("%d requests reached the MCP endpoint over 50 calls, want 2", n)
		}
		if _, err := r.c.Projects.List(t.Context(), r.g.Organizations[0].ID); err != nil {
			t.Errorf("REST after the MCP endpoint refused the token: %v", err)
		}
		if m := r.srv.GrantCounts(r.g.ID).Mints; m != 2 {
			t.Errorf("REST minted again (%d mints): it should keep using the token", m)
		}

		// Once the token changes for another reason (it expires), the
		// endpoint is tried again, with the same budget.
		r.srv.ClearFaults()
		time.Sleep(partnertest.InstallationTokenLifetime)
		if _, err := s.create(t, r, "after"); err != nil {
			t.Errorf("with a new token and the endpoint accepting it: %v", err)
		}
	})
}

// TestMCPUnauthorizedResultFollowsThe401Rule: a tool's "Unauthorized"
// result (the tool did not run) re-mints once and replays once, as an HTTP
// 401 does, writes included; refused again, it is ErrMCPUnauthorized and
// the next call fails at once without a request or a mint.
func TestMCPUnauthorizedResultFollowsThe401Rule(t *testing.T) {
	forEachServer(t, false, func(t *testing.T, s mcpServer, r *rig) {
		if _, err := s.create(t, r, "warm"); err != nil {
			t.Fatal(err)
		}
		mints := r.srv.GrantCounts(r.g.ID).Mints
		r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: s.writeTool, ToolError: "Unauthorized"})
		if _, err := s.create(t, r, "once"); err != nil {
			t.Fatalf("after one Unauthorized: %v, want the replay's success", err)
		}
		if m := r.srv.GrantCounts(r.g.ID).Mints; m != mints+1 {
			t.Errorf("%d mints, want one re-mint", m-mints)
		}

		r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: s.writeTool, ToolError: "Unauthorized", Times: -1})
		if _, err := s.create(t, r, "twice"); !errors.Is(err, partner.ErrMCPUnauthorized) {
			t.Fatalf("refused twice: %v, want ErrMCPUnauthorized", err)
		}
		before, mints := len(requestsTo(r.srv, s.host)), r.srv.GrantCounts(r.g.ID).Mints
		if _, err := s.create(t, r, "again"); !errors.Is(err, partner.ErrMCPUnauthorized) {
			t.Fatalf("next call: %v, want ErrMCPUnauthorized", err)
		}
		if n, m := len(requestsTo(r.srv, s.host))-before, r.srv.GrantCounts(r.g.ID).Mints-mints; n != 0 || m != 0 {
			t.Errorf("next call sent %d requests and minted %d times, want neither", n, m)
		}
		if _, err := r.c.Projects.List(t.Context(), r.g.Organizations[0].ID); err != nil {
			t.Errorf("REST after MCP refused the token: %v", err)
		}
	})
}

// TestMCPDroppedConnection: a connection that breaks during a write is
// not sent again, whether the write ran (the answer was cut short) or not
// (the connection dropped): the SDK cannot tell, so the error matches
// ErrTemporary and a read tells. During a read it is sent again.
func TestMCPDroppedConnection(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      bool // the write is the session's first call
		fault      partnertest.Fault
		wantExists bool
	}{
		{"dropped", false, partnertest.Fault{Drop: true}, false},
		{"dropped on the first call", true, partnertest.Fault{Drop: true}, false},
		{"answer cut short", false, partnertest.Fault{Truncate: true}, true},
	} {
		t.Run("write "+tc.name, func(t *testing.T) {
			forEachServer(t, false, func(t *testing.T, s mcpServer, r *rig) {
				if !tc.first {
					if _, err := s.list.call(t, r, item{}); err != nil { // connected
						t.Fatal(err)
					}
				}
				f := tc.fault
				f.Host, f.Tool = s.host, s.writeTool
				r.srv.InjectFault(f)
				_, err := s.create(t, r, "a")
				if !errors.Is(err, partner.ErrTemporary) {
					t.Fatalf("a write over a broken connection: %v, want ErrTemporary", err)
				}
				if n := s.calls(r, s.writeTool); n != 1 {
					t.Errorf("%s sent %d times, want 1", s.writeTool, n)
				}
				// A read tells whether the write ran; the session goes on.
				if n, err := s.list.call(t, r, item{}); err != nil || (n == 1) != tc.wantExists {
					t.Errorf("after the broken write: %d items, %v; want the item there: %v", n, err, tc.wantExists)
				}
				if _, err := s.create(t, r, "b"); err != nil {
					t.Errorf("the next call: %v", err)
				}
			})
		})
	}
	t.Run("read", func(t *testing.T) {
		forEachServer(t, false, func(t *testing.T, s mcpServer, r *rig) {
			a, err := s.create(t, r, "a")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.create(t, r, "b"); err != nil {
				t.Fatal(err)
			}
			for _, read := range s.reads {
				before := s.calls(r, read.tool)
				r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: read.tool, Drop: true})
				n, err := read.call(t, r, a)
				if err != nil || (read.tool == s.list.tool && n != 2) {
					t.Fatalf("%s over a dropped connection: %d items, %v; want it retried", read.tool, n, err)
				}
				if n := s.calls(r, read.tool) - before; n != 2 {
					t.Errorf("%s sent %d times, want 2 (one retry)", read.tool, n)
				}
			}
		})
	})
}

// TestMCPErrorStatuses: statuses of an MCP listener. A read is retried
// after any of them; a write only after a status that says it did not run
// (429, 503), and never sent again after one that says it may have run.
func TestMCPErrorStatuses(t *testing.T) {
	type status struct {
		code       int
		retryAfter string
		resent     bool
	}
	reads := []status{{429, "2", true}, {503, "", true}, {500, "", true}, {502, "", true}, {504, "", true}}
	writes := []status{{429, "2", true}, {503, "1", true}, {500, "", false}, {502, "", false}, {504, "", false}}
	for _, s := range mcpServers {
		type op struct {
			tool     string
			call     func(t *testing.T, r *rig, it item) error
			statuses []status
		}
		var ops []op
		for _, read := range s.reads {
			ops = append(ops, op{read.tool, func(t *testing.T, r *rig, it item) error { _, err := read.call(t, r, it); return err }, reads})
		}
		ops = append(ops, op{s.writeTool, func(t *testing.T, r *rig, _ item) error { _, err := s.create(t, r, "b"); return err }, writes})
		for _, o := range ops {
			for _, st := range o.statuses {
				t.Run(fmt.Sprintf("%s %d", o.tool, st.code), func(t *testing.T) {
					synctest.Test(t, func(t *testing.T) {
						r := newRig(t, s.opts...)
						a, err := s.create(t, r, "a") // connected, one item
						if err != nil {
							t.Fatal(err)
						}
						before := s.calls(r, o.tool)
						r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: o.tool, Status: st.code, RetryAfter: st.retryAfter})
						err = o.call(t, r, a)
						sent := s.calls(r, o.tool) - before
						switch {
						case st.resent && (err != nil || sent != 2):
							t.Errorf("%v after sending %d times; want success on the second", err, sent)
						case !st.resent && sent != 1:
							t.Errorf("sent %d times, want 1: it may have run", sent)
						case !st.resent && !errors.Is(err, partner.ErrTemporary):
							t.Errorf("%v, want ErrTemporary", err)
						}
						if n := s.counts(r.srv).Initializes; n != 1 {
							t.Errorf("%d initialize calls, want 1: a status does not end the session", n)
						}
						if _, err := s.list.call(t, r, item{}); err != nil {
							t.Errorf("the next call: %v", err)
						}
					})
				})
			}
		}
	}
}

// TestMCPSharedSessionConcurrency: 100 goroutines start on one client at
// once; they share one session, one initialize and one token.
func TestMCPSharedSessionConcurrency(t *testing.T) {
	forEachServer(t, false, func(t *testing.T, s mcpServer, r *rig) {
		const n = 100
		start := make(chan struct{})
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				if i%2 == 0 {
					_, errs[i] = s.create(t, r, fmt.Sprintf("k%03d", i))
				} else {
					_, errs[i] = s.idle.call(t, r, item{})
				}
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("goroutine %d: %v", i, err)
			}
		}
		if got := s.counts(r.srv); got.Initializes != 1 || got.ToolCalls[s.writeTool] != n/2 || got.ToolCalls[s.idle.tool] != n/2 {
			t.Errorf("MCP counts %+v: want 1 initialize and %d calls of each tool", got, n/2)
		}
		if got := r.srv.GrantCounts(r.g.ID); got.Mints != 1 || got.Refreshes != 1 {
			t.Errorf("grant counts %+v, want 1 refresh and 1 mint", got)
		}
		if k := s.stored(r); k != n/2 {
			t.Errorf("%d items created, want %d", k, n/2)
		}
	})
}

// TestMCPErrorTextEchoesToken: a tool failure whose text echoes the token
// (as a careless server might) reaches the caller and the log without it,
// in every form the error is shown, for a read and a write.
func TestMCPErrorTextEchoesToken(t *testing.T) {
	texts := []string{
		"Project not found for token {token}",
		"Entry not found for token {token}",
		"Unauthorized: {token}",
		"Forbidden: missing_scope for Bearer {token}",
		"Forbidden: missing_scope content:write for Bearer {token}",
		"TOO_MANY_REQUESTS {token}",
		"CONFLICT: {token} is a parent",
		`Validation error: "{token}" is not allowed`,
		"grant_revoked {token}",
		"Error executing listKeys: " + strings.Repeat("x", partner.MaxToolText-40) + " {token} and more", // the token crosses the cut
	}
	for _, s := range mcpServers {
		for _, tool := range []string{s.list.tool, s.writeTool} {
			for _, text := range texts {
				t.Run(s.name+" "+tool+" "+text[:min(len(text), 30)], func(t *testing.T) {
					r := newRig(t, s.opts...)
					// Twice: an "Unauthorized" is replayed once with a new token (the tool did not run).
					r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: tool, ToolError: text, Times: 2})
					var err error
					if tool == s.writeTool {
						_, err = s.create(t, r, "a")
					} else {
						_, err = s.list.call(t, r, item{})
					}
					if err == nil {
						t.Fatal("the isError answer was taken for a success")
					}
					if len(r.tokens()) == 0 {
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
						assertNoSecret(t, fmt.Sprintf("%+v", te), secrets)
						assertNoSecret(t, fmt.Sprintf("%#v", *te), secrets)
					}
					var mse *partner.MissingScopeError
					if errors.As(err, &mse) {
						assertNoSecret(t, fmt.Sprintf("%+v", mse), secrets)
						assertNoSecret(t, fmt.Sprintf("%+v", *mse.APIError), secrets)
					}
					assertNoSecret(t, r.logs.String(), secrets)
				})
			}
		}
	}
}

// renewingTransport mints a new installation token (Installations.
// CreateToken) while the first tools/call of tool is on its way: the call
// carries the old token, and the client's current one is the new token.
type renewingTransport struct {
	next http.RoundTripper
	tool string
	r    *rig
	once sync.Once
}

func (rt *renewingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil && req.URL.Path == partnertest.MCPPath {
		body, _ := io.ReadAll(req.Body)
		req.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"name":"`+rt.tool+`"`)) {
			rt.once.Do(func() {
				if _, err := rt.r.c.Installations.CreateToken(req.Context()); err != nil {
					panic(err)
				}
			})
		}
	}
	return rt.next.RoundTrip(req)
}

// TestMCPErrorEchoesATokenReplacedDuringTheCall: a tool failure that
// echoes the token its call carried is scrubbed although the client got a
// new installation token meanwhile (the old one stays valid for its hour).
func TestMCPErrorEchoesATokenReplacedDuringTheCall(t *testing.T) {
	for _, s := range mcpServers {
		for _, text := range []string{
			"Project not found for token {token}",
			"CONFLICT: {token} is a parent",
		} {
			t.Run(s.name+" "+text, func(t *testing.T) {
				r := newRig(t, append(s.opts, withTransport(func(next http.RoundTripper, r *rig) http.RoundTripper {
					return &renewingTransport{next: next, tool: s.list.tool, r: r}
				}))...)
				r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: s.list.tool, ToolError: text})
				_, err := s.list.call(t, r, item{})
				if err == nil {
					t.Fatal("the isError answer was taken for a success")
				}
				if m := r.srv.GrantCounts(r.g.ID).Mints; m < 2 {
					t.Fatalf("%d mints: the token was not replaced during the call", m)
				}
				secrets := r.secrets()
				assertNoSecret(t, err.Error(), secrets)
				assertNoSecret(t, fmt.Sprintf("%+v", err), secrets)
				assertNoSecret(t, r.logs.String(), secrets)
			})
		}
	}
}

// TestMCPClose: after Close, tool calls fail with ErrClosed and send
// nothing, REST works, and no goroutine of the session is left.
func TestMCPClose(t *testing.T) {
	for _, s := range mcpServers {
		t.Run(s.name, func(t *testing.T) {
			ignore := goleak.IgnoreCurrent()
			r := newRig(t, s.opts...)
			if _, err := s.create(t, r, "a"); err != nil {
				t.Fatal(err)
			}
			if err := r.c.Close(); err != nil {
				t.Fatal(err)
			}
			sent := len(requestsTo(r.srv, s.host))
			if _, err := s.create(t, r, "b"); !errors.Is(err, partner.ErrClosed) {
				t.Errorf("a write after Close: %v, want ErrClosed", err)
			}
			if _, err := r.c.Tools.List(t.Context(), s.server); !errors.Is(err, partner.ErrClosed) {
				t.Errorf("Tools.List after Close: %v, want ErrClosed", err)
			}
			if n := len(requestsTo(r.srv, s.host)) - sent; n != 0 {
				t.Errorf("%d requests to the MCP endpoint after Close", n)
			}
			if _, err := r.c.Projects.List(t.Context(), r.g.Organizations[0].ID); err != nil {
				t.Errorf("REST after Close: %v", err)
			}
			if err := r.c.Close(); err != nil {
				t.Errorf("a second Close: %v", err)
			}
			r.srv.Close()
			goleak.VerifyNone(t, ignore)
		})
	}
}

// TestMCPCloseDuringCall: Close does not wait for a call in flight on a
// server that does not answer (nor for a WaitSync long-poll): the call
// ends with ErrClosed, and nothing is left running.
func TestMCPCloseDuringCall(t *testing.T) {
	forEachServer(t, true, func(t *testing.T, s mcpServer, r *rig) {
		if _, err := s.list.call(t, r, item{}); err != nil { // connected
			t.Fatal(err)
		}
		r.srv.InjectFault(partnertest.Fault{Host: s.host, Tool: s.idle.tool, Hang: true})
		done := make(chan error)
		go func() {
			_, err := s.idle.call(t, r, item{})
			done <- err
		}()
		synctest.Wait() // the call hangs in the server
		if err := r.c.Close(); err != nil {
			t.Fatal(err)
		}
		if err := <-done; !errors.Is(err, partner.ErrClosed) {
			t.Errorf("the call in flight: %v, want ErrClosed", err)
		}
	})
}

// TestMCPToolsList: every tool of the server, each with its description,
// its input schema (naming project where the tool takes one) and its
// read-only mark; the other server is not asked.
func TestMCPToolsList(t *testing.T) {
	forEachServer(t, false, func(t *testing.T, s mcpServer, r *rig) {
		tools, err := r.c.Tools.List(t.Context(), s.server)
		if err != nil {
			t.Fatal(err)
		}
		if len(tools) != len(s.kinds) {
			t.Errorf("List returned %d tools, want %d", len(tools), len(s.kinds))
		}
		for _, tool := range tools {
			ro, known := s.kinds[tool.Name]
			if !known {
				t.Errorf("unexpected tool %q", tool.Name)
				continue
			}
			if tool.ReadOnly != ro {
				t.Errorf("%s: ReadOnly = %v, want %v", tool.Name, tool.ReadOnly, ro)
			}
			var schema struct {
				Type       string                     `json:"type"`
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(tool.InputSchema, &schema); err != nil || schema.Type != "object" {
				t.Errorf("%s: InputSchema %s (%v), want a JSON Schema object", tool.Name, tool.InputSchema, err)
			}
			wantProject := !slices.Contains(s.noProject, tool.Name)
			if _, ok := schema.Properties["project"]; ok != wantProject || slices.Contains(schema.Required, "project") != wantProject {
				t.Errorf("%s: project in the schema: %v, required %v; want %v", tool.Name, ok, schema.Required, wantProject)
			}
			if tool.Description == "" || !json.Valid(tool.Raw) || !strings.Contains(string(tool.Raw), `"`+tool.Name+`"`) {
				t.Errorf("%s: Description %q, Raw %s", tool.Name, tool.Description, tool.Raw)
			}
		}
		for _, other := range mcpServers {
			if other.host != s.host {
				if n := other.counts(r.srv); n.Initializes != 0 || len(requestsTo(r.srv, other.host)) != 0 {
					t.Errorf("the %s were asked: %+v", other.name, n)
				}
			}
		}
	})
}

// TestMCPWithoutItsURL: a client or Pool without the server's URL
// works, and its calls to that server fail with ErrInvalidArgument naming
// the field (and Tools.List the server), before any request.
func TestMCPWithoutItsURL(t *testing.T) {
	for _, s := range mcpServers {
		noURL := func(u, cu *string) {
			if s.server == partner.TranslationTools {
				*u = ""
			} else {
				*cu = ""
			}
		}
		t.Run(s.name, func(t *testing.T) {
			r := newRig(t, withConfig(func(cfg *partner.Config) { noURL(&cfg.MCPURL, &cfg.ContentMCPURL) }))
			ctx := t.Context()
			calls := map[string]func() error{
				"the read":  func() error { _, err := s.list.call(t, r, item{}); return err },
				"the write": func() error { _, err := s.create(t, r, "a"); return err },
				"Tools.List": func() error {
					_, err := r.c.Tools.List(ctx, s.server)
					if err != nil && !strings.Contains(err.Error(), string(s.server)) {
						t.Errorf("Tools.List: %v does not name the server %q", err, s.server)
					}
					return err
				},
				"Tools.Call": func() error {
					return r.c.Tools.Call(ctx, s.server, s.list.tool, map[string]any{"project": r.project}, nil)
				},
			}
			for name, call := range s.more {
				calls[name] = func() error { return call(ctx, r) }
			}
			for name, call := range calls {
				if err := call(); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "Config."+s.urlField) {
					t.Errorf("%s: %v, want ErrInvalidArgument naming Config.%s", name, err, s.urlField)
				}
			}
			if n := len(r.srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
		t.Run(s.name+" Pool", func(t *testing.T) {
			r := newRig(t, append(s.opts, withPool(1, 0),
				withPoolConfig(func(cfg *partner.PoolConfig) { noURL(&cfg.MCPURL, &cfg.ContentMCPURL) }))...)
			c, err := r.pool.Client(t.Context(), r.g.ID)
			if err != nil {
				t.Fatal(err)
			}
			r.c, r.project = c, "acme/site" // refused before the project is looked up
			if _, err := s.create(t, r, "a"); !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "PoolConfig."+s.urlField) {
				t.Errorf("%v, want ErrInvalidArgument naming PoolConfig.%s", err, s.urlField)
			}
			if n := len(r.srv.Requests()); n != 0 {
				t.Errorf("%d requests sent", n)
			}
		})
	}
}

// TestMCPUnknownServer: a server name the SDK does not know fails with
// ErrInvalidArgument naming it, before any request.
func TestMCPUnknownServer(t *testing.T) {
	r := newRig(t)
	_, err := r.c.Tools.List(t.Context(), partner.MCPServer("glossary"))
	if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "server") || !strings.Contains(err.Error(), "glossary") {
		t.Errorf("List: %v, want ErrInvalidArgument naming the server", err)
	}
	err = r.c.Tools.Call(t.Context(), partner.MCPServer(""), "listProjects", nil, nil)
	if !errors.Is(err, partner.ErrInvalidArgument) || !strings.Contains(err.Error(), "server") {
		t.Errorf("Call: %v, want ErrInvalidArgument naming the server", err)
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// badArgument is a call with an argument the SDK can check itself, and
// the field its error must name.
type badArgument struct {
	name, field string
	call        func(context.Context) error
}

// assertRefusedBeforeAnyRequest: each call fails with ErrInvalidArgument
// naming the field, and none sends anything (not even a token request).
func assertRefusedBeforeAnyRequest(t *testing.T, r *rig, cases []badArgument) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(t.Context())
			if !errors.Is(err, partner.ErrInvalidArgument) {
				t.Fatalf("err = %v, want ErrInvalidArgument", err)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("%q does not name %s", err, tc.field)
			}
		})
	}
	if n := len(r.srv.Requests()); n != 0 {
		t.Errorf("%d requests were sent for arguments the SDK can check: %+v", n, r.srv.Requests())
	}
	for _, s := range mcpServers {
		if n := s.counts(r.srv); n.Initializes != 0 || len(n.ToolCalls) != 0 {
			t.Errorf("%s counts %+v, want nothing", s.name, n)
		}
	}
}

// uuids returns n well-formed ids no item has.
func uuids(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("00000000-0000-4000-8000-%012d", i)
	}
	return out
}

// listAll lists every key of the rig's project and returns how many.
func (r *rig) listAll(t *testing.T) (int, error) {
	t.Helper()
	n := 0
	for _, err := range r.c.Keys.All(t.Context(), r.project, keys.ListOptions{}) {
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// create creates keys of the given names in the rig's project, each with
// a German translation.
func (r *rig) create(t *testing.T, names ...string) (*keys.CreateResult, error) {
	t.Helper()
	var ks []keys.NewKey
	for _, n := range names {
		ks = append(ks, keys.NewKey{Name: n, SourceText: "text of " + n, Translations: map[string]string{"de": n + " (de)"}})
	}
	return r.c.Keys.Create(t.Context(), r.project, ks, keys.CreateOptions{})
}

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

// createEntry creates a "post" entry of the given slug in the rig's
// project (withPostModel seeds the model).
func (r *rig) createEntry(t *testing.T, slug string) (*content.Entry, error) {
	t.Helper()
	return r.c.Content.Entries.Create(t.Context(), r.project, content.NewEntry{Model: "post", Title: "Title of " + slug, Slug: slug,
		Fields: map[string]any{"summary": "about " + slug, "rank": 1}})
}
