package content

import "encoding/json"

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
	ID string
	// Slug names the model in every call; it cannot be changed.
	Slug        string
	DisplayName string
	Description string
	Kind        ModelKind
	Icon        string
	// VersionHistory reports whether entry versions are kept (not sent
	// by Models.List).
	VersionHistory bool
	// IncludeBody reports whether entries have a markdown body.
	IncludeBody bool
	// EntryCount is the number of entries (Models.List only).
	EntryCount int
	// Fields are the model's fields, by position.
	Fields []Field
	// Raw is the model as the service sent it.
	Raw json.RawMessage
}

// Field is a field of a model, as the service reports it.
type Field struct {
	// ID is the field's UUID.
	ID string
	// Name names the field in entries' Fields and in field calls.
	Name        string
	DisplayName string
	Type        FieldType
	// Localized fields have a value per language; others one value.
	Localized bool
	Required  bool
	// Placeholder and HelpText guide editors.
	Placeholder string
	HelpText    string
	// Position is the field's place in the model, from 0.
	Position int
	// EnumValues are the choices of an enum field.
	EnumValues []EnumValue
	// ShowInTable reports whether the dashboard shows the field in the
	// entry table.
	ShowInTable bool
	// Relation is the target of a relation field; nil otherwise.
	Relation *Relation
	// Raw is the field as the service sent it.
	Raw json.RawMessage
}

// EnumValue is one choice of an enum field.
type EnumValue struct {
	// Label is what editors see, Value what entries store (each 1 to 200
	// characters).
	Label, Value string
}

// Ptr returns a pointer to v, for the optional members of FieldOptions,
// Relation, FieldUpdate and ModelUpdate: content.Ptr(false) switches a
// setting off, where nil leaves it as it is.
func Ptr[T any](v T) *T { return &v }

// Relation is the target of a relation field.
type Relation struct {
	// TargetModel is the slug of the model the field points at;
	// UsersModel points at project members. "" sends none.
	TargetModel string
	// Multiple allows more than one related entry: Ptr(true) or
	// Ptr(false); nil sends nothing (in a Field, the service did not say).
	Multiple *bool
}

// FieldOptions are a field's options as the tools take them. They are
// sent as one object; a nil member or an empty list is left out, so
// that a setting is switched off with Ptr(false).
type FieldOptions struct {
	// EnumValues are the choices of an enum field, at most
	// MaxEnumValues.
	EnumValues []EnumValue
	// Unsplash enables (Ptr(true)) or disables (Ptr(false)) picking
	// images from Unsplash (media fields).
	Unsplash *bool
	// AIGeneration configures generating the field's value; nil sends
	// none.
	AIGeneration *AIGeneration
	// ShowInTable shows (Ptr(true)) or hides (Ptr(false)) the field in
	// the dashboard's entry table.
	ShowInTable *bool
}

// AIGeneration configures the generation of a field's value. It is sent
// whole: Enabled false switches generation off.
type AIGeneration struct {
	Enabled bool
	// Prompt is the instruction (at most 2,000 characters); Model the
	// generation model's name (at most 100). "" leaves them unset.
	Prompt, Model string
}

// NewField is a field to add to a model, with Models.AddField or in
// NewModel.Fields.
type NewField struct {
	// Name is 1 to 100 characters of a-z, 0-9 and _, not starting with a
	// digit. Required; it cannot be changed later.
	Name string
	// DisplayName is 1 to 200 characters. Required.
	DisplayName string
	// Type is the field's type; "" means FieldText.
	Type FieldType
	// Localized gives the field a value per language (false, the
	// service's default, sends nothing).
	Localized bool
	// Required makes the field mandatory (false, the service's default,
	// sends nothing).
	Required bool
	// Placeholder and HelpText are at most 500 characters each.
	Placeholder string
	HelpText    string
	// Position places the field (from 0); nil puts it where the service
	// chooses.
	Position *int
	// Options are the field's options; nil sends none.
	Options *FieldOptions
	// Relation configures a relation field; nil sends none.
	Relation *Relation
}

// FieldUpdate changes a field with Models.UpdateField. A zero value or
// nil member leaves that property unchanged; Ptr(false) switches a flag
// off. The name and position are not changed here (see
// Models.ReorderFields).
type FieldUpdate struct {
	DisplayName string
	Type        FieldType
	// Localized and Required: Ptr(true) or Ptr(false); nil leaves them.
	Localized *bool
	Required  *bool
	// Placeholder and HelpText are at most 500 characters; a pointer to
	// "" clears them.
	Placeholder *string
	HelpText    *string
	// Options, when not nil, is sent as the field's options.
	Options *FieldOptions
	// Relation, when not nil, is sent as the field's relation config.
	Relation *Relation
}

// NewModel is a model to create with Models.Create.
type NewModel struct {
	// Slug is 1 to 100 characters of a-z, 0-9 and -, unique in the
	// project. Required; it cannot be changed later.
	Slug string
	// DisplayName is 1 to 200 characters. Required.
	DisplayName string
	// Description is at most 1,000 characters.
	Description string
	// Kind is KindCollection when "".
	Kind ModelKind
	// Icon is at most 50 characters.
	Icon string
	// NoVersionHistory turns off entry versions, which are kept by
	// default.
	NoVersionHistory bool
	// NoBody makes entries without a markdown body, which they have by
	// default.
	NoBody bool
	// Fields are the model's first fields.
	Fields []NewField
}

// ModelUpdate changes a model with Models.Update. A zero value or nil
// member leaves that property unchanged (Ptr(false) switches a flag
// off); the slug cannot change.
type ModelUpdate struct {
	// DisplayName is 1 to 200 characters.
	DisplayName string
	// Description is at most 1,000 characters; a pointer to "" clears it.
	Description *string
	Kind        ModelKind
	// Icon is at most 50 characters; a pointer to "" clears it.
	Icon           *string
	VersionHistory *bool
	IncludeBody    *bool
}
