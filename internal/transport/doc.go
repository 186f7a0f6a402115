// Package transport is the SDK's one request path: JSON in and out, the
// User-Agent, an Authorization header taken afresh on every attempt, retries
// through go-retryablehttp with the SDK's policy, bounded body reads, and
// typed errors. Every endpoint goes through Runner.Do; the token endpoint
// goes through Runner.HTTPClient so that it shares the same policy.
package transport
