package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultTolerance is how far a delivery's signed timestamp may be from the
// verifier's clock, in either direction, unless WithTolerance says
// otherwise: the service's documented window.
const DefaultTolerance = 300 * time.Second

// DefaultMaxBodyBytes is the largest body a Verifier accepts unless
// WithMaxBodyBytes says otherwise: 1 MiB. Single events are a few KiB; 1 MiB
// leaves room for bulk rollups listing thousands of entries while bounding
// what an unsigned request can make the receiver buffer.
const DefaultMaxBodyBytes = 1 << 20

// MaxHeaderBytes is the longest signature header a Verifier reads; a longer
// one fails with ErrMalformedHeader before it is scanned. The service's
// header is about 170 bytes.
const MaxHeaderBytes = 4096

// maxSignatures is how many v1 values one header may carry. The service
// sends one; a few leave room for its own secret rotation.
const maxSignatures = 8

// SecretPrefix starts every signing secret the service issues. NewVerifier
// refuses a secret without it unless WithUnprefixedSecret is given.
const SecretPrefix = "whsec_"

// Header names the service sets on every delivery. Only SignatureHeader is
// read by this package: EventHeader and IDHeader are not signed, so the
// event type and id are always taken from the signed body instead.
const (
	SignatureHeader = "X-Service-Signature"
	EventHeader     = "X-Service-Event"
	IDHeader        = "X-Service-Id"
)

// A Verifier checks the signature of webhook deliveries. Create one with
// NewVerifier at start-up and share it: it is immutable and safe for
// concurrent use.
type Verifier struct {
	macs      []*sync.Pool // of *keyedMAC, one pool per distinct secret
	tolerance time.Duration
	maxBody   int64
	now       func() time.Time
}

// An Option configures a Verifier in NewVerifier.
type Option func(*config) error

type config struct {
	Verifier
	secrets    []string
	unprefixed bool
}

// WithSecrets adds secrets a delivery may be signed with, next to the one
// given to NewVerifier; a delivery verifies if any matches. Use it while
// rotating: regenerate the secret in the dashboard, deploy with the new
// secret and the old one, then drop the old one.
func WithSecrets(more ...string) Option {
	return func(c *config) error {
		c.secrets = append(c.secrets, more...)
		return nil
	}
}

// WithUnprefixedSecret lets NewVerifier accept secrets without the
// SecretPrefix, such as those of a test fake that makes up its own. Without
// it a missing prefix is refused as the likely sign of a wrong value pasted
// (an API key, the webhook's id).
func WithUnprefixedSecret() Option {
	return func(c *config) error {
		c.unprefixed = true
		return nil
	}
}

// WithTolerance sets how far the signed timestamp may be from now, in either
// direction (default DefaultTolerance). It must be positive: the replay
// check cannot be turned off. To verify a delivery later, from a queue,
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
// included). Each secret, here or in WithSecrets, is checked, since a wrong
// one would fail every delivery as a signature mismatch: an empty one fails
// with ErrEmptySecret; one with white space around it, or without the
// SecretPrefix (unless WithUnprefixedSecret), with ErrInvalidSecret. An
// out-of-range option fails with ErrInvalidOption.
func NewVerifier(secret string, opts ...Option) (*Verifier, error) {
	c := config{
		Verifier: Verifier{tolerance: DefaultTolerance, maxBody: DefaultMaxBodyBytes, now: time.Now},
		secrets:  []string{secret},
	}
	for _, opt := range opts {
		if err := opt(&c); err != nil {
			return nil, err
		}
	}
	for i, s := range c.secrets {
		if err := checkSecret(s, c.unprefixed); err != nil {
			return nil, fmt.Errorf("%w (secret %d of %d)", err, i+1, len(c.secrets))
		}
		if !slices.Contains(c.secrets[:i], s) {
			key := []byte(s)
			c.macs = append(c.macs, &sync.Pool{New: func() any { return &keyedMAC{mac: hmac.New(sha256.New, key)} }})
		}
	}
	return &c.Verifier, nil
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

// keyedMAC is an HMAC-SHA256 keyed with one secret, with the buffer that
// holds "<t>." and then the sum: a buffer written through hash.Hash
// escapes, so it lives with the MAC, and both are reused. Reset after Sum
// puts the MAC back to its keyed state (crypto/hmac keeps it) without
// hashing the padded key again. Nothing in it outlives a Verify.
type keyedMAC struct {
	mac hash.Hash
	buf [sha256.Size]byte // holds "<t>." too: t has at most 19 digits
}

// Verify checks header, the value of the SignatureHeader, against body, the
// raw request body exactly as received (not parsed and re-encoded). It
// returns nil if the timestamp is within tolerance and some v1 signature
// matches under some secret; otherwise one of ErrMissingHeader,
// ErrMalformedHeader, ErrNoSignature, ErrTimestampOutOfTolerance,
// ErrBodyTooLarge or ErrSignatureMismatch, possibly wrapped, or ErrEmptyBody
// when the signature does not match because body is empty. The timestamp
// is checked before any HMAC is computed, and signatures are compared in
// constant time.
func (v *Verifier) Verify(body []byte, header string) error {
	h, err := v.checkHeader(header)
	if err != nil {
		return err
	}
	return v.checkBody(&h, body)
}

// VerifyRequest reads r's body, at most the verifier's body limit, and
// verifies it against r's SignatureHeader. It returns the raw body for Parse
// when the delivery is genuine, and nil with Verify's errors otherwise. The
// header is checked first, so an unsigned or stale request costs no read.
// It does not close r.Body; net/http does.
func (v *Verifier) VerifyRequest(r *http.Request) ([]byte, error) {
	h, err := v.checkHeader(r.Header.Get(SignatureHeader))
	if err != nil {
		return nil, err
	}
	if r.ContentLength > v.maxBody {
		return nil, fmt.Errorf("%w: Content-Length %d, limit %d", ErrBodyTooLarge, r.ContentLength, v.maxBody)
	}
	body := []byte{}
	if r.Body != nil {
		// The buffer grows as bytes arrive: an announced length reserves
		// nothing before its bytes come.
		if body, err = io.ReadAll(io.LimitReader(r.Body, v.maxBody+1)); err != nil {
			return nil, fmt.Errorf("webhook: reading body: %w", err)
		}
	}
	if err := v.checkBody(&h, body); err != nil {
		return nil, err
	}
	return body, nil
}

// checkHeader parses header and checks its timestamp.
func (v *Verifier) checkHeader(header string) (sigHeader, error) {
	var h sigHeader
	if err := h.parse(header); err != nil {
		return h, err
	}
	// A t near MaxInt64 makes time.Unix wrap to the far past, and Sub
	// saturates: neither can land inside the window.
	skew := v.now().Sub(time.Unix(h.t, 0))
	if skew > v.tolerance {
		return h, fmt.Errorf("%w: signed %v ago, tolerance %v", ErrTimestampOutOfTolerance, skew, v.tolerance)
	}
	if skew < -v.tolerance {
		return h, fmt.Errorf("%w: signed %v in the future, tolerance %v", ErrTimestampOutOfTolerance, -skew, v.tolerance)
	}
	return h, nil
}

// checkBody checks body's size and looks for a v1 in h that matches it.
func (v *Verifier) checkBody(h *sigHeader, body []byte) error {
	if int64(len(body)) > v.maxBody {
		return fmt.Errorf("%w: %d bytes, limit %d", ErrBodyTooLarge, len(body), v.maxBody)
	}
	for _, pool := range v.macs {
		k := pool.Get().(*keyedMAC)
		ok := h.matches(k, body)
		k.mac.Reset()
		pool.Put(k)
		if ok {
			return nil
		}
	}
	if len(body) == 0 {
		return ErrEmptyBody // what was signed was not empty
	}
	return ErrSignatureMismatch
}

// matches reports whether any v1 in h is k's sum of "<t>.<body>", t being
// the digits exactly as sent.
func (h *sigHeader) matches(k *keyedMAC, body []byte) bool {
	k.mac.Write(append(append(k.buf[:0], h.ts...), '.'))
	k.mac.Write(body)
	sum := k.mac.Sum(k.buf[:0])
	ok := false
	for _, sig := range h.sigs[:h.n] {
		ok = hmac.Equal(sum, sig[:]) || ok // no early exit: compare all
	}
	return ok
}

// sigHeader is a parsed signature header.
type sigHeader struct {
	t    int64
	ts   string // t's digits as sent, which is what was signed
	sigs [maxSignatures][sha256.Size]byte
	n    int // sigs[:n] are the decoded v1 values
}

// parse reads "t=<unix>,v1=<hex>[,v1=<hex>...][,sha256=<hex>]": components
// split on ',', each split on its first '=', white space around keys and
// values trimmed, empty components skipped. Every v1 is kept; sha256 and
// unknown keys are ignored. Exactly one t is required.
func (h *sigHeader) parse(header string) error {
	if len(header) > MaxHeaderBytes {
		return fmt.Errorf("%w: longer than %d bytes", ErrMalformedHeader, MaxHeaderBytes)
	}
	for part := range strings.SplitSeq(header, ",") {
		key, val, ok := strings.Cut(part, "=")
		val = strings.TrimSpace(val)
		switch key = strings.TrimSpace(key); {
		case !ok && key == "":
			continue
		case !ok:
			return fmt.Errorf("%w: component without '='", ErrMalformedHeader)
		case key == "t" && h.ts != "":
			return fmt.Errorf("%w: more than one t", ErrMalformedHeader)
		case key == "t":
			// Unsigned, so no sign is accepted; 63 bits, so it fits int64.
			t, err := strconv.ParseUint(val, 10, 63)
			if err != nil {
				return fmt.Errorf("%w: t is not a non-negative integer", ErrMalformedHeader)
			}
			h.t, h.ts = int64(t), val
		case key == "v1" && h.n == maxSignatures:
			return fmt.Errorf("%w: more than %d v1 signatures", ErrMalformedHeader, maxSignatures)
		case key == "v1":
			if len(val) != 2*sha256.Size { // else hex.Decode would overrun sigs[h.n]
				return fmt.Errorf("%w: v1 is not %d hex digits", ErrMalformedHeader, 2*sha256.Size)
			}
			if _, err := hex.Decode(h.sigs[h.n][:], []byte(val)); err != nil {
				return fmt.Errorf("%w: v1 is not hex", ErrMalformedHeader)
			}
			h.n++
		}
	}
	switch {
	case h.n > 0 && h.ts == "":
		return fmt.Errorf("%w: no t", ErrMalformedHeader)
	case h.n > 0:
		return nil
	case strings.TrimSpace(header) == "":
		return ErrMissingHeader
	}
	return ErrNoSignature
}

// Sign returns the signature header value the service sends for body signed
// with secret at time t: "t=<unix seconds>,v1=<hex>,sha256=<hex>", where v1
// is the lowercase hex HMAC-SHA256 of "<unix seconds>.<body>" and sha256 the
// legacy HMAC-SHA256 of the body alone.
//
// Receivers do not need Sign; it is for tests and for fake services such as
// partnertest. The secret is used as given, whsec_ prefix included.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	v1 := hmac.New(sha256.New, []byte(secret))
	v1.Write([]byte(ts + "."))
	v1.Write(body)
	legacy := hmac.New(sha256.New, []byte(secret))
	legacy.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(v1.Sum(nil)) + ",sha256=" + hex.EncodeToString(legacy.Sum(nil))
}
