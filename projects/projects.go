package projects

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Project is a project of an organization. Only the fields given at
// creation are sure to be in the record; the others are decoded where the
// service sends them under the obvious names, and the whole record is kept
// in Raw.
type Project struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Name           string `json:"name"`
	Slug           string `json:"slug"`
	SourceLanguage string `json:"sourceLanguage"`
	// TargetLanguages is nil when the record does not list them. The
	// service may list them as objects or as bare codes; both decode.
	TargetLanguages []Language `json:"targetLanguages"`
	// Raw is the record as the service sent it.
	Raw json.RawMessage `json:"-"`
}

// Language is a target language of a project.
type Language struct {
	Code string `json:"code"` // the language code, for example "de"
	Name string `json:"name"` // the display name, when the service gives one
	// Raw is the record as the service sent it, for the language
	// AddLanguage returns; in Project.TargetLanguages it is nil (the
	// project's Raw holds the list).
	Raw json.RawMessage `json:"-"`
}

// NewProject are the fields of a new project. All three are required.
type NewProject struct {
	Name           string `json:"name"`
	Slug           string `json:"slug"`
	SourceLanguage string `json:"sourceLanguage"`
}

// String describes the project by id, slug and name; Raw is left out.
func (p Project) String() string {
	return fmt.Sprintf("projects.Project{ID: %q, Slug: %q, Name: %q, SourceLanguage: %q, TargetLanguages: %v}",
		p.ID, p.Slug, p.Name, p.SourceLanguage, p.TargetLanguages)
}

// UnmarshalJSON accepts a language object ({"code", "name" or
// "languageName"}) or a bare language code, the two forms the service may
// list target languages in.
func (l *Language) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*l = Language{}
		if len(b) > 1 && b[len(b)-1] == '"' && !bytes.ContainsRune(b, '\\') && utf8.Valid(b) { // nothing to unescape: no nested decode
			l.Code = string(b[1 : len(b)-1])
			return nil
		}
		return json.Unmarshal(b, &l.Code)
	}
	var w struct {
		Code         string `json:"code"`
		Name         string `json:"name"`
		LanguageName string `json:"languageName"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*l = Language{Code: w.Code, Name: cmp.Or(w.Name, w.LanguageName)}
	return nil
}

// String describes the language by code and name; Raw is left out.
func (l Language) String() string { return fmt.Sprintf("%s (%s)", l.Code, l.Name) }
