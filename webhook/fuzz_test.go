package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
			if got, err := strconv.ParseInt(h.ts, 10, 64); err != nil || got != h.t {
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
		`{"id":"evt_1","eventType":"keys.created","data":null,"eventType":"x.y"}`,
		`{"id":"evt_1","eventType":"x.y","eventType":"keys.deleted","data":{"keys":["a"]}}`,
		`{"id":"evt_1","data":{"keys":["a"]},"Data":{"org":"o"},"eventType":"keys.created"}`,
		`null`, `[]`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ev, err := Parse(body)
		// The single pass must agree with a plain two-pass decode, but for
		// a repeated data object, which it merges.
		if slow, slowErr := parseTwoPass(body); dataKeys(body) <= 1 {
			if (err == nil) != (slowErr == nil) {
				t.Fatalf("Parse error %v, two passes %v", err, slowErr)
			}
			if err == nil {
				if diff := cmp.Diff(slow, ev, cmpopts.IgnoreUnexported(Event{})); diff != "" {
					t.Fatalf("Parse differs from two passes (-two +one):\n%s", diff)
				}
				if !bytes.Equal(ev.RawData(), slow.RawData()) {
					t.Fatalf("RawData %q, two passes %q", ev.RawData(), slow.RawData())
				}
			}
		}
		if err != nil {
			if !errors.Is(err, ErrInvalidPayload) {
				t.Fatalf("Parse error %v is not ErrInvalidPayload", err)
			}
			return
		}
		if ev.ID == "" || ev.Type == "" || ev.Data == nil || !json.Valid(body) {
			t.Fatalf("Parse accepted %q as %+v", body, ev)
		}
		// Parse must agree with a plain decode into map[string]any on
		// every field both see.
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			var ute *json.UnmarshalTypeError
			if errors.As(err, &ute) && strings.HasPrefix(ute.Value, "number") {
				return // valid JSON (1e700) a map[string]any cannot hold: nothing to compare
			}
			t.Fatalf("Parse accepted %q, json.Unmarshal into a map says %v", body, err)
		}
		for key, got := range map[string]string{"id": ev.ID, "eventType": string(ev.Type), "webhookConfigId": ev.WebhookConfigID} {
			if v, ok := m[key].(string); ok && foldUnique(m, key) && v != got {
				t.Fatalf("Parse gave %s %q, the map %q", key, got, v)
			}
		}
		if ms, ok := m["timestamp"].(float64); ok && foldUnique(m, "timestamp") && ms == math.Trunc(ms) && math.Abs(ms) < 1<<53 &&
			ev.Timestamp.UnixMilli() != int64(ms) {
			t.Fatalf("Parse gave timestamp %v, the map %v ms", ev.Timestamp, ms)
		}
		data, sent := m["data"]
		if !foldUnique(m, "data") {
			return // encoding/json took the last of several spellings of data
		}
		var raw any
		rawData := ev.RawData()
		if len(rawData) > 0 {
			if err := json.Unmarshal(rawData, &raw); err != nil {
				t.Fatalf("RawData %q: %v", rawData, err)
			}
		}
		if sent && !reflect.DeepEqual(raw, data) {
			t.Fatalf("RawData %s, the map's data %v", rawData, data)
		}
		if _, unknown := ev.Data.(*UnknownData); unknown || data == nil {
			return
		}
		typed, err := json.Marshal(ev.Data)
		if err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(typed, &back); err != nil {
			t.Fatal(err)
		}
		if path, ok := agree(data, back); !ok {
			t.Fatalf("typed %s disagrees with the map at %s on %q", ev.Type, path, body)
		}
	})
}

// parseTwoPass is the plain decode FuzzParse holds Parse to: the envelope
// with data kept as raw JSON, then the data into the struct of the type.
func parseTwoPass(body []byte) (*Event, error) {
	var env struct {
		ID              string          `json:"id"`
		WebhookConfigID string          `json:"webhookConfigId"`
		EventType       EventType       `json:"eventType"`
		Timestamp       json.Number     `json:"timestamp"`
		CreatedAt       string          `json:"createdAt"`
		Version         json.RawMessage `json:"version"`
		Data            json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, err
	}
	if env.ID == "" || env.EventType == "" {
		return nil, errors.New("no id or no eventType")
	}
	ev := &Event{ID: env.ID, WebhookConfigID: env.WebhookConfigID, Type: env.EventType, raw: env.Data}
	if json.Unmarshal(env.Version, &ev.Version) != nil {
		ev.Version = string(env.Version)
	}
	var err error
	if ev.Timestamp, err = unixMillis(env.Timestamp); err != nil {
		return nil, err
	}
	if env.CreatedAt != "" {
		if ev.CreatedAt, err = time.Parse(time.RFC3339Nano, env.CreatedAt); err != nil {
			return nil, err
		}
	}
	if ev.Data = newData(ev.Type); ev.Data == nil {
		ev.Data = &UnknownData{Raw: env.Data}
	} else if len(env.Data) > 0 {
		if err := json.Unmarshal(env.Data, ev.Data); err != nil {
			return nil, err
		}
	}
	return ev, nil
}

// agree reports whether typed, a data struct encoded and decoded into a map,
// says the same as sent, the data decoded into a map, on every key both
// have: equal values, the same instant for times written differently, and
// a zero value where null was sent into a field that cannot hold null.
func agree(sent, typed any) (string, bool) {
	switch s := sent.(type) {
	case nil:
		switch t := typed.(type) {
		case nil, bool, float64:
			return "", t == nil || t == false || t == 0.0
		case string:
			return "", t == "" || t == "0001-01-01T00:00:00Z"
		case map[string]any: // a struct left zero
			return "", true
		}
		return "", false
	case map[string]any:
		t, ok := typed.(map[string]any)
		if !ok {
			return "", false
		}
		for k, v := range s {
			tv, ok := t[k]
			if !ok || !foldUnique(s, k) {
				continue // a field the struct does not have, or spelled twice
			}
			if path, ok := agree(v, tv); !ok {
				return "." + k + path, false
			}
		}
		return "", true
	case []any:
		t, ok := typed.([]any)
		if !ok || len(t) != len(s) {
			return "", false
		}
		for i := range s {
			if path, ok := agree(s[i], t[i]); !ok {
				return fmt.Sprintf("[%d]%s", i, path), false
			}
		}
		return "", true
	case string:
		t, ok := typed.(string)
		if !ok {
			return "", false
		}
		if t == s {
			return "", true
		}
		st, err1 := time.Parse(time.RFC3339Nano, s)
		tt, err2 := time.Parse(time.RFC3339Nano, t)
		return "", err1 == nil && err2 == nil && st.Equal(tt)
	}
	return "", reflect.DeepEqual(sent, typed)
}

// dataKeys counts the members of body's top-level object named data in
// any case, or returns 0 if body is not a JSON object.
func dataKeys(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0
	}
	n := 0
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return n
		}
		if k, _ := key.(string); strings.EqualFold(k, "data") {
			n++
		}
		if err := dec.Decode(new(json.RawMessage)); err != nil {
			return n
		}
	}
	return n
}

// foldUnique reports whether no other key of m equals key but for case:
// encoding/json matches keys without regard to case, and the last of
// several spellings wins.
func foldUnique(m map[string]any, key string) bool {
	for k := range m {
		if k != key && strings.EqualFold(k, key) {
			return false
		}
	}
	return true
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
		if err := v.Verify(body, signed); err != nil {
			t.Fatalf("Verify(Sign) = %v for t=%d, %d-byte body", err, unix, len(body))
		}
		if _, err := v.ConstructEvent(body, signed); err != nil && !errors.Is(err, ErrInvalidPayload) {
			t.Fatalf("ConstructEvent(Sign) = %v", err)
		}
	})
}
