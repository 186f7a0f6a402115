package partnertest_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// received is a delivery as a receiver saw it.
type received struct {
	header http.Header
	body   []byte
}

// receiver is a webhook endpoint that records what it gets and answers
// with status and answer.
type receiver struct {
	*httptest.Server
	mu     sync.Mutex
	got    []received
	status int
	answer string
}

func newReceiver(t *testing.T) *receiver {
	rc := &receiver{status: http.StatusNoContent}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		rc.got = append(rc.got, received{r.Header.Clone(), body})
		w.WriteHeader(rc.status)
		io.WriteString(w, rc.answer)
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) set(status int, answer string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.status, rc.answer = status, answer
}

func (rc *receiver) all() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}

func (rc *receiver) last(t *testing.T) received {
	t.Helper()
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.got) == 0 {
		t.Fatal("nothing received")
	}
	return rc.got[len(rc.got)-1]
}

// hmacHex is the lowercase hex HMAC-SHA256 of msg, computed here
// independently of the webhook package.
func hmacHex(secret, msg string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

// checkSignature checks a delivery's signature header the way the spec
// describes it.
func checkSignature(t *testing.T, secret string, signedAt time.Time, got received) {
	t.Helper()
	ts := strconv.FormatInt(signedAt.Unix(), 10)
	want := "t=" + ts + ",v1=" + hmacHex(secret, ts+"."+string(got.body)) + ",sha256=" + hmacHex(secret, string(got.body))
	if h := got.header.Get("X-Service-Signature"); h != want {
		t.Errorf("X-Service-Signature = %q\nwant %q", h, want)
	}
}

// someProject adds a project to srv and returns its id, for a webhook
// config (configs are per project).
func someProject(srv *partnertest.Server) string {
	org := srv.AddOrganization("", "")
	return srv.AddProject(org.ID, partnertest.Project{Name: "Web", Slug: "web", SourceLanguage: "en"}).ID
}

func TestDeliver(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.UTC)
	srv := newServer(t, partnertest.WithClock(func() time.Time { return now }))
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL, webhook.EventTranslationsPublished, webhook.EventKeysCreated)
	if !strings.HasPrefix(wh.ID, "wh_") || !strings.HasPrefix(wh.Secret, "whsec_") {
		t.Fatalf("AddWebhook = %+v", wh)
	}

	data := &webhook.TranslationsPublished{Org: "acme", Project: "web", Languages: []string{"de", "fr"},
		PublishedAt: time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC), KeysCount: 42}
	d, err := srv.Deliver(t.Context(), wh.ID, webhook.EventTranslationsPublished, data)
	if err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	wantBody := `{"id":"evt_1","webhookConfigId":"wh_1","eventType":"translations.published","timestamp":1778051289123,` +
		`"createdAt":"2026-05-06T07:08:09.123Z","version":"1",` +
		`"data":{"org":"acme","project":"web","languages":["de","fr"],"publishedAt":"2026-05-06T07:00:00Z","keysCount":42}}`
	if string(got.body) != wantBody {
		t.Errorf("body\n%s\nwant\n%s", got.body, wantBody)
	}
	for k, v := range map[string]string{
		"Content-Type":    "application/json",
		"X-Service-Event": "translations.published",
		"X-Service-Id":    "evt_1",
	} {
		if got.header.Get(k) != v {
			t.Errorf("%s = %q, want %q", k, got.header.Get(k), v)
		}
	}
	checkSignature(t, wh.Secret, now, got)

	// The webhook package's Verifier accepts it and decodes the same data.
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	ev, err := v.ConstructEvent(got.body, got.header.Get(webhook.SignatureHeader))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(data, ev.Data); diff != "" {
		t.Errorf("decoded data (-want +got):\n%s", diff)
	}

	want := partnertest.Delivery{
		EventID: "evt_1", WebhookID: wh.ID, EventType: webhook.EventTranslationsPublished,
		Time: now, Status: 204, Body: got.body, Signature: got.header.Get(webhook.SignatureHeader),
	}
	if diff := cmp.Diff(want, d, cmp.Comparer(errorsEqual)); diff != "" {
		t.Errorf("Delivery (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]partnertest.Delivery{want}, srv.Deliveries(), cmp.Comparer(errorsEqual)); diff != "" {
		t.Errorf("Deliveries (-want +got):\n%s", diff)
	}

	// Raw JSON data is sent as is.
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, json.RawMessage(`{"keys": ["a"] ,"x":1}`)); err != nil {
		t.Fatal(err)
	}
	if b := rc.last(t).body; !strings.HasSuffix(string(b), `"data":{"keys": ["a"] ,"x":1}}`) {
		t.Errorf("raw data body: %s", b)
	}
}

func errorsEqual(a, b error) bool { return (a == nil) == (b == nil) }

func TestDeliverRefuses(t *testing.T) {
	srv := newServer(t)
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL, webhook.EventKeysDeleted)
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, nil); err == nil {
		t.Error("delivered an event type the config does not subscribe to")
	}
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysDeleted, []byte(`{"keys":`)); err == nil {
		t.Error("delivered invalid JSON data")
	}
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysDeleted, func() {}); err == nil {
		t.Error("delivered data that does not marshal")
	}
	if len(rc.all()) != 0 || len(srv.Deliveries()) != 0 {
		t.Errorf("sent %d, logged %d", len(rc.all()), len(srv.Deliveries()))
	}
	for name, f := range map[string]func(){
		"Deliver":      func() { srv.Deliver(t.Context(), "wh_9", webhook.EventKeysDeleted, nil) },
		"Redeliver":    func() { srv.Redeliver(t.Context(), "evt_9") },
		"RotateSecret": func() { srv.RotateSecret("wh_9") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with an unknown id did not panic", name)
				}
			}()
			f()
		}()
	}
}

// allTypes pairs each of the spec's 21 event types with its data struct.
var allTypes = []struct {
	typ  webhook.EventType
	data any
}{
	{webhook.EventTranslationsPublished, &webhook.TranslationsPublished{}},
	{webhook.EventTranslationsUpdated, &webhook.TranslationsUpdated{}},
	{webhook.EventKeysCreated, &webhook.KeysCreated{}},
	{webhook.EventKeysDeleted, &webhook.KeysDeleted{}},
	{webhook.EventSyncCompleted, &webhook.SyncCompleted{}},
	{webhook.EventLanguageAdded, &webhook.LanguageAdded{}},
	{webhook.EventLanguageRemoved, &webhook.LanguageRemoved{}},
	{webhook.EventEntryCreated, &webhook.EntryCreated{}},
	{webhook.EventEntryUpdated, &webhook.EntryUpdated{}},
	{webhook.EventEntryPublished, &webhook.EntryPublished{}},
	{webhook.EventEntryUnpublished, &webhook.EntryUnpublished{}},
	{webhook.EventEntryDeleted, &webhook.EntryDeleted{}},
	{webhook.EventEntriesBulkPublished, &webhook.EntriesBulkPublished{}},
	{webhook.EventEntriesBulkUpdated, &webhook.EntriesBulkUpdated{}},
	{webhook.EventEntriesBulkDeleted, &webhook.EntriesBulkDeleted{}},
	{webhook.EventModelCreated, &webhook.ModelCreated{}},
	{webhook.EventModelUpdated, &webhook.ModelUpdated{}},
	{webhook.EventModelDeleted, &webhook.ModelDeleted{}},
	{webhook.EventFieldAdded, &webhook.FieldAdded{}},
	{webhook.EventFieldUpdated, &webhook.FieldUpdated{}},
	{webhook.EventFieldDeleted, &webhook.FieldDeleted{}},
}

func TestDeliverEveryType(t *testing.T) {
	srv := newServer(t)
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL) // all types
	v, err := webhook.NewVerifier(wh.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range allTypes {
		if _, err := srv.Deliver(t.Context(), wh.ID, tt.typ, tt.data); err != nil {
			t.Fatalf("%s: %v", tt.typ, err)
		}
		got := rc.last(t)
		ev, err := v.ConstructEvent(got.body, got.header.Get(webhook.SignatureHeader))
		if err != nil {
			t.Fatalf("%s: %v", tt.typ, err)
		}
		if ev.Type != tt.typ || reflect.TypeOf(ev.Data) != reflect.TypeOf(tt.data) || got.header.Get(webhook.EventHeader) != string(tt.typ) {
			t.Errorf("%s arrived as %s with %T", tt.typ, ev.Type, ev.Data)
		}
	}
	if len(allTypes) != 21 {
		t.Errorf("%d types, want 21", len(allTypes))
	}
}

func TestRedeliver(t *testing.T) {
	srv := newServer(t, partnertest.WithClock(func() time.Time { return time.Unix(1_700_000_000, 0) }))
	rc := newReceiver(t)
	rc.set(500, strings.Repeat("é", 600))
	wh := srv.AddWebhook(someProject(srv), rc.URL)

	first, err := srv.Deliver(t.Context(), wh.ID, webhook.EventLanguageAdded, &webhook.LanguageAdded{Language: "de", LanguageName: "German"})
	if err == nil || first.Status != 500 || first.ResponseBody != strings.Repeat("é", 500) || !errors.Is(err, first.Err) {
		t.Fatalf("failed delivery: status %d, %d characters kept, err %v", first.Status, len([]rune(first.ResponseBody)), err)
	}

	srv.Advance(time.Hour)
	newSecret := srv.RotateSecret(wh.ID)
	rc.set(200, "ok")
	second, err := srv.Redeliver(t.Context(), first.EventID)
	if err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	if string(got.body) != string(rc.all()[0].body) || got.header.Get(webhook.IDHeader) != first.EventID {
		t.Errorf("redelivery body or id changed:\n%s\n%s", rc.all()[0].body, got.body)
	}
	checkSignature(t, newSecret, srv.Now(), got)
	if !second.Redelivery || second.Status != 200 || second.ResponseBody != "ok" || !second.Time.Equal(first.Time.Add(time.Hour)) {
		t.Errorf("redelivery log entry: %+v", second)
	}
	if n := len(srv.Deliveries()); n != 2 {
		t.Errorf("%d deliveries logged, want 2", n)
	}
}

func TestDeliverOptions(t *testing.T) {
	srv := newServer(t)
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL)
	v, err := webhook.NewVerifier(wh.Secret)
	if err != nil {
		t.Fatal(err)
	}
	stale := srv.Now().Add(-10 * time.Minute)
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, nil, partnertest.SignedAt(stale)); err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	checkSignature(t, wh.Secret, stale, got)
	if err := v.Verify(got.body, got.header.Get(webhook.SignatureHeader)); !errors.Is(err, webhook.ErrTimestampOutOfTolerance) {
		t.Errorf("stale delivery: Verify = %v", err)
	}

	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, nil, partnertest.SignedWith("whsec_forged")); err != nil {
		t.Fatal(err)
	}
	got = rc.last(t)
	checkSignature(t, "whsec_forged", srv.Now(), got)
	if err := v.Verify(got.body, got.header.Get(webhook.SignatureHeader)); !errors.Is(err, webhook.ErrSignatureMismatch) {
		t.Errorf("forged delivery: Verify = %v", err)
	}
}

func TestDeliverWithoutReceiver(t *testing.T) {
	srv := newServer(t)
	rc := newReceiver(t)
	url := rc.URL
	rc.Close()
	wh := srv.AddWebhook(someProject(srv), url)
	d, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, nil)
	if err == nil || d.Status != 0 || d.Err == nil {
		t.Errorf("delivery to a closed port: %+v, %v", d, err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := srv.Deliver(ctx, wh.ID, webhook.EventKeysCreated, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("delivery with a canceled context: %v", err)
	}
}

// TestDeliverContentMeta: a typed content struct gets the event type and
// the envelope's time when the test leaves them empty, and keeps them when
// set.
func TestDeliverContentMeta(t *testing.T) {
	now := time.Date(2026, 5, 6, 7, 8, 9, 123456789, time.UTC)
	srv := newServer(t, partnertest.WithClock(func() time.Time { return now }))
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL)
	v, err := webhook.NewVerifier(wh.Secret, webhook.WithClock(srv.Now))
	if err != nil {
		t.Fatal(err)
	}
	model := "blog-post"
	data := &webhook.EntryCreated{EntryChange: webhook.EntryChange{
		ContentMeta: webhook.ContentMeta{Org: "acme", Project: "site", Model: &model},
		Entry:       webhook.Entry{ID: "ent_1", Slug: "hello"},
	}}
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventEntryCreated, data); err != nil {
		t.Fatal(err)
	}
	got := rc.last(t)
	ev, err := v.ConstructEvent(got.body, got.header.Get(webhook.SignatureHeader))
	if err != nil {
		t.Fatal(err)
	}
	meta := ev.Data.(*webhook.EntryCreated).ContentMeta
	if meta.Event != webhook.EventEntryCreated || !meta.Timestamp.Equal(now.Truncate(time.Millisecond)) || !meta.Timestamp.Equal(ev.Timestamp) {
		t.Errorf("event %q timestamp %v, want %q %v (the envelope's %v)", meta.Event, meta.Timestamp, webhook.EventEntryCreated, now, ev.Timestamp)
	}
	if data.Event != "" || !data.Timestamp.IsZero() {
		t.Errorf("Deliver changed the caller's data: %+v", data.ContentMeta)
	}

	// Set fields are kept; a value (not a pointer) works too.
	at := time.Date(2026, 5, 6, 7, 0, 0, 0, time.UTC)
	set := webhook.FieldAdded{FieldChange: webhook.FieldChange{ContentMeta: webhook.ContentMeta{Event: webhook.EventFieldAdded, Timestamp: at}}}
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventFieldAdded, set); err != nil {
		t.Fatal(err)
	}
	got = rc.last(t)
	ev, err = v.ConstructEvent(got.body, got.header.Get(webhook.SignatureHeader))
	if err != nil {
		t.Fatal(err)
	}
	if m := ev.Data.(*webhook.FieldAdded).ContentMeta; !m.Timestamp.Equal(at) || m.Event != webhook.EventFieldAdded {
		t.Errorf("kept fields: %+v", m)
	}

	// Structs without ContentMeta are sent as they are.
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, webhook.KeysCreated{Keys: []string{"a"}}); err != nil {
		t.Fatal(err)
	}
	if b := rc.last(t).body; !strings.HasSuffix(string(b), `"data":{"org":"","project":"","keys":["a"],"namespace":""}}`) {
		t.Errorf("keys.created body: %s", b)
	}
}

// TestDeliverRefusesMismatchedData: data of package webhook must be the
// struct of its event type.
func TestDeliverRefusesMismatchedData(t *testing.T) {
	srv := newServer(t)
	rc := newReceiver(t)
	wh := srv.AddWebhook(someProject(srv), rc.URL)
	for _, tt := range []struct {
		name string
		typ  webhook.EventType
		data any
		want string
	}{
		{"keys.deleted data as keys.created", webhook.EventKeysCreated, &webhook.KeysDeleted{}, "KeysCreated"},
		{"a value of the wrong type", webhook.EventEntryPublished, webhook.EntryUpdated{}, "EntryPublished"},
		{"content data naming another event", webhook.EventEntryUpdated,
			&webhook.EntryUpdated{EntryChange: webhook.EntryChange{ContentMeta: webhook.ContentMeta{Event: webhook.EventEntryPublished}}}, "content.entry.published"},
		{"a struct for an unknown event type", "keys.renamed", &webhook.KeysCreated{}, "json.RawMessage"},
		{"a nil pointer", webhook.EventKeysCreated, (*webhook.KeysCreated)(nil), "nil"},
	} {
		_, err := srv.Deliver(t.Context(), wh.ID, tt.typ, tt.data)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", tt.name, err, tt.want)
		}
	}
	// Untyped data is not checked.
	if _, err := srv.Deliver(t.Context(), wh.ID, webhook.EventKeysCreated, map[string]any{"keys": []string{"a"}}); err != nil {
		t.Errorf("map data: %v", err)
	}
	if n := len(rc.all()); n != 1 {
		t.Errorf("%d deliveries sent, want 1", n)
	}
}
