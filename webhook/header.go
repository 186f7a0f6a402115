package webhook

import (
	"crypto/sha256"
	"fmt"
	"strconv"
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
	if strings.TrimSpace(header) == "" {
		return ErrMissingHeader
	}
	seenT := false
	for rest := header; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Errorf("%w: component without '='", ErrMalformedHeader)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "t":
			if seenT {
				return fmt.Errorf("%w: more than one t", ErrMalformedHeader)
			}
			t, ok := parseUnix(val)
			if !ok {
				return fmt.Errorf("%w: t is not a non-negative integer", ErrMalformedHeader)
			}
			h.t, seenT = t, true
		case "v1":
			if h.n == maxSignatures {
				return fmt.Errorf("%w: more than %d v1 signatures", ErrMalformedHeader, maxSignatures)
			}
			if !decodeHex(h.sigs[h.n][:], val) {
				return fmt.Errorf("%w: v1 is not %d hex digits", ErrMalformedHeader, 2*sha256.Size)
			}
			h.n++
		}
	}
	if h.n == 0 {
		return ErrNoSignature
	}
	if !seenT {
		return fmt.Errorf("%w: no t", ErrMalformedHeader)
	}
	return nil
}

// parseUnix parses unix seconds: decimal digits only, no sign.
func parseUnix(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	t, err := strconv.ParseInt(s, 10, 64) // fails only on overflow here
	return t, err == nil
}

// decodeHex decodes s, upper or lower case, into dst, which it must fill
// exactly. Unlike encoding/hex it takes a string, so nothing is copied.
func decodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, ok1 := fromHex(s[2*i])
		lo, ok2 := fromHex(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func fromHex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
