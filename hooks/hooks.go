// Package hooks lets an application observe what the SDK does: its calls
// and their HTTP attempts, token refreshes and mints, leases, pacing
// waits, webhook deliveries and locale syncs. Package
// github.com/locsvc/partner-go/otel turns them into OpenTelemetry spans
// and metrics; any other system can be fed by setting the funcs it needs.
//
// A Hooks value is given to partner.Config.Hooks (or PoolConfig.Hooks),
// to webhook.WithHooks and to the locales options. A nil *Hooks, or a nil
// func in it, is off and costs nothing. Each func is called on the
// goroutine doing the work and must return quickly; it must not keep the
// event's Err beyond the call. No event holds a token, a secret or a URL
// query. The funcs may be called concurrently.
//
// The package imports nothing else of the SDK, so that every package of it
// can import this one.
package hooks

import (
	"context"
	"time"
)

// Hooks are the funcs the SDK calls at each event; each may be nil.
type Hooks struct {
	// CallStart is called as an SDK call starts (a REST call, a tool
	// call, a Client.HTTPClient request, a token request). The context it
	// returns is the one the call goes on with: it may carry a tracing
	// span, so that the call's attempts, an instrumented transport's spans
	// and the token work the call waits for nest under it. It is the one
	// thing the SDK lets a context carry; nil returns keep ctx.
	CallStart func(ctx context.Context, c Call) context.Context
	// CallEnd is called as the call ends, on the context CallStart
	// returned, with c's result fields set.
	CallEnd func(ctx context.Context, c Call)
	// AttemptStart is called before each HTTP attempt of a call.
	AttemptStart func(ctx context.Context, a Attempt)
	// AttemptEnd is called when the attempt is answered (or failed), with
	// the retry decision and the wait before the next attempt.
	AttemptEnd func(ctx context.Context, a Attempt)
	// Token is called when a grant's token work ends: a refresh, a mint,
	// a token taken from the Store, or a call's wait for one of them.
	Token func(ctx context.Context, t Token)
	// Lease is called with each outcome of a grant's lease in a shared
	// Store (auth.Leaser).
	Lease func(ctx context.Context, l Lease)
	// Pacing is called after a request waited for its turn under the
	// grant's pacing.
	Pacing func(ctx context.Context, p Pacing)
	// Delivery is called once per webhook delivery the handler answers.
	Delivery func(ctx context.Context, d Delivery)
	// Sync is called when a locales push is planned and applied, and when
	// a pull has written its files.
	Sync func(ctx context.Context, s Sync)
}

// Kind says what sort of call a Call is.
type Kind string

// The kinds of calls.
const (
	REST       Kind = "rest"       // a REST call of a service (Client.Projects.Get)
	Tool       Kind = "tool"       // an MCP tool call
	Raw        Kind = "raw"        // a Client.HTTPClient request
	Credential Kind = "credential" // a request for a token (refresh, mint)
)

// Outcome classes of a call, from the SDK's sentinel errors.
const (
	OK                      = "ok"
	ReauthorizationRequired = "reauthorization_required" // partner.ErrReauthorizationRequired
	Configuration           = "configuration"            // partner.ErrConfiguration
	MissingScope            = "missing_scope"            // partner.ErrMissingScope
	WrongOrganization       = "wrong_organization"       // partner.ErrWrongOrganization
	Conflict                = "conflict"                 // partner.ErrConflict
	Temporary               = "temporary"                // partner.ErrTemporary
	UnexpectedResponse      = "unexpected_response"      // partner.ErrUnexpectedResponse
	InvalidArgument         = "invalid_argument"         // partner.ErrInvalidArgument
	MCPUnauthorized         = "mcp_unauthorized"         // partner.ErrMCPUnauthorized
	Canceled                = "canceled"                 // the caller's context ended
	NotFound                = "not_found"                // a 404 the SDK does not classify otherwise
	Other                   = "other"                    // any other error
)

// Call is one SDK call. CallStart gets the fields up to Project; CallEnd
// all of them.
type Call struct {
	Kind    Kind
	Service string // "Projects", or the MCP server ("translation", "content")
	Method  string // "Get", or the tool's name
	// HTTPMethod and Path are the request's (REST, Raw, Credential): the
	// path without a query; on a tool call, "POST" and the endpoint's path.
	HTTPMethod, Path string
	Server           string // the host the call goes to
	Project          string // the project the call is about, when it names one

	// Attempts counts the HTTP attempts sent, replays included; 0 for a
	// tool call, whose POSTs the go-sdk sends (each is still told to
	// AttemptStart and AttemptEnd, on the tool call's context).
	Attempts int
	Status   int           // the final answer's status, 0 without one
	Outcome  string        // one of the outcome classes
	Duration time.Duration // from CallStart to CallEnd
	Err      error         // the error the caller gets, or nil; never holds a token
}

// Attempt is one HTTP attempt of a call.
type Attempt struct {
	HTTPMethod string
	Path       string // without a query
	Server     string // the host
	Number     int    // 1 for the first attempt of the call

	Status   int           // the answer's status, 0 without one (AttemptEnd)
	Failed   bool          // no answer: the connection or the body failed (AttemptEnd)
	Retry    bool          // another attempt follows (AttemptEnd)
	Wait     time.Duration // the wait before it (AttemptEnd)
	Duration time.Duration // from AttemptStart to the answer (AttemptEnd)
}

// TokenKind says what token work a Token event is about.
type TokenKind string

// The kinds of token work.
const (
	Refresh TokenKind = "refresh" // an access token refreshed at the token endpoint
	Mint    TokenKind = "mint"    // an installation token minted
	Stored  TokenKind = "store"   // a token another holder saved, taken from the Store
	Wait    TokenKind = "wait"    // a call waited for a refresh or mint in flight
)

// Token is a grant's token work.
type Token struct {
	Kind     TokenKind
	Ahead    bool          // started ahead of expiry: no call waited for it
	Duration time.Duration // how long it took
	Err      error         // nil, or why it failed
}

// LeaseOutcome is what became of a grant's lease.
type LeaseOutcome string

// The lease outcomes.
const (
	Acquired LeaseOutcome = "acquired" // this process refreshes or mints
	Held     LeaseOutcome = "held"     // another holder does: this one waits
	Lost     LeaseOutcome = "lost"     // the lease ran out before the commit
)

// Lease is an outcome of a grant's lease, for Kind "access" or
// "installation" tokens.
type Lease struct {
	Kind    string
	Outcome LeaseOutcome
}

// Pacing is a request's wait for its turn.
type Pacing struct {
	Wait   time.Duration
	Shared bool // the turn was taken from the Store's shared limit
}

// Delivery outcomes.
const (
	Handled   = "handled"   // verified and handled without error
	Refused   = "refused"   // not verified: Reason says why
	Duplicate = "duplicate" // verified, but delivered before
	Failed    = "failed"    // the lookup, the dedup store or the application's callback failed
)

// Delivery is one webhook delivery the handler answered.
type Delivery struct {
	Outcome string
	// Reason is why a delivery was refused: "method", "unknown_receiver",
	// "missing_header", "no_signature", "timestamp", "signature", "size",
	// "malformed_header", "empty_body" or "payload"; why one failed:
	// "lookup", "dedup_store" or "callback".
	Reason    string
	EventType string // the event's type, once verified
	Status    int    // the HTTP status answered
}

// SyncPhase is a step of a locales sync.
type SyncPhase string

// The sync phases.
const (
	Planned SyncPhase = "planned" // a push's plan was made
	Applied SyncPhase = "applied" // a push's plan was applied
	Pulled  SyncPhase = "pulled"  // a pull wrote its files
)

// Sync is a step of a locales push or pull, with its counts.
type Sync struct {
	Phase   SyncPhase
	Project string
	// Items counts keys or values by action ("create", "update",
	// "delete", "skip", "write", ...), as the step reports them.
	Items    map[string]int
	Duration time.Duration
	Err      error
}
