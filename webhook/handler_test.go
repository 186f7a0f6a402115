package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// recorder is a callback that records the events it is given.
type recorder struct {
	mu     sync.Mutex
	events []*Event
	err    error // returned by the callback
}

func (rec *recorder) handle(_ context.Context, ev *Event) error {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	rec.events = append(rec.events, ev)
	return rec.err
}

func (rec *recorder) count() int {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return len(rec.events)
}

func delivery(method string, body []byte, header string) *http.Request {
	r := httptest.NewRequest(method, "/hooks", bytes.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	if header != "" {
		r.Header.Set(SignatureHeader, header)
	}
	return r
}

func serve(h http.Handler, r *http.Request) *httptest.ResponseRecorder {
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestHandlerStatus(t *testing.T) {
	body := readGolden(t, EventKeysCreated)
	signed := Sign(testSecret, testNow, body)
	notJSON := []byte("not json")
	long := bytes.Repeat([]byte{' '}, 2048)

	tests := []struct {
		name     string
		req      *http.Request
		fnErr    error
		want     int
		wantCall bool
	}{
		{"ok", delivery(http.MethodPost, body, signed), nil, http.StatusOK, true},
		{"callback error", delivery(http.MethodPost, body, signed), errors.New("db down: password=hunter2"), http.StatusInternalServerError, true},
		{"GET", delivery(http.MethodGet, nil, ""), nil, http.StatusMethodNotAllowed, false},
		{"PUT signed", delivery(http.MethodPut, body, signed), nil, http.StatusMethodNotAllowed, false},
		{"body over limit", delivery(http.MethodPost, long, Sign(testSecret, testNow, long)), nil, http.StatusRequestEntityTooLarge, false},
		{"malformed header", delivery(http.MethodPost, body, "t=now,v1=zz"), nil, http.StatusBadRequest, false},
		{"body read by a middleware", drained(delivery(http.MethodPost, body, signed)), nil, http.StatusBadRequest, false},
		{"signed non-JSON body", delivery(http.MethodPost, notJSON, Sign(testSecret, testNow, notJSON)), nil, http.StatusBadRequest, false},
		{"no header", delivery(http.MethodPost, body, ""), nil, http.StatusUnauthorized, false},
		{"only legacy sha256", delivery(http.MethodPost, body, "t=1700000000,sha256=00"), nil, http.StatusUnauthorized, false},
		{"other secret", delivery(http.MethodPost, body, Sign("whsec_other", testNow, body)), nil, http.StatusUnauthorized, false},
		{"tampered body", delivery(http.MethodPost, bytes.ToUpper(body), signed), nil, http.StatusUnauthorized, false},
		{"stale", delivery(http.MethodPost, body, Sign(testSecret, testNow.Add(-time.Hour), body)), nil, http.StatusUnauthorized, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{err: tt.fnErr}
			h := NewHandler(newTestVerifier(t, WithMaxBodyBytes(1024)), rec.handle)
			w := serve(h, tt.req)
			if w.Code != tt.want {
				t.Errorf("status %d, want %d (body %q)", w.Code, tt.want, w.Body)
			}
			if called := rec.count() == 1; called != tt.wantCall {
				t.Errorf("callback called: %v, want %v", called, tt.wantCall)
			}
			if tt.want == http.StatusMethodNotAllowed && w.Header().Get("Allow") != http.MethodPost {
				t.Errorf("Allow = %q, want POST", w.Header().Get("Allow"))
			}
			if strings.Contains(w.Body.String(), "hunter2") {
				t.Errorf("response %q leaks the callback's error", w.Body)
			}
		})
	}
}

// TestHandlerServer goes through a real HTTP server and client once.
func TestHandlerServer(t *testing.T) {
	rec := &recorder{}
	srv := httptest.NewServer(NewHandler(newTestVerifier(t), rec.handle))
	defer srv.Close()

	body := readGolden(t, EventTranslationsPublished)
	req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(SignatureHeader, Sign(testSecret, testNow, body))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || rec.count() != 1 {
		t.Fatalf("status %d, %d calls; want 200 and 1 call", resp.StatusCode, rec.count())
	}
	if _, ok := rec.events[0].Data.(*TranslationsPublished); !ok {
		t.Errorf("Data is %T, want *TranslationsPublished", rec.events[0].Data)
	}
}

// TestHandlerIgnoresUnsignedHeaders shows the event type and id come from
// the signed body, whatever X-Service-Event and X-Service-Id say.
func TestHandlerIgnoresUnsignedHeaders(t *testing.T) {
	rec := &recorder{}
	h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(nil))
	body := readGolden(t, EventKeysCreated)
	r := delivery(http.MethodPost, body, Sign(testSecret, testNow, body))
	r.Header.Set(EventHeader, string(EventKeysDeleted))
	r.Header.Set(IDHeader, "evt_forged")
	if w := serve(h, r); w.Code != http.StatusOK {
		t.Fatalf("status %d", w.Code)
	}
	ev := rec.events[0]
	if ev.Type != EventKeysCreated || ev.ID != "evt_03kc" {
		t.Errorf("event %s %s, want keys.created evt_03kc from the body", ev.Type, ev.ID)
	}
	if _, ok := ev.Data.(*KeysCreated); !ok {
		t.Errorf("Data is %T, want *KeysCreated", ev.Data)
	}
}

func TestHandlerDedup(t *testing.T) {
	body := readGolden(t, EventLanguageAdded)
	send := func(h http.Handler) int {
		return serve(h, delivery(http.MethodPost, body, Sign(testSecret, testNow, body))).Code
	}

	t.Run("duplicate dropped", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(NewMemoryDedup(10)))
		for i := range 3 {
			if code := send(h); code != http.StatusOK {
				t.Fatalf("delivery %d: status %d", i, code)
			}
		}
		if n := rec.count(); n != 1 {
			t.Errorf("callback called %d times, want 1", n)
		}
	})
	t.Run("without dedup every delivery is processed", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle)
		send(h)
		send(h)
		if n := rec.count(); n != 2 {
			t.Errorf("callback called %d times, want 2", n)
		}
	})
	t.Run("failed callback released", func(t *testing.T) {
		rec := &recorder{err: errors.New("try again")}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(nil))
		if code := send(h); code != http.StatusInternalServerError {
			t.Fatalf("first delivery: status %d", code)
		}
		rec.err = nil
		if code := send(h); code != http.StatusOK {
			t.Fatalf("redelivery: status %d", code)
		}
		send(h)
		if n := rec.count(); n != 2 {
			t.Errorf("callback called %d times, want 2 (failure, redelivery)", n)
		}
	})
	t.Run("panicking callback released", func(t *testing.T) {
		store := NewMemoryDedup(10)
		h := NewHandler(newTestVerifier(t), func(context.Context, *Event) error { panic("boom") }, WithDeduplication(store))
		func() {
			defer func() { recover() }()
			send(h)
		}()
		if ok, _ := store.Claim(t.Context(), "evt_06la"); !ok {
			t.Error("id still claimed after the callback panicked")
		}
	})
	t.Run("store failure", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(failingStore{}))
		if code := send(h); code != http.StatusInternalServerError || rec.count() != 0 {
			t.Errorf("status %d, %d calls; want 500 and no call", code, rec.count())
		}
	})
}

type failingStore struct{}

func (failingStore) Claim(context.Context, string) (bool, error) {
	return false, errors.New("redis down")
}
func (failingStore) Release(context.Context, string) error { return errors.New("redis down") }

// TestHandlerContext shows the callback gets the request's context: when
// the request is canceled, a callback blocked on it returns, and the claim
// is released even though that context is done.
func TestHandlerContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type key struct{}
		body := readGolden(t, EventSyncCompleted)
		v, err := NewVerifier(testSecret) // time.Now is the bubble's fake clock
		if err != nil {
			t.Fatal(err)
		}
		started := make(chan struct{})
		store := NewMemoryDedup(10)
		h := NewHandler(v, func(ctx context.Context, ev *Event) error {
			if ctx.Value(key{}) != "request" {
				t.Error("callback context is not the request's")
			}
			close(started)
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(time.Minute):
				t.Error("callback not canceled with the request")
				return nil
			}
		}, WithDeduplication(store))

		ctx, cancel := context.WithCancel(context.WithValue(t.Context(), key{}, "request"))
		r := delivery(http.MethodPost, body, Sign(testSecret, time.Now(), body)).WithContext(ctx)
		w := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			h.ServeHTTP(w, r)
			close(done)
		}()
		<-started
		synctest.Wait()
		select {
		case <-done:
			t.Fatal("handler returned while the callback was blocked")
		default:
		}
		cancel()
		<-done
		if w.Code != http.StatusInternalServerError {
			t.Errorf("status %d, want 500", w.Code)
		}
		if ok, _ := store.Claim(t.Context(), "evt_05sc"); !ok {
			t.Error("claim not released after the canceled callback")
		}
	})
}

func TestHandlerLogger(t *testing.T) {
	var buf bytes.Buffer
	rec := &recorder{err: errors.New("boom")}
	h := NewHandler(newTestVerifier(t), rec.handle, WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	body := readGolden(t, EventKeysDeleted)
	serve(h, delivery(http.MethodPost, body, "t=1"))
	serve(h, delivery(http.MethodPost, body, Sign(testSecret, testNow, body)))
	out := buf.String()
	for _, want := range []string{"delivery refused", "status=401", "callback failed", "event=evt_04kd", "error=boom"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, testSecret) {
		t.Errorf("log leaks the secret:\n%s", out)
	}
}

func TestNewHandlerPanics(t *testing.T) {
	v := newTestVerifier(t)
	for name, f := range map[string]func(){
		"nil verifier": func() { NewHandler(nil, (&recorder{}).handle) },
		"nil callback": func() { NewHandler(v, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		})
	}
}

func TestMemoryDedup(t *testing.T) {
	ctx := t.Context()
	m := NewMemoryDedup(3)
	claim := func(id string) bool {
		ok, err := m.Claim(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	for _, id := range []string{"a", "b", "c"} {
		if !claim(id) {
			t.Fatalf("first claim of %s refused", id)
		}
	}
	if claim("a") {
		t.Fatal("second claim of a accepted")
	}
	if !claim("d") { // evicts a
		t.Fatal("claim of d refused")
	}
	if !claim("a") { // evicts b
		t.Fatal("a still remembered after eviction")
	}
	if claim("c") || claim("d") {
		t.Fatal("c or d forgotten too early")
	}

	// A released and reclaimed id must survive the eviction of its old slot.
	m = NewMemoryDedup(2)
	claim("x")          // slot 0
	m.Release(ctx, "x") // forget it
	claim("y")          // slot 1
	claim("x")          // slot 0 again: evicts the stale x claim only
	if claim("x") || claim("y") {
		t.Fatal("reclaimed x or y forgotten")
	}
	if len(m.ids) > 2 {
		t.Errorf("%d ids remembered, capacity 2", len(m.ids))
	}
}

func TestMemoryDedupConcurrent(t *testing.T) {
	m := NewMemoryDedup(100)
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins := map[string]int{}
	for range 8 {
		wg.Go(func() {
			for i := range 50 {
				id := fmt.Sprint("evt_", i)
				if ok, _ := m.Claim(t.Context(), id); ok {
					mu.Lock()
					wins[id]++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for i := range 50 {
		if n := wins[fmt.Sprint("evt_", i)]; n != 1 {
			t.Errorf("evt_%d claimed %d times, want 1", i, n)
		}
	}
}
