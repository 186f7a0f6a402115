package content

import (
	"bytes"
	"encoding/json"

	"github.com/locsvc/partner-go/internal/lenient"
)

// MaxEnumValues is the most options an enum field may have; the SDK
// refuses more before sending anything.
const MaxEnumValues = 200

// UsersModel is the virtual model of the project's members: a relation
// field whose TargetModel is UsersModel points at members, and
// ListOptions.Model = UsersModel lists them.
const UsersModel = "users"

// ModelKind says whether a model has many entries or one.
type ModelKind string

// The kinds of model.
const (
	// KindCollection is a model with any number of entries (the default).
	KindCollection ModelKind = "collection"
	// KindSingle is a model with one entry, for example a site's footer.
	KindSingle ModelKind = "single"
)

// FieldType is the type of a model's field.
type FieldType string

// The field types the content tools take.
const (
	FieldText     FieldType = "text" // the default
	FieldTextarea FieldType = "textarea"
	FieldRichText FieldType = "richtext"
	FieldNumber   FieldType = "number"
	FieldBoolean  FieldType = "boolean"
	FieldDate     FieldType = "date"
	FieldDateTime FieldType = "datetime"
	// FieldEnum is a choice among FieldOptions.EnumValues.
	FieldEnum  FieldType = "enum"
	FieldMedia FieldType = "media"
	// FieldRelation points at entries of Relation.TargetModel.
	FieldRelation FieldType = "relation"
)

// Model is a content model: the shape of its entries.
type Model struct {
	// ID is the model's UUID.
	ID string `json:"id"`
	// Slug names the model in every call; it cannot be changed.
	Slug        string    `json:"sl"`
	DisplayName string    `json:"dn"`
	Description string    `json:"desc"`
	Kind        ModelKind `json:"kind"`
	Icon        string    `json:"ico"`
	// VersionHistory reports whether entry versions are kept (not sent
	// by Models.List).
	VersionHistory bool `json:"vh"`
	// IncludeBody reports whether entries have a markdown body.
	IncludeBody bool `json:"ib"`
	// EntryCount is the number of entries (Models.List only).
	EntryCount int `json:"ec"`
	// Fields are the model's fields, by position.
	Fields []Field `json:"flds"`
	// Raw is the model as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a model record of the content tools and keeps it
// in Raw. It never fails.
func (m *Model) UnmarshalJSON(b []byte) error {
	type plain Model
	_ = json.Unmarshal(b, (*plain)(m))
	m.Raw = bytes.Clone(b)
	return nil
}

// Field is a field of a model, as the service reports it.
type Field struct {
	// ID is the field's UUID.
	ID string `json:"id"`
	// Name names the field in entries' Fields and in field calls.
	Name        string    `json:"nm"`
	DisplayName string    `json:"dn"`
	Type        FieldType `json:"tp"`
	// Localized fields have a value per language; others one value.
	Localized bool `json:"loc"`
	Required  bool `json:"req"`
	// Placeholder and HelpText guide editors.
	Placeholder string `json:"ph"`
	HelpText    string `json:"ht"`
	// Position is the field's place in the model, from 0.
	Position int `json:"pos"`
	// EnumValues are the choices of an enum field.
	EnumValues []EnumValue `json:"-"`
	// ShowInTable reports whether the dashboard shows the field in the
	// entry table.
	ShowInTable bool `json:"-"`
	// Relation is the target of a relation field; nil otherwise.
	Relation *Relation `json:"-"`
	// Raw is the field as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// UnmarshalJSON decodes a field record of the content tools, or a bare
// string taken as the field's name, and keeps it in Raw. It never fails.
func (f *Field) UnmarshalJSON(b []byte) error {
	f.Raw = bytes.Clone(b)
	if json.Unmarshal(b, &f.Name) == nil {
		return nil
	}
	type plain Field
	_ = json.Unmarshal(b, (*plain)(f))
	opts, fc := lenient.Get[json.RawMessage](b, "opts"), lenient.Get[json.RawMessage](b, "fc")
	f.ShowInTable = lenient.Get[bool](opts, "sit")
	for _, ev := range lenient.Get[[]map[string]string](opts, "ev") {
		f.EnumValues = append(f.EnumValues, EnumValue{Label: ev["l"], Value: ev["v"]})
	}
	if tm, mp := lenient.Get[string](fc, "tm"), lenient.Get[*bool](fc, "mp"); tm != "" || mp != nil {
		f.Relation = &Relation{TargetModel: tm, Multiple: mp}
	}
	return nil
}

// EnumValue is one choice of an enum field.
type EnumValue struct {
	// Label is what editors see, Value what entries store (each 1 to 200
	// characters).
	Label string `json:"label"`
	Value string `json:"value"`
}

// Ptr returns a pointer to v, for the optional members of FieldOptions,
// Relation, FieldUpdate and ModelUpdate: content.Ptr(false) switches a
// setting off, where nil leaves it as it is.
func Ptr[T any](v T) *T { return &v }

// Relation is the target of a relation field.
type Relation struct {
	// TargetModel is the slug of the model the field points at;
	// UsersModel points at project members. "" sends none.
	TargetModel string `json:"targetModel,omitempty"`
	// Multiple allows more than one related entry: Ptr(true) or
	// Ptr(false); nil sends nothing (in a Field, the service did not say).
	Multiple *bool `json:"multiple,omitempty"`
}

// FieldOptions are a field's options as the tools take them. They are
// sent as one object; a nil member or an empty list is left out, so
// that a setting is switched off with Ptr(false).
type FieldOptions struct {
	// EnumValues are the choices of an enum field, at most
	// MaxEnumValues.
	EnumValues []EnumValue `json:"enumValues,omitempty"`
	// Unsplash enables (Ptr(true)) or disables (Ptr(false)) picking
	// images from Unsplash (media fields).
	Unsplash *bool `json:"-"`
	// AIGeneration configures generating the field's value; nil sends
	// none.
	AIGeneration *AIGeneration `json:"aiGeneration,omitempty"`
	// ShowInTable shows (Ptr(true)) or hides (Ptr(false)) the field in
	// the dashboard's entry table.
	ShowInTable *bool `json:"showInTable,omitempty"`
}

// MarshalJSON encodes the options as the field tools take them, Unsplash
// as {"enabled": ...}.
func (o FieldOptions) MarshalJSON() ([]byte, error) {
	type plain FieldOptions
	type enabled struct {
		Enabled bool `json:"enabled"`
	}
	v := struct {
		plain
		Unsplash *enabled `json:"unsplash,omitempty"`
	}{plain: plain(o)}
	if o.Unsplash != nil {
		v.Unsplash = &enabled{*o.Unsplash}
	}
	return json.Marshal(v)
}

// AIGeneration configures the generation of a field's value. It is sent
// whole: Enabled false switches generation off.
type AIGeneration struct {
	Enabled bool `json:"enabled"`
	// Prompt is the instruction (at most 2,000 characters); Model the
	// generation model's name (at most 100). "" leaves them unset.
	Prompt string `json:"prompt,omitempty"`
	Model  string `json:"model,omitempty"`
}

// NewField is a field to add to a model, with Models.AddField or in
// NewModel.Fields.
type NewField struct {
	// Name is 1 to 100 characters of a-z, 0-9 and _, not starting with a
	// digit. Required; it cannot be changed later.
	Name string `json:"name"`
	// DisplayName is 1 to 200 characters. Required.
	DisplayName string `json:"displayName"`
	// Type is the field's type; "" means FieldText.
	Type FieldType `json:"type,omitempty"`
	// Localized gives the field a value per language (false, the
	// service's default, sends nothing).
	Localized bool `json:"localized,omitempty"`
	// Required makes the field mandatory (false, the service's default,
	// sends nothing).
	Required bool `json:"required,omitempty"`
	// Placeholder and HelpText are at most 500 characters each.
	Placeholder string `json:"placeholder,omitempty"`
	HelpText    string `json:"helpText,omitempty"`
	// Position places the field (from 0); nil puts it where the service
	// chooses.
	Position *int `json:"position,omitempty"`
	// Options are the field's options; nil sends none.
	Options *FieldOptions `json:"options,omitempty"`
	// Relation configures a relation field; nil sends none.
	Relation *Relation `json:"fieldConfig,omitempty"`
}

// FieldUpdate changes a field with Models.UpdateField. A zero value or
// nil member leaves that property unchanged; Ptr(false) switches a flag
// off. The name and position are not changed here (see
// Models.ReorderFields).
type FieldUpdate struct {
	DisplayName string    `json:"displayName,omitempty"`
	Type        FieldType `json:"type,omitempty"`
	// Localized and Required: Ptr(true) or Ptr(false); nil leaves them.
	Localized *bool `json:"localized,omitempty"`
	Required  *bool `json:"required,omitempty"`
	// Placeholder and HelpText are at most 500 characters; a pointer to
	// "" clears them.
	Placeholder *string `json:"placeholder,omitempty"`
	HelpText    *string `json:"helpText,omitempty"`
	// Options, when not nil, is sent as the field's options.
	Options *FieldOptions `json:"options,omitempty"`
	// Relation, when not nil, is sent as the field's relation config.
	Relation *Relation `json:"fieldConfig,omitempty"`
}

// NewModel is a model to create with Models.Create.
type NewModel struct {
	// Slug is 1 to 100 characters of a-z, 0-9 and -, unique in the
	// project. Required; it cannot be changed later.
	Slug string `json:"slug"`
	// DisplayName is 1 to 200 characters. Required.
	DisplayName string `json:"displayName"`
	// Description is at most 1,000 characters.
	Description string `json:"description,omitempty"`
	// Kind is KindCollection when "".
	Kind ModelKind `json:"kind,omitempty"`
	// Icon is at most 50 characters.
	Icon string `json:"icon,omitempty"`
	// NoVersionHistory turns off entry versions, which are kept by
	// default.
	NoVersionHistory bool `json:"-"`
	// NoBody makes entries without a markdown body, which they have by
	// default.
	NoBody bool `json:"-"`
	// Fields are the model's first fields.
	Fields []NewField `json:"fields,omitempty"`
}

// ModelUpdate changes a model with Models.Update. A zero value or nil
// member leaves that property unchanged (Ptr(false) switches a flag
// off); the slug cannot change.
type ModelUpdate struct {
	// DisplayName is 1 to 200 characters.
	DisplayName string `json:"displayName,omitempty"`
	// Description is at most 1,000 characters; a pointer to "" clears it.
	Description *string   `json:"description,omitempty"`
	Kind        ModelKind `json:"kind,omitempty"`
	// Icon is at most 50 characters; a pointer to "" clears it.
	Icon           *string `json:"icon,omitempty"`
	VersionHistory *bool   `json:"enableVersionHistory,omitempty"`
	IncludeBody    *bool   `json:"includeBody,omitempty"`
}
