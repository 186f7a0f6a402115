package mcpsession

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/locsvc/partner-go/internal/apierr"
	"github.com/locsvc/partner-go/internal/redact"
	"github.com/locsvc/partner-go/internal/transport"
)

// ProtocolVersion is the MCP protocol version a Session speaks: one the
// service's servers document, so that no newer discovery call is tried.
const ProtocolVersion = "2025-06-18"

// ErrClosed is returned by calls on a closed Session.
var ErrClosed = errors.New("partner: closed (Client.Close or Pool.Close was called): make a new Client or Pool")

// Config configures a Session.
type Config struct {
	URL     string                // the MCP endpoint, checked by the caller
	Setting string                // the field that holds URL ("Config.MCPURL"), for advice
	Tokens  transport.TokenSource // the grant's installation tokens, as its REST calls use
	Runner  *transport.Runner     // sends every request; nil makes one with the defaults
}

// Session is the MCP session of one grant with one server. It connects on
// first use, is shared by every goroutine, reconnects when its connection
// is lost, and makes no request after the grant is gone or it is closed.
type Session struct {
	url     *url.URL
	path    string // the endpoint's path, for errors
	setting string
	runner  *transport.Runner
	tokens  transport.TokenSource
	client  *mcp.Client
	// stopped ends when Close is called (the Session is closed); it cancels
	// the calls in flight, which the go-sdk's Close would otherwise wait for.
	stopped context.Context
	stop    context.CancelFunc

	mu      sync.Mutex
	cur     *mcp.ClientSession
	dialing *dial
	listed  map[string]bool // tools/list: name -> readOnlyHint
	// retiring counts connections let go of: each closes once its calls
	// end (the go-sdk's Close waits for them), and Close waits for all.
	retiring sync.WaitGroup
}

// dial is a connect in progress, which other callers wait for.
type dial struct {
	done   chan struct{}
	err    error
	ctxErr bool // the dialer's own context ended: a waiter tries again
}

// New returns a Session for cfg. It sends nothing until the first call.
func New(cfg Config) (*Session, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return nil, apierr.ArgumentError("MCP URL", "is not a URL")
	}
	if cfg.Runner == nil {
		cfg.Runner = transport.New(transport.Options{BaseURL: u})
	}
	s := &Session{url: u, path: cmp.Or(u.EscapedPath(), "/"), setting: cfg.Setting, runner: cfg.Runner, tokens: cfg.Tokens}
	s.stopped, s.stop = context.WithCancel(context.Background())
	s.client = mcp.NewClient(&mcp.Implementation{Name: "partner-go", Version: transport.Version}, &mcp.ClientOptions{
		Capabilities:   &mcp.ClientCapabilities{},                  // the SDK answers no server requests
		MultiRoundTrip: &mcp.MultiRoundTripOptions{Disabled: true}, // it would send a tools/call again
	})
	return s, nil
}

// Call calls tool with args (JSON-encoded as the call's arguments) and
// returns the text of the result's first text block: the tool's JSON.
// Later blocks are ignored. A tool failure is a *apierr.ToolError; a failed
// HTTP exchange is the SDK's typed error. A tool that changes something is
// never sent again once it may have run.
func (s *Session) Call(ctx context.Context, tool string, args any) ([]byte, error) {
	if args == nil {
		args = struct{}{}
	}
	for replayed := false; ; replayed = true {
		var res *mcp.CallToolResult
		gen := s.tokens.Generation()
		err := s.do(ctx, tool, s.ReadOnly(tool), func(ctx context.Context, cs *mcp.ClientSession) error {
			var err error
			res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
			return err
		})
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(res.Content, func(c mcp.Content) bool { _, ok := c.(*mcp.TextContent); return ok })
		text := ""
		if i >= 0 {
			text = res.Content[i].(*mcp.TextContent).Text
		}
		if res.IsError {
			err := apierr.FromToolText(tool, text, s.secrets())
			switch {
			case errors.Is(err, apierr.ErrReauthorizationRequired):
				s.tokens.Fail(ctx, err, gen) // the grant's final state is its token source's
			case errors.Is(err, apierr.ErrMCPUnauthorized):
				// The tool did not run: the 401 rule, as for an HTTP 401.
				if s.tokens.Refusals().ToolUnauthorized(s.tokens, s.url, replayed, err) {
					continue
				}
			}
			return nil, err
		}
		if i < 0 {
			return nil, fmt.Errorf("partner: tool %s: %w: the result has no text block", tool, apierr.ErrUnexpectedResponse)
		}
		return []byte(text), nil
	}
}

// maxListPages bounds a tools/list: the servers list a few dozen tools.
const maxListPages = 100

// ListTools returns every tool the server lists, with its input schema and
// annotations, and remembers which are read-only (readOnlyHint).
func (s *Session) ListTools(ctx context.Context) ([]*mcp.Tool, error) {
	var tools []*mcp.Tool
	err := s.do(ctx, "tools/list", true, func(ctx context.Context, cs *mcp.ClientSession) error {
		tools = tools[:0]
		params := &mcp.ListToolsParams{}
		seen := map[string]bool{"": true}
		for range maxListPages {
			res, err := cs.ListTools(ctx, params)
			if err != nil {
				return err
			}
			tools = append(tools, res.Tools...)
			if seen[res.NextCursor] {
				return nil // the end, or a cursor given before: a cycle
			}
			seen[res.NextCursor] = true
			params = &mcp.ListToolsParams{Cursor: res.NextCursor}
		}
		return fmt.Errorf("partner: tools/list: %w: more than %d pages", apierr.ErrUnexpectedResponse, maxListPages)
	})
	if err != nil {
		return nil, err
	}
	listed := make(map[string]bool, len(tools))
	for _, t := range tools {
		listed[t.Name] = t.Annotations != nil && t.Annotations.ReadOnlyHint
	}
	s.mu.Lock()
	s.listed = listed
	s.mu.Unlock()
	return tools, nil
}

// ReadOnly reports whether a call of tool may be sent again after it may
// have run: the server's readOnlyHint once ListTools was called, else
// whether the service documents it as a read tool. Any other tool is
// taken to change something.
func (s *Session) ReadOnly(tool string) bool {
	s.mu.Lock()
	ro, ok := s.listed[tool]
	s.mu.Unlock()
	if ok {
		return ro
	}
	switch tool {
	case "listProjects", "getProject", "listKeys", "getTranslations",
		"getPendingChanges", "getSyncs", "getSync", "getTranslationContext",
		"listContentModels", "getContentModel", "listContentEntries",
		"getContentEntry", "listBlocks", "getBlock", "validateBlockParams":
		return true
	}
	return false
}

// do runs one exchange (a tool call, a listing) on the shared connection,
// connecting first if needed. A connection that broke is replaced; the
// exchange is sent again on the new one only when it cannot have run (the
// server no longer knew the session) or when retry allows it.
func (s *Session) do(ctx context.Context, name string, retry bool, fn func(context.Context, *mcp.ClientSession) error) error {
	ctx, cancel := context.WithCancelCause(ctx) // ended by Close too (see stopped)
	defer cancel(nil)
	defer context.AfterFunc(s.stopped, func() { cancel(ErrClosed) })()
	for try := 0; ; try++ {
		cs, err := s.acquire(ctx)
		if err != nil {
			if errors.Is(context.Cause(ctx), ErrClosed) {
				return ErrClosed
			}
			return err
		}
		err = fn(ctx, cs)
		typed := s.typed(name, err)
		if err != nil && typed == nil && ctx.Err() == nil {
			s.retire(cs) // broken: the next call connects again
		}
		switch {
		case err == nil:
			return nil
		case errors.Is(context.Cause(ctx), ErrClosed):
			return ErrClosed
		case ctx.Err() != nil:
			return fmt.Errorf("partner: %s: %w", name, ctx.Err())
		case typed != nil:
			return typed
		case try == 0 && (retry || errors.Is(err, mcp.ErrSessionMissing)):
			continue // on a new connection: the server did not run it, or it may run twice
		}
		msg := "the connection to the MCP server broke"
		if !retry {
			msg += "; the call may have run and was not sent again"
		}
		return fmt.Errorf("partner: %s: %w: %s: %s", name, apierr.ErrTemporary, msg, s.secrets().Error(err))
	}
}

// acquire returns the live connection, connecting if there is none;
// callers that come while one connects wait for it and share its outcome.
func (s *Session) acquire(ctx context.Context) (*mcp.ClientSession, error) {
	for {
		s.mu.Lock()
		switch {
		case s.stopped.Err() != nil:
			s.mu.Unlock()
			return nil, ErrClosed
		case s.cur != nil:
			cs := s.cur
			s.mu.Unlock()
			return cs, nil
		case s.dialing != nil:
			d := s.dialing
			s.mu.Unlock()
			select {
			case <-d.done:
			case <-ctx.Done():
				return nil, fmt.Errorf("partner: connecting to the MCP server: %w", ctx.Err())
			}
			if d.err != nil && !d.ctxErr {
				return nil, d.err
			}
			continue
		}
		d := &dial{done: make(chan struct{})}
		s.dialing = d
		s.mu.Unlock()

		cs, err := s.connect(ctx)
		s.mu.Lock()
		s.dialing = nil
		switch {
		case err != nil:
		case s.stopped.Err() != nil:
			s.retireLocked(cs)
			cs, err = nil, ErrClosed
		default:
			s.cur = cs
		}
		d.err, d.ctxErr = err, ctx.Err() != nil
		close(d.done)
		s.mu.Unlock()
		return cs, err
	}
}

// connect opens a go-sdk session: initialize and notifications/initialized,
// at the pinned protocol version, without the standalone GET stream.
func (s *Session) connect(ctx context.Context) (*mcp.ClientSession, error) {
	t := &mcp.StreamableClientTransport{
		Endpoint:             s.url.String(),
		HTTPClient:           &http.Client{Transport: roundTripper{s}},
		MaxRetries:           -1, // no SSE reconnects: the servers send no streams
		DisableStandaloneSSE: true,
	}
	cs, err := s.client.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: ProtocolVersion})
	if err == nil {
		return cs, nil
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("partner: connecting to the MCP server: %w", ctx.Err())
	}
	if typed := s.typed("initialize", err); typed != nil {
		return nil, typed
	}
	return nil, s.misconfigured(fmt.Errorf("partner: POST %s (initialize): %s", s.path, s.secrets().Error(err)))
}

// typed returns the SDK's error that err of the exchange name carries:
// the request path's own (it names the request), or a JSON-RPC error's;
// nil for any other error.
func (s *Session) typed(name string, err error) error {
	if err == nil {
		return nil // errors.As's targets would cost two allocations
	}
	var f *failure
	var rpcErr *jsonrpc.Error
	switch {
	case errors.As(err, &f):
		return f.err
	case errors.As(err, &rpcErr):
		return apierr.FromToolText(name, rpcErr.Message, s.secrets())
	}
	return nil
}

// retire lets go of cs if it is the live connection: the next call
// connects again, and cs is closed once its calls end.
func (s *Session) retire(cs *mcp.ClientSession) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == cs {
		s.drainLocked()
	}
}

func (s *Session) retireLocked(cs *mcp.ClientSession) {
	s.retiring.Add(1)
	go func() {
		defer s.retiring.Done()
		cs.Close()
	}()
}

// Drain lets go of the Session's connection without closing the Session:
// calls running on it finish, it is closed when the last one ends, and a
// later call connects again. A Pool drains the sessions of a client it
// evicts, which a caller may still hold.
func (s *Session) Drain() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.drainLocked()
}

func (s *Session) drainLocked() {
	if s.cur != nil {
		s.retireLocked(s.cur)
		s.cur = nil
	}
}

// Close ends the Session: calls still running on it are cancelled and
// return ErrClosed, its connections are closed, and later calls return
// ErrClosed. It leaves no goroutine behind.
func (s *Session) Close() error {
	s.mu.Lock()
	s.stop()
	s.drainLocked()
	s.mu.Unlock()
	s.retiring.Wait()
	return nil
}

// secrets are what no error may hold: the application's and the grant's.
func (s *Session) secrets() redact.Secrets { return s.runner.Secrets().Merge(s.tokens.Secrets()) }
