package transport

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/locsvc/partner-go/hooks"
	"github.com/locsvc/partner-go/internal/apierr"
)

// The hooks' call sites. Only the context CallStart returns travels in a
// context (a tracing span); the call's own state stays in the call value.

// kinds maps a request's Kind to the hooks' name for it.
var kinds = [...]hooks.Kind{REST: hooks.REST, MCP: hooks.Tool, Raw: hooks.Raw, Credential: hooks.Credential}

// begin tells the hooks that c's SDK call starts and returns the context
// the call goes on with.
func (c *call) begin(ctx context.Context) context.Context {
	q := c.q
	service, method, _ := strings.Cut(q.Op, ".")
	c.obs = hooks.Call{Kind: kinds[q.Kind], Service: service, Method: method, HTTPMethod: q.Method,
		Path: c.path, Server: c.host, Project: q.Project}
	c.start = time.Now()
	if f := c.r.hooks.CallStart; f != nil {
		if d := f(ctx, c.obs); d != nil {
			ctx = d
		}
	}
	return ctx
}

// end tells the hooks that c's SDK call ended with status and err.
func (c *call) end(ctx context.Context, status int, err error) {
	f := c.r.hooks.CallEnd
	if f == nil {
		return
	}
	o := c.obs
	var ae *apierr.APIError
	if status == 0 && errors.As(err, &ae) {
		status = ae.StatusCode
	}
	o.Attempts, o.Status, o.Outcome, o.Duration, o.Err = c.attempts, status, Outcome(err), time.Since(c.start), err
	f(ctx, o)
}

// Outcome is err's outcome class for the hooks, by the SDK's sentinel
// errors.
func Outcome(err error) string {
	var ae *apierr.APIError
	switch {
	case err == nil:
		return hooks.OK
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return hooks.Canceled
	case errors.Is(err, apierr.ErrReauthorizationRequired):
		return hooks.ReauthorizationRequired
	case errors.Is(err, apierr.ErrConfiguration):
		return hooks.Configuration
	case errors.Is(err, apierr.ErrMissingScope):
		return hooks.MissingScope
	case errors.Is(err, apierr.ErrWrongOrganization):
		return hooks.WrongOrganization
	case errors.Is(err, apierr.ErrConflict):
		return hooks.Conflict
	case errors.Is(err, apierr.ErrMCPUnauthorized):
		return hooks.MCPUnauthorized
	case errors.Is(err, apierr.ErrTemporary):
		return hooks.Temporary
	case errors.Is(err, apierr.ErrUnexpectedResponse):
		return hooks.UnexpectedResponse
	case errors.Is(err, apierr.ErrInvalidArgument):
		return hooks.InvalidArgument
	case errors.As(err, &ae) && ae.StatusCode == http.StatusNotFound:
		return hooks.NotFound
	}
	return hooks.Other
}

// attemptStart is go-retryablehttp's RequestLogHook, set with hooks.
func (c *call) attemptStart(_ retryablehttp.Logger, req *http.Request, _ int) {
	c.attempts++
	c.open, c.status, c.actx, c.astart = true, 0, req.Context(), time.Now()
	if f := c.r.hooks.AttemptStart; f != nil {
		f(c.actx, c.attempt())
	}
}

// backoff is the policy's backoff, which ends the attempt before the wait.
func (c *call) backoff(lo, hi time.Duration, n int, resp *http.Response) time.Duration {
	wait := c.r.policy.backoff(lo, hi, n, resp)
	c.attemptEnd(true, wait)
	return wait
}

// attemptEnd tells the hooks that the open attempt ended.
func (c *call) attemptEnd(retry bool, wait time.Duration) {
	c.open = false
	if f := c.r.hooks.AttemptEnd; f != nil {
		a := c.attempt()
		a.Status, a.Failed, a.Retry, a.Wait, a.Duration = c.status, c.status == 0, retry, wait, time.Since(c.astart)
		f(c.actx, a)
	}
}

func (c *call) attempt() hooks.Attempt {
	return hooks.Attempt{HTTPMethod: c.q.Method, Path: c.path, Server: c.host, Number: c.attempts}
}
