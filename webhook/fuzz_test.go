package webhook

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Seed headers for the fuzzers: good, odd and broken.
var seedHeaders = []string{
	"t=1700000000,v1=" + strings.Repeat("ab", 32) + ",sha256=" + strings.Repeat("cd", 32),
	" v1 = " + strings.Repeat("AB", 32) + " , t = 1700000000 ",
	"t=1700000000,v1=" + strings.Repeat("0", 64) + ",v1=" + strings.Repeat("f", 64),
	"t=1,t=2,v1=00",
	"t=-5,v1=zz",
	"sha256=00",
	"t=99999999999999999999,v1=",
	",,,=,t,v1",
	"",
}

func FuzzParseHeader(f *testing.F) {
	for _, h := range seedHeaders {
		f.Add(h)
	}
	f.Fuzz(func(t *testing.T, header string) {
		var h sigHeader
		err := h.parse(header)
		if err == nil {
			if h.n < 1 || h.n > maxSignatures || h.t < 0 || len(header) > MaxHeaderBytes {
				t.Fatalf("accepted %q as %+v", header, h)
			}
			if got, ok := parseUnix(h.ts); !ok || got != h.t {
				t.Fatalf("t digits %q do not give %d", h.ts, h.t)
			}
			return
		}
		for _, sentinel := range []error{ErrMissingHeader, ErrMalformedHeader, ErrNoSignature} {
			if errors.Is(err, sentinel) {
				return
			}
		}
		t.Fatalf("parse(%q) = %v, not a header sentinel", header, err)
	})
}

func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{"id":"evt_1","eventType":"x.y","data":[]}`,
		`{"data":{},"id":"evt_1","eventType":"keys.created"}`,
		`{"id":"evt_1","eventType":"keys.created","data":{"keys":["a\u00e9"]}}`,
		`{"id":"evt_1","EventType":"keys.created","data":{"Keys":["a"]}}`,
		`{"id":"evt_1","eventType":"sync.completed","timestamp":-0,"data":{"duration":1e3}}`,
		`{"id":"evt_1","eventType":"content.entry.deleted","data":{"actor":null,"entry":{"status":null}}}`,
		`null`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := Parse(body)
		if err != nil {
			if !errors.Is(err, ErrInvalidPayload) {
				t.Fatalf("Parse error %v is not ErrInvalidPayload", err)
			}
			return
		}
		if ev.ID == "" || ev.Type == "" || ev.Data == nil || !json.Valid(body) {
			t.Fatalf("Parse accepted %q as %+v", body, ev)
		}
		// The fast path must agree with encoding/json whenever it answers.
		if fast, ok := parseFast(body); ok {
			slow, err := parseJSON(body)
			if err != nil {
				t.Fatalf("fast path accepted %q, encoding/json says %v", body, err)
			}
			if diff := cmp.Diff(slow, fast); diff != "" {
				t.Fatalf("fast path differs on %q (-encoding/json +fast):\n%s", body, diff)
			}
		}
	})
}

func FuzzVerify(f *testing.F) {
	for i, h := range seedHeaders {
		f.Add("whsec_test", int64(1700000000+i), []byte(`{"id":"evt_1"}`), h)
	}
	f.Add("x", int64(0), []byte{}, "")
	f.Add("k\x00\xff", int64(1<<40), []byte("\x00\r\n"), "t=0,v1=")
	f.Fuzz(func(t *testing.T, secret string, unix int64, body []byte, header string) {
		if secret == "" {
			if _, err := NewVerifier(secret); !errors.Is(err, ErrEmptySecret) {
				t.Fatalf("NewVerifier(\"\") = %v", err)
			}
			return
		}
		if strings.TrimSpace(secret) != secret {
			if _, err := NewVerifier(secret, WithUnprefixedSecret()); !errors.Is(err, ErrInvalidSecret) {
				t.Fatalf("NewVerifier(%q) = %v, want ErrInvalidSecret", secret, err)
			}
			return
		}
		// Any time a delivery can carry: from 1970 to year 9999.
		unix = max(unix, -unix) % 253402300800
		if unix < 0 {
			unix = 0
		}
		at := time.Unix(unix, 0)
		v, err := NewVerifier(secret, WithClock(func() time.Time { return at }), WithUnprefixedSecret())
		if err != nil {
			t.Fatal(err)
		}
		_ = v.Verify(body, header) // must not panic
		signed := Sign(secret, at, body)
		if len(body) == 0 {
			if err := v.Verify(body, signed); !errors.Is(err, ErrEmptyBody) {
				t.Fatalf("Verify(empty body) = %v, want ErrEmptyBody", err)
			}
			return
		}
		if err := v.Verify(body, signed); err != nil {
			t.Fatalf("Verify(Sign) = %v for t=%d, %d-byte body", err, unix, len(body))
		}
		if _, err := v.ConstructEvent(body, signed); err != nil && !errors.Is(err, ErrInvalidPayload) {
			t.Fatalf("ConstructEvent(Sign) = %v", err)
		}
	})
}
