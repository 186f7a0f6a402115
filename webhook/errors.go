package webhook

import "errors"

// Errors of this package, one per failure; test for them with errors.Is.
// The wrapping message adds context (which component was malformed, how far
// off the timestamp was), never the secret nor which bytes of a signature
// differed.
var (
	// ErrMissingHeader means the signature header is absent or empty.
	ErrMissingHeader = errors.New("webhook: missing signature header")

	// ErrMalformedHeader means the signature header could not be parsed:
	// too long, a component without '=', no t or more than one, a t that
	// is not a decimal integer from 0 to math.MaxInt64 (no sign), or a v1
	// that is not 64 hex digits.
	ErrMalformedHeader = errors.New("webhook: malformed signature header")

	// ErrNoSignature means the header holds no v1 signature, as when it
	// has only the legacy sha256, which is ignored.
	ErrNoSignature = errors.New("webhook: no v1 signature in header")

	// ErrTimestampOutOfTolerance means the header's t is further from the
	// verifier's clock than its tolerance, in the past or in the future.
	// The delivery may be a replay; see WithTolerance and WithClock.
	ErrTimestampOutOfTolerance = errors.New("webhook: timestamp outside tolerance")

	// ErrSignatureMismatch means no v1 signature in the header matches the
	// body under any configured secret: the body was changed (even only
	// re-encoded), or it was signed with another secret.
	ErrSignatureMismatch = errors.New("webhook: signature mismatch")

	// ErrBodyTooLarge means the body is longer than the verifier's limit
	// (DefaultMaxBodyBytes unless set with WithMaxBodyBytes).
	ErrBodyTooLarge = errors.New("webhook: body too large")

	// ErrInvalidPayload means Parse could not decode the body: not a JSON
	// object, no id or eventType, or a field of the wrong JSON type (the
	// envelope's timestamp may be a number or a numeric string, its
	// version a string or a number).
	ErrInvalidPayload = errors.New("webhook: invalid payload")

	// ErrEmptyBody means the body was empty and so did not match the
	// signature: the service never sends one, so usually a middleware (a
	// logger, a body parser) read it before the webhook handler did.
	ErrEmptyBody = errors.New("webhook: empty body")

	// ErrEmptySecret is returned by NewVerifier when any secret is empty.
	// An empty secret never means "skip verification".
	ErrEmptySecret = errors.New("webhook: empty secret")

	// ErrInvalidSecret is returned by NewVerifier for a secret that cannot
	// be the one the dashboard shows; the message says why, never the
	// secret.
	ErrInvalidSecret = errors.New("webhook: invalid secret")

	// ErrInvalidOption is returned by NewVerifier for an option out of
	// range, such as a tolerance that is not positive or a nil clock.
	ErrInvalidOption = errors.New("webhook: invalid option")

	// ErrUnknownReceiver is what a NewTenantHandler lookup returns,
	// possibly wrapped, for a request that names no receiver it knows:
	// the handler answers 404 Not Found.
	ErrUnknownReceiver = errors.New("webhook: unknown receiver")
)
