package toolcalls

import (
	"cmp"
	"context"
	"fmt"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
)

// Model and field tool names on the content server.
const (
	toolListModels    = "listContentModels"
	toolGetModel      = "getContentModel"
	toolCreateModel   = "createContentModel"
	toolUpdateModel   = "updateContentModel"
	toolDeleteModel   = "deleteContentModel"
	toolAddField      = "addField"
	toolUpdateField   = "updateField"
	toolRemoveField   = "removeField"
	toolReorderFields = "reorderFields"
)

// ListModels lists the project's models with listContentModels.
func ListModels(ctx context.Context, c Caller, project string) ([]content.Model, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	var w struct {
		Mdls []content.Model `json:"mdls"`
	}
	if _, err := call(ctx, c, toolListModels, projectArgs{Project: project}, &w); err != nil {
		return nil, err
	}
	return append([]content.Model{}, w.Mdls...), nil
}

type modelSlugArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
}

func checkModelRef(project, model string) error {
	return cmp.Or(checkProject(project), required("model", model))
}

// GetModel returns one model with getContentModel.
func GetModel(ctx context.Context, c Caller, project, model string) (*content.Model, error) {
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	var m content.Model
	return result(ctx, c, toolGetModel, modelSlugArgs{project, model}, &m, &m.Raw)
}

// checkFieldType checks a field's type.
func checkFieldType(field string, t content.FieldType) error {
	return oneOf(field, t, "a field type (text, textarea, richtext, number, boolean, date, datetime, enum, media, relation)",
		"", content.FieldText, content.FieldTextarea, content.FieldRichText, content.FieldNumber, content.FieldBoolean,
		content.FieldDate, content.FieldDateTime, content.FieldEnum, content.FieldMedia, content.FieldRelation)
}

// checkOptions checks a field's options; field names them in errors.
func checkOptions(field string, o *content.FieldOptions) error {
	if o == nil {
		return nil
	}
	if len(o.EnumValues) > content.MaxEnumValues {
		return apierr.ArgumentError(field+".EnumValues", fmt.Sprintf("has %d values; at most %d", len(o.EnumValues), content.MaxEnumValues))
	}
	for i, ev := range o.EnumValues {
		f := fmt.Sprintf("%s.EnumValues[%d].", field, i)
		if err := cmp.Or(required(f+"Label", ev.Label), maxLen(limit{f + "Label", &ev.Label, 200}),
			required(f+"Value", ev.Value), maxLen(limit{f + "Value", &ev.Value, 200})); err != nil {
			return err
		}
	}
	if ai := o.AIGeneration; ai != nil {
		return maxLen(limit{field + ".AIGeneration.Prompt", &ai.Prompt, 2000}, limit{field + ".AIGeneration.Model", &ai.Model, 100})
	}
	return nil
}

// checkNewField checks a NewField; field names it in errors.
func checkNewField(field string, f content.NewField) error {
	if err := cmp.Or(pattern(field+".Name", f.Name, 100, fieldNameRE, "a-z, 0-9 and _, not starting with a digit"),
		required(field+".DisplayName", f.DisplayName), maxLen(limit{field + ".DisplayName", &f.DisplayName, 200}),
		checkFieldType(field+".Type", f.Type),
		maxLen(limit{field + ".Placeholder", &f.Placeholder, 500}, limit{field + ".HelpText", &f.HelpText, 500})); err != nil {
		return err
	}
	if f.Position != nil && *f.Position < 0 {
		return apierr.ArgumentError(field+".Position", fmt.Sprintf("is %d; positions count from 0", *f.Position))
	}
	return checkOptions(field+".Options", f.Options)
}

// checkKind checks a model's kind.
func checkKind(k content.ModelKind) error {
	return oneOf("Kind", k, "collection or single", "", content.KindCollection, content.KindSingle)
}

// CreateModel creates a model with createContentModel.
func CreateModel(ctx context.Context, c Caller, project string, m content.NewModel) (*content.Model, error) {
	if err := cmp.Or(checkProject(project), pattern("Slug", m.Slug, 100, modelSlugRE, "a-z, 0-9 and -"),
		required("DisplayName", m.DisplayName),
		maxLen(limit{"DisplayName", &m.DisplayName, 200}, limit{"Description", &m.Description, 1000}, limit{"Icon", &m.Icon, 50}),
		checkKind(m.Kind)); err != nil {
		return nil, err
	}
	for i, f := range m.Fields {
		if err := checkNewField(fmt.Sprintf("Fields[%d]", i), f); err != nil {
			return nil, err
		}
	}
	// The service keeps versions and bodies unless told false.
	no := false
	args := struct {
		Project string `json:"project"`
		content.NewModel
		EnableVersionHistory *bool `json:"enableVersionHistory,omitempty"`
		IncludeBody          *bool `json:"includeBody,omitempty"`
	}{Project: project, NewModel: m}
	if m.NoVersionHistory {
		args.EnableVersionHistory = &no
	}
	if m.NoBody {
		args.IncludeBody = &no
	}
	v, _, err := write[content.Model](ctx, c, "model", toolCreateModel, args)
	return v, err
}

// UpdateModel changes a model with updateContentModel.
func UpdateModel(ctx context.Context, c Caller, project, model string, u content.ModelUpdate) (*content.Model, error) {
	if err := cmp.Or(checkModelRef(project, model),
		maxLen(limit{"DisplayName", &u.DisplayName, 200}, limit{"Description", u.Description, 1000}, limit{"Icon", u.Icon, 50}),
		checkKind(u.Kind)); err != nil {
		return nil, err
	}
	if u == (content.ModelUpdate{}) {
		return nil, apierr.ArgumentError("update", "changes nothing")
	}
	v, _, err := write[content.Model](ctx, c, "model", toolUpdateModel, struct {
		modelSlugArgs
		content.ModelUpdate
	}{modelSlugArgs{project, model}, u})
	return v, err
}

// DeleteModel deletes a model, its fields and entries with
// deleteContentModel.
func DeleteModel(ctx context.Context, c Caller, project, model string) error {
	if err := checkModelRef(project, model); err != nil {
		return err
	}
	return confirm(ctx, c, toolDeleteModel, modelSlugArgs{project, model})
}

// AddField adds a field to a model with addField.
func AddField(ctx context.Context, c Caller, project, model string, f content.NewField) (*content.Field, error) {
	if err := cmp.Or(checkModelRef(project, model), checkNewField("field", f)); err != nil {
		return nil, err
	}
	v, _, err := write[content.Field](ctx, c, "field", toolAddField, struct {
		modelSlugArgs
		content.NewField
	}{modelSlugArgs{project, model}, f})
	return v, err
}

type fieldNameArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
	FieldName string `json:"fieldName"`
}

// UpdateField changes a field with updateField.
func UpdateField(ctx context.Context, c Caller, project, model, name string, u content.FieldUpdate) (*content.Field, error) {
	if err := cmp.Or(checkModelRef(project, model), required("field name", name),
		maxLen(limit{"DisplayName", &u.DisplayName, 200}), checkFieldType("Type", u.Type),
		maxLen(limit{"Placeholder", u.Placeholder, 500}, limit{"HelpText", u.HelpText, 500}),
		checkOptions("Options", u.Options)); err != nil {
		return nil, err
	}
	if u == (content.FieldUpdate{}) {
		return nil, apierr.ArgumentError("update", "changes nothing")
	}
	v, _, err := write[content.Field](ctx, c, "field", toolUpdateField, struct {
		fieldNameArgs
		content.FieldUpdate
	}{fieldNameArgs{project, model, name}, u})
	return v, err
}

// RemoveField removes a field and its values in every entry with
// removeField.
func RemoveField(ctx context.Context, c Caller, project, model, name string) error {
	if err := cmp.Or(checkModelRef(project, model), required("field name", name)); err != nil {
		return err
	}
	return confirm(ctx, c, toolRemoveField, fieldNameArgs{project, model, name})
}

// ReorderFields orders a model's fields with reorderFields: names[0]
// gets position 0.
func ReorderFields(ctx context.Context, c Caller, project, model string, names []string) error {
	if err := checkModelRef(project, model); err != nil {
		return err
	}
	if len(names) == 0 {
		return apierr.ArgumentError("field names", "is empty; want at least one")
	}
	if err := nonEmpty("field names", names); err != nil {
		return err
	}
	return confirm(ctx, c, toolReorderFields, struct {
		modelSlugArgs
		FieldNames []string `json:"fieldNames"`
	}{modelSlugArgs{project, model}, names})
}
