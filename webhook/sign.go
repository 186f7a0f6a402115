package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// Header names the service sets on every delivery. Only SignatureHeader is
// read by this package: EventHeader and IDHeader are not signed, so the
// event type and id are always taken from the signed body instead.
const (
	SignatureHeader = "X-Service-Signature"
	EventHeader     = "X-Service-Event"
	IDHeader        = "X-Service-Id"
)

// Sign returns the signature header value the service sends for body signed
// with secret at time t: "t=<unix seconds>,v1=<hex>,sha256=<hex>", where v1
// is the lowercase hex HMAC-SHA256 of "<unix seconds>.<body>" and sha256 the
// legacy HMAC-SHA256 of the body alone.
//
// Receivers do not need Sign; it is for tests and for fake services such as
// partnertest. The secret is used as given, whsec_ prefix included.
func Sign(secret string, t time.Time, body []byte) string {
	ts := strconv.FormatInt(t.Unix(), 10)

	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write([]byte{'.'})
	mac.Write(body)
	v1 := hex.EncodeToString(mac.Sum(nil))

	mac = hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	legacy := hex.EncodeToString(mac.Sum(nil))

	return "t=" + ts + ",v1=" + v1 + ",sha256=" + legacy
}
