package webhook

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// This file is Parse's fast path: a small JSON reader for payloads shaped
// exactly as the spec shows them, without reflection and reading the body
// once. encoding/json reads a typed payload no faster than a map, and twice
// (envelope, then data). The reader gives up on anything else (an unknown
// key or event type, a key in another case, an escape in a string, a
// number where the spec has a string, data before eventType...) and Parse
// then falls back to encoding/json, so the fast path never changes a
// result, only its cost. FuzzParseFast holds the two paths to that.

// reader reads JSON from b at i. ok turns false for good at the first thing
// it does not handle; every method is then a no-op.
type reader struct {
	b  []byte
	i  int
	ok bool
}

// fieldDecoder is a data struct the reader can fill: field reads the value
// of key into the struct and reports whether it knows key.
type fieldDecoder interface {
	field(r *reader, key []byte) bool
}

// parseFast decodes body if it has the expected shape, and reports whether
// it did.
func parseFast(body []byte) (*Event, bool) {
	r := &reader{b: body, ok: true}
	ev := &Event{}
	var ms int64
	hasTimestamp := false
	var createdAt string
	var data fieldDecoder
	r.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			r.str(&ev.ID)
		case "webhookConfigId":
			r.str(&ev.WebhookConfigID)
		case "eventType":
			if ev.Type != "" || data != nil {
				return false // twice, or after data
			}
			r.str((*string)(&ev.Type))
			if data, _ = newData(ev.Type).(fieldDecoder); data == nil {
				return false // unknown type: UnknownData
			}
		case "timestamp":
			if r.literal("null") {
				return false
			}
			r.integer(&ms)
			hasTimestamp = true
		case "createdAt":
			r.str(&createdAt)
		case "version":
			r.str(&ev.Version)
		case "data":
			if data == nil || ev.RawData != nil || r.peek() != '{' {
				return false // before eventType, twice, or not an object
			}
			start := r.i
			r.object(func(key []byte) bool { return data.field(r, key) })
			ev.RawData = append([]byte(nil), r.b[start:r.i]...)
		default:
			return false
		}
		return true
	})
	r.ws()
	if !r.ok || r.i != len(r.b) || ev.ID == "" || ev.RawData == nil {
		return nil, false
	}
	if hasTimestamp {
		ev.Timestamp = time.UnixMilli(ms)
	}
	var err error
	if ev.CreatedAt, err = parseCreatedAt(createdAt); err != nil {
		return nil, false
	}
	ev.Data = data
	return ev, true
}

func (r *reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (r *reader) peek() byte {
	r.ws()
	if !r.ok || r.i == len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// consume reads c if it comes next.
func (r *reader) consume(c byte) bool {
	if r.peek() != c {
		return false
	}
	r.i++
	return true
}

// literal reads word (null, true, false) if it comes next.
func (r *reader) literal(word string) bool {
	r.ws()
	if !r.ok || len(r.b)-r.i < len(word) || string(r.b[r.i:r.i+len(word)]) != word {
		return false
	}
	r.i += len(word)
	return true
}

// object reads an object, calling field for each key with r before the
// value; field reads the value, or returns false to give up.
func (r *reader) object(field func(key []byte) bool) {
	if !r.consume('{') {
		r.ok = false
		return
	}
	if r.consume('}') {
		return
	}
	for r.ok {
		key := r.rawString()
		if !r.consume(':') || !field(key) {
			r.ok = false
			return
		}
		if r.consume(',') {
			continue
		}
		if !r.consume('}') {
			r.ok = false
		}
		return
	}
}

// array reads an array, calling elem for each element.
func (r *reader) array(elem func()) {
	if !r.consume('[') {
		r.ok = false
		return
	}
	if r.consume(']') {
		return
	}
	for r.ok {
		elem()
		if r.consume(',') {
			continue
		}
		if !r.consume(']') {
			r.ok = false
		}
		return
	}
}

// rawString reads a string without escapes and returns its contents,
// valid UTF-8 without control characters, as a slice of b.
func (r *reader) rawString() []byte {
	if !r.consume('"') {
		r.ok = false
		return nil
	}
	start, ascii := r.i, true
	for ; r.i < len(r.b); r.i++ {
		switch c := r.b[r.i]; {
		case c == '"':
			s := r.b[start:r.i]
			r.i++
			if !ascii && !utf8.Valid(s) {
				r.ok = false // encoding/json would replace bad bytes
			}
			return s
		case c == '\\' || c < 0x20:
			r.ok = false
			return nil
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	r.ok = false
	return nil
}

// The readers of values below leave the target alone on null, as
// encoding/json does, but set pointers and slices to nil.

func (r *reader) str(p *string) {
	if r.literal("null") {
		return
	}
	if s := r.rawString(); r.ok {
		*p = string(s)
	}
}

func (r *reader) strPtr(p **string) {
	if r.literal("null") {
		*p = nil
		return
	}
	var s string
	if r.str(&s); r.ok {
		*p = &s
	}
}

func (r *reader) status(p **EntryStatus) {
	if r.literal("null") {
		*p = nil
		return
	}
	var s string
	if r.str(&s); r.ok {
		st := EntryStatus(s)
		*p = &st
	}
}

func (r *reader) strs(p *[]string) {
	if r.literal("null") {
		*p = nil
		return
	}
	list := []string{}
	r.array(func() {
		var s string
		r.str(&s)
		list = append(list, s)
	})
	*p = list
}

// number reads a JSON number and returns its text.
func (r *reader) number() []byte {
	r.ws()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	switch {
	case r.i < len(r.b) && r.b[r.i] == '0':
		r.i++
	case r.digits() == 0:
		r.ok = false
		return nil
	}
	if r.i < len(r.b) && r.b[r.i] == '.' {
		r.i++
		if r.digits() == 0 {
			r.ok = false
			return nil
		}
	}
	if r.i < len(r.b) && (r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.i++
		if r.i < len(r.b) && (r.b[r.i] == '+' || r.b[r.i] == '-') {
			r.i++
		}
		if r.digits() == 0 {
			r.ok = false
			return nil
		}
	}
	return r.b[start:r.i]
}

func (r *reader) digits() int {
	start := r.i
	for r.i < len(r.b) && '0' <= r.b[r.i] && r.b[r.i] <= '9' {
		r.i++
	}
	return r.i - start
}

func (r *reader) integer(p *int64) {
	if r.literal("null") {
		return
	}
	n, err := strconv.ParseInt(string(r.number()), 10, 64)
	if err != nil {
		r.ok = false // a fraction, an exponent or out of range
		return
	}
	*p = n
}

func (r *reader) int(p *int) {
	n := int64(*p)
	if r.integer(&n); int64(int(n)) != n {
		r.ok = false
		return
	}
	*p = int(n)
}

func (r *reader) float(p *float64) {
	if r.literal("null") {
		return
	}
	f, err := strconv.ParseFloat(string(r.number()), 64)
	if err != nil {
		r.ok = false
		return
	}
	*p = f
}

func (r *reader) boolean(p *bool) {
	switch {
	case r.literal("null"):
	case r.literal("true"):
		*p = true
	case r.literal("false"):
		*p = false
	default:
		r.ok = false
	}
}

// time reads a string with time.Time.UnmarshalJSON, as encoding/json does.
func (r *reader) time(p *time.Time) {
	if r.literal("null") {
		return
	}
	r.ws()
	start := r.i
	if r.rawString(); r.ok && p.UnmarshalJSON(r.b[start:r.i]) != nil {
		r.ok = false
	}
}

func (r *reader) timePtr(p **time.Time) {
	if r.literal("null") {
		*p = nil
		return
	}
	var t time.Time
	if r.time(&t); r.ok {
		*p = &t
	}
}

// The field methods of the data structs, one per struct shape; the event
// structs that embed a shape get its method by promotion.

func (d *TranslationsPublished) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "languages":
		r.strs(&d.Languages)
	case "publishedAt":
		r.time(&d.PublishedAt)
	case "keysCount":
		r.int(&d.KeysCount)
	default:
		return false
	}
	return true
}

func (d *TranslationsUpdated) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "language":
		r.str(&d.Language)
	case "keysCount":
		r.int(&d.KeysCount)
	default:
		return false
	}
	return true
}

func (d *KeysCreated) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "keys":
		r.strs(&d.Keys)
	case "namespace":
		r.str(&d.Namespace)
	default:
		return false
	}
	return true
}

func (d *KeysDeleted) field(r *reader, key []byte) bool {
	return (*KeysCreated)(d).field(r, key) // same fields
}

func (d *SyncCompleted) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "status":
		r.str(&d.Status)
	case "keysImported":
		r.int(&d.KeysImported)
	case "duration":
		r.float(&d.DurationMS)
	default:
		return false
	}
	return true
}

func (d *LanguageAdded) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "language":
		r.str(&d.Language)
	case "languageName":
		r.str(&d.LanguageName)
	default:
		return false
	}
	return true
}

func (d *LanguageRemoved) field(r *reader, key []byte) bool {
	switch string(key) {
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "language":
		r.str(&d.Language)
	default:
		return false
	}
	return true
}

func (d *ContentMeta) field(r *reader, key []byte) bool {
	switch string(key) {
	case "event":
		r.str((*string)(&d.Event))
	case "timestamp":
		r.time(&d.Timestamp)
	case "org":
		r.str(&d.Org)
	case "project":
		r.str(&d.Project)
	case "model":
		r.strPtr(&d.Model)
	case "actor":
		if r.literal("null") {
			d.Actor = nil
			break
		}
		if d.Actor == nil {
			d.Actor = new(Actor)
		}
		r.object(func(key []byte) bool { return d.Actor.field(r, key) })
	default:
		return false
	}
	return true
}

func (a *Actor) field(r *reader, key []byte) bool {
	switch string(key) {
	case "userId":
		r.str(&a.UserID)
	case "via":
		r.str((*string)(&a.Via))
	default:
		return false
	}
	return true
}

func (d *EntryChange) field(r *reader, key []byte) bool {
	switch string(key) {
	case "entry":
		r.object(func(key []byte) bool { return d.Entry.field(r, key) })
	case "languages":
		r.strs(&d.Languages)
	case "changedLanguages":
		r.strs(&d.ChangedLanguages)
	default:
		return d.ContentMeta.field(r, key)
	}
	return true
}

func (e *Entry) field(r *reader, key []byte) bool {
	switch string(key) {
	case "id":
		r.str(&e.ID)
	case "slug":
		r.str(&e.Slug)
	case "status":
		r.status(&e.Status)
	case "previousStatus":
		r.status(&e.PreviousStatus)
	case "publishedAt":
		r.timePtr(&e.PublishedAt)
	case "sourceLanguageCode":
		r.strPtr(&e.SourceLanguageCode)
	default:
		return false
	}
	return true
}

func (d *BulkChange) field(r *reader, key []byte) bool {
	switch string(key) {
	case "entries":
		if r.literal("null") {
			d.Entries = nil
			break
		}
		rows := []BulkEntry{}
		r.array(func() {
			var row BulkEntry
			r.object(func(key []byte) bool { return row.field(r, key) })
			rows = append(rows, row)
		})
		d.Entries = rows
	case "count":
		r.int(&d.Count)
	case "languages":
		r.strs(&d.Languages)
	default:
		return d.ContentMeta.field(r, key)
	}
	return true
}

func (e *BulkEntry) field(r *reader, key []byte) bool {
	switch string(key) {
	case "id":
		r.str(&e.ID)
	case "slug":
		r.str(&e.Slug)
	case "previousStatus":
		r.status(&e.PreviousStatus)
	case "status":
		r.status(&e.Status)
	default:
		return false
	}
	return true
}

func (d *FieldChange) field(r *reader, key []byte) bool {
	if string(key) != "field" {
		return d.ContentMeta.field(r, key)
	}
	r.object(func(key []byte) bool { return d.Field.field(r, key) })
	return true
}

func (f *Field) field(r *reader, key []byte) bool {
	switch string(key) {
	case "name":
		r.str(&f.Name)
	case "type":
		r.str(&f.Type)
	case "localized":
		r.boolean(&f.Localized)
	default:
		return false
	}
	return true
}
