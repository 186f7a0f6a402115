package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkVerify compares Verify of a header with t, v1 and sha256 with
// its floor, the HMAC it cannot avoid: one hmac keyed once, Reset, write
// "<t>." and the body, Sum into a reused buffer. Target: verifier <= 1.5x
// floor at 1 KiB.
func BenchmarkVerify(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10} {
		body := make([]byte, size)
		for i := range body {
			body[i] = 'a' + byte(i%26)
		}
		header := Sign(testSecret, testNow, body)
		b.Run(strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
			b.Run("floor", func(b *testing.B) {
				mac := hmac.New(sha256.New, []byte(testSecret))
				prefix := []byte(strconv.FormatInt(testNow.Unix(), 10) + ".")
				sum := make([]byte, 0, sha256.Size)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					mac.Reset()
					mac.Write(prefix)
					mac.Write(body)
					sum = mac.Sum(sum[:0])
				}
			})
			b.Run("verifier", func(b *testing.B) {
				v := newTestVerifier(b)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if err := v.Verify(body, header); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkParse decodes a 1 KiB content.entry.published delivery into the
// typed Event (typed), next to a plain json.Unmarshal into map[string]any
// (map), the baseline. Target: typed no slower than map. typed+RawData
// also asks for the data as sent, which Parse does not keep.
func BenchmarkParse(b *testing.B) {
	body := readGolden(b, EventEntryPublished)
	b.Run("typed", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("typed+RawData", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			ev, err := Parse(body)
			if err != nil {
				b.Fatal(err)
			}
			if len(ev.RawData()) == 0 {
				b.Fatal("no RawData")
			}
		}
	})
	b.Run("map", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkHandler sends a signed 1 KiB delivery over loopback, through a
// keep-alive client, to NewHandler (handler) and to two baselines: a bare
// handler that only reads the body and answers 200 (bare), and a careful
// receiver written with the standard library alone (stdlib): a capped read,
// the header split on ',' and '=', the timestamp checked, hmac.Equal on
// the decoded v1, encoding/json into a typed struct with the fields Event
// has. Target: handler no slower than stdlib.
func BenchmarkHandler(b *testing.B) {
	body := readGolden(b, EventEntryPublished)
	header := Sign(testSecret, testNow, body)
	handlers := map[string]http.Handler{
		"bare": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if _, err := io.Copy(io.Discard, r.Body); err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			w.WriteHeader(http.StatusOK)
		}),
		"stdlib":  http.HandlerFunc(stdlibReceiver),
		"handler": NewHandler(newTestVerifier(b), func(context.Context, *Event) error { return nil }),
	}
	for _, name := range []string{"bare", "stdlib", "handler"} {
		b.Run(name, func(b *testing.B) {
			srv := httptest.NewServer(handlers[name])
			defer srv.Close()
			client := srv.Client()
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
				if err != nil {
					b.Fatal(err)
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(SignatureHeader, header)
				resp, err := client.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					b.Fatalf("status %d", resp.StatusCode)
				}
			}
		})
	}
}

// stdlibReceiver is BenchmarkHandler's careful standard-library baseline
// for the golden content.entry.published delivery.
func stdlibReceiver(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, DefaultMaxBodyBytes))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	var ts string
	var sigs []string
	for part := range strings.SplitSeq(r.Header.Get(SignatureHeader), ",") {
		key, val, _ := strings.Cut(part, "=")
		switch strings.TrimSpace(key) {
		case "t":
			ts = strings.TrimSpace(val)
		case "v1":
			sigs = append(sigs, strings.TrimSpace(val))
		}
	}
	unix, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || testNow.Sub(time.Unix(unix, 0)).Abs() > DefaultTolerance {
		http.Error(w, "bad timestamp", http.StatusUnauthorized)
		return
	}
	mac := hmac.New(sha256.New, []byte(testSecret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	sum := mac.Sum(nil)
	ok := false
	for _, s := range sigs {
		if sig, err := hex.DecodeString(s); err == nil && hmac.Equal(sig, sum) {
			ok = true
		}
	}
	if !ok {
		http.Error(w, "signature mismatch", http.StatusUnauthorized)
		return
	}
	var ev struct { // the envelope's fields, as Event has them
		ID              string         `json:"id"`
		WebhookConfigID string         `json:"webhookConfigId"`
		Type            string         `json:"eventType"`
		Timestamp       int64          `json:"timestamp"`
		CreatedAt       time.Time      `json:"createdAt"`
		Version         string         `json:"version"`
		Data            EntryPublished `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" {
		http.Error(w, "invalid payload", http.StatusBadRequest)
		return
	}
	w.WriteHeader(http.StatusOK)
}
