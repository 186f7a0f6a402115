package toolcalls

import (
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"

	"github.com/locsvc/partner-go/internal/lenient"
	"github.com/locsvc/partner-go/translations"
)

// Project tool names on the translations server.
const (
	toolListProjects = "listProjects"
	toolGetProject   = "getProject"
)

// namespaces decodes namespace details sent as a list of records (or of
// names), or as an object keyed by name whose values are records (or
// descriptions). It never fails; an odd record keeps its Raw.
type namespaces []translations.Namespace

func (n *namespaces) UnmarshalJSON(b []byte) error {
	var list []json.RawMessage
	if json.Unmarshal(b, &list) == nil {
		out := make(namespaces, 0, len(list))
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
	out := make(namespaces, 0, len(byName))
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, namespaceFrom(name, byName[name]))
	}
	*n = out
	return nil
}

// or returns n, or else m when n is empty.
func (n namespaces) or(m namespaces) []translations.Namespace {
	if len(n) > 0 {
		return n
	}
	if len(m) > 0 {
		return m
	}
	return nil
}

// namespaceFrom decodes one namespace record, long or abbreviated; name
// is its key when the records are keyed by name. A string is the name
// (or, keyed, the description).
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
	get := func(name string) string { return lenient.Get[string](raw, name) }
	count := func(name string) lenient.Count { return lenient.Get[lenient.Count](raw, name) }
	ns.Name, ns.Description = cmp.Or(name, get("nm"), get("name")), cmp.Or(get("desc"), get("description"))
	ns.KeyCount = int(cmp.Or(count("kc"), count("keyCount")))
	// A context is the abbreviated {t, d, ap, tg} or the long form
	// createKeys takes.
	var c struct { // keys match case-insensitively
		T, Team, D, Domain, AP, AIPrompt, Description string
		TG, Tags                                      lenient.Strings
	}
	ctx := lenient.Get[json.RawMessage](raw, "ctx")
	if len(ctx) == 0 {
		ctx = lenient.Get[json.RawMessage](raw, "context")
	}
	if ctx = lenient.Present(ctx); len(ctx) > 0 && json.Unmarshal(ctx, &c) == nil {
		ns.Context = &translations.NamespaceContext{
			Description: cmp.Or(c.Description, ns.Description),
			Team:        cmp.Or(c.T, c.Team), Domain: cmp.Or(c.D, c.Domain), AIPrompt: cmp.Or(c.AP, c.AIPrompt),
			Tags: c.TG,
		}
		if len(c.TG) == 0 {
			ns.Context.Tags = c.Tags
		}
	}
	return ns
}

// ListProjects lists the projects the grant can use, with listProjects.
func ListProjects(ctx context.Context, c Caller) (*translations.ProjectList, error) {
	var r translations.ProjectList
	return result(ctx, c, toolListProjects, struct{}{}, &r, &r.Raw)
}

// GetProject reads a project's overview with getProject.
func GetProject(ctx context.Context, c Caller, project string) (*translations.Project, error) {
	if err := checkProject(project); err != nil {
		return nil, err
	}
	var p translations.Project
	if err := fill(ctx, c, toolGetProject, projectArgs{project}, &p, &p.Raw); err != nil {
		return nil, err
	}
	p.Slug, p.Namespaces = cmp.Or(p.Slug, project), lenient.Get[namespaces](p.Raw, "nss").or(nil)
	p.Languages, p.TotalKeys = lenient.Get[lenient.Strings](p.Raw, "lng"), int(lenient.Get[lenient.Count](p.Raw, "tk"))
	return &p, nil
}
