package toolcalls

import (
	"context"
	"encoding/json"
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

// modelWire is the Model result shape, and an item of listContentModels.
type modelWire struct {
	ID   string            `json:"id"`
	Sl   string            `json:"sl"`
	Dn   string            `json:"dn"`
	Desc string            `json:"desc"`
	Kind string            `json:"kind"`
	Ico  string            `json:"ico"`
	Vh   bool              `json:"vh"`
	Ib   bool              `json:"ib"`
	Ec   int               `json:"ec"`
	Flds []json.RawMessage `json:"flds"`
}

// fieldWire is the FieldOut result shape.
type fieldWire struct {
	ID   string `json:"id"`
	Nm   string `json:"nm"`
	Dn   string `json:"dn"`
	Tp   string `json:"tp"`
	Loc  bool   `json:"loc"`
	Req  bool   `json:"req"`
	Ph   string `json:"ph"`
	Ht   string `json:"ht"`
	Pos  int    `json:"pos"`
	Opts *struct {
		Ev []struct {
			L string `json:"l"`
			V string `json:"v"`
		} `json:"ev"`
		Sit bool `json:"sit"`
	} `json:"opts"`
	Fc *struct {
		Tm string `json:"tm"`
		Mp *bool  `json:"mp"`
	} `json:"fc"`
}

// modelFrom decodes one model record; an odd record keeps its Raw.
func modelFrom(tool string, raw json.RawMessage) content.Model {
	var w modelWire
	_ = decode(tool, raw, &w)
	m := content.Model{
		ID: w.ID, Slug: w.Sl, DisplayName: w.Dn, Description: w.Desc, Kind: content.ModelKind(w.Kind),
		Icon: w.Ico, VersionHistory: w.Vh, IncludeBody: w.Ib, EntryCount: w.Ec, Raw: raw,
	}
	for _, f := range w.Flds {
		m.Fields = append(m.Fields, fieldFrom(tool, f))
	}
	return m
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
	var w struct {
		Mdls []json.RawMessage `json:"mdls"`
	}
	if _, err := call(ctx, c, toolListModels, projectArgs{Project: project}, &w); err != nil {
		return nil, err
	}
	ms := make([]content.Model, 0, len(w.Mdls))
	for _, raw := range w.Mdls {
		ms = append(ms, modelFrom(toolListModels, raw))
	}
	return ms, nil
}

type modelSlugArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
}

func checkModelRef(project, model string) error {
	if err := checkProject(project); err != nil {
		return err
	}
	return required("model", model)
}

// GetModel returns one model with getContentModel.
func GetModel(ctx context.Context, c Caller, project, model string) (*content.Model, error) {
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	raw, err := call(ctx, c, toolGetModel, modelSlugArgs{project, model}, &struct{}{})
	if err != nil {
		return nil, err
	}
	m := modelFrom(toolGetModel, raw)
	return &m, nil
}

// fieldArgs is the Field input shape; updateField takes it without name
// and position.
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

func checkFieldType(field string, t content.FieldType) error {
	switch t {
	case "", content.FieldText, content.FieldTextarea, content.FieldRichText, content.FieldNumber, content.FieldBoolean,
		content.FieldDate, content.FieldDateTime, content.FieldEnum, content.FieldMedia, content.FieldRelation:
		return nil
	}
	return apierr.ArgumentError(field, fmt.Sprintf("%s is not a field type (text, textarea, richtext, number, boolean, date, datetime, enum, media, relation)", apierr.Quote(string(t))))
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
			if err := required(f, p.s); err != nil {
				return nil, err
			}
			if err := maxLen(f, p.s, 200); err != nil {
				return nil, err
			}
		}
		w.EnumValues = append(w.EnumValues, enumValueArg{Label: ev.Label, Value: ev.Value})
	}
	if o.Unsplash != nil {
		w.Unsplash = &enabledArg{Enabled: *o.Unsplash}
	}
	if ai := o.AIGeneration; ai != nil {
		if err := maxLen(field+".AIGeneration.Prompt", ai.Prompt, 2000); err != nil {
			return nil, err
		}
		if err := maxLen(field+".AIGeneration.Model", ai.Model, 100); err != nil {
			return nil, err
		}
		w.AIGeneration = &aiArg{Enabled: ai.Enabled, Prompt: ai.Prompt, Model: ai.Model}
	}
	return w, nil
}

func relationArg(r *content.Relation) *fieldConfigArg {
	if r == nil {
		return nil
	}
	return &fieldConfigArg{TargetModel: r.TargetModel, Multiple: r.Multiple}
}

// newFieldArgs checks a NewField and returns its wire form; field names
// it in errors.
func newFieldArgs(field string, f content.NewField) (fieldArgs, error) {
	if err := pattern(field+".Name", f.Name, 100, fieldNameRE, "a-z, 0-9 and _, not starting with a digit"); err != nil {
		return fieldArgs{}, err
	}
	if err := required(field+".DisplayName", f.DisplayName); err != nil {
		return fieldArgs{}, err
	}
	if err := maxLen(field+".DisplayName", f.DisplayName, 200); err != nil {
		return fieldArgs{}, err
	}
	if err := checkFieldType(field+".Type", f.Type); err != nil {
		return fieldArgs{}, err
	}
	if err := maxLen(field+".Placeholder", f.Placeholder, 500); err != nil {
		return fieldArgs{}, err
	}
	if err := maxLen(field+".HelpText", f.HelpText, 500); err != nil {
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
		Position: f.Position, Options: opts, FieldConfig: relationArg(f.Relation),
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

func checkKind(k content.ModelKind) error {
	switch k {
	case "", content.KindCollection, content.KindSingle:
		return nil
	}
	return apierr.ArgumentError("Kind", fmt.Sprintf("%s is not collection or single", apierr.Quote(string(k))))
}

// modelWrite is the answer of createContentModel and updateContentModel.
type modelWrite struct {
	Model json.RawMessage `json:"model"`
}

// writtenModel decodes a model write's answer.
func writtenModel(tool string, w modelWrite) (*content.Model, error) {
	if !isObject(w.Model) {
		return nil, fmt.Errorf("partner: tool %s: %w: the result has no model", tool, apierr.ErrUnexpectedResponse)
	}
	m := modelFrom(tool, w.Model)
	return &m, nil
}

// CreateModel creates a model with createContentModel.
func CreateModel(ctx context.Context, c Caller, project string, m content.NewModel) (*content.Model, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	if err := pattern("Slug", m.Slug, 100, modelSlugRE, "a-z, 0-9 and -"); err != nil {
		return nil, err
	}
	if err := required("DisplayName", m.DisplayName); err != nil {
		return nil, err
	}
	for _, l := range [...]struct {
		field, s string
		n        int
	}{{"DisplayName", m.DisplayName, 200}, {"Description", m.Description, 1000}, {"Icon", m.Icon, 50}} {
		if err := maxLen(l.field, l.s, l.n); err != nil {
			return nil, err
		}
	}
	if err := checkKind(m.Kind); err != nil {
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
	var w modelWrite
	if _, err := call(ctx, c, toolCreateModel, args, &w); err != nil {
		return nil, err
	}
	return writtenModel(toolCreateModel, w)
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
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	if err := maxLen("DisplayName", u.DisplayName, 200); err != nil {
		return nil, err
	}
	if u.Description != nil {
		if err := maxLen("Description", *u.Description, 1000); err != nil {
			return nil, err
		}
	}
	if u.Icon != nil {
		if err := maxLen("Icon", *u.Icon, 50); err != nil {
			return nil, err
		}
	}
	if err := checkKind(u.Kind); err != nil {
		return nil, err
	}
	if u == (content.ModelUpdate{}) {
		return nil, apierr.ArgumentError("update", "changes nothing")
	}
	args := updateModelArgs{
		Project: project, ModelSlug: model, DisplayName: u.DisplayName, Description: u.Description,
		Kind: string(u.Kind), Icon: u.Icon, EnableVersionHistory: u.VersionHistory, IncludeBody: u.IncludeBody,
	}
	var w modelWrite
	if _, err := call(ctx, c, toolUpdateModel, args, &w); err != nil {
		return nil, err
	}
	return writtenModel(toolUpdateModel, w)
}

// DeleteModel deletes a model, its fields and entries with
// deleteContentModel.
func DeleteModel(ctx context.Context, c Caller, project, model string) error {
	if err := checkModelRef(project, model); err != nil {
		return err
	}
	text, err := c.Call(ctx, toolDeleteModel, modelSlugArgs{project, model})
	if err != nil {
		return err
	}
	return confirmed(toolDeleteModel, text)
}

type addFieldArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
	fieldArgs
}

// fieldWrite is the answer of addField and updateField.
type fieldWrite struct {
	Field json.RawMessage `json:"field"`
}

func writtenField(tool string, w fieldWrite) (*content.Field, error) {
	if !isObject(w.Field) {
		return nil, fmt.Errorf("partner: tool %s: %w: the result has no field", tool, apierr.ErrUnexpectedResponse)
	}
	f := fieldFrom(tool, w.Field)
	return &f, nil
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
	var w fieldWrite
	if _, err := call(ctx, c, toolAddField, addFieldArgs{project, model, fa}, &w); err != nil {
		return nil, err
	}
	return writtenField(toolAddField, w)
}

type updateFieldArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
	FieldName string `json:"fieldName"`
	fieldArgs
}

// UpdateField changes a field with updateField.
func UpdateField(ctx context.Context, c Caller, project, model, name string, u content.FieldUpdate) (*content.Field, error) {
	if err := checkModelRef(project, model); err != nil {
		return nil, err
	}
	if err := required("field name", name); err != nil {
		return nil, err
	}
	if err := maxLen("DisplayName", u.DisplayName, 200); err != nil {
		return nil, err
	}
	if err := checkFieldType("Type", u.Type); err != nil {
		return nil, err
	}
	for _, p := range [...]struct {
		field string
		s     *string
	}{{"Placeholder", u.Placeholder}, {"HelpText", u.HelpText}} {
		if p.s != nil {
			if err := maxLen(p.field, *p.s, 500); err != nil {
				return nil, err
			}
		}
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
		Placeholder: u.Placeholder, HelpText: u.HelpText, Options: opts, FieldConfig: relationArg(u.Relation),
	}
	var w fieldWrite
	if _, err := call(ctx, c, toolUpdateField, updateFieldArgs{project, model, name, fa}, &w); err != nil {
		return nil, err
	}
	return writtenField(toolUpdateField, w)
}

type fieldNameArgs struct {
	Project   string `json:"project"`
	ModelSlug string `json:"modelSlug"`
	FieldName string `json:"fieldName"`
}

// RemoveField removes a field and its values in every entry with
// removeField.
func RemoveField(ctx context.Context, c Caller, project, model, name string) error {
	if err := checkModelRef(project, model); err != nil {
		return err
	}
	if err := required("field name", name); err != nil {
		return err
	}
	text, err := c.Call(ctx, toolRemoveField, fieldNameArgs{project, model, name})
	if err != nil {
		return err
	}
	return confirmed(toolRemoveField, text)
}

type reorderArgs struct {
	Project    string   `json:"project"`
	ModelSlug  string   `json:"modelSlug"`
	FieldNames []string `json:"fieldNames"`
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
	text, err := c.Call(ctx, toolReorderFields, reorderArgs{project, model, names})
	if err != nil {
		return err
	}
	return confirmed(toolReorderFields, text)
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	for _, b := range raw {
		switch b {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return b == '{'
	}
	return false
}
