package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"

	"github.com/locsvc/partner-go/content"
	"github.com/locsvc/partner-go/internal/apierr"
)

// modelWire is a model record: what a model tool answers, or an item of
// listContentModels.
type modelWire struct {
	ID, Sl, Dn, Desc, Kind, Ico string
	Vh, Ib                      bool
	Ec                          int
	Flds                        []json.RawMessage
}

// fieldWire is a field record, as the field tools answer it.
type fieldWire struct {
	ID, Nm, Dn, Tp, Ph, Ht string
	Loc, Req               bool
	Pos                    int
	Opts                   *struct {
		Ev  []struct{ L, V string }
		Sit bool
	}
	Fc *struct {
		Tm string
		Mp *bool
	}
}

// modelFrom decodes one model record; an odd record keeps its Raw.
func modelFrom(tool string, raw json.RawMessage) content.Model {
	var w modelWire
	_ = decode(tool, raw, &w)
	return content.Model{
		ID: w.ID, Slug: w.Sl, DisplayName: w.Dn, Description: w.Desc, Kind: content.ModelKind(w.Kind),
		Icon: w.Ico, VersionHistory: w.Vh, IncludeBody: w.Ib, EntryCount: w.Ec, Fields: records(tool, w.Flds, fieldFrom), Raw: raw,
	}
}

// fieldFrom decodes one field record; a bare string is taken as the
// field's name.
func fieldFrom(tool string, raw json.RawMessage) content.Field {
	var name string
	if json.Unmarshal(raw, &name) == nil {
		return content.Field{Name: name, Raw: raw}
	}
	var w fieldWire
	_ = decode(tool, raw, &w)
	f := content.Field{
		ID: w.ID, Name: w.Nm, DisplayName: w.Dn, Type: content.FieldType(w.Tp), Localized: w.Loc, Required: w.Req,
		Placeholder: w.Ph, HelpText: w.Ht, Position: w.Pos, Raw: raw,
	}
	if w.Opts != nil {
		f.ShowInTable = w.Opts.Sit
		for _, ev := range w.Opts.Ev {
			f.EnumValues = append(f.EnumValues, content.EnumValue{Label: ev.L, Value: ev.V})
		}
	}
	if w.Fc != nil && (w.Fc.Tm != "" || w.Fc.Mp != nil) {
		f.Relation = &content.Relation{TargetModel: w.Fc.Tm, Multiple: w.Fc.Mp}
	}
	return f
}

// ListModels lists the project's models with listContentModels.
func ListModels(ctx context.Context, c Caller, project string) ([]content.Model, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	var w struct{ Mdls []json.RawMessage }
	if _, err := call(ctx, c, "listContentModels", projectArgs{Project: project}, &w); err != nil {
		return nil, err
	}
	return nonNil(records("listContentModels", w.Mdls, modelFrom)), nil
}

// modelArgs names a model, and a field of it, for the tools that take
// them; the fields a tool does not take are left empty, so they are not
// sent.
type modelArgs struct {
	Project    string   `json:"project"`
	ModelSlug  string   `json:"modelSlug"`
	FieldName  string   `json:"fieldName,omitempty"`
	FieldNames []string `json:"fieldNames,omitempty"`
	fieldArgs
}

func checkModelRef(project, model string) error {
	return cmp.Or(checkProject(project), required("model", model))
}

// GetModel returns one model with getContentModel.
func GetModel(ctx context.Context, c Caller, project, model string) (*content.Model, error) {
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	raw, err := call(ctx, c, "getContentModel", modelArgs{Project: project, ModelSlug: model}, &struct{}{})
	if err != nil {
		return nil, err
	}
	m := modelFrom("getContentModel", raw)
	return &m, nil
}

// fieldArgs is a field as addField and createContentModel take it;
// updateField takes it without name and position.
type fieldArgs struct {
	Name        string           `json:"name,omitempty"`
	DisplayName string           `json:"displayName,omitempty"`
	Type        string           `json:"type,omitempty"`
	Localized   *bool            `json:"localized,omitempty"`
	Required    *bool            `json:"required,omitempty"`
	Placeholder *string          `json:"placeholder,omitempty"`
	HelpText    *string          `json:"helpText,omitempty"`
	Position    *int             `json:"position,omitempty"`
	Options     *fieldOptionsArg `json:"options,omitempty"`
	FieldConfig *fieldConfigArg  `json:"fieldConfig,omitempty"`
}

type fieldOptionsArg struct {
	EnumValues   []enumValueArg `json:"enumValues,omitempty"`
	Unsplash     *enabledArg    `json:"unsplash,omitempty"`
	AIGeneration *aiArg         `json:"aiGeneration,omitempty"`
	ShowInTable  *bool          `json:"showInTable,omitempty"`
}

// enumValueArg, aiArg and fieldConfigArg are content.EnumValue,
// content.AIGeneration and content.Relation with their wire names: each
// converts from its content type.
type enumValueArg struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

type enabledArg struct {
	Enabled bool `json:"enabled"`
}

type aiArg struct {
	Enabled bool   `json:"enabled"`
	Prompt  string `json:"prompt,omitempty"`
	Model   string `json:"model,omitempty"`
}

type fieldConfigArg struct {
	TargetModel string `json:"targetModel,omitempty"`
	Multiple    *bool  `json:"multiple,omitempty"`
}

// checkFieldText checks what a new field and a field update both set;
// field prefixes the names in errors.
func checkFieldText(field, displayName string, t content.FieldType, placeholder, helpText string) error {
	return cmp.Or(maxLen(field+"DisplayName", displayName, 200),
		oneOf(field+"Type", t, "a field type (text, textarea, richtext, number, boolean, date, datetime, enum, media, relation)",
			"", content.FieldText, content.FieldTextarea, content.FieldRichText, content.FieldNumber, content.FieldBoolean,
			content.FieldDate, content.FieldDateTime, content.FieldEnum, content.FieldMedia, content.FieldRelation),
		maxLen(field+"Placeholder", placeholder, 500), maxLen(field+"HelpText", helpText, 500))
}

func optionsArg(field string, o *content.FieldOptions) (*fieldOptionsArg, error) {
	if o == nil {
		return nil, nil
	}
	if len(o.EnumValues) > content.MaxEnumValues {
		return nil, apierr.ArgumentError(field+".EnumValues", fmt.Sprintf("has %d values; at most %d", len(o.EnumValues), content.MaxEnumValues))
	}
	w := &fieldOptionsArg{ShowInTable: o.ShowInTable}
	for i, ev := range o.EnumValues {
		for _, p := range [...]struct{ name, s string }{{"Label", ev.Label}, {"Value", ev.Value}} {
			f := fmt.Sprintf("%s.EnumValues[%d].%s", field, i, p.name)
			if err := cmp.Or(required(f, p.s), maxLen(f, p.s, 200)); err != nil {
				return nil, err
			}
		}
		w.EnumValues = append(w.EnumValues, enumValueArg(ev))
	}
	if o.Unsplash != nil {
		w.Unsplash = &enabledArg{Enabled: *o.Unsplash}
	}
	if ai := o.AIGeneration; ai != nil {
		if err := cmp.Or(maxLen(field+".AIGeneration.Prompt", ai.Prompt, 2000), maxLen(field+".AIGeneration.Model", ai.Model, 100)); err != nil {
			return nil, err
		}
		w.AIGeneration = (*aiArg)(ai)
	}
	return w, nil
}

// newFieldArgs checks a NewField and returns its wire form; field names
// it in errors.
func newFieldArgs(field string, f content.NewField) (fieldArgs, error) {
	if err := cmp.Or(
		pattern(field+".Name", f.Name, 100, fieldNameRE, "a-z, 0-9 and _, not starting with a digit"),
		required(field+".DisplayName", f.DisplayName), checkFieldText(field+".", f.DisplayName, f.Type, f.Placeholder, f.HelpText),
	); err != nil {
		return fieldArgs{}, err
	}
	if f.Position != nil && *f.Position < 0 {
		return fieldArgs{}, apierr.ArgumentError(field+".Position", fmt.Sprintf("is %d; positions count from 0", *f.Position))
	}
	opts, err := optionsArg(field+".Options", f.Options)
	if err != nil {
		return fieldArgs{}, err
	}
	w := fieldArgs{
		Name: f.Name, DisplayName: f.DisplayName, Type: string(f.Type),
		Localized: trueOrNil(f.Localized), Required: trueOrNil(f.Required),
		Position: f.Position, Options: opts, FieldConfig: (*fieldConfigArg)(f.Relation),
	}
	if f.Placeholder != "" {
		w.Placeholder = &f.Placeholder
	}
	if f.HelpText != "" {
		w.HelpText = &f.HelpText
	}
	return w, nil
}

type createModelArgs struct {
	Project              string      `json:"project"`
	Slug                 string      `json:"slug"`
	DisplayName          string      `json:"displayName"`
	Description          string      `json:"description,omitempty"`
	Kind                 string      `json:"kind,omitempty"`
	Icon                 string      `json:"icon,omitempty"`
	EnableVersionHistory *bool       `json:"enableVersionHistory,omitempty"`
	IncludeBody          *bool       `json:"includeBody,omitempty"`
	Fields               []fieldArgs `json:"fields,omitempty"`
}

// checkModelText checks what a new model and a model update both set.
func checkModelText(displayName, description, icon string, kind content.ModelKind) error {
	return cmp.Or(maxLen("DisplayName", displayName, 200), maxLen("Description", description, 1000), maxLen("Icon", icon, 50),
		oneOf("Kind", kind, "collection or single", "", content.KindCollection, content.KindSingle))
}

// CreateModel creates a model with createContentModel.
func CreateModel(ctx context.Context, c Caller, project string, m content.NewModel) (*content.Model, error) {
	if err := cmp.Or(
		checkProject(project), pattern("Slug", m.Slug, 100, modelSlugRE, "a-z, 0-9 and -"),
		required("DisplayName", m.DisplayName), checkModelText(m.DisplayName, m.Description, m.Icon, m.Kind),
	); err != nil {
		return nil, err
	}
	args := createModelArgs{
		Project: project, Slug: m.Slug, DisplayName: m.DisplayName, Description: m.Description,
		Kind: string(m.Kind), Icon: m.Icon,
	}
	no := false
	if m.NoVersionHistory {
		args.EnableVersionHistory = &no
	}
	if m.NoBody {
		args.IncludeBody = &no
	}
	for i, f := range m.Fields {
		fa, err := newFieldArgs(fmt.Sprintf("Fields[%d]", i), f)
		if err != nil {
			return nil, err
		}
		args.Fields = append(args.Fields, fa)
	}
	return writeModel(ctx, c, "createContentModel", args)
}

type updateModelArgs struct {
	Project              string  `json:"project"`
	ModelSlug            string  `json:"modelSlug"`
	DisplayName          string  `json:"displayName,omitempty"`
	Description          *string `json:"description,omitempty"`
	Kind                 string  `json:"kind,omitempty"`
	Icon                 *string `json:"icon,omitempty"`
	EnableVersionHistory *bool   `json:"enableVersionHistory,omitempty"`
	IncludeBody          *bool   `json:"includeBody,omitempty"`
}

// UpdateModel changes a model with updateContentModel.
func UpdateModel(ctx context.Context, c Caller, project, model string, u content.ModelUpdate) (*content.Model, error) {
	if err := cmp.Or(checkModelRef(project, model), checkModelText(u.DisplayName, deref(u.Description), deref(u.Icon), u.Kind)); err != nil {
		return nil, err
	}
	if u == (content.ModelUpdate{}) {
		return nil, apierr.ArgumentError("update", "changes nothing")
	}
	args := updateModelArgs{
		Project: project, ModelSlug: model, DisplayName: u.DisplayName, Description: u.Description,
		Kind: string(u.Kind), Icon: u.Icon, EnableVersionHistory: u.VersionHistory, IncludeBody: u.IncludeBody,
	}
	return writeModel(ctx, c, "updateContentModel", args)
}

// DeleteModel deletes a model, its fields and entries with
// deleteContentModel.
func DeleteModel(ctx context.Context, c Caller, project, model string) error {
	if err := checkModelRef(project, model); err != nil {
		return err
	}
	return confirm(ctx, c, "deleteContentModel", modelArgs{Project: project, ModelSlug: model})
}

func writeModel(ctx context.Context, c Caller, tool string, args any) (*content.Model, error) {
	m, _, err := write(ctx, c, tool, args, "model", modelFrom)
	return m, err
}

func writeField(ctx context.Context, c Caller, tool string, args any) (*content.Field, error) {
	f, _, err := write(ctx, c, tool, args, "field", fieldFrom)
	return f, err
}

// AddField adds a field to a model with addField.
func AddField(ctx context.Context, c Caller, project, model string, f content.NewField) (*content.Field, error) {
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	fa, err := newFieldArgs("field", f)
	if err != nil {
		return nil, err
	}
	return writeField(ctx, c, "addField", modelArgs{Project: project, ModelSlug: model, fieldArgs: fa})
}

// UpdateField changes a field with updateField.
func UpdateField(ctx context.Context, c Caller, project, model, name string, u content.FieldUpdate) (*content.Field, error) {
	if err := cmp.Or(
		checkModelRef(project, model), required("field name", name),
		checkFieldText("", u.DisplayName, u.Type, deref(u.Placeholder), deref(u.HelpText)),
	); err != nil {
		return nil, err
	}
	opts, err := optionsArg("Options", u.Options)
	if err != nil {
		return nil, err
	}
	if u == (content.FieldUpdate{}) {
		return nil, apierr.ArgumentError("update", "changes nothing")
	}
	fa := fieldArgs{
		DisplayName: u.DisplayName, Type: string(u.Type), Localized: u.Localized, Required: u.Required,
		Placeholder: u.Placeholder, HelpText: u.HelpText, Options: opts, FieldConfig: (*fieldConfigArg)(u.Relation),
	}
	return writeField(ctx, c, "updateField", modelArgs{Project: project, ModelSlug: model, FieldName: name, fieldArgs: fa})
}

// RemoveField removes a field and its values in every entry with
// removeField.
func RemoveField(ctx context.Context, c Caller, project, model, name string) error {
	if err := cmp.Or(checkModelRef(project, model), required("field name", name)); err != nil {
		return err
	}
	return confirm(ctx, c, "removeField", modelArgs{Project: project, ModelSlug: model, FieldName: name})
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
	return confirm(ctx, c, "reorderFields", modelArgs{Project: project, ModelSlug: model, FieldNames: names})
}
