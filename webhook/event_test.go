package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func ptr[T any](v T) *T { return &v }

// The moments the golden payloads use.
var (
	dispatched = time.Date(2024, 5, 1, 10, 0, 0, 123e6, time.UTC) // envelope timestamp and createdAt
	mutated    = time.Date(2024, 5, 1, 9, 59, 59, 500e6, time.UTC)
)

func contentMeta(t EventType, model string, actor *Actor) ContentMeta {
	return ContentMeta{Event: t, Timestamp: mutated, Org: "acme", Project: "blog", Model: ptr(model), Actor: actor}
}

var (
	ui  = &Actor{UserID: "usr_81", Via: ViaUI}
	api = &Actor{UserID: "usr_81", Via: ViaAPI}
)

func status(s EntryStatus) *EntryStatus { return &s }

func bulkRows(statuses ...*EntryStatus) []BulkEntry {
	var rows []BulkEntry
	for i := 0; i < len(statuses); i += 2 {
		n := string(rune('1' + i/2))
		rows = append(rows, BulkEntry{ID: "ent_" + n, Slug: "post-" + n, PreviousStatus: statuses[i], Status: statuses[i+1]})
	}
	return rows
}

// goldenData is the Data each file in testdata/events must decode to, with
// the id it carries. The files follow the spec's tables.
var goldenData = map[EventType]struct {
	id   string
	data any
}{
	EventTranslationsPublished: {"evt_01tp", &TranslationsPublished{
		Org: "acme", Project: "storefront", Languages: []string{"de", "fr"},
		PublishedAt: time.Date(2024, 5, 1, 9, 59, 58, 0, time.UTC), KeysCount: 1287,
	}},
	EventTranslationsUpdated: {"evt_02tu", &TranslationsUpdated{Org: "acme", Project: "storefront", Language: "de", KeysCount: 3}},
	EventKeysCreated: {"evt_03kc", &KeysCreated{
		Org: "acme", Project: "storefront", Keys: []string{"checkout.title", "checkout.pay_button"}, Namespace: "checkout",
	}},
	EventKeysDeleted: {"evt_04kd", &KeysDeleted{Org: "acme", Project: "storefront", Keys: []string{"legacy.banner"}, Namespace: "default"}},
	EventSyncCompleted: {"evt_05sc", &SyncCompleted{
		Org: "acme", Project: "storefront", Status: SyncStatusCompleted, KeysImported: 412, DurationMS: 5230,
	}},
	EventLanguageAdded:   {"evt_06la", &LanguageAdded{Org: "acme", Project: "storefront", Language: "ja", LanguageName: "Japanese"}},
	EventLanguageRemoved: {"evt_07lr", &LanguageRemoved{Org: "acme", Project: "storefront", Language: "it"}},

	EventEntryCreated: {"evt_08ec", &EntryCreated{EntryChange{
		ContentMeta:      contentMeta(EventEntryCreated, "blog-post", ui),
		Entry:            Entry{ID: "ent_7Hq2", Slug: "hello-world", Status: status(EntryStatusDraft), SourceLanguageCode: ptr("en")},
		Languages:        []string{"en"},
		ChangedLanguages: []string{"en"},
	}}},
	EventEntryUpdated: {"evt_09eu", &EntryUpdated{EntryChange{
		ContentMeta: contentMeta(EventEntryUpdated, "blog-post", &Actor{UserID: "agt_translator", Via: ViaMCP}),
		Entry: Entry{
			ID: "ent_7Hq2", Slug: "hello-world", Status: status(EntryStatusDraft), PreviousStatus: status(EntryStatusDraft),
			SourceLanguageCode: ptr("en"),
		},
		Languages:        []string{"en", "de", "fr"},
		ChangedLanguages: []string{"de", "fr"},
	}}},
	EventEntryPublished: {"evt_10ep", &EntryPublished{EntryChange{
		ContentMeta: contentMeta(EventEntryPublished, "blog-post", api),
		Entry: Entry{
			ID: "ent_7Hq2", Slug: "hello-world", Status: status(EntryStatusPublished), PreviousStatus: status(EntryStatusDraft),
			PublishedAt: ptr(mutated), SourceLanguageCode: ptr("en"),
		},
		Languages: []string{
			"en", "de", "fr", "es", "it", "nl", "pt-BR", "ja", "ko", "zh-Hans", "pl", "sv", "da",
			"fi", "nb", "cs", "tr", "uk", "el", "he", "ar", "hi", "th", "vi", "id", "ms",
		},
		ChangedLanguages: []string{}, // sent as []: empty, not absent
	}}},
	EventEntryUnpublished: {"evt_11eun", &EntryUnpublished{EntryChange{
		ContentMeta: contentMeta(EventEntryUnpublished, "blog-post", &Actor{UserID: "system", Via: ViaSystem}),
		Entry: Entry{
			ID: "ent_7Hq2", Slug: "hello-world", Status: status(EntryStatusArchived), PreviousStatus: status(EntryStatusPublished),
			PublishedAt: ptr(time.Date(2024, 4, 20, 8, 0, 0, 0, time.UTC)), SourceLanguageCode: ptr("en"),
		},
		Languages:        []string{"en", "de"},
		ChangedLanguages: []string{"en", "de"},
	}}},
	EventEntryDeleted: {"evt_12ed", &EntryDeleted{EntryChange{
		ContentMeta: contentMeta(EventEntryDeleted, "blog-post", ui),
		Entry:       Entry{ID: "ent_7Hq2", Slug: "hello-world"}, // the rest is null
		Languages:   []string{"en", "de"},
		// changedLanguages is absent: nil
	}}},

	EventEntriesBulkPublished: {"evt_13bp", &EntriesBulkPublished{BulkChange{
		ContentMeta: contentMeta(EventEntriesBulkPublished, "blog-post", api),
		Entries: bulkRows(
			status(EntryStatusDraft), status(EntryStatusPublished),
			status(EntryStatusPublished), status(EntryStatusPublished),
			status(EntryStatusArchived), status(EntryStatusPublished),
		),
		Count:     3,
		Languages: []string{"en", "de"},
	}}},
	EventEntriesBulkUpdated: {"evt_14bu", &EntriesBulkUpdated{BulkChange{
		ContentMeta: contentMeta(EventEntriesBulkUpdated, "blog-post", ui),
		Entries: bulkRows(
			status(EntryStatusDraft), status(EntryStatusDraft),
			status(EntryStatusPublished), status(EntryStatusPublished),
		),
		Count:     2,
		Languages: []string{"en"},
	}}},
	EventEntriesBulkDeleted: {"evt_15bd", &EntriesBulkDeleted{BulkChange{
		ContentMeta: contentMeta(EventEntriesBulkDeleted, "blog-post", nil), // actor null
		Entries:     bulkRows(status(EntryStatusDraft), nil, status(EntryStatusPublished), nil),
		Count:       2,
		Languages:   []string{"en", "de"},
	}}},

	EventModelCreated: {"evt_16mc", &ModelCreated{contentMeta(EventModelCreated, "landing-page", ui)}},
	EventModelUpdated: {"evt_17mu", &ModelUpdated{contentMeta(EventModelUpdated, "landing-page", ui)}},
	EventModelDeleted: {"evt_18md", &ModelDeleted{contentMeta(EventModelDeleted, "landing-page", &Actor{UserID: "agt_cms", Via: ViaMCP})}},

	EventFieldAdded: {"evt_19fa", &FieldAdded{FieldChange{
		ContentMeta: contentMeta(EventFieldAdded, "landing-page", ui),
		Field:       Field{Name: "heroImage", Type: "media", Localized: false},
	}}},
	EventFieldUpdated: {"evt_20fu", &FieldUpdated{FieldChange{
		ContentMeta: contentMeta(EventFieldUpdated, "landing-page", ui),
		Field:       Field{Name: "title", Type: "text", Localized: true},
	}}},
	EventFieldDeleted: {"evt_21fd", &FieldDeleted{FieldChange{
		ContentMeta: contentMeta(EventFieldDeleted, "landing-page", ui),
		Field:       Field{Name: "subtitle", Type: "text", Localized: true},
	}}},
}

// diffEvent compares got with want and got.RawData() with wantRaw.
func diffEvent(want *Event, wantRaw json.RawMessage, got *Event) string {
	diff := cmp.Diff(want, got, cmp.Comparer(time.Time.Equal), cmpopts.IgnoreUnexported(Event{}))
	if raw := got.RawData(); !bytes.Equal(raw, wantRaw) {
		diff += fmt.Sprintf("RawData() = %s, want %s\n", raw, wantRaw)
	}
	return diff
}

func readGolden(t testing.TB, typ EventType) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "events", string(typ)+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestParseGolden(t *testing.T) {
	if len(goldenData) != 21 {
		t.Fatalf("%d golden event types, want the spec's 21", len(goldenData))
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	if len(files) != len(goldenData) {
		t.Errorf("%d files in testdata/events, want %d", len(files), len(goldenData))
	}
	for typ, g := range goldenData {
		t.Run(string(typ), func(t *testing.T) {
			body := readGolden(t, typ)
			got, err := Parse(body)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var raw struct{ Data json.RawMessage }
			if err := json.Unmarshal(body, &raw); err != nil {
				t.Fatal(err)
			}
			want := &Event{
				ID:              g.id,
				WebhookConfigID: "wh_2Kq8Zt",
				Type:            typ,
				Timestamp:       dispatched,
				CreatedAt:       dispatched,
				Version:         "1",
				Data:            g.data,
			}
			if diff := diffEvent(want, raw.Data, got); diff != "" {
				t.Errorf("Parse mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNullAndAbsent checks that nullable fields and changedLanguages keep
// null, absent and empty apart through a decode and a re-encode.
func TestNullAndAbsent(t *testing.T) {
	decode := func(t *testing.T, data string) *EntryChange {
		t.Helper()
		ev, err := Parse([]byte(`{"id":"evt_1","eventType":"content.entry.updated","data":` + data + `}`))
		if err != nil {
			t.Fatal(err)
		}
		return &ev.Data.(*EntryUpdated).EntryChange
	}
	roundTrip := func(t *testing.T, c *EntryChange) (*EntryChange, string) {
		t.Helper()
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return decode(t, string(b)), string(b)
	}

	t.Run("changedLanguages absent", func(t *testing.T) {
		c := decode(t, `{"languages":["en"]}`)
		if c.ChangedLanguages != nil {
			t.Fatalf("ChangedLanguages = %#v, want nil", c.ChangedLanguages)
		}
		back, b := roundTrip(t, c)
		if bytes.Contains([]byte(b), []byte("changedLanguages")) || back.ChangedLanguages != nil {
			t.Errorf("re-encoded %s: absent changedLanguages came back", b)
		}
	})
	t.Run("changedLanguages empty", func(t *testing.T) {
		c := decode(t, `{"changedLanguages":[]}`)
		if c.ChangedLanguages == nil || len(c.ChangedLanguages) != 0 {
			t.Fatalf("ChangedLanguages = %#v, want empty non-nil", c.ChangedLanguages)
		}
		back, b := roundTrip(t, c)
		if !bytes.Contains([]byte(b), []byte(`"changedLanguages":[]`)) || back.ChangedLanguages == nil {
			t.Errorf("re-encoded %s: empty changedLanguages was lost", b)
		}
	})
	t.Run("nullable fields null", func(t *testing.T) {
		c := decode(t, `{"model":null,"actor":null,"entry":{"status":null,"previousStatus":null,"publishedAt":null,"sourceLanguageCode":null}}`)
		want := &EntryChange{}
		if diff := cmp.Diff(want, c); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		back, b := roundTrip(t, c)
		for _, field := range []string{`"model":null`, `"actor":null`, `"status":null`, `"publishedAt":null`, `"sourceLanguageCode":null`} {
			if !bytes.Contains([]byte(b), []byte(field)) {
				t.Errorf("re-encoded %s: no %s", b, field)
			}
		}
		if diff := cmp.Diff(want, back); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
	t.Run("nullable fields set", func(t *testing.T) {
		c := decode(t, `{"model":"m","actor":{"userId":"u","via":"ui"},"entry":{"status":"draft","previousStatus":"draft","publishedAt":"2024-05-01T09:59:59.5Z","sourceLanguageCode":"en"}}`)
		want := &EntryChange{
			ContentMeta: ContentMeta{Model: ptr("m"), Actor: &Actor{UserID: "u", Via: ViaUI}},
			Entry: Entry{
				Status: status(EntryStatusDraft), PreviousStatus: status(EntryStatusDraft),
				PublishedAt: ptr(mutated), SourceLanguageCode: ptr("en"),
			},
		}
		if diff := cmp.Diff(want, c, cmp.Comparer(time.Time.Equal)); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
		back, _ := roundTrip(t, c)
		if diff := cmp.Diff(want, back, cmp.Comparer(time.Time.Equal)); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	})
}

func TestParseUnknownType(t *testing.T) {
	body := []byte(`{"id":"evt_9","eventType":"glossary.updated","timestamp":1714557600123,"data":{"term":"cart","n":[1,2]}}`)
	ev, err := Parse(body)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	want := &Event{
		ID: "evt_9", Type: "glossary.updated", Timestamp: dispatched,
		Data: &UnknownData{Raw: json.RawMessage(`{"term":"cart","n":[1,2]}`)},
	}
	if diff := diffEvent(want, json.RawMessage(`{"term":"cart","n":[1,2]}`), ev); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseTolerant(t *testing.T) {
	tests := []struct {
		name string
		body string
		want *Event
		raw  string // RawData
	}{
		{
			"unknown fields ignored",
			`{"id":"evt_1","eventType":"language.removed","extra":{"a":1},"data":{"org":"o","language":"it","new":true}}`,
			&Event{ID: "evt_1", Type: EventLanguageRemoved, Data: &LanguageRemoved{Org: "o", Language: "it"}},
			`{"org":"o","language":"it","new":true}`,
		},
		{
			"version as a number, timestamp as a string",
			`{"id":"evt_1","eventType":"language.removed","version":1,"timestamp":"1714557600123"}`,
			&Event{ID: "evt_1", Type: EventLanguageRemoved, Version: "1", Timestamp: dispatched, Data: &LanguageRemoved{}},
			"",
		},
		{
			"no data",
			`{"id":"evt_1","eventType":"keys.created"}`,
			&Event{ID: "evt_1", Type: EventKeysCreated, Data: &KeysCreated{}},
			"",
		},
		{
			"fractional duration",
			`{"id":"evt_1","eventType":"sync.completed","data":{"duration":1.5}}`,
			&Event{ID: "evt_1", Type: EventSyncCompleted, Data: &SyncCompleted{DurationMS: 1.5}},
			`{"duration":1.5}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.body))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if diff := diffEvent(tt.want, json.RawMessage(tt.raw), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestParseMemberOrder checks that the envelope's members may come in any
// order and repeat, as encoding/json reads them into a struct.
func TestParseMemberOrder(t *testing.T) {
	keys := func(names ...string) *KeysCreated { return &KeysCreated{Keys: names} }
	tests := []struct {
		name, body string
		typ        EventType
		data       any
		raw        string
	}{
		{"data before eventType", `{"id":"e","data":{"keys":["a"]},"eventType":"keys.created"}`,
			EventKeysCreated, keys("a"), `{"keys":["a"]}`},
		{"data before an unknown eventType", `{"id":"e","data":{"keys":["a"]},"eventType":"x.y"}`,
			"x.y", &UnknownData{Raw: json.RawMessage(`{"keys":["a"]}`)}, `{"keys":["a"]}`},
		{"eventType repeated, the last wins", `{"id":"e","eventType":"keys.deleted","eventType":"keys.created","data":{"keys":["a"]}}`,
			EventKeysCreated, keys("a"), `{"keys":["a"]}`},
		{"eventType changed after data", `{"id":"e","eventType":"keys.deleted","data":{"keys":["a"]},"eventType":"x.y"}`,
			"x.y", &UnknownData{Raw: json.RawMessage(`{"keys":["a"]}`)}, `{"keys":["a"]}`},
		{"data null", `{"id":"e","eventType":"keys.created","data":null}`,
			EventKeysCreated, keys(), `null`},
		{"data null, unknown type", `{"id":"e","eventType":"x.y","data":null}`,
			"x.y", &UnknownData{Raw: json.RawMessage(`null`)}, `null`},
		{"keys in another case", `{"ID":"e","EVENTTYPE":"keys.created","Data":{"Keys":["a"]}}`,
			EventKeysCreated, keys("a"), `{"Keys":["a"]}`},
		{"data repeated: merged, RawData the last", `{"id":"e","eventType":"keys.created","data":{"org":"o","keys":["a"]},"data":{"keys":["b"]}}`,
			EventKeysCreated, &KeysCreated{Org: "o", Keys: []string{"b"}}, `{"keys":["b"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.body))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			want := &Event{ID: "e", Type: tt.typ, Data: tt.data}
			if diff := diffEvent(want, json.RawMessage(tt.raw), got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ name, body string }{
		{"empty", ``},
		{"null", `null`},
		{"array", `[{"id":"evt_1","eventType":"keys.created"}]`},
		{"string", `"evt_1"`},
		{"truncated", `{"id":"evt_1","eventType":"keys.created"`},
		{"no id", `{"eventType":"keys.created","data":{}}`},
		{"empty id", `{"id":"","eventType":"keys.created"}`},
		{"no eventType", `{"id":"evt_1","data":{}}`},
		{"id not a string", `{"id":1,"eventType":"keys.created"}`},
		{"timestamp not a number", `{"id":"evt_1","eventType":"keys.created","timestamp":"soon"}`},
		{"createdAt not ISO 8601", `{"id":"evt_1","eventType":"keys.created","createdAt":"yesterday"}`},
		{"data field of the wrong type", `{"id":"evt_1","eventType":"keys.created","data":{"keys":"a"}}`},
		{"data not an object", `{"id":"evt_1","eventType":"keys.created","data":[1]}`},
		{"content timestamp not ISO 8601", `{"id":"evt_1","eventType":"content.model.created","data":{"timestamp":1}}`},
		{"data of the wrong type before eventType", `{"id":"evt_1","data":{"keys":"a"},"eventType":"keys.created"}`},
		{"data of the wrong type, eventType repeated", `{"id":"evt_1","eventType":"keys.created","data":{"keys":"a"},"eventType":"keys.created"}`},
		{"eventType not a string", `{"id":"evt_1","eventType":1,"data":{}}`},
		{"trailing data", `{"id":"evt_1","eventType":"keys.created"} {}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Parse([]byte(tt.body))
			if !errors.Is(err, ErrInvalidPayload) || ev != nil {
				t.Fatalf("Parse = %v, %v; want nil, ErrInvalidPayload", ev, err)
			}
		})
	}
}

func TestSyncCompletedDuration(t *testing.T) {
	for ms, want := range map[float64]time.Duration{5230: 5230 * time.Millisecond, 1.5: 1500 * time.Microsecond, 0: 0} {
		if got := (&SyncCompleted{DurationMS: ms}).Duration(); got != want {
			t.Errorf("Duration(%v ms) = %v, want %v", ms, got, want)
		}
	}
}

func TestConstructEvent(t *testing.T) {
	body := readGolden(t, EventKeysCreated)
	v := newTestVerifier(t)
	ev, err := v.ConstructEvent(body, Sign(testSecret, testNow, body))
	if err != nil {
		t.Fatalf("ConstructEvent: %v", err)
	}
	if diff := cmp.Diff(goldenData[EventKeysCreated].data, ev.Data); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := v.ConstructEvent(body, Sign("whsec_other", testNow, body)); !errors.Is(err, ErrSignatureMismatch) {
		t.Errorf("ConstructEvent(other secret) = %v, want ErrSignatureMismatch", err)
	}
	notJSON := []byte("hello")
	if _, err := v.ConstructEvent(notJSON, Sign(testSecret, testNow, notJSON)); !errors.Is(err, ErrInvalidPayload) {
		t.Errorf("ConstructEvent(signed non-JSON) = %v, want ErrInvalidPayload", err)
	}
}

// TestParseCompact checks that layout does not matter: every golden
// payload, compacted, decodes to the same event but for RawData, which
// keeps the data as sent.
func TestParseCompact(t *testing.T) {
	for typ := range goldenData {
		indented := readGolden(t, typ)
		var compact bytes.Buffer
		if err := json.Compact(&compact, indented); err != nil {
			t.Fatal(err)
		}
		want, err := Parse(indented)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Parse(compact.Bytes())
		if err != nil {
			t.Fatalf("%s compacted: %v", typ, err)
		}
		if raw := got.RawData(); len(raw) == 0 || !bytes.Contains(compact.Bytes(), raw) {
			t.Errorf("%s: RawData %s is not the data as sent", typ, raw)
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Event{})); diff != "" {
			t.Errorf("%s: compacted differs (-indented +compact):\n%s", typ, diff)
		}
	}
}
