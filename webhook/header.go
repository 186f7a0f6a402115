package webhook

import (
	"crypto/sha256"
	"encoding/hex"
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
	seenT := false
	for part := range strings.SplitSeq(header, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		if !ok {
			return fmt.Errorf("%w: component without '='", ErrMalformedHeader)
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "t":
			if seenT {
				return fmt.Errorf("%w: more than one t", ErrMalformedHeader)
			}
			// Unsigned, so no sign is accepted; 63 bits, so it fits int64.
			t, err := strconv.ParseUint(val, 10, 63)
			if err != nil {
				return fmt.Errorf("%w: t is not a non-negative integer", ErrMalformedHeader)
			}
			h.t, h.ts, seenT = int64(t), val, true
		case "v1":
			if h.n == maxSignatures {
				return fmt.Errorf("%w: more than %d v1 signatures", ErrMalformedHeader, maxSignatures)
			}
			if len(val) != hex.EncodedLen(sha256.Size) { // else hex.Decode would overrun sigs[h.n]
				return fmt.Errorf("%w: v1 is not %d hex digits", ErrMalformedHeader, hex.EncodedLen(sha256.Size))
			}
			if _, err := hex.Decode(h.sigs[h.n][:], []byte(val)); err != nil {
				return fmt.Errorf("%w: v1 is not hex", ErrMalformedHeader)
			}
			h.n++
		}
	}
	if h.n == 0 {
		if strings.TrimSpace(header) == "" {
			return ErrMissingHeader
		}
		return ErrNoSignature
	}
	if !seenT {
		return fmt.Errorf("%w: no t", ErrMalformedHeader)
	}
	return nil
}
