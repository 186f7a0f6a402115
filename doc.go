// Package partner is the Go SDK for the localization service's partner
// API. A Client acts for one user's grant: it lists organizations and
// projects, creates projects and adds target languages, and keeps the
// grant's tokens valid by itself (the 30-minute access token and the
// one-hour installation token), once however many goroutines call.
//
// Errors say what to do: branch on them with errors.Is (the Err
// sentinels) and errors.As (*APIError, *MissingScopeError, *ToolError),
// never on the text. errors.Is(err, ErrReauthorizationRequired) means the
// user must connect the application again; a *MissingScopeError names the
// scope to ask for; ErrTemporary means try again later. An error's text
// starts with "partner: ", then, for a request that was sent, its method
// and whole path, as in "partner: GET /v2/api/oauth-client/v1/projects/p1:
// 410 grant_revoked". No error, log line or formatted Config holds a token
// or secret, in whatever form the service echoed it.
//
// Requests are retried with backoff and jitter where that is safe: a POST
// that may have reached the service is never sent twice. Tokens are only
// sent to the configured hosts.
//
// The services' methods share one shape: a context, the resource's name
// or id, then the input (a New* value to create, an …Update to change,
// an …Options struct whose zero value takes the defaults, such as
// keys.ListOptions{}). A call on a batch (Keys.Create, Keys.Update,
// Keys.Delete, Translations.Set, Entries.BulkCreate and the like) returns
// a result listing each item's outcome, since some items may fail while
// others succeed; a call on one thing that the service only confirms
// (Models.Delete, Entries.Delete, Models.RemoveField,
// Models.ReorderFields) returns only an error.
//
// Webhook receivers use package webhook; tests use package partnertest, a
// fake of the whole service.
package partner
