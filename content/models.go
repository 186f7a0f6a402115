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
	KindCollection ModelKind = "collection" // any number of entries (the default)
	KindSingle     ModelKind = "single"     // one entry, for example a site's footer
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
	FieldEnum     FieldType = "enum" // a choice among FieldOptions.EnumValues
	FieldMedia    FieldType = "media"
	FieldRelation FieldType = "relation" // points at entries of Relation.TargetModel
)

// Model is a content model: the shape of its entries.
type Model struct {
	ID             string // the model's UUID
	Slug           string // names the model in every call; it cannot be changed
	DisplayName    string
	Description    string
	Kind           ModelKind
	Icon           string
	VersionHistory bool            // whether entry versions are kept (not sent by Models.List)
	IncludeBody    bool            // whether entries have a markdown body
	EntryCount     int             // the number of entries (Models.List only)
	Fields         []Field         // the model's fields, by position
	Raw            json.RawMessage // the model as the service sent it
}

// Field is a field of a model, as the service reports it.
type Field struct {
	ID          string // the field's UUID
	Name        string // names the field in entries' Fields and in field calls
	DisplayName string
	Type        FieldType
	Localized   bool // a value per language; otherwise one value
	Required    bool
	// Placeholder and HelpText guide editors.
	Placeholder string
	HelpText    string
	Position    int             // the field's place in the model, from 0
	EnumValues  []EnumValue     // the choices of an enum field
	ShowInTable bool            // whether the dashboard shows the field in the entry table
	Relation    *Relation       // the target of a relation field; nil otherwise
	Raw         json.RawMessage // the field as the service sent it
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
	EnumValues   []EnumValue   // the choices of an enum field, at most MaxEnumValues
	Unsplash     *bool         // picking images from Unsplash (media fields): Ptr(true) on, Ptr(false) off
	AIGeneration *AIGeneration // configures generating the field's value; nil sends none
	ShowInTable  *bool         // the field in the dashboard's entry table: Ptr(true) shown, Ptr(false) hidden
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
	Name        string
	DisplayName string    // 1 to 200 characters; required
	Type        FieldType // "" means FieldText
	Localized   bool      // a value per language (false, the service's default, sends nothing)
	Required    bool      // makes the field mandatory (false, the service's default, sends nothing)
	// Placeholder and HelpText are at most 500 characters each.
	Placeholder string
	HelpText    string
	Position    *int          // places the field (from 0); nil puts it where the service chooses
	Options     *FieldOptions // the field's options; nil sends none
	Relation    *Relation     // configures a relation field; nil sends none
}

// FieldUpdate changes a field with Models.UpdateField. A zero value or
// nil member leaves that property unchanged; Ptr(false) switches a flag
// off. The name and position are not changed here (see
// Models.ReorderFields).
type FieldUpdate struct {
	DisplayName string
	Type        FieldType
	Localized   *bool
	Required    *bool
	// Placeholder and HelpText are at most 500 characters; a pointer to
	// "" clears them.
	Placeholder *string
	HelpText    *string
	Options     *FieldOptions // when not nil, sent as the field's options
	Relation    *Relation     // when not nil, sent as the field's relation config
}

// NewModel is a model to create with Models.Create.
type NewModel struct {
	// Slug is 1 to 100 characters of a-z, 0-9 and -, unique in the
	// project. Required; it cannot be changed later.
	Slug             string
	DisplayName      string     // 1 to 200 characters; required
	Description      string     // at most 1,000 characters
	Kind             ModelKind  // KindCollection when ""
	Icon             string     // at most 50 characters
	NoVersionHistory bool       // turns off entry versions, which are kept by default
	NoBody           bool       // makes entries without a markdown body, which they have by default
	Fields           []NewField // the model's first fields
}

// ModelUpdate changes a model with Models.Update. A zero value or nil
// member leaves that property unchanged (Ptr(false) switches a flag
// off); the slug cannot change.
type ModelUpdate struct {
	DisplayName    string  // 1 to 200 characters
	Description    *string // at most 1,000 characters; a pointer to "" clears it
	Kind           ModelKind
	Icon           *string // at most 50 characters; a pointer to "" clears it
	VersionHistory *bool
	IncludeBody    *bool
}
