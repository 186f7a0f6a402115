package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// TestHandlerCallbackPanics goes through a real server: a callback that
// panics gets the delivery answered 500, so the service records a failed
// delivery instead of a dropped connection, and with WithDeduplication its
// claim is released, so a redelivery runs the callback again.
func TestHandlerCallbackPanics(t *testing.T) {
	body := readGolden(t, EventKeysCreated)
	for _, dedup := range []bool{false, true} {
		t.Run(fmt.Sprintf("dedup=%v", dedup), func(t *testing.T) {
			var calls atomic.Int32
			var logs bytes.Buffer
			opts := []HandlerOption{WithLogger(slog.New(slog.NewTextHandler(&logs, nil)))}
			if dedup {
				opts = append(opts, WithDeduplication(nil))
			}
			srv := httptest.NewUnstartedServer(NewHandler(newTestVerifier(t), func(context.Context, *Event) error {
				if calls.Add(1) == 1 {
					panic("boom")
				}
				return nil
			}, opts...))
			srv.Config.ErrorLog = log.New(io.Discard, "", 0) // net/http's "panic serving" line, before the fix
			srv.Start()
			defer srv.Close()
			post := func() (int, error) {
				req, err := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
				if err != nil {
					return 0, err
				}
				req.Header.Set(SignatureHeader, Sign(testSecret, testNow, body))
				resp, err := srv.Client().Do(req)
				if err != nil {
					return 0, err
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return resp.StatusCode, nil
			}
			if code, err := post(); code != http.StatusInternalServerError {
				t.Fatalf("panicking callback: status %d, %v; want 500", code, err)
			}
			if code, err := post(); code != http.StatusOK || calls.Load() != 2 {
				t.Fatalf("redelivery: status %d, %v, %d calls; want 200 and 2 calls", code, err, calls.Load())
			}
			out := logs.String()
			if !strings.Contains(out, "callback panicked: boom") || strings.Contains(out, testSecret) {
				t.Errorf("log should say the callback panicked, without the secret:\n%s", out)
			}
		})
	}
}

// TestHandlerBodyBufferGrowsAsBytesArrive sends a request that looks
// fresh (a current t, a forged v1) and announces a body of the whole limit,
// then sends a few bytes. The handler must not set aside the announced size
// before the bytes come: the largest buffer it offers the body's Read stays
// small.
func TestHandlerBodyBufferGrowsAsBytesArrive(t *testing.T) {
	body := &capRecorder{r: strings.NewReader(`{"id":"evt_1","eventType":"keys.created"}`)}
	r := httptest.NewRequest(http.MethodPost, "/hooks", nil)
	r.Body, r.ContentLength = body, DefaultMaxBodyBytes
	r.Header.Set(SignatureHeader, fmt.Sprintf("t=%d,v1=%s", testNow.Unix(), strings.Repeat("00", 32)))
	rec := &recorder{}
	w := serve(NewHandler(newTestVerifier(t), rec.handle), r)
	if w.Code != http.StatusUnauthorized || rec.count() != 0 {
		t.Fatalf("status %d, %d calls; want 401 and no call", w.Code, rec.count())
	}
	if body.largest == 0 || body.largest > 64<<10 {
		t.Errorf("the handler read the body into a buffer of %d bytes for a Content-Length of %d; want it to grow as bytes arrive",
			body.largest, r.ContentLength)
	}
}

// capRecorder is a request body that records the largest buffer a Read is
// given room in.
type capRecorder struct {
	r       io.Reader
	largest int
}

func (c *capRecorder) Read(p []byte) (int, error) {
	c.largest = max(c.largest, cap(p))
	return c.r.Read(p)
}

func (c *capRecorder) Close() error { return nil }

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
		if st, _ := store.Claim(t.Context(), "wh_2Kq8Zt/evt_06la", "test", time.Minute); st != Claimed {
			t.Errorf("Claim after the callback panicked = %v, want claimed", st)
		}
	})
	t.Run("callback ending its goroutine released", func(t *testing.T) {
		// runtime.Goexit is what t.FailNow does in a test's callback.
		store := NewMemoryDedup(10)
		h := NewHandler(newTestVerifier(t), func(context.Context, *Event) error { runtime.Goexit(); return nil }, WithDeduplication(store))
		done := make(chan struct{})
		go func() {
			defer close(done)
			send(h)
		}()
		<-done
		if st, _ := store.Claim(t.Context(), "wh_2Kq8Zt/evt_06la", "test", time.Minute); st != Claimed {
			t.Errorf("Claim after the callback's goroutine ended = %v, want claimed", st)
		}
	})
	t.Run("store failure", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(failingStore{}))
		if code := send(h); code != http.StatusInternalServerError || rec.count() != 0 {
			t.Errorf("status %d, %d calls; want 500 and no call", code, rec.count())
		}
	})
	t.Run("done mark failure", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(doneFails{NewMemoryDedup(10)}))
		if code := send(h); code != http.StatusOK || rec.count() != 1 {
			t.Errorf("status %d, %d calls; want 200 and 1 call: the event was handled", code, rec.count())
		}
	})
	t.Run("keyed by webhook configuration and id", func(t *testing.T) {
		rec := &recorder{}
		h := NewHandler(newTestVerifier(t), rec.handle, WithDeduplication(nil))
		for _, b := range [][]byte{
			[]byte(`{"id":"evt_1","webhookConfigId":"wh_a","eventType":"keys.created"}`),
			[]byte(`{"id":"evt_1","webhookConfigId":"wh_b","eventType":"keys.created"}`),
			[]byte(`{"id":"evt_1","webhookConfigId":"wh_a","eventType":"keys.created"}`),
		} {
			serve(h, delivery(http.MethodPost, b, Sign(testSecret, testNow, b)))
		}
		if n := rec.count(); n != 2 {
			t.Errorf("callback called %d times, want 2 (wh_a and wh_b)", n)
		}
	})
}

// TestHandlerDedupConcurrent runs the rule of WithDeduplication for
// deliveries of one event that overlap, in a bubble whose clock only moves
// when every goroutine waits.
func TestHandlerDedupConcurrent(t *testing.T) {
	body := readGolden(t, EventKeysCreated)
	const key = "wh_2Kq8Zt/evt_03kc"

	// rig is a handler whose callback blocks until told how to end, and
	// counts its calls.
	type rig struct {
		h       http.Handler
		store   *MemoryDedup
		calls   chan struct{}
		results chan error
	}
	newRig := func(t *testing.T, p DedupPolicy) *rig {
		v, err := NewVerifier(testSecret) // time.Now is the bubble's clock
		if err != nil {
			t.Fatal(err)
		}
		r := &rig{store: &MemoryDedup{}, calls: make(chan struct{}, 10), results: make(chan error, 10)}
		r.h = NewHandler(v, func(ctx context.Context, _ *Event) error {
			r.calls <- struct{}{}
			return <-r.results
		}, WithDeduplication(r.store), WithDedupPolicy(p))
		return r
	}
	// start sends a delivery in its own goroutine and returns its status
	// once answered.
	start := func(r *rig) <-chan int {
		code := make(chan int, 1)
		req := delivery(http.MethodPost, body, Sign(testSecret, time.Now(), body))
		go func() { code <- serve(r.h, req).Code }()
		return code
	}
	answered := func(c <-chan int) bool {
		select {
		case code := <-c:
			t.Errorf("answered %d while it should wait", code)
			return true
		default:
			return false
		}
	}

	t.Run("duplicate waits for a first attempt that succeeds", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{})
			first := start(r)
			<-r.calls
			dup := start(r)
			time.Sleep(3 * time.Second)
			synctest.Wait()
			answered(dup)
			r.results <- nil
			if a, b := <-first, <-dup; a != http.StatusOK || b != http.StatusOK {
				t.Errorf("statuses %d and %d, want 200 and 200", a, b)
			}
			if n := len(r.calls); n != 0 {
				t.Errorf("callback called %d more times, want once in all", n)
			}
		})
	})
	t.Run("duplicate runs the callback after the first attempt fails", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{})
			first := start(r)
			<-r.calls
			dup := start(r)
			synctest.Wait()
			r.results <- errors.New("db down")
			if code := <-first; code != http.StatusInternalServerError {
				t.Errorf("first attempt: status %d, want 500", code)
			}
			<-r.calls // the duplicate takes over
			answered(dup)
			r.results <- nil
			if code := <-dup; code != http.StatusOK {
				t.Errorf("duplicate: status %d, want 200", code)
			}
			if st, _ := r.store.Claim(t.Context(), key, "later", time.Minute); st != Handled {
				t.Errorf("after the duplicate succeeded the event is %v, want handled", st)
			}
		})
	})
	t.Run("duplicate gives up after MaxWait with 409", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{MaxWait: 2 * time.Second})
			first := start(r)
			<-r.calls
			began := time.Now()
			if code := <-start(r); code != http.StatusConflict {
				t.Errorf("duplicate: status %d, want 409", code)
			}
			if waited := time.Since(began); waited < 2*time.Second || waited > 3*time.Second {
				t.Errorf("duplicate waited %v, want about MaxWait (2s)", waited)
			}
			r.results <- nil
			if code := <-first; code != http.StatusOK {
				t.Errorf("first attempt: status %d, want 200", code)
			}
		})
	})
	t.Run("duplicate stops waiting when its request is canceled", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{})
			first := start(r)
			<-r.calls
			ctx, cancel := context.WithCancel(t.Context())
			req := delivery(http.MethodPost, body, Sign(testSecret, time.Now(), body)).WithContext(ctx)
			dup := make(chan int, 1)
			go func() { dup <- serve(r.h, req).Code }()
			time.Sleep(time.Second)
			cancel()
			if code := <-dup; code != http.StatusConflict {
				t.Errorf("canceled duplicate: status %d, want 409", code)
			}
			r.results <- nil
			<-first
		})
	})
	t.Run("crashed claim expires after the processing TTL", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{ProcessingTTL: 30 * time.Second, MaxWait: time.Second})
			// A receiver claimed the event and died: nobody releases it.
			if st, err := r.store.Claim(t.Context(), key, "crashed", 30*time.Second); st != Claimed || err != nil {
				t.Fatalf("Claim = %v, %v", st, err)
			}
			if code := <-start(r); code != http.StatusConflict {
				t.Errorf("redelivery within the TTL: status %d, want 409", code)
			}
			time.Sleep(30 * time.Second)
			code := start(r)
			<-r.calls
			r.results <- nil
			if c := <-code; c != http.StatusOK {
				t.Errorf("redelivery after the TTL: status %d, want 200", c)
			}
		})
	})
	t.Run("done mark expires after the retention", func(t *testing.T) {
		synctest.Test(t, func(t *testing.T) {
			r := newRig(t, DedupPolicy{Retention: time.Hour})
			code := start(r)
			<-r.calls
			r.results <- nil
			<-code
			time.Sleep(59 * time.Minute)
			if c := <-start(r); c != http.StatusOK || len(r.calls) != 0 {
				t.Errorf("redelivery within the retention: status %d, %d calls; want 200 and none", c, len(r.calls))
			}
			time.Sleep(time.Minute)
			code = start(r)
			<-r.calls // handled again: the id was forgotten
			r.results <- nil
			if c := <-code; c != http.StatusOK {
				t.Errorf("redelivery after the retention: status %d, want 200", c)
			}
		})
	})
}

type failingStore struct{}

func (failingStore) Claim(context.Context, string, string, time.Duration) (ClaimState, error) {
	return 0, errors.New("redis down")
}
func (failingStore) Done(context.Context, string, time.Duration) error {
	return errors.New("redis down")
}
func (failingStore) Release(context.Context, string, string) error { return errors.New("redis down") }

// doneFails is a store whose done marks fail.
type doneFails struct{ *MemoryDedup }

func (doneFails) Done(context.Context, string, time.Duration) error { return errors.New("redis down") }

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
		if st, _ := store.Claim(t.Context(), "wh_2Kq8Zt/evt_05sc", "test", time.Minute); st != Claimed {
			t.Errorf("Claim after the canceled callback = %v, want claimed", st)
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

// TestTenantHandler serves two customers' webhooks, one secret each, on one
// handler that finds the secret by a path value.
func TestTenantHandler(t *testing.T) {
	verifiers := map[string]*Verifier{
		"acme":   newTestVerifier(t),
		"globex": func() *Verifier { v, _ := NewVerifier("whsec_globex", fixedClock(testNow)); return v }(),
	}
	var lookups []string
	lookup := func(r *http.Request) (*Verifier, error) {
		tenant := r.PathValue("tenant")
		lookups = append(lookups, tenant)
		switch tenant {
		case "down":
			return nil, errors.New("db down: password=hunter2")
		case "nil":
			return nil, nil
		}
		if v, ok := verifiers[tenant]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("tenant %q: %w", tenant, ErrUnknownReceiver)
	}
	var got []string
	mux := http.NewServeMux()
	mux.Handle("/hooks/{tenant}", NewTenantHandler(lookup, func(_ context.Context, r *http.Request, ev *Event) error {
		got = append(got, r.PathValue("tenant")+" "+ev.ID)
		return nil
	}, WithDeduplication(nil)))

	send := func(tenant, secret string) int {
		// Each customer has its own webhook configuration.
		body := []byte(`{"id":"evt_1","webhookConfigId":"wh_` + tenant + `","eventType":"keys.created"}`)
		r := delivery(http.MethodPost, body, Sign(secret, testNow, body))
		r.URL.Path = "/hooks/" + tenant
		w := serve(mux, r)
		if strings.Contains(w.Body.String(), "hunter2") {
			t.Errorf("response %q leaks the lookup's error", w.Body)
		}
		return w.Code
	}
	tests := []struct {
		tenant, secret string
		want           int
	}{
		{"acme", testSecret, http.StatusOK},
		{"globex", "whsec_globex", http.StatusOK},
		{"globex", testSecret, http.StatusUnauthorized}, // another tenant's secret
		{"initech", testSecret, http.StatusNotFound},
		{"down", testSecret, http.StatusInternalServerError},
		{"nil", testSecret, http.StatusInternalServerError},
	}
	for _, tt := range tests {
		if code := send(tt.tenant, tt.secret); code != tt.want {
			t.Errorf("%s signed with %s: status %d, want %d", tt.tenant, tt.secret, code, tt.want)
		}
	}
	if want := []string{"acme evt_1", "globex evt_1"}; !slices.Equal(got, want) {
		t.Errorf("callbacks %q, want %q", got, want)
	}
	if len(lookups) != len(tests) {
		t.Errorf("%d lookups for %d requests", len(lookups), len(tests))
	}
	r := delivery(http.MethodGet, nil, "")
	r.URL.Path = "/hooks/acme"
	if w := serve(mux, r); w.Code != http.StatusMethodNotAllowed || len(lookups) != len(tests) {
		t.Errorf("GET: status %d, %d lookups; want 405 before any lookup", w.Code, len(lookups))
	}
}

func TestNewTenantHandlerPanics(t *testing.T) {
	lookup := func(*http.Request) (*Verifier, error) { return nil, nil }
	fn := func(context.Context, *http.Request, *Event) error { return nil }
	for name, f := range map[string]func(){
		"nil lookup":   func() { NewTenantHandler(nil, fn) },
		"nil callback": func() { NewTenantHandler(lookup, nil) },
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
