package partnertest_test

import (
	"slices"
	"testing"

	"github.com/locsvc/partner-go/partnertest"
	"github.com/locsvc/partner-go/webhook"
)

// fieldOut is FieldOut of mcp-tools.md section 8.
type fieldOut struct {
	ID, Nm, Dn, Tp string
	Loc, Req       bool
	Ph, Ht         *string
	Pos            int
	Opts           *struct {
		Ev  []struct{ L, V string }
		Sit *bool
	}
	Fc *struct {
		Tm string
		Mp bool
	}
}

type modelOut struct {
	ID, Sl, Dn, Kind string
	Desc, Ico        *string
	Vh, Ib           bool
	Ec               int
	Flds             []fieldOut
}

// TestContentModels: model and field tools, their results and events.
func TestContentModels(t *testing.T) {
	f := newContentFixture(t)
	var created struct {
		Created bool
		Model   modelOut
	}
	callOK(t, f.cs, "createContentModel", map[string]any{"project": project, "slug": "page", "displayName": "Page", "kind": "single",
		"enableVersionHistory": false, "fields": []any{
			map[string]any{"name": "b", "displayName": "B", "position": 1},
			map[string]any{"name": "a", "displayName": "A", "position": 0, "type": "relation", "fieldConfig": map[string]any{"targetModel": "page", "multiple": true}},
		}}, &created)
	m := created.Model
	if !created.Created || m.Sl != "page" || m.Kind != "single" || m.Vh || !m.Ib || len(m.Flds) != 2 || m.Flds[0].Nm != "a" || m.Flds[0].Pos != 0 ||
		m.Flds[0].Fc == nil || !m.Flds[0].Fc.Mp || m.Flds[0].Fc.Tm != "page" || m.Flds[1].Tp != "text" || m.Flds[1].Ph != nil {
		t.Errorf("createContentModel = %+v", created)
	}
	var added struct {
		Created bool
		Field   fieldOut
	}
	callOK(t, f.cs, "addField", map[string]any{"project": project, "modelSlug": "page", "name": "mood", "displayName": "Mood", "type": "enum",
		"position": 0, "options": map[string]any{"enumValues": []any{map[string]string{"label": "Happy", "value": "happy"}}, "showInTable": true}}, &added)
	if !added.Created || added.Field.Pos != 0 || added.Field.Opts == nil || len(added.Field.Opts.Ev) != 1 || added.Field.Opts.Ev[0].V != "happy" || !*added.Field.Opts.Sit {
		t.Errorf("addField = %+v", added)
	}
	var updated struct {
		Updated bool
		Field   fieldOut
	}
	callOK(t, f.cs, "updateField", map[string]any{"project": project, "modelSlug": "page", "fieldName": "b", "localized": true, "helpText": "help"}, &updated)
	if !updated.Updated || !updated.Field.Loc || *updated.Field.Ht != "help" || updated.Field.Nm != "b" {
		t.Errorf("updateField = %+v", updated)
	}
	var ok struct {
		Reordered, Removed, Updated, Deleted, OK bool
	}
	callOK(t, f.cs, "reorderFields", map[string]any{"project": project, "modelSlug": "page", "fieldNames": []string{"b"}}, &ok)
	var got modelOut
	callOK(t, f.cs, "getContentModel", map[string]any{"project": project, "modelSlug": "page"}, &got)
	var names []string
	for i, fl := range got.Flds {
		names = append(names, fl.Nm)
		if fl.Pos != i {
			t.Errorf("field %s at %d has pos %d", fl.Nm, i, fl.Pos)
		}
	}
	if !ok.Reordered || !ok.OK || !slices.Equal(names, []string{"b", "mood", "a"}) {
		t.Errorf("after reorderFields %v: %v", ok, names)
	}
	callOK(t, f.cs, "removeField", map[string]any{"project": project, "modelSlug": "page", "fieldName": "mood"}, &ok)
	callOK(t, f.cs, "updateContentModel", map[string]any{"project": project, "modelSlug": "page", "description": "Pages", "includeBody": false}, new(map[string]any))
	var list struct{ Mdls []modelOut }
	callOK(t, f.cs, "listContentModels", map[string]any{"project": project}, &list)
	if len(list.Mdls) != 1 || *list.Mdls[0].Desc != "Pages" || list.Mdls[0].Ib || len(list.Mdls[0].Flds) != 2 || list.Mdls[0].Ec != 0 {
		t.Errorf("listContentModels = %+v", list)
	}
	evs := f.rcv.take(t)
	want := []webhook.EventType{webhook.EventModelCreated, webhook.EventFieldAdded, webhook.EventFieldUpdated, webhook.EventFieldDeleted, webhook.EventModelUpdated}
	if !slices.Equal(types(evs), want) {
		t.Fatalf("events %v, want %v", types(evs), want)
	}
	fu := evs[2].Data.(*webhook.FieldUpdated)
	if fu.Field != (webhook.Field{Name: "b", Type: "text", Localized: true}) || *fu.Model != "page" || fu.Actor.Via != webhook.ViaMCP {
		t.Errorf("field.updated %+v", fu)
	}
	if fd := evs[3].Data.(*webhook.FieldDeleted); fd.Field.Name != "mood" || fd.Field.Type != "enum" {
		t.Errorf("field.deleted %+v", fd)
	}

	// Deleting a model deletes its entries, each with its own event.
	f.srv.AddContentModel(f.p.ID, partnertest.ContentModel{Slug: "post", Fields: []partnertest.ContentField{{Name: "summary", Localized: true}}})
	var e1, e2 struct{ Entry entryMin }
	callOK(t, f.cs, "createContentEntry", map[string]any{"project": project, "modelSlug": "post", "title": "One", "slug": "one"}, &e1)
	callOK(t, f.cs, "createContentEntry", map[string]any{"project": project, "modelSlug": "post", "title": "Two", "slug": "two"}, &e2)
	f.rcv.take(t)
	callOK(t, f.cs, "deleteContentModel", map[string]any{"project": project, "modelSlug": "post"}, &ok)
	evs = f.rcv.take(t)
	if !ok.Deleted || !slices.Equal(types(evs), []webhook.EventType{webhook.EventEntryDeleted, webhook.EventEntryDeleted, webhook.EventModelDeleted}) {
		t.Fatalf("deleteContentModel %+v sent %v", ok, types(evs))
	}
	checkEntryEvent(t, evs[0], webhook.EventEntryDeleted, e1.Entry.ID, "", "", nil)
	if len(f.srv.ContentEntries(f.p.ID)) != 0 {
		t.Error("entries left after deleteContentModel")
	}
	if text := callErr(t, f.cs, "getContentModel", map[string]any{"project": project, "modelSlug": "post"}); text != `Model "post" not found` {
		t.Errorf("deleted model: %q", text)
	}
}

// TestContentBlocks: the block catalog answers in the documented shapes.
func TestContentBlocks(t *testing.T) {
	f := newContentFixture(t)
	schema := map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}, "count": map[string]any{"type": "integer"}}, "required": []string{"title"}}
	var reg struct {
		Registered bool
		Block      map[string]any
	}
	callOK(t, f.cs, "registerBlock", map[string]any{"project": project, "slug": "hero", "displayName": "Hero", "category": "layout", "jsonSchema": schema, "previewUrl": "https://example.com/hero"}, &reg)
	if !reg.Registered || reg.Block["slug"] != "hero" || reg.Block["registeredAt"] == nil {
		t.Errorf("registerBlock = %+v", reg)
	}
	var bulk struct {
		Registered int
		Blocks     []map[string]any
	}
	callOK(t, f.cs, "bulkRegisterBlocks", map[string]any{"project": project, "blocks": []any{
		map[string]any{"slug": "cta", "displayName": "Call to action", "jsonSchema": map[string]any{}},
		map[string]any{"slug": "hero", "displayName": "Hero v2", "category": "layout", "jsonSchema": schema},
	}}, &bulk)
	if bulk.Registered != 2 || len(bulk.Blocks) != 2 {
		t.Errorf("bulkRegisterBlocks = %+v", bulk)
	}
	if text := callErr(t, f.cs, "bulkRegisterBlocks", map[string]any{"project": project, "blocks": []any{
		map[string]any{"slug": "ok-one", "displayName": "OK", "jsonSchema": map[string]any{}},
		map[string]any{"slug": "Bad", "displayName": "Bad", "jsonSchema": map[string]any{}},
	}}); text != "Validation error: Invalid" {
		t.Errorf("bad slug in a bulk: %q", text)
	}
	var list struct{ Blocks []map[string]any }
	callOK(t, f.cs, "listBlocks", map[string]any{"project": project, "category": "layout"}, &list)
	if len(list.Blocks) != 1 || list.Blocks[0]["displayName"] != "Hero v2" || list.Blocks[0]["paramsSchema"] == nil {
		t.Errorf("listBlocks = %+v (ok-one must not be registered)", list)
	}
	var v struct {
		Valid  bool
		Errors []string
	}
	callOK(t, f.cs, "validateBlockParams", map[string]any{"project": project, "slug": "hero", "params": map[string]any{"count": "3"}}, &v)
	if v.Valid || !slices.Equal(v.Errors, []string{"params.title: Required", "params.count: Expected integer, received string"}) {
		t.Errorf("validateBlockParams = %+v", v)
	}
	callOK(t, f.cs, "validateBlockParams", map[string]any{"project": project, "slug": "hero", "params": map[string]any{"title": "Hi", "count": 3}}, &v)
	if !v.Valid {
		t.Errorf("valid params: %+v", v)
	}
	var del struct{ Deleted bool }
	callOK(t, f.cs, "deleteBlock", map[string]any{"project": project, "slug": "hero"}, &del)
	if text := callErr(t, f.cs, "getBlock", map[string]any{"project": project, "slug": "hero"}); !del.Deleted || text != "Block not found" {
		t.Errorf("after deleteBlock %+v: %q", del, text)
	}
	if evs := f.rcv.take(t); len(evs) != 0 {
		t.Errorf("block tools sent %v", types(evs))
	}
}
