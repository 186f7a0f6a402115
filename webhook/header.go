package webhook

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"
)

// MaxHeaderBytes is the longest signature header a Verifier reads. A longer
// header is refused with ErrMalformedHeader before it is scanned. The
// service's header is about 170 bytes.
const MaxHeaderBytes = 4096

// maxSignatures is how many v1 values one header may carry. The service
// sends one; a few leave room for its own secret rotation.
const maxSignatures = 8

// sigHeader is a parsed signature header. It is a value type so that
// parsing and verifying allocate nothing.
type sigHeader struct {
	t    int64
	ts   string // t's digits as sent, which is what was signed
	sigs [maxSignatures][sha256.Size]byte
	n    int // sigs[:n] are the decoded v1 values
}

// parse reads "t=<unix>,v1=<hex>[,v1=<hex>...][,sha256=<hex>]": components
// split on ',', each split on its first '=', spaces around keys and values
// trimmed, empty components skipped. Every v1 is kept; sha256 and unknown
// keys are ignored. Exactly one t is required.
func (h *sigHeader) parse(header string) error {
	if len(header) > MaxHeaderBytes {
		return fmt.Errorf("%w: longer than %d bytes", ErrMalformedHeader, MaxHeaderBytes)
	}
	seenT := false
	for rest := header; rest != ""; {
		part := rest
		if i := strings.IndexByte(rest, ','); i >= 0 {
			part, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		part = trimSpaces(part)
		if part == "" {
			continue
		}
		key, val, ok := cutKey(part)
		if !ok {
			return fmt.Errorf("%w: component without '='", ErrMalformedHeader)
		}
		switch key {
		case "t":
			if seenT {
				return fmt.Errorf("%w: more than one t", ErrMalformedHeader)
			}
			t, ok := parseUnix(val)
			if !ok {
				return fmt.Errorf("%w: t is not a non-negative integer", ErrMalformedHeader)
			}
			h.t, h.ts, seenT = t, val, true
		case "v1":
			if h.n == maxSignatures {
				return fmt.Errorf("%w: more than %d v1 signatures", ErrMalformedHeader, maxSignatures)
			}
			if !decodeHex(&h.sigs[h.n], val) {
				return fmt.Errorf("%w: v1 is not %d hex digits", ErrMalformedHeader, 2*sha256.Size)
			}
			h.n++
		}
	}
	if h.n == 0 {
		if trimSpaces(header) == "" {
			return ErrMissingHeader
		}
		return ErrNoSignature
	}
	if !seenT {
		return fmt.Errorf("%w: no t", ErrMalformedHeader)
	}
	return nil
}

// cutKey splits a component on its first '=' and trims the halves. It
// looks at the first bytes before searching: the service's keys are short.
func cutKey(part string) (key, val string, ok bool) {
	eq := -1
	switch {
	case len(part) > 1 && part[1] == '=':
		eq = 1
	case len(part) > 2 && part[2] == '=':
		eq = 2
	default:
		eq = strings.IndexByte(part, '=')
	}
	if eq < 0 {
		return "", "", false
	}
	return trimSpaces(part[:eq]), trimSpaces(part[eq+1:]), true
}

// trimSpaces removes spaces and tabs around s.
func trimSpaces(s string) string {
	for s != "" && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

// parseUnix parses unix seconds: 1 to 19 decimal digits, no sign, at most
// math.MaxInt64.
func parseUnix(s string) (int64, bool) {
	if len(s) == 0 || len(s) > 19 {
		return 0, false
	}
	var t uint64 // 19 digits cannot overflow it
	for i := 0; i < len(s); i++ {
		d := s[i] - '0' // wraps around for bytes below '0'
		if d > 9 {
			return 0, false
		}
		t = t*10 + uint64(d)
	}
	return int64(t), t <= math.MaxInt64
}

// decodeHex decodes s, 64 hex digits in upper or lower case, into dst.
// Unlike encoding/hex it takes a string, so nothing is copied.
func decodeHex(dst *[sha256.Size]byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	var bad byte // the OR of every digit's value
	for i := 0; i < len(dst); i += 2 {
		// Two bytes a turn: the lookups of one do not wait for the other's,
		// which makes this about 1.6x faster than a byte a turn.
		a, b, c, d := hexValue[s[2*i]], hexValue[s[2*i+1]], hexValue[s[2*i+2]], hexValue[s[2*i+3]]
		bad |= a | b | c | d
		dst[i], dst[i+1] = a<<4|b, c<<4|d
	}
	return bad <= 0x0f // 0xff from an invalid digit sets the high bits
}

// hexValue maps a byte to its value as a hex digit, or to 0xff.
const hexValue = "" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff" +
	"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
