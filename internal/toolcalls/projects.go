package toolcalls

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/locsvc/partner-go/translations"
)

// present returns raw, or nil when it is absent or null.
func present(raw json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(raw); len(t) == 0 || string(t) == "null" {
		return nil
	}
	return raw
}

// namespaceWire is a namespace record, long or abbreviated; getTranslations'
// abbreviated one has the context's AI prompt beside the description (ap).
type namespaceWire struct {
	Nm, Name, Desc, Description, AP string
	KC, KeyCount                    flexCount
	Ctx, Context                    json.RawMessage
}

// nsContextAnswer is a namespace's context: the abbreviated {t, d, ap, tg}
// or the long form createKeys takes.
type nsContextAnswer struct {
	T, Team, D, Domain, AP, AIPrompt, Description string
	TG, Tags                                      flexStrings
}

// namespacesWire decodes namespace details sent as a list of records (or
// of names), or as an object keyed by name whose values are records (or
// descriptions). It never fails; an odd record keeps its Raw.
type namespacesWire []translations.Namespace

func (n *namespacesWire) UnmarshalJSON(b []byte) error {
	var list []json.RawMessage
	if json.Unmarshal(b, &list) == nil {
		*n = each(list, func(raw json.RawMessage) translations.Namespace { return namespaceFrom("", raw) })
		return nil
	}
	var byName map[string]json.RawMessage
	if json.Unmarshal(b, &byName) == nil {
		*n = each(slices.Sorted(maps.Keys(byName)), func(name string) translations.Namespace { return namespaceFrom(name, byName[name]) })
	}
	return nil
}

// or returns n, or else m when n is empty.
func (n namespacesWire) or(m namespacesWire) []translations.Namespace {
	if len(n) > 0 {
		return n
	}
	if len(m) > 0 {
		return m
	}
	return nil
}

// namespaceFrom decodes one namespace record; name is its key when the
// records are keyed by name. A string is the name (or, keyed, the
// description).
func namespaceFrom(name string, raw json.RawMessage) translations.Namespace {
	ns := translations.Namespace{Name: name, Raw: raw}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if name == "" {
			ns.Name = s
		} else {
			ns.Description = s
		}
		return ns
	}
	var w namespaceWire
	_ = json.Unmarshal(raw, &w)
	ns.Name = cmp.Or(name, w.Nm, w.Name)
	ns.Description = cmp.Or(w.Desc, w.Description)
	ns.KeyCount = int(cmp.Or(w.KC, w.KeyCount))
	ctx := present(json.RawMessage(cmp.Or(string(w.Ctx), string(w.Context))))
	var c nsContextAnswer
	if len(ctx) > 0 && json.Unmarshal(ctx, &c) == nil {
		ns.Context = &translations.NamespaceContext{
			Description: cmp.Or(c.Description, ns.Description),
			Team:        cmp.Or(c.T, c.Team), Domain: cmp.Or(c.D, c.Domain), AIPrompt: cmp.Or(c.AP, c.AIPrompt),
			Tags: []string(c.TG),
		}
		if len(c.TG) == 0 {
			ns.Context.Tags = c.Tags
		}
	}
	if w.AP != "" {
		if ns.Context == nil {
			ns.Context = &translations.NamespaceContext{Description: ns.Description}
		}
		ns.Context.AIPrompt = cmp.Or(ns.Context.AIPrompt, w.AP)
	}
	return ns
}

type projectSummaryWire struct {
	ID, Slug, Name, OrganizationName, SourceLanguage string
	TargetLanguages                                  flexStrings
	CDNFormat, FileStructure, KeyFormat              string
}

func projectFrom(tool string, raw json.RawMessage) translations.ProjectSummary {
	var p projectSummaryWire
	_ = decode(tool, raw, &p)
	return translations.ProjectSummary{
		ID: p.ID, Slug: p.Slug, Name: p.Name, OrganizationName: p.OrganizationName,
		SourceLanguage: p.SourceLanguage, TargetLanguages: p.TargetLanguages, CDNFormat: p.CDNFormat,
		FileStructure: cmp.Or(translations.FileStructure(p.FileStructure), translations.SingleFile),
		KeyFormat:     cmp.Or(translations.KeyFormat(p.KeyFormat), translations.Nested),
		Raw:           raw,
	}
}

type projectsWire struct {
	Projects   []json.RawMessage
	CDNBaseURL string
}

// ListProjects lists the projects the grant can use, with listProjects.
func ListProjects(ctx context.Context, c Caller) (*translations.ProjectList, error) {
	return result(ctx, c, "listProjects", struct{}{}, func(w *projectsWire, raw json.RawMessage) *translations.ProjectList {
		return &translations.ProjectList{CDNBaseURL: w.CDNBaseURL, Projects: records("listProjects", w.Projects, projectFrom), Raw: raw}
	})
}

type getProjectWire struct {
	Prj, SL, Msg string
	NSS          namespacesWire
	Lng          flexStrings
	TK           flexCount
	Cov          map[string]struct{ Tr, Pct int }
	CDN          *struct {
		Base, Mfst, Pat, FS, KF string
		Ex                      flexStrings
	}
}

// GetProject reads a project's overview with getProject.
func GetProject(ctx context.Context, c Caller, project string) (*translations.Project, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	return result(ctx, c, "getProject", projectArgs{project}, func(w *getProjectWire, raw json.RawMessage) *translations.Project {
		p := &translations.Project{
			Slug: cmp.Or(w.Prj, project), SourceLanguage: w.SL, Languages: w.Lng, Namespaces: w.NSS.or(nil),
			TotalKeys: int(w.TK), Message: w.Msg, Raw: raw,
			Coverage: eachValue(w.Cov, func(cv struct{ Tr, Pct int }) translations.Coverage {
				return translations.Coverage{Translated: cv.Tr, Percent: cv.Pct}
			}),
		}
		if w.CDN != nil {
			p.CDN = &translations.CDN{
				BaseURL: strings.TrimRight(w.CDN.Base, "/"), ManifestURL: w.CDN.Mfst, Pattern: w.CDN.Pat, Examples: w.CDN.Ex,
				FileStructure: translations.FileStructure(w.CDN.FS), KeyFormat: translations.KeyFormat(w.CDN.KF),
			}
		}
		return p
	})
}
