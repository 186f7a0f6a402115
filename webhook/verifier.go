package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"
)

// DefaultTolerance is how far a delivery's signed timestamp may be from the
// verifier's clock, in either direction, unless WithTolerance says otherwise.
// It is the service's documented window.
const DefaultTolerance = 300 * time.Second

// DefaultMaxBodyBytes is the largest body a Verifier accepts unless
// WithMaxBodyBytes says otherwise: 1 MiB. The service documents no size
// limit; single events are a few KiB, and 1 MiB leaves room for bulk rollups
// listing thousands of entries while bounding what an unsigned request can
// make the receiver buffer.
const DefaultMaxBodyBytes = 1 << 20

// SecretPrefix starts every signing secret the service issues. NewVerifier
// refuses a secret without it unless WithUnprefixedSecret is given.
const SecretPrefix = "whsec_"

// A Verifier checks the signature of webhook deliveries. Create one with
// NewVerifier at start-up and share it: it is immutable and safe for
// concurrent use.
type Verifier struct {
	macs      []func() hash.Hash // one keyed HMAC per distinct secret
	tolerance time.Duration
	maxBody   int64
	now       func() time.Time
}

// An Option configures a Verifier in NewVerifier.
type Option func(*config) error

type config struct {
	secrets    []string
	unprefixed bool
	tolerance  time.Duration
	maxBody    int64
	now        func() time.Time
}

// WithSecrets adds secrets a delivery may be signed with, next to the one
// given to NewVerifier. Use it while rotating: regenerate the secret in the
// dashboard, deploy with the new secret and the old one, then drop the old
// one. A delivery verifies if any secret matches.
func WithSecrets(more ...string) Option {
	return func(c *config) error {
		c.secrets = append(c.secrets, more...)
		return nil
	}
}

// WithUnprefixedSecret lets NewVerifier accept secrets without the
// SecretPrefix. The service's secrets all carry it, so without this option a
// missing prefix is refused as the likely sign of a wrong value pasted (an
// API key, the webhook's id); use it for secrets of another sender, such as
// a test fake that makes up its own.
func WithUnprefixedSecret() Option {
	return func(c *config) error {
		c.unprefixed = true
		return nil
	}
}

// WithTolerance sets how far the signed timestamp may be from now, in either
// direction (default DefaultTolerance). It must be positive: there is no way
// to turn the replay check off. To verify a delivery later, from a queue,
// verify it on receipt, or pass the receipt time with WithClock.
func WithTolerance(d time.Duration) Option {
	return func(c *config) error {
		if d <= 0 {
			return fmt.Errorf("%w: tolerance %v is not positive", ErrInvalidOption, d)
		}
		c.tolerance = d
		return nil
	}
}

// WithClock sets the function the Verifier reads the current time from
// (default time.Now). Tests use it to fix the time.
func WithClock(now func() time.Time) Option {
	return func(c *config) error {
		if now == nil {
			return fmt.Errorf("%w: nil clock", ErrInvalidOption)
		}
		c.now = now
		return nil
	}
}

// WithMaxBodyBytes sets the largest body accepted, in bytes (default
// DefaultMaxBodyBytes). Longer bodies fail with ErrBodyTooLarge.
func WithMaxBodyBytes(n int64) Option {
	return func(c *config) error {
		if n <= 0 || n == math.MaxInt64 {
			return fmt.Errorf("%w: body limit %d out of range", ErrInvalidOption, n)
		}
		c.maxBody = n
		return nil
	}
}

// NewVerifier returns a Verifier for deliveries signed with secret, the
// webhook's signing secret exactly as the dashboard shows it (whsec_ prefix
// included). Each secret, here or in WithSecrets, is checked: an empty one
// fails with ErrEmptySecret; one with white space around it, or without the
// SecretPrefix (unless WithUnprefixedSecret), fails with ErrInvalidSecret,
// because every delivery would then fail as a signature mismatch. An
// out-of-range option fails with ErrInvalidOption.
func NewVerifier(secret string, opts ...Option) (*Verifier, error) {
	c := config{
		secrets:   []string{secret},
		tolerance: DefaultTolerance,
		maxBody:   DefaultMaxBodyBytes,
		now:       time.Now,
	}
	for _, opt := range opts {
		if err := opt(&c); err != nil {
			return nil, err
		}
	}
	v := &Verifier{tolerance: c.tolerance, maxBody: c.maxBody, now: c.now}
	for i, s := range c.secrets {
		if err := checkSecret(s, c.unprefixed); err != nil {
			return nil, fmt.Errorf("%w (secret %d of %d)", err, i+1, len(c.secrets))
		}
		if slices.Contains(c.secrets[:i], s) {
			continue // the same key twice would only double the work
		}
		v.macs = append(v.macs, keyedMAC([]byte(s)))
	}
	return v, nil
}

// checkSecret says why s cannot be a signing secret, without quoting it.
func checkSecret(s string, unprefixed bool) error {
	switch {
	case s == "":
		return ErrEmptySecret
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("%w: it has white space around it (a trailing newline from a file or an environment variable?); trim it", ErrInvalidSecret)
	case !unprefixed && !strings.HasPrefix(s, SecretPrefix):
		return fmt.Errorf("%w: it does not start with %q as the service's signing secrets do, so it is probably another value (an API key, the webhook id); pass WithUnprefixedSecret if it is meant", ErrInvalidSecret, SecretPrefix)
	}
	return nil
}

// Verify checks header, the value of the SignatureHeader, against body, the
// raw request body exactly as received (not parsed and re-encoded). It
// returns nil if the timestamp is within tolerance and some v1 signature
// matches under some secret; otherwise one of ErrMissingHeader,
// ErrMalformedHeader, ErrNoSignature, ErrTimestampOutOfTolerance,
// ErrBodyTooLarge or ErrSignatureMismatch, possibly wrapped, or
// ErrEmptyBody when the signature does not match because body is empty. The timestamp is
// checked before any HMAC is computed, and signatures are compared in
// constant time.
func (v *Verifier) Verify(body []byte, header string) error {
	var h sigHeader
	if err := v.checkHeader(&h, header); err != nil {
		return err
	}
	return v.checkBody(&h, body)
}

// VerifyRequest reads r's body, at most the verifier's body limit, and
// verifies it against r's SignatureHeader. It returns the raw body for Parse
// when the delivery is genuine, and nil with Verify's errors otherwise. The
// header is checked before the body is read, so an unsigned or stale request
// costs no read. It does not close r.Body; net/http does.
func (v *Verifier) VerifyRequest(r *http.Request) ([]byte, error) {
	var h sigHeader
	if err := v.checkHeader(&h, r.Header.Get(SignatureHeader)); err != nil {
		return nil, err
	}
	body, err := v.readBody(r)
	if err != nil {
		return nil, err
	}
	if err := v.checkBody(&h, body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkHeader parses header into h and checks its timestamp.
func (v *Verifier) checkHeader(h *sigHeader, header string) error {
	if err := h.parse(header); err != nil {
		return err
	}
	// A t near MaxInt64 makes time.Unix wrap to the far past, and Sub
	// saturates: neither can land inside the window.
	skew := v.now().Sub(time.Unix(h.t, 0))
	if skew > v.tolerance {
		return fmt.Errorf("%w: signed %v ago, tolerance %v", ErrTimestampOutOfTolerance, skew, v.tolerance)
	}
	if skew < -v.tolerance {
		return fmt.Errorf("%w: signed %v in the future, tolerance %v", ErrTimestampOutOfTolerance, -skew, v.tolerance)
	}
	return nil
}

// checkBody checks body's size and looks for a v1 in h that matches it.
func (v *Verifier) checkBody(h *sigHeader, body []byte) error {
	if int64(len(body)) > v.maxBody {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrBodyTooLarge, len(body), v.maxBody)
	}
	for _, mac := range v.macs {
		if matches(mac(), h, body) {
			return nil
		}
	}
	if len(body) == 0 {
		return ErrEmptyBody // what was signed was not empty
	}
	return ErrSignatureMismatch
}

// keyedMAC returns a function that gives a fresh HMAC-SHA256 under key.
// It keys one HMAC now and resets it, so that crypto/hmac saves its keyed
// inner and outer states; each call clones it, which shares those states
// instead of hashing the padded key again. Where the HMAC cannot be cloned
// (a GOEXPERIMENT=boringcrypto build), each call keys a new one.
func keyedMAC(key []byte) func() hash.Hash {
	mac := hmac.New(sha256.New, key)
	mac.Reset()
	return func() hash.Hash {
		if c, ok := mac.(hash.Cloner); ok {
			if clone, err := c.Clone(); err == nil {
				return clone
			}
		}
		return hmac.New(sha256.New, key)
	}
}

// matches reports whether any v1 in h is mac's sum of "<t>.<body>", t being
// the digits exactly as sent. One buffer holds "<t>." and then the sum.
func matches(mac hash.Hash, h *sigHeader, body []byte) bool {
	buf := append(append(make([]byte, 0, sha256.Size), h.ts...), '.')
	mac.Write(buf)
	mac.Write(body)
	sum := mac.Sum(buf[:0])
	ok := false
	for i := range h.n {
		ok = hmac.Equal(sum, h.sigs[i][:]) || ok // no early exit: compare all
	}
	return ok
}

// readBody reads r's body up to the limit. The buffer grows as bytes
// arrive, so a request cannot make the receiver set aside the size it
// announces before it sends the bytes.
func (v *Verifier) readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength > v.maxBody {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", ErrBodyTooLarge, r.ContentLength, v.maxBody)
	}
	if r.Body == nil {
		return []byte{}, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, v.maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("webhook: reading body: %w", err)
	}
	if int64(len(body)) > v.maxBody {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrBodyTooLarge, v.maxBody)
	}
	return body, nil
}
