package webhook

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

const testSecret = "whsec_test_secret"

var testBody = []byte(`{"id":"evt_1","webhookConfigId":"wh_1","eventType":"keys.created","timestamp":1700000000000,"createdAt":"2023-11-14T22:13:20.000Z","version":"1","data":{"org":"acme","project":"web","keys":["a"],"namespace":"default"}}`)

// testNow is the fixed clock of most tests.
var testNow = time.Unix(1700000000, 0)

func fixedClock(t time.Time) Option {
	return WithClock(func() time.Time { return t })
}

func newTestVerifier(t testing.TB, opts ...Option) *Verifier {
	t.Helper()
	v, err := NewVerifier(testSecret, append([]Option{fixedClock(testNow)}, opts...)...)
	if err != nil {
		t.Fatalf("NewVerifier: %v", err)
	}
	return v
}

// TestVectors checks Sign and Verify against signatures computed by openssl
// (see testdata/vectors.sh, which produced testdata/vectors.txt).
func TestVectors(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		var secret, file, v1, legacy string
		var unix int64
		if _, err := fmt.Sscan(line, &secret, &unix, &file, &v1, &legacy); err != nil {
			t.Fatalf("vectors.txt: %q: %v", line, err)
		}
		body, err := os.ReadFile(filepath.Join("testdata", "vectors", file))
		if err != nil {
			t.Fatal(err)
		}
		n++
		t.Run(file+"/"+secret[:min(len(secret), 12)], func(t *testing.T) {
			want := fmt.Sprintf("t=%d,v1=%s,sha256=%s", unix, v1, legacy)
			if got := Sign(secret, time.Unix(unix, 0), body); got != want {
				t.Errorf("Sign = %q, want %q", got, want)
			}
			v, err := NewVerifier(secret, fixedClock(time.Unix(unix, 0)), WithUnprefixedSecret()) // one vector's secret is "x"
			if err != nil {
				t.Fatal(err)
			}
			if err := v.Verify(body, want); err != nil {
				t.Errorf("Verify(openssl header) = %v", err)
			}
			if err := v.Verify(body, fmt.Sprintf("t=%d,v1=%s", unix, strings.ToUpper(v1))); err != nil {
				t.Errorf("Verify(uppercase v1) = %v", err)
			}
		})
	}
	if n < 3 {
		t.Fatalf("only %d vectors in testdata/vectors.txt", n)
	}
}

func TestVerifyBadInput(t *testing.T) {
	header := Sign(testSecret, testNow, testBody)
	_, v1, _ := strings.Cut(header, ",v1=")
	v1, legacy, _ := strings.Cut(v1, ",sha256=")
	ts := fmt.Sprint(testNow.Unix())
	reencoded := bytes.ReplaceAll(testBody, []byte(`":`), []byte(`": `))

	tests := []struct {
		name   string
		body   []byte
		header string
		want   error
	}{
		{"no header", testBody, "", ErrMissingHeader},
		{"blank header", testBody, "  ", ErrMissingHeader},
		{"only sha256", testBody, "sha256=" + legacy, ErrNoSignature},
		{"t and sha256", testBody, "t=" + ts + ",sha256=" + legacy, ErrNoSignature},
		{"t missing", testBody, "v1=" + v1, ErrMalformedHeader},
		{"t duplicated", testBody, "t=" + ts + ",t=" + ts + ",v1=" + v1, ErrMalformedHeader},
		{"t not a number", testBody, "t=soon,v1=" + v1, ErrMalformedHeader},
		{"t empty", testBody, "t=,v1=" + v1, ErrMalformedHeader},
		{"t negative", testBody, "t=-" + ts + ",v1=" + v1, ErrMalformedHeader},
		{"t with plus", testBody, "t=+" + ts + ",v1=" + v1, ErrMalformedHeader},
		{"t fractional", testBody, "t=" + ts + ".5,v1=" + v1, ErrMalformedHeader},
		{"t overflows int64", testBody, "t=99999999999999999999,v1=" + v1, ErrMalformedHeader},
		{"t far future", testBody, "t=99999999999,v1=" + v1, ErrTimestampOutOfTolerance},
		{"t max int64", testBody, "t=9223372036854775807,v1=" + v1, ErrTimestampOutOfTolerance},
		{"t zero", testBody, "t=0,v1=" + v1, ErrTimestampOutOfTolerance},
		{"component without =", testBody, "t=" + ts + ",v1=" + v1 + ",garbage", ErrMalformedHeader},
		{"v1 not hex", testBody, "t=" + ts + ",v1=" + strings.Repeat("zz", 32), ErrMalformedHeader},
		{"v1 too short", testBody, "t=" + ts + ",v1=" + v1[:62], ErrMalformedHeader},
		{"v1 too long", testBody, "t=" + ts + ",v1=" + v1 + "00", ErrMalformedHeader},
		{"v1 empty", testBody, "t=" + ts + ",v1=", ErrMalformedHeader},
		{"too many v1", testBody, "t=" + ts + strings.Repeat(",v1="+v1, maxSignatures+1), ErrMalformedHeader},
		{"100 KB header", testBody, "t=" + ts + ",v1=" + v1 + "," + strings.Repeat("x", 100_000), ErrMalformedHeader},
		{"tampered body", bytes.Replace(testBody, []byte(`"a"`), []byte(`"b"`), 1), header, ErrSignatureMismatch},
		{"other secret", testBody, Sign("whsec_other", testNow, testBody), ErrSignatureMismatch},
		{"re-encoded body", reencoded, header, ErrSignatureMismatch},
		{"empty body", nil, header, ErrEmptyBody},
		{"301 s old", testBody, Sign(testSecret, testNow.Add(-301*time.Second), testBody), ErrTimestampOutOfTolerance},
		{"301 s ahead", testBody, Sign(testSecret, testNow.Add(301*time.Second), testBody), ErrTimestampOutOfTolerance},
		{"body over limit", bytes.Repeat([]byte{' '}, DefaultMaxBodyBytes+1), Sign(testSecret, testNow, bytes.Repeat([]byte{' '}, DefaultMaxBodyBytes+1)), ErrBodyTooLarge},
	}
	v := newTestVerifier(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := v.Verify(tt.body, tt.header)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
			if msg := err.Error(); strings.Contains(msg, testSecret) || strings.Contains(msg, v1) {
				t.Errorf("error %q leaks the secret or the signature", msg)
			}
			if _, err := v.ConstructEvent(tt.body, tt.header); !errors.Is(err, tt.want) {
				t.Errorf("ConstructEvent = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyAccepts(t *testing.T) {
	header := Sign(testSecret, testNow, testBody)
	ts, v1 := fmt.Sprint(testNow.Unix()), header[len("t=1700000000,v1="):][:64]
	other := Sign("whsec_other", testNow, testBody)[len("t=1700000000,v1="):][:64]
	tests := []struct {
		name   string
		header string
	}{
		{"as signed", header},
		{"without legacy sha256", "t=" + ts + ",v1=" + v1},
		{"uppercase v1", "t=" + ts + ",v1=" + strings.ToUpper(v1)},
		{"reordered and spaced", " v1 = " + v1 + " , sha256=whatever, t = " + ts + " "},
		{"unknown keys and empty parts", "t=" + ts + ",,v0=abc,v2=," + "v1=" + v1 + ",x=y=z,"},
		{"several v1, last valid", "t=" + ts + ",v1=" + other + ",v1=" + other + ",v1=" + v1},
		{"several v1, first valid", "t=" + ts + ",v1=" + v1 + ",v1=" + other},
		{"maximum v1 count", "t=" + ts + strings.Repeat(",v1="+other, maxSignatures-1) + ",v1=" + v1},
		{"300 s old", Sign(testSecret, testNow.Add(-300*time.Second), testBody)},
		{"300 s ahead", Sign(testSecret, testNow.Add(300*time.Second), testBody)},
	}
	v := newTestVerifier(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := v.Verify(testBody, tt.header); err != nil {
				t.Fatalf("Verify(%q) = %v", tt.header, err)
			}
		})
	}
}

func TestVerifyRotation(t *testing.T) {
	const oldSecret, newSecret = "whsec_old", "whsec_new"
	v, err := NewVerifier(newSecret, WithSecrets(oldSecret), fixedClock(testNow))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{oldSecret, newSecret} {
		if err := v.Verify(testBody, Sign(s, testNow, testBody)); err != nil {
			t.Errorf("signed with %s: %v", s, err)
		}
	}
	if err := v.Verify(testBody, Sign("whsec_neither", testNow, testBody)); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("signed with another secret: %v, want ErrSignatureMismatch", err)
	}

	// After rotation the old secret is dropped and refused.
	v, err = NewVerifier(newSecret, fixedClock(testNow))
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Verify(testBody, Sign(oldSecret, testNow, testBody)); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("old secret after rotation: %v, want ErrSignatureMismatch", err)
	}
}

func TestNewVerifierErrors(t *testing.T) {
	tests := []struct {
		name   string
		secret string
		opts   []Option
		want   error
	}{
		{"empty secret", "", nil, ErrEmptySecret},
		{"empty extra secret", "whsec_s", []Option{WithSecrets("whsec_old", "")}, ErrEmptySecret},
		{"zero tolerance", "whsec_s", []Option{WithTolerance(0)}, ErrInvalidOption},
		{"negative tolerance", "whsec_s", []Option{WithTolerance(-time.Second)}, ErrInvalidOption},
		{"nil clock", "whsec_s", []Option{WithClock(nil)}, ErrInvalidOption},
		{"zero body limit", "whsec_s", []Option{WithMaxBodyBytes(0)}, ErrInvalidOption},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVerifier(tt.secret, tt.opts...)
			if !errors.Is(err, tt.want) || v != nil {
				t.Fatalf("NewVerifier = %v, %v; want nil, %v", v, err, tt.want)
			}
		})
	}
}

// TestNewVerifierSecrets shows the secrets NewVerifier refuses because
// every delivery would then fail as a signature mismatch, and that the
// error says why without quoting the secret.
func TestNewVerifierSecrets(t *testing.T) {
	const good = "whsec_Zq81ha0P"
	tests := []struct {
		name   string
		secret string
		opts   []Option
		want   error  // nil: accepted
		reason string // in the message
	}{
		{"as shown", good, nil, nil, ""},
		{"trailing newline", good + "\n", nil, ErrInvalidSecret, "white space"},
		{"trailing CRLF", good + "\r\n", nil, ErrInvalidSecret, "white space"},
		{"leading space", " " + good, nil, ErrInvalidSecret, "white space"},
		{"trailing tab", good + "\t", nil, ErrInvalidSecret, "white space"},
		{"no prefix", "Zq81ha0P", nil, ErrInvalidSecret, `does not start with "whsec_"`},
		{"prefix in other case", "WHSEC_Zq81ha0P", nil, ErrInvalidSecret, "WithUnprefixedSecret"},
		{"no prefix, opted in", "Zq81ha0P", []Option{WithUnprefixedSecret()}, nil, ""},
		{"white space, opted in", "Zq81ha0P\n", []Option{WithUnprefixedSecret()}, ErrInvalidSecret, "white space"},
		{"extra secret with newline", good, []Option{WithSecrets("whsec_old\n")}, ErrInvalidSecret, "secret 2 of 2"},
		{"extra secret without prefix", good, []Option{WithSecrets("old")}, ErrInvalidSecret, "secret 2 of 2"},
		{"extra secret without prefix, opted in", good, []Option{WithSecrets("old"), WithUnprefixedSecret()}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := NewVerifier(tt.secret, tt.opts...)
			if tt.want == nil {
				if err != nil || v == nil {
					t.Fatalf("NewVerifier = %v, %v; want a Verifier", v, err)
				}
				return
			}
			if !errors.Is(err, tt.want) || v != nil {
				t.Fatalf("NewVerifier = %v, %v; want nil, %v", v, err, tt.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.reason) {
				t.Errorf("error %q does not say %q", msg, tt.reason)
			}
			if strings.Contains(msg, "Zq81ha0P") || strings.Contains(msg, "old") {
				t.Errorf("error %q quotes the secret", msg)
			}
		})
	}
}

func TestVerifyOptions(t *testing.T) {
	old := Sign(testSecret, testNow.Add(-time.Hour), testBody)
	if err := newTestVerifier(t).Verify(testBody, old); !errors.Is(err, ErrTimestampOutOfTolerance) {
		t.Errorf("hour-old delivery, default tolerance: %v", err)
	}
	if err := newTestVerifier(t, WithTolerance(2*time.Hour)).Verify(testBody, old); err != nil {
		t.Errorf("hour-old delivery, 2h tolerance: %v", err)
	}
	if err := newTestVerifier(t, fixedClock(testNow.Add(-time.Hour))).Verify(testBody, old); err != nil {
		t.Errorf("hour-old delivery, clock at receipt: %v", err)
	}
	small := newTestVerifier(t, WithMaxBodyBytes(int64(len(testBody))))
	if err := small.Verify(testBody, Sign(testSecret, testNow, testBody)); err != nil {
		t.Errorf("body at the limit: %v", err)
	}
	long := append(testBody, ' ')
	if err := small.Verify(long, Sign(testSecret, testNow, long)); !errors.Is(err, ErrBodyTooLarge) {
		t.Errorf("body one over the limit: %v", err)
	}
}

func TestVerifyRequest(t *testing.T) {
	header := Sign(testSecret, testNow, testBody)
	v := newTestVerifier(t, WithMaxBodyBytes(int64(len(testBody))))
	newReq := func(body []byte, header string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/hooks", bytes.NewReader(body))
		if header != "" {
			r.Header.Set(SignatureHeader, header)
		}
		return r
	}

	got, err := v.VerifyRequest(newReq(testBody, header))
	if err != nil || !bytes.Equal(got, testBody) {
		t.Fatalf("VerifyRequest = %q, %v; want the body", got, err)
	}

	long := append(testBody, ' ')
	unknownLength := newReq(long, Sign(testSecret, testNow, long))
	unknownLength.ContentLength = -1 // chunked: caught while reading
	tests := []struct {
		name string
		req  *http.Request
		want error
	}{
		{"no header", newReq(testBody, ""), ErrMissingHeader},
		{"malformed header", newReq(testBody, "t=x"), ErrMalformedHeader},
		{"tampered", newReq(bytes.ToUpper(testBody), header), ErrSignatureMismatch},
		{"body read by a middleware", drained(newReq(testBody, header)), ErrEmptyBody},
		{"no body", newReq(nil, header), ErrEmptyBody},
		{"over limit by Content-Length", newReq(long, Sign(testSecret, testNow, long)), ErrBodyTooLarge},
		{"over limit while reading", unknownLength, ErrBodyTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, err := v.VerifyRequest(tt.req)
			if !errors.Is(err, tt.want) || body != nil {
				t.Fatalf("VerifyRequest = %q, %v; want nil, %v", body, err, tt.want)
			}
		})
	}
}

// drained reads r's body as a logging or parsing middleware might, leaving
// nothing for the handler.
func drained(r *http.Request) *http.Request {
	io.Copy(io.Discard, r.Body)
	return r
}

// TestVerifyConcurrent runs many verifications at once, under two secrets;
// with -race it shows a Verifier is safe to share.
func TestVerifyConcurrent(t *testing.T) {
	v, err := NewVerifier(testSecret, WithSecrets("whsec_old"), fixedClock(testNow))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			for j := range 50 {
				body := fmt.Appendf(nil, `{"n":%d}`, i*1000+j)
				secret := testSecret
				if j%2 == 1 {
					secret = "whsec_old"
				}
				if err := v.Verify(body, Sign(secret, testNow, body)); err != nil {
					t.Errorf("Verify: %v", err)
				}
				if err := v.Verify(body, Sign("whsec_bad", testNow, body)); !errors.Is(err, ErrSignatureMismatch) {
					t.Errorf("Verify(bad) = %v", err)
				}
			}
		})
	}
	wg.Wait()
}
