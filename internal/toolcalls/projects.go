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

// namespaceWire is a namespace record, long or abbreviated.
type namespaceWire struct {
	Nm, Name, Desc, Description string
	KC, KeyCount                flexCount
	Ctx, Context                json.RawMessage
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
		out := make(namespacesWire, 0, len(list))
		for _, raw := range list {
			out = append(out, namespaceFrom("", raw))
		}
		*n = out
		return nil
	}
	var byName map[string]json.RawMessage
	if json.Unmarshal(b, &byName) != nil {
		return nil
	}
	out := make(namespacesWire, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, namespaceFrom(name, byName[name]))
	}
	*n = out
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
	return ns
}

type projectSummaryWire struct {
	ID, Slug, Name, OrganizationName, SourceLanguage string
	TargetLanguages                                  flexStrings
	CDNFormat, FileStructure, KeyFormat              string
}

// ListProjects lists the projects the grant can use, with listProjects.
func ListProjects(ctx context.Context, c Caller) (*translations.ProjectList, error) {
	var w struct {
		Projects   []json.RawMessage
		CDNBaseURL string
	}
	raw, err := call(ctx, c, "listProjects", struct{}{}, &w)
	if err != nil {
		return nil, err
	}
	r := &translations.ProjectList{CDNBaseURL: w.CDNBaseURL, Raw: raw}
	for _, pr := range w.Projects {
		var p projectSummaryWire
		_ = decode("listProjects", pr, &p)
		r.Projects = append(r.Projects, translations.ProjectSummary{
			ID: p.ID, Slug: p.Slug, Name: p.Name, OrganizationName: p.OrganizationName,
			SourceLanguage: p.SourceLanguage, TargetLanguages: p.TargetLanguages, CDNFormat: p.CDNFormat,
			FileStructure: cmp.Or(translations.FileStructure(p.FileStructure), translations.SingleFile),
			KeyFormat:     cmp.Or(translations.KeyFormat(p.KeyFormat), translations.Nested),
			Raw:           pr,
		})
	}
	return r, nil
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
	var w getProjectWire
	raw, err := call(ctx, c, "getProject", projectArgs{project}, &w)
	if err != nil {
		return nil, err
	}
	p := &translations.Project{
		Slug: cmp.Or(w.Prj, project), SourceLanguage: w.SL, Languages: w.Lng, Namespaces: w.NSS.or(nil),
		TotalKeys: int(w.TK), Message: w.Msg, Raw: raw,
	}
	if w.Cov != nil {
		p.Coverage = make(map[string]translations.Coverage, len(w.Cov))
		for lang, cv := range w.Cov {
			p.Coverage[lang] = translations.Coverage{Translated: cv.Tr, Percent: cv.Pct}
		}
	}
	if w.CDN != nil {
		p.CDN = &translations.CDN{
			BaseURL: strings.TrimRight(w.CDN.Base, "/"), ManifestURL: w.CDN.Mfst, Pattern: w.CDN.Pat, Examples: w.CDN.Ex,
			FileStructure: translations.FileStructure(w.CDN.FS), KeyFormat: translations.KeyFormat(w.CDN.KF),
		}
	}
	return p, nil
}
