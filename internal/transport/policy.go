package transport

import (
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"time"

	"github.com/locsvc/partner-go/internal/apierr"
)

// policy is the SDK's retry policy: a failure before the request was
// sent, 429 and 503 are retried for every method; other network errors,
// timeouts and 5xx only for requests that may run twice (GET, HEAD, a
// read-only tool); 4xx never. A Retry-After is waited for, unless it is
// longer than retryAfterMax: then the answer is reported instead.
type policy struct {
	retryMax         int
	waitMin, waitMax time.Duration
	retryAfterMax    time.Duration
}

// retry is the decision for one attempt's outcome: status and header of
// the answer, or err when there was none.
func (p policy) retry(idempotent bool, status int, header http.Header, err error) bool {
	if err != nil {
		var te *tokenError
		var re *RedirectError
		if errors.As(err, &te) || errors.As(err, &re) || errors.Is(err, errTooLarge) || errors.Is(err, apierr.ErrInvalidArgument) {
			return false
		}
		return idempotent || notSent(err)
	}
	switch status {
	case http.StatusTooManyRequests, http.StatusServiceUnavailable:
		d, ok := apierr.RetryAfter(status, header)
		return !ok || d <= p.retryAfterMax
	case http.StatusInternalServerError, http.StatusBadGateway, http.StatusGatewayTimeout:
		return idempotent
	}
	return false
}

// backoff waits for Retry-After when the answer had one, else an
// exponential delay with jitter in [d/2, d].
func (p policy) backoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := apierr.RetryAfter(resp.StatusCode, resp.Header); ok {
			return d // retry refused anything over the cap
		}
	}
	d := hi
	if attempt < 30 && lo<<attempt < hi {
		d = lo << attempt
	}
	return d/2 + rand.N(d/2+1)
}

// notSent reports whether err proves the request never left: the
// connection could not be made.
func notSent(err error) bool {
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return true
	}
	var dns *net.DNSError
	return errors.As(err, &dns)
}
